//! Congestion control: a small trait told about acknowledgements and congestion events, and
//! answering the congestion window (packets, f64) and optionally a pacing rate.
//!
//! The transport owns loss detection, recovery and RTT estimation; a controller only reacts.
//! Hooks take event structs so fields can be added without breaking implementors. Built-ins
//! are dispatched through the `Controller` enum on the hot path; `Controller::Custom` holds a
//! boxed trait object for controllers written elsewhere (e.g. in Python).

pub mod binomial;
pub mod cubic;
pub mod gaimd;
pub mod mr_aimd;
pub mod new_aimd;
pub mod reno;
pub mod resolve;
#[cfg(test)]
pub mod testing;

use crate::units::{Rate, SimDuration, SimTime};
pub use binomial::Binomial;
pub use cubic::Cubic;
pub use gaimd::Gaimd;
pub use mr_aimd::{MrAimd, MrAimdParams};
pub use new_aimd::{NewAimd, NewAimdReading};
pub use reno::Reno;
pub use resolve::{resolve, CONTROLLER_NAMES};

/// An acknowledgement arrived (it may or may not acknowledge new data).
#[derive(Clone, Copy, Debug)]
pub struct AckEvent {
    /// When the ACK arrived.
    pub now: SimTime,
    /// Segments newly acknowledged cumulatively by this ACK (0 for a duplicate).
    pub newly_acked_pkts: u64,
    /// RTT measured from this ACK, if it gave a valid sample (Karn's rule).
    pub rtt_sample: Option<SimDuration>,
    /// Smoothed RTT after this ACK (the initial RTO before any sample).
    pub srtt: SimDuration,
    /// Smallest RTT sample so far.
    pub min_rtt: Option<SimDuration>,
    /// The ACK carried an ECN-Echo.
    pub ece: bool,
    /// The sender is in fast recovery (RFC 6675 / RFC 6582); Reno does not grow then.
    pub in_recovery: bool,
    /// Segments in flight after this ACK (RFC 6675 `pipe`).
    pub pkts_in_flight: u64,
}

/// The kind of congestion signal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CongestionKind {
    /// Loss detected by duplicate ACKs / SACK: the start of fast recovery.
    Loss,
    /// The retransmission timer expired.
    Timeout,
    /// An ECN-Echo (at most once per window, RFC 3168 §6.1.2).
    Ecn,
}

/// A congestion signal.
#[derive(Clone, Copy, Debug)]
pub struct CongestionEvent {
    /// When it was detected.
    pub now: SimTime,
    /// Loss, timeout or ECN.
    pub kind: CongestionKind,
    /// Segments in flight when it was detected (RFC 5681 FlightSize).
    pub pkts_in_flight: u64,
    /// Smoothed RTT.
    pub srtt: SimDuration,
}

/// A congestion controller.
pub trait CongestionControl: Send {
    /// Short name, e.g. `"reno"`.
    fn name(&self) -> &'static str;
    /// An ACK arrived. Controllers that grow the window act when `newly_acked_pkts > 0`;
    /// ECN-driven ones may read `ece` on every ACK.
    fn on_ack(&mut self, ev: &AckEvent);
    /// A congestion signal arrived.
    fn on_congestion(&mut self, ev: &CongestionEvent);
    /// Fast recovery ended (the cumulative ACK passed the recovery point).
    fn on_recovery_exit(&mut self, _now: SimTime) {}
    /// Congestion window, packets.
    fn cwnd_pkts(&self) -> f64;
    /// Slow-start threshold, packets (∞ when unset).
    fn ssthresh_pkts(&self) -> f64;
    /// Pacing rate, if the controller paces.
    fn pacing_rate(&self) -> Option<Rate> {
        None
    }
    /// Publishes named state variables (α, a, W_max, ...) into the time series.
    fn state_vars(&self, _publish: &mut dyn FnMut(&'static str, f64)) {}
}

/// RFC 5681 eq. 2 slow start, shared by the window controllers here: while
/// `cwnd < ssthresh`, an ACK of N new segments adds min(N, 1). Returns whether it applied
/// (false: the controller is in congestion avoidance).
#[inline]
pub fn slow_start(cwnd: &mut f64, ssthresh: f64, newly_acked_pkts: u64) -> bool {
    if *cwnd < ssthresh {
        *cwnd += (newly_acked_pkts as f64).min(1.0);
        true
    } else {
        false
    }
}

/// The window cut every loss-based controller here makes once it has chosen its reduced
/// window `reduced_pkts`: ssthresh = max(reduced, 2) packets, then cwnd = ssthresh after a
/// loss or an ECN echo, and 1 packet after a timeout (RFC 5681 §3.1 eq. 4 and the timeout
/// rule, with the controller's own reduced window in place of FlightSize/2).
#[inline]
pub fn cut_window(cwnd: &mut f64, ssthresh: &mut f64, reduced_pkts: f64, kind: CongestionKind) {
    *ssthresh = reduced_pkts.max(2.0);
    *cwnd = match kind {
        CongestionKind::Loss | CongestionKind::Ecn => *ssthresh,
        CongestionKind::Timeout => 1.0,
    };
}

/// A resolved controller choice from the scenario.
#[derive(Clone, Debug, PartialEq)]
pub enum CcConfig {
    /// TCP Reno congestion avoidance (AIMD α = 1, β = 1/2).
    Reno,
    /// GAIMD(α, β).
    Gaimd {
        /// Additive increase, packets per RTT.
        alpha: f64,
        /// Multiplicative decrease factor.
        beta: f64,
    },
    /// New-AIMD.
    NewAimd {
        /// Which reading of the decrease rule.
        reading: NewAimdReading,
        /// Additive increase, packets per RTT.
        alpha: f64,
        /// Fraction kept of the carried window.
        beta: f64,
    },
    /// MR-AIMD.
    MrAimd(MrAimdParams),
    /// CUBIC (RFC 9438).
    Cubic,
    /// Binomial(k, l).
    Binomial {
        /// Label: "binomial", "iiad" or "sqrt".
        name: &'static str,
        /// Increase exponent.
        k: f64,
        /// Decrease exponent.
        l: f64,
        /// Increase gain.
        alpha: f64,
        /// Decrease gain.
        beta: f64,
    },
    /// A controller supplied at run time through the API (e.g. written in Python); until one
    /// is installed the flow runs Reno.
    External,
}

/// A flow's controller: built-ins by value (static dispatch), others boxed.
pub enum Controller {
    /// TCP Reno.
    Reno(Reno),
    /// GAIMD.
    Gaimd(Gaimd),
    /// New-AIMD.
    NewAimd(NewAimd),
    /// MR-AIMD.
    MrAimd(MrAimd),
    /// CUBIC.
    Cubic(Cubic),
    /// Binomial.
    Binomial(Binomial),
    /// Any other implementation of the trait.
    Custom(Box<dyn CongestionControl>),
}

macro_rules! dispatch {
    ($self:expr, $c:ident => $e:expr) => {
        match $self {
            Controller::Reno($c) => $e,
            Controller::Gaimd($c) => $e,
            Controller::NewAimd($c) => $e,
            Controller::MrAimd($c) => $e,
            Controller::Cubic($c) => $e,
            Controller::Binomial($c) => $e,
            Controller::Custom($c) => $e,
        }
    };
}

impl Controller {
    /// A new controller with the flow's initial window and threshold.
    pub fn new(cfg: &CcConfig, w0: f64, ssthresh0: f64) -> Self {
        match cfg {
            CcConfig::Reno | CcConfig::External => Controller::Reno(Reno::new(w0, ssthresh0)),
            CcConfig::Gaimd { alpha, beta } => Controller::Gaimd(Gaimd::new(*alpha, *beta, w0, ssthresh0)),
            CcConfig::NewAimd { reading, alpha, beta } => Controller::NewAimd(NewAimd::new(*reading, *alpha, *beta, w0, ssthresh0)),
            CcConfig::MrAimd(p) => Controller::MrAimd(MrAimd::new(p, w0, ssthresh0)),
            CcConfig::Cubic => Controller::Cubic(Cubic::new(w0, ssthresh0)),
            CcConfig::Binomial { name, k, l, alpha, beta } => Controller::Binomial(Binomial::new(name, *k, *l, *alpha, *beta, w0, ssthresh0)),
        }
    }
}

impl CongestionControl for Controller {
    fn name(&self) -> &'static str {
        dispatch!(self, c => c.name())
    }
    #[inline]
    fn on_ack(&mut self, ev: &AckEvent) {
        dispatch!(self, c => c.on_ack(ev))
    }
    fn on_congestion(&mut self, ev: &CongestionEvent) {
        dispatch!(self, c => c.on_congestion(ev))
    }
    fn on_recovery_exit(&mut self, now: SimTime) {
        dispatch!(self, c => c.on_recovery_exit(now))
    }
    #[inline]
    fn cwnd_pkts(&self) -> f64 {
        dispatch!(self, c => c.cwnd_pkts())
    }
    fn ssthresh_pkts(&self) -> f64 {
        dispatch!(self, c => c.ssthresh_pkts())
    }
    fn pacing_rate(&self) -> Option<Rate> {
        dispatch!(self, c => c.pacing_rate())
    }
    fn state_vars(&self, publish: &mut dyn FnMut(&'static str, f64)) {
        dispatch!(self, c => c.state_vars(publish))
    }
}
