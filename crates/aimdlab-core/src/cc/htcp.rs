//! H-TCP: D. Leith and R. Shorten, "H-TCP: TCP for high-speed and long-distance networks",
//! PFLDnet 2004 (and Leith, Shorten & Lee, "H-TCP: A framework for congestion control in
//! high-speed and long-distance networks", Hamilton Institute, 2005).
//!
//! The increase depends on the time Δ since the last congestion event (§3):
//! - α(Δ) = 1 for Δ ≤ Δ_L, else 1 + 10·(Δ − Δ_L) + ((Δ − Δ_L)/2)², Δ in seconds, Δ_L = 1 s;
//! - per ACK in congestion avoidance cwnd ← cwnd + 2·(1 − β)·α(Δ) / cwnd, so that an adaptive
//!   β keeps the flow's share as Reno's would be at equal α;
//! - RTT scaling (§4): α ← max(α · RTT_min / RTT_ref, 1) with RTT_ref = 100 ms, so flows of
//!   different RTTs grow alike in packets per second (Linux clamps the ratio to [0.1, 2]);
//! - adaptive backoff (§5): at a congestion event cwnd ← β·cwnd with β = RTT_min / RTT_max
//!   clamped to [0.5, 0.8], which empties the queue but not the link; and β = 0.5 when the
//!   throughput measured before the event differs from that before the previous one by
//!   more than 20 % (the "bandwidth switch", which lets a new flow's share converge).
//!
//! Where the paper leaves the measurement open this follows Linux's `tcp_htcp.c` (the
//! module of the Hamilton group): RTT_max grows only in the Open state and by at most 20 ms a
//! sample (outliers skipped), and fades after each event to RTT_min + 0.95·(RTT_max −
//! RTT_min); throughput is the packets acknowledged over each interval of at least RTT_min
//! in Open, averaged (3·B + b)/4, its maximum since 3 RTTs after the event compared; β
//! stays 0.5 at the first event. One difference, written down: Linux keeps β = 0.5 when
//! RTT_min ≤ 10 ms (its clock's resolution); the RTTs here are exact, so it does not.
//!
//! Parity with ns-3's `TcpHtcp`: no RTT scaling (the `ns3` profile turns it off); β is
//! adaptive only when the throughput since the last event has grown (by < 100 %: its
//! integer division makes the 20 % test pass below 2×), RTT_min/RTT_max are reset at each
//! event; and its window grows by α bytes (not α·MSS²/cwnd) beside Reno's MSS²/cwnd per
//! ACK — a different law, not reproduced here (see the side-by-side table).

use super::cut_base::CutBase;
use super::congestion_control::{AckEvent, CongestionControl, CongestionEvent, Window};
use super::params::{check_fraction, check_positive, Checked, ControllerParams, Names, ParamError};
use crate::units::SimTime;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// H-TCP's parameters (`cc = { name = "htcp" }`; the paper's values by default).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct HtcpParams {
    /// Δ_L, seconds after a congestion event during which α = 1 (Reno's increase). Default 1.
    pub delta_l_s: f64,
    /// Lower bound of the adaptive β, and β when it is not adaptive. Default 0.5.
    pub beta_min: f64,
    /// Upper bound of the adaptive β. Default 0.8.
    pub beta_max: f64,
    /// Scale α by RTT_min / `rtt_ref_s` (§4). Default true (Linux); false in the `ns3` profile.
    pub rtt_scaling: bool,
    /// The reference RTT of the scaling, seconds. Default 0.1.
    pub rtt_ref_s: f64,
    /// Back off by 0.5 when the throughput changed by more than `throughput_ratio` between
    /// congestion events (§5). Default true.
    pub bandwidth_switch: bool,
    /// The relative throughput change that resets β to 0.5. Default 0.2.
    pub throughput_ratio: f64,
    /// What the cut multiplies: `"cwnd"` (default; Linux) or `"flight"`, the packets in flight
    /// when the loss is detected (ns-3's TcpHtcp::GetSsThresh; the `ns3` profile's).
    pub cut_from: CutBase,
}

impl Default for HtcpParams {
    fn default() -> Self {
        HtcpParams { delta_l_s: 1.0, beta_min: 0.5, beta_max: 0.8, rtt_scaling: true, rtt_ref_s: 0.1, bandwidth_switch: true, throughput_ratio: 0.2, cut_from: CutBase::Cwnd }
    }
}

impl ControllerParams for HtcpParams {
    type Controller = Htcp;
    const NAMES: Names<Self> = &[("htcp", Self::default)];
    fn check(&self, _name: &'static str) -> Checked {
        check_positive("delta_l_s", self.delta_l_s)?;
        check_fraction("beta_min", self.beta_min, "the smallest fraction of the window kept at a loss")?;
        check_fraction("beta_max", self.beta_max, "the largest fraction of the window kept at a loss")?;
        if self.beta_max < self.beta_min {
            return Err(ParamError { field: "beta_max", message: format!("{} is below beta_min ({}); expected beta_min ≤ beta_max", self.beta_max, self.beta_min) });
        }
        check_positive("rtt_ref_s", self.rtt_ref_s)?;
        check_positive("throughput_ratio", self.throughput_ratio)
    }
    fn build(&self, _name: &'static str) -> Htcp {
        Htcp {
            params: self.clone(),
            beta: self.beta_min,
            adaptive: false,
            last_congestion: SimTime::ZERO,
            min_rtt_s: None,
            max_rtt_s: 0.0,
            meter: Throughput::default(),
            old_max_pps: 0.0,
        }
    }
}

/// The throughput measurement of the bandwidth switch, packets per second.
#[derive(Clone, Debug, Default)]
struct Throughput {
    /// Packets acknowledged since `since`.
    pkts: f64,
    since: SimTime,
    /// The smoothed throughput and its maximum since the last event.
    smoothed_pps: f64,
    max_pps: f64,
}

/// H-TCP's state.
#[derive(Clone, Debug)]
pub struct Htcp {
    params: HtcpParams,
    /// The β the next congestion event applies.
    beta: f64,
    /// β adapts from the second congestion event on (Linux's `modeswitch`).
    adaptive: bool,
    last_congestion: SimTime,
    min_rtt_s: Option<f64>,
    max_rtt_s: f64,
    meter: Throughput,
    /// The maximum throughput before the previous event.
    old_max_pps: f64,
}

impl Htcp {
    /// α(Δ) at `now`, RTT-scaled if asked (§3, §4).
    pub fn alpha(&self, now: SimTime) -> f64 {
        let delta = now.saturating_since(self.last_congestion).as_secs_f64() - self.params.delta_l_s;
        let mut alpha = if delta <= 0.0 { 1.0 } else { 1.0 + 10.0 * delta + (delta / 2.0).powi(2) };
        if let (true, Some(min_rtt)) = (self.params.rtt_scaling, self.min_rtt_s) {
            alpha = (alpha * (min_rtt / self.params.rtt_ref_s).clamp(0.1, 2.0)).max(1.0);
        }
        alpha
    }

    /// Takes `ev`'s RTT sample into RTT_min and RTT_max.
    fn measure_rtt(&mut self, ev: &AckEvent) {
        if let Some(rtt) = ev.rtt_sample.map(|r| r.as_secs_f64()) {
            let min = self.min_rtt_s.map_or(rtt, |m| m.min(rtt));
            self.min_rtt_s = Some(min);
            if !ev.in_recovery {
                self.max_rtt_s = self.max_rtt_s.max(min);
                if rtt > self.max_rtt_s && rtt <= self.max_rtt_s + 0.020 {
                    self.max_rtt_s = rtt;
                }
            }
        }
    }

    /// Takes `ev` into the throughput measurement; `alpha` is α(Δ) at `ev.now`.
    fn measure_throughput(&mut self, w: &Window, ev: &AckEvent, alpha: f64) {
        let slack = w.cwnd_pkts - alpha.floor().max(1.0);
        let m = &mut self.meter;
        if ev.in_recovery {
            (m.pkts, m.since) = (0.0, ev.now);
            return;
        }
        m.pkts += ev.newly_acked_pkts as f64;
        let (Some(min_rtt), elapsed) = (self.min_rtt_s, ev.now.saturating_since(m.since).as_secs_f64()) else { return };
        if m.pkts >= slack && elapsed >= min_rtt {
            let sample = m.pkts / elapsed;
            if ev.now.saturating_since(self.last_congestion).as_secs_f64() <= 3.0 * min_rtt {
                (m.smoothed_pps, m.max_pps) = (sample, sample);
            } else {
                m.smoothed_pps = (3.0 * m.smoothed_pps + sample) / 4.0;
                m.max_pps = m.max_pps.max(m.smoothed_pps);
            }
            (m.pkts, m.since) = (0.0, ev.now);
        }
    }

    /// §5: β for this event, then RTT_max fades.
    fn update_beta(&mut self) {
        let (max, old) = (self.meter.max_pps, self.old_max_pps);
        self.old_max_pps = max;
        let changed = (max - old).abs() > self.params.throughput_ratio * old;
        if self.params.bandwidth_switch && changed {
            (self.beta, self.adaptive) = (self.params.beta_min, false);
        } else if self.adaptive && self.max_rtt_s > 0.0 {
            let min = self.min_rtt_s.unwrap_or(self.max_rtt_s);
            self.beta = (min / self.max_rtt_s).clamp(self.params.beta_min, self.params.beta_max);
        } else {
            (self.beta, self.adaptive) = (self.params.beta_min, true);
        }
        if let Some(min) = self.min_rtt_s.filter(|&m| self.max_rtt_s > m) {
            self.max_rtt_s = min + 0.95 * (self.max_rtt_s - min);
        }
    }
}

impl CongestionControl for Htcp {
    fn name(&self) -> &'static str {
        "htcp"
    }

    fn on_ack(&mut self, w: &mut Window, ev: &AckEvent) {
        // α once per ACK, after the sample has updated RTT_min (its scaling reads it).
        self.measure_rtt(ev);
        let alpha = self.alpha(ev.now);
        self.measure_throughput(w, ev, alpha);
    }

    fn cong_avoid(&mut self, w: &mut Window, ev: &AckEvent, _acked_pkts: u64) {
        // §3: cwnd ← cwnd + 2(1 − β)·α(Δ)/cwnd per acknowledgement (a segment under
        // `cwnd_growth = "per_segment"`, as Linux counts).
        w.aimd_step(2.0 * (1.0 - self.beta) * self.alpha(ev.now));
    }

    fn ssthresh(&mut self, w: &Window, ev: &CongestionEvent) -> f64 {
        self.update_beta();
        self.last_congestion = ev.now;
        self.meter.since = ev.now;
        self.meter.pkts = 0.0;
        self.params.cut_from.pkts(w, ev) * self.beta
    }

    fn state_vars(&self, _w: &Window, publish: &mut dyn FnMut(&'static str, f64)) {
        publish("beta", self.beta);
    }
}

#[cfg(test)]
mod tests {
    use crate::cc::testing::BuildWindowed;
    use super::super::congestion_control::CongestionKind;
    use super::super::testing::Pipe;
    use super::*;
    use crate::units::SimDuration;

    fn loss_at(now: SimTime) -> CongestionEvent {
        CongestionEvent { now, kind: CongestionKind::Loss, pkts_in_flight: 100, srtt: SimDuration::from_millis(100) }
    }

    #[test]
    fn alpha_is_one_for_delta_l_then_grows_as_the_paper_says() {
        let mut c = HtcpParams { rtt_scaling: false, ..Default::default() }.build_windowed("htcp", 100.0, 2.0);
        c.on_congestion(&loss_at(SimTime::from_millis(10_000)));
        assert_eq!(c.alpha(SimTime::from_millis(10_900)), 1.0);
        // Δ − Δ_L = 2 s: 1 + 20 + 1 = 22; at 4 s: 1 + 40 + 4 = 45.
        assert!((c.alpha(SimTime::from_millis(13_000)) - 22.0).abs() < 1e-9);
        assert!((c.alpha(SimTime::from_millis(15_000)) - 45.0).abs() < 1e-9);
    }

    /// The window `secs` seconds after a loss at `w` packets, at round-trip time `rtt`.
    fn window_after(params: &HtcpParams, rtt: SimDuration, secs: f64) -> f64 {
        let mut c = params.build_windowed("htcp", 200.0, 2.0);
        let mut pipe = Pipe::new(200);
        pipe.run_round(&mut c, rtt);
        c.on_congestion(&loss_at(pipe.now));
        let start = pipe.now;
        let before = c.cwnd_pkts();
        while pipe.now.saturating_since(start).as_secs_f64() < secs {
            pipe.run_round(&mut c, rtt);
        }
        c.cwnd_pkts() - before
    }

    #[test]
    fn with_rtt_scaling_flows_of_different_rtts_grow_alike_per_second() {
        // Four seconds after a loss: growth in packets at 50 ms against 200 ms RTT.
        let scaled = HtcpParams::default();
        let (fast, slow) = (window_after(&scaled, SimDuration::from_millis(50), 4.0), window_after(&scaled, SimDuration::from_millis(200), 4.0));
        assert!((fast / slow - 1.0).abs() < 0.15, "scaled: {fast:.0} against {slow:.0} packets");
        // Without it the short-RTT flow takes about four times as many round trips' growth.
        let plain = HtcpParams { rtt_scaling: false, ..Default::default() };
        let (fast, slow) = (window_after(&plain, SimDuration::from_millis(50), 4.0), window_after(&plain, SimDuration::from_millis(200), 4.0));
        assert!(fast / slow > 3.0, "unscaled: {fast:.0} against {slow:.0} packets");
    }

    #[test]
    fn the_adaptive_backoff_is_rtt_min_over_rtt_max_within_its_bounds() {
        let p = HtcpParams { bandwidth_switch: false, ..Default::default() };
        let mut c = p.build_windowed("htcp", 100.0, 2.0);
        let mut pipe = Pipe::new(100);
        // The first event backs off by 0.5 and turns the adaptive β on.
        let w = pipe.run_round(&mut c, SimDuration::from_millis(100));
        c.on_congestion(&loss_at(pipe.now));
        assert_eq!(c.cwnd_pkts(), w / 2.0);
        // The RTT climbs from 100 to 140 ms in steps under 20 ms: β = 100/140.
        for rtt in [100, 110, 120, 130, 140] {
            pipe.run_round(&mut c, SimDuration::from_millis(rtt));
        }
        let w = c.cwnd_pkts();
        c.on_congestion(&loss_at(pipe.now));
        assert!((c.cwnd_pkts() / w - 100.0 / 140.0).abs() < 1e-9, "{}", c.cwnd_pkts() / w);
        // A queue delay three times the path's is clamped at 0.5; a tiny one at 0.8.
        c.max_rtt_s = 0.4;
        c.update_beta();
        assert_eq!(c.beta, 0.5);
        c.max_rtt_s = 0.101;
        c.update_beta();
        assert_eq!(c.beta, 0.8);
    }

    #[test]
    fn a_throughput_change_over_20_percent_backs_off_by_half() {
        let mut c = HtcpParams::default().build_windowed("htcp", 100.0, 2.0);
        (c.adaptive, c.min_rtt_s, c.max_rtt_s) = (true, Some(0.1), 0.12);
        (c.old_max_pps, c.meter.max_pps) = (1000.0, 1100.0);
        c.update_beta();
        // Within 20 %: adaptive, 0.1/0.12 = 0.83 clamped to 0.8.
        assert_eq!(c.beta, 0.8);
        (c.old_max_pps, c.meter.max_pps) = (1000.0, 1300.0);
        c.update_beta();
        assert_eq!(c.beta, 0.5);
    }
}
