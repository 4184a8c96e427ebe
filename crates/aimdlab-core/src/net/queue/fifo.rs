//! The packet FIFO every queue discipline stores its packets in, with a running byte count.

use crate::net::packet::Packet;
use std::collections::VecDeque;

/// A FIFO of packets.
pub struct PacketFifo {
    packets: VecDeque<Packet>,
    bytes: u64,
}

impl PacketFifo {
    /// An empty FIFO with room for `capacity` packets before it reallocates.
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
