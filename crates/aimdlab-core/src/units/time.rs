//! Simulated time: an integer count of picoseconds (as in htsim's `simtime_picosec`).
//!
//! No floats are used for time inside the engine, so a link's busy-until time never drifts
//! from rounding. A `u64` of picoseconds covers about 213 days of simulated time.

use std::fmt;
use std::ops::{Add, AddAssign, Sub};

/// Picoseconds in one second.
pub const PS_PER_SEC: u64 = 1_000_000_000_000;

/// A point in simulated time, in picoseconds since the start of the run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SimTime(pub u64);

/// A span of simulated time, in picoseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SimDuration(pub u64);

impl SimTime {
    /// The start of every run.
    pub const ZERO: SimTime = SimTime(0);
    /// Later than any event of a run.
    pub const MAX: SimTime = SimTime(u64::MAX);

    /// The instant `ms` milliseconds after the start of the run.
    pub const fn from_millis(ms: u64) -> Self {
        SimTime(SimDuration::from_millis(ms).0)
    }

    /// This time in seconds (for reporting only).
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / PS_PER_SEC as f64
    }

    /// The span from `earlier` to `self`, zero if `earlier` is later.
    pub fn saturating_since(self, earlier: SimTime) -> SimDuration {
        SimDuration(self.0.saturating_sub(earlier.0))
    }
}

impl SimDuration {
    /// No time at all.
    pub const ZERO: SimDuration = SimDuration(0);

    /// A duration of `ps` picoseconds.
    pub const fn from_ps(ps: u64) -> Self {
        SimDuration(ps)
    }
    /// A duration of `us` microseconds.
    pub const fn from_micros(us: u64) -> Self {
        SimDuration(us * 1_000_000)
    }
    /// A duration of `ms` milliseconds.
    pub const fn from_millis(ms: u64) -> Self {
        SimDuration(ms * 1_000_000_000)
    }
    /// A duration of `s` seconds.
    pub const fn from_secs(s: u64) -> Self {
        SimDuration(s * PS_PER_SEC)
    }
    /// A duration from seconds as a float, rounded to the nearest picosecond (negative → 0).
    pub fn from_secs_f64(s: f64) -> Self {
        if s <= 0.0 || s.is_nan() {
            SimDuration(0)
        } else if s * PS_PER_SEC as f64 >= u64::MAX as f64 {
            SimDuration(u64::MAX)
        } else {
            SimDuration((s * PS_PER_SEC as f64).round() as u64)
        }
    }
    /// This duration in seconds.
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / PS_PER_SEC as f64
    }
    /// This duration in milliseconds.
    pub fn as_millis_f64(self) -> f64 {
        self.0 as f64 / 1e9
    }
    /// Multiplies by an integer, saturating at the largest duration.
    pub fn saturating_mul(self, k: u64) -> SimDuration {
        SimDuration(self.0.saturating_mul(k))
    }
}

impl Add<SimDuration> for SimTime {
    type Output = SimTime;
    fn add(self, d: SimDuration) -> SimTime {
        SimTime(self.0.saturating_add(d.0))
    }
}
impl AddAssign<SimDuration> for SimTime {
    fn add_assign(&mut self, d: SimDuration) {
        self.0 = self.0.saturating_add(d.0);
    }
}
impl Add for SimDuration {
    type Output = SimDuration;
    fn add(self, d: SimDuration) -> SimDuration {
        SimDuration(self.0.saturating_add(d.0))
    }
}
impl Sub for SimDuration {
    type Output = SimDuration;
    fn sub(self, d: SimDuration) -> SimDuration {
        SimDuration(self.0.saturating_sub(d.0))
    }
}

/// Writes `ps` picoseconds in the largest unit that keeps it exact (`30ms`, `1.5s`, `250us`).
fn write_ps(f: &mut fmt::Formatter<'_>, ps: u64) -> fmt::Result {
    const UNITS: [(u64, &str); 5] = [(PS_PER_SEC, "s"), (1_000_000_000, "ms"), (1_000_000, "us"), (1_000, "ns"), (1, "ps")];
    if ps == 0 {
        return write!(f, "0s");
    }
    for (scale, unit) in UNITS {
        if ps >= scale {
            // Up to 3 decimals, trailing zeros trimmed; exact for typical configuration values.
            let whole = ps / scale;
            let frac = (ps % scale) as f64 / scale as f64;
            if frac == 0.0 {
                return write!(f, "{whole}{unit}");
            }
            let s = format!("{:.3}", whole as f64 + frac);
            return write!(f, "{}{unit}", s.trim_end_matches('0').trim_end_matches('.'));
        }
    }
    write!(f, "{ps}ps")
}

impl fmt::Display for SimTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_ps(f, self.0)
    }
}
impl fmt::Display for SimDuration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_ps(f, self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_arithmetic_is_exact_in_picoseconds() {
        let t = SimTime::ZERO + SimDuration::from_millis(30) + SimDuration::from_micros(1);
        assert_eq!(t.0, 30_001_000_000);
        assert_eq!(t.saturating_since(SimTime(1)).0, 30_000_999_999);
        assert_eq!(SimTime(5).saturating_since(SimTime(9)), SimDuration::ZERO);
    }

    #[test]
    fn display_uses_the_largest_exact_unit() {
        assert_eq!(SimDuration::from_millis(30).to_string(), "30ms");
        assert_eq!(SimDuration::from_millis(1500).to_string(), "1.5s");
        assert_eq!(SimDuration::from_secs(200).to_string(), "200s");
        assert_eq!(SimDuration::ZERO.to_string(), "0s");
    }

    #[test]
    fn float_seconds_round_to_nearest_picosecond() {
        assert_eq!(SimDuration::from_secs_f64(0.03).0, 30_000_000_000);
        assert_eq!(SimDuration::from_secs_f64(-1.0).0, 0);
    }
}
