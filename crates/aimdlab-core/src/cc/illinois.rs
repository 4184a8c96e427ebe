//! TCP-Illinois: S. Liu, T. Başar and R. Srikant, "TCP-Illinois: A loss- and delay-based
//! congestion control algorithm for high-speed networks", Performance Evaluation 65(6–7),
//! 2008 (VALUETOOLS 2006).
//!
//! Loss decides when the window falls, queueing delay how fast it grows and how far it falls
//! (§3). Once a round, from the round's average queueing delay d_a = mean RTT − base RTT and
//! the largest seen d_m = max RTT − base RTT, with d_1 = d_m/100, d_2 = d_m/10, d_3 = 8·d_m/10:
//! - α = α_max while d_a ≤ d_1, else α = κ_1 / (κ_2 + d_a), the curve through (d_1, α_max)
//!   and (d_m, α_min): fast growth while the queue is empty, slow as it fills (concave);
//! - β = β_min while d_a ≤ d_2, β_max from d_3, linear between;
//! - per ACK cwnd ← cwnd + α/cwnd; at a loss cwnd ← (1 − β)·cwnd.
//!
//! α_max = 10, α_min = 0.3, β_min = 1/8, β_max = 1/2. Below a window of `win_thresh` packets
//! (and after a timeout) α = 1, β = 1/2: Reno.
//!
//! Where the paper leaves details to its ns-2 code this follows Linux's `tcp_illinois.c`
//! (written from the paper and that code) and ns-3's `TcpIllinois`, which agree: win_thresh
//! 15, and after d_a first rises above d_1, α returns to α_max only after θ = 5 rounds in a
//! row below d_1 (one quiet round does not make it jump).

use super::cut_base::CutBase;
use super::congestion_control::{AckEvent, CongestionControl, CongestionEvent, CongestionKind, Window};
use super::params::{check_fraction, check_positive, Checked, ControllerParams, Names, ParamError};
use super::rtt_round::{RoundSample, RttRound};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// TCP-Illinois's parameters (`cc = { name = "illinois" }`; the paper's values by default).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct IllinoisParams {
    /// Increase a RTT while the queue is empty, packets. Default 10.
    pub alpha_max: f64,
    /// Increase a RTT at the largest queueing delay, packets. Default 0.3.
    pub alpha_min: f64,
    /// Fraction of the window a loss takes at a small queueing delay. Default 1/8.
    pub beta_min: f64,
    /// Fraction of the window a loss takes at a large queueing delay. Default 1/2.
    pub beta_max: f64,
    /// Below this window (packets) the sender is Reno. Default 15 (Linux, ns-3).
    pub win_thresh: f64,
    /// Rounds in a row below d_1 before α returns to α_max. Default 5 (Linux, ns-3).
    pub theta: u32,
    /// What the cut multiplies: `"cwnd"` (default; Linux) or `"flight"`, the packets in flight
    /// when the loss is detected (ns-3's TcpIllinois::GetSsThresh; the `ns3` profile's).
    pub cut_from: CutBase,
}

impl Default for IllinoisParams {
    fn default() -> Self {
        IllinoisParams { alpha_max: 10.0, alpha_min: 0.3, beta_min: 0.125, beta_max: 0.5, win_thresh: 15.0, theta: 5, cut_from: CutBase::Cwnd }
    }
}

impl ControllerParams for IllinoisParams {
    type Controller = Box<Illinois>;
    const NAMES: Names<Self> = &[("illinois", Self::default)];
    fn check(&self, _name: &'static str) -> Checked {
        check_positive("alpha_min", self.alpha_min)?;
        if !(self.alpha_max.is_finite() && self.alpha_max > self.alpha_min) {
            return Err(ParamError { field: "alpha_max", message: format!("{} is not above alpha_min ({}); expected alpha_min < alpha_max", self.alpha_max, self.alpha_min) });
        }
        check_fraction("beta_min", self.beta_min, "the smallest fraction of the window a loss takes")?;
        check_fraction("beta_max", self.beta_max, "the largest fraction of the window a loss takes")?;
        if self.beta_max < self.beta_min {
            return Err(ParamError { field: "beta_max", message: format!("{} is below beta_min ({}); expected beta_min ≤ beta_max", self.beta_max, self.beta_min) });
        }
        check_positive("win_thresh", self.win_thresh)
    }
    fn build(&self, _name: &'static str) -> Box<Illinois> {
        Box::new(Illinois {
            params: self.clone(),
            alpha: self.alpha_max,
            beta: self.beta_max,
            round: RttRound::default(),
            max_rtt_s: 0.0,
            rtt_above: false,
            rtt_low: 0,
        })
    }
}

/// TCP-Illinois's state.
#[derive(Clone, Debug)]
pub struct Illinois {
    params: IllinoisParams,
    alpha: f64,
    beta: f64,
    round: RttRound,
    /// Largest RTT sample seen, seconds.
    max_rtt_s: f64,
    /// d_a has risen above d_1 since α was last α_max.
    rtt_above: bool,
    /// Rounds in a row with d_a ≤ d_1.
    rtt_low: u32,
}

impl IllinoisParams {
    /// α for average queueing delay `da` when the largest is `dm` (§3, eq. for f_1); `None`
    /// at or below d_1.
    pub fn alpha_of(&self, da: f64, dm: f64) -> Option<f64> {
        let d1 = dm / 100.0;
        if da <= d1 {
            return None;
        }
        // κ_1 / (κ_2 + d_a) through (d_1, α_max) and (d_m, α_min).
        let (dm, da) = (dm - d1, da - d1);
        Some(dm * self.alpha_max / (dm + da * (self.alpha_max - self.alpha_min) / self.alpha_min))
    }

    /// β for average queueing delay `da` when the largest is `dm` (§3, f_2).
    pub fn beta_of(&self, da: f64, dm: f64) -> f64 {
        let (d2, d3) = (dm / 10.0, 8.0 * dm / 10.0);
        if da <= d2 {
            self.beta_min
        } else if da >= d3 || d3 <= d2 {
            self.beta_max
        } else {
            self.beta_min + (self.beta_max - self.beta_min) * (da - d2) / (d3 - d2)
        }
    }
}

impl Illinois {
    /// Once a round: α and β from the round's delays.
    fn update(&mut self, w: &Window, s: &RoundSample) {
        let p = &self.params;
        if w.cwnd_pkts < p.win_thresh {
            (self.alpha, self.beta) = (1.0, 0.5);
            return;
        }
        let dm = self.max_rtt_s - s.base_rtt_s;
        let da = s.mean_rtt_s - s.base_rtt_s;
        self.alpha = match p.alpha_of(da, dm) {
            Some(a) => {
                self.rtt_above = true;
                a
            }
            None if !self.rtt_above => p.alpha_max,
            None => {
                self.rtt_low += 1;
                if self.rtt_low < p.theta {
                    self.alpha
                } else {
                    (self.rtt_low, self.rtt_above) = (0, false);
                    p.alpha_max
                }
            }
        };
        self.beta = p.beta_of(da, dm);
    }
}

impl CongestionControl for Illinois {
    fn name(&self) -> &'static str {
        "illinois"
    }

    fn on_ack(&mut self, w: &mut Window, ev: &AckEvent) {
        if let Some(rtt) = ev.rtt_sample {
            self.max_rtt_s = self.max_rtt_s.max(rtt.as_secs_f64());
        }
        if let Some(s) = self.round.on_ack(ev) {
            self.update(w, &s);
        }
    }

    fn cong_avoid(&mut self, w: &mut Window, _ev: &AckEvent, _acked_pkts: u64) {
        // α/cwnd a step: an ACK, or a segment under `cwnd_growth = "per_segment"`.
        w.aimd_step(self.alpha);
    }

    fn ssthresh(&mut self, w: &Window, ev: &CongestionEvent) -> f64 {
        let reduced = self.params.cut_from.pkts(w, ev) * (1.0 - self.beta);
        if ev.kind == CongestionKind::Timeout {
            // Linux's Loss state: back to Reno's values until the delays say otherwise.
            (self.alpha, self.beta, self.rtt_low, self.rtt_above) = (1.0, 0.5, 0, false);
        }
        reduced
    }

    fn state_vars(&self, _w: &Window, publish: &mut dyn FnMut(&'static str, f64)) {
        publish("alpha", self.alpha);
        publish("beta", self.beta);
        publish("rtt_max_ms", self.max_rtt_s * 1e3);
    }
}

#[cfg(test)]
mod tests {
    use crate::cc::testing::BuildWindowed;
    use super::super::testing::{congestion, Pipe};
    use super::*;
    use crate::units::SimDuration;

    #[test]
    fn alpha_and_beta_follow_the_papers_curves() {
        let p = IllinoisParams::default();
        let dm = 0.1;
        assert_eq!(p.alpha_of(0.0005, dm), None);
        assert!((p.alpha_of(0.001 + 1e-12, dm).unwrap() - 10.0).abs() < 1e-6);
        assert!((p.alpha_of(dm, dm).unwrap() - 0.3).abs() < 1e-12);
        // Concave: at the midpoint of the delay range α is far below the midpoint of [0.3, 10].
        assert!(p.alpha_of(0.05, dm).unwrap() < 1.0);
        assert_eq!((p.beta_of(0.005, dm), p.beta_of(0.09, dm)), (0.125, 0.5));
        assert!((p.beta_of(0.045, dm) - (0.125 + 0.375 * 0.035 / 0.07)).abs() < 1e-12);
    }

    #[test]
    fn with_an_empty_queue_it_grows_ten_a_round_and_a_loss_takes_an_eighth() {
        let mut c = IllinoisParams::default().build_windowed("illinois", 100.0, 2.0);
        let mut pipe = Pipe::new(100);
        let rtt = SimDuration::from_millis(100);
        let before = pipe.run_round(&mut c, rtt);
        let after = pipe.run_round(&mut c, rtt);
        assert!((after - before - 10.0).abs() < 0.5, "{before} → {after}");
        c.on_congestion(&congestion(CongestionKind::Loss));
        assert!((c.cwnd_pkts() / after - 0.875).abs() < 1e-9);
    }

    #[test]
    fn a_full_queue_slows_growth_to_alpha_min_and_a_loss_halves() {
        let mut c = IllinoisParams::default().build_windowed("illinois", 100.0, 2.0);
        let mut pipe = Pipe::new(100);
        pipe.run_round(&mut c, SimDuration::from_millis(100));
        for _ in 0..3 {
            pipe.run_round(&mut c, SimDuration::from_millis(200));
        }
        let w = c.cwnd_pkts();
        let grown = pipe.run_round(&mut c, SimDuration::from_millis(200)) - w;
        assert!((grown - 0.3).abs() < 0.05, "{grown}");
        c.on_congestion(&congestion(CongestionKind::Loss));
        assert!((c.cwnd_pkts() / (w + grown) - 0.5).abs() < 1e-9);
        // The queue drains: α stays low for θ − 1 quiet rounds, then returns to α_max.
        let mut grown = Vec::new();
        for _ in 0..7 {
            let w = c.cwnd_pkts();
            grown.push(pipe.run_round(&mut c, SimDuration::from_millis(100)) - w);
        }
        assert!(grown[1..4].iter().all(|g| *g < 1.0) && grown[6] > 9.0, "{grown:?}");
    }
}
