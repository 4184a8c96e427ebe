//! Binomial congestion control (D. Bansal and H. Balakrishnan, "Binomial Congestion Control
//! Algorithms", IEEE INFOCOM 2001): increase `w ← w + α/w^k` per RTT and decrease
//! `w ← w − β·w^l` on loss. `k + l = 1` makes a rule TCP-compatible; IIAD is k = 1, l = 0 and
//! SQRT is k = l = 1/2 (AIMD is k = 0, l = 1).
//!
//! Per ACK the increase is `α/w^(k+1)`, so a window of ACKs adds `α/w^k`. Slow start,
//! timeouts (w → 1) and the loss-in-slow-start halving are TCP's. Defaults α = 1, β = 1/2
//! (our choice, stated in the schema; the paper's comparisons vary them).

use super::congestion_control::{AckEvent, CongestionControl, CongestionEvent, Window};
use super::params::{Names, Checked, ControllerParams, ParamError};
use super::params::{check_fraction, check_positive};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A binomial controller.
#[derive(Clone, Debug)]
pub struct Binomial {
    name: &'static str,
    k: f64,
    l: f64,
    alpha: f64,
    beta: f64,
}

impl Binomial {
    /// Binomial(k, l) with gains α, β; `name` labels it in results.
    pub fn new(name: &'static str, k: f64, l: f64, alpha: f64, beta: f64) -> Self {
        Binomial { name, k, l, alpha, beta }
    }
}

/// Binomial parameters (`cc = { name = "binomial", k = 0.5, l = 0.5 }`); `iiad` and `sqrt`
/// are the same controller with their exponents fixed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct BinomialParams {
    /// Increase exponent k (w += α/w^k per RTT), in [0, 2]. Default 1 (IIAD).
    pub k: f64,
    /// Decrease exponent l (w −= β·w^l on loss), in [0, 2]. Default 0 (IIAD).
    pub l: f64,
    /// Increase gain α, packets per RTT. Default 1.
    pub alpha: f64,
    /// Decrease gain β, in (0, 1). Default 1/2.
    pub beta: f64,
}

impl Default for BinomialParams {
    /// `binomial` without exponents is IIAD.
    fn default() -> Self {
        Self::iiad()
    }
}

impl BinomialParams {
    /// IIAD: k = 1, l = 0.
    pub fn iiad() -> Self {
        BinomialParams { k: 1.0, l: 0.0, alpha: 1.0, beta: 0.5 }
    }
    /// SQRT: k = l = 1/2.
    pub fn sqrt() -> Self {
        BinomialParams { k: 0.5, l: 0.5, alpha: 1.0, beta: 0.5 }
    }
}

impl ControllerParams for BinomialParams {
    type Controller = Binomial;
    const NAMES: Names<Self> = &[("binomial", Self::default), ("iiad", Self::iiad), ("sqrt", Self::sqrt)];
    fn check(&self, name: &'static str) -> Checked {
        for (field, v) in [("k", self.k), ("l", self.l)] {
            if !(v.is_finite() && (0.0..=2.0).contains(&v)) {
                return Err(ParamError { field, message: format!("{v} is outside [0, 2]; expected an exponent 0 ≤ {field} ≤ 2") });
            }
        }
        let fixed = if name == "sqrt" { Self::sqrt() } else { Self::iiad() };
        if name != "binomial" && (self.k, self.l) != (fixed.k, fixed.l) {
            let field = if self.k != fixed.k { "k" } else { "l" };
            let message = format!("{name} fixes k = {} and l = {}; use name = \"binomial\" for other exponents", fixed.k, fixed.l);
            return Err(ParamError { field, message });
        }
        check_positive("alpha", self.alpha)?;
        check_fraction("beta", self.beta, "a decrease gain 0 < β < 1")
    }
    fn build(&self, name: &'static str) -> Binomial {
        Binomial::new(name, self.k, self.l, self.alpha, self.beta)
    }
}

impl CongestionControl for Binomial {
    fn name(&self) -> &'static str {
        self.name
    }

    fn cong_avoid(&mut self, w: &mut Window, _ev: &AckEvent, _acked_pkts: u64) {
        if !w.slow_start() {
            w.cwnd_pkts += self.alpha / w.cwnd_pkts.powf(self.k + 1.0);
        }
    }

    fn ssthresh(&mut self, w: &Window, _ev: &CongestionEvent) -> f64 {
        let in_slow_start = w.in_slow_start();
        if in_slow_start { w.cwnd_pkts * 0.5 } else { w.cwnd_pkts - self.beta * w.cwnd_pkts.powf(self.l) }
    }
}

#[cfg(test)]
mod tests {
    use crate::cc::testing::windowed;
    use super::super::testing::{congestion, run_rounds};
    use super::*;
    use crate::cc::CongestionKind;

    #[test]
    fn iiad_increases_inversely_and_decreases_additively() {
        let mut b = windowed(Binomial::new("iiad", 1.0, 0.0, 1.0, 0.5), 20.0, 10.0);
        run_rounds(&mut b, 10);
        // Ten rounds of +α/w = +1/20 each: +0.5, a few percent less as w grows meanwhile.
        let gain = b.cwnd_pkts() - 20.0;
        assert!(gain < 0.5 && gain > 0.5 * 0.95, "{gain}");
        let w = b.cwnd_pkts();
        b.on_congestion(&congestion(CongestionKind::Loss));
        assert!((b.cwnd_pkts() - (w - 0.5)).abs() < 1e-12);
    }

    #[test]
    fn sqrt_decreases_by_beta_root_w() {
        let mut b = windowed(Binomial::new("sqrt", 0.5, 0.5, 1.0, 0.5), 64.0, 10.0);
        b.on_congestion(&congestion(CongestionKind::Loss));
        assert!((b.cwnd_pkts() - (64.0 - 0.5 * 8.0)).abs() < 1e-12);
    }
}
