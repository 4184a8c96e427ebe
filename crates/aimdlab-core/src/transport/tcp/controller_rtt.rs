//! The RTT a congestion controller is told of (`tcp.controller_rtt`): which measurement each
//! stack hands its controllers on an ACK, and the minimum RTT it keeps for them. The RTO is
//! fed the echoed sample whatever the rule (`RttEstimator`).
//!
//! - `echo` (the default; RFC 7323 §4): the send time echoed for the earliest segment the ACK
//!   covers, the sample the RTO takes. Under delayed ACKs a lone segment held until the next
//!   flight answers with a sample up to the hold plus a round trip.
//! - Linux 6.x, `net/ipv4/tcp_input.c` `tcp_clean_rtx_queue`: `ca_rtt_us` is the RTT of the
//!   newest segment the ACK newly delivers that was sent once — the last newly SACKed one
//!   (`sack->last_sackt`, set in `tcp_sacktag_one` for segments without `TCPCB_RETRANS`), else
//!   the last newly cumulatively acknowledged and not SACKed before (`last_ackt`), that one
//!   only if no retransmitted segment was acknowledged (`FLAG_RETRANS_DATA_ACKED`); with
//!   neither, the timestamp echo (`tcp_ack_update_rtt`). It reaches the controller as
//!   `ack_sample.rtt_us` (`pkts_acked`) and `rate_sample.rtt_us`, and feeds the minimum RTT
//!   (`tcp_update_rtt_min`; its 300 s window, `tcp_min_rtt_wlen`, and its skipping of suspected
//!   delayed ACKs, `FLAG_ACK_MAYBE_DELAYED`, are not modelled).
//! - Linux 2.6.31, `tcp_clean_rtx_queue`: the newest segment cumulatively acknowledged,
//!   SACKed before or not (`last_ackt`, `ca_seq_rtt`), none if any was retransmitted; an ACK
//!   that acknowledges nothing cumulatively calls no `pkts_acked`, so gives none; no echo.
//!   (Controllers without `TCP_CONG_RTT_STAMP` got it in jiffies: not modelled.)
//! - ns-3.44, `src/internet/model/tcp-socket-base.cc`: every `PktsAcked` call hands the
//!   controller the smoothed RTT, `m_tcb->m_srtt` (lines 2038, 2108, 2136, 2151, 2164, 2170,
//!   2209, 2228), after `EstimateRtt` (line 3756) has taken this ACK's echo; its minimum RTT is
//!   the smallest SRTT (`m_tcb->m_minRtt`, line 3804). BBR reads `m_lastRtt` instead
//!   (`tcp-bbr.cc:362`), the echo under timestamps (`crate::profile_presets`). ns-3's 1 ms
//!   timestamp units are not modelled.

use super::config::ControllerRtt;
use crate::units::{SimDuration, SimTime};

/// What an ACK offers for the controller's RTT.
#[derive(Clone, Copy, Debug, Default)]
pub struct RttCandidates {
    /// The echoed sample, when Karn's rule (or timestamps) allows one.
    pub echo: Option<SimDuration>,
    /// The smoothed RTT after this ACK's sample.
    pub srtt: Option<SimDuration>,
    /// Send time of the newest segment newly cumulatively acknowledged that counts
    /// (`ControllerRttRule::cumulative_counts_sacked` says which); none if a retransmission was
    /// among them, or if the ACK acknowledged nothing cumulatively.
    pub newest_cumulative_sent_at: Option<SimTime>,
    /// Send time of the newest segment newly SACKed that was sent once.
    pub newest_sacked_sent_at: Option<SimTime>,
}

/// The controller's RTT: the rule and the minimum it keeps.
#[derive(Clone, Debug)]
pub struct ControllerRttRule {
    rule: ControllerRtt,
    /// Smallest value handed over so far (Linux, ns-3); the echo rule reads the estimator's.
    min_rtt: Option<SimDuration>,
}

impl ControllerRttRule {
    /// A rule, with no minimum yet.
    pub fn new(rule: ControllerRtt) -> Self {
        ControllerRttRule { rule, min_rtt: None }
    }

    /// Whether the rule reads segments' send times (the scoreboard must keep them).
    pub fn reads_send_times(&self) -> bool {
        matches!(self.rule, ControllerRtt::Linux | ControllerRtt::Linux26)
    }

    /// Whether segments SACKed before count among those cumulatively acknowledged (2.6.31's
    /// `last_ackt` takes them; 6.x's skips them, `TCPCB_SACKED_ACKED`).
    pub fn cumulative_counts_sacked(&self) -> bool {
        self.rule == ControllerRtt::Linux26
    }

    /// The sample for the controller at `now`, and its minimum RTT (`estimator_min`: the RTO
    /// estimator's smallest sample, the echo rule's minimum).
    pub fn on_ack(&mut self, c: &RttCandidates, now: SimTime, estimator_min: Option<SimDuration>) -> (Option<SimDuration>, Option<SimDuration>) {
        let since = |t: SimTime| now.saturating_since(t);
        let sample = match self.rule {
            ControllerRtt::Echo => return (c.echo, estimator_min),
            ControllerRtt::Linux => c.newest_sacked_sent_at.or(c.newest_cumulative_sent_at).map(since).or(c.echo),
            ControllerRtt::Linux26 => c.newest_cumulative_sent_at.map(since),
            ControllerRtt::Ns3 => c.srtt,
        };
        if let Some(r) = sample {
            self.min_rtt = Some(self.min_rtt.map_or(r, |m| m.min(r)));
        }
        (sample, self.min_rtt)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(x: u64) -> SimDuration {
        SimDuration::from_millis(x)
    }

    fn at(x: u64) -> SimTime {
        SimTime::ZERO + ms(x)
    }

    /// A lone segment held by the receiver's delayed ACK: echoed, it answers with the hold;
    /// Linux times the newest segment the ACK delivers.
    fn held_lone_segment() -> RttCandidates {
        RttCandidates { echo: Some(ms(240)), srtt: Some(ms(60)), newest_cumulative_sent_at: Some(at(200)), newest_sacked_sent_at: None }
    }

    #[test]
    fn each_rule_hands_over_its_own_measurement() {
        let c = held_lone_segment();
        let now = at(240);
        assert_eq!(ControllerRttRule::new(ControllerRtt::Echo).on_ack(&c, now, Some(ms(40))), (Some(ms(240)), Some(ms(40))));
        assert_eq!(ControllerRttRule::new(ControllerRtt::Linux).on_ack(&c, now, None), (Some(ms(40)), Some(ms(40))));
        assert_eq!(ControllerRttRule::new(ControllerRtt::Linux26).on_ack(&c, now, None), (Some(ms(40)), Some(ms(40))));
        assert_eq!(ControllerRttRule::new(ControllerRtt::Ns3).on_ack(&c, now, None), (Some(ms(60)), Some(ms(60))));
    }

    #[test]
    fn linux_prefers_the_newest_sacked_segment_and_falls_back_to_the_echo() {
        let mut rule = ControllerRttRule::new(ControllerRtt::Linux);
        let sacked = RttCandidates { newest_sacked_sent_at: Some(at(220)), ..held_lone_segment() };
        assert_eq!(rule.on_ack(&sacked, at(240), None).0, Some(ms(20)));
        let retransmitted = RttCandidates { newest_cumulative_sent_at: None, ..held_lone_segment() };
        assert_eq!(rule.on_ack(&retransmitted, at(240), None), (Some(ms(240)), Some(ms(20))), "the echo, and the minimum kept");
    }

    #[test]
    fn linux26_gives_nothing_without_a_cumulative_advance_or_after_a_retransmission() {
        let mut rule = ControllerRttRule::new(ControllerRtt::Linux26);
        let sack_only = RttCandidates { newest_cumulative_sent_at: None, newest_sacked_sent_at: Some(at(220)), ..held_lone_segment() };
        assert_eq!(rule.on_ack(&sack_only, at(240), None), (None, None));
        let retransmitted = RttCandidates { newest_cumulative_sent_at: None, ..held_lone_segment() };
        assert_eq!(rule.on_ack(&retransmitted, at(240), None), (None, None));
    }
}
