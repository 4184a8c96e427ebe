//! A delivery-rate sample (draft-cheng-iccrg-delivery-rate-estimation §3.3) as the transport
//! hands it to a controller that asks for one (`CongestionControl::wants_rate_samples`, BBR):
//! the controller's vocabulary, measured by `transport::tcp::delivery_rate`.

use crate::units::SimDuration;

/// One ACK's delivery-rate sample (§3.3) and what the ACK delivered.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RateSample {
    /// Segments delivered over the sample's interval per second.
    pub delivery_rate_pps: f64,
    /// Segments delivered over the interval.
    pub delivered_pkts: u64,
    /// The sample's interval: max(send interval, ACK interval).
    pub interval: SimDuration,
    /// `C.delivered` when the sampled segment was sent (round counting).
    pub prior_delivered: u64,
    /// `C.delivered` after this ACK: segments delivered over the connection.
    pub delivered_total: u64,
    /// The sampled segment was sent while the application had nothing more to send.
    pub is_app_limited: bool,
    /// Segments this ACK newly reported delivered (cumulatively or selectively).
    pub acked_sacked_pkts: u64,
    /// Segments newly deemed lost while this ACK was processed.
    pub losses_pkts: u64,
    /// Segments in flight before this ACK.
    pub prior_in_flight_pkts: u64,
    /// False when the interval was too short to trust (below the minimum RTT) or no segment
    /// was newly delivered: only the counts are meaningful.
    pub valid: bool,
}
