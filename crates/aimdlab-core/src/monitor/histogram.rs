//! A fixed-size log-linear histogram of durations (HDR-histogram style) for delay
//! percentiles without storing samples: values below 128 ns are exact, larger ones fall in
//! buckets 1/128 of an octave wide (relative error ≤ 0.8 %). Recording never allocates.

use crate::units::SimDuration;

const MANTISSA_BITS: u32 = 7;
const SUB: u64 = 1 << MANTISSA_BITS;
const MAX_EXP: u32 = 50; // 2^50 ns ≈ 13 days
const BUCKETS: usize = ((MAX_EXP - MANTISSA_BITS + 2) as u64 * SUB) as usize;

/// Distribution of a delay (count, mean, min, max, quantiles).
#[derive(Clone)]
pub struct DelayHistogram {
    counts: Box<[u32]>,
    count: u64,
    sum_ns: u128,
    min_ns: u64,
    max_ns: u64,
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
    fn default() -> Self {
        Self::new()
    }
}

impl DelayHistogram {
    /// Heap bytes of one histogram (its bucket counts).
    pub const HEAP_BYTES: usize = BUCKETS * std::mem::size_of::<u32>();

    /// An empty histogram.
    pub fn new() -> Self {
        DelayHistogram { counts: vec![0u32; BUCKETS].into_boxed_slice(), count: 0, sum_ns: 0, min_ns: u64::MAX, max_ns: 0 }
    }

    /// Records one delay.
    #[inline]
    pub fn record(&mut self, d: SimDuration) {
        let ns = d.0 / 1000;
        let b = bucket_of(ns).min(BUCKETS - 1);
        self.counts[b] = self.counts[b].saturating_add(1);
        self.count += 1;
        self.sum_ns += ns as u128;
        self.min_ns = self.min_ns.min(ns);
        self.max_ns = self.max_ns.max(ns);
    }

    /// Forgets every sample (at the end of the warm-up).
    pub fn clear(&mut self) {
        self.counts.iter_mut().for_each(|c| *c = 0);
        self.count = 0;
        self.sum_ns = 0;
        self.min_ns = u64::MAX;
        self.max_ns = 0;
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
            self.min_ns as f64 / 1e6
        }
    }

    /// The `q`-quantile (0 ≤ q ≤ 1) in milliseconds, within 0.8 % (NaN when empty).
    pub fn quantile_ms(&self, q: f64) -> f64 {
        if self.count == 0 {
            return f64::NAN;
        }
        let rank = ((q.clamp(0.0, 1.0) * self.count as f64).ceil() as u64).max(1);
        let mut seen = 0u64;
        for (b, &c) in self.counts.iter().enumerate() {
            seen += c as u64;
            if seen >= rank {
                let v = bucket_mid_ns(b).clamp(self.min_ns as f64, self.max_ns as f64);
                return v / 1e6;
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
