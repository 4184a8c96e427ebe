//! YeAH-TCP: A. Baiocchi, A. P. Castellani and F. Vacirca, "YeAH-TCP: Yet Another Highspeed
//! TCP", PFLDnet 2007.
//!
//! Two modes chosen once a round from the queue the flow keeps, Q = cwnd · (RTT − BaseRTT) /
//! RTT (RTT the round's smallest sample), and the queueing delay relative to the path,
//! L = (RTT − BaseRTT) / BaseRTT (§3):
//! - **Fast mode** while Q < α and L < 1/φ: Scalable TCP's increase (a = 0.01 a packet above
//!   100 packets; Reno below);
//! - **Slow mode** otherwise: Reno's increase, and **precautionary decongestion**: when Q > α
//!   the window gives back the queue, cwnd ← cwnd − min(Q/γ, cwnd/2^ε), not below the
//!   estimate of Reno's window it keeps (`reno_count`, §3.3);
//! - at a loss, unless the flow has been in slow mode for ρ rounds in a row (it is competing
//!   with Reno flows and must back off as they do, halving), it takes away the queue it had,
//!   Q, between cwnd/2^δ and cwnd/2.
//!
//! The paper's values: α = 80 packets, γ = 1, δ = 3, ε = 1, φ = 8, ρ = 16, ζ = 50 (after ζ
//! fast rounds the Reno estimate resets). The rules follow Linux's `tcp_yeah.c`, the authors'
//! code, which ns-3's `TcpYeah` also follows. Parity note: a round with 2 RTT samples or
//! fewer makes no decision, and rounds pause through a recovery (as Vegas's, whose code YeAH
//! shares in both).

use super::cut_base::CutBase;
use super::congestion_control::{AckEvent, CongestionControl, CongestionEvent, CongestionKind, Window};
use super::params::{check_positive, Checked, ControllerParams, Names};
use super::rtt_round::{RoundSample, RttRound};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// YeAH's parameters (`cc = { name = "yeah" }`; the paper's values by default).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct YeahParams {
    /// Largest queue (packets) the flow keeps before slow mode. Default 80.
    pub alpha: f64,
    /// Precautionary decongestion gives back Q/γ. Default 1.
    pub gamma: f64,
    /// A loss takes at least cwnd/2^δ. Default 3.
    pub delta: u32,
    /// Precautionary decongestion takes at most cwnd/2^ε. Default 1.
    pub epsilon: u32,
    /// Slow mode when the queueing delay exceeds the path's over φ. Default 8.
    pub phy: f64,
    /// Slow-mode rounds in a row after which a loss halves. Default 16.
    pub rho: u32,
    /// Fast-mode rounds after which the Reno estimate resets. Default 50.
    pub zeta: u32,
    /// What the cut multiplies: `"cwnd"` (default; Linux) or `"flight"`, the packets in flight
    /// when the loss is detected (ns-3's TcpYeah::GetSsThresh, its reduction and its floor; the `ns3` profile's).
    pub cut_from: CutBase,
}

impl Default for YeahParams {
    fn default() -> Self {
        YeahParams { alpha: 80.0, gamma: 1.0, delta: 3, epsilon: 1, phy: 8.0, rho: 16, zeta: 50, cut_from: CutBase::Cwnd }
    }
}

impl ControllerParams for YeahParams {
    type Controller = Box<Yeah>;
    const NAMES: Names<Self> = &[("yeah", Self::default)];
    fn check(&self, _name: &'static str) -> Checked {
        check_positive("alpha", self.alpha)?;
        check_positive("gamma", self.gamma)?;
        check_positive("phy", self.phy)
    }
    fn build(&self, _name: &'static str) -> Box<Yeah> {
        Box::new(Yeah { params: self.clone(), round: RttRound::default(), last_queue_pkts: 0.0, slow_rounds: 0, fast_rounds: 0, reno_count: 2.0 })
    }
}

/// YeAH's state.
#[derive(Clone, Debug)]
pub struct Yeah {
    params: YeahParams,
    round: RttRound,
    /// Q at the last round, packets.
    last_queue_pkts: f64,
    /// Slow-mode rounds in a row (Linux's `doing_reno_now`); 0 in fast mode.
    slow_rounds: u32,
    /// Fast-mode rounds since the Reno estimate was last reset.
    fast_rounds: u32,
    /// The estimate of the window a Reno flow would have (`reno_count`), packets.
    reno_count: f64,
}

impl Yeah {
    /// Once a round: the mode, and precautionary decongestion (§3.2).
    fn decide(&mut self, w: &mut Window, s: &RoundSample) {
        if s.count <= 2 {
            return;
        }
        let p = &self.params;
        let (rtt, base) = (s.min_rtt_s, s.base_rtt_s);
        let queue = w.cwnd_pkts * (rtt - base) / rtt;
        if queue > p.alpha || rtt - base > base / p.phy {
            if queue > p.alpha && w.cwnd_pkts > self.reno_count {
                let reduction = (queue / p.gamma).min(w.cwnd_pkts / 2f64.powi(p.epsilon as i32));
                w.cwnd_pkts = (w.cwnd_pkts - reduction).max(self.reno_count);
                w.ssthresh_pkts = w.cwnd_pkts;
            }
            self.reno_count = if self.reno_count <= 2.0 { (w.cwnd_pkts / 2.0).max(2.0) } else { self.reno_count + 1.0 };
            self.slow_rounds += 1;
        } else {
            self.fast_rounds += 1;
            if self.fast_rounds > p.zeta {
                (self.reno_count, self.fast_rounds) = (2.0, 0);
            }
            self.slow_rounds = 0;
        }
        self.last_queue_pkts = queue;
    }

    /// The ACK `ev` into the round; at its end, the round's decision.
    fn end_round(&mut self, w: &mut Window, ev: &AckEvent) {
        if let Some(s) = self.round.on_ack_when_open(ev) {
            self.decide(w, &s);
        }
    }

    /// In fast mode (no slow-mode round since the last fast one).
    pub fn fast_mode(&self) -> bool {
        self.slow_rounds == 0
    }
}

impl CongestionControl for Yeah {
    fn name(&self) -> &'static str {
        "yeah"
    }

    fn on_ack(&mut self, w: &mut Window, ev: &AckEvent) {
        // An ACK that grows the window reaches the round after the growth (`cong_avoid`), as
        // in Linux's `tcp_yeah_cong_avoid`; any other reaches it here.
        if !ev.grows_window() {
            self.end_round(w, ev);
        }
    }

    fn cong_avoid(&mut self, w: &mut Window, ev: &AckEvent, _acked_pkts: u64) {
        if !w.slow_start() {
            // Fast mode: Scalable's one packet per min(cwnd, 100) steps; slow: Reno's one per
            // cwnd (a step is an ACK, or a segment under `cwnd_growth = "per_segment"`).
            let per = if self.fast_mode() { w.cwnd_pkts.min(100.0) } else { w.cwnd_pkts };
            w.cwnd_pkts += 1.0 / per;
        }
        self.end_round(w, ev);
    }

    fn ssthresh(&mut self, w: &Window, ev: &CongestionEvent) -> f64 {
        // §3.3: the queue it had, within [cwnd/2^δ, cwnd/2], unless competing with Reno.
        let base = self.params.cut_from.pkts(w, ev);
        let half = (base / 2.0).max(2.0);
        let reduction = if self.slow_rounds < self.params.rho {
            self.last_queue_pkts.min(half).max(base / 2f64.powi(self.params.delta as i32))
        } else {
            half
        };
        self.fast_rounds = 0;
        self.reno_count = (self.reno_count / 2.0).max(2.0);
        if ev.kind == CongestionKind::Timeout {
            self.round.pause();
        }
        base - reduction
    }

    fn state_vars(&self, _w: &Window, publish: &mut dyn FnMut(&'static str, f64)) {
        publish("queue_pkts", self.last_queue_pkts);
        publish("fast_mode", if self.fast_mode() { 1.0 } else { 0.0 });
    }
}

#[cfg(test)]
mod tests {
    use crate::cc::testing::BuildWindowed;
    use super::super::testing::{congestion, Pipe};
    use super::*;
    use crate::units::SimDuration;

    /// RTT of a 1,000-packet/s, 100 ms path with an infinite buffer at window `w`.
    fn rtt_for(w: f64) -> SimDuration {
        SimDuration::from_secs_f64(0.1 + (w - 100.0).max(0.0) / 1_000.0)
    }

    #[test]
    fn with_a_short_queue_it_grows_as_scalable_and_a_loss_takes_little() {
        let mut c = YeahParams::default().build_windowed("yeah", 1_000.0, 2.0);
        let mut pipe = Pipe::new(1_000);
        for _ in 0..3 {
            pipe.run_round(&mut c, SimDuration::from_millis(100));
        }
        assert!(c.fast_mode());
        let w = c.cwnd_pkts();
        let grown = pipe.run_round(&mut c, SimDuration::from_millis(100)) / w;
        assert!((grown - 1.01).abs() < 0.001, "{grown}");
        // No queue: a loss takes the minimum, cwnd/8.
        let w = c.cwnd_pkts();
        c.on_congestion(&congestion(CongestionKind::Loss));
        assert!((c.cwnd_pkts() / w - 0.875).abs() < 1e-9);
    }

    #[test]
    fn it_drains_a_queue_above_alpha_and_keeps_it_below() {
        // The path's RTT seen at 100 packets; then 400 packets on the 100-packet pipe: 300
        // queued, far above α = 80.
        let mut c = YeahParams::default().build_windowed("yeah", 100.0, 2.0);
        let mut pipe = Pipe::new(100);
        for _ in 0..3 {
            pipe.run_round(&mut c, rtt_for(100.0));
        }
        c.set_window(400.0, c.ssthresh_pkts());
        let mut queue = Vec::new();
        for _ in 0..60 {
            let w = c.cwnd_pkts();
            pipe.run_round(&mut c, rtt_for(w));
            queue.push(c.cwnd_pkts() - 100.0);
        }
        // Precautionary decongestion: the queue falls below α within a few rounds and the
        // window never grows it back above α plus a round's growth.
        assert!(queue[5] < 80.0, "{queue:?}");
        assert!(queue[10..].iter().all(|q| *q < 85.0 && *q > 0.0), "{queue:?}");
    }

    #[test]
    fn after_rho_slow_rounds_a_loss_halves_as_reno() {
        let mut c = YeahParams::default().build_windowed("yeah", 300.0, 2.0);
        (c.slow_rounds, c.last_queue_pkts) = (16, 10.0);
        c.on_congestion(&congestion(CongestionKind::Loss));
        assert_eq!(c.cwnd_pkts(), 150.0);
        let mut c = YeahParams::default().build_windowed("yeah", 300.0, 2.0);
        (c.slow_rounds, c.last_queue_pkts) = (3, 60.0);
        c.on_congestion(&congestion(CongestionKind::Loss));
        assert_eq!(c.cwnd_pkts(), 240.0);
    }
}
