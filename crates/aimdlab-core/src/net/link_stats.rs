//! The link monitor: what a link did, fed by the link's observation hooks (a packet queued,
//! the queue's length changing, a transmission starting) and by the queue disciplines'
//! drop and mark log. Counts are run totals; a measurement window is the difference from a
//! snapshot taken when it starts (`start_window`).

use crate::delay_histogram::DelayHistogram;
use crate::net::queue::QueueLog;
use crate::units::{SimDuration, SimTime};

/// Measurements of one link. Laid out in declaration order, what every packet updates first.
#[repr(C)]
pub struct LinkStats {
    /// Packets that started transmission, over the run.
    pub tx_pkts: u64,
    /// Wire bytes that started transmission, over the run.
    pub tx_bytes: u64,
    /// Serialization time of every packet started, picoseconds, over the run.
    busy_total_ps: u64,
    /// Queuing delay (enqueue to start of transmission) of every transmitted packet (its
    /// count and zero count next, on the counters' cache line).
    pub queuing_delay: DelayHistogram,
    /// Queuing delay of every transmitted packet, summed, picoseconds, over the run.
    queuing_delay_total_ps: u128,
    /// Largest queue seen in the window, packets.
    pub max_queue_pkts: u64,
    /// When the queue length last changed (or was last accounted).
    last_queue_change: SimTime,
    /// ∫ queue length dt over the window, packet·picoseconds.
    queue_integral: u128,
    /// Drops by cause and ECN marks, over the run (the queue disciplines write it).
    pub log: QueueLog,
    /// `tx_pkts`, `tx_bytes` and `log` when the measurement window started.
    at_window_start: (u64, u64, QueueLog),
    /// Start of the measurement window.
    window_start: SimTime,
    /// Busy time before the window started, picoseconds.
    busy_base_ps: u64,
}

impl Default for LinkStats {
    fn default() -> Self {
        LinkStats {
            tx_pkts: 0,
            tx_bytes: 0,
            busy_total_ps: 0,
            queuing_delay_total_ps: 0,
            queuing_delay: DelayHistogram::new(),
            max_queue_pkts: 0,
            last_queue_change: SimTime::ZERO,
            queue_integral: 0,
            log: QueueLog::default(),
            at_window_start: (0, 0, QueueLog::default()),
            window_start: SimTime::ZERO,
            busy_base_ps: 0,
        }
    }
}

impl LinkStats {
    /// Hook: the queue held `len_pkts` from its last change until `now` (call before it
    /// changes, and before reading the integral).
    #[inline]
    pub fn on_queue_length(&mut self, len_pkts: u64, now: SimTime) {
        let dt = now.0 - self.last_queue_change.0;
        self.queue_integral += len_pkts as u128 * dt as u128;
        self.last_queue_change = now;
    }

    /// Hook: a packet was queued; the queue now holds `len_pkts`.
    #[inline]
    pub fn on_queued(&mut self, len_pkts: u64) {
        if len_pkts > self.max_queue_pkts {
            self.max_queue_pkts = len_pkts;
        }
    }

    /// Hook: a packet of `size_bytes`, queued at `enqueued_at`, starts a transmission of
    /// `tx` at `now`.
    #[inline]
    pub fn on_transmit(&mut self, size_bytes: u64, enqueued_at: SimTime, now: SimTime, tx: SimDuration) {
        let waited = now.saturating_since(enqueued_at);
        self.queuing_delay.record(waited);
        if waited > SimDuration::ZERO {
            self.queuing_delay_total_ps += waited.0 as u128;
        }
        self.busy_total_ps += tx.0;
        self.tx_pkts += 1;
        self.tx_bytes += size_bytes;
    }

    /// Queuing delay of every packet that started transmission, summed over the run,
    /// picoseconds.
    pub fn queuing_delay_total_ps(&self) -> u128 {
        self.queuing_delay_total_ps
    }

    /// Time the serializer has been busy from the start of the run up to `t`, picoseconds,
    /// when the transmission in progress ends at `busy_until`.
    pub fn busy_ps_until(&self, t: SimTime, busy_until: SimTime) -> u64 {
        self.busy_total_ps - busy_until.0.saturating_sub(t.0).min(self.busy_total_ps)
    }

    /// Starts the measurement window at `now`, with `len_pkts` queued and the transmission
    /// in progress ending at `busy_until`.
    pub fn start_window(&mut self, now: SimTime, len_pkts: u64, busy_until: SimTime) {
        self.on_queue_length(len_pkts, now);
        self.busy_base_ps = self.busy_ps_until(now, busy_until);
        self.at_window_start = (self.tx_pkts, self.tx_bytes, self.log);
        self.max_queue_pkts = len_pkts;
        self.queuing_delay.clear();
        self.queue_integral = 0;
        self.window_start = now;
    }

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

    /// Fraction of the window `[window start, now]` the serializer was busy.
    pub fn utilization(&self, now: SimTime, busy_until: SimTime) -> f64 {
        let span = now.0.saturating_sub(self.window_start.0);
        if span == 0 {
            return f64::NAN;
        }
        (self.busy_ps_until(now, busy_until) - self.busy_base_ps) as f64 / span as f64
    }

    /// Time-averaged queue length over the window, packets, with `len_pkts` queued now.
    pub fn mean_queue_pkts(&mut self, now: SimTime, len_pkts: u64) -> f64 {
        self.on_queue_length(len_pkts, now);
        let span = now.0.saturating_sub(self.window_start.0);
        if span == 0 {
            return f64::NAN;
        }
        self.queue_integral as f64 / span as f64
    }
}
