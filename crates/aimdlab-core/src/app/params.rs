//! What an application's parameter struct provides to the registry: its `kind` name, its
//! defaults (in `Default`), its checks and resolution for a flow whose packets are a given
//! size on the wire, and how it offers data: on its own timer (it paces itself: UDP may carry
//! it, TCP sends only what it offered) or as a transfer the TCP sender reads from.

use super::source::Source;
use crate::error::ParamError;
use crate::units::Bytes;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use std::fmt::Debug;

/// An application's parameters as a scenario gives them (`app = { kind = "onoff", ... }`).
pub trait AppParams: Clone + Debug + Default + DeserializeOwned + JsonSchema {
    /// The `kind` a scenario gives, e.g. `"onoff"`.
    const KIND: &'static str;
    /// Whether it offers messages on its own timer (else it is read by a TCP sender).
    const SELF_PACED: bool;
    /// The parameters resolved for one flow.
    type Config: Clone + Debug + PartialEq;
    /// The running application.
    type App: Source;
    /// Checks the values for a flow whose data packets are `packet` bytes on the wire.
    fn resolve(&self, packet: Bytes) -> Result<Self::Config, ParamError>;
    /// The application of one flow.
    fn build(config: &Self::Config, packet: Bytes) -> Self::App;
    /// The payload bytes of a finite transfer (`None`: unlimited, or self-paced).
    fn transfer_bytes(_config: &Self::Config) -> Option<u64> {
        None
    }
}
