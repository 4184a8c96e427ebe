//! MR-AIMD, Multi-Rate AIMD (shared/papers/mr-aimd.txt, §3.1): the additive-increase factor
//! `a` is itself increased additively and decreased multiplicatively, steered by ECN.
//!
//! - Per ACK of new data in congestion avoidance: `a ← a + a'/cwnd`, then
//!   `cwnd ← cwnd + a/cwnd` (so `a` grows by `a'` per RTT and cwnd by `a`).
//! - Initially `a = 1`, `a' = 0.5`.
//! - An ECN-marked ACK sets `a' = 0.005` and does not reduce cwnd.
//! - A triple-duplicate ACK halves cwnd as TCP does and multiplies `a` by `(1 − b)`, b = 0.5.
//! - A timeout resets `a'` to 0.5 (and cwnd to 1, as TCP).
//!
//! §3.1 resets `a'` only at a timeout; its §4.4 assumes it returns to 0.5 once marks stop,
//! without saying when. Parameter `a_prime_reset_rtts`: 0 (the default) keeps `a'` low until
//! a timeout, as §3.1 writes it; a positive value returns `a'` to its initial value after that
//! many smoothed RTTs without an ECN-marked ACK (another reading, run as a sensitivity row).
//! Choices where the paper is silent: slow start as TCP (a loss in slow start halves cwnd
//! and leaves `a` alone); `a` is kept at or above 1/64 so it can recover.

use super::congestion_control::{AckEvent, CongestionControl, CongestionEvent, CongestionKind, Window};
use super::params::{Names, Checked, ControllerParams, ParamError};
use super::params::{check_fraction, check_positive};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use crate::units::SimTime;

/// MR-AIMD's parameters (`cc = { name = "mr_aimd", a_prime_ecn = 0.005 }`), defaults from §3.1.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct MrAimdParams {
    /// Initial additive increase a, packets per RTT. Default 1.
    #[serde(rename = "a")]
    pub a_init: f64,
    /// Initial (and reset) increase rate a' of a, per RTT. Default 0.5.
    #[serde(rename = "a_prime")]
    pub a_prime_init: f64,
    /// a' after an ECN-marked ACK. Default 0.005.
    pub a_prime_ecn: f64,
    /// Multiplicative decrease of a on loss, in (0, 1). Default 0.5.
    pub b: f64,
    /// RTTs without marks before a' returns to its initial value; 0 = only after a timeout.
    /// Default 0 (§3.1).
    pub a_prime_reset_rtts: f64,
}

impl ControllerParams for MrAimdParams {
    type Controller = MrAimd;
    const NAMES: Names<Self> = &[("mr_aimd", Self::default)];
    fn check(&self, _name: &'static str) -> Checked {
        check_positive("a", self.a_init)?;
        check_positive("a_prime", self.a_prime_init)?;
        check_positive("a_prime_ecn", self.a_prime_ecn)?;
        check_fraction("b", self.b, "0 < b < 1")?;
        let reset = self.a_prime_reset_rtts;
        if !(reset.is_finite() && reset >= 0.0) {
            return Err(ParamError { field: "a_prime_reset_rtts", message: format!("{reset} is negative; expected a number of RTTs ≥ 0") });
        }
        Ok(())
    }
    fn build(&self, _name: &'static str) -> MrAimd {
        MrAimd::new(self)
    }
}

impl Default for MrAimdParams {
    fn default() -> Self {
        MrAimdParams { a_init: 1.0, a_prime_init: 0.5, a_prime_ecn: 0.005, b: 0.5, a_prime_reset_rtts: 0.0 }
    }
}

/// Smallest additive increase a can fall to.
pub const A_MIN: f64 = 1.0 / 64.0;

/// MR-AIMD.
#[derive(Clone, Debug)]
pub struct MrAimd {
    prm: MrAimdParams,
    a: f64,
    a_prime: f64,
    last_mark: Option<SimTime>,
}

impl MrAimd {
    /// MR-AIMD with parameters `prm`.
    pub fn new(prm: &MrAimdParams) -> Self {
        MrAimd { a: prm.a_init, a_prime: prm.a_prime_init, last_mark: None, prm: prm.clone() }
    }
    /// The additive increase factor a.
    pub fn a(&self) -> f64 {
        self.a
    }
    /// The increase rate a'.
    pub fn a_prime(&self) -> f64 {
        self.a_prime
    }
}

impl CongestionControl for MrAimd {
    fn name(&self) -> &'static str {
        "mr_aimd"
    }

    fn on_ack(&mut self, _w: &mut Window, ev: &AckEvent) {
        if ev.ece {
            self.a_prime = self.prm.a_prime_ecn;
            self.last_mark = Some(ev.now);
        } else if let Some(t) = self.last_mark {
            let quiet = ev.now.saturating_since(t).as_secs_f64();
            if self.prm.a_prime_reset_rtts > 0.0 && quiet >= self.prm.a_prime_reset_rtts * ev.srtt.as_secs_f64() {
                self.a_prime = self.prm.a_prime_init;
                self.last_mark = None;
            }
        }
    }

    fn cong_avoid(&mut self, w: &mut Window, _ev: &AckEvent, _acked_pkts: u64) {
        if !w.slow_start() {
            self.a += self.a_prime / w.cwnd_pkts;
            w.additive_increase(self.a);
        }
    }

    fn ssthresh(&mut self, w: &Window, ev: &CongestionEvent) -> f64 {
        match ev.kind {
            CongestionKind::Loss if !w.in_slow_start() => self.a = (self.a * (1.0 - self.prm.b)).max(A_MIN),
            CongestionKind::Timeout => self.a_prime = self.prm.a_prime_init,
            _ => {}
        }
        w.cwnd_pkts * 0.5
    }

    fn on_congestion(&mut self, w: &mut Window, ev: &CongestionEvent) {
        // At an ECN echo a' was lowered by the marked ACK; cwnd is not reduced.
        if ev.kind != CongestionKind::Ecn {
            let ssthresh = self.ssthresh(w, ev);
            w.cut(ssthresh, ev.kind);
        }
    }

    fn state_vars(&self, _w: &Window, publish: &mut dyn FnMut(&'static str, f64)) {
        publish("a", self.a);
        publish("a_prime", self.a_prime);
    }
}

#[cfg(test)]
mod tests {
    use crate::cc::testing::windowed;
    use super::super::testing::{ack_at, congestion, run_rounds};
    use super::*;
    use crate::units::SimDuration;

    #[test]
    fn a_grows_by_a_prime_per_rtt_and_halves_on_loss() {
        let mut m = windowed(MrAimd::new(&MrAimdParams::default()), 50.0, 10.0);
        run_rounds(&mut m, 4);
        // Four rounds: a ≈ 1 + 4·0.5 = 3 (a hair less: cwnd grows within each round).
        assert!((m.a() - 3.0).abs() < 0.15, "a = {}", m.a());
        let a = m.a();
        let w = m.cwnd_pkts();
        m.on_congestion(&congestion(CongestionKind::Loss));
        assert!((m.a() - a / 2.0).abs() < 1e-12);
        assert!((m.cwnd_pkts() - w / 2.0).abs() < 1e-12);
    }

    #[test]
    fn an_ecn_mark_slows_a_but_keeps_cwnd_and_quiet_restores_it_with_a_reset_period() {
        let prm = MrAimdParams { a_prime_reset_rtts: 1.0, ..Default::default() };
        let mut m = windowed(MrAimd::new(&prm), 50.0, 10.0);
        let t0 = SimTime::ZERO + SimDuration::from_secs(1);
        m.on_ack(&ack_at(1, t0, true));
        assert_eq!(m.a_prime(), 0.005);
        let w = m.cwnd_pkts();
        m.on_congestion(&congestion(CongestionKind::Ecn));
        assert_eq!(m.cwnd_pkts(), w);
        m.on_ack(&ack_at(1, t0 + SimDuration::from_millis(50), false));
        assert_eq!(m.a_prime(), 0.005, "half an RTT of quiet is not enough");
        m.on_ack(&ack_at(1, t0 + SimDuration::from_millis(100), false));
        assert_eq!(m.a_prime(), 0.5);
    }

    #[test]
    fn by_default_only_a_timeout_resets_a_prime() {
        let mut m = windowed(MrAimd::new(&MrAimdParams::default()), 50.0, 10.0);
        m.on_ack(&ack_at(1, SimTime::ZERO, true));
        m.on_ack(&ack_at(1, SimTime::ZERO + SimDuration::from_secs(10), false));
        assert_eq!(m.a_prime(), 0.005, "as §3.1 writes it, only a timeout restores a'");
        m.on_congestion(&congestion(CongestionKind::Timeout));
        assert_eq!((m.a_prime(), m.cwnd_pkts()), (0.5, 1.0));
    }
}
