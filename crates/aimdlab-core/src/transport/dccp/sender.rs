//! The DCCP sender (RFC 4340 as far as congestion control needs it): every data packet gets
//! the next sequence number, nothing is retransmitted, and the CCID decides when a packet may
//! leave. Data packets are DCCP-DataAcks carrying the greatest acknowledgement number the
//! sender has received (its "ack of ack", which lets the receiver trim its Ack Vector,
//! RFC 4340 §11.4.2; sent as that number + 1, 0 before any ACK) and the CCID's per-packet
//! value (CCID-2: the Ack Ratio asked for).

use super::ccid2::Ccid2;
use super::ccid3::Ccid3;
use super::params::DccpConfig;
use super::send_buffer::SendBuffer;
use crate::app::Write;
use crate::cc::Controller;
use crate::ids::{FlowId, NodeId};
use crate::net::packet::{AckOptions, Ecn, Packet};
use crate::transport::lazy_timer::LazyTimer;
use crate::transport::outbox::Outbox;
use crate::transport::rtt::RttEstimator;
use crate::transport::segments::SegmentSizes;
use crate::transport::sender_stats::SenderStats;
use crate::transport::timer::TimerKind;
use crate::units::{Bytes, SimTime};

/// The congestion control of a DCCP sender.
pub enum SenderCcid {
    /// CCID-2: a window (RFC 4341).
    Two(Ccid2),
    /// CCID-3: a rate (RFC 4342).
    Three(Ccid3),
}

/// One DCCP flow's sender.
pub struct DccpSender {
    flow: FlowId,
    dst: NodeId,
    header: Bytes,
    ecn: bool,
    sizes: SegmentSizes,
    /// The CCID half: window, losses and Ack Ratio (CCID-2) or rate (CCID-3).
    pub ccid: SenderCcid,
    /// RTT estimator and RTO.
    pub rtt: RttEstimator,
    next_seq: u64,
    /// One past the greatest acknowledgement number received (0: none yet): the ack of ack.
    known_below: u64,
    /// Messages of a self-paced application waiting for the CCID (`None`: the application
    /// is a transfer, always ready).
    buffer: Option<SendBuffer>,
    started: bool,
    app_open: bool,
    /// The retransmission timer (CCID-2).
    rto: LazyTimer,
    /// Counters over the run.
    pub stats: SenderStats,
    stats_at_window_start: SenderStats,
}

impl DccpSender {
    /// A sender of `flow` to `dst` with settings `cfg`, window controller `cc` (CCID-2; CCID-3
    /// runs TFRC), payload sizes `sizes`; `self_paced`: the application offers messages (else
    /// it is a transfer).
    pub fn new(flow: FlowId, dst: NodeId, cfg: &DccpConfig, sizes: SegmentSizes, cc: Controller, self_paced: bool) -> Self {
        let ccid = match cfg.ccid {
            3 => {
                let s = sizes.mss + cfg.data_header.0 .0;
                SenderCcid::Three(Ccid3::new(Box::new(crate::cc::tfrc::Tfrc::new(s, &cfg.tfrc())), s))
            }
            _ => SenderCcid::Two(Ccid2::new(cfg, cc, Bytes(sizes.mss))),
        };
        DccpSender {
            flow,
            dst,
            header: cfg.data_header.0,
            ecn: cfg.ecn,
            sizes,
            ccid,
            rtt: RttEstimator::new(cfg.initial_rto.0, cfg.min_rto.0, cfg.max_rto.0),
            next_seq: 0,
            known_below: 0,
            buffer: self_paced.then(|| SendBuffer::new(cfg.send_buffer, cfg.buffer_policy)),
            started: false,
            app_open: true,
            rto: LazyTimer::default(),
            stats: SenderStats::default(),
            stats_at_window_start: SenderStats::default(),
        }
    }

    /// The application starts at `now`.
    pub fn start(&mut self, now: SimTime, out: &mut Outbox) {
        self.started = true;
        self.try_send(now, out);
    }

    /// The application stops offering data.
    pub fn stop_app(&mut self) {
        self.app_open = false;
    }

    /// The application writes `write` at `now`: its packets join the send buffer.
    pub fn offer(&mut self, write: Write, now: SimTime, out: &mut Outbox) {
        if let Some(b) = self.buffer.as_mut() {
            let (n, last) = write.packets(self.sizes.mss);
            for i in 0..n {
                if b.offer(now, if i + 1 == n { last } else { self.sizes.mss }) {
                    self.stats.app_drops += 1;
                }
            }
        }
        self.try_send(now, out);
    }

    #[inline]
    fn has_data(&self) -> bool {
        match &self.buffer {
            Some(b) => b.has_message(),
            None => self.started && self.app_open && self.sizes.total.is_none_or(|t| self.next_seq < t),
        }
    }

    fn try_send(&mut self, now: SimTime, out: &mut Outbox) {
        // The CCID's per-packet value does not change within one burst (CCID-2's window and
        // CCID-3's RTT change only on ACKs and timers).
        let ccid_value = match &self.ccid {
            SenderCcid::Two(c) => c.ack_ratio(),
            SenderCcid::Three(c) => c.ccid_value(),
        };
        while self.has_data() && self.may_send(now, out) {
            let payload = match self.buffer.as_mut() {
                Some(b) => b.take().map_or(self.sizes.mss, |(_, bytes)| bytes),
                None => self.sizes.payload(self.next_seq),
            };
            self.send(payload, ccid_value, now, out);
        }
    }

    #[inline]
    fn may_send(&mut self, now: SimTime, out: &mut Outbox) -> bool {
        match &mut self.ccid {
            SenderCcid::Two(c) => c.may_send(),
            SenderCcid::Three(c) => c.may_send(now, out),
        }
    }

    #[inline]
    fn send(&mut self, payload: u64, ccid_value: u16, now: SimTime, out: &mut Outbox) {
        let seq = self.next_seq;
        self.next_seq += 1;
        let size = Bytes(payload + self.header.0);
        out.packets.push(Packet {
            ecn: if self.ecn { Ecn::Ect0 } else { Ecn::NotEct },
            options: AckOptions::AckOfAck(self.known_below),
            ccid_value,
            ..Packet::data(self.flow, self.dst, seq, size, now)
        });
        self.stats.data_pkts_sent += 1;
        self.stats.data_bytes_sent += size.0;
        self.stats.payload_bytes_sent += payload;
        match &mut self.ccid {
            SenderCcid::Two(c) => {
                c.on_send(seq, now);
                if !self.rto.is_armed() {
                    self.rto.arm(TimerKind::Retransmit, now + self.rtt.rto(), out);
                }
            }
            SenderCcid::Three(c) => c.on_send(now, out),
        }
    }

    /// An acknowledgement arrived at `now`.
    pub fn on_ack(&mut self, p: &Packet, now: SimTime, out: &mut Outbox) {
        self.stats.acks_received += 1;
        if let Some((_, e)) = p.options.ranges().iter().next() {
            self.known_below = self.known_below.max(e);
        }
        match &mut self.ccid {
            SenderCcid::Two(c) => {
                let newly = c.on_ack(p, now, self.next_seq, &mut self.rtt, &mut self.stats);
                if newly > 0 {
                    // RFC 6298 (5.2)/(5.3): restart on new acknowledgements, stop when none is out.
                    self.rto.stop();
                    if c.pipe() > 0 {
                        self.rto.arm(TimerKind::Retransmit, now + self.rtt.rto(), out);
                    }
                }
            }
            SenderCcid::Three(c) => c.on_feedback(p, now, &mut self.rtt, out),
        }
        self.try_send(now, out);
    }

    /// The retransmission timer event at `now`.
    pub fn on_rto_timer(&mut self, now: SimTime, out: &mut Outbox) {
        if !self.rto.fire(TimerKind::Retransmit, now, out) {
            return;
        }
        let SenderCcid::Two(c) = &mut self.ccid else {
            return;
        };
        if c.pipe() == 0 {
            return;
        }
        self.stats.timeouts += 1;
        if self.rtt.backoff() == 0 {
            self.stats.timeout_sequences += 1;
            self.stats.rto_first_sum_ps += self.rtt.rto().0 as u128;
        }
        c.on_timeout(now, self.next_seq, &self.rtt, &mut self.stats);
        self.rtt.on_timeout();
        self.try_send(now, out);
        if !self.rto.is_armed() && self.pipe() > 0 {
            self.rto.arm(TimerKind::Retransmit, now + self.rtt.rto(), out);
        }
    }

    /// The pacing timer event at `now` (CCID-3).
    pub fn on_pacing_timer(&mut self, now: SimTime, out: &mut Outbox) {
        if let SenderCcid::Three(c) = &mut self.ccid {
            if c.on_pacing_timer(now) {
                self.try_send(now, out);
            }
        }
    }

    /// The nofeedback timer event at `now` (CCID-3).
    pub fn on_nofeedback_timer(&mut self, now: SimTime, out: &mut Outbox) {
        if let SenderCcid::Three(c) = &mut self.ccid {
            c.on_nofeedback_timer(now, out);
            self.try_send(now, out);
        }
    }

    /// Packets in flight (CCID-2; 0 for CCID-3, which does not count them).
    pub fn pipe(&self) -> u64 {
        match &self.ccid {
            SenderCcid::Two(c) => c.pipe(),
            SenderCcid::Three(_) => 0,
        }
    }

    /// The congestion window (CCID-2).
    pub fn window(&self) -> Option<crate::cc::Window> {
        match &self.ccid {
            SenderCcid::Two(c) => Some(c.window.window()),
            SenderCcid::Three(_) => None,
        }
    }

    /// Publishes the CCID's state variables (CCID-3: the rate controller's).
    pub fn state_vars(&self, publish: &mut dyn FnMut(&'static str, f64)) {
        match &self.ccid {
            SenderCcid::Two(c) => c.window.state_vars(publish),
            SenderCcid::Three(c) => c.rc.state_vars(publish),
        }
    }

    /// Counters over the measurement window.
    pub fn window_stats(&self) -> SenderStats {
        self.stats.since(&self.stats_at_window_start)
    }

    /// Starts the measurement window.
    pub fn start_window(&mut self) {
        self.stats_at_window_start = self.stats;
        self.rtt.start_window();
    }
}
