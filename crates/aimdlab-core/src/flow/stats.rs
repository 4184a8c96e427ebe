//! Receiver-side measurements of one flow: goodput, throughput, one-way delay and jitter.

use crate::delay_histogram::DelayHistogram;
use crate::units::{SimDuration, SimTime};

/// What the receiver of one flow saw: counters over the whole run (a measurement window is
/// their difference from the snapshot taken when it started), distributions over the window.
#[derive(Default)]
pub struct FlowStats {
    /// Payload bytes of original data received over the run: each segment counted once, at
    /// its first arrival (goodput; no headers, no duplicate copies).
    pub delivered_bytes: u64,
    /// Wire bytes of every data packet that arrived over the run (throughput: headers and
    /// retransmissions included).
    pub received_bytes: u64,
    /// Data packets that arrived over the run.
    pub received_pkts: u64,
    /// The three counters when the measurement window started.
    at_window_start: (u64, u64, u64),
    /// When the measurement window starts (the end of the warm-up), fixed for the run: a
    /// packet sent at or after it is the window's, whenever it arrives.
    pub window_from: SimTime,
    /// Data packets of the window (sent at or after `window_from`) that arrived, each at
    /// most once (a link never copies a packet).
    pub received_sent_in_window: u64,
    /// Of those, the ones still on a link at the end of the run (`held_at_end`). (A packet
    /// the host still holds for its send jitter has not been sent into the network.)
    pub held_sent_in_window: u64,
    /// One-way delay (sent → arrival) of every data packet arriving in the window.
    pub one_way_delay: DelayHistogram,
    /// Σ |D(i) − D(i−1)| over consecutive arrivals (RFC 3393 IPDV), picoseconds.
    ipdv_sum_ps: u128,
    ipdv_count: u64,
    /// RFC 3550 §6.4.1 interarrival jitter J, picoseconds: J += (|D| − J)/16 at each arrival.
    rfc3550_jitter_ps: f64,
    last_delay: Option<SimDuration>,
    /// When the last byte of a finite transfer was delivered (absolute time).
    pub completed_at: Option<SimTime>,
}

impl FlowStats {
    /// A data packet of `wire_bytes`, carrying `new_payload` bytes not received before,
    /// sent at `sent_at`, arrived at `now`.
    #[inline]
    pub fn on_arrival(&mut self, wire_bytes: u64, new_payload: u64, sent_at: SimTime, now: SimTime) {
        let d = now.saturating_since(sent_at);
        self.delivered_bytes += new_payload;
        self.received_bytes += wire_bytes;
        self.received_pkts += 1;
        self.received_sent_in_window += (sent_at >= self.window_from) as u64;
        self.one_way_delay.record(d);
        if let Some(last) = self.last_delay {
            let ipdv = last.0.abs_diff(d.0);
            self.ipdv_sum_ps += ipdv as u128;
            self.ipdv_count += 1;
            self.rfc3550_jitter_ps += (ipdv as f64 - self.rfc3550_jitter_ps) / 16.0;
        }
        self.last_delay = Some(d);
    }

    /// A data packet sent at `sent_at` is still on a link at the end of the run.
    pub fn held_at_end(&mut self, sent_at: SimTime) {
        self.held_sent_in_window += (sent_at >= self.window_from) as u64;
    }

    /// The fraction of the `sent` data packets of the window (sent into the network at or
    /// after `window_from`, `Flow::sent_in_window`) that a link dropped: those neither
    /// received nor still held at the end (NaN when it sent none). Every packet sent is
    /// delivered, dropped or held, and all three counts read the same packets (their
    /// `sent_at` against the same fixed time), so this is the drop count itself: never
    /// negative, and each drop it counts is of a packet sent in the window.
    pub fn window_loss_rate(&self, sent: u64) -> f64 {
        if sent == 0 {
            return f64::NAN;
        }
        let accounted = self.received_sent_in_window + self.held_sent_in_window;
        debug_assert!(accounted <= sent, "a flow's packets: {accounted} received or held of {sent} sent");
        sent.checked_sub(accounted).map_or(f64::NAN, |lost| lost as f64 / sent as f64)
    }

    /// Mean absolute IPDV in ms (NaN with fewer than two arrivals).
    pub fn jitter_ms(&self) -> f64 {
        if self.ipdv_count == 0 {
            f64::NAN
        } else {
            self.ipdv_sum_ps as f64 / self.ipdv_count as f64 / 1e9
        }
    }

    /// RFC 3550's interarrival jitter at the end of the run, ms (its running estimate J, a
    /// 1/16-gain filter of |D(i−1, i)|; NaN with fewer than two arrivals).
    pub fn rfc3550_jitter_ms(&self) -> f64 {
        if self.ipdv_count == 0 {
            f64::NAN
        } else {
            self.rfc3550_jitter_ps / 1e9
        }
    }

    /// Payload bytes delivered in the measurement window (goodput).
    pub fn window_delivered_bytes(&self) -> u64 {
        self.delivered_bytes - self.at_window_start.0
    }

    /// Wire bytes received in the measurement window (throughput).
    pub fn window_received_bytes(&self) -> u64 {
        self.received_bytes - self.at_window_start.1
    }

    /// Data packets received in the measurement window.
    pub fn window_received_pkts(&self) -> u64 {
        self.received_pkts - self.at_window_start.2
    }

    /// Starts the measurement window: snapshots the counters, forgets the distributions
    /// (completion time is kept; the loss counts read `window_from` and need no snapshot).
    pub fn start_window(&mut self) {
        self.at_window_start = (self.delivered_bytes, self.received_bytes, self.received_pkts);
        self.one_way_delay.clear();
        self.ipdv_sum_ps = 0;
        self.ipdv_count = 0;
    }
}
