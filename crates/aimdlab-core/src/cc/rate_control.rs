//! The rate-control interface, beside the window one (`congestion_control`): a controller
//! that sets an allowed sending rate from the receiver's feedback — its receive rate, its
//! loss-event rate and an RTT sample — and halves it when feedback stops coming. TFRC
//! (RFC 5348, DCCP's CCID-3) is the first; a transport paces its packets at the rate.

use crate::units::{SimDuration, SimTime};

/// One feedback report from the receiver, as the sender reads it.
#[derive(Clone, Copy, Debug)]
pub struct RateFeedback {
    /// When it arrived.
    pub now: SimTime,
    /// The RTT sample it gives (RFC 5348 §4.3 step 1: now − echoed timestamp − elapsed time).
    pub rtt_sample: SimDuration,
    /// The rate the receiver measured since its previous report, bytes/s (X_recv).
    pub x_recv_bytes_per_s: f64,
    /// The receiver's loss-event rate p (0: no loss yet).
    pub p: f64,
}

/// A rate-based congestion controller.
pub trait RateControl: Send {
    /// Short name, e.g. `"tfrc"`.
    fn name(&self) -> &'static str;
    /// Feedback arrived.
    fn on_feedback(&mut self, fb: &RateFeedback);
    /// No feedback arrived for `nofeedback_timeout()` (`idle`: the sender had nothing to send
    /// all that while).
    fn on_no_feedback(&mut self, now: SimTime, idle: bool);
    /// The rate the sender may send at now, bytes/s.
    fn rate_bytes_per_s(&self) -> f64;
    /// How long without feedback before `on_no_feedback`.
    fn nofeedback_timeout(&self) -> SimDuration;
    /// The smoothed RTT, if measured.
    fn rtt(&self) -> Option<SimDuration>;
    /// Publishes named state variables into the time series.
    fn state_vars(&self, _publish: &mut dyn FnMut(&'static str, f64)) {}
}
