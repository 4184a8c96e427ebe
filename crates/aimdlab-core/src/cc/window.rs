//! The congestion window a transport keeps — cwnd and ssthresh, in packets — and the growth
//! and cut rules controllers share, as Linux's `tcp_slow_start`, `tcp_cong_avoid_ai` and the
//! socket's `snd_cwnd`/`snd_ssthresh` (`include/net/tcp.h`) serve its congestion ops.
//!
//! A controller never stores the window: the transport hands it to the controller's hooks
//! (`CongestionControl`), which read it and, where the hook is a growth or a cut, change it.

use super::congestion_event::CongestionKind;

/// A flow's congestion window and slow-start threshold, packets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Window {
    /// Congestion window, packets.
    pub cwnd_pkts: f64,
    /// Slow-start threshold, packets (∞ when unset).
    pub ssthresh_pkts: f64,
}

impl Window {
    /// A window of `cwnd_pkts` with threshold `ssthresh_pkts`.
    pub fn new(cwnd_pkts: f64, ssthresh_pkts: f64) -> Self {
        Window { cwnd_pkts, ssthresh_pkts }
    }

    /// Whether the window is below the threshold (RFC 5681 §3.1: slow start).
    #[inline]
    pub fn in_slow_start(&self) -> bool {
        self.cwnd_pkts < self.ssthresh_pkts
    }

    /// RFC 5681 eq. 2 slow start for one growth step (an ACK of new data, or one segment of
    /// it under `cwnd_growth = "per_segment"`): while below the threshold, one packet more.
    /// Returns whether it applied (false: the flow is in congestion avoidance).
    #[inline]
    pub fn slow_start(&mut self) -> bool {
        if self.in_slow_start() {
            self.cwnd_pkts += 1.0;
            true
        } else {
            false
        }
    }

    /// RFC 5681 eq. 3 with the increase as a parameter: `per_rtt_pkts`/cwnd for one growth
    /// step, so `per_rtt_pkts` packets a round trip of one step per packet.
    #[inline]
    pub fn additive_increase(&mut self, per_rtt_pkts: f64) {
        self.cwnd_pkts += per_rtt_pkts / self.cwnd_pkts;
    }

    /// One growth step of the AIMD family: slow start below the threshold, else
    /// `per_rtt_pkts` a round trip (Linux's `tcp_reno_cong_avoid` with α = `per_rtt_pkts`).
    #[inline]
    pub fn aimd_step(&mut self, per_rtt_pkts: f64) {
        if !self.slow_start() {
            self.additive_increase(per_rtt_pkts);
        }
    }

    /// The cut after a congestion signal of `kind`, once the controller has chosen its reduced
    /// window `ssthresh_pkts`: ssthresh = max(it, 2) packets, then cwnd = ssthresh after a loss
    /// or an ECN echo and 1 packet (the loss window) after a timeout — RFC 5681 §3.1 eq. 4 and
    /// its timeout rule, with the controller's reduced window in place of FlightSize/2.
    #[inline]
    pub fn cut(&mut self, ssthresh_pkts: f64, kind: CongestionKind) {
        self.ssthresh_pkts = ssthresh_pkts.max(2.0);
        self.cwnd_pkts = match kind {
            CongestionKind::Loss | CongestionKind::Ecn => self.ssthresh_pkts,
            CongestionKind::Timeout => 1.0,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slow_start_adds_one_packet_a_step_until_the_threshold() {
        let mut w = Window::new(3.0, 4.0);
        assert!(w.slow_start());
        assert!(!w.slow_start(), "at the threshold the flow is in congestion avoidance");
        assert_eq!(w.cwnd_pkts, 4.0);
    }

    #[test]
    fn an_aimd_step_adds_alpha_over_cwnd_in_congestion_avoidance() {
        let mut w = Window::new(20.0, 10.0);
        w.aimd_step(0.5);
        assert_eq!(w.cwnd_pkts, 20.025);
    }

    #[test]
    fn a_cut_floors_the_threshold_at_two_and_a_timeout_leaves_one_packet() {
        let mut w = Window::new(40.0, f64::INFINITY);
        w.cut(20.0, CongestionKind::Loss);
        assert_eq!(w, Window::new(20.0, 20.0));
        w.cut(1.0, CongestionKind::Ecn);
        assert_eq!(w, Window::new(2.0, 2.0));
        w.cut(10.0, CongestionKind::Timeout);
        assert_eq!(w, Window::new(1.0, 10.0));
    }
}
