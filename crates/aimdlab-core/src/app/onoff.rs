//! The ON/OFF application, the background traffic of `gaimd.txt` §2.4.1: during ON periods it
//! offers fixed-size messages at a constant `rate`; ON and OFF durations are drawn from
//! Pareto distributions with the given means and shape (heavy-tailed for 1 < shape < 2,
//! which makes the aggregate self-similar). The first period is ON. It runs over UDP
//! (`transport/udp.rs`): nothing is acknowledged or retransmitted.
//!
//! Pareto(mean m, shape a): scale `x_m = m·(a − 1)/a`, sample `x_m / U^(1/a)`, U uniform in (0, 1].

use super::params::{check_source_rate, AppParams};
use super::source::{AppStep, Source, Write};
use crate::error::ParamError;
use crate::rng::RngStream;
use crate::units::quantity::{Duration, LinkRate};
use crate::units::limits::MIN_TIMER;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use crate::units::{Bytes, Rate, SimDuration, SimTime};
use rand::Rng;

/// Resolved ON/OFF parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OnOffParams {
    /// Sending rate while ON.
    pub rate: Rate,
    /// Mean ON duration.
    pub on_mean: SimDuration,
    /// Mean OFF duration.
    pub off_mean: SimDuration,
    /// Pareto shape (> 1).
    pub shape: f64,
}

/// One ON/OFF application.
pub struct OnOffSource {
    prm: OnOffParams,
    gap: SimDuration,
    on_until: SimTime,
    stopped: bool,
}


fn pareto(mean: SimDuration, shape: f64, rng: &mut RngStream) -> SimDuration {
    let scale = mean.as_secs_f64() * (shape - 1.0) / shape;
    let u: f64 = 1.0 - rng.gen::<f64>(); // (0, 1]
    SimDuration::from_secs_f64(scale / u.powf(1.0 / shape))
}

impl OnOffSource {
    /// A source offering messages that leave as `pkt_size`-byte packets (so that `rate` is
    /// the rate on the wire).
    pub fn new(prm: OnOffParams, pkt_size: Bytes) -> Self {
        OnOffSource { gap: prm.rate.serialization_time(pkt_size), prm, on_until: SimTime::ZERO, stopped: false }
    }
}

impl Source for OnOffSource {
    /// Starts the first ON period at `now`; its first message leaves at once.
    fn start(&mut self, now: SimTime, rng: &mut RngStream) -> Option<SimTime> {
        self.on_until = now + pareto(self.prm.on_mean, self.prm.shape, rng);
        Some(now)
    }

    /// Offers a message if ON, and says when to fire next.
    fn on_timer(&mut self, now: SimTime, rng: &mut RngStream) -> AppStep {
        if self.stopped {
            return AppStep { write: Write::Nothing, next: None };
        }
        if now >= self.on_until {
            let off = pareto(self.prm.off_mean, self.prm.shape, rng);
            let resume = now + off;
            self.on_until = resume + pareto(self.prm.on_mean, self.prm.shape, rng);
            return AppStep { write: Write::Nothing, next: Some(resume) };
        }
        AppStep { write: Write::Packet, next: Some(now + self.gap) }
    }

    fn stop(&mut self) {
        self.stopped = true;
    }
}

/// The ON/OFF source's parameters (`app = { kind = "onoff", rate = "500Kbps" }`), defaults
/// from gaimd.txt §2.4.1.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct OnOffSpec {
    /// Sending rate while ON (on the wire). Default `"500Kbps"`.
    pub rate: LinkRate,
    /// Mean ON time. Default `"1s"`.
    pub on: Duration,
    /// Mean OFF time. Default `"2s"`.
    pub off: Duration,
    /// Pareto shape of ON and OFF times, > 1. Default 1.5.
    pub shape: f64,
}

impl Default for OnOffSpec {
    fn default() -> Self {
        OnOffSpec { rate: LinkRate(Rate::from_bps(500_000)), on: Duration(SimDuration::from_secs(1)), off: Duration(SimDuration::from_secs(2)), shape: 1.5 }
    }
}

impl AppParams for OnOffSpec {
    const KIND: &'static str = "onoff";
    const SELF_PACED: bool = true;
    type Config = OnOffParams;
    type App = OnOffSource;
    fn resolve(&self, packet: Bytes) -> Result<OnOffParams, ParamError> {
        if !(self.shape.is_finite() && self.shape > 1.0) {
            return Err(ParamError { field: "shape", message: format!("{} is not above 1; expected a Pareto shape > 1 (finite mean)", self.shape) });
        }
        for (field, d) in [("on", self.on.0), ("off", self.off.0)] {
            if d < MIN_TIMER {
                return Err(ParamError { field, message: format!("{d} is too short; expected a mean duration of at least {MIN_TIMER}") });
            }
        }
        let rate = check_source_rate(self.rate.0, packet)?;
        Ok(OnOffParams { rate, on_mean: self.on.0, off_mean: self.off.0, shape: self.shape })
    }
    fn peak_bps(cfg: &OnOffParams) -> Option<f64> {
        Some(cfg.rate.bps as f64)
    }
    fn build(p: &OnOffParams, packet: Bytes) -> OnOffSource {
        OnOffSource::new(*p, packet)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{derive_stream, StreamKind};

    #[test]
    fn pareto_draws_have_the_requested_mean() {
        let mut rng = derive_stream(9, StreamKind::Flow, 0);
        let n = 400_000;
        // Shape 2.5 (finite variance) so the sample mean settles quickly.
        let mean = (0..n).map(|_| pareto(SimDuration::from_secs(1), 2.5, &mut rng).as_secs_f64()).sum::<f64>() / n as f64;
        assert!((mean - 1.0).abs() < 0.02, "{mean}");
    }

    #[test]
    fn sends_at_its_rate_while_on() {
        let prm = OnOffParams { rate: Rate::from_bps(500_000), on_mean: SimDuration::from_secs(1000), off_mean: SimDuration::from_secs(1), shape: 1.5 };
        let mut s = OnOffSource::new(prm, Bytes(1000));
        let mut rng = derive_stream(1, StreamKind::Flow, 0);
        let mut t = s.start(SimTime::ZERO, &mut rng).unwrap();
        let mut sent = 0;
        while t < SimTime::ZERO + SimDuration::from_secs(1) {
            let step = s.on_timer(t, &mut rng);
            sent += (step.write == Write::Packet) as u32;
            t = step.next.unwrap();
        }
        // 500 kbit/s of 1000-byte packets: 62.5 per second.
        assert!((62..=64).contains(&sent), "{sent}");
    }
}
