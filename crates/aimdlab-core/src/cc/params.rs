//! What a controller's parameter struct provides to the registry: the names a scenario may
//! use for it (each with its defaults, the paper's or RFC's values), the checks serde cannot
//! make (ranges, combinations), and how to build the controller for one flow.
//!
//! A scenario's `cc = { name = "gaimd", beta = 0.875 }` is read as: the defaults of the name,
//! overlaid with the fields given, deserialized into the struct (a wrong type is an error at
//! `cc.beta`), then checked (`cc.beta: 1.5 is outside (0, 1); ...`).

use super::congestion_control::CongestionControl;
pub use crate::error::ParamError;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fmt::Debug;

/// The result of a parameter check.
pub type Checked = Result<(), ParamError>;

/// The names a scenario may give a controller, each with the function making its defaults.
pub type Names<P> = &'static [(&'static str, fn() -> P)];

/// A controller's parameters as a scenario gives them (fields in the scenario's units).
///
/// Serialized, the defaults must be a JSON object whose keys are exactly the accepted
/// fields (a struct with named fields; `struct P {}` for none).
pub trait ControllerParams: Clone + Debug + PartialEq + Serialize + DeserializeOwned + JsonSchema + Send + Sync + 'static {
    /// The controller these parameters build.
    type Controller: CongestionControl;
    /// The names a scenario may give (lower case, `_` between words), each with its defaults.
    const NAMES: Names<Self>;
    /// The controller needs ECN on and the receiver's exact echo of each segment's mark
    /// (`tcp.ecn_echo = "dctcp"`): DCTCP, as Linux's `TCP_CONG_NEEDS_ECN`. Default false.
    const NEEDS_ACCURATE_ECN: bool = false;
    /// Checks the values serde accepted: ranges and combinations.
    /// `name` is the name it was chosen under (one of `NAMES`).
    fn check(&self, name: &'static str) -> Checked;
    /// A controller for one flow, chosen under `name` (one of `NAMES`).
    fn build(&self, name: &'static str) -> Self::Controller;
}

/// `value` of `field` must lie in the open interval (0, 1), e.g. a decrease factor.
pub fn check_fraction(field: &'static str, value: f64, what: &str) -> Checked {
    if value.is_finite() && value > 0.0 && value < 1.0 {
        return Ok(());
    }
    Err(ParamError { field, message: format!("{value} is outside (0, 1); expected {what}") })
}

/// `value` of `field` must be a finite number above 0.
pub fn check_positive(field: &'static str, value: f64) -> Checked {
    if value.is_finite() && value > 0.0 {
        return Ok(());
    }
    Err(ParamError { field, message: format!("{value} is not positive; expected a number > 0") })
}

/// `value` of `field` must be a finite number above 1, e.g. a multiplicative increase.
pub fn check_above_one(field: &'static str, value: f64, what: &str) -> Checked {
    if value.is_finite() && value > 1.0 {
        return Ok(());
    }
    Err(ParamError { field, message: format!("{value} is not above 1; expected {what}") })
}
