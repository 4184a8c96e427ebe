//! The reliable TCP-like sender: segments, cumulative + selective ACK processing, fast
//! retransmit and recovery, retransmission timeout. It calls a congestion controller and
//! owns loss detection and RTT estimation.
//!
//! - Fast retransmit on `dupthresh` duplicate ACKs or, with SACK, when the first outstanding
//!   segment is deemed lost (RFC 6675 §5). One recovery per window: a new one starts only
//!   once the cumulative ACK reaches `recover` (RFC 6582 §3.2 step 1, also after an RTO).
//! - In recovery the window is run as RFC 6675's `pipe` against cwnd (the controller sets
//!   cwnd = ssthresh on entry): lost segments first (`NextSeg` rule 1), then new data. The
//!   first retransmission goes out at once regardless of `pipe` (RFC 6675 step 4.3).
//! - A partial ACK marks the new first outstanding segment lost (RFC 6582 §3.2 step 3). With
//!   SACK this stands in for RFC 6675's rescue retransmission (rule 4 of `NextSeg`, not
//!   otherwise implemented): it recovers a lost tail without waiting for the timer.
//! - Without SACK (NewReno) each duplicate ACK counts one segment as having left the network,
//!   and a partial ACK of k segments removes k − 1 of those counts (Linux's
//!   `tcp_remove_reno_sacks`), which is RFC 6582's window inflation and deflation in pipe form.
//! - Classic Reno (`recovery = "reno"`, ns-2's Agent/TCP/Reno): duplicate ACKs inflate the
//!   window only in fast recovery, and any new ACK ends it; the `recover` rule above keeps a
//!   second fast retransmit out of the same window, so a second loss waits for the timer.
//! - RTO per RFC 6298 with Karn's rule (no sample from a retransmitted segment), restarted
//!   also when the first outstanding segment is retransmitted (Linux). On expiry
//!   every un-SACKed outstanding segment is deemed lost and resent in order from cwnd = 1.
//! - ECN (RFC 3168 §6.1): with `ecn` on, data goes out ECT(0); an ACK carrying ECN-Echo
//!   makes the controller reduce (`CongestionKind::Ecn`) at most once per window of data
//!   (not again until the cumulative ACK passes what was sent at the reduction, nor during
//!   or for the window of a loss recovery), and the next data packet carries CWR.
//! - Limited transmit (RFC 3042, `limited_transmit`, on by default): before fast recovery
//!   each duplicate ACK (or SACKed segment) frees room for one new segment, because the
//!   window is always run as `pipe` — as Linux's `tcp_packets_in_flight` does. Classic
//!   Reno sends one new segment on each of the first `dupthresh` − 1 duplicate ACKs (ns-2's
//!   `singledup_`). Off, the duplicate ACKs counted since the last new ACK free nothing
//!   until fast retransmit.
//! - With `prr` on, fast recovery sends what Proportional Rate Reduction (RFC 6937,
//!   `prr.rs`) allows on each ACK instead of filling `pipe` up to cwnd; with `cwr_freeze`
//!   too, so does CWR after an ECN reduction (Linux's `tcp_cwnd_reduction` in CA_CWR, ns-3's
//!   `EnterCwr` calling its recovery ops), instead of a silence until pipe falls below the cut
//!   window.
//! - With `recovery_rules = "ns2"` (ns-2.35's `tcp-reno.cc`, `tcp-newreno.cc`, `tcp-sack1.cc`):
//!   a new recovery needs the cumulative ACK to pass `recover` (`highest_ack_ > recover_`,
//!   one segment stricter than RFC 6582); a retransmission never restarts a running timer
//!   (ns-2's `output`), entering recovery does (`reset_rtx_timer`), and NewReno restarts it
//!   on the first partial ACK of a recovery only (`newreno_changes1_ 1`), so a window with
//!   many losses ends in a timeout. With SACK this is ns-2's Sack1 (Fall & Floyd, "Simulation-
//!   based Comparisons of Tahoe, Reno, and SACK TCP", 1996): recovery starts on `dupthresh`
//!   duplicate ACKs only; in it the window is a counter `pipe_` — outstanding − dupthresh on
//!   entry (not counting the first retransmission), −1 per ACK, −1 more per partial ACK,
//!   +1 per segment sent — and any hole below a SACKed segment is retransmitted once
//!   (`ScoreBoardRQ::GetNextRetran`); a timeout forgets every SACK (`ClearScoreBoard`),
//!   resends from the cumulative ACK, and ignores SACK blocks and duplicate ACKs until a new
//!   cumulative ACK (`timeout_`). Not modelled: NewReno's partial window deflation past the
//!   inflation (ns-2 then lowers `cwnd_` itself), and its burst limit of 2 in recovery, which
//!   the deflation leaves little to bind.
//! - With `loss_detection = "rack_tlp"` and SACK (the linux profile), losses are found by RACK
//!   (RFC 8985 §6, `rack.rs`) instead of duplicate ACKs and `IsLost` — lost retransmissions
//!   included — and recovery starts once RACK deems a segment lost. The one retransmission
//!   timer then runs to one of three deadlines, as Linux's `icsk_pending` does: the RTO, a
//!   tail loss probe (RFC 8985 §7, `tcp_schedule_loss_probe`: 2·SRTT, plus 200 ms with one
//!   segment out, at most the RTO, rescheduled on each ACK of new data outside recovery),
//!   or RACK's reorder timer. The probe sends one new segment whatever cwnd, or resends the
//!   last one; one probe per flight (`tlp_high_seq`). Not modelled: TLP's loss-repair
//!   reduction after a probe that resent the last segment (it needs DSACK; bulk senders
//!   always have new data to probe with).
//! - Not implemented without RACK: lost-retransmission detection (a lost retransmission is
//!   recovered by the timer); F-RTO.

use super::config::{CwndGrowth, LossDetection, Recovery, RecoveryRules, RtoEstimator, TcpConfig};
use super::prr::Prr;
use super::rack::{reo_wnd, Rack};
use super::scoreboard::Scoreboard;
use super::window_policy::WindowPolicy;
use crate::cc::{AckEvent, CongestionControl, CongestionEvent, CongestionKind, Controller};
use crate::ids::{FlowId, NodeId};
use crate::net::packet::{Ecn, Packet};
use crate::transport::lazy_timer::LazyTimer;
use crate::transport::outbox::Outbox;
use crate::transport::rtt::RttEstimator;
use crate::transport::segments::SegmentSizes;
use crate::transport::timer::TimerKind;
use crate::units::{Bytes, SimDuration, SimTime};

use crate::monitor::cwnd_trace::{CwndCause, CwndState, CwndTrace};
use crate::monitor::sender_stats::SenderStats;

/// What the retransmission timer's deadline is for (Linux's `icsk_pending`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum XmitTimer {
    /// The retransmission timeout.
    Rto,
    /// RACK-TLP's tail loss probe.
    Probe,
    /// RACK's reorder timer.
    Reorder,
}

/// One flow's sender.
pub struct TcpSender {
    flow: FlowId,
    dst: NodeId,
    header: Bytes,
    sack: bool,
    recovery: Recovery,
    /// ns-2.35's reading of the recovery rules (`recovery_rules = "ns2"`).
    ns2_rules: bool,
    /// ns-2's Sack1: `ns2_rules` with SACK.
    sack1: bool,
    /// Sack1's `pipe_`: segments it deems in flight during fast recovery.
    sack1_pipe: i64,
    /// Sack1 after a timeout: SACK blocks and duplicate ACKs are ignored until a new
    /// cumulative ACK (ns-2's `timeout_`).
    sack1_after_timeout: bool,
    /// A partial ACK has arrived in this recovery.
    partial_acked: bool,
    per_segment: bool,
    cwr_freeze: bool,
    /// The stack's rules for the window a congestion event leaves (ns-2's halving).
    policy: WindowPolicy,
    ecn: bool,
    limited_transmit: bool,
    prr_on: bool,
    /// PRR state of the current recovery.
    prr: Prr,
    /// Segments PRR still lets fast recovery send before the next ACK.
    prr_budget: u64,
    dupthresh: u32,
    rwnd_pkts: u64,
    sizes: SegmentSizes,
    /// The congestion controller.
    pub cc: Controller,
    /// RTT estimator and RTO.
    pub rtt: RttEstimator,
    sb: Scoreboard,
    /// Oldest unacknowledged segment.
    pub snd_una: u64,
    /// Next new segment to send.
    pub snd_nxt: u64,
    app_open: bool,
    started: bool,
    dupacks: u32,
    /// NewReno: duplicate ACKs standing for segments that left the network.
    reno_sacked: u64,
    in_recovery: bool,
    recover: u64,
    /// The retransmission timer.
    rto: LazyTimer,
    /// What `rto` runs to.
    xmit_timer: XmitTimer,
    /// RACK loss detection (`loss_detection = "rack_tlp"` with SACK).
    rack: Option<Box<Rack>>,
    /// A tail loss probe is out: `snd_nxt` when it was sent.
    tlp_high_seq: Option<u64>,
    /// After a timeout until the cumulative ACK reaches `recover` (Linux's CA_Loss).
    in_loss: bool,
    /// Pacing: the earliest time the next packet may leave.
    next_send_at: SimTime,
    /// Pacing: the wake-up for the next packet.
    pacing: LazyTimer,
    /// No ECN reaction until the cumulative ACK passes this.
    ecn_recover: u64,
    /// An ECN reduction has happened (its window ends at `ecn_recover`).
    ecn_reduced: bool,
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
}

impl TcpSender {
    /// A sender of `flow` to node `dst` with settings `cfg` and controller `cc`.
    pub fn new(flow: FlowId, dst: NodeId, cfg: &TcpConfig, sizes: SegmentSizes, cc: Controller) -> Self {
        TcpSender {
            flow,
            dst,
            header: cfg.tcp_header(),
            sack: cfg.sack,
            recovery: cfg.recovery,
            ns2_rules: cfg.recovery_rules == RecoveryRules::Ns2,
            sack1: cfg.recovery_rules == RecoveryRules::Ns2 && cfg.sack,
            sack1_pipe: 0,
            sack1_after_timeout: false,
            partial_acked: false,
            per_segment: cfg.cwnd_growth == CwndGrowth::PerSegment,
            cwr_freeze: cfg.cwr_freeze,
            policy: WindowPolicy::new(cfg),
            ecn: cfg.ecn,
            limited_transmit: cfg.limited_transmit,
            prr_on: cfg.prr,
            prr: Prr::default(),
            prr_budget: 0,
            dupthresh: cfg.dupthresh,
            rwnd_pkts: cfg.receive_window_pkts,
            sizes,
            cc,
            rtt: match cfg.rto_estimator {
                RtoEstimator::Rfc6298 => RttEstimator::new(cfg.initial_rto, cfg.min_rto, cfg.max_rto),
                RtoEstimator::Linux => RttEstimator::linux(cfg.initial_rto, cfg.min_rto, cfg.max_rto),
                RtoEstimator::Ns2 => RttEstimator::ns2(cfg.initial_rto, cfg.min_rto, cfg.max_rto),
            },
            sb: if cfg.loss_detection == LossDetection::RackTlp && cfg.sack { Scoreboard::with_send_times() } else { Scoreboard::new() },
            snd_una: 0,
            snd_nxt: 0,
            app_open: true,
            started: false,
            dupacks: 0,
            reno_sacked: 0,
            in_recovery: false,
            recover: 0,
            rto: LazyTimer::default(),
            xmit_timer: XmitTimer::Rto,
            rack: (cfg.loss_detection == LossDetection::RackTlp && cfg.sack).then(Box::default),
            tlp_high_seq: None,
            in_loss: false,
            next_send_at: SimTime::ZERO,
            pacing: LazyTimer::default(),
            ecn_recover: 0,
            ecn_reduced: false,
            cwr_pending: false,
            offered_segments: None,
            unsegmented_bytes: 0,
            stats: SenderStats::default(),
            stats_at_window_start: SenderStats::default(),
            cwnd_trace: None,
        }
    }

    /// Records every change of cwnd and ssthresh from now on (`cwnd_trace`).
    pub fn trace_cwnd(&mut self) {
        self.cwnd_trace = Some(Box::new(CwndTrace::new(CwndState::of(&self.cc))));
    }

    /// Writes the window into the trace, if traced and changed, as caused by `cause`.
    #[inline]
    fn traced(&mut self, now: SimTime, cause: CwndCause) {
        if self.cwnd_trace.is_some() {
            let (state, pipe) = (CwndState::of(&self.cc), self.pipe());
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
        if self.sack {
            self.sb.sacked_out
        } else {
            self.reno_sacked
        }
    }

    /// Sack1's segments in flight outside recovery, ns-2's `t_seqno_ - highest_ack_`: from
    /// the cumulative ACK to the next segment to send. That is the highest sent, except after
    /// a timeout, when Sack1 resends in order from the cumulative ACK (go-back-N) and the
    /// window counts up to the resend point only: segments SACKed above it are not in flight
    /// by this count (ns-2 cleared its scoreboard and will send them again).
    fn sack1_outstanding(&self) -> u64 {
        if self.sb.lost_out > self.sb.retrans_out {
            self.sb.resend_point().clamp(self.snd_una, self.snd_nxt) - self.snd_una
        } else {
            self.snd_nxt - self.snd_una
        }
    }

    /// Whether the window has room for one more segment now.
    #[inline]
    fn window_open(&self, cwnd: u64) -> bool {
        if self.prr_paced() {
            return self.prr_budget > 0;
        }
        if self.in_recovery {
            if self.sack1 {
                return self.sack1_pipe < cwnd as i64;
            }
            return self.pipe() < cwnd;
        }
        let dupacks = self.dupacks as u64;
        let in_flight = match (self.limited_transmit, self.recovery) {
            // Classic Reno and Sack1 count no duplicate ACK or SACK outside recovery; limited
            // transmit lets one new segment out for each of the first dupthresh − 1 (ns-2's
            // `singledup_`).
            (true, Recovery::Reno) => self.pipe().saturating_sub(dupacks.min(self.dupthresh as u64 - 1)),
            (true, Recovery::Sack) if self.sack1 => self.sack1_outstanding().saturating_sub(dupacks.min(self.dupthresh as u64 - 1)),
            (true, _) => self.pipe(),
            // Without limited transmit, the duplicate ACKs that have not (yet) started a
            // recovery free no room.
            (false, _) => self.pipe() + dupacks.min(self.sacked_pkts()),
        };
        in_flight < cwnd
    }

    /// Whether the window is held after an ECN reduction (CWR), until the data outstanding
    /// at the reduction is acknowledged (`cwr_freeze`); a loss recovery or a timeout ends it.
    #[inline]
    fn in_cwr(&self) -> bool {
        self.cwr_freeze && self.ecn_reduced && !self.in_recovery && self.snd_una <= self.ecn_recover
    }

    /// Whether PRR paces what leaves: in fast recovery, and in CWR, with `prr` on.
    #[inline]
    fn prr_paced(&self) -> bool {
        self.prr_on && (self.in_recovery || self.in_cwr())
    }

    /// Whether the sender is in fast recovery.
    pub fn in_recovery(&self) -> bool {
        self.in_recovery
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

    fn send_segment(&mut self, seq: u64, is_retransmission: bool, now: SimTime, out: &mut Outbox) {
        let payload = self.sizes.payload(seq);
        let size = Bytes(payload + self.header.0);
        out.packets.push(Packet {
            is_retransmission,
            // RFC 3168 §6.1.5: retransmissions are not ECN-capable.
            ecn: if self.ecn && !is_retransmission { Ecn::Ect0 } else { Ecn::NotEct },
            cwr: std::mem::take(&mut self.cwr_pending),
            ..Packet::data(self.flow, self.dst, seq, size, now)
        });
        self.stats.data_pkts_sent += 1;
        self.stats.data_bytes_sent += size.0;
        if !is_retransmission {
            self.stats.payload_bytes_sent += payload;
        }
        if let Some(rack) = self.rack.as_deref_mut() {
            self.sb.stamp(seq, now);
            if is_retransmission {
                rack.on_retransmit(seq, now);
            }
        }
        if is_retransmission {
            self.stats.retransmitted_pkts += 1;
        }
        if self.prr_paced() {
            self.prr.on_send();
            self.prr_budget = self.prr_budget.saturating_sub(1);
        }
        self.pace(size, now);
        // RFC 6298 (5.1); and, as Linux does, restart the timer when the first outstanding
        // segment is retransmitted, so the retransmission gets a full RTO to be acknowledged
        // (ns-2's `output` never restarts a running timer).
        if !self.rto.is_armed() || (is_retransmission && seq == self.snd_una && !self.ns2_rules) {
            self.arm_rto(now, out);
        }
    }

    /// Runs the retransmission timer to one RTO from `now`.
    fn arm_rto(&mut self, now: SimTime, out: &mut Outbox) {
        self.xmit_timer = XmitTimer::Rto;
        self.rto.arm(TimerKind::Retransmit, now + self.rtt.rto(), out);
    }

    /// Replaces the RTO by a tail loss probe where RACK-TLP allows one
    /// (`tcp_schedule_loss_probe`): outside recovery with data outstanding, 2·SRTT from now
    /// (plus 200 ms with a single segment out, for a delayed ACK; 1 s before any RTT
    /// sample), no later than the RTO — counted from now when an ACK `advancing` the window
    /// restarts it, else from when the oldest outstanding segment was sent.
    fn schedule_probe(&mut self, now: SimTime, advancing: bool, out: &mut Outbox) {
        if self.rack.is_none() || self.in_recovery || self.in_loss || self.snd_nxt == self.snd_una {
            return;
        }
        let mut pto = match self.rtt.srtt() {
            Some(srtt) => srtt + srtt + SimDuration::from_millis(if self.snd_nxt - self.snd_una == 1 { 200 } else { 2 }),
            None => SimDuration::from_secs(1),
        };
        let rto_left = if advancing { self.rtt.rto() } else { (self.sb.sent_at(self.snd_una) + self.rtt.rto()).saturating_since(now) };
        if rto_left > SimDuration::ZERO {
            pto = pto.min(rto_left);
        }
        self.xmit_timer = XmitTimer::Probe;
        self.rto.arm(TimerKind::Retransmit, now + pto, out);
    }

    /// The tail loss probe (`tcp_send_loss_probe`): one new segment whatever cwnd, or else the
    /// last segment again; then the RTO. One probe per flight.
    fn send_probe(&mut self, now: SimTime, out: &mut Outbox) {
        if self.tlp_high_seq.is_none() {
            if self.has_new_data() && self.snd_nxt - self.snd_una < self.rwnd_pkts {
                let seq = self.snd_nxt;
                self.sb.on_send_new(self.snd_una, seq);
                self.snd_nxt += 1;
                self.send_segment(seq, false, now, out);
                self.tlp_high_seq = Some(self.snd_nxt);
            } else if !self.sb.is_sacked(self.snd_nxt - 1) {
                let seq = self.snd_nxt - 1;
                self.sb.mark_retransmitted(seq);
                self.send_segment(seq, true, now, out);
                self.tlp_high_seq = Some(self.snd_nxt);
            }
        }
        self.arm_rto(now, out);
    }

    /// Runs RACK's loss detection at `now` (after an ACK, or on its reorder timer); returns
    /// when the reorder timer should fire, if a segment is still within its window.
    fn rack_detect(&mut self, now: SimTime) -> Option<SimTime> {
        let rack = self.rack.as_deref_mut()?;
        let srtt = self.rtt.srtt_or_rto();
        let reo = reo_wnd(self.in_recovery || self.in_loss, self.sb.sacked_out, self.dupthresh, self.rtt.min_rtt().unwrap_or(srtt), srtt);
        rack.detect_loss(&mut self.sb, self.snd_una, self.snd_nxt, now, reo)
    }

    /// Starts fast recovery if a loss is known and the last recovery is over.
    fn maybe_enter_recovery(&mut self, now: SimTime, out: &mut Outbox) {
        let loss = if self.rack.is_some() {
            self.sb.lost_out > 0
        } else {
            self.dupacks >= self.dupthresh || (self.sack && !self.sack1 && self.sb.is_lost(self.snd_una))
        };
        // ns-2: `highest_ack_ > recover_`, the cumulative ACK covers a segment sent after.
        let recovered = if self.ns2_rules { self.snd_una > self.recover } else { self.snd_una >= self.recover };
        if loss && recovered && self.snd_nxt > self.snd_una {
            self.enter_recovery(now, out);
        }
    }

    /// RACK's reorder timer fired at `now`: losses it now finds may start a recovery.
    fn on_reorder_timer(&mut self, now: SimTime, out: &mut Outbox) {
        let next = self.rack_detect(now);
        if !self.in_recovery {
            self.maybe_enter_recovery(now, out);
        }
        self.try_send(now, out);
        match next {
            Some(at) => {
                self.xmit_timer = XmitTimer::Reorder;
                self.rto.arm(TimerKind::Retransmit, at, out);
            }
            None => self.arm_rto(now, out),
        }
    }

    /// Whether pacing holds the next packet back at `now`; if so, the pacing timer is armed.
    fn paced_out(&mut self, now: SimTime, out: &mut Outbox) -> bool {
        if now >= self.next_send_at || self.cc.pacing_rate().is_none() {
            return false;
        }
        self.pacing.wake_at(TimerKind::Pacing, self.next_send_at, out);
        true
    }

    /// After a packet of `size` left at `now`: when the next may leave, if the controller
    /// paces (one packet's serialization time at its pacing rate).
    fn pace(&mut self, size: Bytes, now: SimTime) {
        if let Some(rate) = self.cc.pacing_rate() {
            self.next_send_at = now + rate.serialization_time(size);
        }
    }

    /// Sends whatever the window allows: lost segments first, then new data; with a pacing
    /// rate from the controller, packets leave no faster than that rate.
    fn try_send(&mut self, now: SimTime, out: &mut Outbox) {
        let cwnd = self.cc.cwnd_pkts().max(1.0) as u64;
        let nxt_before = self.snd_nxt;
        self.send_window(cwnd, now, out);
        if self.snd_nxt > nxt_before && self.xmit_timer != XmitTimer::Reorder {
            self.schedule_probe(now, false, out);
        }
    }

    /// Sends what the window `cwnd` allows now.
    fn send_window(&mut self, cwnd: u64, now: SimTime, out: &mut Outbox) {
        while self.window_open(cwnd) {
            if self.paced_out(now, out) {
                break;
            }
            if let Some(seq) = self.sb.next_lost(self.snd_una) {
                self.sb.mark_retransmitted(seq);
                self.send_segment(seq, true, now, out);
            } else if self.has_new_data() && self.snd_nxt - self.snd_una < self.rwnd_pkts {
                let seq = self.snd_nxt;
                self.sb.on_send_new(self.snd_una, seq);
                self.snd_nxt += 1;
                self.send_segment(seq, false, now, out);
            } else {
                break;
            }
            if self.sack1 && self.in_recovery {
                self.sack1_pipe += 1;
            }
        }
    }

    fn congestion(&mut self, kind: CongestionKind, now: SimTime) {
        let ev = CongestionEvent { now, kind, pkts_in_flight: self.pipe(), srtt: self.rtt.srtt_or_rto() };
        self.policy.on_congestion(&mut self.cc, &ev);
        self.traced(now, kind.into());
    }

    fn enter_recovery(&mut self, now: SimTime, out: &mut Outbox) {
        self.in_recovery = true;
        self.recover = self.snd_nxt;
        self.ecn_recover = self.snd_nxt;
        self.ecn_reduced = false;
        self.stats.fast_retransmits += 1;
        if self.recovery == Recovery::Reno {
            // The duplicate ACKs that triggered it inflate the window (ns-2: dupwnd_ = 3).
            self.reno_sacked = (self.dupacks as u64).min(self.snd_nxt - self.snd_una - 1);
        }
        self.congestion(CongestionKind::Loss, now);
        if self.rack.is_none() {
            self.sb.mark_lost(self.snd_una);
        }
        self.partial_acked = false;
        self.tlp_high_seq = None;
        if self.ns2_rules {
            // `reset_rtx_timer(1, 0)`: a fresh timer for the recovery.
            self.arm_rto(now, out);
        }
        if self.sack1 {
            // numdupacks(cwnd_) segments have left; every hole below a SACK is lost.
            self.sack1_pipe = (self.snd_nxt - self.snd_una) as i64 - self.dupthresh as i64;
            self.sb.update_lost(self.snd_una, 1);
        }
        if self.prr_on {
            // PRR's first allowance (at least one segment) sends the retransmission.
            self.prr = Prr::enter(self.snd_nxt - self.snd_una);
            return;
        }
        // RFC 6675 step 4.3 / RFC 5681 §3.2 step 2: retransmit the first lost segment now.
        if let Some(seq) = self.sb.next_lost(self.snd_una) {
            self.sb.mark_retransmitted(seq);
            self.send_segment(seq, true, now, out);
        }
    }

    /// Hints that an acknowledgement will arrive soon: loads the scoreboard's flags from
    /// `snd_una` (reads the sender's own fields, so call it once they are in cache).
    #[inline]
    pub fn prefetch_for_ack(&self) {
        self.sb.prefetch_from(self.snd_una);
    }

    /// Processes an acknowledgement arriving at `now`.
    pub fn on_ack(&mut self, ack: &Packet, now: SimTime, out: &mut Outbox) {
        self.stats.acks_received += 1;
        let delivered_before = self.snd_una + self.sacked_pkts();
        let cum = ack.seq.min(self.snd_nxt);
        let newly_cum = self.advance_cumulative(cum);
        let (newly_sacked, newest_delivered) = self.read_sack_blocks(ack, cum);
        let reorder_at = self.rack_on_ack(ack, now, newly_cum + newly_sacked > 0, newest_delivered);
        self.count_duplicate(cum, newly_cum, newly_sacked);
        let rtt_sample = self.sample_rtt(ack, now, newly_cum + newly_sacked > 0);
        let restart_timer = self.recovery_on_ack(now, newly_cum, out);
        self.ecn_on_ack(ack, now);
        if self.prr_paced() {
            let delivered = (self.snd_una + self.sacked_pkts()).saturating_sub(delivered_before);
            self.prr_budget = self.prr.on_ack(delivered, self.pipe(), self.cc.ssthresh_pkts());
        }
        self.controller_on_ack(ack, now, newly_cum, rtt_sample);
        if newly_cum > 0 {
            // RFC 6298 (5.2), (5.3): stop the timer when all is acknowledged, else restart.
            if self.snd_una == self.snd_nxt {
                self.rto.stop();
            } else if restart_timer {
                self.arm_rto(now, out);
                self.schedule_probe(now, true, out);
            }
        }
        self.try_send(now, out);
        if let Some(at) = reorder_at {
            self.xmit_timer = XmitTimer::Reorder;
            self.rto.arm(TimerKind::Retransmit, at, out);
        }
    }

    /// `on_ack`, step 1: the cumulative ACK `cum` moves `snd_una` on; returns the segments it
    /// newly acknowledges.
    #[inline]
    fn advance_cumulative(&mut self, cum: u64) -> u64 {
        let newly_cum = cum.saturating_sub(self.snd_una);
        if newly_cum > 0 {
            self.sb.advance(self.snd_una, cum);
            self.snd_una = cum;
            self.dupacks = 0;
            if !self.sack {
                self.reno_sacked = if self.in_recovery { self.reno_sacked.saturating_sub(newly_cum - 1) } else { 0 };
            }
        }
        newly_cum
    }

    /// `on_ack`, step 2: the ACK's SACK blocks into the scoreboard, and the holes they show
    /// marked lost by the recovery in use; returns the segments newly SACKed and the newest
    /// segment the ACK reports delivered (RACK.end_seq's candidate).
    #[inline]
    fn read_sack_blocks(&mut self, ack: &Packet, cum: u64) -> (u64, u64) {
        let mut newly_sacked = 0;
        let mut newest_delivered = cum.saturating_sub(1);
        if self.sack && !self.sack1_after_timeout {
            for (s, e) in ack.sack.iter() {
                let n = self.sb.apply_sack(s, e, self.snd_una, self.snd_nxt);
                if n > 0 {
                    newest_delivered = newest_delivered.max(e.min(self.snd_nxt) - 1);
                }
                newly_sacked += n;
            }
            // Sack1 marks holes only in recovery, each below any SACKed segment; RACK by time.
            match (self.sack1, self.in_recovery) {
                _ if self.rack.is_some() => {}
                (false, _) => self.sb.update_lost(self.snd_una, self.dupthresh),
                (true, true) => self.sb.update_lost(self.snd_una, 1),
                (true, false) => {}
            }
        }
        (newly_sacked, newest_delivered)
    }

    /// `on_ack`, step 3 (RACK-TLP only): the delivery for RACK, the end of a loss episode or of
    /// a tail loss probe, and losses detected by time; returns when the reordering timer
    /// should fire, if a segment may yet be lost.
    #[inline]
    fn rack_on_ack(&mut self, ack: &Packet, now: SimTime, delivered_any: bool, newest_delivered: u64) -> Option<SimTime> {
        self.rack.as_ref()?;
        if let (Some(rack), true) = (self.rack.as_deref_mut(), delivered_any) {
            rack.on_delivery(ack.echo_sent_at, newest_delivered, now);
        }
        if self.in_loss && self.snd_una >= self.recover {
            self.in_loss = false;
        }
        if self.tlp_high_seq.is_some_and(|h| self.snd_una >= h) {
            self.tlp_high_seq = None;
        }
        self.rack_detect(now)
    }

    /// `on_ack`, step 4: a duplicate ACK counted. It acknowledges nothing new cumulatively;
    /// with SACK it must also SACK something new (RFC 6675 §2), so ACKs of duplicated segments
    /// do not count.
    #[inline]
    fn count_duplicate(&mut self, cum: u64, newly_cum: u64, newly_sacked: u64) {
        if newly_cum == 0 && cum == self.snd_una && self.snd_nxt > self.snd_una && (!self.sack || newly_sacked > 0) && !self.sack1_after_timeout {
            self.dupacks += 1;
            // Each duplicate ACK stands for a segment that left the network — for classic
            // Reno only in fast recovery (its window inflation, RFC 5681 §3.2 step 4).
            if !self.sack && (self.in_recovery || self.recovery != Recovery::Reno) {
                self.reno_sacked = (self.reno_sacked + 1).min(self.snd_nxt - self.snd_una - 1);
            }
        }
        if newly_cum > 0 {
            // Sack1 after a timeout: the new ACK's own SACK blocks go unread too (ns-2 reads
            // SACK blocks from duplicate ACKs only outside recovery).
            self.sack1_after_timeout = false;
        }
    }

    /// `on_ack`, step 5: an RTT sample from the echoed send time, when the ACK delivered
    /// something and the echo is not of a retransmission (Karn).
    #[inline]
    fn sample_rtt(&mut self, ack: &Packet, now: SimTime, delivered_any: bool) -> Option<SimDuration> {
        if !delivered_any || ack.echo_is_retransmission {
            return None;
        }
        let r = now.saturating_since(ack.echo_sent_at);
        self.rtt.on_sample_in_flight(r, now, self.snd_una, self.snd_nxt);
        Some(r)
    }

    /// `on_ack`, step 6: fast recovery entered, left, or moved on by a partial ACK, as the
    /// recovery in use says; returns whether the retransmission timer restarts.
    fn recovery_on_ack(&mut self, now: SimTime, newly_cum: u64, out: &mut Outbox) -> bool {
        let mut restart_timer = newly_cum > 0;
        // Sack1: every ACK that arrives in recovery (not the one that starts it) stands for
        // one segment that left (`--pipe_`).
        if self.sack1 && self.in_recovery {
            self.sack1_pipe -= 1;
        }
        if !self.in_recovery {
            self.maybe_enter_recovery(now, out);
        } else if self.snd_una >= self.recover {
            self.in_recovery = false;
            self.reno_sacked = 0;
            self.cc.on_recovery_exit(now);
            self.traced(now, CwndCause::RecoveryExit);
        } else if newly_cum > 0 {
            if self.recovery == Recovery::Reno {
                // Classic Reno: any new ACK ends fast recovery (RFC 5681 §3.2 step 6); the
                // next hole waits for the timer, or for three duplicate ACKs once the
                // cumulative ACK has passed `recover`.
                self.in_recovery = false;
                self.reno_sacked = 0;
                self.cc.on_recovery_exit(now);
                self.traced(now, CwndCause::RecoveryExit);
            } else if self.sack1 {
                // Sack1's partial ACK (`partial_ack_ 0`): pipe_ falls once more; the holes
                // below SACKed segments are already marked.
                self.sack1_pipe -= 1;
            } else {
                // Partial ACK (RFC 6582 §3.2 step 3); RACK finds the next hole by time.
                if self.rack.is_none() {
                    self.sb.mark_lost(self.snd_una);
                }
                // ns-2's Newreno restarts the timer on the first partial ACK only.
                restart_timer = !(self.ns2_rules && self.partial_acked);
            }
            self.partial_acked = true;
        }
        restart_timer
    }

    /// `on_ack`, step 7: an ECN echo cuts the window, once per window of data (RFC 3168 §6.1.2).
    /// Strictly above: the ACK that covers exactly the data outstanding at the last reduction
    /// was sent before the receiver saw our CWR, so its echo is stale.
    fn ecn_on_ack(&mut self, ack: &Packet, now: SimTime) {
        if self.ecn && ack.ece && !self.in_recovery && self.snd_una > self.ecn_recover {
            self.ecn_recover = self.snd_nxt;
            self.ecn_reduced = true;
            self.stats.ecn_reductions += 1;
            self.congestion(CongestionKind::Ecn, now);
            self.cwr_pending = true;
            if self.prr_paced() {
                self.prr = Prr::enter_cwr(self.snd_nxt - self.snd_una);
            }
        }
    }

    /// `on_ack`, step 8: the controller told of the ACK (per acknowledged segment under
    /// `cwnd_growth = "per_segment"`), and a traced flow's change recorded.
    fn controller_on_ack(&mut self, ack: &Packet, now: SimTime, newly_cum: u64, rtt_sample: Option<SimDuration>) {
        let mut ev = AckEvent {
            now,
            newly_acked_pkts: newly_cum,
            rtt_sample,
            srtt: self.rtt.srtt_or_rto(),
            min_rtt: self.rtt.min_rtt(),
            ece: ack.ece,
            // In CWR (after an ECN cut, until its window is acknowledged) the window
            // holds still as in recovery, when `cwr_freeze` is on.
            in_recovery: self.in_recovery || self.in_cwr(),
            pkts_in_flight: self.pipe(),
            snd_una: self.snd_una,
            snd_nxt: self.snd_nxt,
        };
        // Only a traced flow asks what the change will be called.
        let cause = self.cwnd_trace.is_some().then(|| CwndState::of(&self.cc).ack_cause(ev.in_recovery));
        if self.per_segment && newly_cum > 1 {
            // Each acknowledged segment is one step of growth (the RTT sample and the ECN
            // echo go with the first).
            ev.newly_acked_pkts = 1;
            for _ in 0..newly_cum {
                self.cc.on_ack(&ev);
                ev.rtt_sample = None;
                ev.ece = false;
            }
        } else {
            self.cc.on_ack(&ev);
        }
        if let Some(cause) = cause {
            self.traced(now, cause);
        }
    }

    /// The pacing-timer event fired at `now`: the next packet may leave.
    pub fn on_pacing_timer(&mut self, now: SimTime, out: &mut Outbox) {
        if self.pacing.take_event(now) {
            self.try_send(now, out);
        }
    }

    /// The retransmission-timer event fired at `now`; acts only if the deadline has passed.
    pub fn on_rto_timer(&mut self, now: SimTime, out: &mut Outbox) {
        if !self.rto.fire(TimerKind::Retransmit, now, out) || self.snd_una == self.snd_nxt {
            return;
        }
        match std::mem::replace(&mut self.xmit_timer, XmitTimer::Rto) {
            XmitTimer::Probe => return self.send_probe(now, out),
            XmitTimer::Reorder => return self.on_reorder_timer(now, out),
            XmitTimer::Rto => {}
        }
        self.stats.timeouts += 1;
        if self.rtt.backoff() == 0 {
            self.stats.timeout_sequences += 1;
            self.stats.rto_first_sum_ps += self.rtt.rto().0 as u128;
        }
        self.congestion(CongestionKind::Timeout, now);
        self.rtt.on_timeout();
        self.in_recovery = false;
        self.recover = self.snd_nxt;
        self.ecn_recover = self.snd_nxt;
        // The timeout ends CWR (Linux's CA_Loss, ns-3's CA_LOSS replace it): the window
        // grows from one segment, not frozen until the data outstanding now is acknowledged.
        self.ecn_reduced = false;
        self.dupacks = 0;
        self.reno_sacked = 0;
        self.sb.on_timeout(self.snd_una, self.snd_nxt, self.sack1);
        self.sack1_after_timeout = self.sack1;
        if let Some(rack) = self.rack.as_deref_mut() {
            rack.on_timeout(self.snd_nxt);
            self.tlp_high_seq = None;
            self.in_loss = true;
        }
        self.try_send(now, out);
        if !self.rto.is_armed() {
            self.arm_rto(now, out);
        }
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
