//! Resolved transport settings of one flow (defaults applied, units converted).

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

/// Everything the TCP-like sender and receiver of one flow need to know.
/// Field names are the `tcp` table's where the table has the field (`initial_cwnd`, ...): a
/// scenario's table is laid over a profile's `TcpConfig` field by field (`compile.rs`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TcpConfig {
    /// Payload bytes per full segment.
    #[serde(with = "crate::units::serde_text::bytes")]
    pub mss: Bytes,
    /// Header bytes on every packet (data and ACK).
    #[serde(with = "crate::units::serde_text::bytes")]
    pub header: Bytes,
    /// The receiver sends SACK blocks (true exactly when `recovery` is `Sack`).
    #[serde(skip)] // (`recovery == Sack`, set after the overlay)
    pub sack: bool,
    /// Loss recovery.
    pub recovery: Recovery,
    /// Whose reading of the recovery rules.
    pub recovery_rules: RecoveryRules,
    /// How losses are found before the timer.
    pub loss_detection: LossDetection,
    /// What one ACK tells the controller.
    pub cwnd_growth: CwndGrowth,
    /// No window growth after an ECN reduction until its window is acknowledged (CWR).
    pub cwr_freeze: bool,
    /// How the RTO follows the RTT.
    pub rto_estimator: RtoEstimator,
    /// The ssthresh a timeout leaves.
    pub timeout_ssthresh: TimeoutSsthresh,
    /// What the first decrease does.
    pub first_decrease: FirstDecrease,
    /// Duplicate ACKs before fast recovery free room for new segments (RFC 3042).
    pub limited_transmit: bool,
    /// Fast recovery sends by Proportional Rate Reduction (RFC 6937).
    pub prr: bool,
    /// Initial congestion window, packets.
    #[serde(rename = "initial_cwnd")]
    pub initial_cwnd_pkts: u32,
    /// Initial slow-start threshold, packets (`f64::INFINITY` when unbounded).
    #[serde(with = "crate::units::serde_text::unbounded")]
    pub initial_ssthresh_pkts: f64,
    /// RTO lower bound.
    #[serde(with = "crate::units::serde_text::duration")]
    pub min_rto: SimDuration,
    /// RTO upper bound.
    #[serde(with = "crate::units::serde_text::duration")]
    pub max_rto: SimDuration,
    /// RTO before the first RTT sample.
    #[serde(with = "crate::units::serde_text::duration")]
    pub initial_rto: SimDuration,
    /// Duplicate ACKs that trigger fast retransmit.
    pub dupthresh: u32,
    /// ACK every second full segment.
    pub delayed_ack: bool,
    /// Longest wait of a delayed ACK.
    #[serde(with = "crate::units::serde_text::duration")]
    pub delayed_ack_timeout: SimDuration,
    /// Linux's quick-ACK mode: this many segments are each acknowledged at once at the
    /// start, and again after 1 s without data (0: never).
    pub quickacks: u32,
    /// Every TCP packet carries the timestamps option (RFC 7323): 12 more header bytes.
    pub timestamps: bool,
    /// Receiver window, packets.
    pub receive_window_pkts: u64,
    /// Data packets are sent ECN-capable.
    pub ecn: bool,
    /// Each data packet leaves the host after an extra uniform delay in [0, send_jitter).
    #[serde(with = "crate::units::serde_text::duration")]
    pub send_jitter: SimDuration,
}

/// Bytes of the timestamps option on the wire: kind, length, two 4-byte values, and two
/// NOPs that align it (RFC 7323 Appendix A).
pub const TIMESTAMPS_OPTION: Bytes = Bytes(12);

impl TcpConfig {
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
        if self.receive_window_pkts == 0 {
            return Err(("receive_window", "holds less than one segment; expected at least 1 packet".into()));
        }
        if self.receive_window_pkts > 1 << 24 {
            return Err(("receive_window", format!("{} packets is too large; expected at most 16777216", self.receive_window_pkts)));
        }
        Ok(())
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
            sack: true,
            recovery: Recovery::Sack,
            recovery_rules: RecoveryRules::Rfc,
            loss_detection: LossDetection::Dupack,
            cwnd_growth: CwndGrowth::PerAck,
            cwr_freeze: false,
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
            receive_window_pkts: 65535,
            ecn: false,
            send_jitter: SimDuration::ZERO,
        }
    }
}
