//! TCP Westwood+: L. A. Grieco and S. Mascolo, "Performance evaluation and comparison of
//! Westwood+, New Reno, and Vegas TCP congestion control", ACM CCR 34(2), 2004 (and S.
//! Mascolo et al., "TCP Westwood: Bandwidth estimation for enhanced transport over wireless
//! links", MobiCom 2001).
//!
//! The sender estimates the bandwidth it gets from the ACK stream and, at a congestion
//! event, sets the window to the pipe that bandwidth fills at the path's RTT rather than to
//! half of what it was (§2):
//! - each RTT, a sample b_k = d_k / Δ_k: the data acknowledged over the RTT (duplicate ACKs
//!   count one segment each, taken back when the cumulative ACK covers them), over its
//!   length; low-pass filtered, b̂_k = α·b̂_(k−1) + (1 − α)·b_k with α = 0.9 (Westwood+: once
//!   a RTT, so ACK compression does not inflate it);
//! - after a loss: ssthresh = max(b̂ · RTT_min, 2) packets, cwnd = min(cwnd, ssthresh);
//!   after a timeout the same ssthresh and cwnd = 1; otherwise Reno.
//!
//! So a random (not congestive) loss leaves the window near the bandwidth-delay product, and
//! a congestive one drains the queue without emptying the link. Before the first estimate a
//! loss halves (Reno).
//!
//! Parity: ns-3's `TcpWestwoodPlus` filters with Tustin's approximation, b̂_k = α·b̂_(k−1) +
//! (1 − α)·(b_k + b_(k−1))/2 (`filter = "tustin"`, the `ns3` profile). Linux's
//! `tcp_westwood.c` runs two 7/8 filters in cascade over windows of at least 50 ms, and sets
//! the window to b̂ · RTT_min when the recovery ends (`filter = "linux"`, the Linux profiles;
//! the cut here is at the event).

use super::congestion_control::{AckEvent, CongestionControl, CongestionEvent, CongestionKind, Window};
use super::params::{Checked, ControllerParams, Names};
use crate::units::SimTime;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The low-pass filter of the bandwidth samples.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum BandwidthFilter {
    /// b̂ = 0.9·b̂ + 0.1·b, once a RTT (the paper).
    Ewma,
    /// b̂ = 0.9·b̂ + 0.1·(b + b_previous)/2 (ns-3).
    Tustin,
    /// Two 7/8 filters in cascade, over windows of at least 50 ms (Linux).
    Linux,
}

/// Westwood+'s parameters (`cc = { name = "westwood" }`; the paper's by default).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct WestwoodParams {
    /// The bandwidth filter: `"ewma"` (the paper), `"tustin"` (ns-3) or `"linux"`.
    pub filter: BandwidthFilter,
}

impl Default for WestwoodParams {
    fn default() -> Self {
        WestwoodParams { filter: BandwidthFilter::Ewma }
    }
}

impl ControllerParams for WestwoodParams {
    type Controller = Westwood;
    const NAMES: Names<Self> = &[("westwood", Self::default)];
    fn check(&self, _name: &'static str) -> Checked {
        Ok(())
    }
    fn build(&self, _name: &'static str) -> Westwood {
        Westwood {
            filter: self.filter,
            window_start: None,
            acked_pkts: 0.0,
            accounted_pkts: 0.0,
            bwe_pps: 0.0,
            stage_pps: 0.0,
            last_sample_pps: 0.0,
            min_rtt_s: None,
        }
    }
}

/// Westwood+'s state.
#[derive(Clone, Debug)]
pub struct Westwood {
    filter: BandwidthFilter,
    /// Start of the current measurement window.
    window_start: Option<SimTime>,
    /// Packets acknowledged in the window.
    acked_pkts: f64,
    /// Duplicate ACKs counted and not yet covered by a cumulative ACK.
    accounted_pkts: f64,
    /// The bandwidth estimate, packets/s (0 before the first sample).
    bwe_pps: f64,
    /// Linux's first filter stage, or Tustin's previous sample.
    stage_pps: f64,
    last_sample_pps: f64,
    min_rtt_s: Option<f64>,
}

impl Westwood {
    /// The bandwidth estimate, packets per second.
    pub fn bwe_pps(&self) -> f64 {
        self.bwe_pps
    }

    /// Packets delivered by `ev` (Linux's `westwood_acked_count`).
    fn delivered(&mut self, ev: &AckEvent) -> f64 {
        let n = ev.newly_acked_pkts as f64;
        if n == 0.0 {
            self.accounted_pkts += 1.0;
            return 1.0;
        }
        if n > 1.0 {
            if self.accounted_pkts >= n {
                self.accounted_pkts -= n;
                return 1.0;
            }
            let d = n - self.accounted_pkts;
            self.accounted_pkts = 0.0;
            return d;
        }
        n
    }

    fn filter(&mut self, sample_pps: f64) {
        let first = self.bwe_pps == 0.0;
        self.bwe_pps = match self.filter {
            BandwidthFilter::Ewma if first => sample_pps,
            BandwidthFilter::Ewma => 0.9 * self.bwe_pps + 0.1 * sample_pps,
            BandwidthFilter::Tustin => {
                let b = 0.9 * self.bwe_pps + 0.1 * (sample_pps + self.last_sample_pps) / 2.0;
                self.last_sample_pps = sample_pps;
                b
            }
            BandwidthFilter::Linux if first => {
                self.stage_pps = sample_pps;
                sample_pps
            }
            BandwidthFilter::Linux => {
                self.stage_pps = (7.0 * self.stage_pps + sample_pps) / 8.0;
                (7.0 * self.bwe_pps + self.stage_pps) / 8.0
            }
        };
    }

    fn measure(&mut self, ev: &AckEvent) {
        if let Some(m) = ev.min_rtt {
            self.min_rtt_s = Some(m.as_secs_f64());
        }
        let start = *self.window_start.get_or_insert(ev.now);
        let elapsed_s = ev.now.saturating_since(start).as_secs_f64();
        let mut window_s = ev.srtt.as_secs_f64();
        if self.filter == BandwidthFilter::Linux {
            window_s = window_s.max(0.050);
        }
        if elapsed_s > window_s && elapsed_s > 0.0 {
            let sample = self.acked_pkts / elapsed_s;
            self.filter(sample);
            (self.acked_pkts, self.window_start) = (0.0, Some(ev.now));
        }
        self.acked_pkts += self.delivered(ev);
    }
}

impl CongestionControl for Westwood {
    fn name(&self) -> &'static str {
        "westwood"
    }

    fn on_ack(&mut self, _w: &mut Window, ev: &AckEvent) {
        self.measure(ev);
    }

    fn cong_avoid(&mut self, w: &mut Window, _ev: &AckEvent, _acked_pkts: u64) {
        // Reno's increase: 1/cwnd an ACK (a segment under `cwnd_growth = "per_segment"`).
        w.aimd_step(1.0);
    }

    fn ssthresh(&mut self, w: &Window, _ev: &CongestionEvent) -> f64 {
        // §2: ssthresh = BWE · RTT_min (Reno's half before the first estimate).
        match self.min_rtt_s {
            Some(rtt) if self.bwe_pps > 0.0 => self.bwe_pps * rtt,
            _ => w.cwnd_pkts / 2.0,
        }
    }

    fn on_congestion(&mut self, w: &mut Window, ev: &CongestionEvent) {
        // The window falls to the new threshold only if above it (Linux's `tcp_westwood`
        // CA_EVENT_COMPLETE_CWR / CA_EVENT_LOSS).
        w.ssthresh_pkts = self.ssthresh(w, ev).max(2.0);
        w.cwnd_pkts = match ev.kind {
            CongestionKind::Loss | CongestionKind::Ecn => w.cwnd_pkts.min(w.ssthresh_pkts),
            CongestionKind::Timeout => 1.0,
        };
    }

    fn state_vars(&self, _w: &Window, publish: &mut dyn FnMut(&'static str, f64)) {
        publish("bwe_pps", self.bwe_pps);
        publish("min_rtt_ms", self.min_rtt_s.map_or(f64::NAN, |m| m * 1e3));
    }
}

#[cfg(test)]
mod tests {
    use crate::cc::testing::BuildWindowed;
    use crate::transport::congestion_window::CongestionWindow;
    use super::super::testing::{congestion, Pipe};
    use super::*;
    use crate::units::SimDuration;

    /// A Westwood+ sender held at a window of `w` packets: the estimate after `rounds` round
    /// trips of `rtt_ms`, the first at the path's RTT of 100 ms.
    fn estimate(filter: BandwidthFilter, w: f64, rtt_ms: u64, rounds: u32) -> CongestionWindow<Westwood> {
        let mut c = WestwoodParams { filter }.build_windowed("westwood", w, 1e9);
        let mut pipe = Pipe::new(w as u64);
        pipe.round_with(SimDuration::from_millis(100), |ev| {
            c.measure(ev);
            w
        });
        for _ in 0..rounds {
            pipe.round_with(SimDuration::from_millis(rtt_ms), |ev| {
                let mut ev = *ev;
                ev.min_rtt = Some(SimDuration::from_millis(100));
                c.measure(&ev);
                w
            });
        }
        c
    }

    #[test]
    fn the_estimate_converges_to_the_delivery_rate_with_every_filter() {
        // 75 packets a 150 ms round: 500 packets/s.
        for f in [BandwidthFilter::Ewma, BandwidthFilter::Tustin, BandwidthFilter::Linux] {
            let c = estimate(f, 75.0, 150, 80);
            assert!((c.bwe_pps() / 500.0 - 1.0).abs() < 0.03, "{f:?}: {}", c.bwe_pps());
        }
    }

    #[test]
    fn a_loss_sets_the_window_to_the_pipe_not_to_half() {
        // 75 packets in flight at 150 ms over a 100 ms path: 50 in the pipe, 25 queued.
        let mut c = estimate(BandwidthFilter::Ewma, 75.0, 150, 80);
        c.set_window(75.0, c.ssthresh_pkts());
        c.on_congestion(&congestion(CongestionKind::Loss));
        assert!((c.cwnd_pkts() - 50.0).abs() < 1.5, "{}", c.cwnd_pkts());
        // A random loss with an empty queue keeps the window (Reno would halve it).
        let mut c = estimate(BandwidthFilter::Ewma, 50.0, 100, 80);
        c.set_window(50.0, c.ssthresh_pkts());
        c.on_congestion(&congestion(CongestionKind::Loss));
        assert!(c.cwnd_pkts() > 48.0, "{}", c.cwnd_pkts());
        c.on_congestion(&congestion(CongestionKind::Timeout));
        assert_eq!(c.cwnd_pkts(), 1.0);
        assert!(c.ssthresh_pkts() > 48.0);
    }

    #[test]
    fn duplicate_acks_count_as_delivered_and_are_taken_back() {
        let mut c = WestwoodParams::default().build_windowed("westwood", 10.0, 1e9);
        let mut ev = super::super::testing::ack(0);
        assert_eq!((c.delivered(&ev), c.delivered(&ev), c.delivered(&ev)), (1.0, 1.0, 1.0));
        ev.newly_acked_pkts = 5;
        assert_eq!(c.delivered(&ev), 2.0);
    }
}
