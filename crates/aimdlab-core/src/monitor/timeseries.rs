//! Sampled time series: per flow (cwnd, ssthresh, goodput, srtt, controller state) and per
//! monitored link (queue length, utilization), one row per sample interval.

use super::table::{Column, Table};

/// Per-flow time series, column by column. A sample adds one row for every sampled flow, in
/// the same order each time, so the sample time and the flow id are kept once per sample and
/// once per flow (`Column::F64Runs`, `Column::U64Cycle`), not once per row.
#[derive(Default)]
pub struct FlowSeries {
    /// Rows per sample: the sampled flows.
    flows_per_sample: usize,
    /// The row the next one is within its sample (0: it starts a sample).
    in_sample: usize,
    /// The time of each sample, s.
    sample_time_s: Vec<f64>,
    /// The flow of each row of a sample.
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

    /// Room for `samples` samples of `flows_per_sample` rows each (at most `MAX_RESERVED_ROWS`
    /// rows), its columns advised to use huge pages (`huge_pages.rs`).
    pub fn with_capacity(samples: usize, flows_per_sample: usize) -> Self {
        let mut series = Self::unadvised(samples.saturating_mul(flows_per_sample).min(Self::MAX_RESERVED_ROWS));
        series.flows_per_sample = flows_per_sample;
        series.flow.reserve(flows_per_sample);
        series.advise_huge_pages();
        series
    }

    /// Advises the fixed columns' buffers to use huge pages (again after they grow: a buffer
    /// that grows may move).
    fn advise_huge_pages(&self) {
        use crate::huge_pages::advise_vec;
        advise_vec(&self.cwnd_pkts);
        advise_vec(&self.ssthresh_pkts);
        advise_vec(&self.goodput_bps);
        advise_vec(&self.send_rate_bps);
        advise_vec(&self.srtt_ms);
        advise_vec(&self.in_flight_pkts);
    }

    fn unadvised(rows: usize) -> Self {
        FlowSeries {
            flows_per_sample: 0,
            in_sample: 0,
            sample_time_s: Vec::new(),
            flow: Vec::new(),
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
        if self.cwnd_pkts.len() == self.cwnd_pkts.capacity() {
            self.grow();
        }
        if self.in_sample == 0 {
            self.sample_time_s.push(s.time_s);
        }
        if self.cwnd_pkts.len() < self.flows_per_sample {
            self.flow.push(s.flow);
        }
        debug_assert!(
            self.flow[self.in_sample] == s.flow && self.sample_time_s.last() == Some(&s.time_s),
            "a sample has a row for each sampled flow, in order"
        );
        self.in_sample += 1;
        if self.in_sample == self.flows_per_sample {
            self.in_sample = 0;
        }
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
        let more = self.cwnd_pkts.capacity().max(64);
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
        let rows = self.cwnd_pkts.len();
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
        let samples = self.sample_time_s.len();
        debug_assert_eq!(self.cwnd_pkts.len(), samples * self.flows_per_sample, "whole samples");
        t.push("time_s", Column::F64Runs(self.sample_time_s, self.flows_per_sample));
        t.push("flow", Column::U64Cycle(self.flow, samples));
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

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(time_s: f64, flow: u64, cwnd_pkts: f64) -> FlowSample {
        FlowSample { time_s, flow, cwnd_pkts, ssthresh_pkts: f64::INFINITY, goodput_bps: 0.0, send_rate_bps: 0.0, srtt_ms: f64::NAN, in_flight_pkts: 0 }
    }

    #[test]
    fn sample_times_and_flows_kept_once_read_as_one_per_row() {
        // Flows 4 and 9 sampled three times; the series starts small and has to grow.
        let mut s = FlowSeries::with_capacity(1, 2);
        for (i, t) in [0.1, 0.2, 0.3].into_iter().enumerate() {
            s.push(sample(t, 4, i as f64), &[]);
            s.push(sample(t, 9, 10.0 + i as f64), &[("beta", 0.5)]);
        }
        let t = s.into_table();
        assert_eq!(t.num_rows(), 6);
        assert!(t.columns.iter().all(|(_, c)| c.len() == 6), "every column has a value per row");
        assert_eq!(t.get("time_s").and_then(Column::to_f64), Some(vec![0.1, 0.1, 0.2, 0.2, 0.3, 0.3]));
        assert_eq!(t.get("flow").and_then(Column::to_u64), Some(vec![4, 9, 4, 9, 4, 9]));
        assert_eq!(t.get("cwnd_pkts").and_then(Column::to_f64), Some(vec![0.0, 10.0, 1.0, 11.0, 2.0, 12.0]));
        let beta = t.get("beta").and_then(Column::to_f64).unwrap();
        assert!(beta[0].is_nan() && beta[1] == 0.5 && beta[2].is_nan() && beta[5] == 0.5, "a variable one flow publishes: NaN on the other's rows");
    }

    #[test]
    fn a_series_of_no_flows_is_an_empty_table() {
        let t = FlowSeries::with_capacity(100, 0).into_table();
        assert_eq!(t.num_rows(), 0);
        assert!(t.columns.iter().all(|(_, c)| c.is_empty()));
    }
}
