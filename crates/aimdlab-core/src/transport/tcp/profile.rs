//! What a stack profile (`tcp.profile`, `crate::stack_profile`) means for TCP: the RFCs'
//! defaults (`TcpConfig::default`) with the stack's own settings laid over them, each a row of
//! `crate::profile_presets::STACK_TCP` with its source; any field given explicitly still
//! overrides them. `docs/explanation/profiles.md` shows the table.

use super::config::TcpConfig;
use crate::stack_profile::StackProfile;

/// The TCP defaults of stack `profile`.
pub fn tcp_config(profile: StackProfile) -> TcpConfig {
    let rows: serde_json::Map<String, serde_json::Value> =
        crate::profile_presets::stack_tcp(profile).map(|(field, value)| (field.to_string(), value)).collect();
    // The table is the project's data, each row checked by a test under its profiles: a row
    // that does not read is a bug of the table, not of a scenario.
    crate::overlay::read_table(crate::overlay::fields_of(&TcpConfig::default()), &rows, "the profile's tcp rows", &[], "tcp")
        .expect("every stack's TCP settings read (profile_presets tests)")
}

/// After explicit fields are applied: rules that follow other settings. ns-2 starts
/// ssthresh at the receive window (`TcpAgent::reset`: `ssthresh_ = int(wnd_)`) unless
/// `initial_ssthresh` was given.
pub fn finish(profile: StackProfile, c: &mut TcpConfig, initial_ssthresh_given: bool) {
    if profile == StackProfile::Ns2 && !initial_ssthresh_given {
        c.initial_ssthresh_pkts = c.receive_window_pkts() as f64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::units::Bytes;

    #[test]
    fn ns3s_receive_window_is_its_buffer_in_bytes_whatever_the_segment_size() {
        // ns-3's RcvBufSize is 131,072 bytes: 244 segments of its default 536 bytes, 131 of
        // 1000 bytes.
        let mut c = tcp_config(StackProfile::Ns3);
        assert_eq!(c.receive_window_pkts(), 244);
        c.mss = Bytes(1000);
        assert_eq!(c.receive_window_pkts(), 131);
    }

    #[test]
    fn the_rfc_profile_is_the_default_configuration() {
        assert_eq!(tcp_config(StackProfile::Rfc), TcpConfig::default());
    }

    #[test]
    fn ns2_starts_ssthresh_at_the_window_unless_given() {
        let mut c = tcp_config(StackProfile::Ns2);
        finish(StackProfile::Ns2, &mut c, false);
        assert_eq!(c.initial_ssthresh_pkts, 20.0);
        let mut c = tcp_config(StackProfile::Ns2);
        finish(StackProfile::Ns2, &mut c, true);
        assert!(c.initial_ssthresh_pkts.is_infinite());
    }
}
