//! Binomial congestion control (D. Bansal and H. Balakrishnan, "Binomial Congestion Control
//! Algorithms", IEEE INFOCOM 2001): increase `w ← w + α/w^k` per RTT and decrease
//! `w ← w − β·w^l` on loss. `k + l = 1` makes a rule TCP-compatible; IIAD is k = 1, l = 0 and
//! SQRT is k = l = 1/2 (AIMD is k = 0, l = 1).
//!
//! Per ACK the increase is `α/w^(k+1)`, so a window of ACKs adds `α/w^k`. Slow start,
//! timeouts (w → 1) and the loss-in-slow-start halving are TCP's. Defaults α = 1, β = 1/2
//! (our choice, stated in the schema; the paper's comparisons vary them).

use super::{cut_window, slow_start, AckEvent, CongestionControl, CongestionEvent};

/// A binomial controller.
#[derive(Clone, Debug)]
pub struct Binomial {
    name: &'static str,
    k: f64,
    l: f64,
    alpha: f64,
    beta: f64,
    cwnd: f64,
    ssthresh: f64,
}

impl Binomial {
    /// Binomial(k, l) with gains α, β; `name` labels it in results.
    pub fn new(name: &'static str, k: f64, l: f64, alpha: f64, beta: f64, cwnd: f64, ssthresh: f64) -> Self {
        Binomial { name, k, l, alpha, beta, cwnd, ssthresh }
    }
}

impl CongestionControl for Binomial {
    fn name(&self) -> &'static str {
        self.name
    }

    fn on_ack(&mut self, ev: &AckEvent) {
        if ev.in_recovery || ev.newly_acked_pkts == 0 {
            return;
        }
        if !slow_start(&mut self.cwnd, self.ssthresh, ev.newly_acked_pkts) {
            self.cwnd += self.alpha / self.cwnd.powf(self.k + 1.0);
        }
    }

    fn on_congestion(&mut self, ev: &CongestionEvent) {
        let in_slow_start = self.cwnd < self.ssthresh;
        let reduced = if in_slow_start { self.cwnd * 0.5 } else { self.cwnd - self.beta * self.cwnd.powf(self.l) };
        cut_window(&mut self.cwnd, &mut self.ssthresh, reduced, ev.kind);
    }

    fn cwnd_pkts(&self) -> f64 {
        self.cwnd
    }

    fn ssthresh_pkts(&self) -> f64 {
        self.ssthresh
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{congestion, run_rounds};
    use super::*;
    use crate::cc::CongestionKind;

    #[test]
    fn iiad_increases_inversely_and_decreases_additively() {
        let mut b = Binomial::new("iiad", 1.0, 0.0, 1.0, 0.5, 20.0, 10.0);
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
        let mut b = Binomial::new("sqrt", 0.5, 0.5, 1.0, 0.5, 64.0, 10.0);
        b.on_congestion(&congestion(CongestionKind::Loss));
        assert!((b.cwnd_pkts() - (64.0 - 0.5 * 8.0)).abs() < 1e-12);
    }
}
