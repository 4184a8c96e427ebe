//! What a stack profile (`tcp.profile`, `crate::stack_profile`) means for TCP: a preset of
//! transport behaviours and defaults that any field given explicitly still overrides. The
//! table of every behaviour with the source it mimics is `docs/explanation/profiles.md`; each
//! value below names its source in a comment.
//!
//! Sources read: Linux `include/net/tcp.h`, `net/ipv4/tcp_input.c`, `tcp_recovery.c`,
//! `tcp_output.c` (`tcp_schedule_loss_probe`), `tcp_cubic.c`; ns-3.44's
//! attribute defaults as its libraries report them (`TypeId` attributes of `TcpSocket`,
//! `TcpSocketBase`, `TcpL4Protocol`, `TcpCubic`, `RttEstimator`); ns-2.35's
//! `tcl/lib/ns-default.tcl`, `tcp/tcp.cc` (`reset`, `slowdown`, `output`), `tcp/tcp-reno.cc`, `tcp/tcp-newreno.cc`,
//! `tcp/tcp-sack1.cc` and `tcp/scoreboard-rq.cc`.

use super::config::{CwndGrowth, FirstDecrease, LossDetection, Recovery, RecoveryRules, RtoEstimator, TcpConfig, TimeoutSsthresh};
use crate::stack_profile::StackProfile;
use crate::units::parse::PacketsOrBytes;
use crate::units::{Bytes, SimDuration};

/// The TCP defaults of stack `profile`.
pub fn tcp_config(profile: StackProfile) -> TcpConfig {
    match profile {
        StackProfile::Rfc => TcpConfig::default(),
        StackProfile::Linux => linux(),
        StackProfile::Linux26 => linux26(),
        StackProfile::Ns3 => ns3(),
        StackProfile::Ns2 => ns2(),
    }
}

/// After explicit fields are applied: rules that follow other settings. ns-2 starts
/// ssthresh at the receive window (`TcpAgent::reset`: `ssthresh_ = int(wnd_)`) unless
/// `initial_ssthresh` was given.
pub fn finish(profile: StackProfile, c: &mut TcpConfig, initial_ssthresh_given: bool) {
    if profile == StackProfile::Ns2 && !initial_ssthresh_given {
        c.initial_ssthresh_pkts = c.receive_window_pkts() as f64;
    }
}

/// Linux 6.x's TCP (sysctl defaults).
fn linux() -> TcpConfig {
    let rfc = TcpConfig::default();
    TcpConfig {
        // MTU 1500 − 20 (IP) − 20 (TCP) − 12 (timestamps): tcp_mss_to_mtu.
        mss: Bytes(1448),
        timestamps: true, // net.ipv4.tcp_timestamps = 1
        recovery: Recovery::Sack,
        sack: true,
        loss_detection: LossDetection::RackTlp, // tcp_recovery = 1, tcp_early_retrans = 3
        cwnd_growth: CwndGrowth::PerSegment,    // tcp_slow_start, tcp_cong_avoid_ai
        cwr_freeze: true,                       // CWR state: tcp_may_raise_cwnd
        prr: true,                              // tcp_cwnd_reduction
        rto_estimator: RtoEstimator::Linux,     // tcp_rtt_estimator, __tcp_set_rto
        min_rto: SimDuration::from_millis(200), // TCP_RTO_MIN = HZ/5
        max_rto: SimDuration::from_secs(120),   // TCP_RTO_MAX = 120·HZ
        initial_rto: SimDuration::from_secs(1), // TCP_TIMEOUT_INIT = 1·HZ
        initial_cwnd_pkts: 10,                  // TCP_INIT_CWND
        delayed_ack: true,
        delayed_ack_timeout: SimDuration::from_millis(40), // TCP_DELACK_MIN = TCP_ATO_MIN
        quickacks: 16,                                     // TCP_MAX_QUICKACKS
        ..rfc
    }
}

/// Linux 2.6.31's TCP, NCTUns 6.0's kernel.
fn linux26() -> TcpConfig {
    let rfc = TcpConfig::default();
    TcpConfig {
        mss: Bytes(1448),                                  // MTU 1500 − 40 − 12 of timestamps
        timestamps: true,                                  // net.ipv4.tcp_timestamps = 1
        recovery: Recovery::Sack,                          // net.ipv4.tcp_sack = 1
        sack: true,                                        //
        loss_detection: LossDetection::Dupack,             // tcp_time_to_recover: tp->reordering (3) dupACKs or SACKed
        cwnd_growth: CwndGrowth::PerAck,                   // tcp_slow_start, tcp_cong_avoid_ai per ACK (tcp_abc = 0)
        cwr_freeze: true,                                  // CWR state: tcp_may_raise_cwnd
        prr: false,                                        // no tcp_cwnd_reduction (PRR came in 3.2)
        rto_estimator: RtoEstimator::Linux,                // tcp_rtt_estimator, tcp_set_rto (as in 6.x)
        min_rto: SimDuration::from_millis(200),            // TCP_RTO_MIN = HZ/5
        max_rto: SimDuration::from_secs(120),              // TCP_RTO_MAX = 120·HZ
        initial_rto: SimDuration::from_secs(3),            // TCP_TIMEOUT_INIT = 3·HZ
        initial_cwnd_pkts: 3,                              // tcp_init_cwnd: RFC 3390, 3 for an MSS of 1096-1460
        delayed_ack: true,                                 //
        delayed_ack_timeout: SimDuration::from_millis(40), // TCP_DELACK_MIN = HZ/25
        quickacks: 16,                                     // TCP_MAX_QUICKACKS
        ..rfc
    }
}

/// ns-3.44's TcpSocketBase with its defaults.
fn ns3() -> TcpConfig {
    let rfc = TcpConfig::default();
    TcpConfig {
        mss: Bytes(536),  // TcpSocket::SegmentSize
        timestamps: true, // TcpSocketBase::Timestamp
        recovery: Recovery::Sack,
        sack: true,                                            // TcpSocketBase::Sack
        cwnd_growth: CwndGrowth::PerAck,                       // TcpNewReno::SlowStart: one SMSS per ACK; CongestionAvoidance: SMSS²/cwnd per ACK
        cwr_freeze: true,                                      // CA_CWR: no IncreaseWindow
        prr: true,                                             // TcpL4Protocol::RecoveryType = TcpPrrRecovery
        limited_transmit: true,                                // TcpSocketBase::LimitedTransmit
        min_rto: SimDuration::from_secs(1),                    // TcpSocketBase::MinRto
        initial_rto: SimDuration::from_secs(1),                // RttEstimator::InitialEstimation
        initial_cwnd_pkts: 10,                                 // TcpSocket::InitialCwnd
        delayed_ack: true,                                     // TcpSocket::DelAckCount = 2
        delayed_ack_timeout: SimDuration::from_millis(200),    // TcpSocket::DelAckTimeout
        receive_window: PacketsOrBytes::Bytes(Bytes(131_072)), // TcpSocket::RcvBufSize = 131072 B, whatever the MSS
        ..rfc
    }
}

/// ns-2.35's one-way Agent/TCP/Reno and TCPSink.
fn ns2() -> TcpConfig {
    let rfc = TcpConfig::default();
    TcpConfig {
        mss: Bytes(1000),                   // Agent/TCP packetSize_
        header: Bytes(40),                  // tcpip_base_hdr_size_; TCPSink packetSize_ 40
        recovery: Recovery::Reno,           // Agent/TCP/Reno
        recovery_rules: RecoveryRules::Ns2, // tcp-reno.cc, tcp-newreno.cc, tcp-sack1.cc
        sack: false,
        cwnd_growth: CwndGrowth::PerAck,                    // opencwnd: once per new ACK
        first_decrease: FirstDecrease::Half,                // slowdown(): first_decrease_, slowstart
        timeout_ssthresh: TimeoutSsthresh::Half,            // slowdown(): after CWND_ACTION_TIMEOUT
        limited_transmit: true,                             // singledup_ 1
        rto_estimator: RtoEstimator::Ns2,                   // rtt_update in tcpTick_ 0.01
        min_rto: SimDuration::from_millis(200),             // minrto_ 0.2
        max_rto: SimDuration::from_secs(60),                // maxrto_ 60
        initial_rto: SimDuration::from_secs(3),             // rtxcur_init_ 3.0
        initial_cwnd_pkts: 2,                               // windowInit_ 2
        receive_window: PacketsOrBytes::Packets(20),        // window_ 20
        delayed_ack: false,                                 // Agent/TCPSink: an ACK per packet
        delayed_ack_timeout: SimDuration::from_millis(100), // TCPSink/DelAck interval_
        ..rfc
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
