//! TCP Veno: C. P. Fu and S. C. Liew, "TCP Veno: TCP Enhancement for Transmission Over
//! Wireless Access Networks", IEEE JSAC 21(2), 2003.
//!
//! Reno whose increase and decrease depend on the backlog N the flow keeps in the
//! bottleneck queue, Vegas's Diff (§II.A): N = Actual · (RTT − BaseRTT) = cwnd · (RTT −
//! BaseRTT) / RTT, once a round, with RTT the round's smallest sample and BaseRTT the smallest
//! ever.
//! - **Decrease** (§II.B): a loss with N < β is taken as random (a wireless error, the queue
//!   being short): cwnd ← cwnd · 4/5; with N ≥ β as congestive: cwnd ← cwnd / 2.
//! - **Increase** (§II.C): with N < β Reno's one packet a RTT; with N ≥ β (the available
//!   bandwidth is used) one packet every other RTT, staying longer at the right window.
//!
//! β = 3 packets.
//!
//! Parity: Linux's `tcp_veno.c` takes N per ACK from the latest RTT sample (it resets the
//! round's minimum on every ACK). ns-3's `TcpVeno` does too, and also resets its sample count
//! on every ACK, so its "fewer than 3 samples: behave as NewReno" branch always runs: its
//! increase is NewReno's, and only its decrease (4/5 or 1/2 from the latest sample's N) is
//! Veno's. Neither is modelled; N here is once a round, as Vegas takes Diff.

use super::cut_base::CutBase;
use super::congestion_control::{AckEvent, CongestionControl, CongestionEvent, CongestionKind, Window};
use super::params::{check_fraction, check_positive, Checked, ControllerParams, Names};
use super::rtt_round::RttRound;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Veno's parameters (`cc = { name = "veno" }`; the paper's values by default).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct VenoParams {
    /// The backlog (packets) below which a loss is taken as random. Default 3.
    pub beta: f64,
    /// Fraction of the window kept at a random loss. Default 0.8.
    pub random_loss_keep: f64,
    /// What the cut multiplies: `"cwnd"` (default; Linux) or `"flight"`, the packets in flight
    /// when the loss is detected (ns-3's TcpVeno::GetSsThresh, both branches; the `ns3` profile's).
    pub cut_from: CutBase,
}

impl Default for VenoParams {
    fn default() -> Self {
        VenoParams { beta: 3.0, random_loss_keep: 0.8, cut_from: CutBase::Cwnd }
    }
}

impl ControllerParams for VenoParams {
    type Controller = Veno;
    const NAMES: Names<Self> = &[("veno", Self::default)];
    fn check(&self, _name: &'static str) -> Checked {
        check_positive("beta", self.beta)?;
        check_fraction("random_loss_keep", self.random_loss_keep, "the fraction of the window kept at a random loss")
    }
    fn build(&self, _name: &'static str) -> Veno {
        Veno { params: self.clone(), round: RttRound::default(), backlog_pkts: 0.0, acked_this_rtt: 0.0, skip_next: false }
    }
}

/// Veno's state.
#[derive(Clone, Debug)]
pub struct Veno {
    params: VenoParams,
    round: RttRound,
    /// N, the backlog at the last round, packets.
    backlog_pkts: f64,
    /// Packets acknowledged towards the next increase.
    acked_this_rtt: f64,
    /// In the congestive state, the next window's worth of ACKs adds nothing.
    skip_next: bool,
}

impl Veno {
    fn congestive(&self) -> bool {
        self.backlog_pkts >= self.params.beta
    }
}

impl CongestionControl for Veno {
    fn name(&self) -> &'static str {
        "veno"
    }

    fn on_ack(&mut self, w: &mut Window, ev: &AckEvent) {
        if let Some(s) = self.round.on_ack_when_open(ev) {
            if s.count > 2 {
                self.backlog_pkts = w.cwnd_pkts * (s.min_rtt_s - s.base_rtt_s) / s.min_rtt_s;
            }
        }
    }

    fn cong_avoid(&mut self, w: &mut Window, _ev: &AckEvent, acked_pkts: u64) {
        if w.slow_start() {
            return;
        }
        // §II.C: one packet a window of ACKs; every other window when congestive.
        self.acked_this_rtt += acked_pkts as f64;
        if self.acked_this_rtt >= w.cwnd_pkts {
            self.acked_this_rtt = 0.0;
            if self.congestive() && self.skip_next {
                self.skip_next = false;
            } else {
                w.cwnd_pkts += 1.0;
                self.skip_next = self.congestive();
            }
        }
    }

    fn ssthresh(&mut self, w: &Window, ev: &CongestionEvent) -> f64 {
        if ev.kind == CongestionKind::Timeout {
            self.round.pause();
        }
        // §II.B: a random loss keeps 4/5, a congestive one halves.
        let keep = if self.congestive() { 0.5 } else { self.params.random_loss_keep };
        self.params.cut_from.pkts(w, ev) * keep
    }

    fn state_vars(&self, _w: &Window, publish: &mut dyn FnMut(&'static str, f64)) {
        publish("backlog_pkts", self.backlog_pkts);
    }
}

#[cfg(test)]
mod tests {
    use crate::cc::testing::BuildWindowed;
    use crate::transport::congestion_window::CongestionWindow;
    use super::super::testing::{congestion, Pipe};
    use super::*;
    use crate::units::SimDuration;

    /// A Veno flow at a window of 100 packets after `rounds` rounds at `rtt_ms` (the first
    /// two at the path's 100 ms).
    fn veno_at(rtt_ms: u64, rounds: u32) -> (CongestionWindow<Veno>, Vec<f64>) {
        let mut c = VenoParams::default().build_windowed("veno", 100.0, 2.0);
        let mut pipe = Pipe::new(100);
        let mut w = Vec::new();
        for r in 0..rounds {
            let rtt = if r < 2 { 100 } else { rtt_ms };
            w.push(pipe.run_round(&mut c, SimDuration::from_millis(rtt)));
        }
        (c, w)
    }

    #[test]
    fn a_loss_with_a_short_queue_is_random_and_keeps_four_fifths() {
        let (mut c, _) = veno_at(101, 6);
        assert!(c.backlog_pkts < 3.0, "{}", c.backlog_pkts);
        let w = c.cwnd_pkts();
        c.on_congestion(&congestion(CongestionKind::Loss));
        assert!((c.cwnd_pkts() / w - 0.8).abs() < 1e-9);
    }

    #[test]
    fn with_a_backlog_it_halves_and_grows_every_other_rtt() {
        // 10 % queueing delay at ~100 packets: a backlog of about 9 packets.
        let (mut c, w) = veno_at(110, 14);
        assert!(c.backlog_pkts > 3.0, "{}", c.backlog_pkts);
        let growth: f64 = w[13] - w[5];
        assert!((growth - 4.0).abs() <= 1.0, "{w:?}");
        let (_, reno_like) = veno_at(100, 14);
        assert!((reno_like[13] - reno_like[5] - 8.0).abs() <= 1.0, "{reno_like:?}");
        let before = c.cwnd_pkts();
        c.on_congestion(&congestion(CongestionKind::Loss));
        assert!((c.cwnd_pkts() / before - 0.5).abs() < 1e-9);
    }
}
