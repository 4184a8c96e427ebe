//! DropTail: a FIFO that drops arrivals once it holds `limit` packets or bytes.

use super::fifo::PacketFifo;
use super::log::{DropCause, QueueLog};
use crate::net::packet::Packet;
use crate::units::parse::PacketsOrBytes;
use super::discipline::QueueDiscipline;
use super::params::{check_limit, limit_in_pkts, DisciplineSpec};
use crate::error::ParamError;
use crate::rng::RngStream;
use crate::units::quantity::BufferSize;
use crate::units::{Rate, SimTime};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A DropTail FIFO.
pub struct DropTail {
    fifo: PacketFifo,
    limit: PacketsOrBytes,
}

/// Whether a packet of `size` bytes fits in `fifo` under `limit`.
#[inline]
pub fn fits(fifo: &PacketFifo, limit: PacketsOrBytes, size: u64) -> bool {
    match limit {
        PacketsOrBytes::Packets(n) => fifo.len_pkts() < n,
        PacketsOrBytes::Bytes(b) => fifo.len_bytes() + size <= b.0,
    }
}

/// Appends `p` to `fifo` if it fits under `limit`; otherwise records an overflow drop.
/// Returns whether it was queued.
#[inline]
pub fn push_or_overflow(fifo: &mut PacketFifo, limit: PacketsOrBytes, p: Packet, log: &mut QueueLog) -> bool {
    if fits(fifo, limit, p.size.0) {
        fifo.push(p);
        true
    } else {
        log.drop(DropCause::Overflow);
        false
    }
}

impl DropTail {
    /// An empty queue that holds at most `limit` (packets or bytes) waiting packets.
    pub fn new(limit: PacketsOrBytes) -> Self {
        DropTail { fifo: PacketFifo::new(), limit }
    }

    /// Appends `p` if it fits, else drops it (overflow). Returns whether it was queued.
    #[inline]
    pub fn enqueue(&mut self, p: Packet, log: &mut QueueLog) -> bool {
        push_or_overflow(&mut self.fifo, self.limit, p, log)
    }

    /// Removes the packet at the head.
    #[inline]
    pub fn dequeue(&mut self) -> Option<Packet> {
        self.fifo.pop()
    }
}

/// DropTail's parameters (`queue = { kind = "droptail", limit = "100pkt" }`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct DropTailSpec {
    /// Capacity in packets (`"100pkt"`) or bytes (`"150KB"`), not counting the packet being
    /// transmitted. Default `"100pkt"`.
    pub limit: BufferSize,
}

impl Default for DropTailSpec {
    fn default() -> Self {
        DropTailSpec { limit: BufferSize(PacketsOrBytes::Packets(100)) }
    }
}

impl DisciplineSpec for DropTailSpec {
    const KIND: &'static str = "droptail";
    type Config = PacketsOrBytes;
    type Queue = DropTail;
    fn resolve(&self, _rate: Rate) -> Result<PacketsOrBytes, ParamError> {
        check_limit(self.limit.0)
    }
    fn build(limit: &PacketsOrBytes, _rate: Rate, _salt: u64) -> DropTail {
        DropTail::new(*limit)
    }
    fn limit_pkts(limit: &PacketsOrBytes) -> u64 {
        limit_in_pkts(*limit)
    }
}

impl QueueDiscipline for DropTail {
    #[inline]
    fn enqueue(&mut self, p: Packet, _now: SimTime, _rng: &mut RngStream, log: &mut QueueLog) -> bool {
        DropTail::enqueue(self, p, log)
    }
    #[inline]
    fn dequeue(&mut self, _now: SimTime, _log: &mut QueueLog) -> Option<Packet> {
        DropTail::dequeue(self)
    }
    #[inline]
    fn len_pkts(&self) -> u64 {
        self.fifo.len_pkts()
    }
    #[inline]
    fn len_bytes(&self) -> u64 {
        self.fifo.len_bytes()
    }
    fn for_each_packet(&self, f: &mut dyn FnMut(&Packet)) {
        self.fifo.iter().for_each(f)
    }
    fn is_passive(&self) -> bool {
        true
    }
}
