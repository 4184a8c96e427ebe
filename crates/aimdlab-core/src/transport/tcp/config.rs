//! Resolved transport settings of one flow (defaults applied, units converted).

use crate::units::parse::PacketsOrBytes;
use crate::units::{Bytes, SimDuration};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// What one acknowledgement tells the congestion controller.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CwndGrowth {
    /// One `on_ack` per ACK with the segments it acknowledges (RFC 5681: slow start adds
    /// min(N, 1), congestion avoidance 1/cwnd per ACK — with delayed ACKs, ×1.5 and half a
    /// segment per RTT).
    #[default]
    PerAck,
    /// One `on_ack` per segment acknowledged (Linux's `tcp_slow_start` and
    /// `tcp_cong_avoid_ai` count acknowledged segments; RFC 3465's byte counting): ×2 and one
    /// segment per RTT whatever the ACK ratio.
    PerSegment,
}

/// When the window may grow: every ACK, or only while the window limits sending (congestion
/// window validation). A flow limited by its application or the receive window does not
/// grow a window it does not use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CwndValidation {
    /// Every ACK that acknowledges new data outside recovery grows it (RFC 5681 as written).
    #[default]
    None,
    /// Linux 6.x (`tcp_is_cwnd_limited`): the window was full at some send of the current
    /// window of data (`tcp_cwnd_validate`: `is_cwnd_limited`, kept until the data sent when
    /// it was set is acknowledged), or, in slow start, cwnd is below twice the most packets
    /// outstanding in that window (`max_packets_out`).
    Linux,
    /// Linux 2.6.31 (`tcp_is_cwnd_limited(sk, in_flight)`): the packets in flight before the
    /// ACK fill cwnd, or leave at most 3 (`tcp_max_burst`) of it unused.
    Linux26,
    /// ns-3.44 (`TcpSocketBase::SendDataPacket`: `m_isCwndLimited = cWnd < BytesInFlight +
    /// segmentSize` after each send; `TcpCubic::IncreaseWindow` and `TcpLinuxReno` skip growth
    /// without it): the last send left less than one segment of cwnd unused.
    Ns3,
}

/// The RTT a congestion controller is told of on each ACK, and the minimum RTT it reads
/// (`transport::tcp::controller_rtt` has the sources). The RTO takes the echoed sample
/// whatever this says.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ControllerRtt {
    /// The echoed send time of the earliest segment the ACK covers (RFC 7323 §4), as the RTO.
    #[default]
    Echo,
    /// Linux 6.x (`ca_rtt_us` in `tcp_clean_rtx_queue`): the newest segment the ACK newly
    /// delivers that was sent once, SACKed or cumulatively acknowledged; else the echo.
    Linux,
    /// Linux 2.6.31 (`last_ackt` in `tcp_clean_rtx_queue`): the newest segment cumulatively
    /// acknowledged, none if a retransmission was among them or nothing was.
    Linux26,
    /// ns-3.44 (`PktsAcked(m_tcb, segsAcked, m_tcb->m_srtt)`): the smoothed RTT, on every ACK.
    Ns3,
}

/// How the receiver echoes CE marks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum EcnEcho {
    /// RFC 3168 §6.1.3: ECE on every ACK from a CE mark until a segment with CWR arrives.
    #[default]
    Rfc3168,
    /// RFC 8257 §3.2 (DCTCP): ECE on exactly the ACKs of CE-marked segments; when the CE
    /// state changes with a delayed ACK pending, that ACK leaves at once with the old state.
    Dctcp,
}

/// The slow-start threshold a retransmission timeout leaves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TimeoutSsthresh {
    /// The controller's own cut (GAIMD: β·W), as at a loss.
    #[default]
    Controller,
    /// Half the window whatever the controller's β (ns-2's `slowdown()` after a timeout).
    Half,
}

/// What the first window decrease of a connection does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FirstDecrease {
    /// The controller's own cut, every time.
    #[default]
    Controller,
    /// The first decrease of the connection, and any decrease in slow start, halves the
    /// window whatever the controller's β (ns-2's `slowdown()` with `first_decrease_`).
    Half,
}

/// How the retransmission timeout is computed from RTT samples.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RtoEstimator {
    /// RFC 6298: RTO = max(SRTT + 4·RTTVAR, min_rto).
    #[default]
    Rfc6298,
    /// Linux (`tcp_rtt_estimator`, `__tcp_set_rto`): RTO = SRTT + RTTVAR, RTTVAR at least
    /// min_rto and decayed once per flight.
    Linux,
    /// ns-2.35 (`TcpAgent::rtt_update`, `rtt_timeout`, `rtt_backoff`): one timed segment
    /// per round trip, measured in 10 ms clock ticks (`tcpTick_`), integer SRTT and RTTVAR,
    /// RTO = SRTT + 4·RTTVAR in whole ticks, at least `minrto_`.
    Ns2,
}

/// How the TCP sender recovers from a loss detected by duplicate ACKs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Recovery {
    /// SACK-based loss recovery (RFC 2018 + RFC 6675).
    #[default]
    Sack,
    /// NewReno (RFC 6582): a partial ACK retransmits the next hole and stays in recovery.
    Newreno,
    /// Classic Reno (RFC 5681 §3.2; ns-2's Agent/TCP/Reno with its default `bugfix_`): any
    /// new ACK ends fast recovery, and no second fast retransmit starts before the
    /// cumulative ACK passes what was sent when the first began — a second loss in one
    /// window usually waits for the retransmission timer.
    Reno,
}

/// How the sender finds a lost segment before its retransmission timer does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LossDetection {
    /// `dupthresh` duplicate ACKs (RFC 5681) and, with SACK, `dupthresh` SACKed segments
    /// above a hole (RFC 6675 `IsLost`).
    #[default]
    Dupack,
    /// RACK-TLP (RFC 8985) as Linux runs it: a segment is lost once one sent after it is
    /// delivered and an RTT plus a reordering window has passed (lost retransmissions too),
    /// and a tail loss probe goes out two SRTTs after the last send. With SACK only; with
    /// `newreno` or `reno`, duplicate ACKs.
    RackTlp,
}

/// Whose reading of the loss-recovery rules the sender follows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RecoveryRules {
    /// As the RFCs write them (RFC 5681, 6582, 6675, 6298).
    #[default]
    Rfc,
    /// As ns-2.35's one-way agents implement them (`tcp-reno.cc`, `tcp-newreno.cc`,
    /// `tcp-sack1.cc`, `scoreboard-rq.cc`, with ns-default.tcl's settings): a new fast
    /// retransmit only once the cumulative ACK covers a segment sent after the last recovery
    /// or timeout began (`highest_ack_ > recover_`, one segment stricter than RFC 6582), a
    /// retransmission never restarts a running timer (`output`), Newreno restarts it on the
    /// first partial ACK only (`newreno_changes1_ 1`), and `recovery = "sack"` runs Sack1 —
    /// Fall & Floyd's `pipe_` counter (outstanding − 3 on entry, −1 per ACK, −1 more per
    /// partial ACK, +1 per segment sent), any hole below a SACKed segment retransmitted once,
    /// and a timeout that forgets every SACK and resends from the cumulative ACK.
    Ns2,
}

/// Everything the TCP-like sender and receiver of one flow need to know, field by field as
/// the scenario's `tcp` table names them: a table is laid over a profile's `TcpConfig` by
/// field name (`scenario::compile_flow::resolve_tcp`), and the table's JSON Schema is this
/// struct's (`scenario::schema::TcpTable`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TcpConfig {
    /// Maximum segment size (payload per packet). Default `"1460B"`.
    #[serde(with = "crate::units::serde_text::bytes")]
    #[schemars(with = "crate::units::quantity::Size")]
    pub mss: Bytes,
    /// IP + TCP header bytes added to every packet, data and ACK. Default `"40B"`.
    #[serde(with = "crate::units::serde_text::bytes")]
    #[schemars(with = "crate::units::quantity::Size")]
    pub header: Bytes,
    /// Loss recovery: `"sack"` (RFC 6675, the default), `"newreno"` (RFC 6582) or `"reno"`
    /// (classic Reno as ns-2's Agent/TCP/Reno: any new ACK ends fast recovery; a second loss
    /// in the window usually ends in a timeout). Must agree with `sack` if both are given.
    pub recovery: Recovery,
    /// Whose reading of the recovery rules: `"rfc"` (as RFC 5681, 6582 and 6675 write them;
    /// the default) or `"ns2"` (as ns-2.35's agents implement them: a second fast retransmit
    /// only once the cumulative ACK passes what was sent when the last one began, Newreno's
    /// timer restarted on the first partial ACK only, and `recovery = "sack"` as Sack1 with
    /// its `pipe_` counter; docs/explanation/profiles.md has the full list).
    pub recovery_rules: RecoveryRules,
    /// How a loss is found before the retransmission timer: `"dupack"` (three duplicate ACKs,
    /// or three SACKed segments above a hole, RFC 5681/6675; the default) or `"rack_tlp"`
    /// (RFC 8985 as Linux: time-based — a segment is lost once one sent after it is delivered
    /// and an RTT plus a reordering window has passed, lost retransmissions too — with a tail
    /// loss probe two SRTTs after the last send). `rack_tlp` needs `recovery = "sack"`;
    /// otherwise duplicate ACKs are counted.
    pub loss_detection: LossDetection,
    /// How much one ACK grows the window: `"per_ack"` (RFC 5681: an ACK of N segments is one
    /// step of growth; the default) or `"per_segment"` (each segment it delivers is one step,
    /// as Linux counts; with delayed ACKs slow start then doubles per RTT and congestion
    /// avoidance adds one segment per RTT). The controller hears each ACK once either way.
    pub cwnd_growth: CwndGrowth,
    /// After an ECN reduction, no window growth until the data outstanding at the reduction
    /// is acknowledged — Linux's CWR state (`tcp_may_raise_cwnd`) and ns-3's. Default false
    /// (RFC 3168 §6.1.2 leaves growth on).
    pub cwr_freeze: bool,
    /// When the window grows: `"none"` (every ACK of new data outside recovery, RFC 5681;
    /// the default), or only while the window limits sending, as `"linux"` (6.x),
    /// `"linux26"` (2.6.31) or `"ns3"` (3.44's CUBIC) judge it. A flow limited by its
    /// application or the receive window then keeps the window it uses.
    pub cwnd_validation: CwndValidation,
    /// The RTT a controller is told of: `"echo"` (the sample the RTO takes, the echo of the
    /// earliest segment an ACK covers, RFC 7323; the default), `"linux"` (6.x: the newest
    /// segment the ACK newly delivers, sent once), `"linux26"` (2.6.31: the newest cumulatively
    /// acknowledged) or `"ns3"` (3.44: the smoothed RTT). Under delayed ACKs the echo of a
    /// lone segment held until the next flight includes the hold; the newest segment's does not.
    pub controller_rtt: ControllerRtt,
    /// How the retransmission timeout follows the RTT: `"rfc6298"` (max(SRTT + 4·RTTVAR,
    /// min_rto), the default), `"linux"` (SRTT + RTTVAR with RTTVAR ≥ min_rto, decayed once
    /// per flight: Linux's `tcp_rtt_estimator`) or `"ns2"` (one sample per round trip in
    /// 10 ms ticks, ns-2's `rtt_update`).
    pub rto_estimator: RtoEstimator,
    /// The slow-start threshold after a retransmission timeout: `"controller"` (its own cut,
    /// e.g. GAIMD's β·W; the default) or `"half"` (W/2 whatever the controller, as ns-2's
    /// `slowdown()` sets it).
    pub timeout_ssthresh: TimeoutSsthresh,
    /// The first window decrease of the connection, and any decrease in slow start:
    /// `"controller"` (its own cut; the default) or `"half"` (halve whatever the controller's
    /// β, as ns-2's `slowdown()` does with `first_decrease_`).
    pub first_decrease: FirstDecrease,
    /// Limited transmit (RFC 3042): before fast recovery, each of the first duplicate ACKs
    /// lets one new segment out. Default true, as in Linux, ns-3 and ns-2 (`singledup_ 1`).
    pub limited_transmit: bool,
    /// Proportional Rate Reduction (RFC 6937, SSRB): fast recovery sends about one segment
    /// per two delivered until pipe reaches ssthresh, instead of waiting for pipe to fall
    /// below cwnd; with `cwr_freeze`, CWR after an ECN reduction does the same. Default false
    /// (RFC 6675's pipe rule); Linux and ns-3 run PRR.
    pub prr: bool,
    /// Initial congestion window in packets. Default 10 (RFC 6928).
    #[serde(rename = "initial_cwnd")]
    pub initial_cwnd_pkts: u32,
    /// Initial slow-start threshold in packets. Default: unbounded.
    #[serde(rename = "initial_ssthresh", with = "crate::units::serde_text::unbounded")]
    #[schemars(with = "Option<u32>")]
    pub initial_ssthresh_pkts: f64,
    /// Lower bound of the retransmission timeout. Default `"1s"` (RFC 6298 (2.4)).
    #[serde(with = "crate::units::serde_text::duration")]
    #[schemars(with = "crate::units::quantity::Duration")]
    pub min_rto: SimDuration,
    /// Upper bound of the retransmission timeout. Default `"60s"` (RFC 6298 (2.5)).
    #[serde(with = "crate::units::serde_text::duration")]
    #[schemars(with = "crate::units::quantity::Duration")]
    pub max_rto: SimDuration,
    /// Retransmission timeout before the first RTT sample. Default `"1s"` (RFC 6298 (2.1)).
    #[serde(with = "crate::units::serde_text::duration")]
    #[schemars(with = "crate::units::quantity::Duration")]
    pub initial_rto: SimDuration,
    /// Duplicate ACKs that trigger fast retransmit. Default 3.
    pub dupthresh: u32,
    /// Receiver acknowledges every second full segment (b = 2, RFC 5681 §4.2). Default false.
    pub delayed_ack: bool,
    /// Longest a delayed ACK waits. Default `"40ms"` (Linux's minimum ATO).
    #[serde(with = "crate::units::serde_text::duration")]
    #[schemars(with = "crate::units::quantity::Duration")]
    pub delayed_ack_timeout: SimDuration,
    /// Linux's quick-ACK mode: the receiver acknowledges each of the first `quickacks`
    /// segments at once (again after 1 s without data, and the next two after a first CE
    /// mark), delaying ACKs only after that. Default 0; Linux: 16 (`TCP_MAX_QUICKACKS`).
    pub quickacks: u32,
    /// The timestamps option (RFC 7323) on every TCP packet: 12 header bytes more, data and
    /// ACKs (RTT samples come from the timestamp echo either way). Default false.
    pub timestamps: bool,
    /// Receiver window in packets or bytes. Default `"65535pkt"`.
    #[serde(with = "crate::units::serde_text::packets_or_bytes")]
    #[schemars(with = "crate::units::quantity::BufferSize")]
    pub receive_window: PacketsOrBytes,
    /// ECN (RFC 3168): data packets are sent ECN-capable (ECT(0)), the receiver echoes CE
    /// marks, and the sender reacts to an echo at most once per window. Default false.
    pub ecn: bool,
    /// How the receiver echoes CE marks: `"rfc3168"` (latched until CWR) or `"dctcp"` (each
    /// ACK says whether the segments it acknowledges were marked). Default `"rfc3168"`; a
    /// controller that needs the exact echo (DCTCP) turns it on, with `ecn`, unless the
    /// scenario sets it.
    pub ecn_echo: EcnEcho,
    /// Each data packet leaves its host after an extra random delay, uniform in
    /// [0, send_jitter), order kept — ns-2's `overhead_`, the usual cure for DropTail phase
    /// effects (Floyd & Jacobson, "On Traffic Phase Effects in Packet-Switched Gateways",
    /// 1992). Default `"0s"`.
    #[serde(with = "crate::units::serde_text::duration")]
    #[schemars(with = "crate::units::quantity::Duration")]
    pub send_jitter: SimDuration,
}

/// Bytes of the timestamps option on the wire: kind, length, two 4-byte values, and two
/// NOPs that align it (RFC 7323 Appendix A).
pub const TIMESTAMPS_OPTION: Bytes = Bytes(12);

impl TcpConfig {
    /// The receiver sends SACK blocks: exactly when `recovery` is `"sack"` (the table's
    /// `sack` is `recovery` spelt as a bool).
    pub fn sack(&self) -> bool {
        self.recovery == Recovery::Sack
    }

    /// The ranges the settings must lie in: `Err((field, message))` for the first that does
    /// not (the scenario's `tcp` table names it; a profile's values always pass).
    pub fn check(&self) -> Result<(), (&'static str, String)> {
        use crate::units::limits::MIN_TIMER;
        if !(1..=65_000).contains(&self.mss.0) {
            return Err(("mss", format!("{} bytes is out of range; expected 1B to 65000B", self.mss.0)));
        }
        if self.header.0 > 1000 {
            return Err(("header", format!("{} bytes is out of range; expected 0B to 1000B", self.header.0)));
        }
        if self.initial_cwnd_pkts == 0 {
            return Err(("initial_cwnd", "0 is not allowed; expected at least 1 packet".into()));
        }
        // A timer must move the clock: a zero RTO re-arms at the same instant forever.
        for (name, v) in [("min_rto", self.min_rto), ("max_rto", self.max_rto), ("initial_rto", self.initial_rto)] {
            if v < MIN_TIMER {
                return Err((name, format!("{v} is too short; expected at least {MIN_TIMER}")));
            }
        }
        if self.min_rto > self.max_rto {
            return Err(("min_rto", format!("{} is above max_rto ({}); expected min_rto ≤ max_rto", self.min_rto, self.max_rto)));
        }
        if self.loss_detection == LossDetection::RackTlp && self.recovery == Recovery::Sack && self.recovery_rules == RecoveryRules::Ns2 {
            return Err((
                "loss_detection",
                "\"rack_tlp\" with recovery_rules = \"ns2\" and SACK is no stack: ns-2's Sack1 finds losses by duplicate ACKs; expected \"dupack\" (or recovery_rules = \"rfc\")".into(),
            ));
        }
        if self.dupthresh == 0 {
            return Err(("dupthresh", "0 is not allowed; expected at least 1".into()));
        }
        if self.delayed_ack_timeout < MIN_TIMER {
            return Err(("delayed_ack_timeout", format!("{} is too short; expected at least {MIN_TIMER}", self.delayed_ack_timeout)));
        }
        if self.quickacks > 1000 {
            return Err(("quickacks", format!("{} is out of range; expected 0 to 1000 segments (Linux: 16)", self.quickacks)));
        }
        if self.initial_ssthresh_pkts < 2.0 {
            return Err(("initial_ssthresh", format!("{} is too small; expected at least 2 packets", self.initial_ssthresh_pkts)));
        }
        if self.receive_window_pkts() == 0 {
            return Err(("receive_window", "holds less than one segment; expected at least 1 packet".into()));
        }
        if self.receive_window_pkts() > 1 << 24 {
            return Err(("receive_window", format!("{} packets is too large; expected at most 16777216", self.receive_window_pkts())));
        }
        Ok(())
    }

    /// The receive window in segments (a window in bytes holds whole segments of `mss`).
    pub fn receive_window_pkts(&self) -> u64 {
        match self.receive_window {
            PacketsOrBytes::Packets(n) => n,
            PacketsOrBytes::Bytes(b) => b.0 / self.mss.0,
        }
    }

    /// Header bytes of every TCP packet: `header`, plus the timestamps option when on.
    pub fn tcp_header(&self) -> Bytes {
        Bytes(self.header.0 + if self.timestamps { TIMESTAMPS_OPTION.0 } else { 0 })
    }
}

impl Default for TcpConfig {
    fn default() -> Self {
        TcpConfig {
            mss: Bytes(1460),
            header: Bytes(40),
            recovery: Recovery::Sack,
            recovery_rules: RecoveryRules::Rfc,
            loss_detection: LossDetection::Dupack,
            cwnd_growth: CwndGrowth::PerAck,
            cwr_freeze: false,
            cwnd_validation: CwndValidation::None,
            controller_rtt: ControllerRtt::Echo,
            rto_estimator: RtoEstimator::Rfc6298,
            timeout_ssthresh: TimeoutSsthresh::Controller,
            first_decrease: FirstDecrease::Controller,
            limited_transmit: true,
            prr: false,
            initial_cwnd_pkts: 10,
            initial_ssthresh_pkts: f64::INFINITY,
            min_rto: SimDuration::from_secs(1),
            max_rto: SimDuration::from_secs(60),
            initial_rto: SimDuration::from_secs(1),
            dupthresh: 3,
            delayed_ack: false,
            delayed_ack_timeout: SimDuration::from_millis(40),
            quickacks: 0,
            timestamps: false,
            receive_window: PacketsOrBytes::Packets(65535),
            ecn: false,
            ecn_echo: EcnEcho::Rfc3168,
            send_jitter: SimDuration::ZERO,
        }
    }
}
