//! A log-linear histogram of durations (HDR-histogram style) for delay percentiles without
//! storing samples: values below 128 ns are exact, larger ones fall in buckets 1/128 of an
//! octave wide (relative error ≤ 0.8 %). Buckets live in chunks of one octave (128 counters,
//! 512 bytes), allocated the first time a sample falls in that octave; zero delays (an idle
//! queue) are counted inline, so a histogram that only ever sees zeros allocates nothing.

use crate::units::SimDuration;

const MANTISSA_BITS: u32 = 7;
const SUB: u64 = 1 << MANTISSA_BITS;
const MAX_EXP: u32 = 50; // 2^50 ns ≈ 13 days
const BUCKETS: usize = ((MAX_EXP - MANTISSA_BITS + 2) as u64 * SUB) as usize;
/// Buckets per chunk: one octave.
const CHUNK: usize = SUB as usize;
/// Chunks covering every bucket.
const CHUNKS: usize = BUCKETS / CHUNK;

/// Distribution of a delay (count, mean, min, max, quantiles).
#[derive(Clone, Default)]
pub struct DelayHistogram {
    /// Empty until the first non-zero sample, then one slot per octave.
    chunks: Vec<Option<Box<[u32; CHUNK]>>>,
    zeros: u64,
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

impl DelayHistogram {
    /// Heap bytes of one chunk of counters (an octave of buckets).
    pub const CHUNK_BYTES: usize = CHUNK * std::mem::size_of::<u32>();
    /// Heap bytes of the chunk index, allocated with the first non-zero sample.
    pub const INDEX_BYTES: usize = CHUNKS * std::mem::size_of::<Option<Box<[u32; CHUNK]>>>();

    /// An empty histogram (allocates nothing).
    pub fn new() -> Self {
        DelayHistogram { min_ns: u64::MAX, ..Default::default() }
    }

    /// Records one delay.
    #[inline]
    pub fn record(&mut self, d: SimDuration) {
        let ns = d.0 / 1000;
        self.count += 1;
        self.sum_ns += ns as u128;
        self.min_ns = self.min_ns.min(ns);
        self.max_ns = self.max_ns.max(ns);
        if ns == 0 {
            self.zeros += 1;
            return;
        }
        let b = bucket_of(ns).min(BUCKETS - 1);
        if self.chunks.is_empty() {
            self.chunks.resize_with(CHUNKS, || None);
        }
        let chunk = self.chunks[b / CHUNK].get_or_insert_with(|| Box::new([0; CHUNK]));
        chunk[b % CHUNK] = chunk[b % CHUNK].saturating_add(1);
    }

    /// Forgets every sample (at the end of the warm-up).
    pub fn clear(&mut self) {
        self.chunks.iter_mut().flatten().for_each(|c| c.fill(0));
        self.zeros = 0;
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
        let at = |b: usize| bucket_mid_ns(b).clamp(self.min_ns as f64, self.max_ns as f64) / 1e6;
        let mut seen = self.zeros;
        if seen >= rank {
            return at(0);
        }
        for (c, chunk) in self.chunks.iter().enumerate() {
            let Some(chunk) = chunk else { continue };
            for (i, &n) in chunk.iter().enumerate() {
                seen += n as u64;
                if seen >= rank {
                    return at(c * CHUNK + i);
                }
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
    fn zeros_allocate_nothing_and_octaves_allocate_one_chunk_each() {
        let mut h = DelayHistogram::new();
        for _ in 0..1000 {
            h.record(SimDuration::ZERO);
        }
        assert!(h.chunks.is_empty());
        assert_eq!(h.quantile_ms(0.99), 0.0);
        h.record(SimDuration::from_micros(3)); // 3000 ns: one octave
        h.record(SimDuration::from_micros(3) + SimDuration(500_000));
        assert_eq!(h.chunks.iter().flatten().count(), 1);
        assert_eq!(h.quantile_ms(0.5), 0.0);
        assert!((h.quantile_ms(1.0) - 0.0035).abs() < 0.0035 * 0.008);
        h.clear();
        assert_eq!(h.count(), 0);
        assert!(h.quantile_ms(0.5).is_nan());
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
