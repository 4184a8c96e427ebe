//! What every queue discipline does on a link: take an arriving packet (or drop or mark
//! it), hand over the next packet to transmit, and say how much it holds. The registry in
//! `mod.rs` dispatches to the built-ins statically.

use super::log::QueueLog;
use crate::net::packet::Packet;
use crate::rng::RngStream;
use crate::units::SimTime;

/// An egress queue discipline.
pub trait QueueDiscipline {
    /// Offers `p` arriving at `now`; returns whether it was queued (drops and marks are
    /// recorded in `log`; `rng` serves randomized disciplines).
    fn enqueue(&mut self, p: Packet, now: SimTime, rng: &mut RngStream, log: &mut QueueLog) -> bool;
    /// Takes the next packet to transmit at `now` (an AQM may drop or mark on the way).
    fn dequeue(&mut self, now: SimTime, log: &mut QueueLog) -> Option<Packet>;
    /// Packets waiting.
    fn len_pkts(&self) -> u64;
    /// Bytes waiting.
    fn len_bytes(&self) -> u64;
    /// Calls `f` with each packet waiting (a finished run's count of what it still holds).
    fn for_each_packet(&self, f: &mut dyn FnMut(&Packet));
    /// Publishes the discipline's own state variables for the time series, as a controller
    /// does (`publish(name, value)`): RED its average queue, `red_avg`. Default: none.
    fn state_vars(&self, _publish: &mut dyn FnMut(&'static str, f64)) {}
    /// Whether a packet arriving at an idle link with an empty queue may skip the queue
    /// (true only where that changes nothing: DropTail).
    fn is_passive(&self) -> bool {
        false
    }
}

impl<T: QueueDiscipline> QueueDiscipline for Box<T> {
    #[inline]
    fn enqueue(&mut self, p: Packet, now: SimTime, rng: &mut RngStream, log: &mut QueueLog) -> bool {
        (**self).enqueue(p, now, rng, log)
    }
    #[inline]
    fn dequeue(&mut self, now: SimTime, log: &mut QueueLog) -> Option<Packet> {
        (**self).dequeue(now, log)
    }
    #[inline]
    fn len_pkts(&self) -> u64 {
        (**self).len_pkts()
    }
    #[inline]
    fn len_bytes(&self) -> u64 {
        (**self).len_bytes()
    }
    fn for_each_packet(&self, f: &mut dyn FnMut(&Packet)) {
        (**self).for_each_packet(f)
    }
    fn state_vars(&self, publish: &mut dyn FnMut(&'static str, f64)) {
        (**self).state_vars(publish)
    }
    fn is_passive(&self) -> bool {
        (**self).is_passive()
    }
}
