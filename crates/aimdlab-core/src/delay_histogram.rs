//! A log-linear histogram of durations (HDR-histogram style) for delay percentiles without
//! storing samples: values below 128 ns are exact, larger ones fall in buckets 1/128 of an
//! octave wide (relative error ≤ 0.8 %). The counters are one contiguous run of whole octaves
//! (128 counters, 512 bytes each) from the lowest to the highest octave a sample has fallen
//! in, grown when a sample falls outside: recording is one bounds check and one increment
//! behind a single pointer (a delay stays within an octave or two, so the run stays short).
//! Zero delays (an idle queue) are counted inline, so a histogram that only ever sees zeros
//! allocates nothing. So is a run of samples in one bucket (a host's link, where a packet
//! that waits waits one transmission time): the run's count is written to its counter when
//! a sample falls in another bucket (or read from where it is kept), so recording the same
//! delay again and again touches only the histogram's own lines, not its counters.

use crate::units::SimDuration;

const MANTISSA_BITS: u32 = 7;
const SUB: u64 = 1 << MANTISSA_BITS;
const MAX_EXP: u32 = 50; // 2^50 ns ≈ 13 days
const BUCKETS: usize = ((MAX_EXP - MANTISSA_BITS + 2) as u64 * SUB) as usize;
/// Buckets per octave: the run of counters starts and ends on octave boundaries.
const OCTAVE: usize = SUB as usize;
/// `run_index` when no run is pending.
const NO_RUN: usize = usize::MAX;

/// Distribution of a delay (count, mean, min, max, quantiles). Laid out in declaration
/// order, what a zero delay touches first.
#[derive(Clone)]
#[repr(C)]
pub struct DelayHistogram {
    count: u64,
    zeros: u64,
    /// Counter (index in `counts`) of the current run of non-zero samples (`NO_RUN`:
    /// none), and the run's count, not yet added to that counter.
    run_index: usize,
    run_count: u64,
    /// Smallest non-zero sample (a zero sample is in `zeros`: see `min_sample_ns`).
    min_ns: u64,
    max_ns: u64,
    sum_ns: u128,
    /// Counters of buckets `first_bucket ..`, whole octaves; empty until the first non-zero
    /// sample.
    counts: Vec<u32>,
    first_bucket: usize,
}

fn bucket_of(ns: u64) -> usize {
    if ns < SUB {
        return ns as usize;
    }
    let exp = (63 - ns.leading_zeros()).min(MAX_EXP);
    let mantissa = (ns >> (exp - MANTISSA_BITS)) & (SUB - 1);
    (((exp - MANTISSA_BITS + 1) as u64) * SUB + mantissa) as usize
}

/// The middle of a bucket, in ns.
fn bucket_mid_ns(b: usize) -> f64 {
    let b = b as u64;
    if b < SUB {
        return b as f64;
    }
    let exp = (b / SUB) as u32 + MANTISSA_BITS - 1;
    let mantissa = b % SUB;
    let width = 1u64 << (exp - MANTISSA_BITS);
    ((SUB + mantissa) * width) as f64 + width as f64 / 2.0
}

impl Default for DelayHistogram {
    /// An empty histogram (allocates nothing).
    fn default() -> Self {
        DelayHistogram { count: 0, zeros: 0, run_index: NO_RUN, run_count: 0, min_ns: u64::MAX, max_ns: 0, sum_ns: 0, counts: Vec::new(), first_bucket: 0 }
    }
}

impl DelayHistogram {
    /// Heap bytes of one octave of counters.
    pub const OCTAVE_BYTES: usize = OCTAVE * std::mem::size_of::<u32>();

    /// An empty histogram (allocates nothing).
    pub fn new() -> Self {
        Self::default()
    }

    /// Records one delay.
    #[inline]
    pub fn record(&mut self, d: SimDuration) {
        let ns = d.0 / 1000;
        self.count += 1;
        if ns == 0 {
            self.zeros += 1;
            return;
        }
        self.sum_ns += ns as u128;
        self.min_ns = self.min_ns.min(ns);
        self.max_ns = self.max_ns.max(ns);
        let b = bucket_of(ns).min(BUCKETS - 1);
        let i = b.wrapping_sub(self.first_bucket);
        if i == self.run_index {
            self.run_count += 1;
        } else {
            self.start_run(b);
        }
    }

    /// Adds the pending run to its counter and starts a run of one sample in bucket `b`
    /// (widening the counters to cover it, so they span every octave seen).
    #[inline]
    fn start_run(&mut self, b: usize) {
        self.end_run();
        if b.wrapping_sub(self.first_bucket) >= self.counts.len() {
            self.widen(b);
        }
        self.run_index = b - self.first_bucket;
        self.run_count = 1;
    }

    /// Adds the pending run, if any, to its counter.
    #[inline]
    fn end_run(&mut self) {
        let run = self.run_as_counter();
        if let Some(n) = self.counts.get_mut(self.run_index) {
            *n = n.saturating_add(run);
        }
        self.run_index = NO_RUN;
        self.run_count = 0;
    }

    /// The pending run's count as a counter adds it: saturated, so that a counter saturates
    /// as if the run had been counted one by one.
    #[inline]
    fn run_as_counter(&self) -> u32 {
        self.run_count.min(u32::MAX as u64) as u32
    }

    /// Extends the run of counters to the octave of bucket `b`.
    #[cold]
    fn widen(&mut self, b: usize) {
        let octave_start = b / OCTAVE * OCTAVE;
        if self.counts.is_empty() {
            self.first_bucket = octave_start;
            self.counts = vec![0; OCTAVE];
        } else if b < self.first_bucket {
            let mut counts = vec![0; self.first_bucket - octave_start + self.counts.len()];
            counts[self.first_bucket - octave_start..].copy_from_slice(&self.counts);
            self.counts = counts;
            self.first_bucket = octave_start;
        } else {
            self.counts.resize(octave_start + OCTAVE - self.first_bucket, 0);
        }
    }

    /// Forgets every sample (at the end of the warm-up).
    pub fn clear(&mut self) {
        self.counts.fill(0);
        self.run_index = NO_RUN;
        self.run_count = 0;
        self.zeros = 0;
        self.count = 0;
        self.sum_ns = 0;
        self.min_ns = u64::MAX;
        self.max_ns = 0;
    }

    /// Smallest sample, ns (with samples): 0 if a zero was recorded, else the smallest
    /// non-zero one. Zeros only count, so recording one touches two counters.
    fn min_sample_ns(&self) -> u64 {
        if self.zeros > 0 {
            0
        } else {
            self.min_ns
        }
    }

    /// Heap bytes held by the counters.
    pub fn heap_bytes(&self) -> usize {
        self.counts.capacity() * std::mem::size_of::<u32>()
    }

    /// Number of samples.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Mean in milliseconds (NaN when empty).
    pub fn mean_ms(&self) -> f64 {
        if self.count == 0 {
            f64::NAN
        } else {
            self.sum_ns as f64 / self.count as f64 / 1e6
        }
    }

    /// Largest sample in milliseconds (NaN when empty).
    pub fn max_ms(&self) -> f64 {
        if self.count == 0 {
            f64::NAN
        } else {
            self.max_ns as f64 / 1e6
        }
    }

    /// Smallest sample in milliseconds (NaN when empty).
    pub fn min_ms(&self) -> f64 {
        if self.count == 0 {
            f64::NAN
        } else {
            self.min_sample_ns() as f64 / 1e6
        }
    }

    /// The `q`-quantile (0 ≤ q ≤ 1) in milliseconds, within 0.8 % (NaN when empty).
    pub fn quantile_ms(&self, q: f64) -> f64 {
        if self.count == 0 {
            return f64::NAN;
        }
        let rank = ((q.clamp(0.0, 1.0) * self.count as f64).ceil() as u64).max(1);
        let at = |b: usize| bucket_mid_ns(b).clamp(self.min_sample_ns() as f64, self.max_ns as f64) / 1e6;
        let mut seen = self.zeros;
        if seen >= rank {
            return at(0);
        }
        for (i, &n) in self.counts.iter().enumerate() {
            seen += if i == self.run_index { n.saturating_add(self.run_as_counter()) } else { n } as u64;
            if seen >= rank {
                return at(self.first_bucket + i);
            }
        }
        self.max_ns as f64 / 1e6
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_of_a_uniform_spread_are_within_one_percent() {
        let mut h = DelayHistogram::new();
        for ms in 1..=1000u64 {
            h.record(SimDuration::from_millis(ms));
        }
        assert_eq!(h.count(), 1000);
        assert!((h.mean_ms() - 500.5).abs() < 1e-9);
        for (q, want) in [(0.5, 500.0), (0.95, 950.0), (0.99, 990.0)] {
            let got = h.quantile_ms(q);
            assert!((got - want).abs() / want < 0.01, "q{q}: {got} vs {want}");
        }
        assert_eq!(h.max_ms(), 1000.0);
        assert_eq!(h.min_ms(), 1.0);
    }

    #[test]
    fn zeros_allocate_nothing_and_the_counters_span_the_octaves_seen() {
        let mut h = DelayHistogram::new();
        for _ in 0..1000 {
            h.record(SimDuration::ZERO);
        }
        assert_eq!(h.heap_bytes(), 0);
        assert_eq!(h.quantile_ms(0.99), 0.0);
        h.record(SimDuration::from_micros(3)); // 3000 ns: one octave
        h.record(SimDuration::from_micros(3) + SimDuration(500_000));
        assert_eq!(h.heap_bytes(), DelayHistogram::OCTAVE_BYTES);
        assert_eq!(h.quantile_ms(0.5), 0.0);
        assert!((h.quantile_ms(1.0) - 0.0035).abs() < 0.0035 * 0.008);
        // Octaves below and above the first: the run widens both ways, counts kept.
        h.record(SimDuration(700_000)); // 700 ns, two octaves lower
        h.record(SimDuration::from_micros(20)); // 20 µs, three octaves higher
        assert_eq!(h.heap_bytes(), 6 * DelayHistogram::OCTAVE_BYTES);
        assert_eq!(h.count(), 1004);
        assert!((h.quantile_ms(1.0) - 0.020).abs() < 0.020 * 0.008);
        assert!((h.quantile_ms(1001.0 / 1004.0) - 0.0007).abs() < 0.0007 * 0.008);
        assert!((h.quantile_ms(1002.0 / 1004.0) - 0.003).abs() < 0.003 * 0.008);
        h.clear();
        assert_eq!(h.count(), 0);
        assert!(h.quantile_ms(0.5).is_nan());
    }

    #[test]
    fn a_run_of_equal_delays_counts_the_same_as_one_by_one() {
        let mut h = DelayHistogram::new();
        // A host link: most waits are one transmission time, a few two.
        let one = SimDuration::from_micros(1733);
        let two = SimDuration::from_micros(3466);
        for i in 0..1000 {
            h.record(if i % 100 == 99 { two } else { one });
        }
        assert_eq!(h.count(), 1000);
        assert_eq!(h.heap_bytes(), DelayHistogram::OCTAVE_BYTES * 2);
        // A run of `one` is pending here, not yet in its counter.
        h.record(one);
        assert!((h.quantile_ms(0.5) - 1.733).abs() < 1.733 * 0.008);
        assert!((h.quantile_ms(0.99) - 1.733).abs() < 1.733 * 0.008);
        assert!((h.quantile_ms(0.995) - 3.466).abs() < 3.466 * 0.008);
        // The same samples counted with the runs broken at every sample.
        let mut single = DelayHistogram::new();
        for i in 0..1001 {
            single.record(if i % 100 == 99 { two } else { one });
            single.end_run();
        }
        for q in [0.1, 0.5, 0.98, 0.99, 0.991, 0.999, 1.0] {
            assert_eq!(h.quantile_ms(q), single.quantile_ms(q), "q{q}");
        }
        // Clearing forgets the pending run too.
        h.clear();
        h.record(two);
        assert_eq!(h.quantile_ms(0.0), h.quantile_ms(1.0));
        assert!((h.quantile_ms(0.0) - 3.466).abs() < 3.466 * 0.008);
    }

    #[test]
    fn small_values_are_exact_and_buckets_are_monotone() {
        let mut last = 0;
        for ns in [0u64, 1, 127, 128, 129, 255, 256, 1 << 20, (1 << 20) + 12345, u64::MAX >> 14] {
            let b = bucket_of(ns);
            assert!(b >= last);
            last = b;
            if ns >= 128 {
                let mid = bucket_mid_ns(b);
                assert!((mid - ns as f64).abs() / ns as f64 <= 1.0 / 128.0, "{ns} -> {mid}");
            }
        }
    }
}
