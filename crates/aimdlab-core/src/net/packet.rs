//! A packet on the wire: a data packet or an acknowledgement, of TCP, UDP or DCCP.
//!
//! Sequence numbers count segments, not bytes: every segment but a finite transfer's last
//! carries one MSS, so segment numbers are exact and cheaper than byte ranges. A DCCP packet
//! uses the same fields (see `transport::dccp` for what each one carries there).

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

/// Most SACK blocks one ACK carries (three, as with the timestamp option, RFC 2018 §3).
pub const MAX_SACK_BLOCKS: usize = 3;

/// The acknowledgement options of a packet. TCP: SACK blocks, half-open segment ranges
/// `[start, end)` received above the cumulative ACK, the most recently changed first
/// (RFC 2018 §4). DCCP: an Ack Vector's received runs in the same range form (the first
/// holds the acknowledgement number), a DCCP-DataAck's acknowledgement number alone (the
/// base, no ranges), or CCID-3 feedback (three 32-bit option values, `from_words`). Stored as
/// 32-bit offsets from a base to keep packets small; a block lies within the receive window
/// (at most 2^24 segments), so the offsets always fit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SackBlocks {
    base: u64,
    offsets: [(u32, u32); MAX_SACK_BLOCKS],
    len: u8,
}

impl SackBlocks {
    /// No blocks yet, for an ACK whose cumulative sequence is `base`.
    pub fn new(base: u64) -> Self {
        SackBlocks { base, offsets: [(0, 0); MAX_SACK_BLOCKS], len: 0 }
    }
    /// Number of blocks.
    pub fn len(&self) -> usize {
        self.len as usize
    }
    /// Whether there is no block.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Whether all block slots are used.
    pub fn is_full(&self) -> bool {
        self.len as usize == MAX_SACK_BLOCKS
    }
    /// Appends block `[start, end)` (start ≥ base) if there is room.
    pub fn push(&mut self, start: u64, end: u64) {
        debug_assert!(start >= self.base && end - self.base <= u32::MAX as u64);
        if !self.is_full() {
            self.offsets[self.len as usize] = ((start - self.base) as u32, (end - self.base) as u32);
            self.len += 1;
        }
    }
    /// The blocks as absolute `[start, end)` ranges.
    pub fn iter(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.offsets[..self.len as usize].iter().map(|&(s, e)| (self.base + s as u64, self.base + e as u64))
    }
    /// The base the offsets count from (TCP: the cumulative ACK; DCCP-DataAck: the
    /// acknowledgement number).
    pub fn base(&self) -> u64 {
        self.base
    }
    /// Options that carry three 32-bit pairs of values rather than ranges (CCID-3 feedback):
    /// no ranges, `base` kept.
    pub fn from_words(base: u64, words: [(u32, u32); MAX_SACK_BLOCKS]) -> Self {
        SackBlocks { base, offsets: words, len: 0 }
    }
    /// The three 32-bit pairs stored by `from_words`.
    pub fn words(&self) -> [(u32, u32); MAX_SACK_BLOCKS] {
        self.offsets
    }
    /// The blocks as a vector (for tests and debugging).
    pub fn to_vec(&self) -> Vec<(u64, u64)> {
        self.iter().collect()
    }
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
    /// ACK: SACK blocks.
    pub sack: SackBlocks,
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
            sack: SackBlocks::new(0),
            enqueued_at: now,
            ccid_value: 0,
        }
    }
}
