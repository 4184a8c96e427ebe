//! HighSpeed TCP: S. Floyd, RFC 3649 (2003).
//!
//! Above `Low_Window` = 38 packets the window follows the response function
//! `w = 0.12 / p^0.835` (§5) instead of Reno's `1.2 / √p`, reaching 83,000 packets at
//! p = 10⁻⁷, through an increase a(w) and a decrease b(w) that depend on the window:
//! - b(w) = (High_Decrease − 0.5) · (log w − log Low_Window) / (log High_Window −
//!   log Low_Window) + 0.5, from 0.5 at 38 packets to High_Decrease = 0.1 at 83,000 (§5);
//! - a(w) = w² · p(w) · 2 · b(w) / (2 − b(w)), with p(w) = 0.078 / w^1.2 the response
//!   function's inverse (§5);
//! - per ACK in congestion avoidance cwnd ← cwnd + a(w)/cwnd, and at a loss
//!   cwnd ← (1 − b(w)) · cwnd (§4); at or below Low_Window a = 1 and b = 1/2, Reno.
//!
//! Parity: Linux's `tcp_highspeed.c` and ns-3's `TcpHighSpeed` look a(w) and b(w) up in the
//! RFC's Appendix B table (73 rows: integer a, b in 1/256ths), a step function of the window;
//! the formulas here are the curves the table samples (a test checks rows of it). Slow start, timeouts and losses in
//! slow start are TCP's (RFC 5681; the RFC's Limited Slow-Start, RFC 3742, is not modelled).

use super::congestion_control::{cut_window, slow_start, AckEvent, CongestionControl, CongestionEvent};
use super::params::{check_fraction, check_positive, Checked, ControllerParams, Names};
use crate::transport::profile::StackProfile;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// HighSpeed TCP's parameters (`cc = { name = "highspeed" }`; the RFC's values by default).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct HighSpeedParams {
    /// Window (packets) at or below which the sender is Reno. Default 38 (`Low_Window`).
    pub low_window: f64,
    /// Window (packets) the response function reaches at `high_p`. Default 83,000
    /// (`High_Window`).
    pub high_window: f64,
    /// Decrease factor b at `high_window`, in (0, 1/2). Default 0.1 (`High_Decrease`).
    pub high_decrease: f64,
}

impl Default for HighSpeedParams {
    fn default() -> Self {
        HighSpeedParams { low_window: 38.0, high_window: 83_000.0, high_decrease: 0.1 }
    }
}

impl ControllerParams for HighSpeedParams {
    type Controller = HighSpeed;
    const NAMES: Names<Self> = &[("highspeed", Self::default)];
    fn profile_tcp_defaults(profile: StackProfile) -> Vec<(&'static str, serde_json::Value)> {
        match profile {
            // ns-3's TcpHighSpeed counts segmentsAcked in congestion avoidance (its NewReno counts ACKs).
            StackProfile::Ns3 => vec![("cwnd_growth", "per_segment".into())],
            _ => Vec::new(),
        }
    }
    fn check(&self, _name: &'static str) -> Checked {
        check_positive("low_window", self.low_window)?;
        if !(self.high_window.is_finite() && self.high_window > self.low_window) {
            return Err(super::params::ParamError {
                field: "high_window",
                message: format!("{} is not above low_window ({}); expected a larger window", self.high_window, self.low_window),
            });
        }
        check_fraction("high_decrease", self.high_decrease, "a decrease factor 0 < b < 1/2")?;
        if self.high_decrease >= 0.5 {
            return Err(super::params::ParamError { field: "high_decrease", message: format!("{} is not below 0.5; expected 0 < b < 1/2", self.high_decrease) });
        }
        Ok(())
    }
    fn build(&self, _name: &'static str, cwnd_pkts: f64, ssthresh_pkts: f64) -> HighSpeed {
        HighSpeed { curve: Curve::new(self), cwnd: cwnd_pkts, ssthresh: ssthresh_pkts }
    }
}

/// HighSpeed TCP's state.
#[derive(Clone, Debug)]
pub struct HighSpeed {
    curve: Curve,
    cwnd: f64,
    ssthresh: f64,
}

impl HighSpeedParams {
    /// b(w): the fraction of a window of `w` packets a loss takes (§5).
    pub fn b(&self, w: f64) -> f64 {
        Curve::new(self).b(w)
    }

    /// a(w): packets added per RTT at a window of `w` packets (§5).
    pub fn a(&self, w: f64) -> f64 {
        Curve::new(self).a(w)
    }
}

/// a(w) and b(w) of one set of parameters, the logarithms of its ends worked out once (a flow
/// asks on every ACK).
#[derive(Clone, Copy, Debug)]
struct Curve {
    low_window: f64,
    ln_low_window: f64,
    /// log High_Window − log Low_Window.
    ln_span: f64,
    high_decrease: f64,
}

impl Curve {
    fn new(p: &HighSpeedParams) -> Self {
        let ln_low_window = p.low_window.ln();
        let ln_span = (p.high_window.ln() - ln_low_window).max(f64::MIN_POSITIVE);
        Curve { low_window: p.low_window, ln_low_window, ln_span, high_decrease: p.high_decrease }
    }

    /// b(w) (§5).
    fn b(&self, w: f64) -> f64 {
        if w <= self.low_window {
            return 0.5;
        }
        ((self.high_decrease - 0.5) * (w.ln() - self.ln_low_window) / self.ln_span + 0.5).max(self.high_decrease)
    }

    /// a(w) (§5).
    fn a(&self, w: f64) -> f64 {
        if w <= self.low_window {
            return 1.0;
        }
        let b = self.b(w);
        w * w * response_inverse(w) * 2.0 * b / (2.0 - b)
    }
}

/// p(w) = 0.078 / w^1.2: the loss rate at which the response function gives `w` (§5).
pub fn response_inverse(w: f64) -> f64 {
    0.078 / w.powf(1.2)
}

/// w(p) = 0.12 / p^0.835: the response function (§5), packets.
pub fn response_function(p: f64) -> f64 {
    0.12 / p.powf(0.835)
}

impl CongestionControl for HighSpeed {
    fn name(&self) -> &'static str {
        "highspeed"
    }

    fn on_ack(&mut self, ev: &AckEvent) {
        if ev.in_recovery || ev.newly_acked_pkts == 0 {
            return;
        }
        if !slow_start(&mut self.cwnd, self.ssthresh, ev.newly_acked_pkts) {
            // §4: cwnd ← cwnd + a(w)/cwnd per ACK.
            self.cwnd += self.curve.a(self.cwnd) / self.cwnd;
        }
    }

    fn on_congestion(&mut self, ev: &CongestionEvent) {
        // §4: cwnd ← (1 − b(w))·cwnd; a loss in slow start halves, as TCP.
        let factor = if self.cwnd < self.ssthresh { 0.5 } else { 1.0 - self.curve.b(self.cwnd) };
        let reduced = self.cwnd * factor;
        cut_window(&mut self.cwnd, &mut self.ssthresh, reduced, ev);
    }

    fn set_window(&mut self, cwnd_pkts: f64, ssthresh_pkts: f64) {
        (self.cwnd, self.ssthresh) = (cwnd_pkts, ssthresh_pkts);
    }

    fn cwnd_pkts(&self) -> f64 {
        self.cwnd
    }

    fn ssthresh_pkts(&self) -> f64 {
        self.ssthresh
    }

    fn state_vars(&self, publish: &mut dyn FnMut(&'static str, f64)) {
        publish("a_pkts", self.curve.a(self.cwnd));
        publish("b", self.curve.b(self.cwnd));
    }
}

#[cfg(test)]
mod tests {
    use super::super::congestion_control::CongestionKind;
    use super::super::testing::congestion;
    use super::*;

    fn mean_window_under_periodic_loss(p: f64) -> f64 {
        let mut c = HighSpeedParams::default().build("highspeed", response_function(p), 2.0);
        super::super::testing::mean_window_under_periodic_loss(&mut c, p, 30, 10)
    }

    fn assert_follows_the_table(rows: &[(f64, f64)]) {
        for &(p, w) in rows {
            let mean = mean_window_under_periodic_loss(p);
            assert!((mean / w - 1.0).abs() < 0.05, "p = {p}: {mean:.0} packets, the RFC's {w}");
        }
    }

    #[test]
    fn the_window_under_loss_follows_the_rfcs_table() {
        // RFC 3649 §5, Table 3: W = 263, 1,795 and 12,279 packets at p = 10⁻⁴ to 10⁻⁶ (here
        // 261, 1,790, 12,222). At 10⁻³ the window is Low_Window, where HighSpeed is Reno: the
        // table's 38 is Reno's 1.2/√p, this sawtooth's mean 40.
        assert_follows_the_table(&[(1e-4, 263.0), (1e-5, 1_795.0), (1e-6, 12_279.0)]);
    }

    #[test]
    #[ignore = "3·10⁸ ACKs: cargo test --release -- --ignored"]
    fn at_one_loss_in_ten_million_the_window_is_83_000_packets() {
        // Table 3's last row, 83,981 (here 82,418).
        assert_follows_the_table(&[(1e-7, 83_981.0)]);
    }

    #[test]
    fn a_and_b_are_the_rfcs_appendix_b_rows() {
        let p = HighSpeedParams::default();
        assert_eq!((p.a(38.0), p.b(38.0)), (1.0, 0.5), "Reno at Low_Window");
        assert!((p.b(83_000.0) - 0.1).abs() < 1e-9, "High_Decrease at High_Window");
        // Appendix B (as Linux's hstcp_aimd_vals carries it): w, a(w), b(w).
        for (w, a, b) in [(118.0, 2.0, 0.44), (1_058.0, 8.0, 0.33), (1_793.0, 11.0, 0.30)] {
            assert!((p.a(w) / a - 1.0).abs() < 0.05, "a({w}) = {}, the table's {a}", p.a(w));
            assert!((p.b(w) - b).abs() < 0.01, "b({w}) = {}, the table's {b}", p.b(w));
        }
    }

    #[test]
    fn a_loss_takes_b_of_the_window_and_a_timeout_restarts_from_one() {
        let p = HighSpeedParams::default();
        let mut c = p.build("highspeed", 1_000.0, 2.0);
        c.on_congestion(&congestion(CongestionKind::Loss));
        assert!((c.cwnd_pkts() - 1_000.0 * (1.0 - p.b(1_000.0))).abs() < 1e-9);
        c.on_congestion(&congestion(CongestionKind::Timeout));
        assert_eq!(c.cwnd_pkts(), 1.0);
    }
}
