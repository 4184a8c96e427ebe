//! BBR v1: N. Cardwell, Y. Cheng, C. S. Gunn, S. Hassas Yeganeh and V. Jacobson, "BBR:
//! Congestion-Based Congestion Control", ACM Queue 14(5), 2016; the IETF draft
//! draft-cardwell-iccrg-bbr-congestion-control-00 (2017); Linux's `tcp_bbr.c`.
//!
//! A model of the path, not a reaction to loss: BtlBw, the windowed maximum of the
//! delivery-rate samples over the last 10 round trips (`transport::tcp::delivery_rate`), and
//! RTprop, the minimum RTT over the last 10 s. The sender paces at `pacing_gain · BtlBw` and
//! caps what is in flight at `cwnd_gain · BtlBw · RTprop` (the BDP) plus a quantization
//! budget of 3 packets (draft §4.2.3.2 with a send quantum of one packet). Four modes
//! (draft §4.3):
//! - **STARTUP**: gains 2/ln 2 ≈ 2.89, doubling the rate each round, until BtlBw has not grown
//!   by 25 % for 3 rounds (the pipe is full);
//! - **DRAIN**: pacing gain 1/2.89 until what is in flight is down to one BDP;
//! - **PROBE_BW**: pacing gains cycling 5/4, 3/4, 1, 1, 1, 1, 1, 1, one phase per RTprop
//!   (5/4 until in flight reaches 5/4 BDP or a loss, 3/4 until it is down to a BDP), cwnd gain
//!   2; the cycle starts at a phase other than 3/4 drawn at random;
//! - **PROBE_RTT**: when RTprop has not been refreshed for 10 s, the window drops to 4 packets
//!   for 200 ms and a round trip, so the flows sharing a queue see it empty.
//!
//! Losses (Linux `bbr_set_cwnd_to_recover_or_restore`): the first round of a recovery
//! conserves packets (cwnd = in flight + acknowledged), then grows towards the target; each
//! ACK's newly lost packets come off the window; at the end the window before the recovery is
//! restored. A timeout leaves one packet and restarts the search for a full pipe. ECN is
//! ignored (BBR v1).
//!
//! Parity: as Linux and ns-3, the pacing rate has a 1 % margin below the estimate and is not
//! lowered before the pipe is full; the initial pacing rate is 2.89 × cwnd / SRTT. Linux
//! (since 4.19) and ns-3 add an ACK-aggregation allowance to the window target: the largest
//! excess of data acknowledged over what BtlBw explains since the ACK rate last fell below it,
//! over the last 5–10 rounds, at most BtlBw × 100 ms (`bbr_update_ack_aggregation`); the
//! paper and draft-00 do not. It is `extra_acked_gain` (0: off, the default; 1 in the `linux`
//! and `ns3` profiles). Not modelled: Linux's long-term bandwidth sampling for policers
//! (`lt_bw`) and the TSO-sized send quantum (Linux budgets
//! ≥ 2 segments a quantum above 1.2 Mbit/s, ns-3 one, as here). BtlBw is the exact maximum over
//! 10 rounds (Linux keeps the three best samples, Nichols' approximation). The cycle's
//! random start comes from a hash of the time PROBE_BW begins: deterministic per scenario,
//! different across flows.

mod aggregation;

use aggregation::AckAggregation;
use super::congestion_control::{AckEvent, CaPhase, CongestionControl, CongestionEvent, CongestionKind, Window};
use super::params::{check_above_one, check_positive, Checked, ControllerParams, Names};
use crate::units::{SimDuration, SimTime};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// PROBE_BW's pacing gains (draft §4.3.4.5).
pub const PACING_GAIN_CYCLE: [f64; 8] = [1.25, 0.75, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0];
/// The smallest window, packets (`bbr_cwnd_min_target`).
pub const MIN_CWND_PKTS: f64 = 4.0;
/// Round trips of BtlBw's window (`bbr_bw_rtts`).
const BW_WINDOW_ROUNDS: usize = 10;

/// BBR's parameters (`cc = { name = "bbr" }`; the draft's and Linux's values by default).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct BbrParams {
    /// STARTUP's pacing and window gain. Default 2/ln 2 = 2.885.
    pub high_gain: f64,
    /// PROBE_BW's window gain. Default 2.
    pub cwnd_gain: f64,
    /// RTprop's window, seconds: PROBE_RTT after this long without a lower RTT. Default 10.
    pub min_rtt_window_s: f64,
    /// How long PROBE_RTT holds the window at 4 packets, seconds. Default 0.2.
    pub probe_rtt_duration_s: f64,
    /// The pacing rate is this fraction below the estimate. Default 0.01.
    pub pacing_margin: f64,
    /// Weight of the ACK-aggregation allowance in the window target (Linux's
    /// `bbr_extra_acked_gain`); 0 turns it off. Default 0 (the paper); 1 in the `linux` and
    /// `ns3` profiles.
    pub extra_acked_gain: f64,
}

impl Default for BbrParams {
    fn default() -> Self {
        BbrParams {
            high_gain: 2.0 / std::f64::consts::LN_2,
            cwnd_gain: 2.0,
            min_rtt_window_s: 10.0,
            probe_rtt_duration_s: 0.2,
            pacing_margin: 0.01,
            extra_acked_gain: 0.0,
        }
    }
}

impl ControllerParams for BbrParams {
    type Controller = Box<Bbr>;
    const NAMES: Names<Self> = &[("bbr", Self::default)];
    fn check(&self, _name: &'static str) -> Checked {
        check_above_one("high_gain", self.high_gain, "STARTUP's gain, e.g. 2.885")?;
        check_positive("cwnd_gain", self.cwnd_gain)?;
        check_positive("min_rtt_window_s", self.min_rtt_window_s)?;
        check_positive("probe_rtt_duration_s", self.probe_rtt_duration_s)?;
        if !(0.0..0.5).contains(&self.pacing_margin) {
            return Err(super::params::ParamError { field: "pacing_margin", message: format!("{} is outside [0, 0.5); expected a small fraction such as 0.01", self.pacing_margin) });
        }
        if !(self.extra_acked_gain.is_finite() && self.extra_acked_gain >= 0.0) {
            return Err(super::params::ParamError { field: "extra_acked_gain", message: format!("{} is negative; expected 0 (off) or a gain such as 1", self.extra_acked_gain) });
        }
        Ok(())
    }
    fn build(&self, _name: &'static str) -> Box<Bbr> {
        Box::new(Bbr::new(self.clone()))
    }
}

/// BBR's modes (draft §4.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Exponential search for the bottleneck rate.
    Startup,
    /// Draining the queue STARTUP made.
    Drain,
    /// Steady state: gain cycling around the estimate.
    ProbeBw,
    /// Holding the window at 4 packets to measure RTprop.
    ProbeRtt,
}

/// BBR's state.
#[derive(Clone, Debug)]
pub struct Bbr {
    p: BbrParams,
    mode: Mode,
    initial_cwnd: f64,
    /// Pacing rate, packets/s (`None` until the first RTT sample).
    pacing_pps: Option<f64>,
    pacing_gain: f64,
    cwnd_gain: f64,
    /// The largest sample of each of the last 10 rounds, packets/s (index: round % 10).
    bw_rounds: [f64; BW_WINDOW_ROUNDS],
    round_count: u64,
    next_round_delivered: u64,
    round_start: bool,
    min_rtt: Option<SimDuration>,
    min_rtt_stamp: SimTime,
    full_bw: f64,
    full_bw_count: u32,
    full_bw_reached: bool,
    cycle_index: usize,
    cycle_stamp: SimTime,
    probe_rtt_done: Option<SimTime>,
    probe_rtt_round_done: bool,
    /// Samples taken before the delivered count passes this are app-limited (PROBE_RTT).
    app_limited_until: u64,
    /// The window before a recovery or PROBE_RTT cut it.
    prior_cwnd: f64,
    /// In fast recovery, and its first round (packet conservation).
    in_recovery: bool,
    entering_recovery: bool,
    packet_conservation: bool,
    /// After a timeout, the snd_nxt whose acknowledgement ends the Loss state.
    loss_until: Option<u64>,
    timed_out: bool,
    /// The ACK-aggregation allowance (Linux, ns-3; off by default).
    aggregation: AckAggregation,
}

impl Bbr {
    fn new(p: BbrParams) -> Self {
        let high = p.high_gain;
        Bbr {
            mode: Mode::Startup,
            initial_cwnd: 0.0,
            pacing_pps: None,
            pacing_gain: high,
            cwnd_gain: high,
            bw_rounds: [0.0; BW_WINDOW_ROUNDS],
            round_count: 0,
            next_round_delivered: 0,
            round_start: false,
            min_rtt: None,
            min_rtt_stamp: SimTime::ZERO,
            full_bw: 0.0,
            full_bw_count: 0,
            full_bw_reached: false,
            cycle_index: 0,
            cycle_stamp: SimTime::ZERO,
            probe_rtt_done: None,
            probe_rtt_round_done: false,
            app_limited_until: 0,
            prior_cwnd: 0.0,
            in_recovery: false,
            entering_recovery: false,
            packet_conservation: false,
            loss_until: None,
            timed_out: false,
            aggregation: AckAggregation::new(p.extra_acked_gain),
            p,
        }
    }

    /// The mode.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// BtlBw, packets/s: the largest delivery rate of the last 10 rounds.
    pub fn btl_bw_pps(&self) -> f64 {
        self.bw_rounds.iter().copied().fold(0.0, f64::max)
    }

    /// `gain` × the BDP, packets, plus the quantization budget (Linux `bbr_inflight`).
    fn inflight(&self, gain: f64) -> f64 {
        let Some(rtt) = self.min_rtt else { return self.initial_cwnd };
        let bdp = (self.btl_bw_pps() * rtt.as_secs_f64() * gain).ceil();
        let phase0 = if self.mode == Mode::ProbeBw && self.cycle_index == 0 { 2.0 } else { 0.0 };
        bdp + 3.0 + phase0
    }

    /// Draft §4.5.1, §4.1.1: rounds, and the sample into BtlBw's window.
    fn update_bw(&mut self, ev: &AckEvent) {
        let Some(rs) = ev.rate else { return };
        self.round_start = false;
        if rs.acked_sacked_pkts > 0 && rs.prior_delivered >= self.next_round_delivered {
            self.next_round_delivered = rs.delivered_total;
            self.round_count += 1;
            self.round_start = true;
            self.packet_conservation = false;
            self.bw_rounds[(self.round_count % BW_WINDOW_ROUNDS as u64) as usize] = 0.0;
        }
        let app_limited = rs.is_app_limited || rs.prior_delivered < self.app_limited_until;
        if rs.valid && rs.delivered_pkts > 0 && (!app_limited || rs.delivery_rate_pps >= self.btl_bw_pps()) {
            let slot = &mut self.bw_rounds[(self.round_count % BW_WINDOW_ROUNDS as u64) as usize];
            *slot = slot.max(rs.delivery_rate_pps);
        }
    }

    /// Draft §4.3.4: the next phase of the gain cycle when it is time.
    fn update_cycle_phase(&mut self, ev: &AckEvent) {
        let (Some(rs), Mode::ProbeBw, Some(rtt)) = (ev.rate, self.mode, self.min_rtt) else { return };
        let full_length = ev.now.saturating_since(self.cycle_stamp) > rtt;
        let prior = rs.prior_in_flight_pkts as f64;
        let next = if self.pacing_gain > 1.0 {
            full_length && (rs.losses_pkts > 0 || prior >= self.inflight(self.pacing_gain))
        } else if self.pacing_gain < 1.0 {
            full_length || prior <= self.inflight(1.0)
        } else {
            full_length
        };
        if next {
            self.cycle_index = (self.cycle_index + 1) % PACING_GAIN_CYCLE.len();
            self.cycle_stamp = ev.now;
        }
    }

    /// Draft §4.3.2.2, §4.3.3: a full pipe ends STARTUP; DRAIN ends at one BDP in flight.
    fn check_full_pipe_and_drain(&mut self, w: &mut Window, ev: &AckEvent) {
        let app_limited = ev.rate.is_some_and(|r| r.is_app_limited);
        if !self.full_bw_reached && self.round_start && !app_limited {
            if self.btl_bw_pps() >= self.full_bw * 1.25 {
                (self.full_bw, self.full_bw_count) = (self.btl_bw_pps(), 0);
            } else {
                self.full_bw_count += 1;
                self.full_bw_reached = self.full_bw_count >= 3;
            }
        }
        if self.mode == Mode::Startup && self.full_bw_reached {
            self.mode = Mode::Drain;
            w.ssthresh_pkts = self.inflight(1.0);
        }
        if self.mode == Mode::Drain && (ev.pkts_in_flight as f64) <= self.inflight(1.0) {
            self.enter_probe_bw(ev.now);
        }
    }

    fn enter_probe_bw(&mut self, now: SimTime) {
        self.mode = Mode::ProbeBw;
        // Linux: CYCLE_LEN − 1 − random(7), then one step on: any phase but 3/4.
        let draw = (splitmix(now.0) % 7) as usize;
        self.cycle_index = (PACING_GAIN_CYCLE.len() - 1 - draw + 1) % PACING_GAIN_CYCLE.len();
        self.cycle_stamp = now;
    }

    /// Draft §4.3.5, §4.1.2: RTprop, and PROBE_RTT's entry and exit.
    fn update_min_rtt(&mut self, w: &mut Window, ev: &AckEvent) {
        let window = SimDuration::from_secs_f64(self.p.min_rtt_window_s);
        let expired = ev.now.saturating_since(self.min_rtt_stamp) > window;
        if let Some(rtt) = ev.rtt_sample {
            if self.min_rtt.is_none_or(|m| rtt <= m) || expired {
                (self.min_rtt, self.min_rtt_stamp) = (Some(rtt), ev.now);
            }
        }
        if expired && self.mode != Mode::ProbeRtt {
            self.mode = Mode::ProbeRtt;
            self.save_cwnd(w);
            self.probe_rtt_done = None;
        }
        if self.mode != Mode::ProbeRtt {
            return;
        }
        let delivered = ev.rate.map_or(0, |r| r.delivered_total);
        self.app_limited_until = (delivered + ev.pkts_in_flight).max(1);
        match self.probe_rtt_done {
            None if ev.pkts_in_flight as f64 <= MIN_CWND_PKTS => {
                self.probe_rtt_done = Some(ev.now + SimDuration::from_secs_f64(self.p.probe_rtt_duration_s));
                self.probe_rtt_round_done = false;
                self.next_round_delivered = delivered;
            }
            Some(done) => {
                self.probe_rtt_round_done |= self.round_start;
                if self.probe_rtt_round_done && ev.now > done {
                    self.min_rtt_stamp = ev.now;
                    w.cwnd_pkts = w.cwnd_pkts.max(self.prior_cwnd);
                    if self.full_bw_reached {
                        self.enter_probe_bw(ev.now);
                    } else {
                        self.mode = Mode::Startup;
                    }
                }
            }
            None => {}
        }
    }

    fn save_cwnd(&mut self, w: &Window) {
        self.prior_cwnd = if !self.in_recovery && self.mode != Mode::ProbeRtt { w.cwnd_pkts } else { self.prior_cwnd.max(w.cwnd_pkts) };
    }

    fn update_gains(&mut self) {
        (self.pacing_gain, self.cwnd_gain) = match self.mode {
            Mode::Startup => (self.p.high_gain, self.p.high_gain),
            Mode::Drain => (1.0 / self.p.high_gain, self.p.high_gain),
            Mode::ProbeBw => (PACING_GAIN_CYCLE[self.cycle_index], self.p.cwnd_gain),
            Mode::ProbeRtt => (1.0, 1.0),
        };
    }

    /// Draft §4.2.2 with Linux's 1 % margin: raised at once, lowered only once the pipe is
    /// full.
    fn set_pacing_rate(&mut self, w: &Window, ev: &AckEvent) {
        if self.pacing_pps.is_none() && ev.rtt_sample.is_some() {
            self.pacing_pps = Some(self.p.high_gain * w.cwnd_pkts / ev.srtt.as_secs_f64().max(1e-6) * (1.0 - self.p.pacing_margin));
        }
        let rate = self.pacing_gain * self.btl_bw_pps() * (1.0 - self.p.pacing_margin);
        if rate > 0.0 && (self.full_bw_reached || self.pacing_pps.is_none_or(|r| rate > r)) {
            self.pacing_pps = Some(rate);
        }
    }

    /// Draft §4.2.3 and Linux's recovery rules: the window for this ACK.
    fn set_cwnd(&mut self, w: &mut Window, ev: &AckEvent) {
        let Some(rs) = ev.rate else { return };
        let acked = rs.acked_sacked_pkts as f64;
        if acked > 0.0 && !self.recover_or_restore(w, ev, acked) {
            let target = self.inflight(self.cwnd_gain) + self.aggregation.cwnd_pkts(self.btl_bw_pps(), self.full_bw_reached);
            if self.full_bw_reached {
                w.cwnd_pkts = (w.cwnd_pkts + acked).min(target);
            } else if w.cwnd_pkts < target || (rs.delivered_total as f64) < self.initial_cwnd {
                w.cwnd_pkts += acked;
            }
            w.cwnd_pkts = w.cwnd_pkts.max(MIN_CWND_PKTS);
        }
        if self.mode == Mode::ProbeRtt {
            w.cwnd_pkts = w.cwnd_pkts.min(MIN_CWND_PKTS);
        }
    }

    /// Linux `bbr_set_cwnd_to_recover_or_restore`; true while conserving packets.
    fn recover_or_restore(&mut self, w: &mut Window, ev: &AckEvent, acked: f64) -> bool {
        let losses = ev.rate.map_or(0, |r| r.losses_pkts) as f64;
        if losses > 0.0 {
            w.cwnd_pkts = (w.cwnd_pkts - losses).max(1.0);
        }
        if self.timed_out {
            self.timed_out = false;
            self.loss_until = Some(ev.snd_nxt);
        }
        let loss_over = self.loss_until.is_some_and(|u| ev.snd_una >= u);
        if std::mem::take(&mut self.entering_recovery) {
            self.packet_conservation = true;
            self.next_round_delivered = ev.rate.map_or(0, |r| r.delivered_total);
            w.cwnd_pkts = ev.pkts_in_flight as f64 + acked;
        } else if loss_over {
            self.loss_until = None;
            w.cwnd_pkts = w.cwnd_pkts.max(self.prior_cwnd);
            self.packet_conservation = false;
        }
        if self.packet_conservation {
            w.cwnd_pkts = w.cwnd_pkts.max(ev.pkts_in_flight as f64 + acked);
        }
        self.packet_conservation
    }
}

/// A 64-bit mix (splitmix64's finalizer): the deterministic stand-in for Linux's random draw.
fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl CongestionControl for Bbr {
    fn name(&self) -> &'static str {
        "bbr"
    }

    fn wants_rate_samples(&self) -> bool {
        true
    }

    fn sets_window_in_recovery(&self) -> bool {
        true
    }

    fn init(&mut self, w: &mut Window) {
        // BBR has no slow-start threshold until STARTUP ends.
        (self.initial_cwnd, w.ssthresh_pkts) = (w.cwnd_pkts, f64::INFINITY);
    }

    fn on_ack(&mut self, w: &mut Window, ev: &AckEvent) {
        self.update_bw(ev);
        if let Some(rs) = ev.rate.filter(|r| r.interval > SimDuration::ZERO) {
            let (bw, cwnd) = (self.btl_bw_pps(), w.cwnd_pkts);
            self.aggregation.on_ack(ev.now, rs.acked_sacked_pkts as f64, self.round_start, bw, cwnd);
        }
        self.update_cycle_phase(ev);
        self.check_full_pipe_and_drain(w, ev);
        self.update_min_rtt(w, ev);
        self.update_gains();
        self.set_pacing_rate(w, ev);
        self.set_cwnd(w, ev);
    }

    /// BBR sets the window in `on_ack` (Linux's `cong_control`); it has no growth of its own.
    fn cong_avoid(&mut self, _w: &mut Window, _ev: &AckEvent, _acked_pkts: u64) {}

    /// Linux's `bbr_ssthresh`: the threshold stays (BBR's cut is its recovery rule).
    fn ssthresh(&mut self, w: &Window, _ev: &CongestionEvent) -> f64 {
        w.ssthresh_pkts
    }

    fn on_congestion(&mut self, w: &mut Window, ev: &CongestionEvent) {
        match ev.kind {
            CongestionKind::Loss => {
                self.save_cwnd(w);
                self.in_recovery = true;
                self.entering_recovery = true;
            }
            CongestionKind::Timeout => {
                // Linux `bbr_set_state(TCP_CA_Loss)` and `tcp_enter_loss`: one packet, a new
                // search for a full pipe, the RTO counted as the end of a round.
                self.save_cwnd(w);
                w.cwnd_pkts = 1.0;
                self.full_bw = 0.0;
                self.round_start = true;
                self.timed_out = true;
                self.in_recovery = false;
                self.packet_conservation = false;
            }
            CongestionKind::Ecn => {}
        }
    }

    /// Linux `bbr_set_state`: the end of fast recovery restores the window before it.
    fn on_state_change(&mut self, w: &mut Window, from: CaPhase, to: CaPhase, _now: SimTime) {
        if (from, to) == (CaPhase::Recovery, CaPhase::Open) {
            self.in_recovery = false;
            self.packet_conservation = false;
            w.cwnd_pkts = w.cwnd_pkts.max(self.prior_cwnd);
        }
    }

    fn pacing_rate_pps(&self) -> Option<f64> {
        self.pacing_pps
    }

    fn state_vars(&self, _w: &Window, publish: &mut dyn FnMut(&'static str, f64)) {
        publish("btl_bw_pps", self.btl_bw_pps());
        publish("min_rtt_ms", self.min_rtt.map_or(f64::NAN, |r| r.as_secs_f64() * 1e3));
        publish("pacing_gain", self.pacing_gain);
        let mode = match self.mode {
            Mode::Startup => 0.0,
            Mode::Drain => 1.0,
            Mode::ProbeBw => 2.0,
            Mode::ProbeRtt => 3.0,
        };
        publish("mode", mode);
    }
}

#[cfg(test)]
mod tests;
