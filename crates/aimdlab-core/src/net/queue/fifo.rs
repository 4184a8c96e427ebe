//! The packet FIFO every queue discipline stores its packets in, with a running byte count.
//!
//! A ring buffer that starts small and doubles when full (so a 1000-packet limit on an idle
//! access link costs 32 packets, not 1000), and rewinds to its start when it empties: a link
//! that holds one packet at a time keeps using the same cache line instead of walking (and
//! paging in) its whole buffer.

use crate::net::packet::Packet;
use std::collections::VecDeque;

/// A FIFO of packets.
pub struct PacketFifo {
    packets: VecDeque<Packet>,
    bytes: u64,
}

impl PacketFifo {
    /// Packets a FIFO has room for before its first growth.
    pub const INITIAL_CAPACITY: usize = 4;

    /// An empty FIFO with room for `capacity` packets before it grows.
    pub fn with_capacity(capacity: usize) -> Self {
        PacketFifo { packets: VecDeque::with_capacity(capacity), bytes: 0 }
    }
    /// Appends at the tail.
    #[inline]
    pub fn push(&mut self, p: Packet) {
        self.bytes += p.size.0;
        self.packets.push_back(p);
    }
    /// Removes the head.
    #[inline]
    pub fn pop(&mut self) -> Option<Packet> {
        let p = self.packets.pop_front()?;
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
