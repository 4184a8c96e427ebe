//! A radix heap: a monotone priority queue of distinct `u128` keys (Ahuja, Mehlhorn, Orlin
//! and Tarjan, "Faster algorithms for the shortest path problem", J. ACM 37(2), 1990; the
//! one-bucket-per-bit form).
//!
//! Monotone means no key pushed is smaller than the last key popped — true of a discrete-event
//! simulator, whose events are never scheduled in the past. Bucket `b` holds the keys whose
//! highest bit differing from the last popped key is bit `b − 1` (bucket 0: the key equal to
//! it). A pop takes the lowest non-empty bucket; if that is not bucket 0 it finds the
//! bucket's minimum, makes it the new last key and spreads the bucket over lower ones. A key
//! moves down at most 128 times in its life, and in practice a few: a pop costs a few
//! predictable loops instead of a binary heap's `log n` unpredictable comparisons.
//! Buckets keep their allocation, so once warm the heap allocates nothing.

/// A min-queue of distinct `u128` keys, pushed in monotone order.
pub struct RadixHeap {
    /// Bucket `b`: keys whose highest bit differing from `last` is bit `b − 1`.
    buckets: Vec<Vec<u128>>,
    /// Bit `b − 1` set when bucket `b` (1..=128) is non-empty.
    non_empty: u128,
    /// The last key popped (every key held is at least this).
    last: u128,
    len: usize,
}

impl Default for RadixHeap {
    fn default() -> Self {
        Self::new()
    }
}

impl RadixHeap {
    /// An empty heap (its buckets grow on demand).
    pub fn new() -> Self {
        RadixHeap { buckets: (0..=128).map(|_| Vec::new()).collect(), non_empty: 0, last: 0, len: 0 }
    }

    #[inline]
    fn bucket_of(&self, key: u128) -> usize {
        128 - (key ^ self.last).leading_zeros() as usize
    }

    /// Adds `key`. Panics if `key` is below the last key popped (the queue would lose its
    /// order); the simulator turns a panic into an engine error.
    #[inline]
    pub fn push(&mut self, key: u128) {
        assert!(key >= self.last, "a key below the last one popped (an event in the past)");
        let b = self.bucket_of(key);
        self.buckets[b].push(key);
        if b > 0 {
            self.non_empty |= 1 << (b - 1);
        }
        self.len += 1;
    }

    /// Removes and returns the smallest key.
    #[inline]
    pub fn pop(&mut self) -> Option<u128> {
        if self.buckets[0].is_empty() {
            if self.non_empty == 0 {
                return None;
            }
            let b = self.non_empty.trailing_zeros() as usize + 1;
            let mut keys = std::mem::take(&mut self.buckets[b]);
            self.non_empty &= !(1 << (b - 1));
            self.last = *keys.iter().min().expect("a bucket marked non-empty has keys");
            for &k in &keys {
                // Every key of bucket `b` agrees with the new `last` above bit b − 1, so it
                // lands in a lower bucket.
                let nb = self.bucket_of(k);
                self.buckets[nb].push(k);
                if nb > 0 {
                    self.non_empty |= 1 << (nb - 1);
                }
            }
            keys.clear();
            self.buckets[b] = keys;
        }
        self.len -= 1;
        self.buckets[0].pop()
    }

    /// Number of keys held.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no key is held.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use std::collections::BinaryHeap;

    #[test]
    fn pops_in_the_order_of_a_binary_heap_under_monotone_pushes() {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(7);
        let mut radix = RadixHeap::new();
        let mut reference = BinaryHeap::new();
        let mut seq = 0u128;
        let mut now = 0u128;
        for _ in 0..200_000 {
            if rng.gen_bool(0.52) || reference.is_empty() {
                // A time from now to far ahead (wide gaps and exact ties), made distinct by a sequence number.
                let ahead: u64 = match rng.gen_range(0..4) {
                    0 => 0,
                    1 => rng.gen_range(0..1_000),
                    2 => rng.gen_range(0..1_000_000_000),
                    _ => rng.gen(),
                };
                let time = ((now >> 64) as u64).saturating_add(ahead);
                let key = ((time as u128) << 64) | seq;
                seq += 1;
                radix.push(key);
                reference.push(std::cmp::Reverse(key));
            } else {
                let got = radix.pop();
                assert_eq!(got, reference.pop().map(|r| r.0));
                now = got.unwrap();
            }
            assert_eq!(radix.len(), reference.len());
        }
        while let Some(std::cmp::Reverse(k)) = reference.pop() {
            assert_eq!(radix.pop(), Some(k));
        }
        assert!(radix.is_empty() && radix.pop().is_none());
    }

    #[test]
    #[should_panic(expected = "below the last one popped")]
    fn a_key_in_the_past_is_refused() {
        let mut h = RadixHeap::new();
        h.push(10);
        h.push(20);
        assert_eq!(h.pop(), Some(10));
        h.push(5);
    }
}
