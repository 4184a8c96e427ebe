//! TFRC, TCP-Friendly Rate Control: the sender's rules of RFC 5348 §4 (DCCP's CCID-3,
//! RFC 4342), and the TCP throughput equation of RFC 5348 §3.1.
//!
//! - Before the first feedback the sender sends one packet per second (§4.2); the first
//!   feedback sets the initial rate W_init/R with W_init = min(4s, max(2s, 4380 B)).
//! - Each feedback (§4.3): R = 0.9·R + 0.1·R_sample (the first sample sets R); with p > 0,
//!   X = max(min(X_Bps, 2·X_recv), s/t_mbi) where X_Bps is the equation's rate; with p = 0
//!   (slow start), X doubles at most once per R, to at most 2·X_recv and at least the initial
//!   rate. X_recv is the largest of the last two reports (our reading of §4.3's X_recv_set for
//!   a sender that is not data-limited; the data-limited refinements are not modelled).
//! - The nofeedback timer, max(4R, 2s/X) (§4.3 step 5, §4.4): before any feedback the rate
//!   halves; after, the X_recv limit halves (p = 0, or X_Bps > 2·X_recv) or becomes X_Bps/4,
//!   and X is recomputed from it; an idle sender whose rate is already at most twice the
//!   initial rate keeps it.
//! - Oscillation damping (§4.5, optional): the sent rate is X·√R̄/√R_sample, with √R̄ the
//!   EWMA (q = 0.9) of √R_sample.

use super::rate_control::{RateControl, RateFeedback};
use crate::error::ParamError;
use crate::units::{SimDuration, SimTime};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// t_mbi, the longest interval between packets at the lowest rate (RFC 5348 §4.3): 64 s.
pub const T_MBI_S: f64 = 64.0;

/// The TCP throughput equation of RFC 5348 §3.1, bytes/s: `s` bytes per packet, round-trip
/// time `rtt_s`, loss-event rate `p`, `b` packets per ACK (1), t_RTO = 4R.
pub fn equation_rate_bytes_per_s(s: f64, rtt_s: f64, p: f64) -> f64 {
    let b = 1.0;
    let t_rto = 4.0 * rtt_s;
    s / (rtt_s * (2.0 * b * p / 3.0).sqrt() + t_rto * (3.0 * (3.0 * b * p / 8.0).sqrt()) * p * (1.0 + 32.0 * p * p))
}

/// The loss-event rate at which the equation gives `x` bytes/s (the inverse of
/// `equation_rate_bytes_per_s` in p, by bisection; RFC 5348 §6.3.1 uses it to synthesise the
/// first loss interval).
pub fn equation_loss_rate(s: f64, rtt_s: f64, x: f64) -> f64 {
    let (mut lo, mut hi) = (1e-10_f64, 1.0_f64);
    for _ in 0..100 {
        let mid = (lo * hi).sqrt();
        if equation_rate_bytes_per_s(s, rtt_s, mid) > x {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo * hi).sqrt()
}

/// TFRC's parameters (`dccp = { ccid = 3, tfrc = { oscillation_damping = true } }`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct TfrcParams {
    /// Oscillation damping by the RTT (RFC 5348 §4.5, "MAY"). Default false.
    pub oscillation_damping: bool,
}

impl TfrcParams {
    /// Checks the values (none can be wrong yet; kept for the table's shape).
    pub fn check(&self) -> Result<(), ParamError> {
        Ok(())
    }
}

/// The TFRC sender's state.
#[derive(Clone, Debug)]
pub struct Tfrc {
    s: f64,
    damping: bool,
    x: f64,
    x_recv: [f64; 2],
    p: f64,
    r_s: Option<f64>,
    r_sqmean: f64,
    last_sample_s: f64,
    tld: Option<SimTime>,
    feedback_seen: bool,
}

impl Tfrc {
    /// A sender of `s`-byte packets.
    pub fn new(s_bytes: u64, params: &TfrcParams) -> Self {
        let s = s_bytes as f64;
        Tfrc {
            s,
            damping: params.oscillation_damping,
            x: s,
            x_recv: [0.0; 2],
            p: 0.0,
            r_s: None,
            r_sqmean: 0.0,
            last_sample_s: 0.0,
            tld: None,
            feedback_seen: false,
        }
    }

    fn initial_rate(&self, r: f64) -> f64 {
        (4.0 * self.s).min((2.0 * self.s).max(4380.0)) / r
    }

    fn recv_limit(&self) -> f64 {
        2.0 * self.x_recv[0].max(self.x_recv[1])
    }

    /// Recomputes X from p and the receive limit (§4.3 step 4).
    fn update_rate(&mut self, now: SimTime, slow_start_doubling: bool) {
        let r = self.r_s.expect("a rate update follows an RTT sample");
        if self.p > 0.0 {
            let x_bps = equation_rate_bytes_per_s(self.s, r, self.p);
            self.x = x_bps.min(self.recv_limit()).max(self.s / T_MBI_S);
        } else if slow_start_doubling {
            if self.tld.is_none_or(|t| now.saturating_since(t).as_secs_f64() >= r) {
                self.x = (2.0 * self.x).min(self.recv_limit()).max(self.initial_rate(r));
                self.tld = Some(now);
            }
        } else {
            self.x = self.x.min(self.recv_limit()).max(self.initial_rate(r));
        }
    }
}

impl RateControl for Tfrc {
    fn name(&self) -> &'static str {
        "tfrc"
    }

    fn on_feedback(&mut self, fb: &RateFeedback) {
        let sample = fb.rtt_sample.as_secs_f64().max(1e-6);
        let first = self.r_s.is_none();
        self.r_s = Some(match self.r_s {
            None => sample,
            Some(r) => 0.9 * r + 0.1 * sample,
        });
        self.r_sqmean = if first { sample.sqrt() } else { 0.9 * self.r_sqmean + 0.1 * sample.sqrt() };
        self.last_sample_s = sample;
        self.x_recv = [fb.x_recv_bytes_per_s, self.x_recv[0]];
        self.p = fb.p;
        if first {
            // §4.2: the first feedback sets the initial rate.
            let r = self.r_s.unwrap_or(sample);
            self.x = self.initial_rate(r);
            self.tld = Some(fb.now);
            if self.p > 0.0 {
                self.update_rate(fb.now, false);
            }
        } else {
            self.update_rate(fb.now, true);
        }
        self.feedback_seen = true;
    }

    fn on_no_feedback(&mut self, now: SimTime, idle: bool) {
        let Some(r) = self.r_s else {
            self.x = (self.x / 2.0).max(self.s / T_MBI_S);
            return;
        };
        let recover = self.initial_rate(r);
        let x_calc = if self.p > 0.0 { equation_rate_bytes_per_s(self.s, r, self.p) } else { f64::INFINITY };
        let x_recv = self.x_recv[0].max(self.x_recv[1]);
        if idle && ((self.p == 0.0 && x_recv < 2.0 * recover) || (self.p > 0.0 && x_calc < 2.0 * recover)) {
            return; // an idle sender at a low rate keeps it (§4.4)
        }
        let halved = if self.p == 0.0 || x_calc > 2.0 * x_recv { (x_recv / 2.0).max(self.s / (2.0 * T_MBI_S)) } else { x_calc / 4.0 };
        self.x_recv = [halved, halved];
        if self.p > 0.0 {
            self.update_rate(now, false);
        } else {
            self.x = self.x.min(self.recv_limit()).max(self.s / T_MBI_S);
        }
    }

    fn rate_bytes_per_s(&self) -> f64 {
        if self.damping && self.last_sample_s > 0.0 {
            self.x * self.r_sqmean / self.last_sample_s.sqrt()
        } else {
            self.x
        }
    }

    fn nofeedback_timeout(&self) -> SimDuration {
        match self.r_s {
            None => SimDuration::from_secs(2), // §4.2: 2 s before the first feedback
            Some(r) => SimDuration::from_secs_f64((4.0 * r).max(2.0 * self.s / self.x)),
        }
    }

    fn rtt(&self) -> Option<SimDuration> {
        self.r_s.map(SimDuration::from_secs_f64)
    }

    fn state_vars(&self, publish: &mut dyn FnMut(&'static str, f64)) {
        publish("x_bps", self.x * 8.0);
        publish("p", self.p);
        publish("x_recv_bps", self.x_recv[0] * 8.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fb(now_s: f64, rtt_ms: u64, x_recv: f64, p: f64) -> RateFeedback {
        RateFeedback { now: SimTime::ZERO + SimDuration::from_secs_f64(now_s), rtt_sample: SimDuration::from_millis(rtt_ms), x_recv_bytes_per_s: x_recv, p }
    }

    #[test]
    fn the_equation_matches_rfc_5348_and_inverts() {
        // s = 1000 B, R = 100 ms, p = 1 %: 1000 / (0.1·√(0.02/3) + 0.4·3·√(0.00375)·0.01·1.0032)
        let x = equation_rate_bytes_per_s(1000.0, 0.1, 0.01);
        let by_hand = 1000.0 / (0.1 * (0.02f64 / 3.0).sqrt() + 0.4 * 3.0 * 0.00375f64.sqrt() * 0.01 * (1.0 + 32.0 * 1e-4));
        assert!((x - by_hand).abs() < 1e-9 && (112_000.0..113_000.0).contains(&x), "{x}");
        assert!((equation_loss_rate(1000.0, 0.1, x) - 0.01).abs() < 1e-9);
    }

    #[test]
    fn slow_start_doubles_once_per_rtt_up_to_twice_the_receive_rate() {
        let mut t = Tfrc::new(1000, &TfrcParams::default());
        assert_eq!(t.rate_bytes_per_s(), 1000.0, "one packet per second before feedback");
        t.on_feedback(&fb(0.1, 100, 1000.0, 0.0));
        assert_eq!(t.rate_bytes_per_s(), 4000.0 / 0.1, "W_init/R with W_init = 4 packets of 1000 B");
        t.on_feedback(&fb(0.15, 100, 1e9, 0.0));
        assert_eq!(t.rate_bytes_per_s(), 40_000.0, "less than R since the last doubling");
        t.on_feedback(&fb(0.2, 100, 1e9, 0.0));
        assert_eq!(t.rate_bytes_per_s(), 80_000.0);
        t.on_feedback(&fb(0.3, 100, 30_000.0, 0.0));
        assert_eq!(t.rate_bytes_per_s(), 160_000.0, "the limit is 2·max of the last two X_recv: 2e9");
        t.on_feedback(&fb(0.4, 100, 30_000.0, 0.0));
        assert_eq!(t.rate_bytes_per_s(), 60_000.0, "2·X_recv once the large report has aged out");
    }

    #[test]
    fn with_loss_the_rate_follows_the_equation_and_halves_without_feedback() {
        let mut t = Tfrc::new(1000, &TfrcParams::default());
        t.on_feedback(&fb(0.1, 100, 1e9, 0.0));
        t.on_feedback(&fb(0.2, 100, 1e9, 0.01));
        let eq = equation_rate_bytes_per_s(1000.0, 0.1, 0.01);
        assert!((t.rate_bytes_per_s() - eq).abs() < 1e-6);
        assert_eq!(t.nofeedback_timeout(), SimDuration::from_secs_f64(0.4));
        // X_Bps ≤ 2·X_recv: X_recv becomes X_Bps/4, so X halves.
        t.on_feedback(&fb(0.3, 100, eq, 0.01));
        t.on_no_feedback(SimTime::ZERO + SimDuration::from_secs(1), false);
        assert!((t.rate_bytes_per_s() - eq / 2.0).abs() < 1e-6, "{}", t.rate_bytes_per_s());
    }
}
