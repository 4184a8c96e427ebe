//! What each stack profile presets for each controller, as one table: the controller's own
//! parameters (`cc.*`) and the TCP settings its stack's implementation implies (`tcp.*`),
//! each with the source it follows. A field a scenario gives still overrides a preset (the
//! registry lays presets over the controller's defaults, then the given fields over them).
//!
//! The TCP presets are ns-3's: its CUBIC, HighSpeed, Scalable, BIC, Illinois and DCTCP count
//! acknowledged segments (`segmentsAcked` in `CongestionAvoidance`) where its NewReno counts
//! ACKs. `docs/explanation/profiles.md` shows the table.

use crate::stack_profile::StackProfile::{self, Linux, Linux26, Ns3};

/// Which table a preset fills.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Table {
    /// The controller's own parameters (`cc = { name = ..., field = ... }`).
    Cc,
    /// The flow's TCP settings (`tcp.field`).
    Tcp,
}

/// A preset value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    /// A number.
    Num(f64),
    /// A name.
    Name(&'static str),
    /// A switch.
    Flag(bool),
}

impl Value {
    /// As JSON, the form a settings table is read in.
    pub fn json(self) -> serde_json::Value {
        match self {
            Value::Num(x) => x.into(),
            Value::Name(s) => s.into(),
            Value::Flag(b) => b.into(),
        }
    }
}

/// One preset: under `profiles`, controller `controller` (its first registered name) gets
/// `table.field = value`, as `source` does.
#[derive(Clone, Copy, Debug)]
pub struct Preset {
    /// The profiles that preset it.
    pub profiles: &'static [StackProfile],
    /// The controller, by its first registered name.
    pub controller: &'static str,
    /// The table it fills.
    pub table: Table,
    /// The field.
    pub field: &'static str,
    /// The value.
    pub value: Value,
    /// Where the value comes from.
    pub source: &'static str,
}

const fn cc(profiles: &'static [StackProfile], controller: &'static str, field: &'static str, value: Value, source: &'static str) -> Preset {
    Preset { profiles, controller, table: Table::Cc, field, value, source }
}

const fn counts_segments_in_ns3(controller: &'static str, source: &'static str) -> Preset {
    Preset { profiles: &[Ns3], controller, table: Table::Tcp, field: "cwnd_growth", value: Value::Name("per_segment"), source }
}

/// Every preset, by controller.
pub const PRESETS: &[Preset] = &[
    cc(&[Ns3], "reno", "halve", Value::Name("flight"), "TcpNewReno::GetSsThresh: max(2·segment, bytes in flight / 2)"),
    cc(&[Linux, Linux26], "cubic", "beta", Value::Num(0.7001953125), "tcp_cubic.c: beta = 717/1024"),
    cc(&[Linux, Linux26, Ns3], "cubic", "hystart", Value::Flag(true), "tcp_cubic.c: hystart = 1 (since 2.6.29, so 2.6.31 too); TcpCubic::HyStart = true"),
    counts_segments_in_ns3("cubic", "TcpCubic::CongestionAvoidance counts segmentsAcked"),
    cc(&[Linux, Linux26, Ns3], "highspeed", "coefficients", Value::Name("table"), "tcp_highspeed.c's hstcp_aimd_vals; TcpHighSpeed::TableLookupA/B"),
    counts_segments_in_ns3("highspeed", "TcpHighSpeed::CongestionAvoidance counts segmentsAcked"),
    cc(&[Ns3], "htcp", "rtt_scaling", Value::Flag(false), "TcpHtcp scales α by no RTT (Linux's use_rtt_scaling = 1)"),
    cc(&[Linux, Linux26], "bic", "beta", Value::Num(819.0 / 1024.0), "tcp_bic.c: beta = 819/1024"),
    cc(&[Ns3], "bic", "s_min", Value::Num(4.0 / 5.0), "TcpBic: SmoothPart 5 (Linux's smooth_part is 20)"),
    counts_segments_in_ns3("bic", "TcpBic::CongestionAvoidance counts segmentsAcked"),
    counts_segments_in_ns3("illinois", "TcpIllinois::CongestionAvoidance counts segmentsAcked"),
    cc(&[Linux26, Ns3], "scalable", "a", Value::Num(0.02), "TCP_SCALABLE_AI_CNT 50 (Linux 2.6 to 5.x); TcpScalable::AIFactor 50"),
    cc(
        &[Linux26, Ns3],
        "scalable",
        "legacy_window",
        Value::Num(50.0),
        "TCP_SCALABLE_AI_CNT 50 and TcpScalable::AIFactor 50: a = 1/50 above 50 packets, Reno below",
    ),
    counts_segments_in_ns3("scalable", "TcpScalable::CongestionAvoidance counts segmentsAcked"),
    cc(&[Linux, Linux26], "westwood", "filter", Value::Name("linux"), "tcp_westwood.c: two 7/8 filters in cascade"),
    cc(&[Ns3], "westwood", "filter", Value::Name("tustin"), "TcpWestwoodPlus: Tustin's approximation"),
    cc(&[Linux, Linux26, Ns3], "vegas", "alpha", Value::Num(2.0), "tcp_vegas.c: alpha = 2; TcpVegas::Alpha = 2"),
    cc(&[Linux, Linux26, Ns3], "vegas", "beta", Value::Num(4.0), "tcp_vegas.c: beta = 4; TcpVegas::Beta = 4"),
    cc(&[Linux, Linux26], "vegas", "diff", Value::Name("linux"), "tcp_vegas.c: diff = cwnd·(rtt − base_rtt)/base_rtt"),
    counts_segments_in_ns3("dctcp", "TcpDctcp (a TcpLinuxReno) counts segmentsAcked"),
    cc(&[Linux, Linux26, Ns3], "bbr", "extra_acked_gain", Value::Num(1.0), "tcp_bbr.c: bbr_extra_acked_gain = BBR_UNIT; ns-3's TcpBbr models it too"),
];

/// The presets of `table` for `controller` under `profile`, as (field, JSON value).
pub fn presets(profile: StackProfile, controller: &str, table: Table) -> Vec<(&'static str, serde_json::Value)> {
    PRESETS.iter().filter(|p| p.controller == controller && p.table == table && p.profiles.contains(&profile)).map(|p| (p.field, p.value.json())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_is_a_field_its_controller_or_tcp_takes_and_reaches_it() {
        for p in PRESETS {
            for &profile in p.profiles {
                match p.table {
                    Table::Cc => {
                        let chosen = crate::cc::resolve_registered(p.controller, &[], "cc", profile);
                        let Ok(Some(cfg)) = chosen else { panic!("{p:?} under {profile:?}: {chosen:?}") };
                        let fields = format!("{cfg:?}");
                        assert!(fields.contains(&format!("{}: ", p.field)), "{p:?}: the chosen parameters have no {}", p.field);
                    }
                    Table::Tcp => {
                        let tcp = serde_json::to_value(crate::transport::tcp::config::TcpConfig::default()).unwrap();
                        assert!(tcp.get(p.field).is_some(), "{p:?}: no tcp.{}", p.field);
                    }
                }
            }
        }
    }

    #[test]
    fn a_profile_presets_only_its_own_rows() {
        assert_eq!(presets(StackProfile::Linux, "cubic", Table::Cc), vec![("beta", 0.7001953125.into()), ("hystart", true.into())]);
        assert_eq!(presets(StackProfile::Ns3, "cubic", Table::Tcp), vec![("cwnd_growth", "per_segment".into())]);
        assert!(presets(StackProfile::Rfc, "cubic", Table::Cc).is_empty());
        assert!(presets(StackProfile::Ns2, "reno", Table::Cc).is_empty());
    }
}
