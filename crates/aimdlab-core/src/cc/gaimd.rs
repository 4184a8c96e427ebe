//! GAIMD, general AIMD (Y. R. Yang and S. S. Lam, "General AIMD Congestion Control",
//! shared/papers/gaimd.txt, §2.1): TCP's window rules with the increase α and the decrease β
//! as parameters.
//!
//! - Slow start as TCP: +1 per newly acknowledged packet (RFC 5681 eq. 2).
//! - "Upon the first congestion indication, the congestion window size is cut in half and
//!   the session enters the congestion avoidance state."
//! - Congestion avoidance: "increased by α/W for each new ACK received" (α per RTT; α/2 per
//!   RTT when the receiver delays ACKs).
//! - Triple-duplicate ACK: W → β·W. Timeout: W → 1 (ssthresh = max(β·W, 2), our choice
//!   where the paper is silent; with β = 1/2 it is TCP's).
//! - ECN-Echo is treated as a triple-duplicate ACK (RFC 3168's "same as a loss").
//!
//! GAIMD(1, 1/2) is TCP Reno. TCP-friendly α for a given β: eq. (6) α = 3(1 − β)/(1 + β)
//! (the TD curve) and eq. (7) α = 4(1 − β²)/3 (the TO curve, giving α = 0.31 at β = 7/8).

use super::congestion_control::{AckEvent, CongestionControl, CongestionEvent, Window};
use super::params::{Names, Checked, ControllerParams, ParamError};
use super::params::check_fraction;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The TCP-friendly α of `gaimd.txt` eq. (6), matching the triple-duplicate term.
pub fn tcp_friendly_alpha_td(beta: f64) -> f64 {
    3.0 * (1.0 - beta) / (1.0 + beta)
}

/// The TCP-friendly α of `gaimd.txt` eq. (7), matching the timeout term.
pub fn tcp_friendly_alpha_to(beta: f64) -> f64 {
    4.0 * (1.0 - beta * beta) / 3.0
}

/// GAIMD(α, β).
#[derive(Clone, Debug)]
pub struct Gaimd {
    alpha: f64,
    beta: f64,
}

impl Gaimd {
    /// GAIMD with increase `alpha` (packets per RTT) and decrease factor `beta`.
    pub fn new(alpha: f64, beta: f64) -> Self {
        Gaimd { alpha, beta }
    }
}

/// GAIMD's α: a number of packets per RTT or `"tcp-friendly"`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum AlphaSpec {
    /// α in packets per RTT.
    Value(f64),
    /// `"tcp-friendly"`: derived from β.
    Named(String),
}

/// Which TCP-friendly curve gives α from β.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum FriendlyCurve {
    /// Eq. (7), the timeout term: α = 4(1 − β²)/3 (0.31 at β = 7/8).
    To,
    /// Eq. (6), the triple-duplicate term: α = 3(1 − β)/(1 + β).
    Td,
}

/// GAIMD's parameters (`cc = { name = "gaimd", alpha = "tcp-friendly", beta = 0.875 }`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct GaimdParams {
    /// Additive increase α, packets per RTT, or `"tcp-friendly"` (derived from β by
    /// `gaimd.txt` eq. 7, or eq. 6 with `friendly_curve = "td"`). Default 1.
    pub alpha: AlphaSpec,
    /// Window after a loss, as a fraction in (0, 1). Default 1/2.
    pub beta: f64,
    /// With alpha = `"tcp-friendly"`: `"to"` (eq. 7, the default) or `"td"` (eq. 6).
    pub friendly_curve: Option<FriendlyCurve>,
}

impl Default for GaimdParams {
    fn default() -> Self {
        GaimdParams { alpha: AlphaSpec::Value(1.0), beta: 0.5, friendly_curve: None }
    }
}

impl GaimdParams {
    /// α in packets per RTT (derived from β when `"tcp-friendly"`).
    pub fn alpha_pkts_per_rtt(&self) -> f64 {
        match &self.alpha {
            AlphaSpec::Value(a) => *a,
            AlphaSpec::Named(_) => match self.friendly_curve.unwrap_or(FriendlyCurve::To) {
                FriendlyCurve::To => tcp_friendly_alpha_to(self.beta),
                FriendlyCurve::Td => tcp_friendly_alpha_td(self.beta),
            },
        }
    }
}

impl ControllerParams for GaimdParams {
    type Controller = Gaimd;
    const NAMES: Names<Self> = &[("gaimd", Self::default)];
    fn check(&self, _name: &'static str) -> Checked {
        check_fraction("beta", self.beta, "a decrease factor 0 < β < 1")?;
        match &self.alpha {
            AlphaSpec::Value(a) if !(a.is_finite() && *a > 0.0) => Err(ParamError { field: "alpha", message: format!("{a} is not positive; expected a number > 0") }),
            AlphaSpec::Named(s) if s != "tcp-friendly" && s != "tcp_friendly" => {
                Err(ParamError { field: "alpha", message: format!("{s:?} is not valid; expected a number > 0 or \"tcp-friendly\"") })
            }
            AlphaSpec::Value(_) if self.friendly_curve.is_some() => Err(ParamError { field: "friendly_curve", message: "applies only with alpha = \"tcp-friendly\"".into() }),
            _ => Ok(()),
        }
    }
    fn build(&self, _name: &'static str) -> Gaimd {
        Gaimd::new(self.alpha_pkts_per_rtt(), self.beta)
    }
}

impl CongestionControl for Gaimd {
    fn name(&self) -> &'static str {
        "gaimd"
    }

    fn cong_avoid(&mut self, w: &mut Window, _ev: &AckEvent, _acked_pkts: u64) {
                w.aimd_step(self.alpha);
    }

    fn ssthresh(&mut self, w: &Window, _ev: &CongestionEvent) -> f64 {
        let in_slow_start = w.in_slow_start();
        let factor = if in_slow_start { 0.5 } else { self.beta };
        w.cwnd_pkts * factor
    }
}

#[cfg(test)]
mod tests {
    use crate::cc::testing::windowed;
    use super::super::testing::{ack, congestion, run_rounds};
    use super::*;
    use crate::cc::CongestionKind;

    #[test]
    fn tcp_friendly_alpha_for_beta_seven_eighths_is_0_31() {
        assert!((tcp_friendly_alpha_to(0.875) - 0.3125).abs() < 1e-12);
        assert!((tcp_friendly_alpha_td(0.875) - 0.2).abs() < 1e-12);
        assert_eq!(tcp_friendly_alpha_to(0.5), 1.0);
        assert_eq!(tcp_friendly_alpha_td(0.5), 1.0);
    }

    #[test]
    fn grows_alpha_per_round_and_cuts_to_beta() {
        let mut g = windowed(Gaimd::new(0.31, 0.875), 40.0, 20.0);
        run_rounds(&mut g, 10);
        // Ten rounds of one ACK per packet: +0.31 per round (the window's own growth inside
        // a round makes it a hair less).
        assert!((g.cwnd_pkts() - (40.0 + 3.1)).abs() < 0.05, "{}", g.cwnd_pkts());
        let w = g.cwnd_pkts();
        g.on_congestion(&congestion(CongestionKind::Loss));
        assert!((g.cwnd_pkts() - 0.875 * w).abs() < 1e-12);
        g.on_congestion(&congestion(CongestionKind::Timeout));
        assert_eq!(g.cwnd_pkts(), 1.0);
    }

    #[test]
    fn the_first_loss_in_slow_start_halves() {
        let mut g = windowed(Gaimd::new(0.31, 0.875), 64.0, f64::INFINITY);
        g.on_ack(&ack(1));
        g.on_congestion(&congestion(CongestionKind::Loss));
        assert_eq!(g.cwnd_pkts(), 32.5);
    }
}
