//! VoIP: a voice source with talk spurts and silences (the ON/OFF model of P. T. Brady, "A
//! Model for Generating On-Off Speech Patterns in Two-Way Conversation", 1969), exponential
//! with ITU-T P.59's means — talk spurt 1.004 s, pause 1.587 s. During a talk spurt it writes
//! one voice frame every `frame` of `codec_rate` payload (G.711: 64 kbit/s, 20 ms frames of
//! 160 bytes); nothing during a pause.

use super::params::AppParams;
use super::source::{AppStep, Source, Write};
use crate::error::ParamError;
use crate::rng::RngStream;
use crate::units::quantity::{Duration, LinkRate};
use crate::units::limits::MIN_TIMER;
use crate::units::{Bytes, Rate, SimDuration, SimTime};
use rand::Rng;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The VoIP source's parameters (`app = { kind = "voip", codec_rate = "64kbps" }`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct VoipSpec {
    /// Codec bit rate (payload) during a talk spurt. Default `"64kbps"` (G.711).
    pub codec_rate: LinkRate,
    /// Time between voice frames. Default `"20ms"`.
    pub frame: Duration,
    /// Mean talk-spurt length (exponential). Default `"1004ms"` (ITU-T P.59).
    pub on: Duration,
    /// Mean pause length (exponential). Default `"1587ms"` (ITU-T P.59).
    pub off: Duration,
}

impl Default for VoipSpec {
    fn default() -> Self {
        VoipSpec {
            codec_rate: LinkRate(Rate::from_bps(64_000)),
            frame: Duration(SimDuration::from_millis(20)),
            on: Duration(SimDuration::from_millis(1004)),
            off: Duration(SimDuration::from_millis(1587)),
        }
    }
}

/// The resolved VoIP source.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VoipConfig {
    /// Payload bytes per voice frame.
    pub frame_bytes: u64,
    /// Time between frames.
    pub frame: SimDuration,
    /// Mean talk spurt.
    pub on_mean: SimDuration,
    /// Mean pause.
    pub off_mean: SimDuration,
}

/// A running VoIP source.
pub struct Voip {
    cfg: VoipConfig,
    talking_until: SimTime,
    stopped: bool,
}

fn exponential(mean: SimDuration, rng: &mut RngStream) -> SimDuration {
    let u: f64 = 1.0 - rng.gen::<f64>(); // (0, 1]
    SimDuration::from_secs_f64(-mean.as_secs_f64() * u.ln())
}

impl Source for Voip {
    fn start(&mut self, now: SimTime, rng: &mut RngStream) -> Option<SimTime> {
        self.talking_until = now + exponential(self.cfg.on_mean, rng);
        Some(now)
    }

    fn on_timer(&mut self, now: SimTime, rng: &mut RngStream) -> AppStep {
        if self.stopped {
            return AppStep { write: Write::Nothing, next: None };
        }
        if now >= self.talking_until {
            let resume = now + exponential(self.cfg.off_mean, rng);
            self.talking_until = resume + exponential(self.cfg.on_mean, rng);
            return AppStep { write: Write::Nothing, next: Some(resume) };
        }
        AppStep { write: Write::Bytes(self.cfg.frame_bytes), next: Some(now + self.cfg.frame) }
    }

    fn stop(&mut self) {
        self.stopped = true;
    }
}

impl AppParams for VoipSpec {
    const KIND: &'static str = "voip";
    const SELF_PACED: bool = true;
    type Config = VoipConfig;
    type App = Voip;
    fn resolve(&self, _packet: Bytes) -> Result<VoipConfig, ParamError> {
        for (field, d) in [("frame", self.frame.0), ("on", self.on.0), ("off", self.off.0)] {
            if d < MIN_TIMER {
                return Err(ParamError { field, message: format!("{d} is too short; expected at least {MIN_TIMER}") });
            }
        }
        let frame_bytes = (self.codec_rate.0.bps as f64 * self.frame.0.as_secs_f64() / 8.0).round() as u64;
        if frame_bytes == 0 {
            return Err(ParamError { field: "codec_rate", message: format!("{} bit/s makes frames of 0 bytes every {}; expected at least one byte per frame", self.codec_rate.0.bps, self.frame.0) });
        }
        Ok(VoipConfig { frame_bytes, frame: self.frame.0, on_mean: self.on.0, off_mean: self.off.0 })
    }
    fn largest_message(cfg: &VoipConfig) -> Option<(&'static str, u64)> {
        Some(("codec_rate", cfg.frame_bytes))
    }
    fn peak_bps(cfg: &VoipConfig) -> Option<f64> {
        Some(cfg.frame_bytes as f64 * 8.0 / cfg.frame.as_secs_f64())
    }
    fn build(cfg: &VoipConfig, _packet: Bytes) -> Voip {
        Voip { cfg: *cfg, talking_until: SimTime::ZERO, stopped: false }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{derive_stream, StreamKind};

    #[test]
    fn talks_the_p59_fraction_of_the_time_in_160_byte_frames() {
        let cfg = VoipSpec::default().resolve(Bytes(1500)).unwrap();
        assert_eq!(cfg.frame_bytes, 160);
        let mut v = VoipSpec::build(&cfg, Bytes(1500));
        let mut rng = derive_stream(5, StreamKind::Flow, 0);
        let mut t = v.start(SimTime::ZERO, &mut rng).unwrap();
        let end = SimTime::ZERO + SimDuration::from_secs(20_000);
        let mut frames = 0u64;
        while t < end {
            let step = v.on_timer(t, &mut rng);
            frames += (step.write == Write::Bytes(160)) as u64;
            t = step.next.unwrap();
        }
        // Activity 1.004 / (1.004 + 1.587) = 38.7 % of 50 frames per second.
        let activity = frames as f64 / (20_000.0 * 50.0);
        assert!((activity - 0.3875).abs() < 0.01, "{activity}");
    }
}
