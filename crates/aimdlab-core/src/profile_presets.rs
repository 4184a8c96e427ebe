//! What each stack profile presets, as data with the source of each value: the stack's own TCP
//! settings (`STACK_TCP`, laid over `TcpConfig`'s defaults, which are the RFCs'), and for each
//! controller its own parameters (`cc.*`) and the TCP settings its stack's implementation
//! implies (`tcp.*`, `PRESETS`). A field a scenario gives still overrides a preset (each table
//! is read as its defaults, the profile's presets over them, then the given fields,
//! `overlay::read_table`).
//!
//! The TCP presets are ns-3's: its CUBIC, HighSpeed, Scalable, BIC, Illinois and DCTCP count
//! acknowledged segments (`segmentsAcked` in `CongestionAvoidance`) where its NewReno counts
//! ACKs. `docs/explanation/profiles.md` shows the table.

use crate::stack_profile::StackProfile::{self, Linux, Linux26, Ns2, Ns3};

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
    /// A whole number (a count of packets).
    Int(u64),
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
            Value::Int(n) => n.into(),
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

const fn tcp_of(profiles: &'static [StackProfile], controller: &'static str, field: &'static str, value: Value, source: &'static str) -> Preset {
    Preset { profiles, controller, table: Table::Tcp, field, value, source }
}

const fn counts_segments_in_ns3(controller: &'static str, source: &'static str) -> Preset {
    tcp_of(&[Ns3], controller, "cwnd_growth", Value::Name("per_segment"), source)
}

/// Every preset, by controller.
pub const PRESETS: &[Preset] = &[
    cc(&[Ns3], "reno", "halve", Value::Name("flight"), "TcpNewReno::GetSsThresh (tcp-congestion-ops.cc:233): max(2·segment, bytes in flight / 2)"),
    cc(&[Ns3], "highspeed", "cut_from", Value::Name("flight"), "TcpHighSpeed::GetSsThresh (tcp-highspeed.cc:130): segCwnd = bytesInFlight / segmentSize"),
    cc(&[Ns3], "htcp", "cut_from", Value::Name("flight"), "TcpHtcp::GetSsThresh (tcp-htcp.cc:164): bytesInFlight · β"),
    cc(&[Ns3], "illinois", "cut_from", Value::Name("flight"), "TcpIllinois::GetSsThresh (tcp-illinois.cc:237): (1 − β) · bytesInFlight"),
    cc(&[Ns3], "veno", "cut_from", Value::Name("flight"), "TcpVeno::GetSsThresh (tcp-veno.cc:229): bytesInFlight · 4/5, or TcpNewReno's bytesInFlight / 2"),
    cc(&[Ns3], "yeah", "cut_from", Value::Name("flight"), "TcpYeah::GetSsThresh (tcp-yeah.cc:310): bytesInFlight − reduction, reduction from bytesInFlight"),
    cc(&[Ns3], "scalable", "cut_from", Value::Name("flight"), "TcpScalable::GetSsThresh (tcp-scalable.cc:119): segCwnd = bytesInFlight / segmentSize"),
    cc(&[Linux, Linux26], "cubic", "beta", Value::Num(0.7001953125), "tcp_cubic.c: beta = 717/1024"),
    cc(&[Linux, Linux26, Ns3], "cubic", "hystart", Value::Flag(true), "tcp_cubic.c: hystart = 1 (since 2.6.29, so 2.6.31 too); TcpCubic::HyStart = true"),
    counts_segments_in_ns3("cubic", "TcpCubic::CongestionAvoidance counts segmentsAcked"),
    tcp_of(
        &[Ns3],
        "cubic",
        "cwnd_validation",
        Value::Name("ns3"),
        "TcpCubic::IncreaseWindow returns without m_isCwndLimited (tcp-cubic.cc:187; tcp-socket-base.cc:3336)",
    ),
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
    tcp_of(
        &[Ns3],
        "bbr",
        "controller_rtt",
        Value::Name("echo"),
        "TcpBbr::UpdateMinRtt reads m_lastRtt (tcp-bbr.cc:362), with timestamps the echo (CalculateRttSample, tcp-socket-base.cc:3737)",
    ),
    cc(&[Linux, Linux26, Ns3], "bbr", "extra_acked_gain", Value::Num(1.0), "tcp_bbr.c: bbr_extra_acked_gain = BBR_UNIT; ns-3's TcpBbr models it too"),
];

/// A stack's own TCP setting: under `profiles`, `tcp.field = value`, as `source` says.
#[derive(Clone, Copy, Debug)]
pub struct StackSetting {
    /// The profiles that preset it.
    pub profiles: &'static [StackProfile],
    /// The `tcp` field.
    pub field: &'static str,
    /// The value.
    pub value: Value,
    /// Where the value comes from.
    pub source: &'static str,
}

const fn tcp(profiles: &'static [StackProfile], field: &'static str, value: Value, source: &'static str) -> StackSetting {
    StackSetting { profiles, field, value, source }
}

use Value::{Flag, Int, Name};

/// Each stack's own TCP settings (a field not listed keeps the RFCs' default, `TcpConfig`).
/// Sources read: Linux `include/net/tcp.h`, `net/ipv4/tcp_input.c`, `tcp_recovery.c`,
/// `tcp_output.c`; ns-3.44's attribute defaults as its libraries report them (`TypeId`
/// attributes of `TcpSocket`, `TcpSocketBase`, `TcpL4Protocol`, `RttEstimator`); ns-2.35's
/// `tcl/lib/ns-default.tcl`, `tcp/tcp.cc` (`reset`, `slowdown`, `output`), `tcp/tcp-reno.cc`,
/// `tcp/tcp-newreno.cc`, `tcp/tcp-sack1.cc` and `tcp/scoreboard-rq.cc`.
pub const STACK_TCP: &[StackSetting] = &[
    // Linux 6.x (sysctl defaults) and 2.6.31 (NCTUns 6.0's kernel).
    tcp(&[Linux, Linux26], "mss", Name("1448B"), "MTU 1500 − 20 (IP) − 20 (TCP) − 12 (timestamps): tcp_mss_to_mtu"),
    tcp(&[Linux, Linux26], "timestamps", Flag(true), "net.ipv4.tcp_timestamps = 1"),
    tcp(&[Linux, Linux26], "recovery", Name("sack"), "net.ipv4.tcp_sack = 1"),
    tcp(&[Linux], "loss_detection", Name("rack_tlp"), "tcp_recovery = 1, tcp_early_retrans = 3"),
    tcp(&[Linux26], "loss_detection", Name("dupack"), "tcp_time_to_recover: tp->reordering (3) dupACKs or SACKed"),
    tcp(&[Linux], "cwnd_growth", Name("per_segment"), "tcp_slow_start, tcp_cong_avoid_ai count acknowledged segments"),
    tcp(&[Linux26], "cwnd_growth", Name("per_ack"), "tcp_slow_start, tcp_cong_avoid_ai per ACK (tcp_abc = 0)"),
    tcp(&[Linux, Linux26], "cwr_freeze", Flag(true), "CWR state: tcp_may_raise_cwnd"),
    tcp(&[Linux], "cwnd_validation", Name("linux"), "tcp_is_cwnd_limited, tcp_cwnd_validate: is_cwnd_limited and max_packets_out per window of data"),
    tcp(&[Linux26], "cwnd_validation", Name("linux26"), "tcp_is_cwnd_limited(sk, in_flight): in_flight >= cwnd, or cwnd - in_flight <= tcp_max_burst (3)"),
    tcp(&[Linux], "controller_rtt", Name("linux"), "tcp_clean_rtx_queue: ca_rtt_us from sack->last_sackt, else last_ackt (sent once, not SACKed before), to pkts_acked and the rate sample"),
    tcp(&[Linux26], "controller_rtt", Name("linux26"), "tcp_clean_rtx_queue: pkts_acked(sk, pkts_acked, rtt_us) from last_ackt, -1 after FLAG_RETRANS_DATA_ACKED"),
    tcp(&[Linux], "prr", Flag(true), "tcp_cwnd_reduction"),
    tcp(&[Linux26], "prr", Flag(false), "no tcp_cwnd_reduction (PRR came in 3.2)"),
    tcp(&[Linux, Linux26], "rto_estimator", Name("linux"), "tcp_rtt_estimator, tcp_set_rto"),
    tcp(&[Linux, Linux26], "min_rto", Name("200ms"), "TCP_RTO_MIN = HZ/5"),
    tcp(&[Linux, Linux26], "max_rto", Name("120s"), "TCP_RTO_MAX = 120·HZ"),
    tcp(&[Linux], "initial_rto", Name("1s"), "TCP_TIMEOUT_INIT = 1·HZ"),
    tcp(&[Linux26], "initial_rto", Name("3s"), "TCP_TIMEOUT_INIT = 3·HZ"),
    tcp(&[Linux], "initial_cwnd", Int(10), "TCP_INIT_CWND"),
    tcp(&[Linux26], "initial_cwnd", Int(3), "tcp_init_cwnd: RFC 3390, 3 for an MSS of 1096-1460"),
    tcp(&[Linux, Linux26], "delayed_ack", Flag(true), "delayed ACKs on by default"),
    tcp(&[Linux, Linux26], "delayed_ack_timeout", Name("40ms"), "TCP_DELACK_MIN = TCP_ATO_MIN = HZ/25"),
    tcp(&[Linux, Linux26], "quickacks", Int(16), "TCP_MAX_QUICKACKS"),
    // ns-3.44's TcpSocketBase with its defaults.
    tcp(&[Ns3], "mss", Name("536B"), "TcpSocket::SegmentSize"),
    tcp(&[Ns3], "timestamps", Flag(true), "TcpSocketBase::Timestamp"),
    tcp(&[Ns3], "recovery", Name("sack"), "TcpSocketBase::Sack"),
    tcp(&[Ns3], "cwnd_growth", Name("per_ack"), "TcpNewReno::SlowStart: one SMSS per ACK; CongestionAvoidance: SMSS²/cwnd per ACK"),
    tcp(&[Ns3], "cwr_freeze", Flag(true), "CA_CWR: no IncreaseWindow"),
    tcp(&[Ns3], "controller_rtt", Name("ns3"), "TcpSocketBase::ProcessAck: CA_OPEN: PktsAcked(m_tcb, segsAcked, m_tcb->m_srtt) (tcp-socket-base.cc:2164; every state alike); m_minRtt = min SRTT (:3804)"),
    tcp(&[Ns3], "prr", Flag(true), "TcpL4Protocol::RecoveryType = TcpPrrRecovery"),
    tcp(&[Ns3], "limited_transmit", Flag(true), "TcpSocketBase::LimitedTransmit"),
    tcp(&[Ns3], "min_rto", Name("1s"), "TcpSocketBase::MinRto"),
    tcp(&[Ns3], "initial_rto", Name("1s"), "RttEstimator::InitialEstimation"),
    tcp(&[Ns3], "initial_cwnd", Int(10), "TcpSocket::InitialCwnd"),
    tcp(&[Ns3], "delayed_ack", Flag(true), "TcpSocket::DelAckCount = 2"),
    tcp(&[Ns3], "delayed_ack_timeout", Name("200ms"), "TcpSocket::DelAckTimeout"),
    tcp(&[Ns3], "receive_window", Name("131072B"), "TcpSocket::RcvBufSize = 131072 B, whatever the MSS"),
    // ns-2.35's one-way Agent/TCP/Reno and TCPSink.
    tcp(&[Ns2], "mss", Name("1000B"), "Agent/TCP packetSize_"),
    tcp(&[Ns2], "header", Name("40B"), "tcpip_base_hdr_size_; TCPSink packetSize_ 40"),
    tcp(&[Ns2], "recovery", Name("reno"), "Agent/TCP/Reno"),
    tcp(&[Ns2], "recovery_rules", Name("ns2"), "tcp-reno.cc, tcp-newreno.cc, tcp-sack1.cc"),
    tcp(&[Ns2], "cwnd_growth", Name("per_ack"), "opencwnd: once per new ACK"),
    tcp(&[Ns2], "first_decrease", Name("half"), "slowdown(): first_decrease_, slowstart"),
    tcp(&[Ns2], "timeout_ssthresh", Name("half"), "slowdown(): after CWND_ACTION_TIMEOUT"),
    tcp(&[Ns2], "limited_transmit", Flag(true), "singledup_ 1"),
    tcp(&[Ns2], "rto_estimator", Name("ns2"), "rtt_update in tcpTick_ 0.01"),
    tcp(&[Ns2], "min_rto", Name("200ms"), "minrto_ 0.2"),
    tcp(&[Ns2], "max_rto", Name("60s"), "maxrto_ 60"),
    tcp(&[Ns2], "initial_rto", Name("3s"), "rtxcur_init_ 3.0"),
    tcp(&[Ns2], "initial_cwnd", Int(2), "windowInit_ 2"),
    tcp(&[Ns2], "receive_window", Name("20pkt"), "window_ 20"),
    tcp(&[Ns2], "delayed_ack", Flag(false), "Agent/TCPSink: an ACK per packet"),
    tcp(&[Ns2], "delayed_ack_timeout", Name("100ms"), "TCPSink/DelAck interval_"),
];

/// The stack `profile`'s own TCP settings, as (field, JSON value).
pub fn stack_tcp(profile: StackProfile) -> impl Iterator<Item = (&'static str, serde_json::Value)> {
    STACK_TCP.iter().filter(move |s| s.profiles.contains(&profile)).map(|s| (s.field, s.value.json()))
}

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
    fn every_stack_setting_is_a_tcp_field_set_once_and_reaches_the_profiles_settings() {
        use crate::transport::tcp::profile::tcp_config;
        for (i, row) in STACK_TCP.iter().enumerate() {
            for &profile in row.profiles {
                let settings = crate::overlay::fields_of(&tcp_config(profile));
                assert_eq!(settings.get(row.field), Some(&row.value.json()), "{row:?} under {profile:?}");
                let again = STACK_TCP[..i].iter().find(|r| r.field == row.field && r.profiles.contains(&profile));
                assert!(again.is_none(), "{profile:?} sets tcp.{} twice", row.field);
            }
        }
        assert_eq!(stack_tcp(StackProfile::Rfc).count(), 0, "the rfc profile is TcpConfig's defaults");
    }

    /// The ssthresh controller `name` sets under `profile` after a loss with cwnd 100 and
    /// `in_flight` packets in flight.
    fn cut(name: &str, profile: StackProfile, in_flight: u64) -> f64 {
        use crate::cc::{CongestionControl, CongestionEvent, CongestionKind, Controller, Window};
        let Ok(Some(cfg)) = crate::cc::resolve_registered(name, &[], "cc", profile) else { panic!("{name}") };
        let mut c = Controller::new(&cfg);
        let ev = CongestionEvent {
            now: crate::units::SimTime::from_millis(1000),
            kind: CongestionKind::Loss,
            pkts_in_flight: in_flight,
            srtt: crate::units::SimDuration::from_millis(100),
        };
        c.ssthresh(&Window::new(100.0, 50.0), &ev)
    }

    #[test]
    fn under_ns3_the_classes_that_cut_from_bytes_in_flight_do_so_and_the_others_cut_cwnd() {
        // ns-3.44's GetSsThresh(tcb, bytesInFlight): a fraction of bytesInFlight in these ...
        for name in ["reno", "highspeed", "htcp", "illinois", "veno", "yeah", "scalable"] {
            assert!(cut(name, StackProfile::Ns3, 40) < cut(name, StackProfile::Ns3, 80), "{name}: ns-3 cuts from the flight");
            assert_eq!(cut(name, StackProfile::Rfc, 40), cut(name, StackProfile::Rfc, 80), "{name}: the rfc profile cuts cwnd");
        }
        // ... and of cwnd in TcpCubic, TcpBic, TcpLinuxReno, TcpVegas and TcpDctcp.
        for name in ["cubic", "bic", "vegas", "dctcp"] {
            assert_eq!(cut(name, StackProfile::Ns3, 40), cut(name, StackProfile::Ns3, 80), "{name}");
        }
        assert_eq!(cut("scalable", StackProfile::Ns3, 40), 40.0 * (1.0 - 0.125), "TcpScalable: segCwnd = bytesInFlight, × (1 − 1/8)");
    }

    #[test]
    fn a_profile_presets_only_its_own_rows() {
        assert_eq!(presets(StackProfile::Linux, "cubic", Table::Cc), vec![("beta", 0.7001953125.into()), ("hystart", true.into())]);
        assert_eq!(presets(StackProfile::Ns3, "cubic", Table::Tcp), vec![("cwnd_growth", "per_segment".into()), ("cwnd_validation", "ns3".into())]);
        assert_eq!(presets(StackProfile::Ns3, "bbr", Table::Tcp), vec![("controller_rtt", "echo".into())], "TcpBbr reads m_lastRtt");
        assert!(presets(StackProfile::Rfc, "cubic", Table::Cc).is_empty());
        assert!(presets(StackProfile::Ns2, "reno", Table::Cc).is_empty());
    }
}
