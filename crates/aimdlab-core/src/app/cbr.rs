//! CBR: a constant-bit-rate source — one message every `packet / rate` from the flow's start
//! to its stop, the simplest multimedia stream (an audio or constant-rate video codec). Over
//! UDP it sends at `rate` whatever the network does; over TCP it is application-limited.
//! The rate is on the wire (headers included), as for the ON/OFF source.

use super::params::{check_source_rate, AppParams};
use super::source::{AppStep, Source, Write};
use crate::error::ParamError;
use crate::rng::RngStream;
use crate::units::quantity::LinkRate;
use crate::units::{Bytes, Rate, SimDuration, SimTime};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// CBR's parameters (`app = { kind = "cbr", rate = "1Mbps" }`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct CbrSpec {
    /// Sending rate on the wire. Default `"1Mbps"` (our choice; set it from the codec).
    pub rate: LinkRate,
}

impl Default for CbrSpec {
    fn default() -> Self {
        CbrSpec { rate: LinkRate(Rate::from_bps(1_000_000)) }
    }
}

/// A running CBR source.
pub struct Cbr {
    gap: SimDuration,
    stopped: bool,
}

impl Source for Cbr {
    fn start(&mut self, now: SimTime, _rng: &mut RngStream) -> Option<SimTime> {
        Some(now)
    }

    fn on_timer(&mut self, now: SimTime, _rng: &mut RngStream) -> AppStep {
        if self.stopped {
            return AppStep { write: Write::Nothing, next: None };
        }
        AppStep { write: Write::Packet, next: Some(now + self.gap) }
    }

    fn stop(&mut self) {
        self.stopped = true;
    }
}

impl AppParams for CbrSpec {
    const KIND: &'static str = "cbr";
    const SELF_PACED: bool = true;
    type Config = Rate;
    type App = Cbr;
    fn resolve(&self, packet: Bytes) -> Result<Rate, ParamError> {
        check_source_rate(self.rate.0, packet)
    }
    fn peak_bps(rate: &Rate) -> Option<f64> {
        Some(rate.bps as f64)
    }
    fn build(rate: &Rate, packet: Bytes) -> Cbr {
        Cbr { gap: rate.serialization_time(packet), stopped: false }
    }
}
