//! VBR video: a synthetic H.263-like source. Frames come at `frame_rate`, their types follow
//! the repeating `gop` pattern (I, P, B), and each frame's size is drawn from a lognormal
//! distribution with its type's mean and the coefficient of variation `cv` (lognormal frame
//! sizes: M. Krunz and S. K. Tripathi, "On the Characterization of VBR MPEG Streams", 1997).
//! A frame is written whole at its time; the transport cuts it into packets of at most `mss`
//! payload bytes.
//!
//! Defaults (our choice, the DCCP thesis names H.263 but not its encoding): 25 frames/s, an I
//! frame then eleven P frames (H.263 baseline has no B frames), I 3300 B and P 1100 B on
//! average (about 256 kbit/s, the largest rate of the public H.263 traces), cv 0.4. For a
//! real encoding, use `kind = "trace"` with a frame-size trace.

use super::params::AppParams;
use super::source::{AppStep, Source, Write};
use crate::error::ParamError;
use crate::rng::RngStream;
use crate::units::quantity::Size;
use crate::units::{Bytes, SimDuration, SimTime};
use rand::Rng;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The synthetic video source's parameters (`app = { kind = "vbr", frame_rate = 25 }`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct VbrSpec {
    /// Frames per second. Default 25.
    pub frame_rate: f64,
    /// Frame types of one group of pictures, repeated: letters I, P and B. Default
    /// `"IPPPPPPPPPPP"`.
    pub gop: String,
    /// Mean size of an I frame. Default `"3300B"`.
    pub i_mean: Size,
    /// Mean size of a P frame. Default `"1100B"`.
    pub p_mean: Size,
    /// Mean size of a B frame. Default `"550B"`.
    pub b_mean: Size,
    /// Coefficient of variation of frame sizes within a type (0: constant sizes). Default 0.4.
    pub cv: f64,
}

impl Default for VbrSpec {
    fn default() -> Self {
        VbrSpec { frame_rate: 25.0, gop: "IPPPPPPPPPPP".into(), i_mean: Size(Bytes(3300)), p_mean: Size(Bytes(1100)), b_mean: Size(Bytes(550)), cv: 0.4 }
    }
}

/// The resolved source: the frame interval and, per GOP position, the lognormal's (μ, σ) of
/// its frame type.
#[derive(Clone, Debug, PartialEq)]
pub struct VbrConfig {
    /// Time between frames.
    pub frame_interval: SimDuration,
    /// The largest mean frame size, bytes, and its field.
    pub largest_mean: (&'static str, u64),
    /// (μ, σ) of ln(size) for each position of the GOP.
    pub gop: Vec<(f64, f64)>,
}

/// A running VBR source.
pub struct Vbr {
    cfg: VbrConfig,
    position: usize,
    stopped: bool,
}

/// A standard normal draw (Box–Muller).
fn standard_normal(rng: &mut RngStream) -> f64 {
    let u1: f64 = 1.0 - rng.gen::<f64>(); // (0, 1]
    let u2: f64 = rng.gen();
    (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
}

impl Source for Vbr {
    fn start(&mut self, now: SimTime, _rng: &mut RngStream) -> Option<SimTime> {
        Some(now)
    }

    fn on_timer(&mut self, now: SimTime, rng: &mut RngStream) -> AppStep {
        if self.stopped {
            return AppStep { write: Write::Nothing, next: None };
        }
        let (mu, sigma) = self.cfg.gop[self.position];
        self.position = (self.position + 1) % self.cfg.gop.len();
        let bytes = (mu + sigma * standard_normal(rng)).exp().round().max(1.0) as u64;
        AppStep { write: Write::Bytes(bytes), next: Some(now + self.cfg.frame_interval) }
    }

    fn stop(&mut self) {
        self.stopped = true;
    }
}

impl AppParams for VbrSpec {
    const KIND: &'static str = "vbr";
    const SELF_PACED: bool = true;
    type Config = VbrConfig;
    type App = Vbr;
    fn resolve(&self, _packet: Bytes) -> Result<VbrConfig, ParamError> {
        if !(self.frame_rate.is_finite() && self.frame_rate > 0.0 && self.frame_rate <= 1000.0) {
            return Err(ParamError { field: "frame_rate", message: format!("{} is out of range; expected more than 0 and at most 1000 frames per second", self.frame_rate) });
        }
        if !(self.cv.is_finite() && (0.0..=10.0).contains(&self.cv)) {
            return Err(ParamError { field: "cv", message: format!("{} is out of range; expected a coefficient of variation from 0 to 10", self.cv) });
        }
        let sigma2 = (1.0 + self.cv * self.cv).ln();
        let lognormal = |mean: Bytes| ((mean.0.max(1) as f64).ln() - sigma2 / 2.0, sigma2.sqrt());
        let mut gop = Vec::new();
        let mut largest_mean = ("i_mean", 0);
        for c in self.gop.chars() {
            let (field, mean) = match c.to_ascii_uppercase() {
                'I' => ("i_mean", self.i_mean.0),
                'P' => ("p_mean", self.p_mean.0),
                'B' => ("b_mean", self.b_mean.0),
                _ => return Err(ParamError { field: "gop", message: format!("{:?} has the frame type {c:?}; expected only the letters I, P and B", self.gop) }),
            };
            if mean.0 == 0 {
                return Err(ParamError { field, message: "0 bytes; expected a mean frame size of at least 1B".into() });
            }
            if mean.0 > largest_mean.1 {
                largest_mean = (field, mean.0);
            }
            gop.push(lognormal(mean));
        }
        if gop.is_empty() {
            return Err(ParamError { field: "gop", message: "is empty; expected a pattern of I, P and B frames such as \"IPPPPPPPPPPP\"".into() });
        }
        Ok(VbrConfig { frame_interval: SimDuration::from_secs_f64(1.0 / self.frame_rate), largest_mean, gop })
    }
    fn largest_message(cfg: &VbrConfig) -> Option<(&'static str, u64)> {
        Some(cfg.largest_mean)
    }
    fn peak_bps(cfg: &VbrConfig) -> Option<f64> {
        Some(cfg.largest_mean.1 as f64 * 8.0 / cfg.frame_interval.as_secs_f64())
    }
    fn build(cfg: &VbrConfig, _packet: Bytes) -> Vbr {
        Vbr { cfg: cfg.clone(), position: 0, stopped: false }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{derive_stream, StreamKind};

    #[test]
    fn frame_sizes_have_their_types_means_and_the_gop_repeats() {
        let cfg = VbrSpec { gop: "IPB".into(), ..VbrSpec::default() }.resolve(Bytes(1500)).unwrap();
        let mut v = VbrSpec::build(&cfg, Bytes(1500));
        let mut rng = derive_stream(3, StreamKind::Flow, 0);
        let mut t = v.start(SimTime::ZERO, &mut rng).unwrap();
        let mut sums = [0.0; 3];
        let n = 30_000;
        for i in 0..3 * n {
            let step = v.on_timer(t, &mut rng);
            let Write::Bytes(b) = step.write else { panic!("a frame every firing") };
            sums[i % 3] += b as f64;
            t = step.next.unwrap();
        }
        assert_eq!(t, SimTime::ZERO + SimDuration::from_secs_f64(1.0 / 25.0).saturating_mul(3 * n as u64));
        for (sum, mean) in sums.iter().zip([3300.0, 1100.0, 550.0]) {
            assert!((sum / n as f64 / mean - 1.0).abs() < 0.01, "{} vs {mean}", sum / n as f64);
        }
    }
}
