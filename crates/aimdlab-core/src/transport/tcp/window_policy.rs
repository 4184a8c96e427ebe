//! A stack's rules for the window a congestion event leaves, applied by the sender over the
//! controller's answer — as ns-3's socket sets the window from the ssthresh its congestion
//! ops return. Every controller, built in or written in Python, is subject to them.
//!
//! ns-2.35's `TcpAgent::slowdown()` (`tcp.cc`) halves whatever the agent's decrease factor:
//! - `tcp.timeout_ssthresh = "half"`: after a retransmission timeout ssthresh = W/2 (the
//!   window stays where the controller put it, 1 packet for every built-in one).
//! - `tcp.first_decrease = "half"`: the connection's first decrease (`first_decrease_`), and
//!   any decrease in slow start, halves W — ssthresh = cwnd = W/2 after a loss or an ECN echo.
//!
//! W is the window before the event; ssthresh is never below 2 packets (RFC 5681 eq. 4). A
//! loss or ECN echo after which the controller did not lower its window (MR-AIMD keeps it at
//! an ECN echo) is left alone, but still counts as the connection's first.
//!
//! The "half" reading is `slowdown()`'s arithmetic itself, which ns-2 applies in `TcpAgent`
//! whatever the agent (checked against ns-2.35's cwnd_ and ssthresh_ traces): the window
//! becomes the reduced window R exactly — W/2 at a first decrease, in slow start, or whenever
//! the controller's cut is a halving (`decrease_num_ == 0.5`: every Reno decrease), else the
//! controller's own (β·W for GAIMD) — not floored at 2 packets, and ssthresh its integer part,
//! at least 2 (`ssthresh_ = (int) halfwin`); after a timeout ssthresh = max(⌊W/2⌋, 2). So a Reno flow at W = 2.83 falls to cwnd 1.41 with
//! ssthresh 2, and slow start takes it back to 2. (One departure: a window below 1 packet,
//! which ns-2 would reach only from W < 2, is kept at 1.)

use super::config::{FirstDecrease, TcpConfig, TimeoutSsthresh};
use crate::cc::{CongestionControl, CongestionEvent, CongestionKind};
use crate::transport::congestion_window::CongestionWindow;

/// The window rules of one flow's stack, and what they remember (whether the window has
/// been cut before).
#[derive(Clone, Copy, Debug, Default)]
pub struct WindowPolicy {
    timeout_halves: bool,
    first_decrease_halves: bool,
    decreased: bool,
}

impl WindowPolicy {
    /// The rules `cfg` asks for.
    pub fn new(cfg: &TcpConfig) -> Self {
        WindowPolicy {
            timeout_halves: cfg.timeout_ssthresh == TimeoutSsthresh::Half,
            first_decrease_halves: cfg.first_decrease == FirstDecrease::Half,
            decreased: false,
        }
    }

    /// Tells `cc` of the congestion event `ev`, then applies the stack's rules to the window
    /// it answered.
    pub fn on_congestion(&mut self, cc: &mut CongestionWindow<impl CongestionControl>, ev: &CongestionEvent) {
        let cwnd_before = cc.cwnd_pkts();
        let in_slow_start = cwnd_before < cc.ssthresh_pkts();
        let halves = match ev.kind {
            CongestionKind::Timeout => self.timeout_halves,
            CongestionKind::Loss | CongestionKind::Ecn => self.first_decrease_halves && (!self.decreased || in_slow_start),
        };
        // ns-2 clears `first_decrease_` in `slowdown()`, which every loss and ECN reaction
        // calls — also for a controller that then keeps its window (MR-AIMD at an ECN echo).
        self.decreased = true;
        cc.on_congestion(ev);
        // The rule halves a decrease: a controller that did not lower its window keeps it.
        let lowered = ev.kind == CongestionKind::Timeout || cc.cwnd_pkts() < cwnd_before;
        if self.first_decrease_halves {
            slowdown_as_ns2(cc, ev, cwnd_before, halves, lowered);
            return;
        }
        if halves && lowered {
            let ssthresh = (cwnd_before / 2.0).max(2.0);
            let cwnd = if ev.kind == CongestionKind::Timeout { cc.cwnd_pkts() } else { ssthresh };
            cc.set_window(cwnd, ssthresh);
        }
    }
}

/// ns-2.35's `TcpAgent::slowdown()`, applied over the controller's answer (see the module
/// doc). `halves`: the stack halves this event (a timeout under `timeout_ssthresh = "half"`;
/// a first decrease or one in slow start).
fn slowdown_as_ns2(cc: &mut CongestionWindow<impl CongestionControl>, ev: &CongestionEvent, cwnd_before: f64, halves: bool, lowered: bool) {
    let ssthresh_of = |reduced: f64| reduced.floor().max(2.0);
    match ev.kind {
        CongestionKind::Timeout if halves => {
            let cwnd = cc.cwnd_pkts();
            cc.set_window(cwnd, ssthresh_of(cwnd_before / 2.0));
        }
        CongestionKind::Loss | CongestionKind::Ecn if lowered => {
            let answered = cc.cwnd_pkts();
            // The controller's own cut floors at 2; a cut to max(W/2, 2) is a halving.
            let halving = halves || (answered - (cwnd_before / 2.0).max(2.0)).abs() < 1e-9;
            let reduced = if halving { cwnd_before / 2.0 } else { answered };
            cc.set_window(reduced.max(1.0), ssthresh_of(reduced));
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::gaimd::Gaimd;
    use crate::cc::testing::BuildWindowed;
    use crate::cc::testing::{congestion, windowed};

    fn ns2() -> WindowPolicy {
        WindowPolicy::new(&TcpConfig { timeout_ssthresh: TimeoutSsthresh::Half, first_decrease: FirstDecrease::Half, ..TcpConfig::default() })
    }

    #[test]
    fn reno_under_ns2_halves_to_w_over_2_unfloored_with_an_integer_ssthresh() {
        // ns-2.35's cwnd_/ssthresh_ traces (Agent/TCP/Newreno, 8 flows on a 2-packet buffer):
        // 2.828 -> cwnd 1.414, ssthresh (int) 1.414 = 1 -> 2; at every decrease, not only the
        // first (decrease_num_ == 0.5).
        use crate::cc::reno::Reno;
        let mut policy = ns2();
        for (w, cwnd, ssthresh) in [(9.7, 4.85, 4.0), (2.828, 1.414, 2.0), (13.0, 6.5, 6.0)] {
            let mut r = windowed(Reno::default(), w, 2.0);
            policy.on_congestion(&mut r, &congestion(CongestionKind::Loss));
            assert_eq!((r.cwnd_pkts(), r.ssthresh_pkts()), (cwnd, ssthresh), "W = {w}");
        }
        let mut r = windowed(Reno::default(), 9.7, 2.0);
        policy.on_congestion(&mut r, &congestion(CongestionKind::Timeout));
        assert_eq!((r.cwnd_pkts(), r.ssthresh_pkts()), (1.0, 4.0), "a timeout: ssthresh = (int) W/2");
        let mut rfc = windowed(Reno::default(), 2.828, 2.0);
        WindowPolicy::default().on_congestion(&mut rfc, &congestion(CongestionKind::Loss));
        assert_eq!((rfc.cwnd_pkts(), rfc.ssthresh_pkts()), (2.0, 2.0), "RFC 5681: max(W/2, 2)");
    }

    #[test]
    fn a_timeout_under_first_decrease_half_alone_keeps_the_controllers_ssthresh() {
        // first_decrease = "half" with timeout_ssthresh = "controller": the timeout is the
        // controller's (GAIMD: 7/8 of W), not slowdown()'s.
        let mut policy = WindowPolicy::new(&TcpConfig { first_decrease: FirstDecrease::Half, ..TcpConfig::default() });
        let mut g = windowed(Gaimd::new(0.31, 0.875), 40.0, 10.0);
        policy.on_congestion(&mut g, &congestion(CongestionKind::Timeout));
        assert_eq!((g.cwnd_pkts(), g.ssthresh_pkts()), (1.0, 35.0));
    }

    #[test]
    fn gaimd_under_ns2_keeps_beta_w_with_an_integer_ssthresh() {
        let (mut policy, mut g) = (ns2(), windowed(Gaimd::new(0.31, 0.875), 40.0, 20.0));
        policy.on_congestion(&mut g, &congestion(CongestionKind::Loss)); // the first: W/2
        g.set_window(21.0, 20.0);
        policy.on_congestion(&mut g, &congestion(CongestionKind::Loss));
        assert_eq!((g.cwnd_pkts(), g.ssthresh_pkts()), (18.375, 18.0));
    }

    #[test]
    fn a_timeout_leaves_beta_w_or_half_w_as_asked() {
        for (mut policy, expected) in [(WindowPolicy::default(), 35.0), (ns2(), 20.0)] {
            let mut g = windowed(Gaimd::new(0.31, 0.875), 40.0, 10.0);
            policy.on_congestion(&mut g, &congestion(CongestionKind::Timeout));
            assert_eq!((g.cwnd_pkts(), g.ssthresh_pkts()), (1.0, expected));
        }
    }

    #[test]
    fn the_first_decrease_halves_then_beta_applies() {
        let (mut policy, mut g) = (ns2(), windowed(Gaimd::new(0.31, 0.875), 40.0, 20.0));
        policy.on_congestion(&mut g, &congestion(CongestionKind::Loss));
        assert_eq!((g.cwnd_pkts(), g.ssthresh_pkts()), (20.0, 20.0));
        policy.on_congestion(&mut g, &congestion(CongestionKind::Loss));
        assert_eq!(g.cwnd_pkts(), 17.5);
    }

    #[test]
    fn a_decrease_in_slow_start_halves_whatever_came_before() {
        let (mut policy, mut g) = (ns2(), windowed(Gaimd::new(0.31, 0.875), 40.0, 20.0));
        policy.on_congestion(&mut g, &congestion(CongestionKind::Loss));
        policy.on_congestion(&mut g, &congestion(CongestionKind::Timeout));
        // Now cwnd = 1 < ssthresh: the next loss is in slow start.
        g.set_window(12.0, 20.0);
        policy.on_congestion(&mut g, &congestion(CongestionKind::Loss));
        assert_eq!((g.cwnd_pkts(), g.ssthresh_pkts()), (6.0, 6.0));
    }

    #[test]
    fn a_controller_that_keeps_its_window_at_an_ecn_echo_keeps_it() {
        use crate::cc::mr_aimd::MrAimdParams;

        let mut policy = ns2();
        let mut m = MrAimdParams::default().build_windowed("mr_aimd", 40.0, 20.0);
        policy.on_congestion(&mut m, &congestion(CongestionKind::Ecn));
        assert_eq!(m.cwnd_pkts(), 40.0, "MR-AIMD lowers a', not the window, at a mark");
        policy.on_congestion(&mut m, &congestion(CongestionKind::Loss));
        assert_eq!(m.cwnd_pkts(), 20.0, "its own halving; the echo was the connection's first event");
    }

    #[test]
    fn cubic_starts_its_curve_from_the_halved_window() {
        use crate::cc::cubic::{k_of, CubicParams};

        let mut c = CubicParams::default().build_windowed("cubic", 100.0, 50.0);
        ns2().on_congestion(&mut c, &congestion(CongestionKind::Loss));
        assert_eq!((c.cwnd_pkts(), c.ssthresh_pkts()), (50.0, 50.0));
        let mut vars = Vec::new();
        c.state_vars(&mut |n, v| vars.push((n, v)));
        // K is the time to climb back to W_max = 100 from the window the cut left (50), not
        // from CUBIC's own cut (70).
        assert_eq!(vars, vec![("w_max_pkts", 100.0), ("k_s", k_of(100.0, 50.0))]);
    }
}
