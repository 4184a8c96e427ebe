//! A unidirectional link, htsim-style: an egress queue feeding a serializer at `rate`,
//! followed by a "dumb" propagation pipe of constant `delay`.
//!
//! Events: a packet that finds the link idle starts serializing at once (no event); a queued
//! one waits for a `LinkTxDone` at the link's busy-until time. A packet in the pipe reaches
//! the far end with a `LinkArrival`; the pipe is FIFO (constant delay), so at most one
//! arrival event per link is pending. The queue limit counts waiting packets only, not the
//! one being serialized (as ns-3's queue discs do). Every arrival passes through an active
//! queue (RED must see it to update its average); only DropTail lets a packet that finds the
//! link idle and the queue empty go straight to the wire, which changes nothing there.

use super::loss::{LinkLoss, LossModel};
use super::packet::Packet;
use super::queue::{DropCause, Queue, QueueConfig, QueueDiscipline, QueueLog};
use crate::event::{Event, EventQueue};
use crate::ids::{LinkId, NodeId};
use crate::monitor::histogram::DelayHistogram;
use crate::rng::{derive_stream, RngStream, StreamKind};
use crate::units::{Rate, SimDuration, SimTime};
use rand::Rng;
use std::collections::VecDeque;

/// Packets a propagation pipe has room for before it grows (it rewinds when empty).
pub const PIPE_INITIAL_CAPACITY: usize = 4;

/// Counters of one link over the measurement window.
pub struct LinkStats {
    /// Packets that started transmission, over the run.
    pub tx_pkts: u64,
    /// Wire bytes that started transmission, over the run.
    pub tx_bytes: u64,
    /// Drops by cause and ECN marks, over the run.
    pub log: QueueLog,
    /// `tx_pkts`, `tx_bytes` and `log` when the measurement window started.
    at_window_start: (u64, u64, QueueLog),
    /// Largest queue seen, packets.
    pub max_queue_pkts: u64,
    /// Queuing delay (enqueue to start of transmission) of every transmitted packet.
    pub queuing_delay: DelayHistogram,
    /// ∫ queue length dt, packet·picoseconds.
    queue_integral: u128,
    /// Start of the measurement window.
    window_start: SimTime,
    /// Busy time before the window started, picoseconds.
    busy_base_ps: u64,
}

/// One link.
pub struct Link {
    /// Its id.
    pub id: LinkId,
    /// Upstream node.
    pub from: NodeId,
    /// Downstream node.
    pub to: NodeId,
    /// Transmission rate.
    pub rate: Rate,
    /// Propagation delay.
    pub delay: SimDuration,
    /// Egress queue.
    pub queue: Queue,
    pipe: VecDeque<(SimTime, Packet)>,
    busy_until: SimTime,
    busy_total_ps: u64,
    tx_event_pending: bool,
    last_queue_change: SimTime,
    loss: LinkLoss,
    loss_rng: RngStream,
    aqm_rng: RngStream,
    /// Measurement counters.
    pub stats: LinkStats,
}

impl LinkStats {
    /// Packets that started transmission in the measurement window.
    pub fn window_tx_pkts(&self) -> u64 {
        self.tx_pkts - self.at_window_start.0
    }
    /// Wire bytes that started transmission in the measurement window.
    pub fn window_tx_bytes(&self) -> u64 {
        self.tx_bytes - self.at_window_start.1
    }
    /// Drops by cause and ECN marks in the measurement window.
    pub fn window_log(&self) -> QueueLog {
        self.log.since(&self.at_window_start.2)
    }
}

impl Link {
    /// A new idle link; its random streams derive from `seed` and its id.
    #[allow(clippy::too_many_arguments)]
    pub fn new(id: LinkId, from: NodeId, to: NodeId, rate: Rate, delay: SimDuration, queue: &QueueConfig, loss: &LossModel, seed: u64) -> Self {
        let mut aqm_rng = derive_stream(seed, StreamKind::Aqm, id.0 as u64);
        let salt = aqm_rng.gen::<u64>();
        Link {
            id,
            from,
            to,
            rate,
            delay,
            queue: Queue::new(queue, rate, salt),
            loss: LinkLoss::new(loss),
            loss_rng: derive_stream(seed, StreamKind::LinkLoss, id.0 as u64),
            aqm_rng,
            pipe: VecDeque::with_capacity(PIPE_INITIAL_CAPACITY),
            busy_until: SimTime::ZERO,
            busy_total_ps: 0,
            tx_event_pending: false,
            last_queue_change: SimTime::ZERO,
            stats: LinkStats {
                tx_pkts: 0,
                tx_bytes: 0,
                log: QueueLog::default(),
                at_window_start: (0, 0, QueueLog::default()),
                max_queue_pkts: 0,
                queuing_delay: DelayHistogram::new(),
                queue_integral: 0,
                window_start: SimTime::ZERO,
                busy_base_ps: 0,
            },
        }
    }

    #[inline]
    fn account_queue(&mut self, now: SimTime) {
        let dt = now.0 - self.last_queue_change.0;
        self.stats.queue_integral += self.queue.len_pkts() as u128 * dt as u128;
        self.last_queue_change = now;
    }

    /// Offers `p` to the link at `now`; the queue may drop it (recorded in the stats).
    #[inline]
    pub fn enqueue(&mut self, mut p: Packet, now: SimTime, events: &mut EventQueue) {
        p.enqueued_at = now;
        let idle = self.busy_until <= now && !self.tx_event_pending;
        if idle && self.queue.len_pkts() == 0 && self.queue.is_passive() {
            self.start_tx(p, now, events);
            return;
        }
        self.account_queue(now);
        self.queue.enqueue(p, now, &mut self.aqm_rng, &mut self.stats.log);
        let len = self.queue.len_pkts();
        if len > self.stats.max_queue_pkts {
            self.stats.max_queue_pkts = len;
        }
        if idle {
            self.on_tx_done(now, events);
        } else if !self.tx_event_pending && len > 0 {
            self.tx_event_pending = true;
            events.schedule(self.busy_until, Event::LinkTxDone(self.id));
        }
    }

    /// The serializer is free: start the next queued packet, if any.
    #[inline]
    pub fn on_tx_done(&mut self, now: SimTime, events: &mut EventQueue) {
        self.tx_event_pending = false;
        self.account_queue(now);
        let next = self.queue.dequeue(now, &mut self.stats.log);
        if let Some(p) = next {
            self.start_tx(p, now, events);
            if self.queue.len_pkts() > 0 {
                self.tx_event_pending = true;
                events.schedule(self.busy_until, Event::LinkTxDone(self.id));
            }
        }
    }

    #[inline]
    fn start_tx(&mut self, p: Packet, now: SimTime, events: &mut EventQueue) {
        self.stats.queuing_delay.record(now.saturating_since(p.enqueued_at));
        let tx = self.rate.serialization_time(p.size);
        self.busy_until = now + tx;
        self.busy_total_ps += tx.0;
        self.stats.tx_pkts += 1;
        self.stats.tx_bytes += p.size.0;
        if self.loss.is_lost(&p, &mut self.loss_rng) {
            self.stats.log.drop(DropCause::LinkError);
            return;
        }
        let arrival = self.busy_until + self.delay;
        self.pipe.push_back((arrival, p));
        if self.pipe.len() == 1 {
            events.schedule(arrival, Event::LinkArrival(self.id));
        }
    }

    /// The packet at the head of the pipe reaches the far end at `now`.
    #[inline]
    pub fn on_arrival(&mut self, events: &mut EventQueue) -> Packet {
        let (_, p) = self.pipe.pop_front().expect("an arrival event has a packet in the pipe");
        match self.pipe.front() {
            Some(&(next, _)) => events.schedule(next, Event::LinkArrival(self.id)),
            None => self.pipe.clear(), // rewinds the ring to its start
        }
        p
    }

    /// Time the serializer has been busy up to `t` since the start of the run, picoseconds.
    pub fn busy_ps_until(&self, t: SimTime) -> u64 {
        self.busy_total_ps - self.busy_until.0.saturating_sub(t.0).min(self.busy_total_ps)
    }

    /// Packets held by the link (waiting or on the wire).
    pub fn packets_held(&self) -> u64 {
        self.queue.len_pkts() + self.pipe.len() as u64
    }

    /// Starts the measurement window at `now`, forgetting everything before.
    pub fn start_window(&mut self, now: SimTime) {
        self.account_queue(now);
        let busy = self.busy_ps_until(now);
        let s = &mut self.stats;
        s.at_window_start = (s.tx_pkts, s.tx_bytes, s.log);
        s.max_queue_pkts = self.queue.len_pkts();
        s.queuing_delay.clear();
        s.queue_integral = 0;
        s.window_start = now;
        s.busy_base_ps = busy;
    }

    /// Fraction of the window `[window start, now]` the serializer was busy.
    pub fn utilization(&self, now: SimTime) -> f64 {
        let span = now.0.saturating_sub(self.stats.window_start.0);
        if span == 0 {
            return f64::NAN;
        }
        (self.busy_ps_until(now) - self.stats.busy_base_ps) as f64 / span as f64
    }

    /// Time-averaged queue length over the window, packets.
    pub fn mean_queue_pkts(&mut self, now: SimTime) -> f64 {
        self.account_queue(now);
        let span = now.0.saturating_sub(self.stats.window_start.0);
        if span == 0 {
            return f64::NAN;
        }
        self.stats.queue_integral as f64 / span as f64
    }
}
