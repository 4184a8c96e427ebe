//! The TCP-like receiver: cumulative ACKs with SACK blocks (RFC 2018), optional delayed ACKs
//! (every second full segment, RFC 5681 §4.2), and the ECN-Echo of RFC 3168.
//!
//! ACK at once for a segment out of order, a duplicate, or one that fills a hole
//! (RFC 5681 §4.2); otherwise, with delayed ACKs, at the second in-order segment or when the
//! timer runs out. The ACK echoes the send time of the earliest segment it acknowledges
//! first (RFC 7323's timestamp echo rule), so RTT samples include the delay of the ACK.
//! Quick-ACK (Linux's `tcp_incr_quickack` / `tcp_enter_quickack_mode`, with `quickacks` > 0):
//! the first `quickacks` segments, and as many again after 1 s without data (a receiver's
//! initial RTO), are each acknowledged at once; so are the next two after a first CE mark.
//! CE marks are echoed as RFC 3168 says (ECE from a mark until a segment with CWR) or, with
//! `ecn_echo = "dctcp"`, as RFC 8257 §3.2 says: each ACK carries the CE state of the segments
//! it acknowledges, and a change of state sends the pending delayed ACK at once.
//! SACK blocks: the block holding the segment that triggered the ACK first, then the most
//! recently changed others (RFC 2018 §4), at most three.

use super::config::{EcnEcho, TcpConfig};
use crate::ids::{FlowId, NodeId};
use crate::net::packet::{AckOptions, Ecn, Packet, PacketKind, SackBlocks};
use crate::transport::arrival::DataArrival;
use crate::transport::outbox::Outbox;
use crate::transport::timer::TimerKind;
use crate::units::{Bytes, SimDuration, SimTime};

#[derive(Clone, Copy, Debug)]
struct Block {
    start: u64,
    end: u64,
    touched: u64,
}

/// One flow's receiver.
pub struct TcpReceiver {
    flow: FlowId,
    src: NodeId,
    header: Bytes,
    sack: bool,
    delayed_ack: bool,
    delayed_ack_timeout: SimDuration,
    /// Next segment expected in order.
    pub rcv_nxt: u64,
    ooo: Vec<Block>,
    touch: u64,
    pending: u32,
    pending_echo: (SimTime, bool),
    ece: bool,
    /// How CE marks are echoed.
    ecn_echo: EcnEcho,
    /// When the delayed-ACK timer runs out, while a segment waits for its ACK.
    dack_deadline: Option<SimTime>,
    /// Segments granted on entering quick-ACK mode.
    quickacks: u32,
    /// ACKs still to be sent at once (Linux's `icsk_ack.quick`).
    quick: u32,
    /// When the last data segment arrived.
    last_data_at: Option<SimTime>,
}

/// Data idle for longer than this restarts quick-ACK mode (Linux: the receiver's RTO, which
/// stays at its initial 1 s on a host that only receives).
const QUICKACK_IDLE: SimDuration = SimDuration::from_secs(1);

impl TcpReceiver {
    /// A receiver of `flow` with settings `cfg` whose ACKs go back to node `src`.
    pub fn new(flow: FlowId, src: NodeId, cfg: &TcpConfig) -> Self {
        TcpReceiver {
            flow,
            src,
            header: cfg.tcp_header(),
            sack: cfg.sack(),
            delayed_ack: cfg.delayed_ack,
            delayed_ack_timeout: cfg.delayed_ack_timeout,
            quickacks: cfg.quickacks,
            quick: 0,
            last_data_at: None,
            rcv_nxt: 0,
            ooo: Vec::new(),
            touch: 0,
            pending: 0,
            pending_echo: (SimTime::ZERO, false),
            ece: false,
            ecn_echo: cfg.ecn_echo,
            dack_deadline: None,
        }
    }

    /// Records `seq` as received out of order; returns the index of its block and whether
    /// the segment is new (not held already).
    fn insert_ooo(&mut self, seq: u64) -> (usize, bool) {
        self.touch += 1;
        let i = self.ooo.partition_point(|b| b.end < seq);
        if i < self.ooo.len() && self.ooo[i].start <= seq && seq < self.ooo[i].end {
            self.ooo[i].touched = self.touch;
            return (i, false);
        }
        if i < self.ooo.len() && self.ooo[i].end == seq {
            self.ooo[i].end += 1;
            self.ooo[i].touched = self.touch;
            if i + 1 < self.ooo.len() && self.ooo[i + 1].start == self.ooo[i].end {
                self.ooo[i].end = self.ooo[i + 1].end;
                self.ooo.remove(i + 1);
            }
            return (i, true);
        }
        if i < self.ooo.len() && self.ooo[i].start == seq + 1 {
            self.ooo[i].start = seq;
            self.ooo[i].touched = self.touch;
            return (i, true);
        }
        self.ooo.insert(i, Block { start: seq, end: seq + 1, touched: self.touch });
        (i, true)
    }

    fn sack_blocks(&self, first: Option<usize>) -> SackBlocks {
        let mut blocks = SackBlocks::new(self.rcv_nxt);
        if !self.sack || self.ooo.is_empty() {
            return blocks;
        }
        let mut used = [usize::MAX; 3];
        if let Some(i) = first {
            blocks.push(self.ooo[i].start, self.ooo[i].end);
            used[0] = i;
        }
        while !blocks.is_full() {
            let next = (0..self.ooo.len()).filter(|j| !used.contains(j)).max_by_key(|&j| self.ooo[j].touched);
            let Some(j) = next else { break };
            used[blocks.len()] = j;
            blocks.push(self.ooo[j].start, self.ooo[j].end);
        }
        blocks
    }

    fn emit_ack(&mut self, now: SimTime, echo: (SimTime, bool), first_block: Option<usize>, out: &mut Outbox) {
        out.packets.push(Packet {
            flow: self.flow,
            dst: self.src,
            kind: PacketKind::Ack,
            size: self.header,
            seq: self.rcv_nxt,
            sent_at: now,
            is_retransmission: false,
            echo_sent_at: echo.0,
            echo_is_retransmission: echo.1,
            ecn: Ecn::NotEct,
            ece: self.ece,
            cwr: false,
            options: AckOptions::sack(self.sack_blocks(first_block)),
            enqueued_at: now,
            ccid_value: 0,
        });
        self.pending = 0;
        self.quick = self.quick.saturating_sub(1);
        if self.dack_deadline.take().is_some() {
            out.cancel_timer(TimerKind::DelayedAck);
        }
    }

    /// Processes data segment `p` arriving at `now`.
    pub fn on_data(&mut self, p: &Packet, now: SimTime, out: &mut Outbox) -> DataArrival {
        let ce = p.ecn == Ecn::Ce;
        match self.ecn_echo {
            EcnEcho::Rfc3168 => {
                if p.cwr {
                    self.ece = false;
                }
                if ce {
                    if !self.ece && self.quickacks > 0 {
                        self.quick = self.quick.max(2);
                    }
                    self.ece = true;
                }
            }
            EcnEcho::Dctcp if ce != self.ece => {
                // RFC 8257 §3.2: the pending ACK leaves now, with the old CE state.
                if self.pending >= 1 {
                    let echo = self.pending_echo;
                    self.emit_ack(now, echo, None, out);
                }
                self.ece = ce;
            }
            EcnEcho::Dctcp => {}
        }
        if self.quickacks > 0 && self.last_data_at.is_none_or(|t| now.saturating_since(t) > QUICKACK_IDLE) {
            self.quick = self.quick.max(self.quickacks);
        }
        self.last_data_at = Some(now);
        let echo = (p.sent_at, p.is_retransmission);
        let seq = p.seq;
        if seq < self.rcv_nxt {
            self.emit_ack(now, echo, None, out);
            return DataArrival { first_arrival: false, in_order_advance: 0 };
        }
        if seq > self.rcv_nxt {
            let (i, first_arrival) = self.insert_ooo(seq);
            self.emit_ack(now, echo, Some(i), out);
            return DataArrival { first_arrival, in_order_advance: 0 };
        }
        let before = self.rcv_nxt;
        self.rcv_nxt += 1;
        let filled_hole = !self.ooo.is_empty();
        while let Some(b) = self.ooo.first() {
            if b.start > self.rcv_nxt {
                break;
            }
            self.rcv_nxt = self.rcv_nxt.max(b.end);
            self.ooo.remove(0);
        }
        if filled_hole || !self.delayed_ack || self.pending >= 1 || self.quick > 0 {
            let echo = if self.pending >= 1 { self.pending_echo } else { echo };
            self.emit_ack(now, echo, None, out);
        } else {
            self.pending = 1;
            self.pending_echo = echo;
            let deadline = now + self.delayed_ack_timeout;
            self.dack_deadline = Some(deadline);
            out.set_timer(TimerKind::DelayedAck, deadline);
        }
        DataArrival { first_arrival: true, in_order_advance: self.rcv_nxt - before }
    }

    /// The delayed-ACK timer ran out at `now` (an exact timer: it runs only while set).
    pub fn on_dack_timer(&mut self, now: SimTime, out: &mut Outbox) {
        debug_assert_eq!(self.dack_deadline, Some(now), "a delayed-ACK timer runs only while set");
        if self.dack_deadline == Some(now) {
            let echo = self.pending_echo;
            self.emit_ack(now, echo, None, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transport::outbox::TimerRequest;

    fn data(seq: u64) -> Packet {
        Packet::data(FlowId(0), NodeId(1), seq, Bytes(1040), SimTime(seq))
    }

    #[test]
    fn hole_gives_dupacks_with_sack_then_a_cumulative_ack() {
        // Segments 0, 1 arrive; 2 is lost; 3, 4 arrive; then 2 is retransmitted.
        let mut r = TcpReceiver::new(FlowId(0), NodeId(0), &TcpConfig::default());
        let mut out = Outbox::default();
        for s in [0, 1, 3, 4] {
            r.on_data(&data(s), SimTime(10), &mut out);
        }
        let acks: Vec<(u64, Vec<(u64, u64)>)> = out.packets.iter().map(|a| (a.seq, a.options.ranges().to_vec())).collect();
        assert_eq!(acks, vec![(1, vec![]), (2, vec![]), (2, vec![(3, 4)]), (2, vec![(3, 5)])]);
        out.clear();
        assert_eq!(r.on_data(&data(2), SimTime(20), &mut out), DataArrival { first_arrival: true, in_order_advance: 3 });
        assert!(!r.on_data(&data(3), SimTime(21), &mut out).first_arrival);
        assert_eq!(out.packets[0].seq, 5);
        assert!(out.packets[0].options.ranges().is_empty());
    }

    #[test]
    fn delayed_ack_every_second_segment_or_on_timer() {
        let mut r = TcpReceiver::new(FlowId(0), NodeId(0), &TcpConfig { delayed_ack: true, ..TcpConfig::default() });
        let mut out = Outbox::default();
        r.on_data(&data(0), SimTime(0), &mut out);
        assert!(out.packets.is_empty());
        assert_eq!(out.timer_at(TimerKind::DelayedAck), Some(SimTime(0) + SimDuration::from_millis(40)));
        r.on_data(&data(1), SimTime(5), &mut out);
        assert_eq!(out.packets.len(), 1);
        assert_eq!(out.packets[0].echo_sent_at, SimTime(0), "echo the earliest segment");
        assert_eq!(out.request(TimerKind::DelayedAck), TimerRequest::Cancel, "the ACK went: no timer");
        r.on_data(&data(2), SimTime(6), &mut out);
        assert_eq!(out.packets.len(), 1);
        let t2 = out.timer_at(TimerKind::DelayedAck).unwrap();
        assert_eq!(t2, SimTime(6) + SimDuration::from_millis(40));
        r.on_dack_timer(t2, &mut out);
        assert_eq!(out.packets.len(), 2);
        assert_eq!(out.packets[1].seq, 3);
    }

    /// The (acknowledged up to, ECE) of each ACK a delayed-ACK receiver with `echo` sends for
    /// segments 0..6 with CE marks on 2, 3 and 4 and CWR on 5.
    fn echoes(echo: EcnEcho) -> Vec<(u64, bool)> {
        let cfg = TcpConfig { delayed_ack: true, ecn: true, ecn_echo: echo, ..TcpConfig::default() };
        let mut r = TcpReceiver::new(FlowId(0), NodeId(0), &cfg);
        let mut out = Outbox::default();
        for seq in 0..6 {
            let p = Packet { ecn: if (2..5).contains(&seq) { Ecn::Ce } else { Ecn::Ect0 }, cwr: seq == 5, ..data(seq) };
            r.on_data(&p, SimTime(seq), &mut out);
        }
        out.packets.iter().map(|a| (a.seq, a.ece)).collect()
    }

    #[test]
    fn the_dctcp_echo_says_exactly_which_segments_were_marked() {
        // RFC 3168: ECE latched from the first mark until CWR.
        assert_eq!(echoes(EcnEcho::Rfc3168), [(2, false), (4, true), (6, false)]);
        // RFC 8257 §3.2: the CE state changes at 2 (ACK of 0..2 sent at once, unmarked) and
        // at 5 (ACK of 2..5 at once, marked); CWR means nothing.
        assert_eq!(echoes(EcnEcho::Dctcp), [(2, false), (4, true), (5, true)]);
    }

    #[test]
    fn sack_blocks_most_recent_first() {
        let mut r = TcpReceiver::new(FlowId(0), NodeId(0), &TcpConfig::default());
        let mut out = Outbox::default();
        for s in [2, 4, 6, 8] {
            r.on_data(&data(s), SimTime(0), &mut out);
        }
        assert_eq!(out.packets[3].options.ranges().to_vec(), vec![(8, 9), (6, 7), (4, 5)]);
        r.on_data(&data(3), SimTime(0), &mut out);
        assert_eq!(out.packets[4].options.ranges().to_vec(), vec![(2, 5), (8, 9), (6, 7)]);
    }

    #[test]
    fn quick_ack_mode_acknowledges_the_first_16_segments_at_once_and_again_after_idle() {
        let cfg = TcpConfig { delayed_ack: true, quickacks: 16, timestamps: true, ..TcpConfig::default() };
        let mut r = TcpReceiver::new(FlowId(0), NodeId(0), &cfg);
        let mut out = Outbox::default();
        for s in 0..20 {
            r.on_data(&data(s), SimTime::from_millis(s), &mut out);
        }
        // 16 immediate ACKs, then every second segment: 18, 20.
        let acks: Vec<u64> = out.packets.iter().map(|a| a.seq).collect();
        assert_eq!(acks, (1..=16).chain([18, 20]).collect::<Vec<_>>());
        assert_eq!(out.packets[0].size, Bytes(52), "40 B of headers + 12 B of timestamps");
        // 1.5 s later the receiver is idle again: quick-ACK mode restarts.
        out.clear();
        for s in 20..24 {
            r.on_data(&data(s), SimTime::from_millis(1500 + s), &mut out);
        }
        assert_eq!(out.packets.len(), 4);
    }
}
