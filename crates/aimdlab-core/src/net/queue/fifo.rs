//! The packet FIFO every queue discipline stores its packets in, with a running byte count.
//!
//! A ring buffer that allocates nothing until its first packet (a DropTail link that is
//! never busy when a packet comes never queues one), starts at 4 packets and doubles when
//! full (so a 1000-packet limit on an idle access link costs a few packets, not 1000), and
//! rewinds to its start when it empties: a link that holds one packet at a time keeps using
//! the same cache line instead of walking (and paging in) its whole buffer.

use crate::net::packet::Packet;
use std::collections::VecDeque;

/// How many packets behind the head `pop` prefetches.
const PREFETCH_AHEAD: usize = 6;

/// How many packets past the tail `push` prefetches, once the queue holds more than
/// `WRITE_AHEAD_FROM_PKTS` (below that the ring's lines were touched a moment ago).
const WRITE_AHEAD: usize = 4;
const WRITE_AHEAD_FROM_PKTS: usize = 8;

/// A FIFO of packets.
#[derive(Default)]
pub struct PacketFifo {
    packets: VecDeque<Packet>,
    bytes: u64,
}

impl PacketFifo {
    /// An empty FIFO (allocates nothing).
    pub fn new() -> Self {
        PacketFifo { packets: VecDeque::new(), bytes: 0 }
    }
    /// Appends at the tail.
    #[inline]
    pub fn push(&mut self, p: Packet) {
        self.bytes += p.size.0;
        self.packets.push_back(p);
        // A long queue is written tail first into lines last touched a whole ring ago (out
        // of cache with thousands of flows): start loading the slot a few packets on, so the
        // writes there do not wait for it. Near the ring's end the address may lie past it
        // (a hint only: nothing is read there).
        if self.packets.len() > WRITE_AHEAD_FROM_PKTS {
            if let Some(last) = self.packets.back() {
                let ahead = (last as *const Packet).wrapping_add(WRITE_AHEAD);
                crate::prefetch::prefetch_bytes(ahead, std::mem::size_of::<Packet>());
            }
        }
    }
    /// Removes the head.
    #[inline]
    pub fn pop(&mut self) -> Option<Packet> {
        let p = self.packets.pop_front()?;
        // A long queue is read head first, but what it holds was written a queuing delay ago
        // (out of cache with thousands of flows): start loading the packet that will leave a
        // few departures from now.
        if let Some(ahead) = self.packets.get(PREFETCH_AHEAD) {
            crate::prefetch::prefetch(ahead, std::mem::size_of::<Packet>());
        }
        self.bytes -= p.size.0;
        if self.packets.is_empty() {
            self.packets.clear(); // rewinds the ring to its start
        }
        Some(p)
    }
    /// The head, if any.
    #[inline]
    pub fn front(&self) -> Option<&Packet> {
        self.packets.front()
    }
    /// Each packet held, head first.
    pub fn iter(&self) -> impl Iterator<Item = &Packet> {
        self.packets.iter()
    }

    /// Packets held.
    #[inline]
    pub fn len_pkts(&self) -> u64 {
        self.packets.len() as u64
    }
    /// Bytes held.
    #[inline]
    pub fn len_bytes(&self) -> u64 {
        self.bytes
    }
    /// Whether it is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.packets.is_empty()
    }
}
