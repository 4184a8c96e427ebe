//! The event list: a priority queue ordered by (time, insertion sequence), so events at the
//! same picosecond run in the order they were scheduled and every run is reproducible.
//!
//! Events are small `Copy` values naming *what* happens to *which* component; packets live in
//! the links' FIFOs, never in events.

use crate::ids::{FlowId, LinkId};
use crate::radix_heap::RadixHeap;
use crate::transport::timer::TimerKind;
use crate::units::SimTime;

/// What happens at an event's time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Event {
    /// The link finished serializing its current packet and may start the next queued one.
    LinkTxDone(LinkId),
    /// The packet at the head of the link's propagation pipe reaches the far end.
    LinkArrival(LinkId),
    /// A timer of one of the flow's transport endpoints may have expired (the endpoint checks
    /// it against its own deadline).
    Timer(FlowId, TimerKind),
    /// The flow's application starts.
    FlowStart(FlowId),
    /// The flow's application stops offering new data.
    FlowStop(FlowId),
    /// Take one sample of every time series.
    Sample,
    /// The warm-up ends: measurement windows start.
    WarmupEnd,
    /// The flow's application timer (an ON/OFF source's next message or period).
    AppTimer(FlowId),
    /// The packet at the head of the flow's send-jitter queue leaves its host.
    HostRelease(FlowId),
}

/// Bits of an entry's low word that hold the event; the sequence number takes the rest.
const EVENT_BITS: u32 = 24;
const ID_BITS: u32 = EVENT_BITS - 4;
/// Largest component id an event can name (about a million links or flows).
pub const MAX_EVENT_ID: u32 = (1 << ID_BITS) - 1;

impl Event {
    #[inline]
    fn pack(self) -> u64 {
        let (kind, id) = match self {
            Event::LinkTxDone(l) => (0, l.0),
            Event::LinkArrival(l) => (1, l.0),
            Event::Timer(f, TimerKind::Retransmit) => (2, f.0),
            Event::Timer(f, TimerKind::DelayedAck) => (3, f.0),
            Event::Timer(f, TimerKind::Pacing) => (10, f.0),
            Event::FlowStart(f) => (4, f.0),
            Event::FlowStop(f) => (5, f.0),
            Event::Sample => (6, 0),
            Event::WarmupEnd => (7, 0),
            Event::AppTimer(f) => (8, f.0),
            Event::HostRelease(f) => (9, f.0),
        };
        debug_assert!(id <= MAX_EVENT_ID);
        ((kind as u64) << ID_BITS) | id as u64
    }

    #[inline]
    fn unpack(bits: u64) -> Event {
        let id = (bits & MAX_EVENT_ID as u64) as u32;
        match (bits >> ID_BITS) & 15 {
            0 => Event::LinkTxDone(LinkId(id)),
            1 => Event::LinkArrival(LinkId(id)),
            2 => Event::Timer(FlowId(id), TimerKind::Retransmit),
            3 => Event::Timer(FlowId(id), TimerKind::DelayedAck),
            4 => Event::FlowStart(FlowId(id)),
            5 => Event::FlowStop(FlowId(id)),
            6 => Event::Sample,
            7 => Event::WarmupEnd,
            8 => Event::AppTimer(FlowId(id)),
            9 => Event::HostRelease(FlowId(id)),
            10 => Event::Timer(FlowId(id), TimerKind::Pacing),
            // Every code comes from `pack`; a kind added there and not here stops the run
            // with this message (an engine error) instead of being taken for another kind.
            code => unreachable!("event kind {code} is packed but not unpacked (event.rs)"),
        }
    }
}

/// The pending events of one simulation, in a radix heap (`radix_heap.rs`): events are never
/// scheduled in the past, so a monotone queue serves, and it pops with a few predictable loops
/// where a binary heap takes `log n` unpredictable comparisons (measured on benchmark (a):
/// see `benches/engine.py`).
///
/// An entry is 16 bytes: the time, and a word holding the insertion sequence number (high
/// 40 bits) above the packed event (low 24 bits: 4 for the kind, 20 for the id). Comparing the two words as one `u128`
/// orders by (time, sequence), which is the run order.
pub struct EventQueue {
    heap: RadixHeap,
    next_seq: u64,
}

impl Default for EventQueue {
    fn default() -> Self {
        Self::new()
    }
}

impl EventQueue {
    /// An empty queue.
    pub fn new() -> Self {
        EventQueue { heap: RadixHeap::new(), next_seq: 0 }
    }

    /// Schedules `event` at `time`.
    ///
    /// Panics after 2^40 (about 10^12) events in one run; the caller turns a panic into an
    /// engine error.
    #[inline]
    pub fn schedule(&mut self, time: SimTime, event: Event) {
        let seq = self.next_seq;
        assert!(seq < 1 << (64 - EVENT_BITS), "more than 2^40 events in one run");
        self.next_seq += 1;
        let low = (seq << EVENT_BITS) | event.pack();
        self.heap.push(((time.0 as u128) << 64) | low as u128);
    }

    /// Removes and returns the earliest event (ties: the first scheduled).
    #[inline]
    pub fn pop(&mut self) -> Option<(SimTime, Event)> {
        self.heap.pop().map(|k| (SimTime((k >> 64) as u64), Event::unpack(k as u64 & ((1 << EVENT_BITS) - 1))))
    }

    /// Number of events scheduled so far (the total, not the pending count).
    pub fn scheduled_total(&self) -> u64 {
        self.next_seq
    }

    /// Number of pending events.
    pub fn len(&self) -> usize {
        self.heap.len()
    }

    /// Whether no event is pending.
    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ties_run_in_insertion_order() {
        let mut q = EventQueue::new();
        q.schedule(SimTime(10), Event::Sample);
        q.schedule(SimTime(5), Event::FlowStart(FlowId(2)));
        q.schedule(SimTime(5), Event::FlowStart(FlowId(1)));
        q.schedule(SimTime(5), Event::FlowStart(FlowId(3)));
        let order: Vec<_> = std::iter::from_fn(|| q.pop()).collect();
        for ev in [
            Event::LinkTxDone(LinkId(MAX_EVENT_ID)),
            Event::LinkArrival(LinkId(3)),
            Event::Timer(FlowId(9), TimerKind::Retransmit),
            Event::Timer(FlowId(1), TimerKind::DelayedAck),
            Event::Timer(FlowId(4), TimerKind::Pacing),
            Event::FlowStop(FlowId(0)),
            Event::WarmupEnd,
            Event::AppTimer(FlowId(7)),
            Event::HostRelease(FlowId(2)),
        ] {
            assert_eq!(Event::unpack(ev.pack()), ev);
        }
        assert_eq!(
            order,
            vec![
                (SimTime(5), Event::FlowStart(FlowId(2))),
                (SimTime(5), Event::FlowStart(FlowId(1))),
                (SimTime(5), Event::FlowStart(FlowId(3))),
                (SimTime(10), Event::Sample),
            ]
        );
    }
}
