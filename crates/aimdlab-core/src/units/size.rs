//! Data sizes and link rates as integers, with the only arithmetic that means something:
//! `Rate × SimDuration → Bytes` and `Bytes ÷ Rate → SimDuration` (serialization time).

use super::time::{SimDuration, PS_PER_SEC};
use std::ops::{Add, AddAssign};

/// A number of bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Bytes(pub u64);

/// A link or sending rate in bits per second.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rate {
    /// Bits per second.
    pub bps: u64,
}

impl Bytes {
    /// The number of bits in this many bytes.
    pub fn bits(self) -> u64 {
        self.0 * 8
    }
}

impl Add for Bytes {
    type Output = Bytes;
    fn add(self, o: Bytes) -> Bytes {
        Bytes(self.0 + o.0)
    }
}
impl AddAssign for Bytes {
    fn add_assign(&mut self, o: Bytes) {
        self.0 += o.0;
    }
}

impl Rate {
    /// A rate of `bps` bits per second.
    pub const fn from_bps(bps: u64) -> Self {
        Rate { bps }
    }

    /// Time to put `size` on the wire at this rate, rounded down to the picosecond.
    ///
    /// Exact for any packet size and rate: in 64-bit integers while `size` × 8 × 10^12 fits
    /// (up to 2.3 MB, so every packet), in 128-bit ones beyond.
    #[inline]
    pub fn serialization_time(self, size: Bytes) -> SimDuration {
        debug_assert!(self.bps > 0);
        if let Some(bit_ps) = size.0.checked_mul(8 * PS_PER_SEC) {
            return SimDuration(bit_ps / self.bps);
        }
        let ps = (size.0 as u128 * 8 * PS_PER_SEC as u128) / self.bps as u128;
        SimDuration(ps.min(u64::MAX as u128) as u64)
    }

    /// How many bytes this rate carries in `d` (rounded down).
    pub fn bytes_in(self, d: SimDuration) -> Bytes {
        let bits = (self.bps as u128 * d.0 as u128) / PS_PER_SEC as u128;
        Bytes((bits / 8).min(u64::MAX as u128) as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serialization_of_1500_bytes_at_100_gbps_is_exact() {
        let t = Rate::from_bps(100_000_000_000).serialization_time(Bytes(1500));
        assert_eq!(t.0, 120_000); // 120 ns
    }

    #[test]
    fn the_64_bit_path_agrees_with_the_128_bit_one() {
        let exact = |size: u64, bps: u64| ((size as u128 * 8 * PS_PER_SEC as u128) / bps as u128).min(u64::MAX as u128) as u64;
        for size in [0, 1, 40, 1040, 1500, 65_000, 2_305_843, 2_305_844, 10_000_000, u64::MAX] {
            for bps in [1, 7, 5_000_000, 48_000_000, 1_000_000_007, 100_000_000_000, u64::MAX] {
                assert_eq!(Rate::from_bps(bps).serialization_time(Bytes(size)).0, exact(size, bps), "{size} B at {bps} bps");
            }
        }
    }

    #[test]
    fn bytes_in_a_second_at_5_mbps() {
        assert_eq!(Rate::from_bps(5_000_000).bytes_in(SimDuration::from_secs(1)), Bytes(625_000));
    }
}
