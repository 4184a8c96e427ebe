//! Sampled time series: per flow (cwnd, ssthresh, goodput, srtt, controller state) and per
//! monitored link (queue length, utilization), one row per sample interval.
//!
//! Each series' value columns are declared once, in a `series_values!` list: name, type, unit
//! and description. From it come the row of values a sample reads (`FlowValues`,
//! `LinkValues`), the column store that keeps them, and the columns' documentation (`aimdlab
//! columns`, the Parquet metadata). Adding a column is one line there and the line of
//! `sampling.rs` that reads it.

use super::table::{Column, Table};
use super::unit::Unit;

/// Declares the value columns of a time series once: the row struct `$row` (one public field
/// per column), the column store `$store` (one `Vec` per column, pushed, grown and turned into
/// table columns together) and `$store::DOCS` (name, unit, description per column).
macro_rules! series_values {
    ($(#[$row_doc:meta])* $row:ident, $store:ident { $($(#[$field_doc:meta])* $name:ident: $ty:ident, $unit:ident, $desc:literal;)* }) => {
        $(#[$row_doc])*
        #[derive(Clone, Copy, Debug)]
        pub struct $row {
            $($(#[$field_doc])* pub $name: $ty,)*
        }

        /// The values of every row, column by column.
        #[derive(Default)]
        struct $store {
            $($name: Vec<$ty>,)*
        }

        impl $store {
            /// Name, unit and description of each value column, in table order.
            const DOCS: &'static [(&'static str, Unit, &'static str)] = &[$((stringify!($name), Unit::$unit, $desc),)*];

            fn with_capacity(rows: usize) -> Self {
                $store { $($name: Vec::with_capacity(rows),)* }
            }

            #[inline]
            fn push(&mut self, row: $row) {
                $(self.$name.push(row.$name);)*
            }

            #[allow(dead_code)] // (the link series is sized once, up front)
            fn reserve(&mut self, more: usize) {
                $(self.$name.reserve(more);)*
            }

            /// Advises the buffers to use huge pages (`huge_pages.rs`).
            #[allow(dead_code)] // (the link series is small: no advice)
            fn advise_huge_pages(&self) {
                $(crate::huge_pages::advise_vec(&self.$name);)*
            }

            fn into_table(self, t: &mut Table) {
                $(t.push(stringify!($name), Column::from(self.$name));)*
            }
        }
    };
}

series_values! {
    /// What one sample reads of one flow.
    FlowValues, FlowColumns {
        /// Congestion window, packets.
        cwnd_pkts: f64, Packets, "congestion window (NaN without a controller)";
        /// Slow-start threshold, packets (∞ when unset).
        ssthresh_pkts: f64, Packets, "slow-start threshold (inf when unset)";
        /// Goodput over the interval ending now, bits/s.
        goodput_bps: f64, BitsPerSecond, "payload delivered for the first time over the interval";
        /// Data sent (wire bytes, retransmissions included) over the interval, bits/s.
        send_rate_bps: f64, BitsPerSecond, "wire bytes of data sent over the interval";
        /// Smoothed RTT, ms (NaN before the first sample).
        srtt_ms: f64, Milliseconds, "smoothed RTT (NaN before the first sample)";
        /// Segments in flight.
        in_flight_pkts: u64, Packets, "segments in flight (RFC 6675 pipe)";
    }
}

series_values! {
    /// What one sample reads of one monitored link: its state at the sample and what it did in
    /// the interval that ends there.
    LinkValues, LinkColumns {
        /// Packets waiting now.
        queue_len_pkts: u64, Packets, "packets waiting";
        /// Bytes waiting now.
        queue_len_bytes: u64, Bytes, "bytes waiting";
        /// RED's average queue now (NaN for other disciplines).
        red_avg: f64, PacketsOrBytes, "RED's average queue (NaN for other disciplines)";
        /// Fraction of the interval the serializer was busy.
        utilization: f64, Fraction, "fraction of the interval the link was transmitting";
        /// Packets that started transmission in the interval.
        tx_pkts: u64, Packets, "packets that started transmission in the interval";
        /// Their mean queuing delay (enqueue to start of transmission), ms; NaN when none did.
        queuing_delay_ms: f64, Milliseconds, "mean queuing delay (enqueue to start of transmission) of those packets; NaN when none";
    }
}

/// The key columns of the per-flow series, then its value columns; a controller's own state
/// variables follow them (MR-AIMD's `a`, ...).
pub fn flow_series_docs() -> Vec<(&'static str, Unit, &'static str)> {
    let keys = [("time_s", Unit::Seconds, "sample time"), ("flow", Unit::Index, "flow index")];
    keys.into_iter().chain(FlowColumns::DOCS.iter().copied()).collect()
}

/// The key columns of the per-link series, then its value columns.
pub fn link_series_docs() -> Vec<(&'static str, Unit, &'static str)> {
    let keys = [("time_s", Unit::Seconds, "sample time"), ("link", Unit::Index, "link index")];
    keys.into_iter().chain(LinkColumns::DOCS.iter().copied()).collect()
}

/// Per-flow time series, column by column. A sample adds one row for every sampled flow, in
/// the same order each time, so the sample time and the flow id are kept once per sample and
/// once per flow (`Column::F64Runs`, `Column::U64Cycle`), not once per row.
#[derive(Default)]
pub struct FlowSeries {
    /// Rows per sample: the sampled flows.
    flows_per_sample: usize,
    /// The row the next one is within its sample (0: it starts a sample).
    in_sample: usize,
    /// Rows so far, and the rows the value columns have room for.
    rows: usize,
    capacity: usize,
    /// The time of each sample, s.
    sample_time_s: Vec<f64>,
    /// The flow of each row of a sample.
    flow: Vec<u64>,
    values: FlowColumns,
    state: Vec<(&'static str, Vec<f64>)>,
}

impl FlowSeries {
    /// Rows reserved up front at most: 8 MiB of address space per column. Reserved space costs
    /// no memory until rows are written; beyond it the columns grow as rows come.
    pub const MAX_RESERVED_ROWS: usize = 1 << 20;

    /// Room for `samples` samples of `flows_per_sample` rows each (at most `MAX_RESERVED_ROWS`
    /// rows), its columns advised to use huge pages (`huge_pages.rs`).
    pub fn with_capacity(samples: usize, flows_per_sample: usize) -> Self {
        let rows = samples.saturating_mul(flows_per_sample).min(Self::MAX_RESERVED_ROWS);
        let series = FlowSeries {
            flows_per_sample,
            capacity: rows,
            flow: Vec::with_capacity(flows_per_sample),
            values: FlowColumns::with_capacity(rows),
            ..Default::default()
        };
        series.values.advise_huge_pages();
        series
    }

    /// Appends the row of flow `flow` at sample time `time_s`; `state` lists the controller's
    /// published variables for this row.
    #[inline]
    pub fn push(&mut self, time_s: f64, flow: u64, values: FlowValues, state: &[(&'static str, f64)]) {
        if self.rows == self.capacity {
            self.grow();
        }
        if self.in_sample == 0 {
            self.sample_time_s.push(time_s);
        }
        if self.rows < self.flows_per_sample {
            self.flow.push(flow);
        }
        debug_assert!(self.flow[self.in_sample] == flow && self.sample_time_s.last() == Some(&time_s), "a sample has a row for each sampled flow, in order");
        self.in_sample += 1;
        if self.in_sample == self.flows_per_sample {
            self.in_sample = 0;
        }
        self.values.push(values);
        self.rows += 1;
        if !state.is_empty() || !self.state.is_empty() {
            self.push_state(state);
        }
    }

    /// Doubles the room of every value column at once (so a row's pushes never grow one) and
    /// advises the moved buffers again.
    #[cold]
    #[inline(never)]
    fn grow(&mut self) {
        let more = self.capacity.max(64);
        self.values.reserve(more);
        self.capacity += more;
        self.values.advise_huge_pages();
    }

    /// The state columns' part of a row (the value columns pushed): a value for each variable
    /// published, NaN for each one that was not, a new column (NaN before) for a new name.
    fn push_state(&mut self, state: &[(&'static str, f64)]) {
        let rows = self.rows;
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
        debug_assert_eq!(self.rows, samples * self.flows_per_sample, "whole samples");
        t.push("time_s", Column::F64Runs(self.sample_time_s, self.flows_per_sample));
        t.push("flow", Column::U64Cycle(self.flow, samples));
        self.values.into_table(&mut t);
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
    values: LinkColumns,
}

impl LinkSeries {
    /// Room for `rows` samples.
    pub fn with_capacity(rows: usize) -> Self {
        LinkSeries { time_s: Vec::with_capacity(rows), link: Vec::with_capacity(rows), values: LinkColumns::with_capacity(rows) }
    }

    /// Appends the row of link `link` at sample time `time_s`.
    pub fn push(&mut self, time_s: f64, link: u64, values: LinkValues) {
        self.time_s.push(time_s);
        self.link.push(link);
        self.values.push(values);
    }

    /// The columns as a table.
    pub fn into_table(self) -> Table {
        let mut t = Table::default();
        t.push("time_s", Column::F64(self.time_s));
        t.push("link", Column::U64(self.link));
        self.values.into_table(&mut t);
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(cwnd_pkts: f64) -> FlowValues {
        FlowValues { cwnd_pkts, ssthresh_pkts: f64::INFINITY, goodput_bps: 0.0, send_rate_bps: 0.0, srtt_ms: f64::NAN, in_flight_pkts: 0 }
    }

    #[test]
    fn sample_times_and_flows_kept_once_read_as_one_per_row() {
        // Flows 4 and 9 sampled three times; the series starts small and has to grow.
        let mut s = FlowSeries::with_capacity(1, 2);
        for (i, t) in [0.1, 0.2, 0.3].into_iter().enumerate() {
            s.push(t, 4, values(i as f64), &[]);
            s.push(t, 9, values(10.0 + i as f64), &[("beta", 0.5)]);
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
