//! DCTCP: S. Bensley et al., "Data Center TCP (DCTCP): TCP Congestion Control for Data
//! Centers", RFC 8257 (2017); M. Alizadeh et al., "Data Center TCP (DCTCP)", SIGCOMM 2010.
//!
//! The sender reacts to the extent of congestion, not its presence (RFC 8257 §3.3):
//! - it counts the data acknowledged and the data acknowledged with ECN-Echo; once a window
//!   of data (when the cumulative ACK passes the `snd_nxt` of the window's start), with F
//!   the marked fraction of it, α ← (1 − g)·α + g·F, g = 1/16, α starting at 1;
//! - at an ECN-Echo, at most once a window (the transport's CWR), cwnd ← cwnd·(1 − α/2): a
//!   window marked throughout halves as Reno, one mark in a hundred takes 1/200;
//! - a loss and a timeout are Reno's (§3.5, halving), growth is Reno's.
//!
//! It needs the network to mark at a step (`queue = { kind = "step", k = ... }`), ECN on,
//! and the receiver to echo each segment's mark exactly (`tcp.ecn_echo = "dctcp"`, §3.2):
//! choosing DCTCP turns both on for its flows, as Linux's `TCP_CONG_NEEDS_ECN` does.
//! Linux's `tcp_dctcp.c` and ns-3's `TcpDctcp` agree with the RFC (g = 1/16, α₀ = 1); Linux
//! counts delivered segments (cumulative and SACKed) as here, and updates α before the
//! sender acts on the ACK's ECN-Echo (`in_ack_event`, here `on_ack_arrival`).

use super::congestion_control::{AckArrival, AckEvent, CongestionControl, CongestionEvent, CongestionKind, Window};
use super::params::{check_fraction, Checked, ControllerParams, Names, ParamError};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// DCTCP's parameters (`cc = { name = "dctcp" }`; RFC 8257's values by default).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct DctcpParams {
    /// g, the weight of the newest window's marked fraction in α, in (0, 1). Default 1/16.
    pub g: f64,
    /// α at the start of the connection, in [0, 1]. Default 1.
    pub alpha_init: f64,
}

impl Default for DctcpParams {
    fn default() -> Self {
        DctcpParams { g: 1.0 / 16.0, alpha_init: 1.0 }
    }
}

impl ControllerParams for DctcpParams {
    type Controller = Dctcp;
    const NAMES: Names<Self> = &[("dctcp", Self::default)];
    const NEEDS_ACCURATE_ECN: bool = true;
    fn check(&self, _name: &'static str) -> Checked {
        check_fraction("g", self.g, "the weight of the newest window in α")?;
        if !(0.0..=1.0).contains(&self.alpha_init) {
            return Err(ParamError { field: "alpha_init", message: format!("{} is outside [0, 1]; expected the initial estimate of the marked fraction", self.alpha_init) });
        }
        Ok(())
    }
    fn build(&self, _name: &'static str) -> Dctcp {
        Dctcp { g: self.g, alpha: self.alpha_init, window_end: 0, delivered_pkts: 0, marked_pkts: 0 }
    }
}

/// DCTCP's state.
#[derive(Clone, Debug)]
pub struct Dctcp {
    g: f64,
    /// The estimate of the fraction of data marked.
    alpha: f64,
    /// The window ends when the cumulative ACK passes this segment.
    window_end: u64,
    /// Segments delivered in this window, and those among them marked.
    delivered_pkts: u64,
    marked_pkts: u64,
}

impl Dctcp {
    /// α, the estimate of the fraction of data marked.
    pub fn alpha(&self) -> f64 {
        self.alpha
    }
}

impl CongestionControl for Dctcp {
    fn name(&self) -> &'static str {
        "dctcp"
    }

    fn on_ack_arrival(&mut self, ev: &AckArrival) {
        self.delivered_pkts += ev.delivered_pkts;
        if ev.ece {
            self.marked_pkts += ev.delivered_pkts;
        }
        if ev.snd_una > self.window_end {
            // §3.3: α ← (1 − g)·α + g·F once a window of data.
            let f = if self.delivered_pkts == 0 { 0.0 } else { self.marked_pkts as f64 / self.delivered_pkts as f64 };
            self.alpha = (1.0 - self.g) * self.alpha + self.g * f;
            (self.window_end, self.delivered_pkts, self.marked_pkts) = (ev.snd_nxt, 0, 0);
        }
    }

    fn cong_avoid(&mut self, w: &mut Window, _ev: &AckEvent, _acked_pkts: u64) {
                // Reno's step: an ACK, or a segment under `cwnd_growth = "per_segment"`.
        w.aimd_step(1.0);
    }

    fn ssthresh(&mut self, w: &Window, ev: &CongestionEvent) -> f64 {
        // §3.3: cwnd·(1 − α/2) at an echo; §3.5: a loss halves.
        let keep = if ev.kind == CongestionKind::Ecn { 1.0 - self.alpha / 2.0 } else { 0.5 };
        w.cwnd_pkts * keep
    }

    fn state_vars(&self, _w: &Window, publish: &mut dyn FnMut(&'static str, f64)) {
        publish("alpha", self.alpha);
    }
}

#[cfg(test)]
mod tests {
    use crate::cc::testing::BuildWindowed;
    use super::super::testing::congestion;
    use super::*;
    use crate::units::SimTime;

    /// A stream of `acks` ACKs of one segment each, 100 segments in flight, a fraction `f`
    /// of each hundred marked; α after each ACK.
    fn stream(c: &mut Dctcp, acks: u64, f: f64) -> Vec<f64> {
        let marked = (100.0 * f).round() as u64;
        (1..=acks)
            .map(|i| {
                let ev = AckArrival { now: SimTime::ZERO, delivered_pkts: 1, ece: i % 100 < marked, snd_una: i, snd_nxt: i + 100 };
                c.on_ack_arrival(&ev);
                c.alpha()
            })
            .collect()
    }

    #[test]
    fn alpha_converges_to_the_marked_fraction() {
        for f in [0.0, 0.05, 0.3, 1.0] {
            let mut c = DctcpParams::default().build_windowed("dctcp", 100.0, 2.0);
            stream(&mut c, 20_000, f);
            assert!((c.alpha() - f).abs() < 0.01, "F = {f}: α = {}", c.alpha());
        }
    }

    #[test]
    fn alpha_moves_once_a_window_by_g() {
        // From α = 0 with every segment marked: α = 1 − (15/16)^k after the k-th window.
        let mut c = DctcpParams { alpha_init: 0.0, ..Default::default() }.build_windowed("dctcp", 100.0, 2.0);
        let trace = stream(&mut c, 1_000, 1.0);
        let mut values: Vec<f64> = trace.clone();
        values.dedup();
        assert_eq!(values.len(), 10, "one update a window of 100 ACKs: {values:?}");
        for (k, a) in values.iter().enumerate() {
            assert!((a - (1.0 - (15.0f64 / 16.0).powi(k as i32 + 1))).abs() < 1e-12, "{values:?}");
        }
    }

    #[test]
    fn an_echo_cuts_by_alpha_over_two_and_a_loss_halves() {
        let mut c = DctcpParams::default().build_windowed("dctcp", 100.0, 2.0);
        stream(&mut c, 30_000, 0.1);
        let a = c.alpha();
        c.on_congestion(&congestion(CongestionKind::Ecn));
        assert!((c.cwnd_pkts() - 100.0 * (1.0 - a / 2.0)).abs() < 1e-9 && c.cwnd_pkts() > 94.0, "{}", c.cwnd_pkts());
        c.on_congestion(&congestion(CongestionKind::Loss));
        assert!((c.cwnd_pkts() - 50.0 * (1.0 - a / 2.0)).abs() < 1e-9);
    }
}
