//! The event list: a priority queue ordered by (time, insertion sequence), so events at the
//! same picosecond run in the order they were scheduled and every run is reproducible.
//!
//! Events are small `Copy` values naming *what* happens to *which* component; packets live in
//! the links' FIFOs, never in events.

use crate::ids::{FlowId, LinkId};
use crate::units::SimTime;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// What happens at an event's time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Event {
    /// The link finished serializing its current packet and may start the next queued one.
    LinkTxDone(LinkId),
    /// The packet at the head of the link's propagation pipe reaches the far end.
    LinkArrival(LinkId),
    /// The flow's retransmission timer may have expired (checked against its deadline).
    RetransmitTimer(FlowId),
    /// The flow's receiver delayed-ACK timer may have expired.
    DelayedAckTimer(FlowId),
    /// The flow's application starts.
    FlowStart(FlowId),
    /// The flow's application stops offering new data.
    FlowStop(FlowId),
    /// Take one sample of every time series.
    Sample,
    /// The warm-up ends: measurement windows start.
    WarmupEnd,
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Entry {
    time: SimTime,
    seq: u64,
    event: Event,
}

/// The pending events of one simulation.
pub struct EventQueue {
    heap: BinaryHeap<Reverse<Entry>>,
    next_seq: u64,
}

impl EventQueue {
    /// An empty queue with room for `capacity` pending events before it reallocates.
    pub fn with_capacity(capacity: usize) -> Self {
        EventQueue { heap: BinaryHeap::with_capacity(capacity), next_seq: 0 }
    }

    /// Schedules `event` at `time`.
    #[inline]
    pub fn schedule(&mut self, time: SimTime, event: Event) {
        let seq = self.next_seq;
        self.next_seq += 1;
        self.heap.push(Reverse(Entry { time, seq, event }));
    }

    /// Removes and returns the earliest event (ties: the first scheduled).
    #[inline]
    pub fn pop(&mut self) -> Option<(SimTime, Event)> {
        self.heap.pop().map(|Reverse(e)| (e.time, e.event))
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
        let mut q = EventQueue::with_capacity(4);
        q.schedule(SimTime(10), Event::Sample);
        q.schedule(SimTime(5), Event::FlowStart(FlowId(2)));
        q.schedule(SimTime(5), Event::FlowStart(FlowId(1)));
        q.schedule(SimTime(5), Event::FlowStart(FlowId(3)));
        let order: Vec<_> = std::iter::from_fn(|| q.pop()).collect();
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
