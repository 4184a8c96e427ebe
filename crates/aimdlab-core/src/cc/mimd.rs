//! MIMD, multiplicative increase and multiplicative decrease: one of the linear controls of
//! D.-M. Chiu and R. Jain ("Analysis of the Increase and Decrease Algorithms for Congestion
//! Avoidance in Computer Networks", 1989), restated in shared/papers/new-aimd-utilization.txt
//! eq. (1): `x ← b_I·x` without congestion, `x ← b_D·x` with it (a_I = a_D = 0). Its phase
//! plot moves along the line through the origin, so two flows keep the ratio of their loads:
//! it does not converge to fairness. `aimdlab.models.chiu_jain.mimd(increase, decrease)` is
//! the same rule, with the same defaults.
//!
//! As a TCP window controller: slow start as TCP (RFC 5681); in congestion avoidance every
//! newly acknowledged packet adds `increase − 1`, so a window of W packets becomes
//! `increase·W` per RTT whether or not the receiver delays ACKs (Scalable TCP's per-packet
//! counting; our choice, where the 1989 model has one step per RTT); a loss or ECN echo:
//! W → max(decrease·W, 2); a timeout: W → 1 with ssthresh = max(decrease·W, 2). A loss in
//! slow start halves, as TCP.

use super::congestion_control::{AckEvent, CongestionControl, CongestionEvent, Window};
use super::params::{Names, check_above_one, check_fraction, Checked, ControllerParams};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// MIMD's parameters (`cc = { name = "mimd", increase = 1.1, decrease = 0.5 }`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct MimdParams {
    /// Multiplicative increase b_I per RTT, above 1. Default 1.1.
    pub increase: f64,
    /// Multiplicative decrease b_D at a congestion, in (0, 1). Default 1/2.
    pub decrease: f64,
}

impl Default for MimdParams {
    fn default() -> Self {
        MimdParams { increase: 1.1, decrease: 0.5 }
    }
}

impl ControllerParams for MimdParams {
    type Controller = Mimd;
    const NAMES: Names<Self> = &[("mimd", Self::default)];
    fn check(&self, _name: &'static str) -> Checked {
        check_above_one("increase", self.increase, "a growth factor per RTT > 1")?;
        check_fraction("decrease", self.decrease, "a decrease factor 0 < b_D < 1")
    }
    fn build(&self, _name: &'static str) -> Mimd {
        Mimd { params: self.clone() }
    }
}

/// MIMD's state.
#[derive(Clone, Debug)]
pub struct Mimd {
    params: MimdParams,
}

impl CongestionControl for Mimd {
    fn name(&self) -> &'static str {
        "mimd"
    }

    fn cong_avoid(&mut self, w: &mut Window, _ev: &AckEvent, acked_pkts: u64) {
        if !w.slow_start() {
            w.cwnd_pkts += (self.params.increase - 1.0) * acked_pkts as f64;
        }
    }

    fn ssthresh(&mut self, w: &Window, _ev: &CongestionEvent) -> f64 {
        let factor = if w.in_slow_start() { 0.5 } else { self.params.decrease };
        w.cwnd_pkts * factor
    }
}

#[cfg(test)]
mod tests {
    use crate::cc::testing::BuildWindowed;
    use super::super::congestion_control::CongestionKind;
    use super::super::testing::{congestion, run_rounds};
    use super::*;

    #[test]
    fn multiplies_per_round_and_at_a_loss() {
        let mut c = MimdParams { increase: 1.5, decrease: 0.25 }.build_windowed("mimd", 20.0, 10.0);
        run_rounds(&mut c, 1);
        assert_eq!(c.cwnd_pkts(), 30.0);
        c.on_congestion(&congestion(CongestionKind::Loss));
        assert_eq!((c.cwnd_pkts(), c.ssthresh_pkts()), (7.5, 7.5));
        c.on_congestion(&congestion(CongestionKind::Timeout));
        assert_eq!((c.cwnd_pkts(), c.ssthresh_pkts()), (1.0, 2.0));
    }

    #[test]
    fn two_windows_keep_their_ratio() {
        let p = MimdParams::default();
        let (mut a, mut b) = (p.build_windowed("mimd", 400.0, 10.0), p.build_windowed("mimd", 100.0, 5.0));
        for _ in 0..10 {
            // Seven rounds of ×1.1 then a halving: ×0.97 per cycle.
            run_rounds(&mut a, 7);
            run_rounds(&mut b, 7);
            a.on_congestion(&congestion(CongestionKind::Loss));
            b.on_congestion(&congestion(CongestionKind::Loss));
        }
        let ratio = a.cwnd_pkts() / b.cwnd_pkts();
        assert!((ratio - 4.0).abs() < 0.5, "ratio {ratio}");
    }
}
