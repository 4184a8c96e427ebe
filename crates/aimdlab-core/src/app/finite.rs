//! Finite: a transfer of `size` payload bytes, then done; its completion time is recorded.

use super::params::AppParams;
use super::source::Source;
use crate::error::ParamError;
use crate::units::quantity::Size;
use crate::units::Bytes;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A finite transfer's parameters (`app = { kind = "finite", size = "1MB" }`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct FiniteSpec {
    /// The transfer size, e.g. `"1MB"`. Required.
    pub size: Option<Size>,
}

/// A finite transfer (the TCP sender reads its size).
pub struct Finite;

impl Source for Finite {}

impl AppParams for FiniteSpec {
    const KIND: &'static str = "finite";
    const SELF_PACED: bool = false;
    type Config = u64;
    type App = Finite;
    fn resolve(&self, _packet: Bytes) -> Result<u64, ParamError> {
        match self.size {
            None => Err(ParamError { field: "size", message: "is missing; a finite application needs a size such as \"1MB\"".into() }),
            Some(s) if s.0 .0 == 0 => Err(ParamError { field: "size", message: "\"0B\" is empty; expected at least 1 byte".into() }),
            Some(s) => Ok(s.0 .0),
        }
    }
    fn build(_bytes: &u64, _packet: Bytes) -> Finite {
        Finite
    }
    fn transfer_bytes(bytes: &u64) -> Option<u64> {
        Some(*bytes)
    }
}
