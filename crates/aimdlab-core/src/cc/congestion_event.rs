//! A congestion signal as the transport reports it to the controller: a loss found by
//! duplicate ACKs or SACK, a retransmission timeout, or an ECN echo.

use crate::units::{SimDuration, SimTime};

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
