//! Congestion control: a small trait told about acknowledgements and congestion events, and
//! answering the congestion window (packets, f64) and optionally a pacing rate.
//!
//! The transport owns loss detection, recovery and RTT estimation; a controller only reacts.
//! Hooks take event structs so fields can be added without breaking implementors. Built-ins
//! are dispatched through the `Controller` enum on the hot path; `Controller::Custom` holds a
//! boxed trait object for controllers written elsewhere (e.g. in Python).

pub mod reno;

use crate::scenario::schema::CcSpec;
use crate::scenario::ScenarioError;
use crate::units::{Rate, SimDuration, SimTime};
pub use reno::Reno;

/// An acknowledgement that acknowledged new data (cumulatively or by SACK).
#[derive(Clone, Copy, Debug)]
pub struct AckEvent {
    /// When the ACK arrived.
    pub now: SimTime,
    /// Segments newly acknowledged by this ACK (cumulative + SACK).
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
    /// An ECN-Echo (at most once per RTT, RFC 3168 §6.1.2).
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
    /// An ACK acknowledged new data.
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
    /// Publishes named state variables (α, W_max, ...) into the time series.
    fn state_vars(&self, _publish: &mut dyn FnMut(&'static str, f64)) {}
}

/// A resolved controller choice from the scenario.
#[derive(Clone, Debug, PartialEq)]
pub enum CcConfig {
    /// TCP Reno congestion avoidance (AIMD α = 1, β = 1/2).
    Reno,
}

/// Controller names a scenario may use.
pub const CONTROLLER_NAMES: &[&str] = &["reno"];

/// Resolves a scenario's `cc` entry, with an error listing the valid names.
pub fn resolve(spec: &CcSpec, path: &str) -> Result<CcConfig, ScenarioError> {
    let name = spec.name();
    match name.to_ascii_lowercase().as_str() {
        "reno" | "newreno" | "aimd" => Ok(CcConfig::Reno),
        _ => {
            let p = match spec {
                CcSpec::Name(_) => path.to_string(),
                CcSpec::Table(_) => format!("{path}.name"),
            };
            Err(ScenarioError::new(p, format!("{name:?} is not a known controller; expected one of {CONTROLLER_NAMES:?}")))
        }
    }
}

/// A flow's controller: built-ins by value (static dispatch), others boxed.
pub enum Controller {
    /// TCP Reno.
    Reno(Reno),
    /// Any other implementation of the trait.
    Custom(Box<dyn CongestionControl>),
}

impl Controller {
    /// A new controller with the flow's initial window and threshold.
    pub fn new(cfg: &CcConfig, initial_cwnd_pkts: f64, initial_ssthresh_pkts: f64) -> Self {
        match cfg {
            CcConfig::Reno => Controller::Reno(Reno::new(initial_cwnd_pkts, initial_ssthresh_pkts)),
        }
    }

    #[inline]
    fn inner(&self) -> &dyn CongestionControl {
        match self {
            Controller::Reno(c) => c,
            Controller::Custom(c) => c.as_ref(),
        }
    }

    #[inline]
    fn inner_mut(&mut self) -> &mut dyn CongestionControl {
        match self {
            Controller::Reno(c) => c,
            Controller::Custom(c) => c.as_mut(),
        }
    }
}

impl CongestionControl for Controller {
    fn name(&self) -> &'static str {
        self.inner().name()
    }
    #[inline]
    fn on_ack(&mut self, ev: &AckEvent) {
        match self {
            Controller::Reno(c) => c.on_ack(ev),
            Controller::Custom(c) => c.on_ack(ev),
        }
    }
    fn on_congestion(&mut self, ev: &CongestionEvent) {
        self.inner_mut().on_congestion(ev)
    }
    fn on_recovery_exit(&mut self, now: SimTime) {
        self.inner_mut().on_recovery_exit(now)
    }
    #[inline]
    fn cwnd_pkts(&self) -> f64 {
        match self {
            Controller::Reno(c) => c.cwnd_pkts(),
            Controller::Custom(c) => c.cwnd_pkts(),
        }
    }
    fn ssthresh_pkts(&self) -> f64 {
        self.inner().ssthresh_pkts()
    }
    fn pacing_rate(&self) -> Option<Rate> {
        self.inner().pacing_rate()
    }
    fn state_vars(&self, publish: &mut dyn FnMut(&'static str, f64)) {
        self.inner().state_vars(publish)
    }
}
