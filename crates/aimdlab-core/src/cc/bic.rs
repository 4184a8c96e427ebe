//! BIC: L. Xu, K. Harfoush and I. Rhee, "Binary Increase Congestion Control (BIC) for Fast
//! Long-Distance Networks", IEEE INFOCOM 2004.
//!
//! After a loss the window searches for the largest window without loss, W_max, between the
//! reduced window and W_max (§3.1):
//! - **binary search increase**: each RTT the window moves towards W_max by its distance over
//!   `b` (the paper's midpoint: b = 2), by at most S_max (then it is **additive increase**,
//!   S_max a RTT) and at least S_min — so it climbs fast when far below W_max and slowly
//!   near it, where the last loss was;
//! - **max probing**: above W_max it mirrors the search, increments growing from S_min by the
//!   distance from W_max over (b − 1) until they reach S_max;
//! - at a loss W_max ← cwnd and cwnd ← β·cwnd; with **fast convergence**, a loss below the
//!   previous W_max remembers W_max ← cwnd·(1 + β)/2, giving bandwidth to a new flow sooner;
//! - below `low_window` packets BIC is Reno (1 a RTT, halving), for TCP-friendliness.
//!
//! The defaults follow Linux's `tcp_bic.c`, written with the authors, and ns-3's `TcpBic`:
//! b = 4, S_max = 16, β = 0.8 (819/1024), low_window = 14, and near W_max (within b packets,
//! on either side) the increase is S_min = b / `smooth_part` a RTT (Linux 20: 0.2; the `ns3`
//! profile 5: 0.8), so the window dwells about `smooth_part` RTTs at the last loss. The
//! paper's own values are parameters: S_max = 32, β = 0.875 (its decrease 0.125) and the
//! midpoint search b = 2; its S_min = 0.01 is where its search stops, not an increment. The
//! increase is applied per ACK from the current window, as Linux and ns-3 do, so the distance
//! to W_max shrinks by e^(−1/b) a RTT (0.78 at b = 4) rather than by the paper's per-RTT
//! step 1 − 1/b. Two parity notes, not modelled: both grow at least 5 % a RTT before the
//! first loss (`cnt` ≤ 20), and ns-3's fast convergence remembers β·cwnd rather than
//! cwnd·(1 + β)/2. Slow start and timeouts are TCP's.

use super::congestion_control::{AckEvent, CongestionControl, CongestionEvent, Window};
use super::params::{check_above_one, check_fraction, check_positive, Checked, ControllerParams, Names, ParamError};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// BIC's parameters (`cc = { name = "bic" }`; the paper's values by default).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct BicParams {
    /// Fraction of the window kept at a loss, in (0, 1). Default 0.8 (Linux, ns-3; the
    /// paper's 0.875).
    pub beta: f64,
    /// Largest increase a RTT, packets (S_max). Default 16 (Linux, ns-3; the paper's 32).
    pub s_max: f64,
    /// Increase a RTT within `b` packets of W_max (S_min). Default 0.2 (Linux; ns-3 0.8).
    pub s_min: f64,
    /// Each RTT the binary search moves by the distance to W_max over this. Default 4 (Linux,
    /// ns-3; the paper's midpoint is 2).
    pub b: f64,
    /// At or below this window (packets) BIC is Reno. Default 14.
    pub low_window: f64,
    /// Fast convergence. Default true.
    pub fast_convergence: bool,
}

impl Default for BicParams {
    fn default() -> Self {
        BicParams { beta: 0.8, s_max: 16.0, s_min: 0.2, b: 4.0, low_window: 14.0, fast_convergence: true }
    }
}

impl ControllerParams for BicParams {
    type Controller = Bic;
    const NAMES: Names<Self> = &[("bic", Self::default)];
    fn check(&self, _name: &'static str) -> Checked {
        check_fraction("beta", self.beta, "the fraction of the window kept at a loss")?;
        check_positive("s_max", self.s_max)?;
        check_positive("s_min", self.s_min)?;
        if self.s_min > self.s_max {
            return Err(ParamError { field: "s_min", message: format!("{} is above s_max ({}); expected s_min ≤ s_max", self.s_min, self.s_max) });
        }
        check_above_one("b", self.b, "the divisor of the distance to W_max, e.g. 2 for the midpoint")?;
        check_positive("low_window", self.low_window)
    }
    fn build(&self, _name: &'static str) -> Bic {
        Bic { params: self.clone(), w_max: 0.0 }
    }
}

/// BIC's state.
#[derive(Clone, Debug)]
pub struct Bic {
    params: BicParams,
    /// The window at the last loss (after fast convergence), packets; 0 before any.
    w_max: f64,
}

impl Bic {
    /// The increase a RTT at window `w`, packets (§3.1).
    pub fn increase_per_rtt(&self, w: f64) -> f64 {
        let p = &self.params;
        if w <= p.low_window {
            return 1.0;
        }
        if w < self.w_max {
            // Binary search increase, additive when far away.
            ((self.w_max - w) / p.b).clamp(p.s_min, p.s_max)
        } else {
            // Max probing: slow near W_max, growing with the distance, then additive.
            let d = w - self.w_max;
            if d < p.b {
                p.s_min
            } else {
                (d / (p.b - 1.0)).min(p.s_max)
            }
        }
    }
}

impl CongestionControl for Bic {
    fn name(&self) -> &'static str {
        "bic"
    }

    fn cong_avoid(&mut self, w: &mut Window, _ev: &AckEvent, _acked_pkts: u64) {
                // One step a call: an ACK, or a segment under `cwnd_growth = "per_segment"`.
        w.aimd_step(self.increase_per_rtt(w.cwnd_pkts));
    }

    fn ssthresh(&mut self, w: &Window, _ev: &CongestionEvent) -> f64 {
        let p = &self.params;
        self.w_max = if p.fast_convergence && w.cwnd_pkts < self.w_max { w.cwnd_pkts * (1.0 + p.beta) / 2.0 } else { w.cwnd_pkts };
        let factor = if w.cwnd_pkts <= p.low_window { 0.5 } else { p.beta };
        w.cwnd_pkts * factor
    }

    fn state_vars(&self, _w: &Window, publish: &mut dyn FnMut(&'static str, f64)) {
        publish("w_max_pkts", self.w_max);
    }
}

#[cfg(test)]
mod tests {
    use crate::cc::testing::BuildWindowed;
    use super::super::congestion_control::CongestionKind;
    use super::super::testing::{congestion, run_rounds};
    use super::*;

    /// The window at the end of each of `n` round trips after a loss at `w` packets.
    fn trajectory(params: &BicParams, w: f64, n: usize) -> Vec<f64> {
        let mut c = params.build_windowed("bic", w, 2.0);
        c.on_congestion(&congestion(CongestionKind::Loss));
        (0..n)
            .map(|_| {
                run_rounds(&mut c, 1);
                c.cwnd_pkts()
            })
            .collect()
    }

    #[test]
    fn far_below_w_max_it_adds_s_max_then_closes_the_distance_geometrically() {
        // A loss at 2,000 packets: 1,600 after it, 400 below W_max.
        let p = BicParams::default();
        let t = trajectory(&p, 2_000.0, 40);
        let steps: Vec<f64> = std::iter::once(t[0] - 1_600.0).chain(t.windows(2).map(|w| w[1] - w[0])).collect();
        // Additive increase: S_max = 16 a round while the distance over b exceeds it ...
        assert!(steps[..15].iter().all(|s| (s - 16.0).abs() < 0.5), "{steps:?}");
        // ... then binary search: the distance to W_max shrinks by e^(−1/b) a round, and
        // the window approaches W_max from below.
        let i = steps.iter().position(|s| *s < 15.0).unwrap() + 1;
        for k in i..i + 5 {
            let ratio = (2_000.0 - t[k + 1]) / (2_000.0 - t[k]);
            assert!((ratio - (-1.0 / p.b).exp()).abs() < 0.02, "round {k}: {ratio:.3}; {t:?}");
        }
        assert!(t[i + 14] > 1_990.0 && t[i + 14] < 2_000.0, "{t:?}");
    }

    #[test]
    fn above_w_max_it_probes_slowly_then_faster() {
        let p = BicParams::default();
        let mut c = p.build_windowed("bic", 1_000.0, 2.0);
        c.w_max = 1_000.0;
        // Within b of W_max: S_min; then the distance over b − 1; then S_max.
        assert_eq!(c.increase_per_rtt(1_001.0), 0.2);
        assert_eq!(c.increase_per_rtt(1_030.0), 10.0);
        assert_eq!(c.increase_per_rtt(1_100.0), 16.0);
        // The plateau: the window dwells near W_max for smooth_part (20) rounds, then grows.
        let t = trajectory(&p, 1_000.0, 80);
        let plateau = t.iter().filter(|w| (**w - 1_000.0).abs() < 4.0).count();
        assert!((20..40).contains(&plateau), "{plateau} rounds; {t:?}");
        assert!(t[79] > 1_100.0, "probing grows again: {t:?}");
    }

    #[test]
    fn fast_convergence_and_the_reno_region() {
        let mut c = BicParams::default().build_windowed("bic", 1_000.0, 2.0);
        c.on_congestion(&congestion(CongestionKind::Loss));
        assert_eq!((c.w_max, c.cwnd_pkts()), (1_000.0, 800.0));
        c.on_congestion(&congestion(CongestionKind::Loss));
        assert_eq!(c.w_max, 800.0 * 1.8 / 2.0);
        let mut small = BicParams::default().build_windowed("bic", 12.0, 2.0);
        run_rounds(&mut small, 1);
        assert!((small.cwnd_pkts() - 13.0).abs() < 0.1);
        small.on_congestion(&congestion(CongestionKind::Loss));
        assert!((small.cwnd_pkts() - small.w_max / 2.0).abs() < 1e-9);
    }
}
