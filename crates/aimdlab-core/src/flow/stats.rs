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
        self.one_way_delay.record(d);
        if let Some(last) = self.last_delay {
            let ipdv = last.0.abs_diff(d.0);
            self.ipdv_sum_ps += ipdv as u128;
            self.ipdv_count += 1;
            self.rfc3550_jitter_ps += (ipdv as f64 - self.rfc3550_jitter_ps) / 16.0;
        }
        self.last_delay = Some(d);
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
    /// (completion time is kept).
    pub fn start_window(&mut self) {
        self.at_window_start = (self.delivered_bytes, self.received_bytes, self.received_pkts);
        self.one_way_delay.clear();
        self.ipdv_sum_ps = 0;
        self.ipdv_count = 0;
    }
}
