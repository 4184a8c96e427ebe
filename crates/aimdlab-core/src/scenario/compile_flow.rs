//! A flow group's settings resolved: its `tcp` table over the stack profile's, its
//! controller, application and transport (`compile.rs` gives each flow its nodes).

use super::schema::{FlowGroup, TcpTable, TransportKind};
use crate::app::params::MAX_MESSAGE_PKTS;
use crate::app::spec::resolve_app;
use crate::cc;
use crate::error::ScenarioError;
use crate::ids::NodeId;
use crate::scenario::plan::FlowPlan;
use crate::stack_profile::StackProfile;
use crate::transport::tcp::config::{Recovery, TcpConfig};
use crate::units::SimDuration;

/// A result whose error names the field.
pub(super) type Res<T> = Result<T, ScenarioError>;

/// The error for the field at `path`.
pub(super) fn err<T>(path: impl Into<String>, message: impl Into<String>) -> Res<T> {
    Err(ScenarioError::new(path, message))
}

/// The scenario-wide transport settings: the `[tcp]` table and the stack profile it names.
pub(super) struct TopTcp<'a> {
    /// The `[tcp]` table.
    pub params: &'a TcpTable,
    /// The stack profile it names.
    pub profile: StackProfile,
    /// `params` over `profile`'s presets.
    pub resolved: TcpConfig,
}

/// The `tcp` table `t` at `path` laid over `base` (a profile's or the scenario's settings):
/// every field by its name, as `TcpConfig` spells it, then `sack`, which is `recovery`
/// spelt as a bool (either, or both agreeing).
pub(super) fn resolve_tcp(base: &TcpConfig, t: &TcpTable, path: &str) -> Res<TcpConfig> {
    // `sack` is read here: an older spelling of `recovery` (true: "sack", false: "newreno").
    let sack = match t.fields.get("sack").filter(|v| !v.is_null()) {
        Some(v) => Some(
            serde_json::from_value::<bool>(v.clone())
                .map_err(|e| ScenarioError::new(format!("{path}.sack"), crate::serde_words::without_schema(&e.to_string())))?,
        ),
        None => None,
    };
    let given = t.fields.iter().filter(|(name, v)| !v.is_null() && name.as_str() != "sack");
    let recovery_given = t.fields.get("recovery").is_some_and(|v| !v.is_null());
    let mut c: TcpConfig = crate::overlay::read_table(crate::overlay::fields_of(base), given, "the tcp table", &["profile", "sack"], path)?;
    match (sack, recovery_given) {
        (Some(true), true) if c.recovery != Recovery::Sack => {
            return err(format!("{path}.sack"), format!("true contradicts recovery = {:?}; remove one of them", format!("{:?}", c.recovery).to_lowercase()));
        }
        (Some(false), true) if c.recovery == Recovery::Sack => return err(format!("{path}.sack"), "false contradicts recovery = \"sack\"; remove one of them"),
        (Some(s), false) => c.recovery = if s { Recovery::Sack } else { Recovery::Newreno },
        _ => {}
    }
    c.check().map_err(|(field, message)| ScenarioError::new(format!("{path}.{field}"), message))?;
    Ok(c)
}

/// A controller that reads each segment's mark (DCTCP) turns ECN and the exact echo on for its
/// flows, unless the scenario set them (Linux's `TCP_CONG_NEEDS_ECN`); only TCP carries it.
fn needs_accurate_ecn(tcp: &mut TcpConfig, transport: TransportKind, given_at: impl Fn(&str) -> Option<String>, path: &str) -> Res<()> {
    if transport != TransportKind::Tcp {
        let name = format!("{transport:?}").to_lowercase();
        return err(
            format!("{path}.cc"),
            format!("needs the TCP receiver's exact ECN echo, which transport \"{name}\" does not have; expected transport = \"tcp\""),
        );
    }
    if let (Some(at), false) = (given_at("ecn"), tcp.ecn) {
        return err(at, "false, but the flows' controller (DCTCP) needs ECN; expected true, or remove it");
    }
    tcp.ecn = true;
    if given_at("ecn_echo").is_none() {
        tcp.ecn_echo = crate::transport::tcp::config::EcnEcho::Dctcp;
    }
    Ok(())
}

/// A flow group's settings, resolved, before the topology gives each flow its nodes.
pub(super) fn group_common(g: &FlowGroup, gi: usize, top: &TopTcp, duration: SimDuration) -> Res<FlowPlan> {
    let path = format!("flows[{gi}]");
    if g.count == Some(0) {
        return err(format!("{path}.count"), "0 makes no flows; expected at least 1");
    }
    let name = g.name.clone().unwrap_or_else(|| format!("group{gi}"));
    // A group's profile replaces the scenario's; fields given explicitly at either level
    // still override the profile's presets.
    let profile = g.tcp.as_ref().and_then(|p| p.profile).unwrap_or(top.profile);
    let mut tcp =
        if profile == top.profile { top.resolved.clone() } else { resolve_tcp(&crate::transport::tcp::profile::tcp_config(profile), top.params, "tcp")? };
    if let Some(p) = &g.tcp {
        tcp = resolve_tcp(&tcp, p, &format!("{path}.tcp"))?;
    }
    crate::transport::tcp::profile::finish(
        profile,
        &mut tcp,
        top.params.gives("initial_ssthresh") || g.tcp.as_ref().is_some_and(|t| t.gives("initial_ssthresh")),
    );
    let cc = cc::spec::resolve(g.cc.as_ref().unwrap_or(&cc::spec::CcSpec::default()), &format!("{path}.cc"), profile)?;
    // A transport's own settings table (DCCP's `dccp`), read when the group names it.
    let own_table = g.transport.and_then(TransportKind::settings_table);
    let tables = g.own_tables();
    if let Some((name, _)) = tables.iter().find(|(name, _)| Some(*name) != own_table) {
        let flows = name.to_uppercase();
        return err(format!("{path}.{name}"), format!("applies only to {flows} flows; set transport = {name:?} or remove the {name} table"));
    }
    let own = match g.transport {
        Some(t) => t.resolve_settings(
            g.own_tables().into_iter().find(|(n, _)| Some(*n) == own_table).map(|(_, v)| v).as_ref(),
            &tcp,
            &format!("{path}.{}", own_table.unwrap_or("")),
        )?,
        None => crate::transport::interface::OwnSettings::default(),
    };
    let header = crate::units::Bytes(g.transport.map_or(tcp.header.0, |t| t.app_header_bytes(&own, &tcp)));
    let packet = crate::units::Bytes(tcp.mss.0 + header.0);
    let app = resolve_app(&g.app, packet, &format!("{path}.app"))?;
    // A message is cut into packets of `mss` payload bytes, all written at one instant.
    if let Some((field, bytes)) = app.largest_message() {
        if bytes.div_ceil(tcp.mss.0) > MAX_MESSAGE_PKTS {
            let message = format!(
                "{bytes} bytes make more than {MAX_MESSAGE_PKTS} packets of {} payload bytes at one instant; expected at most {}B (or a larger tcp.mss)",
                tcp.mss.0,
                MAX_MESSAGE_PKTS * tcp.mss.0
            );
            return err(format!("{path}.app.{field}"), message);
        }
    }
    let transport = g.transport.unwrap_or(TransportKind::default_for(app.self_paced()));
    transport.check(&own, g.cc.is_some(), &app).map_err(|(field, message)| ScenarioError::new(format!("{path}.{field}"), message))?;
    // Where a field was set: the group's tcp table, else the scenario's.
    let given_at = |f: &str| match (&g.tcp, top.params.gives(f)) {
        (Some(t), _) if t.gives(f) => Some(format!("{path}.tcp.{f}")),
        (_, true) => Some(format!("tcp.{f}")),
        _ => None,
    };
    let implied: serde_json::Map<String, serde_json::Value> =
        cc.profile_tcp_presets(profile).into_iter().filter(|(f, _)| given_at(f).is_none()).map(|(f, v)| (f.to_string(), v)).collect();
    if !implied.is_empty() {
        // Through `resolve_tcp`, which also derives what the overlay leaves out (`sack`).
        tcp = resolve_tcp(&tcp, &TcpTable { profile: None, fields: implied }, &format!("{path}.tcp"))?;
    }
    if cc.needs_accurate_ecn() {
        needs_accurate_ecn(&mut tcp, transport, given_at, &path)?;
    }
    let start = g.start.map(|d| d.0).unwrap_or(SimDuration::ZERO);
    let jitter = g.start_jitter.map(|d| d.0).unwrap_or(SimDuration::ZERO);
    if start >= duration {
        return err(format!("{path}.start"), format!("{start} is not before the end of the run ({duration}); expected start < duration"));
    }
    if start + jitter > duration {
        return err(
            format!("{path}.start_jitter"),
            format!("{jitter} lets flows start as late as {}, past the end of the run ({duration}); expected start + start_jitter <= duration", start + jitter),
        );
    }
    let stop = g.stop.map(|d| d.0);
    if let Some(stop) = stop {
        if stop <= start {
            return err(format!("{path}.stop"), format!("{stop} is not after start ({start}); expected stop > start"));
        }
    }
    let (src, dst) = (NodeId(u32::MAX), NodeId(u32::MAX));
    Ok(FlowPlan { group_name: name, group: gi as u32, src, dst, cc, app, transport, start, start_jitter: jitter, stop, tcp, own, cwnd_trace: false })
}

#[cfg(test)]
mod tcp_overlay_tests {
    use super::*;

    /// A value other than the RFC profile's for every field of the `tcp` table.
    fn every_field_changed() -> serde_json::Value {
        serde_json::json!({
            "mss": "1000B", "header": "52B", "recovery": "newreno", "recovery_rules": "ns2", "loss_detection": "rack_tlp",
            "cwnd_growth": "per_segment", "cwr_freeze": true, "cwnd_validation": "linux26", "controller_rtt": "linux", "rto_estimator": "linux", "timeout_ssthresh": "half",
            "first_decrease": "half", "limited_transmit": false, "prr": true, "initial_cwnd": 4, "initial_ssthresh": 30,
            "min_rto": "200ms", "max_rto": "120s", "initial_rto": "3s", "dupthresh": 5, "delayed_ack": true,
            "delayed_ack_timeout": "100ms", "quickacks": 16, "timestamps": true, "receive_window": "20000B", "send_jitter": "1ms",
            "ecn": true, "ecn_echo": "dctcp",
        })
    }

    #[test]
    fn every_field_of_the_tcp_table_reaches_the_resolved_settings() {
        let table: TcpTable = serde_json::from_value(every_field_changed()).unwrap();
        let base = TcpConfig::default();
        let c = resolve_tcp(&base, &table, "tcp").unwrap();
        // Serialized, every field the table names differs from the base's.
        let (before, after) = (serde_json::to_value(&base).unwrap(), serde_json::to_value(&c).unwrap());
        for key in every_field_changed().as_object().unwrap().keys() {
            assert_ne!(before[key], after[key], "tcp.{key} did not reach the settings");
        }
        assert_eq!(c.receive_window_pkts(), 20, "bytes over the mss given in the same table");
        assert!(!c.sack(), "recovery = newreno is sack = false");
        let tested = every_field_changed();
        for key in before.as_object().unwrap().keys() {
            assert!(tested.get(key).is_some(), "tcp.{key} is not in this test");
        }
    }

    #[test]
    fn a_misspelt_field_is_named_with_the_fields_there_are() {
        let table: TcpTable = serde_json::from_value(serde_json::json!({"profile": "linux", "msss": "1000B"})).unwrap();
        let e = resolve_tcp(&TcpConfig::default(), &table, "flows[1].tcp").unwrap_err().to_string();
        assert!(e.starts_with("flows[1].tcp.msss: is not a parameter of the tcp table; it takes profile, sack, ") && e.ends_with("(did you mean mss?)"), "{e}");
    }

    #[test]
    fn sack_is_recovery_spelt_as_a_bool() {
        let resolve = |j: serde_json::Value| resolve_tcp(&TcpConfig::default(), &serde_json::from_value(j).unwrap(), "tcp").map(|c| c.recovery);
        assert_eq!(resolve(serde_json::json!({"sack": false})).unwrap(), Recovery::Newreno);
        assert_eq!(resolve(serde_json::json!({"sack": true, "recovery": "sack"})).unwrap(), Recovery::Sack);
        let e = resolve(serde_json::json!({"sack": true, "recovery": "reno"})).unwrap_err().to_string();
        assert!(e.starts_with("tcp.sack: true contradicts recovery = \"reno\""), "{e}");
    }

    #[test]
    fn a_table_with_nothing_leaves_the_profile_as_it_is() {
        for profile in [StackProfile::Rfc, StackProfile::Linux, StackProfile::Linux26, StackProfile::Ns3, StackProfile::Ns2] {
            let base = crate::transport::tcp::profile::tcp_config(profile);
            assert_eq!(resolve_tcp(&base, &TcpTable::default(), "tcp").unwrap(), base, "{profile:?}");
        }
    }
}
