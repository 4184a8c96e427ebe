//! TCP Vegas: L. S. Brakmo and L. L. Peterson, "TCP Vegas: End to End Congestion Avoidance on
//! a Global Internet", IEEE JSAC 13(8), 1995.
//!
//! Congestion avoidance from delay (§3.2): once a round, with BaseRTT the smallest RTT seen
//! and RTT the round's (its smallest sample, as Linux and ns-3 take it, filtering delayed
//! ACKs),
//! - Expected = cwnd / BaseRTT, Actual = cwnd / RTT, Diff = (Expected − Actual) · BaseRTT,
//!   the packets the flow keeps queued;
//! - Diff < α: cwnd + 1; Diff > β: cwnd − 1; otherwise unchanged — so a flow holds between α
//!   and β packets in the bottleneck queue;
//! - slow start (§3.3) ends when Diff exceeds γ, and the window is set to what the actual
//!   rate fills: cwnd = min(cwnd, Expected·BaseRTT·(RTT ratio) + 1) = min(cwnd, cwnd·BaseRTT/RTT + 1).
//!
//! The paper runs "Vegas-1,3" and "Vegas-2,4"; the default is α = 1, β = 3 and γ = 1; Linux's
//! `tcp_vegas.c` and ns-3's `TcpVegas` use α = 2, β = 4 (the `linux`, `linux26` and `ns3`
//! profiles). Parity notes: as both do, slow start doubles every RTT (the paper's every other
//! RTT is not modelled), rounds pause through a recovery and restart after it, a round with 2
//! RTT samples or fewer makes no decision, and a loss is Reno's (halving). Linux divides Diff
//! by BaseRTT instead of RTT, cwnd·(RTT − BaseRTT)/BaseRTT, which counts more queued packets
//! as the queue grows (`diff = "linux"`, the Linux profiles); ns-3 computes the paper's in
//! whole packets, and on a loss keeps min(ssthresh, cwnd − 1) with ssthresh ≥ 3/4·cwnd
//! (not modelled).

use super::congestion_control::{AckEvent, CongestionControl, CongestionEvent, CongestionKind, Window};
use super::params::{check_positive, Checked, ControllerParams, Names, ParamError};
use super::rtt_round::{RoundSample, RttRound};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// How Vegas computes Diff, the packets it keeps queued.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum VegasDiff {
    /// cwnd·(RTT − BaseRTT)/RTT (the paper, ns-3).
    Paper,
    /// cwnd·(RTT − BaseRTT)/BaseRTT (Linux).
    Linux,
}

/// Vegas's parameters (`cc = { name = "vegas", alpha = 2, beta = 4 }`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct VegasParams {
    /// Below this many queued packets the window grows by one a round. Default 1.
    pub alpha: f64,
    /// Above this many queued packets the window shrinks by one a round. Default 3.
    pub beta: f64,
    /// Above this many queued packets slow start ends. Default 1.
    pub gamma: f64,
    /// How Diff is computed: `"paper"` (default) or `"linux"`.
    pub diff: VegasDiff,
}

impl Default for VegasParams {
    fn default() -> Self {
        VegasParams { alpha: 1.0, beta: 3.0, gamma: 1.0, diff: VegasDiff::Paper }
    }
}

impl ControllerParams for VegasParams {
    type Controller = Vegas;
    const NAMES: Names<Self> = &[("vegas", Self::default)];
    fn check(&self, _name: &'static str) -> Checked {
        check_positive("alpha", self.alpha)?;
        check_positive("gamma", self.gamma)?;
        if !(self.beta.is_finite() && self.beta >= self.alpha) {
            return Err(ParamError { field: "beta", message: format!("{} is below alpha ({}); expected alpha ≤ beta", self.beta, self.alpha) });
        }
        Ok(())
    }
    fn build(&self, _name: &'static str) -> Vegas {
        Vegas { params: self.clone(), round: RttRound::default(), diff_pkts: 0.0 }
    }
}

/// Vegas's state.
#[derive(Clone, Debug)]
pub struct Vegas {
    params: VegasParams,
    round: RttRound,
    /// Diff at the last round, packets.
    diff_pkts: f64,
}

impl Vegas {
    /// Once a round: §3.2's decision.
    fn adjust(&mut self, w: &mut Window, s: &RoundSample) {
        if s.count <= 2 {
            return;
        }
        let p = &self.params;
        let rtt = s.min_rtt_s;
        let queued = w.cwnd_pkts * (rtt - s.base_rtt_s);
        self.diff_pkts = match p.diff {
            VegasDiff::Paper => queued / rtt,
            VegasDiff::Linux => queued / s.base_rtt_s,
        };
        if w.in_slow_start() {
            if self.diff_pkts > p.gamma {
                // §3.3: leave slow start at the window the actual rate fills.
                w.cwnd_pkts = w.cwnd_pkts.min(w.cwnd_pkts * s.base_rtt_s / rtt + 1.0);
                w.ssthresh_pkts = w.cwnd_pkts;
            }
        } else if self.diff_pkts > p.beta {
            w.cwnd_pkts -= 1.0;
            w.ssthresh_pkts = w.cwnd_pkts;
        } else if self.diff_pkts < p.alpha {
            w.cwnd_pkts += 1.0;
        }
        w.cwnd_pkts = w.cwnd_pkts.max(2.0);
    }
}

impl CongestionControl for Vegas {
    fn name(&self) -> &'static str {
        "vegas"
    }

    fn on_ack(&mut self, w: &mut Window, ev: &AckEvent) {
        // Once a round, in the open state, on any ACK: §3.2's decision moves the window.
        if let Some(s) = self.round.on_ack_when_open(ev) {
            self.adjust(w, &s);
        }
    }

    fn cong_avoid(&mut self, w: &mut Window, _ev: &AckEvent, _acked_pkts: u64) {
        // Between decisions only slow start grows the window.
        w.slow_start();
    }

    fn ssthresh(&mut self, w: &Window, ev: &CongestionEvent) -> f64 {
        if ev.kind == CongestionKind::Timeout {
            self.round.pause();
        }
        w.cwnd_pkts / 2.0
    }

    fn state_vars(&self, _w: &Window, publish: &mut dyn FnMut(&'static str, f64)) {
        publish("diff_pkts", self.diff_pkts);
    }
}

#[cfg(test)]
mod tests {
    use crate::cc::testing::BuildWindowed;
    use super::super::testing::Pipe;
    use super::*;
    use crate::units::SimDuration;

    /// A bottleneck of `rate_pps` and base RTT 100 ms with an infinite buffer: the RTT of a
    /// round is the base plus the queue the window leaves, (w − BDP)/rate.
    fn rtt_for(w: f64, rate_pps: f64) -> SimDuration {
        let queue = (w - rate_pps * 0.1).max(0.0);
        SimDuration::from_secs_f64(0.1 + queue / rate_pps)
    }

    #[test]
    fn it_holds_between_alpha_and_beta_packets_in_the_queue() {
        for params in [VegasParams::default(), VegasParams { alpha: 2.0, beta: 4.0, ..Default::default() }] {
            let mut c = params.build_windowed("vegas", 2.0, 1e9);
            let mut pipe = Pipe::new(2);
            let mut queue = Vec::new();
            for _ in 0..200 {
                let w = c.cwnd_pkts();
                pipe.run_round(&mut c, rtt_for(w, 1_000.0));
                queue.push((c.cwnd_pkts() - 100.0).max(0.0));
            }
            // Steady state: the window is the BDP (100) plus α..β queued packets (±1 for the
            // one-round lag of the decision).
            let tail = &queue[150..];
            assert!(tail.iter().all(|q| *q >= params.alpha - 1.0 && *q <= params.beta + 1.0), "{params:?}: {tail:?}");
        }
    }

    #[test]
    fn slow_start_ends_at_the_window_the_actual_rate_fills_once_a_queue_shows() {
        let mut c = VegasParams::default().build_windowed("vegas", 2.0, 1e9);
        let mut pipe = Pipe::new(2);
        let mut windows = vec![c.cwnd_pkts()];
        while c.ssthresh_pkts() >= 1e9 && windows.len() < 30 {
            let w = c.cwnd_pkts();
            pipe.run_round(&mut c, rtt_for(w, 1_000.0));
            windows.push(c.cwnd_pkts());
        }
        // Doubling to 128 fills the 100-packet pipe and queues 28 (RTT 128 ms); the round
        // is judged at its end, when slow start has doubled the window again to 256 (Linux
        // and ns-3 alike): cwnd = 256 · 100/128 + 1 = 201, well before any loss.
        assert_eq!(windows, [2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0, 201.0]);
        assert_eq!(c.ssthresh_pkts(), 201.0);
    }

    #[test]
    fn linux_counts_more_queued_packets_than_the_paper() {
        // 150 packets at 150 ms over 100 ms: the paper's Diff is 50, Linux's 75.
        let s = RoundSample { base_rtt_s: 0.1, min_rtt_s: 0.15, max_rtt_s: 0.15, mean_rtt_s: 0.15, count: 10 };
        let mut paper = VegasParams::default().build_windowed("vegas", 150.0, 2.0);
        let (w, c) = paper.parts();
        c.adjust(w, &s);
        let mut linux = VegasParams { diff: VegasDiff::Linux, ..Default::default() }.build_windowed("vegas", 150.0, 2.0);
        let (w, c) = linux.parts();
        c.adjust(w, &s);
        assert!((paper.diff_pkts - 50.0).abs() < 1e-9 && (linux.diff_pkts - 75.0).abs() < 1e-9);
        assert_eq!((paper.cwnd_pkts(), linux.cwnd_pkts()), (149.0, 149.0));
    }
}
