//! Parsing of the human-readable quantities used in scenario files.
//!
//! Every function returns a message that names the bad value and what is accepted, for the
//! scenario loader to prefix with the field path (`flows[2].start: "-1s" is negative; ...`).

use super::size::{Bytes, Rate};
use super::time::{SimDuration, PS_PER_SEC};

/// A buffer or window size: either a count of packets or a number of bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PacketsOrBytes {
    /// A limit in packets (`"100pkt"`).
    Packets(u64),
    /// A limit in bytes (`"150KB"`).
    Bytes(Bytes),
}

/// Splits `"12.5ms"` into `(12.5, "ms")`. The grammar is strict: an optional `-`, digits,
/// optionally `.` and more digits, at most one ASCII space, then the unit; nothing before or
/// after. So `"5.s"`, `".5s"`, `"1e3ms"`, `" 5s"` and `"5\u{a0}s"` are not quantities.
pub fn split_number_unit(s: &str) -> Option<(f64, &str)> {
    let bytes = s.as_bytes();
    let mut i = usize::from(bytes.first() == Some(&b'-'));
    let int_start = i;
    while i < bytes.len() && bytes[i].is_ascii_digit() {
        i += 1;
    }
    if i == int_start {
        return None;
    }
    if i < bytes.len() && bytes[i] == b'.' {
        let frac_start = i + 1;
        i = frac_start;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        if i == frac_start {
            return None;
        }
    }
    let (num, rest) = s.split_at(i);
    let unit = rest.strip_prefix(' ').unwrap_or(rest);
    if unit.starts_with(' ') || unit.ends_with(char::is_whitespace) {
        return None;
    }
    let value: f64 = num.parse().ok()?;
    value.is_finite().then_some((value, unit))
}

/// Longest duration a scenario may give: 100 days, in picoseconds (a `u64` of picoseconds
/// holds about 213 days, so sums of two such durations cannot overflow).
pub const MAX_DURATION_PS: u64 = 100 * 86_400 * PS_PER_SEC;

const DURATION_HELP: &str = "expected a duration ≥ 0 such as \"30ms\" (units: s, ms, us, ns, ps)";

/// Parses a duration such as `"30ms"`, `"1.5s"` or `"250us"`.
pub fn parse_duration(s: &str) -> Result<SimDuration, String> {
    let Some((value, unit)) = split_number_unit(s) else {
        return Err(format!("{s:?} is not a duration; {DURATION_HELP}"));
    };
    let ps_per_unit: f64 = match unit {
        "s" | "sec" => PS_PER_SEC as f64,
        "ms" => 1e9,
        "us" | "µs" => 1e6,
        "ns" => 1e3,
        "ps" => 1.0,
        "" => return Err(format!("{s:?} has no unit; {DURATION_HELP}")),
        _ => return Err(format!("{s:?} has an unknown unit {unit:?}; {DURATION_HELP}")),
    };
    if value < 0.0 {
        return Err(format!("{s:?} is negative; expected a duration ≥ 0"));
    }
    let ps = value * ps_per_unit;
    if ps > MAX_DURATION_PS as f64 {
        return Err(format!("{s:?} is too long; expected a duration of at most 100 days"));
    }
    Ok(SimDuration(ps.round() as u64))
}

const RATE_HELP: &str = "expected a rate > 0 such as \"5Mbps\" (units: bps, Kbps, Mbps, Gbps, Tbps)";

/// Parses a rate such as `"5Mbps"`, `"1.5Gbps"` or `"64Kbps"` into bits per second.
pub fn parse_rate(s: &str) -> Result<Rate, String> {
    let Some((value, unit)) = split_number_unit(s) else {
        return Err(format!("{s:?} is not a rate; {RATE_HELP}"));
    };
    let mult: f64 = match unit {
        "bps" => 1.0,
        "Kbps" | "kbps" => 1e3,
        "Mbps" => 1e6,
        "Gbps" => 1e9,
        "Tbps" => 1e12,
        "" => return Err(format!("{s:?} has no unit; {RATE_HELP}")),
        _ => return Err(format!("{s:?} has an unknown unit {unit:?}; {RATE_HELP}")),
    };
    let bps = (value * mult).round();
    if bps < 1.0 {
        return Err(format!("{s:?} is not positive; {RATE_HELP}"));
    }
    if bps > 1e15 {
        return Err(format!("{s:?} is too fast; expected a rate up to 1000Tbps"));
    }
    Ok(Rate::from_bps(bps as u64))
}

const SIZE_HELP: &str = "expected a size such as \"1460B\", \"64KB\" or \"4MiB\" (units: B, KB, MB, GB, KiB, MiB, GiB)";

fn byte_multiplier(unit: &str) -> Option<f64> {
    Some(match unit {
        "B" => 1.0,
        "KB" | "kB" => 1e3,
        "MB" => 1e6,
        "GB" => 1e9,
        "KiB" => 1024.0,
        "MiB" => 1024.0 * 1024.0,
        "GiB" => 1024.0 * 1024.0 * 1024.0,
        _ => return None,
    })
}

/// Parses a size in bytes such as `"1460B"` or `"20000KB"`.
pub fn parse_bytes(s: &str) -> Result<Bytes, String> {
    let Some((value, unit)) = split_number_unit(s) else {
        return Err(format!("{s:?} is not a size; {SIZE_HELP}"));
    };
    if unit.is_empty() {
        return Err(format!("{s:?} has no unit; {SIZE_HELP}"));
    }
    let Some(mult) = byte_multiplier(unit) else {
        return Err(format!("{s:?} has an unknown unit {unit:?}; {SIZE_HELP}"));
    };
    if value < 0.0 {
        return Err(format!("{s:?} is negative; {SIZE_HELP}"));
    }
    let b = (value * mult).round();
    if b > 1e15 {
        return Err(format!("{s:?} is too large; expected at most 1PB"));
    }
    Ok(Bytes(b as u64))
}

/// Parses a buffer or window size: `"100pkt"` (packets) or a byte size such as `"150KB"`.
pub fn parse_packets_or_bytes(s: &str) -> Result<PacketsOrBytes, String> {
    if let Some((value, unit)) = split_number_unit(s) {
        if matches!(unit, "pkt" | "pkts" | "packets") {
            if value < 0.0 || value.fract() != 0.0 {
                return Err(format!("{s:?} is not a whole number of packets ≥ 0"));
            }
            return Ok(PacketsOrBytes::Packets(value as u64));
        }
    }
    parse_bytes(s).map(PacketsOrBytes::Bytes).map_err(|_| format!("{s:?} is not a size; expected packets such as \"100pkt\" or bytes such as \"150KB\""))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_in_every_unit() {
        assert_eq!(parse_duration("30ms").unwrap(), SimDuration::from_millis(30));
        assert_eq!(parse_duration("1.5s").unwrap(), SimDuration::from_millis(1500));
        assert_eq!(parse_duration("250us").unwrap(), SimDuration::from_micros(250));
        assert_eq!(parse_duration("0s").unwrap(), SimDuration::ZERO);
        assert_eq!(parse_duration("0.1s").unwrap(), SimDuration::from_millis(100));
    }

    #[test]
    fn bad_durations_say_what_is_accepted() {
        let e = parse_duration("-1s").unwrap_err();
        assert!(e.contains("\"-1s\" is negative"), "{e}");
        let e = parse_duration("30").unwrap_err();
        assert!(e.contains("no unit"), "{e}");
        let e = parse_duration("30 furlongs").unwrap_err();
        assert!(e.contains("unknown unit \"furlongs\""), "{e}");
        assert!(parse_duration("fast").is_err());
    }

    #[test]
    fn quantities_are_strict() {
        for bad in ["5.s", ".5s", "5\u{a0}s", " 5s", "5s ", "5  s", "1e3ms", "+5s", "5.5.5s", "--5s", "5s\n"] {
            assert!(parse_duration(bad).is_err(), "{bad:?} was accepted");
        }
        assert_eq!(parse_duration("5 s").unwrap(), SimDuration::from_secs(5));
        assert_eq!(parse_duration("2.5µs").unwrap(), SimDuration(2_500_000));
        assert!(parse_duration("-5s").unwrap_err().contains("negative"));
        assert!(parse_duration("100.1 days").is_err());
        let max = MAX_DURATION_PS / PS_PER_SEC;
        assert!(parse_duration(&format!("{max}s")).is_ok());
        assert!(parse_duration(&format!("{}s", max + 1)).unwrap_err().contains("at most 100 days"));
    }

    #[test]
    fn rates() {
        assert_eq!(parse_rate("5Mbps").unwrap().bps, 5_000_000);
        assert_eq!(parse_rate("1.5Gbps").unwrap().bps, 1_500_000_000);
        assert_eq!(parse_rate("64Kbps").unwrap().bps, 64_000);
        assert!(parse_rate("0Mbps").unwrap_err().contains("not positive"));
        assert!(parse_rate("5MBps").unwrap_err().contains("unknown unit"));
    }

    #[test]
    fn sizes_and_packet_counts() {
        assert_eq!(parse_bytes("1460B").unwrap(), Bytes(1460));
        assert_eq!(parse_bytes("20000KB").unwrap(), Bytes(20_000_000));
        assert_eq!(parse_bytes("4MiB").unwrap(), Bytes(4 * 1024 * 1024));
        assert_eq!(parse_packets_or_bytes("100pkt").unwrap(), PacketsOrBytes::Packets(100));
        assert_eq!(parse_packets_or_bytes("15KB").unwrap(), PacketsOrBytes::Bytes(Bytes(15000)));
        assert!(parse_packets_or_bytes("1.5pkt").is_err());
        assert!(parse_packets_or_bytes("100").is_err());
    }
}
