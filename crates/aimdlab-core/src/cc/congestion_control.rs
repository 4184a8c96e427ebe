//! The congestion-control interface: a small trait told about acknowledgements and
//! congestion events, answering the congestion window (packets, f64) and optionally a pacing
//! rate; plus the slow-start and window-cut rules the window controllers share.
//!
//! The transport owns loss detection, recovery and RTT estimation; a controller only reacts.
//! Hooks take event structs so fields can be added without breaking implementors.

pub use crate::transport::tcp::delivery_rate::RateSample;
use crate::units::{Rate, SimDuration, SimTime};

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
    /// Oldest unacknowledged segment number after this ACK (DCCP: one above the newest
    /// acknowledged packet): with `snd_nxt`, marks round trips (HyStart's rounds).
    pub snd_una: u64,
    /// Next new segment number to be sent.
    pub snd_nxt: u64,
    /// The delivery-rate sample of this ACK (`transport::tcp::delivery_rate`), for a
    /// controller that asked for samples (`wants_rate_samples`) on a transport that takes
    /// them (TCP); `None` otherwise.
    pub rate: Option<RateSample>,
}

/// An acknowledgement as it arrives, before the sender reacts to what it signals (loss,
/// ECN-Echo): Linux's `in_ack_event` point, where DCTCP counts the marked data of a window.
#[derive(Clone, Copy, Debug)]
pub struct AckArrival {
    /// When the ACK arrived.
    pub now: SimTime,
    /// Segments this ACK newly reports delivered, cumulatively or selectively.
    pub delivered_pkts: u64,
    /// The ACK carried an ECN-Echo.
    pub ece: bool,
    /// Oldest unacknowledged segment after this ACK.
    pub snd_una: u64,
    /// Next new segment number to be sent.
    pub snd_nxt: u64,
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
    /// Whether the controller reads delivery-rate samples (`AckEvent::rate`); the transport
    /// then keeps the per-segment records they need. Default false.
    fn wants_rate_samples(&self) -> bool {
        false
    }
    /// An ACK arrived. Controllers that grow the window act when `newly_acked_pkts > 0`;
    /// ECN-driven ones may read `ece` on every ACK.
    fn on_ack(&mut self, ev: &AckEvent);
    /// An ACK arrived; called before the sender acts on the loss or ECN-Echo it reports (so
    /// before `on_congestion`), then `on_ack` follows. Default: nothing.
    fn on_ack_arrival(&mut self, _ev: &AckArrival) {}
    /// A congestion signal arrived.
    fn on_congestion(&mut self, ev: &CongestionEvent);
    /// Fast recovery ended (the cumulative ACK passed the recovery point).
    fn on_recovery_exit(&mut self, _now: SimTime) {}
    /// The stack replaced the window the last `on_congestion` left (a window policy of the
    /// stack, e.g. ns-2's halving, `transport::tcp::window_policy`): keep the new values, and
    /// bring any state derived from the reduced window into line with them.
    fn set_window(&mut self, cwnd_pkts: f64, ssthresh_pkts: f64);
    /// Congestion window, packets.
    fn cwnd_pkts(&self) -> f64;
    /// Slow-start threshold, packets (∞ when unset).
    fn ssthresh_pkts(&self) -> f64;
    /// Pacing rate, if the controller paces.
    fn pacing_rate(&self) -> Option<Rate> {
        None
    }
    /// Pacing rate in packets per second, for a controller whose model is in packets (BBR);
    /// the transport uses it when `pacing_rate` is `None`. Default `None`.
    fn pacing_rate_pps(&self) -> Option<f64> {
        None
    }
    /// Whether the controller sets the window on every ACK, during a recovery too (Linux's
    /// `cong_control`, which BBR implements): the transport then runs no PRR of its own.
    /// Default false.
    fn sets_window_in_recovery(&self) -> bool {
        false
    }
    /// Publishes named state variables (α, a, W_max, ...) into the time series.
    fn state_vars(&self, _publish: &mut dyn FnMut(&'static str, f64)) {}
}

/// A boxed controller is a controller: the registry keeps a controller whose state is larger
/// than CUBIC's in a box, so every flow's `Controller` stays small (`cc::tests`).
impl<T: CongestionControl + ?Sized> CongestionControl for Box<T> {
    fn name(&self) -> &'static str {
        (**self).name()
    }
    fn wants_rate_samples(&self) -> bool {
        (**self).wants_rate_samples()
    }
    fn on_ack_arrival(&mut self, ev: &AckArrival) {
        (**self).on_ack_arrival(ev)
    }
    fn on_ack(&mut self, ev: &AckEvent) {
        (**self).on_ack(ev)
    }
    fn on_congestion(&mut self, ev: &CongestionEvent) {
        (**self).on_congestion(ev)
    }
    fn on_recovery_exit(&mut self, now: SimTime) {
        (**self).on_recovery_exit(now)
    }
    fn set_window(&mut self, cwnd_pkts: f64, ssthresh_pkts: f64) {
        (**self).set_window(cwnd_pkts, ssthresh_pkts)
    }
    fn cwnd_pkts(&self) -> f64 {
        (**self).cwnd_pkts()
    }
    fn ssthresh_pkts(&self) -> f64 {
        (**self).ssthresh_pkts()
    }
    fn pacing_rate(&self) -> Option<Rate> {
        (**self).pacing_rate()
    }
    fn pacing_rate_pps(&self) -> Option<f64> {
        (**self).pacing_rate_pps()
    }
    fn sets_window_in_recovery(&self) -> bool {
        (**self).sets_window_in_recovery()
    }
    fn state_vars(&self, publish: &mut dyn FnMut(&'static str, f64)) {
        (**self).state_vars(publish)
    }
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
/// rule, with the controller's own reduced window in place of FlightSize/2). A stack whose
/// rules override the cut (ns-2's halving) applies them afterwards through `set_window`.
#[inline]
pub fn cut_window(cwnd: &mut f64, ssthresh: &mut f64, reduced_pkts: f64, ev: &CongestionEvent) {
    *ssthresh = reduced_pkts.max(2.0);
    *cwnd = match ev.kind {
        CongestionKind::Loss | CongestionKind::Ecn => *ssthresh,
        CongestionKind::Timeout => 1.0,
    };
}
