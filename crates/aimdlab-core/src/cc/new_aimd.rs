//! New-AIMD (Jasem et al.; shared/papers/new-aimd-delay.txt, section "The New-AIMD",
//! eq. 1–4 and the pseudocode).
//!
//! The paper's model tracks each flow's window as two parts: the window `x` it carried into
//! a congestion cycle, and the additive increments `k` gained since. At congestion only the
//! carried part is halved; the increments are kept (eq. 2: `x₁/2 + x₂/2 + 2k₁ + 2k₂`, where
//! AIMD would also halve the 2k₁).
//!
//! Two readings, both offered (`reading = ...`):
//! - `"epoch"` (default): the carried part of a cycle is the window the flow started the
//!   cycle with, i.e. the window right after the previous reduction; at a loss the window
//!   becomes `β·W_start + (W − W_start)`. This works as a TCP sender: in steady state a flow
//!   that meets congestion at W starts cycles at W/(2 − β) = 2W/3 (β = 1/2), so the window is
//!   bounded and the decrease is gentler than Reno's halving.
//! - `"literal"`: the pseudocode as written — the total increment `t` of the flow since it
//!   started is never reduced and only the initial window `x` is halved at every congestion
//!   (eq. 3, 4: `x/2^(m−1) + 2k₁ + … + 2k_m`). The window never decreases below `t`, which
//!   grows without bound: once `t` alone exceeds the capacity, the flow stays congested
//!   (and is only reset by timeouts). It is offered to reproduce the text, never as a default.
//!
//! Slow start, timeouts (W → 1) and the increase (α per RTT, α/W per ACK) are TCP's; a loss in
//! slow start halves, as TCP. ECN-Echo counts as a loss.

use super::congestion_control::{AckEvent, CongestionControl, CongestionEvent, CongestionKind, Window};
use super::params::{Names, Checked, ControllerParams};
use super::params::{check_fraction, check_positive};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Which reading of the New-AIMD decrease rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum NewAimdReading {
    /// Halve the window carried into the current cycle, keep this cycle's increments.
    Epoch,
    /// Halve the initial window, never the increments (unbounded).
    Literal,
}

/// New-AIMD.
#[derive(Clone, Debug)]
pub struct NewAimd {
    reading: NewAimdReading,
    alpha: f64,
    beta: f64,
    /// Epoch: the window at the start of the cycle. Literal: the carried (halved) part x.
    carried: f64,
    /// Literal: all increments since the start (t of the pseudocode).
    increments: f64,
}

impl NewAimd {
    /// New-AIMD with increase `alpha`, decrease `beta` of the carried window.
    pub fn new(reading: NewAimdReading, alpha: f64, beta: f64) -> Self {
        NewAimd { reading, alpha, beta, carried: 0.0, increments: 0.0 }
    }
}

/// New-AIMD's parameters (`cc = { name = "new_aimd", reading = "epoch" }`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct NewAimdParams {
    /// `"epoch"` (default, bounded) or `"literal"` (the pseudocode; unbounded).
    pub reading: NewAimdReading,
    /// Additive increase α, packets per RTT. Default 1.
    pub alpha: f64,
    /// Fraction kept of the carried window at a congestion, in (0, 1). Default 1/2.
    pub beta: f64,
}

impl Default for NewAimdParams {
    fn default() -> Self {
        NewAimdParams { reading: NewAimdReading::Epoch, alpha: 1.0, beta: 0.5 }
    }
}

impl ControllerParams for NewAimdParams {
    type Controller = NewAimd;
    const NAMES: Names<Self> = &[("new_aimd", Self::default)];
    fn check(&self, _name: &'static str) -> Checked {
        check_positive("alpha", self.alpha)?;
        check_fraction("beta", self.beta, "a decrease factor 0 < β < 1")
    }
    fn build(&self, _name: &'static str) -> NewAimd {
        NewAimd::new(self.reading, self.alpha, self.beta)
    }
}

impl CongestionControl for NewAimd {
    fn name(&self) -> &'static str {
        "new_aimd"
    }

    fn init(&mut self, w: &mut Window) {
        self.carried = w.cwnd_pkts;
    }

    fn cong_avoid(&mut self, w: &mut Window, _ev: &AckEvent, _acked_pkts: u64) {
        if w.slow_start() {
            self.carried = w.cwnd_pkts - self.increments;
        } else {
            let inc = self.alpha / w.cwnd_pkts;
            w.cwnd_pkts += inc;
            if self.reading == NewAimdReading::Literal {
                self.increments += inc;
            }
        }
    }

    fn ssthresh(&mut self, w: &Window, ev: &CongestionEvent) -> f64 {
        match ev.kind {
            CongestionKind::Loss | CongestionKind::Ecn if !w.in_slow_start() => match self.reading {
                NewAimdReading::Epoch => self.beta * self.carried + (w.cwnd_pkts - self.carried),
                NewAimdReading::Literal => self.beta * self.carried + self.increments,
            },
            _ => w.cwnd_pkts * 0.5,
        }
    }

    fn on_congestion(&mut self, w: &mut Window, ev: &CongestionEvent) {
        let ssthresh = self.ssthresh(w, ev);
        w.cut(ssthresh, ev.kind);
        if ev.kind == CongestionKind::Timeout {
            self.carried = 1.0;
            self.increments = 0.0;
        } else {
            self.on_window_set(w);
        }
    }

    fn on_window_set(&mut self, w: &Window) {
        // The window carried into the next epoch is the one the cut left.
        self.carried = match self.reading {
            NewAimdReading::Epoch => w.cwnd_pkts,
            NewAimdReading::Literal => w.cwnd_pkts - self.increments,
        };
    }

    fn state_vars(&self, _w: &Window, publish: &mut dyn FnMut(&'static str, f64)) {
        publish("carried_pkts", self.carried);
    }
}

#[cfg(test)]
mod tests {
    use crate::cc::testing::windowed;
    use super::super::testing::{congestion, run_rounds};
    use super::*;

    #[test]
    fn epoch_reading_halves_only_the_carried_window() {
        // Cycle starts at 30 (after a reduction), gains 10 packets, then a loss:
        // 30/2 + 10 = 25.
        let mut n = windowed(NewAimd::new(NewAimdReading::Epoch, 1.0, 0.5), 30.0, 30.0);
        run_rounds(&mut n, 10);
        let w = n.cwnd_pkts();
        n.on_congestion(&congestion(CongestionKind::Loss));
        assert!((n.cwnd_pkts() - (15.0 + (w - 30.0))).abs() < 1e-9);
    }

    #[test]
    fn epoch_reading_converges_to_two_thirds_of_the_peak() {
        // Always congested at W = 60: the cycle start converges to W/(2 − β) = 40.
        let mut n = windowed(NewAimd::new(NewAimdReading::Epoch, 1.0, 0.5), 60.0, 10.0);
        for _ in 0..60 {
            while n.cwnd_pkts() < 60.0 {
                run_rounds(&mut n, 1);
            }
            n.on_congestion(&congestion(CongestionKind::Loss));
        }
        assert!((n.cwnd_pkts() - 40.0).abs() < 1.5, "{}", n.cwnd_pkts());
    }

    #[test]
    fn literal_reading_never_gives_back_its_increments() {
        let mut n = windowed(NewAimd::new(NewAimdReading::Literal, 1.0, 0.5), 20.0, 10.0);
        for _ in 0..5 {
            run_rounds(&mut n, 10);
            n.on_congestion(&congestion(CongestionKind::Loss));
        }
        // 50 rounds of ≈ +1 each; only the initial 20 was halved (five times).
        assert!(n.cwnd_pkts() > 49.0 && n.cwnd_pkts() < 52.0, "{}", n.cwnd_pkts());
    }
}
