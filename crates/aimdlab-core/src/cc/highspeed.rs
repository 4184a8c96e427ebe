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
//! RFC's Appendix B table (73 rows; a(w) = i for windows up to the i-th row's, b(w) that
//! row's), a step function that takes each range's upper end: a window of 75 packets adds 2
//! a round trip where the formula adds 1.49, and gives up 0.44 where it gives up 0.46. The
//! formulas are the default (`coefficients = "formula"`); `"table"` looks the rows up, as the
//! `linux`, `linux26` and `ns3` profiles do. Slow start, timeouts and losses in slow start are
//! TCP's (RFC 5681; the RFC's Limited Slow-Start, RFC 3742, is not modelled).

use super::cut_base::CutBase;
use super::congestion_control::{AckEvent, CongestionControl, CongestionEvent, Window};
use super::params::{check_fraction, check_positive, Checked, ControllerParams, Names};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Where a(w) and b(w) come from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Coefficients {
    /// The RFC's formulas (§5), curves of the window.
    #[default]
    Formula,
    /// The RFC's Appendix B table, a step per row (Linux, ns-3); `low_window`, `high_window`
    /// and `high_decrease` do not apply.
    Table,
}

/// RFC 3649 Appendix B: (w, b(w)) per row; a(w) is the row's number (1 to 73), for windows
/// above the previous row's w up to this one's, and the last row's beyond.
const APPENDIX_B: [(u32, f64); 73] = [
    (38, 0.50), (118, 0.44), (221, 0.41), (347, 0.38), (495, 0.37), (663, 0.35),
    (851, 0.34), (1058, 0.33), (1284, 0.32), (1529, 0.31), (1793, 0.30), (2076, 0.29),
    (2378, 0.28), (2699, 0.28), (3039, 0.27), (3399, 0.27), (3778, 0.26), (4177, 0.26),
    (4596, 0.25), (5036, 0.25), (5497, 0.24), (5979, 0.24), (6483, 0.23), (7009, 0.23),
    (7558, 0.22), (8130, 0.22), (8726, 0.22), (9346, 0.21), (9991, 0.21), (10661, 0.21),
    (11358, 0.20), (12082, 0.20), (12834, 0.20), (13614, 0.19), (14424, 0.19), (15265, 0.19),
    (16137, 0.19), (17042, 0.18), (17981, 0.18), (18955, 0.18), (19965, 0.17), (21013, 0.17),
    (22101, 0.17), (23230, 0.17), (24402, 0.16), (25618, 0.16), (26881, 0.16), (28193, 0.16),
    (29557, 0.15), (30975, 0.15), (32450, 0.15), (33986, 0.15), (35586, 0.14), (37253, 0.14),
    (38992, 0.14), (40808, 0.14), (42707, 0.13), (44694, 0.13), (46776, 0.13), (48961, 0.13),
    (51258, 0.13), (53667, 0.12), (56230, 0.12), (58932, 0.12), (61799, 0.12), (64851, 0.11),
    (68113, 0.11), (71617, 0.11), (75401, 0.10), (79517, 0.10), (84035, 0.10), (89053, 0.10),
    (94717, 0.09),
];

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
    /// a(w) and b(w) from `"formula"` (§5; the default) or `"table"` (Appendix B's rows, as
    /// Linux and ns-3 look them up; the `linux`, `linux26` and `ns3` profiles' choice).
    pub coefficients: Coefficients,
    /// What the cut multiplies: `"cwnd"` (default; Linux) or `"flight"`, the packets in flight
    /// when the loss is detected (ns-3's TcpHighSpeed::GetSsThresh, which also looks its decrease up at that size; the `ns3` profile's).
    pub cut_from: CutBase,
}

impl Default for HighSpeedParams {
    fn default() -> Self {
        HighSpeedParams { low_window: 38.0, high_window: 83_000.0, high_decrease: 0.1, coefficients: Coefficients::Formula, cut_from: CutBase::Cwnd }
    }
}

impl ControllerParams for HighSpeedParams {
    type Controller = HighSpeed;
    const NAMES: Names<Self> = &[("highspeed", Self::default)];
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
    fn build(&self, _name: &'static str) -> HighSpeed {
        HighSpeed { curve: Curve::new(self), cut_from: self.cut_from }
    }
}

/// HighSpeed TCP's state.
#[derive(Clone, Debug)]
pub struct HighSpeed {
    curve: Curve,
    cut_from: CutBase,
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
    table: bool,
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
        Curve { table: p.coefficients == Coefficients::Table, low_window: p.low_window, ln_low_window, ln_span, high_decrease: p.high_decrease }
    }

    /// The Appendix B row of a window of `w` packets (whole packets, as Linux's `snd_cwnd`):
    /// the first whose w is at least it, or the last.
    fn row(w: f64) -> usize {
        let w = w.max(0.0).floor() as u32;
        APPENDIX_B.partition_point(|&(row_w, _)| row_w < w).min(APPENDIX_B.len() - 1)
    }

    /// b(w) (§5).
    fn b(&self, w: f64) -> f64 {
        if self.table {
            return APPENDIX_B[Self::row(w)].1;
        }
        if w <= self.low_window {
            return 0.5;
        }
        ((self.high_decrease - 0.5) * (w.ln() - self.ln_low_window) / self.ln_span + 0.5).max(self.high_decrease)
    }

    /// a(w) (§5).
    fn a(&self, w: f64) -> f64 {
        if self.table {
            return (Self::row(w) + 1) as f64;
        }
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

    fn cong_avoid(&mut self, w: &mut Window, _ev: &AckEvent, _acked_pkts: u64) {
                // §4: cwnd ← cwnd + a(w)/cwnd per ACK.
        w.aimd_step(self.curve.a(w.cwnd_pkts));
    }

    fn ssthresh(&mut self, w: &Window, ev: &CongestionEvent) -> f64 {
        // §4: cwnd ← (1 − b(w))·cwnd; a loss in slow start halves, as TCP.
        let base = self.cut_from.pkts(w, ev);
        let factor = if w.in_slow_start() { 0.5 } else { 1.0 - self.curve.b(base) };
        base * factor
    }

    fn state_vars(&self, w: &Window, publish: &mut dyn FnMut(&'static str, f64)) {
        publish("a_pkts", self.curve.a(w.cwnd_pkts));
        publish("b", self.curve.b(w.cwnd_pkts));
    }
}

#[cfg(test)]
mod tests {
    use crate::cc::testing::BuildWindowed;
    use super::super::congestion_control::CongestionKind;
    use super::super::testing::congestion;
    use super::*;

    fn mean_window_under_periodic_loss(p: f64) -> f64 {
        let mut c = HighSpeedParams::default().build_windowed("highspeed", response_function(p), 2.0);
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
    fn the_table_steps_at_each_rows_window_as_linux_and_ns3_look_it_up() {
        let p = HighSpeedParams { coefficients: Coefficients::Table, ..HighSpeedParams::default() };
        // Row 1 up to 38 packets (Reno), row 2 from 39 to 118, row 3 from 119; the last row's
        // values beyond 94,717.
        for (w, a, b) in [(10.0, 1.0, 0.5), (38.0, 1.0, 0.5), (39.0, 2.0, 0.44), (75.0, 2.0, 0.44), (118.9, 2.0, 0.44), (119.0, 3.0, 0.41), (1_000_000.0, 73.0, 0.09)] {
            assert_eq!((p.a(w), p.b(w)), (a, b), "w = {w}");
        }
        // The rows grow, and rows 2 to 71 sample the formula at their own windows: a within
        // 3 %, b within 0.008. Rows 72 and 73 lie beyond High_Window, where the formula's b
        // stays at High_Decrease (0.1) and the table's goes on to 0.09.
        assert!(APPENDIX_B.windows(2).all(|r| r[0].0 < r[1].0 && r[0].1 >= r[1].1));
        let f = HighSpeedParams::default();
        for (i, &(w, b)) in APPENDIX_B.iter().enumerate().take(71).skip(1) {
            assert!((f.a(w as f64) / (i + 1) as f64 - 1.0).abs() < 0.03, "row {}: a({w}) = {}", i + 1, f.a(w as f64));
            assert!((f.b(w as f64) - b).abs() < 0.008, "row {}: b({w}) = {}", i + 1, f.b(w as f64));
        }
        // At 75 packets the table adds a third more than the formula and cuts less.
        assert!((f.a(75.0) - 1.49).abs() < 0.01 && (f.b(75.0) - 0.465).abs() < 0.001);
    }

    #[test]
    fn a_loss_takes_b_of_the_window_and_a_timeout_restarts_from_one() {
        let p = HighSpeedParams::default();
        let mut c = p.build_windowed("highspeed", 1_000.0, 2.0);
        c.on_congestion(&congestion(CongestionKind::Loss));
        assert!((c.cwnd_pkts() - 1_000.0 * (1.0 - p.b(1_000.0))).abs() < 1e-9);
        c.on_congestion(&congestion(CongestionKind::Timeout));
        assert_eq!(c.cwnd_pkts(), 1.0);
    }
}
