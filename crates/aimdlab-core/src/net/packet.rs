//! A packet on the wire: a data packet or an acknowledgement, of TCP, UDP or DCCP.
//!
//! Sequence numbers count segments, not bytes: every segment but a finite transfer's last
//! carries one MSS, so segment numbers are exact and cheaper than byte ranges. A DCCP packet
//! uses the same fields (see `transport::dccp` for what each one carries there).

pub use super::ack_options::{AckOptions, SackBlocks, TfrcFeedback, MAX_SACK_BLOCKS};
use crate::ids::{FlowId, NodeId};
use crate::units::{Bytes, SimTime};

/// Data or acknowledgement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PacketKind {
    /// A data segment; `seq` is its segment number.
    Data,
    /// An acknowledgement; `seq` is the cumulative ACK (the next segment expected).
    Ack,
}

/// The ECN field of the IP header (RFC 3168 §5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ecn {
    /// Not ECN-capable transport.
    NotEct,
    /// ECN-capable transport, ECT(0).
    Ect0,
    /// Congestion experienced (set by a router instead of dropping).
    Ce,
}

/// One packet. `Copy`, fixed-size and heap-free, so queues move it without allocating.
#[derive(Clone, Copy, Debug)]
pub struct Packet {
    /// The flow it belongs to.
    pub flow: FlowId,
    /// Node it is addressed to.
    pub dst: NodeId,
    /// Data or ACK.
    pub kind: PacketKind,
    /// Bytes on the wire (payload + header).
    pub size: Bytes,
    /// Data: segment number. ACK: cumulative acknowledgement (next segment expected).
    pub seq: u64,
    /// Time this transmission left the sender (data) or receiver (ACK).
    pub sent_at: SimTime,
    /// Data: whether this is a retransmission.
    pub is_retransmission: bool,
    /// ACK: `sent_at` of the data segment that triggered it (a timestamp echo, RFC 7323).
    pub echo_sent_at: SimTime,
    /// ACK: whether the echoed segment was a retransmission (Karn's rule).
    pub echo_is_retransmission: bool,
    /// IP ECN field.
    pub ecn: Ecn,
    /// ACK: ECN-Echo flag (RFC 3168).
    pub ece: bool,
    /// Data: Congestion Window Reduced flag (RFC 3168).
    pub cwr: bool,
    /// Acknowledgement options: SACK blocks, an Ack Vector, TFRC feedback, or none.
    pub options: AckOptions,
    /// When it entered the queue it is waiting in (for queuing delay).
    pub enqueued_at: SimTime,
    /// DCCP data: the CCID's per-packet value — CCID-2: the Ack Ratio the sender asks the
    /// receiver to use (RFC 4341 §6.1.2); CCID-3: the window counter CCVal (RFC 4342 §8.1).
    /// 0 for TCP and UDP.
    pub ccid_value: u16,
}

impl Packet {
    /// A data segment `seq` of `flow` to `dst`, `size` bytes on the wire, sent at `now`:
    /// an original transmission, not ECN-capable, without flags.
    pub fn data(flow: FlowId, dst: NodeId, seq: u64, size: Bytes, now: SimTime) -> Packet {
        Packet {
            flow,
            dst,
            kind: PacketKind::Data,
            size,
            seq,
            sent_at: now,
            is_retransmission: false,
            echo_sent_at: SimTime::ZERO,
            echo_is_retransmission: false,
            ecn: Ecn::NotEct,
            ece: false,
            cwr: false,
            options: AckOptions::None,
            enqueued_at: now,
            ccid_value: 0,
        }
    }
}
