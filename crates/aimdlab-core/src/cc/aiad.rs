//! AIAD, additive increase and additive decrease: one of the linear controls of D.-M. Chiu
//! and R. Jain ("Analysis of the Increase and Decrease Algorithms for Congestion Avoidance in
//! Computer Networks", 1989), restated in shared/papers/new-aimd-utilization.txt eq. (1):
//! `x ← a_I + x` without congestion, `x ← x − a_D` with it (b_I = b_D = 1). Its phase plot
//! moves parallel to the fairness line, so two flows keep their initial difference: it never
//! converges to fairness. `aimdlab.models.chiu_jain.aiad(alpha, decrease)` is the same rule.
//!
//! As a TCP window controller: slow start as TCP (RFC 5681); in congestion avoidance α/W per
//! new ACK (α packets per RTT, as Reno and GAIMD); a loss or ECN echo: W → max(W − decrease,
//! 2); a timeout: W → 1 with ssthresh = max(W − decrease, 2). A loss in slow start halves, as
//! TCP (our choice: the 1989 model has no slow start; the other controllers do the same).

use super::congestion_control::{AckEvent, CongestionControl, CongestionEvent, Window};
use super::params::{Names, check_positive, Checked, ControllerParams};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// AIAD's parameters (`cc = { name = "aiad", alpha = 1, decrease = 1 }`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct AiadParams {
    /// Additive increase a_I, packets per RTT. Default 1.
    pub alpha: f64,
    /// Additive decrease a_D at a congestion, packets. Default 1.
    pub decrease: f64,
}

impl Default for AiadParams {
    fn default() -> Self {
        AiadParams { alpha: 1.0, decrease: 1.0 }
    }
}

impl ControllerParams for AiadParams {
    type Controller = Aiad;
    const NAMES: Names<Self> = &[("aiad", Self::default)];
    fn check(&self, _name: &'static str) -> Checked {
        check_positive("alpha", self.alpha)?;
        check_positive("decrease", self.decrease)
    }
    fn build(&self, _name: &'static str) -> Aiad {
        Aiad { params: self.clone() }
    }
}

/// AIAD's state.
#[derive(Clone, Debug)]
pub struct Aiad {
    params: AiadParams,
}

impl CongestionControl for Aiad {
    fn name(&self) -> &'static str {
        "aiad"
    }

    fn cong_avoid(&mut self, w: &mut Window, _ev: &AckEvent, _acked_pkts: u64) {
                w.aimd_step(self.params.alpha);
    }

    fn ssthresh(&mut self, w: &Window, _ev: &CongestionEvent) -> f64 {
        if w.in_slow_start() { w.cwnd_pkts / 2.0 } else { w.cwnd_pkts - self.params.decrease }
    }
}

#[cfg(test)]
mod tests {
    use crate::cc::testing::BuildWindowed;
    use super::super::congestion_control::CongestionKind;
    use super::super::testing::{congestion, run_rounds};
    use super::*;

    #[test]
    fn adds_alpha_per_round_and_subtracts_decrease_at_a_loss() {
        let p = AiadParams { alpha: 2.0, decrease: 3.0 };
        let mut c = p.build_windowed("aiad", 20.0, 10.0);
        run_rounds(&mut c, 5);
        // floor(W) ACKs of α/W each per round: just under α per round.
        assert!((c.cwnd_pkts() - 30.0).abs() < 1.0, "{}", c.cwnd_pkts());
        let before = c.cwnd_pkts();
        c.on_congestion(&congestion(CongestionKind::Loss));
        assert_eq!(c.cwnd_pkts(), before - 3.0);
        c.on_congestion(&congestion(CongestionKind::Timeout));
        assert_eq!((c.cwnd_pkts(), c.ssthresh_pkts()), (1.0, before - 6.0));
    }

    #[test]
    fn two_windows_keep_their_difference() {
        let p = AiadParams::default();
        let (mut a, mut b) = (p.build_windowed("aiad", 40.0, 10.0), p.build_windowed("aiad", 10.0, 5.0));
        for _ in 0..20 {
            run_rounds(&mut a, 1);
            run_rounds(&mut b, 1);
            a.on_congestion(&congestion(CongestionKind::Loss));
            b.on_congestion(&congestion(CongestionKind::Loss));
        }
        // The gap drifts only by the rounding of floor(W) ACKs per round (AIMD would have
        // halved it twenty times).
        let gap = a.cwnd_pkts() - b.cwnd_pkts();
        assert!((gap - 30.0).abs() < 2.0, "gap {gap}");
    }
}
