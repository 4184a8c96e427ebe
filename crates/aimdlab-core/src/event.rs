//! The event list: a priority queue ordered by (time, insertion sequence), so events at the
//! same picosecond run in the order they were scheduled and every run is reproducible.
//!
//! Events are small `Copy` values naming *what* happens to *which* component; packets live in
//! the links' FIFOs, never in events.

use crate::calendar_queue::CalendarQueue;
use crate::ids::{FlowId, LinkId};
use crate::timer_lane::TimerLane;
use crate::transport::timer::TimerKind;
use crate::units::SimDuration;
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
/// Bits of a timer event's id that hold the flow; the timer kind's index takes the rest (up to
/// 8 kinds, flows up to 2^17 = 131,072, above the 100,000-flow limit).
pub const TIMER_FLOW_BITS: u32 = 17;
/// The kind code of a packed event (its bits above the id).
#[inline]
fn kind_code(bits: u64) -> u64 {
    (bits >> ID_BITS) & 15
}
/// Kind code of a timer lane's head in the queue (never handed out as an `Event`).
const LANE_HEAD_KIND: u64 = 15;

impl Event {
    #[inline]
    fn pack(self) -> u64 {
        let (kind, id) = match self {
            Event::LinkTxDone(l) => (0, l.0),
            Event::LinkArrival(l) => (1, l.0),
            Event::Timer(f, kind) => {
                debug_assert!(f.0 < 1 << TIMER_FLOW_BITS && (kind as u32) < 1 << (ID_BITS - TIMER_FLOW_BITS));
                (2, (kind as u32) << TIMER_FLOW_BITS | f.0)
            }
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
        match kind_code(bits) {
            0 => Event::LinkTxDone(LinkId(id)),
            1 => Event::LinkArrival(LinkId(id)),
            2 => match TimerKind::from_index((id >> TIMER_FLOW_BITS) as usize) {
                Some(kind) => Event::Timer(FlowId(id & ((1 << TIMER_FLOW_BITS) - 1)), kind),
                None => unreachable!("timer kind {} is packed but not known (transport/timer.rs)", id >> TIMER_FLOW_BITS),
            },
            4 => Event::FlowStart(FlowId(id)),
            5 => Event::FlowStop(FlowId(id)),
            6 => Event::Sample,
            7 => Event::WarmupEnd,
            8 => Event::AppTimer(FlowId(id)),
            9 => Event::HostRelease(FlowId(id)),
            // Every code comes from `pack`; a kind added there and not here stops the run
            // with this message (an engine error) instead of being taken for another kind.
            code => unreachable!("event kind {code} is packed but not unpacked (event.rs)"),
        }
    }
}

/// The pending events of one simulation, in a priority queue of 16-byte keys: a calendar
/// queue (`calendar_queue.rs`; events are never scheduled in the past, so a monotone queue
/// serves).
///
/// Why a calendar queue and not a binary or radix heap: the measurements are in
/// `docs/explanation/benchmarks.md` ("Choices kept for speed").
///
/// An entry is 16 bytes: the time, and a word holding the insertion sequence number (high
/// 40 bits) above the packed event (low 24 bits: 4 for the kind, 20 for the id). Comparing the two words as one `u128`
/// orders by (time, sequence), which is the run order.
///
/// Beside ordinary events, which always run, the queue keeps *exact* timers in timer lanes
/// (`timer_lane.rs`): timers of one fixed delay that can be cancelled, and run only if they
/// are still set — in the same (time, sequence) order as every other event.
pub struct EventQueue {
    heap: CalendarQueue,
    lanes: Vec<TimerLane>,
    next_seq: u64,
}

/// A timer lane of an event queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaneId(u32);

#[inline]
fn lane_head_key(entry: u128, lane: LaneId) -> u128 {
    (entry & !((1u128 << EVENT_BITS) - 1)) | ((LANE_HEAD_KIND << ID_BITS) | lane.0 as u64) as u128
}

#[inline]
fn unpack_key(k: u128) -> (SimTime, Event) {
    (SimTime((k >> 64) as u64), Event::unpack(k as u64 & ((1 << EVENT_BITS) - 1)))
}

impl Default for EventQueue {
    fn default() -> Self {
        Self::new()
    }
}

impl EventQueue {
    /// An empty queue.
    pub fn new() -> Self {
        EventQueue { heap: CalendarQueue::new(), lanes: Vec::new(), next_seq: 0 }
    }

    #[inline]
    fn key(&mut self, time: SimTime, event: Event) -> u128 {
        let seq = self.next_seq;
        assert!(seq < 1 << (64 - EVENT_BITS), "more than 2^40 events in one run");
        self.next_seq += 1;
        let low = (seq << EVENT_BITS) | event.pack();
        ((time.0 as u128) << 64) | low as u128
    }

    /// Schedules `event` at `time`.
    ///
    /// Panics after 2^40 (about 10^12) events in one run; the caller turns a panic into an
    /// engine error.
    #[inline]
    pub fn schedule(&mut self, time: SimTime, event: Event) {
        let key = self.key(time, event);
        self.heap.push(key);
    }

    /// The lane of exact timers `tag` (a timer kind) of `delay`, owned by up to `owners`
    /// components (flows), created at its first use.
    pub fn lane(&mut self, tag: u32, delay: SimDuration, owners: usize) -> LaneId {
        match self.lanes.iter().position(|l| l.tag == tag && l.delay_ps == delay.0) {
            Some(i) => LaneId(i as u32),
            None => {
                self.lanes.push(TimerLane::new(delay.0, tag, owners));
                LaneId(self.lanes.len() as u32 - 1)
            }
        }
    }

    /// Sets `owner`'s exact timer in `lane` to run `event` one lane delay after `now`,
    /// replacing the one it had there.
    #[inline]
    pub fn set_exact(&mut self, lane: LaneId, owner: u32, now: SimTime, event: Event) {
        let key = self.key(now + SimDuration(self.lanes[lane.0 as usize].delay_ps), event);
        let l = &mut self.lanes[lane.0 as usize];
        l.push(owner, key);
        if !l.head_queued {
            l.head_queued = true;
            self.heap.push(lane_head_key(key, lane));
        }
    }

    /// Cancels `owner`'s exact timer `tag`, if it has one set (in whichever lane of that tag).
    #[inline]
    pub fn cancel_exact(&mut self, tag: u32, owner: u32) {
        for l in self.lanes.iter_mut().filter(|l| l.tag == tag) {
            l.cancel(owner);
        }
    }

    /// Removes and returns the earliest event (ties: the first scheduled).
    #[inline]
    pub fn pop(&mut self) -> Option<(SimTime, Event)> {
        loop {
            let key = self.heap.pop()?;
            if kind_code(key as u64) != LANE_HEAD_KIND {
                return Some(unpack_key(key));
            }
            // A lane's head came due: run its timer if it is still set, else queue the
            // lane's next live timer (a later key) and go on.
            let lane = LaneId((key as u64 & MAX_EVENT_ID as u64) as u32);
            let l = &mut self.lanes[lane.0 as usize];
            l.head_queued = false;
            let Some(front) = l.front() else { continue };
            let due = front >> EVENT_BITS == key >> EVENT_BITS;
            if due {
                l.pop_front();
            }
            if let Some(next) = l.front() {
                l.head_queued = true;
                self.heap.push(lane_head_key(next, lane));
            }
            if due {
                return Some(unpack_key(front));
            }
        }
    }

    /// Number of events scheduled so far (the total, not the pending count).
    pub fn scheduled_total(&self) -> u64 {
        self.next_seq
    }

    /// Number of pending events (exact timers still set included).
    pub fn len(&self) -> usize {
        let heads = self.lanes.iter().filter(|l| l.head_queued).count();
        self.heap.len() - heads + self.lanes.iter().map(|l| l.live()).sum::<usize>()
    }

    /// Whether no event is pending.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_timers_run_in_order_with_other_events_unless_cancelled() {
        exact_timers_in(EventQueue::new());
    }

    fn exact_timers_in(mut q: EventQueue) {
        use rand::{Rng, SeedableRng};
        use std::collections::BTreeMap;
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(5);
        let delays = [SimDuration(1_000), SimDuration(40_000)];
        let lanes: Vec<LaneId> = delays.iter().map(|&d| q.lane(7, d, 16)).collect();
        // The reference: every pending event by (time, sequence); each owner's live timer
        // per lane by its key, so that a cancel or a new timer removes it.
        let mut reference: BTreeMap<(u64, u64), Event> = BTreeMap::new();
        let mut live: BTreeMap<(usize, u32), (u64, u64)> = BTreeMap::new();
        let mut now = 0u64;
        for _ in 0..200_000 {
            let seq = q.scheduled_total();
            match rng.gen_range(0..10) {
                0..=2 => {
                    let t = now + rng.gen_range(0..50_000);
                    q.schedule(SimTime(t), Event::Sample);
                    reference.insert((t, seq), Event::Sample);
                }
                3..=5 => {
                    let (lane, owner) = (rng.gen_range(0..2), rng.gen_range(0..16u32));
                    let ev = Event::Timer(FlowId(owner), TimerKind::DelayedAck);
                    if let Some(old) = live.remove(&(lane, owner)) {
                        reference.remove(&old);
                    }
                    q.set_exact(lanes[lane], owner, SimTime(now), ev);
                    let key = (now + delays[lane].0, seq);
                    reference.insert(key, ev);
                    live.insert((lane, owner), key);
                }
                6 => {
                    // Cancels the owner's timer in every lane of the tag.
                    let owner = rng.gen_range(0..16u32);
                    q.cancel_exact(7, owner);
                    for lane in 0..2 {
                        if let Some(old) = live.remove(&(lane, owner)) {
                            reference.remove(&old);
                        }
                    }
                }
                _ => {
                    let want = reference.pop_first();
                    let got = q.pop();
                    assert_eq!(got, want.map(|((t, _), ev)| (SimTime(t), ev)));
                    if let Some(((t, s), _)) = want {
                        now = t;
                        live.retain(|_, k| *k != (t, s));
                    }
                }
            }
            assert_eq!(q.len(), reference.len());
        }
    }

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
