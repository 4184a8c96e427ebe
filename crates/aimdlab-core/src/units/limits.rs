//! Limits every scenario obeys so simulated time always advances, and the rate text used in
//! the messages about them.

use super::SimDuration;

/// Shortest timer a scenario may set (RTO bounds, delayed-ACK timeout, ON/OFF means): every
/// timer must move the simulated clock.
pub const MIN_TIMER: SimDuration = SimDuration(1_000_000); // 1 µs

/// Shortest gap between two packets of a rate-driven source (1 ns: 1500 bytes at 12 Tbps).
pub const MIN_SOURCE_GAP: SimDuration = SimDuration(1_000);

/// A rate in the scenario units, e.g. `8Gbps`, `1000Tbps`.
pub fn fmt_rate(bps: f64) -> String {
    let (v, unit) =
        [(1e12, "Tbps"), (1e9, "Gbps"), (1e6, "Mbps"), (1e3, "Kbps")].into_iter().find(|&(m, _)| bps >= m).map_or((bps, "bps"), |(m, u)| (bps / m, u));
    let s = format!("{v:.3}");
    format!("{}{unit}", s.trim_end_matches('0').trim_end_matches('.'))
}
