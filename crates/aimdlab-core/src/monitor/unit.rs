//! What a result column is measured in, and so the values it can take: every column of the
//! result tables and every number of the summary declares one (`columns.rs`, `timeseries.rs`,
//! `cwnd_trace_table.rs`, `result.rs`). The Python side reads both from here (`aimdlab columns`, the
//! Parquet metadata, a sweep's confidence intervals clipped to the range) instead of guessing
//! them from a column's name.

/// The unit of a result column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// Bits per second.
    BitsPerSecond,
    /// Seconds.
    Seconds,
    /// Milliseconds.
    Milliseconds,
    /// Packets (segments, datagrams).
    Packets,
    /// Bytes.
    Bytes,
    /// Packets or bytes, as the queue counts (RED's average).
    PacketsOrBytes,
    /// A fraction, from 0 to 1 (a utilization, a Jain index, a loss-event rate).
    Fraction,
    /// A count of events (timeouts, reductions).
    Count,
    /// An index or a seed: a whole number that names, not measures.
    Index,
    /// Text.
    Label,
}

impl Unit {
    /// The unit as the tables write it: `"bit/s"`, `"s"`, `"ms"`, `"packets"`, `"bytes"`,
    /// `"packets or bytes"`, `"1"` for a fraction, `""` for a count, an index or a label.
    pub fn symbol(self) -> &'static str {
        match self {
            Unit::BitsPerSecond => "bit/s",
            Unit::Seconds => "s",
            Unit::Milliseconds => "ms",
            Unit::Packets => "packets",
            Unit::Bytes => "bytes",
            Unit::PacketsOrBytes => "packets or bytes",
            Unit::Fraction => "1",
            Unit::Count | Unit::Index | Unit::Label => "",
        }
    }

    /// The values a column of this unit can take, `(low, high)`: a fraction lies in [0, 1];
    /// every quantity and count here is at least 0 (NaN, "not available", aside); a label has
    /// no range (`(-inf, inf)`).
    pub fn range(self) -> (f64, f64) {
        match self {
            Unit::Fraction => (0.0, 1.0),
            Unit::Label => (f64::NEG_INFINITY, f64::INFINITY),
            _ => (0.0, f64::INFINITY),
        }
    }
}

/// One declared column as the Python side reads it: (table, name, unit symbol, description,
/// low, high).
pub type ColumnDoc = (&'static str, String, &'static str, &'static str, f64, f64);

/// A column's documentation row from its table, name, unit and description.
pub fn column_doc(table: &'static str, name: impl Into<String>, unit: Unit, doc: &'static str) -> ColumnDoc {
    let (low, high) = unit.range();
    (table, name.into(), unit.symbol(), doc, low, high)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fraction_lies_between_0_and_1_and_a_quantity_is_not_negative() {
        assert_eq!(Unit::Fraction.range(), (0.0, 1.0));
        assert_eq!(Unit::BitsPerSecond.range(), (0.0, f64::INFINITY));
        assert_eq!(Unit::Count.symbol(), "");
        assert_eq!(Unit::Fraction.symbol(), "1");
    }
}
