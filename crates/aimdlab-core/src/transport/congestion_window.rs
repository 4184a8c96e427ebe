//! The congestion window a transport keeps, and how it drives the flow's controller: the
//! window lives here, not in the controller (as `snd_cwnd`/`snd_ssthresh` live in Linux's
//! `tcp_sock` and ns-3's `TcpSocketState`), and so does the gate that keeps it from growing
//! in recovery, in CWR, or on an ACK of nothing new (Linux's `tcp_may_raise_cwnd`).
//!
//! TCP and DCCP CCID-2 both hold one; the stack's own rules for the window a congestion
//! event leaves (ns-2's halving) write it through `set_window`.

use crate::cc::{AckArrival, AckEvent, CaPhase, CongestionControl, CongestionEvent, Controller, Window};
use crate::units::{Rate, SimTime};

/// A flow's window and the controller that rules it.
pub struct CongestionWindow<C = Controller> {
    window: Window,
    cc: C,
}

impl<C: CongestionControl> CongestionWindow<C> {
    /// The window `cwnd_pkts`/`ssthresh_pkts` ruled by `cc` (which may set its own initial
    /// threshold: `CongestionControl::init`).
    pub fn new(mut cc: C, cwnd_pkts: f64, ssthresh_pkts: f64) -> Self {
        let mut window = Window::new(cwnd_pkts, ssthresh_pkts);
        cc.init(&mut window);
        CongestionWindow { window, cc }
    }

    /// The window now.
    #[inline]
    pub fn window(&self) -> Window {
        self.window
    }

    /// Congestion window, packets.
    #[inline]
    pub fn cwnd_pkts(&self) -> f64 {
        self.window.cwnd_pkts
    }

    /// Slow-start threshold, packets (∞ when unset).
    #[inline]
    pub fn ssthresh_pkts(&self) -> f64 {
        self.window.ssthresh_pkts
    }

    /// Puts `cc` in place of the controller, keeping the window (it may set its own initial
    /// threshold).
    pub fn replace_controller(&mut self, cc: C) {
        self.cc = cc;
        self.cc.init(&mut self.window);
    }

    /// An ACK arrived that is one growth step: see `on_ack_in_steps`.
    #[inline]
    pub fn on_ack(&mut self, ev: &AckEvent) {
        self.on_ack_in_steps(ev, 1)
    }

    /// An ACK arrived: the controller hears it once (`CongestionControl::on_ack`), then, unless
    /// it acknowledges nothing new or the sender is in recovery or CWR
    /// (`AckEvent::grows_window`), the window grows by `steps` growth steps — 1 when growth
    /// counts ACKs (RFC 5681), one per segment delivered when it counts segments (Linux,
    /// `cwnd_growth = "per_segment"`). A step of one of several stands for one segment; the
    /// ACK's samples (RTT, ECN echo, rate) go with the first.
    #[inline]
    pub fn on_ack_in_steps(&mut self, ev: &AckEvent, steps: u64) {
        self.cc.on_ack(&mut self.window, ev);
        if !ev.grows_window() {
            return;
        }
        if steps <= 1 {
            self.cc.cong_avoid(&mut self.window, ev, ev.newly_acked_pkts);
            return;
        }
        self.cc.cong_avoid(&mut self.window, ev, 1);
        let rest = AckEvent { rtt_sample: None, ece: false, rate: None, ..*ev };
        for _ in 1..steps {
            self.cc.cong_avoid(&mut self.window, &rest, 1);
        }
    }

    /// An ACK arrived, before the sender acts on what it signals.
    #[inline]
    pub fn on_ack_arrival(&mut self, ev: &AckArrival) {
        self.cc.on_ack_arrival(ev)
    }

    /// A congestion signal: the controller's cut.
    pub fn on_congestion(&mut self, ev: &CongestionEvent) {
        self.cc.on_congestion(&mut self.window, ev)
    }

    /// The sender's congestion state changed from `from` to `to` at `now`.
    pub fn on_state_change(&mut self, from: CaPhase, to: CaPhase, now: SimTime) {
        self.cc.on_state_change(&mut self.window, from, to, now)
    }

    /// The stack sets the window (its rules over the controller's cut); the controller is told.
    pub fn set_window(&mut self, cwnd_pkts: f64, ssthresh_pkts: f64) {
        self.window = Window::new(cwnd_pkts, ssthresh_pkts);
        self.cc.on_window_set(&self.window);
    }

    /// The controller's name.
    pub fn name(&self) -> &'static str {
        self.cc.name()
    }

    /// The controller's pacing rate, if it paces.
    #[inline]
    pub fn pacing_rate(&self) -> Option<Rate> {
        self.cc.pacing_rate()
    }

    /// The controller's pacing rate in packets per second, if it paces in packets.
    #[inline]
    pub fn pacing_rate_pps(&self) -> Option<f64> {
        self.cc.pacing_rate_pps()
    }

    /// Publishes the controller's state variables.
    pub fn state_vars(&self, publish: &mut dyn FnMut(&'static str, f64)) {
        self.cc.state_vars(&self.window, publish)
    }
}

#[cfg(test)]
impl<C> CongestionWindow<C> {
    /// The window and the controller apart, for a test that calls a controller's own step.
    pub fn parts(&mut self) -> (&mut Window, &mut C) {
        (&mut self.window, &mut self.cc)
    }
}

/// Tests reach the controller's own state through its window.
#[cfg(test)]
impl<C> std::ops::Deref for CongestionWindow<C> {
    type Target = C;
    fn deref(&self) -> &C {
        &self.cc
    }
}

#[cfg(test)]
impl<C> std::ops::DerefMut for CongestionWindow<C> {
    fn deref_mut(&mut self) -> &mut C {
        &mut self.cc
    }
}
