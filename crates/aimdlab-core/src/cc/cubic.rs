//! CUBIC (RFC 9438), in packets.
//!
//! - Window curve (eq. 1): `W_cubic(t) = C·(t − K)³ + W_max`, with (eq. 2)
//!   `K = ∛((W_max − cwnd_epoch)/C)`, C = 0.4, measured from the start of the epoch.
//! - Congestion avoidance (§4.4–4.5): target = `W_cubic(t + RTT)` clamped to
//!   [cwnd, 1.5·cwnd]; per ACK `cwnd += (target − cwnd)/cwnd`.
//! - Reno-friendly region (§4.3): `W_est` grows by `α_cubic·acked/cwnd` with
//!   `α_cubic = 3(1 − β)/(1 + β)`; when `W_cubic(t) < W_est`, cwnd follows `W_est`.
//! - Congestion (§4.6, 4.7): `W_max = cwnd` (fast convergence: `cwnd·(1 + β)/2` when below
//!   the previous W_max), `ssthresh = cwnd = max(β·cwnd, 2)`, β = 0.7; a timeout sets cwnd
//!   to 1 and starts a new epoch when congestion avoidance resumes (§4.8).
//! - Parameters: `beta` (β_cubic, default 0.7; Linux's is 717/1024 ≈ 0.7002),
//!   `fast_convergence` (§4.7, default on as in Linux and ns-3) and `hystart` (Linux's
//!   hybrid slow start, `hystart.rs`; default off — RFC 9438 leaves slow start to RFC 5681 —
//!   and on in Linux and ns-3).

use super::congestion_control::{AckEvent, CongestionControl, CongestionEvent, CongestionKind, Window};
use super::hystart::HyStart;
use super::params::check_fraction;
use super::params::{Names, Checked, ControllerParams};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use crate::units::{SimDuration, SimTime};

/// C of RFC 9438 eq. 1, packets/s³.
pub const C: f64 = 0.4;
/// β_cubic of RFC 9438 §4.6 (the default of `beta`).
pub const BETA: f64 = 0.7;

/// CUBIC's W_cubic(t) (RFC 9438 eq. 1), packets, `t` in seconds from the epoch start.
pub fn w_cubic(t: f64, k: f64, w_max: f64) -> f64 {
    C * (t - k).powi(3) + w_max
}

/// CUBIC's K (RFC 9438 eq. 2), seconds.
pub fn k_of(w_max: f64, cwnd_epoch: f64) -> f64 {
    ((w_max - cwnd_epoch).max(0.0) / C).cbrt()
}

/// CUBIC.
#[derive(Clone, Debug)]
pub struct Cubic {
    w_max: f64,
    k: f64,
    epoch_start: Option<SimTime>,
    w_est: f64,
    beta: f64,
    fast_convergence: bool,
    /// HyStart's state, when it runs.
    hystart: Option<HyStart>,
    /// When the last reduction started an epoch (HyStart ignores RTT samples for 1 s after).
    reduced_at: Option<SimTime>,
}

impl Cubic {
    /// CUBIC with RFC 9438's defaults.
    pub fn rfc9438() -> Self {
        CubicParams::default().build("cubic")
    }
}

/// CUBIC's parameters (C = 0.4 is RFC 9438's).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct CubicParams {
    /// β_cubic, the window kept at a loss, in (0, 1). Default 0.7 (RFC 9438 §4.6).
    pub beta: f64,
    /// Fast convergence (RFC 9438 §4.7): a loss below the previous W_max remembers
    /// W_max·(1 + β)/2. Default true.
    pub fast_convergence: bool,
    /// HyStart (Linux's hybrid slow start: leave slow start on an ACK train or an RTT rise
    /// before the first loss). Default false.
    pub hystart: bool,
}

impl Default for CubicParams {
    fn default() -> Self {
        CubicParams { beta: BETA, fast_convergence: true, hystart: false }
    }
}

impl ControllerParams for CubicParams {
    type Controller = Cubic;
    const NAMES: Names<Self> = &[("cubic", Self::default)];
    fn check(&self, _name: &'static str) -> Checked {
        check_fraction("beta", self.beta, "the window kept at a loss")
    }
    fn build(&self, _name: &'static str) -> Cubic {
        Cubic {
            w_max: 0.0,
            k: 0.0,
            epoch_start: None,
            w_est: 0.0,
            beta: self.beta,
            fast_convergence: self.fast_convergence,
            hystart: self.hystart.then(HyStart::default),
            reduced_at: None,
        }
    }
}

impl CongestionControl for Cubic {
    fn name(&self) -> &'static str {
        "cubic"
    }

    fn init(&mut self, w: &mut Window) {
        self.w_est = w.cwnd_pkts;
    }

    fn on_ack(&mut self, w: &mut Window, ev: &AckEvent) {
        if let Some(h) = self.hystart.as_mut() {
            // Linux runs HyStart from `pkts_acked`, on every ACK with an RTT sample.
            let settling = self.reduced_at.is_some_and(|t| ev.now.saturating_since(t) < SimDuration::from_secs(1));
            if h.on_ack(ev, w.cwnd_pkts, w.in_slow_start(), settling).is_some() {
                w.ssthresh_pkts = w.cwnd_pkts;
            }
        }
    }

    fn cong_avoid(&mut self, w: &mut Window, ev: &AckEvent, acked_pkts: u64) {
        if w.slow_start() {
            return;
        }
        let start = *self.epoch_start.get_or_insert_with(|| {
            // A new epoch (after slow start or a timeout): W_max is where we were.
            if self.w_max < w.cwnd_pkts {
                self.w_max = w.cwnd_pkts;
            }
            self.k = k_of(self.w_max, w.cwnd_pkts);
            self.w_est = w.cwnd_pkts;
            ev.now
        });
        let t = ev.now.saturating_since(start).as_secs_f64();
        let rtt = ev.srtt.as_secs_f64();
        let alpha = 3.0 * (1.0 - self.beta) / (1.0 + self.beta);
        self.w_est += alpha * acked_pkts as f64 / w.cwnd_pkts;
        let cubic_now = w_cubic(t, self.k, self.w_max);
        if cubic_now < self.w_est {
            w.cwnd_pkts = self.w_est;
        } else {
            let target = w_cubic(t + rtt, self.k, self.w_max).clamp(w.cwnd_pkts, 1.5 * w.cwnd_pkts);
            w.cwnd_pkts += (target - w.cwnd_pkts) / w.cwnd_pkts;
        }
    }

    fn ssthresh(&mut self, w: &Window, _ev: &CongestionEvent) -> f64 {
        self.w_max = if self.fast_convergence && w.cwnd_pkts < self.w_max { w.cwnd_pkts * (1.0 + self.beta) / 2.0 } else { w.cwnd_pkts };
        w.cwnd_pkts * self.beta
    }

    fn on_congestion(&mut self, w: &mut Window, ev: &CongestionEvent) {
        let ssthresh = self.ssthresh(w, ev);
        w.cut(ssthresh, ev.kind);
        match ev.kind {
            CongestionKind::Loss | CongestionKind::Ecn => {
                self.k = k_of(self.w_max, w.cwnd_pkts);
                self.w_est = w.cwnd_pkts;
                self.epoch_start = Some(ev.now);
                self.reduced_at = Some(ev.now);
            }
            CongestionKind::Timeout => {
                self.epoch_start = None;
                self.reduced_at = None;
                if let Some(h) = self.hystart.as_mut() {
                    h.reset();
                }
            }
        }
    }

    fn on_window_set(&mut self, w: &Window) {
        // After a loss or ECN cut (a running epoch), the curve starts from the new window.
        if self.epoch_start.is_some() {
            self.k = k_of(self.w_max, w.cwnd_pkts);
            self.w_est = w.cwnd_pkts;
        }
    }

    fn state_vars(&self, _w: &Window, publish: &mut dyn FnMut(&'static str, f64)) {
        publish("w_max_pkts", self.w_max);
        publish("k_s", self.k);
    }
}

#[cfg(test)]
mod tests {
    use crate::cc::testing::windowed;
    use super::super::testing::{ack_at, congestion};
    use super::*;

    #[test]
    fn k_and_the_curve_match_rfc9438() {
        // W_max = 100, cwnd_epoch = 70: K = ∛(30/0.4) = ∛75 ≈ 4.217 s; W(K) = W_max.
        let k = k_of(100.0, 70.0);
        assert!((k - 75f64.cbrt()).abs() < 1e-12);
        assert!((w_cubic(k, k, 100.0) - 100.0).abs() < 1e-9);
        assert!((w_cubic(0.0, k, 100.0) - 70.0).abs() < 1e-9);
        assert!((w_cubic(k + 1.0, k, 100.0) - 100.4).abs() < 1e-9);
    }

    #[test]
    fn after_a_loss_the_window_climbs_back_to_w_max_in_k_seconds() {
        let mut c = windowed(Cubic::rfc9438(), 100.0, 10.0);
        c.on_congestion(&congestion(CongestionKind::Loss));
        assert!((c.cwnd_pkts() - 70.0).abs() < 1e-9);
        // ACK a window every 100 ms RTT for K seconds.
        let k = k_of(100.0, 70.0);
        let mut t = 0.0;
        while t < k {
            let w = c.cwnd_pkts().floor() as u64;
            for _ in 0..w {
                c.on_ack(&ack_at(1, SimTime::ZERO + SimDuration::from_secs_f64(t), false));
            }
            t += 0.1;
        }
        assert!((c.cwnd_pkts() - 100.0).abs() < 3.0, "{}", c.cwnd_pkts());
    }
}
