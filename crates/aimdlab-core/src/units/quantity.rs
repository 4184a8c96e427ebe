//! Scenario-file quantities: strings with units (`"5Mbps"`, `"30ms"`, `"100pkt"`, `"1460B"`)
//! parsed once at load time into the engine's integer units.

use crate::units::parse::{parse_bytes, parse_duration, parse_packets_or_bytes, parse_rate, PacketsOrBytes};
use crate::units::{Bytes, Rate, SimDuration};
use schemars::gen::SchemaGenerator;
use schemars::schema::{InstanceType, Metadata, Schema, SchemaObject, StringValidation};
use schemars::JsonSchema;
use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use std::fmt;

fn string_schema(description: &str, pattern: &str, example: &str) -> Schema {
    SchemaObject {
        instance_type: Some(InstanceType::String.into()),
        string: Some(Box::new(StringValidation { pattern: Some(pattern.into()), ..Default::default() })),
        metadata: Some(Box::new(Metadata {
            description: Some(description.into()),
            examples: vec![serde_json::Value::String(example.into())],
            ..Default::default()
        })),
        ..Default::default()
    }
    .into()
}

/// Deserializes a unit string with `parse`, turning its message into a serde error.
struct UnitVisitor<T> {
    expecting: &'static str,
    parse: fn(&str) -> Result<T, String>,
}

impl<'de, T> Visitor<'de> for UnitVisitor<T> {
    type Value = T;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.expecting)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
        (self.parse)(v).map_err(E::custom)
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<T, E> {
        Err(E::custom(format!("{v} has no unit; expected {}", self.expecting)))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<T, E> {
        Err(E::custom(format!("{v} has no unit; expected {}", self.expecting)))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<T, E> {
        Err(E::custom(format!("{v} has no unit; expected {}", self.expecting)))
    }
}

macro_rules! unit_string {
    ($(#[$doc:meta])* $name:ident($inner:ty), $parse:expr, $show:expr, $expecting:expr, $pattern:expr, $example:expr) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub struct $name(pub $inner);

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                d.deserialize_any(UnitVisitor { expecting: $expecting, parse: $parse }).map($name)
            }
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let show: fn(&$inner) -> String = $show;
                s.serialize_str(&show(&self.0))
            }
        }

        impl JsonSchema for $name {
            fn schema_name() -> String {
                stringify!($name).into()
            }
            fn json_schema(_: &mut SchemaGenerator) -> Schema {
                string_schema($expecting, $pattern, $example)
            }
        }
    };
}

unit_string!(
    /// A duration such as `"30ms"` (units s, ms, us, ns, ps).
    Duration(SimDuration),
    parse_duration,
    |d| d.to_string(),
    "a duration such as \"30ms\" (units: s, ms, us, ns, ps)",
    r"^[0-9]+(\.[0-9]+)? ?(s|sec|ms|us|µs|ns|ps)$",
    "30ms"
);
unit_string!(
    /// A rate such as `"5Mbps"` (units bps, Kbps, Mbps, Gbps, Tbps).
    LinkRate(Rate),
    parse_rate,
    |r| {
        // The largest unit that divides the rate exactly (so it reads back the same).
        let (m, unit) = [(1_000_000_000_000, "Tbps"), (1_000_000_000, "Gbps"), (1_000_000, "Mbps"), (1_000, "Kbps")]
            .into_iter()
            .find(|&(m, _)| r.bps >= m && r.bps % m == 0)
            .unwrap_or((1, "bps"));
        format!("{}{unit}", r.bps / m)
    },
    "a rate such as \"5Mbps\" (units: bps, Kbps, Mbps, Gbps, Tbps)",
    r"^[0-9]+(\.[0-9]+)? ?(bps|[kK]bps|Mbps|Gbps|Tbps)$",
    "5Mbps"
);
unit_string!(
    /// A size in bytes such as `"1460B"` or `"20000KB"`.
    Size(Bytes),
    parse_bytes,
    |b| format!("{}B", b.0),
    "a size such as \"1460B\" (units: B, KB, MB, GB, KiB, MiB, GiB)",
    r"^[0-9]+(\.[0-9]+)? ?(B|[kK]B|MB|GB|KiB|MiB|GiB)$",
    "1460B"
);
unit_string!(
    /// A buffer or window size in packets (`"100pkt"`) or bytes (`"150KB"`).
    BufferSize(PacketsOrBytes),
    parse_packets_or_bytes,
    |l| match l {
        PacketsOrBytes::Packets(n) => format!("{n}pkt"),
        PacketsOrBytes::Bytes(b) => format!("{}B", b.0),
    },
    "packets such as \"100pkt\" or bytes such as \"150KB\"",
    r"^[0-9]+(\.[0-9]+)? ?(pkt|pkts|packets|B|[kK]B|MB|GB|KiB|MiB|GiB)$",
    "100pkt"
);
