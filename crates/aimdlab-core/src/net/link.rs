//! A unidirectional link, htsim-style: an egress queue feeding a serializer at `rate`,
//! followed by a "dumb" propagation pipe of constant `delay`.
//!
//! Events: a packet that finds the link idle starts serializing at once (no event). A packet
//! in the pipe reaches the far end with a `LinkArrival`; the pipe is FIFO (constant delay), so
//! at most one arrival event per link is pending. The queue limit counts waiting packets only,
//! not the one being serialized (as ns-3's queue discs do).
//!
//! **Departures without events.** Behind a passive queue (DropTail) the departure times are
//! fixed once a packet is queued: the head leaves when the serializer frees, at `busy_until`.
//! Such a link schedules no event for them; it *catches up* — runs every departure owed up to
//! the present, each at its own instant, exactly as a transmission-done event would have —
//! whenever it is touched: a packet offered, the head of its pipe arriving, a sample, the end
//! of the warm-up, the end of the run. The pipe's arrival events keep it touched: the packet
//! being serialized reaches the far end at `busy_until + delay`, no earlier than the next
//! departure, so a departure is never caught up after its packet should have arrived. Only
//! when that packet was lost on the wire (a lossy link) does the link ask for a
//! `LinkTxDone` at `busy_until` to wake it. At one instant, departures come after a packet
//! offered there, a sample and the end of the warm-up: they all see the queue as it was. (With
//! departure events this was the usual order too — the event that offers a packet was
//! scheduled a link delay earlier, the departure one serialization time earlier — and
//! ACK-clocked flows on links of equal rates meet such ties exactly.) An active queue (RED,
//! CoDel, PIE, FQ-CoDel) decides at dequeue time, so every arrival passes through it and
//! departures are `LinkTxDone` events.
//!
//! A link may have a device queue between its queue discipline and the serializer
//! (`link_layer.rs`, ns-3's one-packet `TxQueue`); the queue length it reports is the
//! discipline's.

use super::link_layer::{DeviceQueue, LinkLayer};
use super::loss::{LinkLoss, LossModel};
use super::packet::Packet;
use super::packet_pool::{PacketPool, PacketSlot};
use super::queue::{DropCause, Queue, QueueConfig, QueueDiscipline};
use crate::event::{Event, EventQueue};
use crate::ids::{LinkId, NodeId};
use crate::net::link_stats::LinkStats;
use crate::rng::{derive_stream, RngStream, StreamKind};
use crate::units::{Bytes, Rate, SimDuration, SimTime};
use rand::Rng;
use std::collections::VecDeque;

/// What a catch-up does with a departure due exactly at the present instant.
#[derive(Clone, Copy, PartialEq, Eq)]
enum DueNow {
    /// It runs now.
    Runs,
    /// It is still to come.
    Waits,
}

/// Bytes at the start of a `Link` that a packet finding the link idle reads and writes (its
/// first two cache lines): what the event loop prefetches of a link a packet will reach.
pub const LINK_HOT_BYTES: usize = 128;

/// One link. Laid out in declaration order on cache lines of its own (`align(64)`), since with
/// thousands of flows an access link is rarely in cache: a packet that finds the link idle
/// reads and writes two lines — line 0 (serializer, pipe, flags, and whether anything waits)
/// and line 1 (framing, id and the counters of `stats` a transmission updates) — and nothing
/// below: the queue only when packets wait, the rest only when `extras` says the link has a
/// loss model, a capture or a device queue.
#[repr(C, align(64))]
pub struct Link {
    busy_until: SimTime,
    /// Transmission rate.
    pub rate: Rate,
    /// Propagation delay.
    pub delay: SimDuration,
    /// Packets on the wire, oldest first: when each reaches the far end, and its slot in the
    /// network's packet pool.
    pipe: VecDeque<(SimTime, PacketSlot)>,
    /// Downstream node.
    pub to: NodeId,
    tx_event_pending: bool,
    /// Whether the queue is passive (DropTail): departures then run without events.
    passive: bool,
    /// Whether a transmission must consult `loss`, `capture` or `device` (each off by
    /// default), so a plain link never reads their cache lines.
    extras: bool,
    /// Whether no packet waits for the serializer (`waiting_pkts() == 0`), kept on line 0 so
    /// an idle link never reads the queue's line; updated wherever the queue changes.
    none_waiting: bool,
    /// Link-layer bytes added to every packet's serialization (line 1).
    pub framing_bytes: u64,
    /// Its id.
    pub id: LinkId,
    /// Upstream node.
    pub from: NodeId,
    /// What the link did (its monitor, fed by the hooks below); its per-transmission counters
    /// come first, on line 1.
    pub stats: LinkStats,
    /// Egress queue (read and written only when packets wait).
    pub queue: Queue,
    loss: LinkLoss,
    loss_rng: RngStream,
    aqm_rng: RngStream,
    /// The packets that started transmission in the measurement window, when this link is
    /// traced (`pcap`; set by `start_capture`).
    capture: Option<crate::net::pcap::Capture>,
    /// The device queue between the queue discipline and the serializer, if any.
    device: Option<Box<DeviceQueue>>,
}

impl Link {
    /// A new idle link; its random streams derive from `seed` and its id.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        id: LinkId,
        from: NodeId,
        to: NodeId,
        rate: Rate,
        delay: SimDuration,
        layer: LinkLayer,
        queue: &QueueConfig,
        loss: &LossModel,
        seed: u64,
    ) -> Self {
        let mut aqm_rng = derive_stream(seed, StreamKind::Aqm, id.0 as u64);
        let salt = aqm_rng.gen::<u64>();
        let queue = Queue::new(queue, rate, salt);
        Link {
            id,
            from,
            to,
            rate,
            delay,
            framing_bytes: layer.framing.0,
            passive: queue.is_passive(),
            queue,
            loss: LinkLoss::new(loss),
            loss_rng: derive_stream(seed, StreamKind::LinkLoss, id.0 as u64),
            aqm_rng,
            pipe: VecDeque::new(),
            busy_until: SimTime::ZERO,
            tx_event_pending: false,
            none_waiting: true,
            stats: LinkStats::default(),
            capture: None,
            extras: layer.device_queue_pkts > 0 || !matches!(loss, LossModel::None),
            device: (layer.device_queue_pkts > 0).then(|| Box::new(DeviceQueue::new(layer.device_queue_pkts))),
        }
    }

    /// Starts tracing the packets that start transmission (`pcap`).
    pub fn start_capture(&mut self) {
        self.capture = Some(Vec::new());
        self.extras = true;
    }

    /// The packets traced since the measurement window started, if the link is traced.
    pub fn capture(&self) -> Option<&crate::net::pcap::Capture> {
        self.capture.as_ref()
    }

    /// Packets waiting for the serializer: in the queue discipline and in the device queue.
    #[inline]
    fn waiting_pkts(&self) -> u64 {
        let in_device = if self.extras { self.device.as_ref().map_or(0, |d| d.len_pkts()) } else { 0 };
        self.queue.len_pkts() + in_device
    }

    /// The next packet for the serializer at `now`: the device queue's head (refilled from
    /// the discipline), or without one the discipline's.
    #[inline]
    fn next_packet(&mut self, now: SimTime) -> Option<Packet> {
        let p = match self.device.as_deref_mut() {
            None => self.queue.dequeue(now, &mut self.stats.log),
            Some(d) => d.take(&mut self.queue, now, &mut self.stats.log),
        };
        self.none_waiting = self.waiting_pkts() == 0;
        p
    }

    #[inline]
    fn account_queue(&mut self, now: SimTime) {
        self.stats.on_queue_length(self.queue.len_pkts(), now);
    }

    /// Offers `p` to the link at `now`; the queue may drop it (recorded in the stats).
    #[inline(always)]
    pub fn enqueue(&mut self, mut p: Packet, now: SimTime, events: &mut EventQueue, pool: &mut PacketPool) {
        p.enqueued_at = now;
        let passive = self.passive;
        if passive {
            self.catch_up(now, DueNow::Waits, events, pool);
        }
        let idle = self.busy_until <= now && !self.tx_event_pending;
        if idle && passive && self.none_waiting {
            self.start_tx(p, now, events, pool);
            return;
        }
        self.enqueue_to_wait(p, now, idle, events, pool);
    }

    /// `enqueue` of a packet that cannot start at once: into the queue discipline (`idle`:
    /// whether the serializer is free).
    #[inline(never)]
    fn enqueue_to_wait(&mut self, p: Packet, now: SimTime, idle: bool, events: &mut EventQueue, pool: &mut PacketPool) {
        let passive = self.passive;
        self.account_queue(now);
        self.queue.enqueue(p, now, &mut self.aqm_rng, &mut self.stats.log);
        self.stats.on_queued(self.queue.len_pkts());
        if let Some(d) = self.device.as_deref_mut() {
            d.refill(&mut self.queue, now, &mut self.stats.log);
        }
        let len = self.waiting_pkts();
        self.none_waiting = len == 0;
        if passive {
            self.ensure_woken(events);
        } else if idle {
            self.on_tx_done(now, events, pool);
        } else if !self.tx_event_pending && len > 0 {
            self.tx_event_pending = true;
            events.schedule(self.busy_until, Event::LinkTxDone(self.id));
        }
    }

    /// The serializer is free (a `LinkTxDone` event): start the next queued packet, if any.
    #[inline]
    pub fn on_tx_done(&mut self, now: SimTime, events: &mut EventQueue, pool: &mut PacketPool) {
        self.tx_event_pending = false;
        if self.passive {
            self.catch_up(now, DueNow::Runs, events, pool);
            self.ensure_woken(events);
            return;
        }
        self.account_queue(now);
        let next = self.next_packet(now);
        if let Some(p) = next {
            self.start_tx(p, now, events, pool);
            if !self.none_waiting {
                self.tx_event_pending = true;
                events.schedule(self.busy_until, Event::LinkTxDone(self.id));
            }
        }
    }

    /// Runs the departures a passive queue owes up to `now` (see the module doc), each at
    /// its own instant; `due_now` says whether a departure due exactly at `now` runs too.
    #[inline]
    fn catch_up(&mut self, now: SimTime, due_now: DueNow, events: &mut EventQueue, pool: &mut PacketPool) {
        // Most calls owe nothing (the serializer is still busy, or nothing waits): decide that
        // inline, with the cheap test first.
        if self.departure_due(now, due_now) && !self.none_waiting {
            self.run_departures(now, due_now, events, pool);
        }
    }

    /// Whether the serializer frees before `now` (or at `now`, when `due_now` runs).
    #[inline]
    fn departure_due(&self, now: SimTime, due_now: DueNow) -> bool {
        self.busy_until < now || (due_now == DueNow::Runs && self.busy_until == now)
    }

    /// `catch_up`'s loop.
    #[inline(never)]
    fn run_departures(&mut self, now: SimTime, due_now: DueNow, events: &mut EventQueue, pool: &mut PacketPool) {
        while self.departure_due(now, due_now) && !self.none_waiting {
            let at = self.busy_until;
            self.account_queue(at);
            let p = self.next_packet(at).expect("a non-empty passive queue yields its head");
            self.start_tx(p, at, events, pool);
        }
    }

    /// Behind a passive queue: if packets wait and no packet on the wire will touch the link
    /// when the serializer frees (the one being serialized was lost), asks for a `LinkTxDone`.
    #[inline(always)]
    fn ensure_woken(&mut self, events: &mut EventQueue) {
        if !self.tx_event_pending && !self.none_waiting {
            self.wake_if_unwatched(events);
        }
    }

    /// `ensure_woken` once packets wait and no wake-up is pending.
    #[inline(never)]
    fn wake_if_unwatched(&mut self, events: &mut EventQueue) {
        if self.pipe.back().is_none_or(|&(arrival, _)| arrival < self.busy_until) {
            self.tx_event_pending = true;
            events.schedule(self.busy_until, Event::LinkTxDone(self.id));
        }
    }

    /// Brings a passive queue's departures up to `now` before its state is read; departures
    /// due exactly at `now` are left for later (a sample or the end of the warm-up at `now`
    /// sees the queue before them).
    pub fn settle(&mut self, now: SimTime, events: &mut EventQueue, pool: &mut PacketPool) {
        if self.passive {
            self.catch_up(now, DueNow::Waits, events, pool);
            self.ensure_woken(events);
        }
    }

    /// Runs every departure due up to and including `end`, the end of the run (the events
    /// at `end` run too). The arrivals it schedules fall after the end and never run: they go
    /// to `after_end`, a queue that is thrown away.
    pub fn finish(&mut self, end: SimTime, after_end: &mut EventQueue, pool: &mut PacketPool) {
        if self.passive {
            self.catch_up(end, DueNow::Runs, after_end, pool);
        }
    }

    #[inline(always)]
    fn start_tx(&mut self, p: Packet, now: SimTime, events: &mut EventQueue, pool: &mut PacketPool) {
        let tx = self.rate.serialization_time(Bytes(p.size.0 + self.framing_bytes));
        if !self.extras {
            self.busy_until = now + tx;
            self.stats.on_transmit(p.size.0, p.enqueued_at, now, tx);
        } else if !self.start_tx_extras(&p, now, tx) {
            return;
        }
        let arrival = self.busy_until + self.delay;
        self.pipe.push_back((arrival, pool.put(p)));
        if self.pipe.len() == 1 {
            events.schedule(arrival, Event::LinkArrival(self.id));
        }
    }

    /// `start_tx` on a link with `extras`: the loss model's attempts (a serializer busy
    /// `tx` per attempt), the capture; false when the packet is lost on the wire.
    #[inline(never)]
    fn start_tx_extras(&mut self, p: &Packet, now: SimTime, tx: SimDuration) -> bool {
        let sent = self.loss.transmit(p, &mut self.loss_rng);
        let tx = if sent.attempts > 1 { SimDuration(tx.0 * sent.attempts as u64) } else { tx };
        self.busy_until = now + tx;
        self.stats.on_transmit(p.size.0, p.enqueued_at, now, tx);
        if let Some(c) = self.capture.as_mut() {
            c.push((now, *p));
        }
        if sent.lost {
            self.stats.log.drop(DropCause::LinkError);
        }
        !sent.lost
    }

    /// The packet at the head of the pipe reaches the far end at `now`.
    #[inline]
    pub fn on_arrival(&mut self, now: SimTime, events: &mut EventQueue, pool: &mut PacketPool) -> Packet {
        let passive = self.passive;
        if passive {
            self.catch_up(now, DueNow::Runs, events, pool);
        }
        let (_, slot) = self.pipe.pop_front().expect("an arrival event has a packet in the pipe");
        let p = pool.take(slot);
        match self.pipe.front() {
            Some(&(next, _)) => events.schedule(next, Event::LinkArrival(self.id)),
            None => self.pipe.clear(), // rewinds the ring to its start
        }
        if passive {
            self.ensure_woken(events);
        }
        p
    }

    /// The pool slot of the `k`-th packet on the wire (0: the next to arrive), if that many
    /// are.
    #[inline]
    pub fn pipe_slot(&self, k: usize) -> Option<PacketSlot> {
        self.pipe.get(k).map(|&(_, slot)| slot)
    }

    /// Hints that the pipe entry of the `k`-th packet on the wire will be read soon (no load:
    /// only its address is computed).
    #[inline]
    pub fn prefetch_pipe_entry(&self, k: usize) {
        if let Some(entry) = self.pipe.get(k) {
            crate::prefetch::prefetch(entry, 16);
        }
    }

    /// Hints that the pipe entry the next transmission will write will be needed soon: the
    /// one after the last packet on the wire, or the ring's start when the wire is empty (an
    /// empty ring rewinds). Reads only line 0 of the link.
    #[inline]
    pub fn prefetch_pipe_tail(&self) {
        let (front, back) = self.pipe.as_slices();
        let tail = if back.is_empty() { front.as_ptr_range().end } else { back.as_ptr_range().end };
        crate::prefetch::prefetch_bytes(tail, 16);
    }

    /// Packets on the wire.
    #[inline]
    pub fn pipe_len(&self) -> usize {
        self.pipe.len()
    }

    /// Time the serializer has been busy up to `t` since the start of the run, picoseconds
    /// (after `settle(t)` or `finish`).
    pub fn busy_ps_until(&self, t: SimTime) -> u64 {
        self.stats.busy_ps_until(t, self.busy_until)
    }

    /// Packets held by the link (waiting or on the wire; after `settle` or `finish`).
    pub fn packets_held(&self) -> u64 {
        self.waiting_pkts() + self.pipe.len() as u64
    }

    /// Calls `f` with each packet the link holds: waiting in its discipline or its device
    /// queue, or on the wire (`pool` keeps those).
    pub fn for_each_held(&self, pool: &PacketPool, f: &mut dyn FnMut(&Packet)) {
        self.queue.for_each_packet(f);
        if let Some(d) = self.device.as_ref() {
            d.iter().for_each(&mut *f);
        }
        self.pipe.iter().for_each(|&(_, slot)| f(pool.peek(slot)));
    }

    /// Starts the measurement window at `now`, forgetting everything before.
    pub fn start_window(&mut self, now: SimTime, events: &mut EventQueue, pool: &mut PacketPool) {
        self.settle(now, events, pool);
        self.stats.start_window(now, self.queue.len_pkts(), self.busy_until);
        if let Some(c) = self.capture.as_mut() {
            c.clear();
        }
    }

    /// Fraction of the window `[window start, now]` the serializer was busy (after `finish`).
    pub fn utilization(&self, now: SimTime) -> f64 {
        self.stats.utilization(now, self.busy_until)
    }

    /// Time-averaged queue length (the discipline's) over the window, packets (after `finish`).
    pub fn mean_queue_pkts(&mut self, now: SimTime) -> f64 {
        self.stats.mean_queue_pkts(now, self.queue.len_pkts())
    }
}

#[cfg(test)]
mod tests;
