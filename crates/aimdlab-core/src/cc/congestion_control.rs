//! The congestion-control interface: a controller is a rule, a handful of hooks over the
//! window the transport keeps (`super::window::Window`), as Linux's `tcp_congestion_ops`
//! (`include/net/tcp.h`) are over `tcp_sock`'s `snd_cwnd` and `snd_ssthresh`.
//!
//! Two hooks are required: `cong_avoid`, the growth on an ACK of new data outside recovery
//! and CWR (the transport keeps that gate and calls it once per growth step), and `ssthresh`,
//! the reduced window after a congestion signal (the transport then cuts: `Window::cut`).
//! The others have defaults: `init`, `on_ack` (every ACK, before any growth: RTT and rate
//! samples, Linux's `pkts_acked`; a controller that sets the window itself on every ACK, as
//! BBR's `cong_control`, does it here), `on_ack_arrival`, `on_congestion` (for a cut that is
//! not `Window::cut`), `on_state_change` (every change of the sender's congestion state),
//! `on_window_set` (the stack replaced the window),
//! pacing and published state.
//!
//! The transport owns loss detection, recovery, RTT estimation and the window; a controller
//! only reacts. Hooks take event structs so fields can be added without breaking implementors.

pub use super::ca_phase::CaPhase;
pub use super::congestion_event::{CongestionEvent, CongestionKind};
pub use super::rate_sample::RateSample;
pub use super::window::Window;
use crate::units::{Rate, SimDuration, SimTime};

/// An acknowledgement arrived (it may or may not acknowledge new data).
#[derive(Clone, Copy, Debug)]
pub struct AckEvent {
    /// When the ACK arrived.
    pub now: SimTime,
    /// Segments newly acknowledged cumulatively by this ACK (0 for a duplicate), whatever
    /// `cwnd_growth` says (DCCP: packets newly acknowledged).
    pub newly_acked_pkts: u64,
    /// The RTT this ACK tells the controller of, as the stack's rule picks it
    /// (`tcp.controller_rtt`: the echoed sample, Linux's newest segment, or ns-3's SRTT),
    /// if it gave one (Karn's rule).
    pub rtt_sample: Option<SimDuration>,
    /// Smoothed RTT after this ACK (the initial RTO before any sample).
    pub srtt: SimDuration,
    /// Smallest RTT the controller was told of so far (under `tcp.controller_rtt = "echo"`,
    /// the smallest sample the RTO took).
    pub min_rtt: Option<SimDuration>,
    /// The ACK carried an ECN-Echo.
    pub ece: bool,
    /// The sender is in fast recovery (RFC 6675 / RFC 6582), or in CWR with `cwr_freeze`,
    /// or on the ACK that ends a recovery whose exit does not grow the window: the transport
    /// does not call `cong_avoid` then.
    pub in_recovery: bool,
    /// The window limits sending, as the transport's congestion window validation judges
    /// it (`tcp.cwnd_validation`; always true without one, and for DCCP): the transport
    /// calls `cong_avoid` only then, as Linux's congestion ops and ns-3's CUBIC return early
    /// without it.
    pub cwnd_limited: bool,
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

impl AckEvent {
    /// Whether this ACK grows the window: it acknowledges new data, the sender is not in
    /// recovery or CWR, and the window limits sending (`cwnd_limited`). The transport calls
    /// `cong_avoid` only then.
    #[inline]
    pub fn grows_window(&self) -> bool {
        !self.in_recovery && self.newly_acked_pkts > 0 && self.cwnd_limited
    }
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

/// A congestion controller: the rule, over the window the transport keeps.
pub trait CongestionControl: Send {
    /// Short name, e.g. `"reno"`.
    fn name(&self) -> &'static str;
    /// Linux's `cong_avoid`: one growth step of the window `w` on the ACK `ev` of new data
    /// (`ev.newly_acked_pkts > 0`), outside recovery and CWR. `acked_pkts`: the segments the
    /// step stands for — the ACK's when growth counts ACKs (`cwnd_growth = "per_ack"`, one step
    /// an ACK), 1 when it counts segments (`"per_segment"`, DCCP: one step a segment, the ACK's
    /// samples with the first). The window's helpers (`Window::slow_start`,
    /// `Window::aimd_step`) write the shared rules.
    fn cong_avoid(&mut self, w: &mut Window, ev: &AckEvent, acked_pkts: u64);
    /// Linux's `ssthresh`: the slow-start threshold after the congestion signal `ev`, packets,
    /// from the window `w` before it (the transport floors it at 2 and sets cwnd: `Window::cut`).
    /// The controller updates its own state here (a CUBIC's W_max).
    fn ssthresh(&mut self, w: &Window, ev: &CongestionEvent) -> f64;
    /// Linux's `init`: the flow starts with window `w` (a controller that has its own initial
    /// threshold sets it). Default: nothing.
    fn init(&mut self, _w: &mut Window) {}
    /// Whether the controller reads delivery-rate samples (`AckEvent::rate`); the transport
    /// then keeps the per-segment records they need. Default false.
    fn wants_rate_samples(&self) -> bool {
        false
    }
    /// An ACK arrived, before any growth it brings (Linux's `pkts_acked`), once an ACK
    /// whatever `cwnd_growth` says: samples of RTT, rate and ECN, in recovery too. A controller that sets the window on every ACK
    /// (`sets_window_in_recovery`, BBR) sets it here. Default: nothing.
    fn on_ack(&mut self, _w: &mut Window, _ev: &AckEvent) {}
    /// An ACK arrived; called before the sender acts on the loss or ECN-Echo it reports (so
    /// before `on_congestion`), then `on_ack` follows. Default: nothing.
    fn on_ack_arrival(&mut self, _ev: &AckArrival) {}
    /// A congestion signal arrived: the cut. Default: the controller's `ssthresh`, then
    /// `Window::cut` (cwnd = ssthresh, or 1 packet after a timeout); a controller whose cut
    /// differs (one that keeps its window at an ECN echo) overrides it.
    fn on_congestion(&mut self, w: &mut Window, ev: &CongestionEvent) {
        let ssthresh = self.ssthresh(w, ev);
        w.cut(ssthresh, ev.kind);
    }
    /// The sender's congestion state changed from `from` to `to` at `now` (Linux's `set_state`
    /// hook; CWR to Open is its `CA_EVENT_COMPLETE_CWR`): told of every change, after the
    /// change. Default: nothing.
    fn on_state_change(&mut self, _w: &mut Window, _from: CaPhase, _to: CaPhase, _now: SimTime) {}
    /// The stack replaced the window the last `on_congestion` left (a window policy of the
    /// stack, e.g. ns-2's halving, `transport::tcp::window_policy`): bring any state derived
    /// from the reduced window into line with `w`. Default: nothing.
    fn on_window_set(&mut self, _w: &Window) {}
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
    /// Publishes named state variables (α, a, W_max, ...) into the time series; `w` is the
    /// window now.
    fn state_vars(&self, _w: &Window, _publish: &mut dyn FnMut(&'static str, f64)) {}
}

/// A boxed controller is a controller: the registry keeps a controller whose state is larger
/// than CUBIC's in a box, so every flow's `Controller` stays small (`cc::tests`).
impl<T: CongestionControl + ?Sized> CongestionControl for Box<T> {
    fn name(&self) -> &'static str {
        (**self).name()
    }
    fn cong_avoid(&mut self, w: &mut Window, ev: &AckEvent, acked_pkts: u64) {
        (**self).cong_avoid(w, ev, acked_pkts)
    }
    fn ssthresh(&mut self, w: &Window, ev: &CongestionEvent) -> f64 {
        (**self).ssthresh(w, ev)
    }
    fn init(&mut self, w: &mut Window) {
        (**self).init(w)
    }
    fn wants_rate_samples(&self) -> bool {
        (**self).wants_rate_samples()
    }
    fn on_ack(&mut self, w: &mut Window, ev: &AckEvent) {
        (**self).on_ack(w, ev)
    }
    fn on_ack_arrival(&mut self, ev: &AckArrival) {
        (**self).on_ack_arrival(ev)
    }
    fn on_congestion(&mut self, w: &mut Window, ev: &CongestionEvent) {
        (**self).on_congestion(w, ev)
    }
    fn on_state_change(&mut self, w: &mut Window, from: CaPhase, to: CaPhase, now: SimTime) {
        (**self).on_state_change(w, from, to, now)
    }
    fn on_window_set(&mut self, w: &Window) {
        (**self).on_window_set(w)
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
    fn state_vars(&self, w: &Window, publish: &mut dyn FnMut(&'static str, f64)) {
        (**self).state_vars(w, publish)
    }
}
