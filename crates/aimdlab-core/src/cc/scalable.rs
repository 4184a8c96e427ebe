//! Scalable TCP: T. Kelly, "Scalable TCP: Improving Performance in Highspeed Wide Area
//! Networks", ACM SIGCOMM CCR 33(2), 2003.
//!
//! §2: in congestion avoidance each acknowledgement adds `a` to the window, `cwnd ← cwnd + a`
//! (a = 0.01: a window of W packets grows by a·W per RTT, ×1.01), and a loss takes `b` of it,
//! `cwnd ← cwnd − b·cwnd` (b = 0.125). Both are proportional to the window, so the time to
//! recover from a loss is the same number of RTTs whatever the window, log(1/(1 − b)) /
//! log(1 + a) ≈ 13.4 — the scalability the paper is named for. Under one loss every 1/p
//! packets the window grows by a/p between losses and loses b of its peak, so the peak is
//! a/(b·p) and, growing ×(1 + a) per RTT, its time average is a / (p · ln(1/(1 − b))):
//! 0.075/p packets at the paper's values (`aimdlab.models.response.scalable_window`). Below a legacy window the
//! sender grows as Reno does (1/cwnd per ACK), so small windows share with TCP.
//!
//! Parity: Linux's `tcp_scalable.c` grows one segment per min(cwnd, `TCP_SCALABLE_AI_CNT`)
//! acknowledged segments and sets ssthresh = max(cwnd − cwnd/8, 2): with AI_CNT = 100
//! (Linux since 2020, the paper's a = 0.01) that is `a = 0.01` above a legacy window of 100
//! packets and Reno below — the default here. Linux before (2.6 to 5.x, hence the `linux26`
//! profile) and ns-3's `TcpScalable` (`AIFactor` 50) use 50: a = 0.02 above 50 packets, "to
//! account for delayed ack" (the kernel's comment); the `linux26` and `ns3` profiles set
//! those. The paper's own legacy window is 16 packets (`legacy_window = 16`), with a = 0.01
//! above it. Slow start, timeouts and losses in slow start are TCP's (RFC 5681).

use super::cut_base::CutBase;
use super::congestion_control::{AckEvent, CongestionControl, CongestionEvent, Window};
use super::params::{check_fraction, check_positive, Checked, ControllerParams, Names};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Scalable TCP's parameters (`cc = { name = "scalable", a = 0.01, b = 0.125 }`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct ScalableParams {
    /// Window added per acknowledged segment above the legacy window, packets. Default 0.01
    /// (the paper's a).
    pub a: f64,
    /// Fraction of the window a loss takes, in (0, 1). Default 0.125 (the paper's b).
    pub b: f64,
    /// Below this window (packets) the window grows as Reno's, 1/cwnd per ACK. Default 100
    /// (Linux); the paper's is 16.
    pub legacy_window: f64,
    /// What the cut multiplies: `"cwnd"` (default; Linux) or `"flight"`, the packets in flight
    /// when the loss is detected (ns-3's TcpScalable::GetSsThresh; the `ns3` profile's).
    pub cut_from: CutBase,
}

impl Default for ScalableParams {
    fn default() -> Self {
        ScalableParams { a: 0.01, b: 0.125, legacy_window: 100.0, cut_from: CutBase::Cwnd }
    }
}

impl ControllerParams for ScalableParams {
    type Controller = Scalable;
    const NAMES: Names<Self> = &[("scalable", Self::default)];
    fn check(&self, _name: &'static str) -> Checked {
        check_positive("a", self.a)?;
        check_fraction("b", self.b, "the fraction of the window a loss takes, 0 < b < 1")?;
        check_positive("legacy_window", self.legacy_window)
    }
    fn build(&self, _name: &'static str) -> Scalable {
        Scalable { params: self.clone() }
    }
}

/// Scalable TCP's state.
#[derive(Clone, Debug)]
pub struct Scalable {
    params: ScalableParams,
}

impl CongestionControl for Scalable {
    fn name(&self) -> &'static str {
        "scalable"
    }

    fn cong_avoid(&mut self, w: &mut Window, _ev: &AckEvent, _acked_pkts: u64) {
        if !w.slow_start() {
            // §2: cwnd ← cwnd + a per ACK; Reno's 1/cwnd below the legacy window.
            w.cwnd_pkts += if w.cwnd_pkts < self.params.legacy_window { 1.0 / w.cwnd_pkts } else { self.params.a };
        }
    }

    fn ssthresh(&mut self, w: &Window, ev: &CongestionEvent) -> f64 {
        // §2: cwnd ← cwnd − b·cwnd; a loss in slow start halves, as TCP.
        let factor = if w.in_slow_start() { 0.5 } else { 1.0 - self.params.b };
        self.params.cut_from.pkts(w, ev) * factor
    }
}

#[cfg(test)]
mod tests {
    use crate::stack_profile::StackProfile;
    use crate::cc::testing::BuildWindowed;
    use super::super::congestion_control::CongestionKind;
    use super::super::testing::{congestion, run_rounds};
    use super::*;

    /// Round trips to grow back to the window a loss at `w` packets cut.
    fn recovery_rtts(params: &ScalableParams, w: f64) -> u32 {
        let mut c = params.build_windowed("scalable", w, 2.0);
        c.on_congestion(&congestion(CongestionKind::Loss));
        let mut rounds = 0;
        while c.cwnd_pkts() < w {
            run_rounds(&mut c, 1);
            rounds += 1;
        }
        rounds
    }

    #[test]
    fn the_recovery_time_is_the_same_number_of_rtts_whatever_the_window() {
        // log(1/0.875) / log(1.01) = 13.4 round trips at 200, 1,000 and 10,000 packets.
        let p = ScalableParams::default();
        let times: Vec<u32> = [200.0, 1_000.0, 10_000.0].iter().map(|&w| recovery_rtts(&p, w)).collect();
        for t in &times {
            assert!((13..=15).contains(t), "{times:?}");
        }
        // Reno at 1,000 packets takes 500.
        assert!(times.iter().max().unwrap() - times.iter().min().unwrap() <= 1, "{times:?}");
    }

    #[test]
    fn under_periodic_loss_the_mean_window_is_a_over_p_ln_one_over_one_minus_b() {
        let p = ScalableParams::default();
        for loss in [1e-4, 1e-5] {
            let model = p.a / (loss * (1.0 / (1.0 - p.b)).ln());
            let mut c = p.build_windowed("scalable", model, 2.0);
            let mean = super::super::testing::mean_window_under_periodic_loss(&mut c, loss, 30, 10);
            assert!((mean / model - 1.0).abs() < 0.05, "p = {loss}: {mean:.0} packets, the model's {model:.0}");
        }
    }

    #[test]
    fn below_the_legacy_window_it_grows_as_reno_and_above_by_a_per_ack() {
        let p = ScalableParams::default();
        let mut small = p.build_windowed("scalable", 40.0, 2.0);
        run_rounds(&mut small, 1);
        assert!((small.cwnd_pkts() - 41.0).abs() < 0.02, "{}", small.cwnd_pkts());
        let mut large = p.build_windowed("scalable", 400.0, 2.0);
        run_rounds(&mut large, 1);
        assert!((large.cwnd_pkts() - 404.0).abs() < 1e-9, "{}", large.cwnd_pkts());
    }

    #[test]
    fn a_loss_takes_an_eighth_and_a_timeout_restarts_from_one() {
        let mut c = ScalableParams::default().build_windowed("scalable", 800.0, 2.0);
        c.on_congestion(&congestion(CongestionKind::Loss));
        assert_eq!((c.cwnd_pkts(), c.ssthresh_pkts()), (700.0, 700.0));
        c.on_congestion(&congestion(CongestionKind::Timeout));
        assert_eq!((c.cwnd_pkts(), c.ssthresh_pkts()), (1.0, 612.5));
    }

    #[test]
    fn the_older_linux_and_ns3_grow_twice_as_fast_above_50_packets() {
        let old: ScalableParams = {
            let mut v = serde_json::to_value(ScalableParams::default()).unwrap();
            for (k, x) in crate::profile_presets::presets(StackProfile::Ns3, "scalable", crate::profile_presets::Table::Cc) {
                v[k] = x;
            }
            serde_json::from_value(v).unwrap()
        };
        let mut c = old.build_windowed("scalable", 400.0, 2.0);
        run_rounds(&mut c, 1);
        assert!((c.cwnd_pkts() - 408.0).abs() < 1e-9, "{}", c.cwnd_pkts());
        assert_eq!(crate::profile_presets::presets(StackProfile::Linux, "scalable", crate::profile_presets::Table::Cc), Vec::new());
    }
}
