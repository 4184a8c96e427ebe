//! What a link's layer below IP adds: framing bytes on the wire, and a device queue between
//! the queue discipline and the serializer.
//!
//! The device queue is ns-3's `NetDevice` transmit queue under its traffic-control layer
//! (`PointToPointNetDevice::TxQueue`; the ns-3 peer sets it to one packet) and Linux's
//! driver ring under the qdisc: the discipline hands its head to the device whenever the
//! device has room (`QueueDisc::Run` on the device's wake-up), so the discipline holds every
//! waiting packet but the first `device_queue_pkts`. Its drop and mark decisions, its limit
//! and the queue length a link reports (as `QueueDisc::GetNPackets` and `tc` do) count the
//! discipline's packets only; the packets in the device queue still wait for the serializer
//! and count in the queuing delay. An AQM that decides at dequeue time (CoDel, PIE) decides
//! when its packet moves into the device queue.

use super::packet::Packet;
use super::queue::fifo::PacketFifo;
use super::queue::{Queue, QueueDiscipline, QueueLog};
use crate::units::{Bytes, SimTime};

/// A link's layer below IP.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LinkLayer {
    /// Bytes added to every packet on the wire (header, trailer, preamble, gap).
    pub framing: Bytes,
    /// Packets the device queue holds between the queue discipline and the serializer (0:
    /// none, the serializer takes from the discipline).
    pub device_queue_pkts: u64,
}

/// The device queue of a link.
pub struct DeviceQueue {
    fifo: PacketFifo,
    limit_pkts: u64,
}

impl DeviceQueue {
    /// Each packet it holds, head first.
    pub fn iter(&self) -> impl Iterator<Item = &Packet> {
        self.fifo.iter()
    }

    /// An empty device queue of `limit_pkts` packets (allocates nothing until its first packet).
    pub fn new(limit_pkts: u64) -> Self {
        DeviceQueue { fifo: PacketFifo::new(), limit_pkts }
    }

    /// Packets held.
    #[inline]
    pub fn len_pkts(&self) -> u64 {
        self.fifo.len_pkts()
    }

    /// Moves packets from the head of `qdisc` at `now` while there is room.
    #[inline]
    pub fn refill(&mut self, qdisc: &mut Queue, now: SimTime, log: &mut QueueLog) {
        while self.fifo.len_pkts() < self.limit_pkts {
            match qdisc.dequeue(now, log) {
                Some(p) => self.fifo.push(p),
                None => return,
            }
        }
    }

    /// Takes the head for the serializer at `now` and refills from `qdisc`.
    #[inline]
    pub fn take(&mut self, qdisc: &mut Queue, now: SimTime, log: &mut QueueLog) -> Option<Packet> {
        if self.fifo.is_empty() {
            self.refill(qdisc, now, log);
        }
        let p = self.fifo.pop();
        self.refill(qdisc, now, log);
        p
    }
}
