//! A calendar queue: a monotone priority queue of distinct `u128` keys whose high 64 bits are a
//! time (R. Brown, "Calendar queues: a fast O(1) priority queue implementation for the
//! simulation event set problem", CACM 31(10), 1988), in the fixed-width form with a bitmap.
//!
//! Time is cut into days of `2^DAY_BITS` picoseconds; a year of `DAYS` days starting at the
//! day of the last key popped is kept in one bucket per day (an unsorted vector), and keys
//! beyond the year wait in a binary heap until the year reaches them. The day being served
//! is sorted once when it is reached; a key pushed into it is inserted in order. A bitmap of
//! non-empty days finds the next one in a few word scans. An event set whose keys spread over
//! many days holds a few keys per day, so a push is a vector push and a pop a vector pop,
//! instead of a binary heap's `log n` unpredictable comparisons and moves.
//!
//! Monotone: no key pushed may be below the last key popped, as in a discrete-event simulator.
//! Buckets keep their allocation, so once warm the queue allocates nothing.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Width of a day: 2^27 ps, about 134 µs — a few events at the rates the engine runs (chosen
/// on the benchmarks: `docs/explanation/benchmarks.md`, "Choices kept for speed").
pub const DAY_BITS: u32 = 27;
/// Days in a year: 2^10, so a year covers about 137 ms — most propagation delays and
/// round-trip times; later keys wait in the overflow heap. The 1,024 bucket headers (24 KB)
/// stay in the L1 cache (the figures: `docs/explanation/benchmarks.md`).
pub const DAYS: usize = 1 << 10;

/// A min-queue of distinct `u128` keys (time in the high 64 bits), pushed in monotone order.
pub struct CalendarQueue {
    /// Day `d mod DAYS` of the year: its keys, unsorted (the day being served is in `today`).
    days: Vec<Vec<u128>>,
    /// Bit `i` of word `i / 64` set when day slot `i` holds keys.
    occupied: Vec<u64>,
    /// The day being served (absolute day number) and its keys, sorted descending.
    today: u64,
    today_keys: Vec<u128>,
    /// Keys beyond the year (absolute day ≥ today + DAYS).
    overflow: BinaryHeap<Reverse<u128>>,
    /// The day of the first overflow key (`u64::MAX` when there is none), so that a new day
    /// need not look into the heap until the year reaches it.
    overflow_day: u64,
    /// Keys held in `days` (not counting `today_keys` and `overflow`).
    in_days: usize,
    /// The last key popped.
    last: u128,
}

impl Default for CalendarQueue {
    fn default() -> Self {
        Self::new()
    }
}

#[inline]
fn day_of(key: u128) -> u64 {
    ((key >> 64) as u64) >> DAY_BITS
}

impl CalendarQueue {
    /// An empty queue (its buckets grow on demand).
    pub fn new() -> Self {
        CalendarQueue {
            days: (0..DAYS).map(|_| Vec::new()).collect(),
            occupied: vec![0; DAYS / 64],
            today: 0,
            today_keys: Vec::new(),
            overflow: BinaryHeap::new(),
            overflow_day: u64::MAX,
            in_days: 0,
            last: 0,
        }
    }

    /// Adds `key`. Panics if `key` is below the last key popped (the queue would lose its
    /// order); the simulator turns a panic into an engine error.
    #[inline]
    pub fn push(&mut self, key: u128) {
        assert!(key >= self.last, "a key below the last one popped (an event in the past)");
        let day = day_of(key);
        if day == self.today {
            // Descending order: the smallest key at the end, where `pop` takes it.
            let at = self.today_keys.partition_point(|&k| k > key);
            self.today_keys.insert(at, key);
        } else if day < self.today + DAYS as u64 {
            self.put_in_day(day, key);
        } else {
            self.overflow.push(Reverse(key));
            self.overflow_day = self.overflow_day.min(day);
        }
    }

    #[inline]
    fn put_in_day(&mut self, day: u64, key: u128) {
        let slot = day as usize & (DAYS - 1);
        self.days[slot].push(key);
        self.occupied[slot / 64] |= 1 << (slot % 64);
        self.in_days += 1;
    }

    /// Removes and returns the smallest key.
    #[inline]
    pub fn pop(&mut self) -> Option<u128> {
        if self.today_keys.is_empty() && !self.advance() {
            return None;
        }
        let key = self.today_keys.pop();
        if let Some(k) = key {
            self.last = k;
        }
        key
    }

    /// Makes the next day with keys today; false when no key is held.
    #[inline(never)]
    fn advance(&mut self) -> bool {
        if self.in_days == 0 {
            // Nothing within the year: jump to the first overflow key's day.
            let Some(&Reverse(first)) = self.overflow.peek() else { return false };
            self.today = day_of(first);
            self.pull_overflow();
            // The heap gives today's keys in ascending order; `pop` takes from the end.
            self.today_keys.reverse();
            return true;
        }
        let next = self.next_occupied_day();
        self.today = next;
        let slot = next as usize & (DAYS - 1);
        self.occupied[slot / 64] &= !(1 << (slot % 64));
        std::mem::swap(&mut self.today_keys, &mut self.days[slot]);
        self.in_days -= self.today_keys.len();
        self.pull_overflow();
        self.today_keys.sort_unstable_by(|a, b| b.cmp(a));
        true
    }

    /// Moves the overflow keys the year now reaches into their days (today's into today).
    #[inline]
    fn pull_overflow(&mut self) {
        if self.overflow_day < self.today + DAYS as u64 {
            self.pull_overflow_keys();
        }
    }

    /// `pull_overflow` once the year reaches the first overflow key.
    #[inline(never)]
    fn pull_overflow_keys(&mut self) {
        let end = self.today + DAYS as u64;
        while let Some(&Reverse(k)) = self.overflow.peek() {
            let day = day_of(k);
            if day >= end {
                self.overflow_day = day;
                return;
            }
            self.overflow.pop();
            if day == self.today {
                self.today_keys.push(k);
            } else {
                self.put_in_day(day, k);
            }
        }
        self.overflow_day = u64::MAX;
    }

    /// The first occupied day after today (within the year), by its bitmap.
    #[inline]
    fn next_occupied_day(&self) -> u64 {
        let start = (self.today as usize + 1) & (DAYS - 1);
        let words = DAYS / 64;
        let (mut w, bit) = (start / 64, start % 64);
        let mut word = self.occupied[w] & (!0u64 << bit);
        let mut scanned = 0;
        while word == 0 {
            w = (w + 1) % words;
            word = self.occupied[w];
            scanned += 1;
            debug_assert!(scanned <= words, "in_days > 0 but no day is marked");
        }
        let slot = w * 64 + word.trailing_zeros() as usize;
        // Days ahead of today, around the year.
        let ahead = (slot + DAYS - (self.today as usize & (DAYS - 1))) & (DAYS - 1);
        self.today + ahead as u64
    }

    /// Number of keys held.
    pub fn len(&self) -> usize {
        self.today_keys.len() + self.in_days + self.overflow.len()
    }

    /// Whether no key is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn pops_in_the_order_of_a_binary_heap_under_monotone_pushes() {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(11);
        let mut cal = CalendarQueue::new();
        let mut reference = BinaryHeap::new();
        let mut seq = 0u128;
        let mut now = 0u128;
        for _ in 0..400_000 {
            if rng.gen_bool(0.52) || reference.is_empty() {
                // Ties, the same day, the next days, within the year, past it, far past it.
                let ahead: u64 = match rng.gen_range(0..6) {
                    0 => 0,
                    1 => rng.gen_range(0..1 << DAY_BITS),
                    2 => rng.gen_range(0..8 << DAY_BITS),
                    3 => rng.gen_range(0..(DAYS as u64) << DAY_BITS),
                    4 => rng.gen_range(0..(4 * DAYS as u64) << DAY_BITS),
                    _ => rng.gen_range(0..u64::MAX / 4),
                };
                let time = ((now >> 64) as u64).saturating_add(ahead);
                let key = ((time as u128) << 64) | seq;
                seq += 1;
                cal.push(key);
                reference.push(Reverse(key));
            } else {
                let got = cal.pop();
                assert_eq!(got, reference.pop().map(|r| r.0));
                now = got.unwrap();
            }
            assert_eq!(cal.len(), reference.len());
        }
        while let Some(Reverse(k)) = reference.pop() {
            assert_eq!(cal.pop(), Some(k));
        }
        assert!(cal.is_empty() && cal.pop().is_none());
    }

    #[test]
    fn a_key_a_year_ahead_waits_and_comes_out_in_order() {
        let year = (DAYS as u128) << DAY_BITS << 64;
        let mut cal = CalendarQueue::new();
        cal.push(3 * year + 5);
        cal.push(7);
        cal.push(year + 1);
        assert_eq!(cal.pop(), Some(7));
        assert_eq!(cal.pop(), Some(year + 1));
        cal.push(year + 2); // the same day as the last key popped: inserted in order
        assert_eq!(cal.pop(), Some(year + 2));
        assert_eq!(cal.pop(), Some(3 * year + 5));
        assert_eq!(cal.pop(), None);
    }

    #[test]
    #[should_panic(expected = "below the last one popped")]
    fn a_key_in_the_past_is_refused() {
        let mut q = CalendarQueue::new();
        q.push(10);
        q.push(20);
        assert_eq!(q.pop(), Some(10));
        q.push(5);
    }
}
