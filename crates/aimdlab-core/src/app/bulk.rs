//! Bulk: always has data (an FTP-like transfer) until the flow's `stop` time.

use super::params::AppParams;
use super::source::Source;
use crate::error::ParamError;
use crate::units::Bytes;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Bulk's parameters: none (`app = { kind = "bulk" }`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct BulkSpec {}

/// A bulk application (the TCP sender always finds data).
pub struct Bulk;

impl Source for Bulk {}

impl AppParams for BulkSpec {
    const KIND: &'static str = "bulk";
    const SELF_PACED: bool = false;
    type Config = ();
    type App = Bulk;
    fn resolve(&self, _packet: Bytes) -> Result<(), ParamError> {
        Ok(())
    }
    fn build(_config: &(), _packet: Bytes) -> Bulk {
        Bulk
    }
}
