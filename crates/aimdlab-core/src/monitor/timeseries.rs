//! Sampled time series: per flow (cwnd, ssthresh, goodput, srtt, controller state) and per
//! monitored link (queue length, utilization), one row per sample interval.

use super::table::{Column, Table};

/// Per-flow time series, column by column.
#[derive(Default)]
pub struct FlowSeries {
    time_s: Vec<f64>,
    flow: Vec<u64>,
    cwnd_pkts: Vec<f64>,
    ssthresh_pkts: Vec<f64>,
    goodput_bps: Vec<f64>,
    send_rate_bps: Vec<f64>,
    srtt_ms: Vec<f64>,
    in_flight_pkts: Vec<u64>,
    state: Vec<(&'static str, Vec<f64>)>,
}

/// One row of `FlowSeries`.
pub struct FlowSample {
    /// Sample time, s.
    pub time_s: f64,
    /// Flow index.
    pub flow: u64,
    /// Congestion window, packets.
    pub cwnd_pkts: f64,
    /// Slow-start threshold, packets (∞ when unset).
    pub ssthresh_pkts: f64,
    /// Goodput over the interval ending now, bits/s.
    pub goodput_bps: f64,
    /// Data sent (wire bytes, retransmissions included) over the interval, bits/s.
    pub send_rate_bps: f64,
    /// Smoothed RTT, ms (NaN before the first sample).
    pub srtt_ms: f64,
    /// Segments in flight.
    pub in_flight_pkts: u64,
}

impl FlowSeries {
    /// Rows reserved up front at most: 8 MiB of address space per column. Reserved space costs
    /// no memory until rows are written; beyond it the columns grow as rows come.
    pub const MAX_RESERVED_ROWS: usize = 1 << 20;

    /// Room for `rows` samples (at most `MAX_RESERVED_ROWS`), its columns advised to use huge
    /// pages (`huge_pages.rs`).
    pub fn with_capacity(rows: usize) -> Self {
        let series = Self::unadvised(rows.min(Self::MAX_RESERVED_ROWS));
        series.advise_huge_pages();
        series
    }

    /// Advises the fixed columns' buffers to use huge pages (again after they grow: a buffer
    /// that grows may move).
    fn advise_huge_pages(&self) {
        use crate::huge_pages::advise_vec;
        advise_vec(&self.time_s);
        advise_vec(&self.flow);
        advise_vec(&self.cwnd_pkts);
        advise_vec(&self.ssthresh_pkts);
        advise_vec(&self.goodput_bps);
        advise_vec(&self.send_rate_bps);
        advise_vec(&self.srtt_ms);
        advise_vec(&self.in_flight_pkts);
    }

    fn unadvised(rows: usize) -> Self {
        FlowSeries {
            time_s: Vec::with_capacity(rows),
            flow: Vec::with_capacity(rows),
            cwnd_pkts: Vec::with_capacity(rows),
            ssthresh_pkts: Vec::with_capacity(rows),
            goodput_bps: Vec::with_capacity(rows),
            send_rate_bps: Vec::with_capacity(rows),
            srtt_ms: Vec::with_capacity(rows),
            in_flight_pkts: Vec::with_capacity(rows),
            state: Vec::new(),
        }
    }

    /// Appends a row; `state` lists the controller's published variables for this row.
    #[inline]
    pub fn push(&mut self, s: FlowSample, state: &[(&'static str, f64)]) {
        if self.time_s.len() == self.time_s.capacity() {
            self.grow();
        }
        self.time_s.push(s.time_s);
        self.flow.push(s.flow);
        self.cwnd_pkts.push(s.cwnd_pkts);
        self.ssthresh_pkts.push(s.ssthresh_pkts);
        self.goodput_bps.push(s.goodput_bps);
        self.send_rate_bps.push(s.send_rate_bps);
        self.srtt_ms.push(s.srtt_ms);
        self.in_flight_pkts.push(s.in_flight_pkts);
        if !state.is_empty() || !self.state.is_empty() {
            self.push_state(state);
        }
    }

    /// Doubles the room of every fixed column at once (so a row's pushes never grow one) and
    /// advises the moved buffers again.
    #[cold]
    #[inline(never)]
    fn grow(&mut self) {
        let more = self.time_s.capacity().max(64);
        self.time_s.reserve(more);
        self.flow.reserve(more);
        self.cwnd_pkts.reserve(more);
        self.ssthresh_pkts.reserve(more);
        self.goodput_bps.reserve(more);
        self.send_rate_bps.reserve(more);
        self.srtt_ms.reserve(more);
        self.in_flight_pkts.reserve(more);
        self.advise_huge_pages();
    }

    /// The state columns' part of a row (the fixed columns pushed): a value for each variable
    /// published, NaN for each one that was not, a new column (NaN before) for a new name.
    fn push_state(&mut self, state: &[(&'static str, f64)]) {
        let rows = self.time_s.len();
        for &(name, v) in state {
            match self.state.iter_mut().find(|(n, _)| *n == name) {
                Some((_, col)) => col.push(v),
                None => {
                    let mut col = vec![f64::NAN; rows - 1];
                    col.push(v);
                    self.state.push((name, col));
                }
            }
        }
        for (_, col) in &mut self.state {
            if col.len() < rows {
                col.push(f64::NAN);
            }
        }
    }

    /// The columns as a table.
    pub fn into_table(self) -> Table {
        let mut t = Table::default();
        t.push("time_s", Column::F64(self.time_s));
        t.push("flow", Column::U64(self.flow));
        t.push("cwnd_pkts", Column::F64(self.cwnd_pkts));
        t.push("ssthresh_pkts", Column::F64(self.ssthresh_pkts));
        t.push("goodput_bps", Column::F64(self.goodput_bps));
        t.push("send_rate_bps", Column::F64(self.send_rate_bps));
        t.push("srtt_ms", Column::F64(self.srtt_ms));
        t.push("in_flight_pkts", Column::U64(self.in_flight_pkts));
        for (name, col) in self.state {
            t.push(name, Column::F64(col));
        }
        t
    }
}

/// Per-link time series.
#[derive(Default)]
pub struct LinkSeries {
    time_s: Vec<f64>,
    link: Vec<u64>,
    queue_len_pkts: Vec<u64>,
    queue_len_bytes: Vec<u64>,
    red_avg: Vec<f64>,
    utilization: Vec<f64>,
    tx_pkts: Vec<u64>,
    queuing_delay_ms: Vec<f64>,
}

/// One row of a link's time series: its state at the sample and what it did in the interval
/// that ends there.
pub struct LinkSample {
    /// Sample time, seconds.
    pub time_s: f64,
    /// Link index.
    pub link: u64,
    /// Packets waiting now.
    pub queue_len_pkts: u64,
    /// Bytes waiting now.
    pub queue_len_bytes: u64,
    /// RED's average queue now (NaN for other disciplines).
    pub red_avg: f64,
    /// Fraction of the interval the serializer was busy.
    pub utilization: f64,
    /// Packets that started transmission in the interval.
    pub tx_pkts: u64,
    /// Their mean queuing delay (enqueue to start of transmission), ms; NaN when none did.
    pub queuing_delay_ms: f64,
}

impl LinkSeries {
    /// Room for `rows` samples.
    pub fn with_capacity(rows: usize) -> Self {
        LinkSeries {
            time_s: Vec::with_capacity(rows),
            link: Vec::with_capacity(rows),
            queue_len_pkts: Vec::with_capacity(rows),
            queue_len_bytes: Vec::with_capacity(rows),
            red_avg: Vec::with_capacity(rows),
            utilization: Vec::with_capacity(rows),
            tx_pkts: Vec::with_capacity(rows),
            queuing_delay_ms: Vec::with_capacity(rows),
        }
    }

    /// Appends a row.
    pub fn push(&mut self, row: LinkSample) {
        self.time_s.push(row.time_s);
        self.link.push(row.link);
        self.queue_len_pkts.push(row.queue_len_pkts);
        self.queue_len_bytes.push(row.queue_len_bytes);
        self.red_avg.push(row.red_avg);
        self.utilization.push(row.utilization);
        self.tx_pkts.push(row.tx_pkts);
        self.queuing_delay_ms.push(row.queuing_delay_ms);
    }

    /// The columns as a table.
    pub fn into_table(self) -> Table {
        let mut t = Table::default();
        t.push("time_s", Column::F64(self.time_s));
        t.push("link", Column::U64(self.link));
        t.push("queue_len_pkts", Column::U64(self.queue_len_pkts));
        t.push("queue_len_bytes", Column::U64(self.queue_len_bytes));
        t.push("red_avg", Column::F64(self.red_avg));
        t.push("utilization", Column::F64(self.utilization));
        t.push("tx_pkts", Column::U64(self.tx_pkts));
        t.push("queuing_delay_ms", Column::F64(self.queuing_delay_ms));
        t
    }
}
