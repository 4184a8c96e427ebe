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
    /// Computed in 128-bit integers so it is exact for any packet size and rate.
    pub fn serialization_time(self, size: Bytes) -> SimDuration {
        debug_assert!(self.bps > 0);
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
    fn bytes_in_a_second_at_5_mbps() {
        assert_eq!(Rate::from_bps(5_000_000).bytes_in(SimDuration::from_secs(1)), Bytes(625_000));
    }
}
