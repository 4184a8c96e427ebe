//! The reliable TCP-like sender: segments, cumulative + selective ACK processing, fast
//! retransmit and recovery, retransmission timeout. It calls a congestion controller and
//! owns loss detection and RTT estimation. ACK processing is `ack`, what leaves and when
//! `send`, the timers `timers`; the loss recovery variants are `super::recovery`, the
//! congestion states `super::state`.
//!
//! - One recovery per window: a new one starts only once the cumulative ACK reaches
//!   `recover` (RFC 6582 §3.2 step 1, also after an RTO). In recovery the window is run as
//!   RFC 6675's `pipe` against cwnd (the controller sets cwnd = ssthresh on entry; ns-2's
//!   Sack1 keeps its own count). The first retransmission goes out at once regardless of
//!   `pipe` (RFC 6675 step 4.3).
//! - RTO per RFC 6298 with Karn's rule (no sample from a retransmitted segment), restarted
//!   also when the first outstanding segment is retransmitted (Linux). On expiry every
//!   un-SACKed outstanding segment is deemed lost and resent in order from cwnd = 1.
//! - ECN (RFC 3168 §6.1): with `ecn` on, data goes out ECT(0); an ACK carrying ECN-Echo
//!   makes the controller reduce (`CongestionKind::Ecn`) at most once per window of data
//!   (not again until the cumulative ACK passes what was sent at the reduction, nor during
//!   or for the window of a loss recovery), and the next data packet carries CWR.
//! - Limited transmit (RFC 3042, `limited_transmit`, on by default): before fast recovery
//!   each duplicate ACK (or SACKed segment) frees room for one new segment, because the
//!   window is always run as `pipe` — as Linux's `tcp_packets_in_flight` does (classic Reno
//!   and Sack1 count differently: their files). Off, the duplicate ACKs counted since the
//!   last new ACK free nothing until fast retransmit.
//! - With `prr` on, fast recovery sends what Proportional Rate Reduction (RFC 6937,
//!   `prr.rs`) allows on each ACK instead of filling `pipe` up to cwnd; with `cwr_freeze`
//!   too, so does CWR after an ECN reduction (Linux's `tcp_cwnd_reduction` in CA_CWR, ns-3's
//!   `EnterCwr` calling its recovery ops), instead of a silence until pipe falls below the cut
//!   window.
//! - With `recovery_rules = "ns2"` (ns-2.35's `tcp-reno.cc`, `tcp-newreno.cc`,
//!   `tcp-sack1.cc`): a new recovery needs the cumulative ACK to pass `recover`
//!   (`highest_ack_ > recover_`, one segment stricter than RFC 6582); a retransmission never
//!   restarts a running timer (ns-2's `output`), entering recovery does (`reset_rtx_timer`);
//!   with SACK the recovery is Sack1.
//! - The window a congestion event leaves is the controller's, with the stack's rules laid
//!   over it (`super::window_policy`: ns-2's halving).
//! - Not implemented without RACK: lost-retransmission detection (a lost retransmission is
//!   recovered by the timer); F-RTO.

mod ack;
mod send;
mod timers;
mod xmit_timer;

use super::config::{CwndGrowth, RecoveryRules, RtoEstimator, TcpConfig};
use super::controller_rtt::ControllerRttRule;
use super::cwnd_use::CwndUse;
use super::delivery_rate::DeliveryRate;
use super::recovery::{LossRecovery, RecoveryVariant};
use super::scoreboard::Scoreboard;
use super::state::CaState;
use super::window_policy::WindowPolicy;
use crate::cc::{CongestionControl, CongestionEvent, CongestionKind, Controller};
use crate::ids::{FlowId, NodeId};
use crate::transport::congestion_window::CongestionWindow;
use crate::transport::cwnd_trace::{CwndCause, CwndState, CwndTrace};
use crate::transport::lazy_timer::LazyTimer;
use crate::transport::outbox::Outbox;
use crate::transport::rtt::RttEstimator;
use crate::transport::segments::SegmentSizes;
use crate::transport::sender_stats::SenderStats;
use crate::units::{Bytes, SimTime};
use xmit_timer::XmitTimer;

/// One flow's sender.
pub struct TcpSender {
    flow: FlowId,
    dst: NodeId,
    header: Bytes,
    /// How losses are found and repaired, with the variant's own state.
    recovery: LossRecovery,
    /// Where the sender stands with congestion.
    state: CaState,
    /// ns-2.35's timer and `recover` rules (`recovery_rules = "ns2"`).
    ns2_rules: bool,
    /// Timestamps on (RFC 7323): the echo names the transmission an ACK answers, so a
    /// retransmission's ACK is a valid RTT sample (RFC 6298 §3; Linux `tcp_ack_update_rtt`,
    /// ns-3 `CalculateRttSample`) — and, being one, ends the RTO backoff.
    rtt_from_retransmissions: bool,
    per_segment: bool,
    cwr_freeze: bool,
    /// How it used its window, for congestion window validation (`tcp.cwnd_validation`).
    cwnd_use: CwndUse,
    /// Which RTT the controller is told of (`tcp.controller_rtt`).
    controller_rtt: ControllerRttRule,
    /// The stack's rules for the window a congestion event leaves (ns-2's halving).
    policy: WindowPolicy,
    ecn: bool,
    limited_transmit: bool,
    prr_on: bool,
    dupthresh: u32,
    rwnd_pkts: u64,
    sizes: SegmentSizes,
    /// The congestion window and the controller that rules it.
    pub window: CongestionWindow,
    /// RTT estimator and RTO.
    pub rtt: RttEstimator,
    sb: Scoreboard,
    /// Oldest unacknowledged segment.
    pub snd_una: u64,
    /// Next new segment to send.
    pub snd_nxt: u64,
    app_open: bool,
    started: bool,
    /// Duplicate ACKs since the last ACK of new data.
    dupacks: u32,
    /// RFC 6582's `recover`: `snd_nxt` when the last recovery or timeout began.
    recover: u64,
    /// No ECN reaction until the cumulative ACK passes this (`snd_nxt` at the last reduction
    /// of any kind).
    ecn_recover: u64,
    /// The retransmission timer.
    rto: LazyTimer,
    /// What `rto` runs to.
    xmit_timer: XmitTimer,
    /// Pacing: the earliest time the next packet may leave.
    next_send_at: SimTime,
    /// Pacing: the wake-up for the next packet.
    pacing: LazyTimer,
    cwr_pending: bool,
    /// Segments the application has offered so far, when it offers data over time (an
    /// ON/OFF source); `None`: everything up to `sizes.total` is available (bulk, finite).
    offered_segments: Option<u64>,
    /// Bytes written by the application that do not yet fill a segment.
    unsegmented_bytes: u64,
    /// Counters over the run.
    pub stats: SenderStats,
    /// `stats` when the measurement window started.
    stats_at_window_start: SenderStats,
    /// Every change of cwnd and ssthresh with its cause (`cwnd_trace`), if traced.
    pub cwnd_trace: Option<Box<CwndTrace>>,
    /// Delivery-rate records, kept when the controller reads rate samples (BBR).
    rate: Option<Box<DeliveryRate>>,
}

impl TcpSender {
    /// A sender of `flow` to node `dst` with settings `cfg` and controller `cc`.
    pub fn new(flow: FlowId, dst: NodeId, cfg: &TcpConfig, sizes: SegmentSizes, cc: Controller) -> Self {
        let recovery = LossRecovery::new(cfg);
        let controller_rtt = ControllerRttRule::new(cfg.controller_rtt);
        TcpSender {
            flow,
            dst,
            header: cfg.tcp_header(),
            sb: if recovery.is_rack_tlp() || controller_rtt.reads_send_times() { Scoreboard::with_send_times() } else { Scoreboard::new() },
            recovery,
            state: CaState::Open,
            ns2_rules: cfg.recovery_rules == RecoveryRules::Ns2,
            rtt_from_retransmissions: cfg.timestamps,
            per_segment: cfg.cwnd_growth == CwndGrowth::PerSegment,
            cwr_freeze: cfg.cwr_freeze,
            cwnd_use: CwndUse::new(cfg.cwnd_validation),
            controller_rtt,
            policy: WindowPolicy::new(cfg),
            ecn: cfg.ecn,
            limited_transmit: cfg.limited_transmit,
            // Linux runs no PRR under a controller with its own `cong_control` (BBR).
            prr_on: cfg.prr && !cc.sets_window_in_recovery(),
            dupthresh: cfg.dupthresh,
            rwnd_pkts: cfg.receive_window_pkts(),
            sizes,
            rtt: match cfg.rto_estimator {
                RtoEstimator::Rfc6298 => RttEstimator::new(cfg.initial_rto, cfg.min_rto, cfg.max_rto),
                RtoEstimator::Linux => RttEstimator::linux(cfg.initial_rto, cfg.min_rto, cfg.max_rto),
                RtoEstimator::Ns2 => RttEstimator::ns2(cfg.initial_rto, cfg.min_rto, cfg.max_rto),
            },
            snd_una: 0,
            snd_nxt: 0,
            app_open: true,
            started: false,
            dupacks: 0,
            recover: 0,
            ecn_recover: 0,
            rto: LazyTimer::default(),
            xmit_timer: XmitTimer::Rto,
            next_send_at: SimTime::ZERO,
            pacing: LazyTimer::default(),
            cwr_pending: false,
            offered_segments: None,
            unsegmented_bytes: 0,
            stats: SenderStats::default(),
            stats_at_window_start: SenderStats::default(),
            cwnd_trace: None,
            rate: cc.wants_rate_samples().then(Box::default),
            window: CongestionWindow::new(cc, cfg.initial_cwnd_pkts as f64, cfg.initial_ssthresh_pkts),
        }
    }

    /// Records every change of cwnd and ssthresh from now on (`cwnd_trace`).
    pub fn trace_cwnd(&mut self) {
        self.cwnd_trace = Some(Box::new(CwndTrace::new(CwndState::of(self.window.window()))));
    }

    /// Writes the window into the trace, if traced and changed, as caused by `cause`.
    #[inline]
    fn traced(&mut self, now: SimTime, cause: CwndCause) {
        if self.cwnd_trace.is_some() {
            let (state, pipe) = (CwndState::of(self.window.window()), self.pipe());
            if let Some(t) = self.cwnd_trace.as_deref_mut() {
                t.observe(now, cause, state, pipe);
            }
        }
    }

    /// Payload bytes of a full segment.
    pub fn mss(&self) -> u64 {
        self.sizes.mss
    }

    /// Segments in flight (RFC 6675 `pipe`).
    #[inline]
    pub fn pipe(&self) -> u64 {
        let outstanding = self.snd_nxt - self.snd_una;
        (outstanding + self.sb.retrans_out).saturating_sub(self.sacked_pkts() + self.sb.lost_out)
    }

    /// Segments above the cumulative ACK known to have arrived: SACKed, or (without SACK)
    /// stood for by duplicate ACKs.
    #[inline]
    fn sacked_pkts(&self) -> u64 {
        self.recovery.sacked_pkts(&self.sb)
    }

    /// Whether the window has room for one more segment now.
    #[inline]
    fn window_open(&self, cwnd: u64) -> bool {
        if self.prr_paced() {
            return self.state.prr().is_some_and(|p| p.budget_pkts() > 0);
        }
        if self.state.in_recovery() {
            return self.recovery.recovery_window_open(self.pipe(), cwnd);
        }
        let dupacks = self.dupacks as u64;
        let in_flight = if self.limited_transmit {
            self.recovery.limited_transmit_in_flight(self.pipe(), &self.sb, self.snd_una, self.snd_nxt, dupacks, self.dupthresh)
        } else {
            // The duplicate ACKs that have not (yet) started a recovery free no room.
            self.pipe() + dupacks.min(self.sacked_pkts())
        };
        in_flight < cwnd
    }

    /// Whether the window is held after an ECN reduction (CWR), until the data outstanding
    /// at the reduction is acknowledged (`cwr_freeze`).
    #[inline]
    fn in_cwr(&self) -> bool {
        self.cwr_freeze && matches!(self.state, CaState::Cwr { .. }) && self.snd_una <= self.ecn_recover
    }

    /// Whether PRR paces what leaves: in fast recovery, and in CWR, with `prr` on.
    #[inline]
    fn prr_paced(&self) -> bool {
        self.prr_on && (self.state.in_recovery() || self.in_cwr())
    }

    /// The one place the congestion state changes (to `to`, at `now`): the controller hears
    /// of every change of phase (Linux's `set_state`).
    fn set_state(&mut self, to: CaState, now: SimTime) {
        let from = std::mem::replace(&mut self.state, to).phase();
        if from != to.phase() {
            self.window.on_state_change(from, to.phase(), now);
        }
    }

    /// Whether the sender is in fast recovery.
    pub fn in_recovery(&self) -> bool {
        self.state.in_recovery()
    }

    /// Whether every segment of a finite transfer has been acknowledged.
    pub fn is_done(&self) -> bool {
        self.sizes.total.is_some_and(|t| self.snd_una >= t)
    }

    fn has_new_data(&self) -> bool {
        self.started && self.app_open && self.sizes.total.is_none_or(|t| self.snd_nxt < t) && self.offered_segments.is_none_or(|o| self.snd_nxt < o)
    }

    /// From now on sends only segments the application offers (`offer`).
    pub fn limit_to_offered(&mut self) {
        self.offered_segments = Some(0);
    }

    /// The application writes `write` at `now` (application-limited TCP): one full segment, or
    /// bytes that join the stream — whole segments leave, a remainder waits for the next
    /// write (Nagle's coalescing, RFC 896, without its timer: segments stay full).
    pub fn offer_write(&mut self, write: crate::app::Write, now: SimTime, out: &mut Outbox) {
        match write {
            crate::app::Write::Nothing => {}
            crate::app::Write::Packet => self.offer_segment(now, out),
            crate::app::Write::Bytes(b) => {
                self.unsegmented_bytes += b;
                while self.unsegmented_bytes >= self.sizes.mss {
                    self.unsegmented_bytes -= self.sizes.mss;
                    self.offer_segment(now, out);
                }
            }
        }
    }

    /// The application offers one more segment of data at `now` (application-limited TCP).
    pub fn offer_segment(&mut self, now: SimTime, out: &mut Outbox) {
        if let Some(o) = self.offered_segments.as_mut() {
            *o += 1;
        }
        self.try_send(now, out);
    }

    /// The application starts at `now`.
    pub fn start(&mut self, now: SimTime, out: &mut Outbox) {
        self.started = true;
        self.try_send(now, out);
    }

    /// The application stops offering new data (outstanding data is still delivered).
    pub fn stop_app(&mut self) {
        self.app_open = false;
    }

    /// A congestion signal of `kind` at `now`: the controller cuts, the stack's rules apply.
    fn congestion(&mut self, kind: CongestionKind, now: SimTime) {
        let ev = CongestionEvent { now, kind, pkts_in_flight: self.pipe(), srtt: self.rtt.srtt_or_rto() };
        self.policy.on_congestion(&mut self.window, &ev);
        self.traced(now, kind.into());
    }

    /// Hints that an acknowledgement will arrive soon: loads the scoreboard's flags from
    /// `snd_una` (reads the sender's own fields, so call it once they are in cache).
    #[inline]
    pub fn prefetch_for_ack(&self) {
        self.sb.prefetch_from(self.snd_una);
    }

    /// Counters over the measurement window.
    pub fn window_stats(&self) -> SenderStats {
        self.stats.since(&self.stats_at_window_start)
    }

    /// Starts the measurement window: snapshots the counters, forgets the RTT statistics.
    pub fn start_window(&mut self) {
        self.stats_at_window_start = self.stats;
        self.rtt.start_window();
    }
}

#[cfg(test)]
mod tests;
