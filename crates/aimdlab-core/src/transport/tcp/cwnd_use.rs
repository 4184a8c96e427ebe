//! Congestion window validation: whether the window limits sending, so that an ACK may grow
//! it (`tcp.cwnd_validation`). A flow that its application or the receiver's window holds
//! below cwnd does not grow a window it does not use — in Linux and, for CUBIC, in ns-3;
//! RFC 5681 as written (`none`, the default) grows it on every ACK of new data.
//!
//! - Linux 6.x, `include/net/tcp.h` `tcp_is_cwnd_limited` with `net/ipv4/tcp_output.c`
//!   `tcp_cwnd_validate`: after each round of sending, `is_cwnd_limited` (the packets in
//!   flight reached cwnd) is kept for the window of data then outstanding, and the most
//!   packets outstanding in it (`max_packets_out`); the window may grow if it was limited, or,
//!   in slow start, while cwnd is below twice `max_packets_out`.
//! - Linux 2.6.31, `tcp_is_cwnd_limited(sk, in_flight)` on the packets in flight before the
//!   ACK: they fill cwnd, or leave at most `tcp_max_burst` (3) of it.
//! - ns-3.44, `TcpSocketBase::SendDataPacket` (`tcp-socket-base.cc:3336`): after each send,
//!   `m_isCwndLimited = cWnd < BytesInFlight + segmentSize`; `TcpCubic::IncreaseWindow`
//!   (`tcp-cubic.cc:187`) and `TcpLinuxReno` skip growth without it, `TcpNewReno` and the rest
//!   do not check (the `ns3` profile presets it for CUBIC, `crate::profile_presets`).

use super::config::CwndValidation;

/// The sender's record of how it used its window.
#[derive(Clone, Debug)]
pub struct CwndUse {
    rule: CwndValidation,
    /// Linux: the window was full in the current window of data; ns-3: at the last send.
    limited: bool,
    /// Linux: the most packets outstanding in the current window of data.
    max_packets_out: u64,
    /// Linux: the window of data the record is for ends at this segment (`cwnd_usage_seq`).
    usage_seq: u64,
}

impl CwndUse {
    /// A record kept by `rule`.
    pub fn new(rule: CwndValidation) -> Self {
        CwndUse { rule, limited: false, max_packets_out: 0, usage_seq: 0 }
    }

    /// Whether the rule reads the sender's rounds of sending (`after_send`): Linux 6.x's and
    /// ns-3's do; none and 2.6.31's (which reads the flight at the ACK) do not.
    #[inline]
    pub fn records_sends(&self) -> bool {
        matches!(self.rule, CwndValidation::Linux | CwndValidation::Ns3)
    }

    /// After a round of sending: cwnd, the packets in flight (RFC 6675 pipe) and outstanding
    /// (snd_nxt − snd_una), snd_una and snd_nxt, and whether anything was sent.
    pub fn after_send(&mut self, cwnd_pkts: f64, pipe: u64, packets_out: u64, snd_una: u64, snd_nxt: u64, sent: bool) {
        match self.rule {
            CwndValidation::None | CwndValidation::Linux26 => {}
            CwndValidation::Ns3 => {
                if sent {
                    self.limited = cwnd_pkts < (pipe + 1) as f64;
                }
            }
            CwndValidation::Linux => {
                let limited = pipe >= cwnd_pkts.max(1.0) as u64;
                let renew = snd_una >= self.usage_seq || limited || (!self.limited && packets_out > self.max_packets_out);
                if (sent || limited) && renew {
                    self.limited = limited;
                    self.max_packets_out = packets_out;
                    self.usage_seq = snd_nxt;
                }
            }
        }
    }

    /// Whether an ACK may grow the window: cwnd, the packets in flight before the ACK, and
    /// whether the sender is in slow start.
    pub fn allows_growth(&self, cwnd_pkts: f64, in_flight_before: u64, slow_start: bool) -> bool {
        match self.rule {
            CwndValidation::None => true,
            CwndValidation::Linux26 => {
                let cwnd = cwnd_pkts.max(1.0) as u64;
                in_flight_before >= cwnd || cwnd - in_flight_before <= 3
            }
            CwndValidation::Ns3 => self.limited,
            CwndValidation::Linux => self.limited || (slow_start && (cwnd_pkts as u64) < 2 * self.max_packets_out),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linux26_grows_while_the_flight_fills_cwnd_or_leaves_at_most_three() {
        let u = CwndUse::new(CwndValidation::Linux26);
        assert!(u.allows_growth(20.0, 20, false) && u.allows_growth(20.0, 17, false));
        assert!(!u.allows_growth(20.0, 16, false));
    }

    #[test]
    fn linux_keeps_the_window_it_used_until_that_data_is_acknowledged() {
        let mut u = CwndUse::new(CwndValidation::Linux);
        u.after_send(10.0, 10, 10, 0, 10, true); // full
        assert!(u.allows_growth(10.0, 10, false));
        u.after_send(12.0, 4, 4, 5, 14, true); // not full, but the full window's data is not all acknowledged
        assert!(u.allows_growth(12.0, 4, false));
        u.after_send(12.0, 4, 4, 10, 14, true); // that data acknowledged: a new window, not full
        assert!(!u.allows_growth(12.0, 4, false));
        assert!(u.allows_growth(7.0, 4, true), "slow start: cwnd below twice the most outstanding");
    }

    #[test]
    fn ns3_asks_whether_the_last_send_left_less_than_a_segment() {
        let mut u = CwndUse::new(CwndValidation::Ns3);
        u.after_send(10.0, 10, 10, 0, 10, true);
        assert!(u.allows_growth(10.0, 10, false));
        u.after_send(10.0, 5, 5, 5, 10, true);
        assert!(!u.allows_growth(10.0, 5, false));
        assert!(CwndUse::new(CwndValidation::None).allows_growth(10.0, 0, false));
    }
}
