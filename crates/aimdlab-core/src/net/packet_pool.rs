//! Where the packets on the wires live: one pool for the whole network, addressed by
//! `PacketSlot`, so a link's propagation pipe holds 16-byte (arrival time, slot) entries instead
//! of whole packets.
//!
//! Why: a pipe's ring grows to the largest burst the link ever carried and keeps that size
//! (shrinking would allocate on the hot path). With whole packets in every pipe, a 10,000-flow
//! dumbbell kept ~10 KB per flow of rings sized for slow-start bursts; with slots, the rings
//! are six times smaller and the packets take what the whole network holds at its peak. Freed
//! slots are reused last-in first-out, so a new packet lands where one just left (in cache).

use super::packet::Packet;

/// A packet's place in the pool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PacketSlot(u32);

/// The packets in flight on every link's wire.
#[derive(Default)]
pub struct PacketPool {
    slots: Vec<Packet>,
    free: Vec<PacketSlot>,
}

impl PacketPool {
    /// An empty pool (allocates nothing).
    pub fn new() -> Self {
        Self::default()
    }

    /// Stores `p` and returns its slot.
    #[inline]
    pub fn put(&mut self, p: Packet) -> PacketSlot {
        match self.free.pop() {
            Some(s) => {
                self.slots[s.0 as usize] = p;
                s
            }
            None => {
                assert!(self.slots.len() < u32::MAX as usize, "more than 2^32 packets on the wires at once");
                self.slots.push(p);
                PacketSlot(self.slots.len() as u32 - 1)
            }
        }
    }

    /// Removes and returns the packet in `slot`.
    #[inline]
    pub fn take(&mut self, slot: PacketSlot) -> Packet {
        self.free.push(slot);
        self.slots[slot.0 as usize]
    }

    /// The packet in `slot`, left in place.
    #[inline]
    pub fn peek(&self, slot: PacketSlot) -> &Packet {
        &self.slots[slot.0 as usize]
    }

    /// Hints that the packet in `slot` will be read soon (see `prefetch.rs`).
    #[inline]
    pub fn prefetch(&self, slot: PacketSlot) {
        if let Some(p) = self.slots.get(slot.0 as usize) {
            crate::prefetch::prefetch(p, std::mem::size_of::<Packet>());
        }
    }

    /// Packets held.
    pub fn len(&self) -> usize {
        self.slots.len() - self.free.len()
    }

    /// Whether no packet is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::{FlowId, NodeId};
    use crate::units::{Bytes, SimTime};

    #[test]
    fn packets_come_back_as_stored_and_slots_are_reused() {
        let mut pool = PacketPool::new();
        let p = |seq| Packet::data(FlowId(1), NodeId(2), seq, Bytes(1000), SimTime(seq));
        let a = pool.put(p(1));
        let b = pool.put(p(2));
        assert_eq!(pool.len(), 2);
        assert_eq!(pool.take(a).seq, 1);
        let c = pool.put(p(3));
        assert_eq!(c, a, "the slot just freed is reused");
        assert_eq!(pool.take(b).seq, 2);
        assert_eq!(pool.take(c).seq, 3);
        assert!(pool.is_empty());
    }
}
