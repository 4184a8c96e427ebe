//! TCP-like TW ("TCP-like Threshold Window"; the introduction also says TEW, "Threshold
//! Exponential Window"): S. Awang Nor, "Enhancing Datagram Congestion Control Protocol for
//! Efficient Long Delay Link", PhD thesis, Universiti Utara Malaysia, 2012
//! (shared/papers/dccp-tcp-like-tw-thesis.txt). CCID-2's TCP-like control with three knobs
//! the thesis studies in Chapter 5 and combines in Chapter 6:
//!
//! - `initial_ssthresh`: the slow-start threshold at the start (§5.2, experiment 5-1; 200
//!   packets is the value of its Fig. 5.4);
//! - `ss_growth`: the exponential factor of slow start, the factor cwnd grows by per round
//!   trip (§5.3, experiment 5-2; TCP's is 2): cwnd += (ss_growth − 1) per packet newly
//!   acknowledged (RFC 5681's min(N, 1) per ACK, scaled);
//! - `decrease`: the fraction of cwnd dropped at a congestion event in congestion avoidance
//!   (§5.4, experiment 5-3 tries 50 %, 25 % and 5 %; TCP's is 50 %).
//!
//! Congestion avoidance adds one packet per window as TCP does; a loss in slow start halves
//! cwnd, as TCP (the thesis's knob is for the avoidance phase); a timeout sets cwnd to 1.
//!
//! What the available text does not pin down (only its front matter, contents and
//! introduction survive here): which growth factor and which drop the final TW uses, and
//! whether the growth factor applies per packet or per ACK. Our defaults: 200 packets, ×2
//! per RTT (TCP's), 25 % (the middle of the three drops it tried) — set all three when
//! reproducing a figure. With `ss_growth = 2`, `decrease = 0.5` and an unbounded threshold
//! it is Reno.

use super::congestion_control::{AckEvent, CongestionControl, CongestionEvent, Window};
use super::params::{check_above_one, check_fraction, Checked, ControllerParams, Names, ParamError};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// TCP-like TW's parameters (`cc = { name = "tw", initial_ssthresh = 200, ss_growth = 2,
/// decrease = 0.25 }`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct TwParams {
    /// Initial slow-start threshold, packets (replaces the flow's own). Default 200.
    pub initial_ssthresh: f64,
    /// Factor cwnd grows by per round trip in slow start. Default 2 (TCP's).
    pub ss_growth: f64,
    /// Fraction of cwnd dropped at a loss or ECN mark in congestion avoidance. Default 0.25.
    pub decrease: f64,
}

impl Default for TwParams {
    fn default() -> Self {
        TwParams { initial_ssthresh: 200.0, ss_growth: 2.0, decrease: 0.25 }
    }
}

impl ControllerParams for TwParams {
    type Controller = Tw;
    const NAMES: Names<Self> = &[("tw", Self::default)];
    fn check(&self, _name: &'static str) -> Checked {
        if !(self.initial_ssthresh.is_finite() && self.initial_ssthresh >= 2.0) {
            let message = format!("{} is below 2; expected a threshold of at least 2 packets", self.initial_ssthresh);
            return Err(ParamError { field: "initial_ssthresh", message });
        }
        check_above_one("ss_growth", self.ss_growth, "a factor above 1 (2 doubles cwnd every round trip, as TCP)")?;
        check_fraction("decrease", self.decrease, "the fraction of cwnd dropped at a congestion event (TCP: 0.5)")
    }
    fn build(&self, _name: &'static str) -> Tw {
        Tw { params: self.clone() }
    }
}

/// TCP-like TW's state.
#[derive(Clone, Debug)]
pub struct Tw {
    params: TwParams,
}

impl CongestionControl for Tw {
    fn name(&self) -> &'static str {
        "tw"
    }

    fn init(&mut self, w: &mut Window) {
        // The thesis's own initial threshold, in place of the flow's.
        w.ssthresh_pkts = self.params.initial_ssthresh;
    }

    fn cong_avoid(&mut self, w: &mut Window, _ev: &AckEvent, _acked_pkts: u64) {
        if w.in_slow_start() {
            // ×ss_growth a round trip: ss_growth − 1 packets a step.
            w.cwnd_pkts += self.params.ss_growth - 1.0;
        } else {
            w.additive_increase(1.0);
        }
    }

    fn ssthresh(&mut self, w: &Window, _ev: &CongestionEvent) -> f64 {
        if w.in_slow_start() { w.cwnd_pkts / 2.0 } else { w.cwnd_pkts * (1.0 - self.params.decrease) }
    }
}

#[cfg(test)]
mod tests {
    use crate::cc::testing::BuildWindowed;
    use super::*;
    use crate::cc::testing::{ack, congestion};
    use crate::cc::CongestionKind;

    #[test]
    fn slow_start_grows_by_the_factor_per_window_and_avoidance_drops_the_fraction() {
        let p = TwParams { initial_ssthresh: 1000.0, ss_growth: 1.5, decrease: 0.05 };
        let mut tw = p.build_windowed("tw", 10.0, f64::INFINITY);
        // One window of 10 packets, each acknowledged: 10 → 15.
        for _ in 0..10 {
            tw.on_ack(&ack(1));
        }
        assert!((tw.cwnd_pkts() - 15.0).abs() < 1e-9);
        // In slow start a loss halves, as TCP.
        tw.on_congestion(&congestion(CongestionKind::Loss));
        assert!((tw.cwnd_pkts() - 7.5).abs() < 1e-9 && tw.ssthresh_pkts() == 7.5);
        // In congestion avoidance it drops 5 %.
        tw.on_congestion(&congestion(CongestionKind::Loss));
        assert!((tw.cwnd_pkts() - 7.125).abs() < 1e-9);
        tw.on_congestion(&congestion(CongestionKind::Timeout));
        assert_eq!(tw.cwnd_pkts(), 1.0);
    }

    #[test]
    fn its_threshold_replaces_the_flows() {
        let tw = TwParams::default().build_windowed("tw", 3.0, f64::INFINITY);
        assert_eq!(tw.ssthresh_pkts(), 200.0);
    }
}
