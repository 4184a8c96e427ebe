//! Serde for unit-typed fields as scenario files write them — a size as `"1460B"`, a duration
//! as `"30ms"` (the largest exact unit) — and for an unbounded count as null: how a resolved
//! settings struct (`TcpConfig`) is laid out as a map that a scenario's table overlays.

/// A `Bytes` field as `"<n>B"`.
pub mod bytes {
    use crate::units::parse::parse_bytes;
    use crate::units::Bytes;
    use serde::{de::Error, Deserialize, Deserializer, Serializer};

    /// Writes `b` as `"<n>B"`.
    pub fn serialize<S: Serializer>(b: &Bytes, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format!("{}B", b.0))
    }

    /// Reads a size with a unit.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Bytes, D::Error> {
        parse_bytes(&String::deserialize(d)?).map_err(D::Error::custom)
    }
}

/// A `SimDuration` field in its largest exact unit (`"30ms"`, `"1.5s"`).
pub mod duration {
    use crate::units::parse::parse_duration;
    use crate::units::SimDuration;
    use serde::{de::Error, Deserialize, Deserializer, Serializer};

    /// Writes `d` in the largest exact unit.
    pub fn serialize<S: Serializer>(d: &SimDuration, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&d.to_string())
    }

    /// Reads a duration with a unit.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<SimDuration, D::Error> {
        parse_duration(&String::deserialize(d)?).map_err(D::Error::custom)
    }
}

/// A count of packets where infinity means unbounded, as null.
pub mod unbounded {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    /// Writes infinity as null, anything else as the number.
    pub fn serialize<S: Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
        (if x.is_finite() { Some(*x) } else { None }).serialize(s)
    }

    /// Reads null as infinity.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        Option::<f64>::deserialize(d).map(|x| x.unwrap_or(f64::INFINITY))
    }
}

/// A window in packets (`"100pkt"`) or bytes (`"64KB"`).
pub mod packets_or_bytes {
    use crate::units::parse::{parse_packets_or_bytes, PacketsOrBytes};
    use serde::{de::Error, Deserialize, Deserializer, Serializer};

    /// Writes `"<n>pkt"` or `"<n>B"`.
    pub fn serialize<S: Serializer>(w: &PacketsOrBytes, s: S) -> Result<S::Ok, S::Error> {
        match w {
            PacketsOrBytes::Packets(n) => s.serialize_str(&format!("{n}pkt")),
            PacketsOrBytes::Bytes(b) => s.serialize_str(&format!("{}B", b.0)),
        }
    }

    /// Reads packets or bytes.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<PacketsOrBytes, D::Error> {
        parse_packets_or_bytes(&String::deserialize(d)?).map_err(D::Error::custom)
    }
}
