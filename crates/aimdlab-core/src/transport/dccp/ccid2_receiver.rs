//! The DCCP receiver for CCID-2 (RFC 4341 §6): it records arrivals in its Ack Vector and
//! sends an acknowledgement (a DCCP-Ack with the vector) once per Ack Ratio data packets —
//! the ratio the latest data packet asked for — or when `dccp.ack_delay` has passed since
//! the first packet not yet acknowledged. Each ACK has its own sequence number (the sender
//! detects lost ACKs by them), echoes the send time of the newest packet (a Timestamp Echo),
//! and carries ECN-Echo when a CE-marked packet arrived since the previous ACK. Nothing is
//! delivered in order: DCCP is unreliable.

use super::ack_vector::AckVector;
use super::params::DccpConfig;
use crate::ids::{FlowId, NodeId};
use crate::net::packet::{AckOptions, Ecn, Packet, PacketKind};
use crate::transport::arrival::DataArrival;
use crate::transport::outbox::Outbox;
use crate::transport::timer::TimerKind;
use crate::units::{Bytes, SimDuration, SimTime};

/// One CCID-2 flow's receiver.
pub struct Ccid2Receiver {
    flow: FlowId,
    src: NodeId,
    ack_header: Bytes,
    ack_delay: SimDuration,
    vector: AckVector,
    ack_seq: u64,
    since_ack: u32,
    ece: bool,
    newest_sent_at: SimTime,
    ack_deadline: Option<SimTime>,
}

impl Ccid2Receiver {
    /// A receiver of `flow` whose ACKs go back to `src`.
    pub fn new(flow: FlowId, src: NodeId, cfg: &DccpConfig) -> Self {
        Ccid2Receiver {
            flow,
            src,
            ack_header: cfg.ack_header.0,
            ack_delay: cfg.ack_delay.0,
            vector: AckVector::default(),
            ack_seq: 0,
            since_ack: 0,
            ece: false,
            newest_sent_at: SimTime::ZERO,
            ack_deadline: None,
        }
    }

    /// A data packet arrived at `now`.
    pub fn on_data(&mut self, p: &Packet, now: SimTime, out: &mut Outbox) -> DataArrival {
        self.vector.trim(p.options.ack_of_ack());
        let first_arrival = self.vector.record(p.seq);
        if self.vector.greatest_received() == Some(p.seq) {
            self.newest_sent_at = p.sent_at;
        }
        self.ece |= p.ecn == Ecn::Ce;
        self.since_ack += 1;
        if self.since_ack >= (p.ccid_value as u32).max(1) {
            self.emit_ack(now, out);
        } else if self.ack_deadline.is_none() {
            let at = now + self.ack_delay;
            self.ack_deadline = Some(at);
            out.set_timer(TimerKind::DelayedAck, at);
        }
        DataArrival { first_arrival, in_order_advance: 0 }
    }

    /// The ACK timer ran out at `now`.
    pub fn on_ack_timer(&mut self, now: SimTime, out: &mut Outbox) {
        self.ack_deadline = None;
        if self.since_ack > 0 {
            self.emit_ack(now, out);
        }
    }

    fn emit_ack(&mut self, now: SimTime, out: &mut Outbox) {
        out.packets.push(Packet {
            kind: PacketKind::Ack,
            seq: self.ack_seq,
            echo_sent_at: self.newest_sent_at,
            ece: std::mem::take(&mut self.ece),
            options: AckOptions::ack_vector(self.vector.recent_runs()),
            ..Packet::data(self.flow, self.src, 0, Bytes(self.ack_header.0 + self.vector.option_bytes()), now)
        });
        self.ack_seq += 1;
        self.since_ack = 0;
        if self.ack_deadline.take().is_some() {
            out.cancel_timer(TimerKind::DelayedAck);
        }
    }
}
