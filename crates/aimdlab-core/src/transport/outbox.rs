//! What a transport endpoint asks the simulator to do after handling an event: packets to
//! inject at its node and timers to schedule. Reused across calls, so it never reallocates
//! once warm.

use super::timer::TimerKind;
use crate::net::packet::Packet;
use crate::units::SimTime;

/// What an endpoint asks of one of its timers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimerRequest {
    /// Nothing.
    Keep,
    /// An event at this time (an exact timer: its fixed delay from now, replacing the one set).
    Set(SimTime),
    /// Cancel the exact timer that is set.
    Cancel,
}

/// Packets and timer requests from one endpoint call.
pub struct Outbox {
    /// Packets to inject, in order.
    pub packets: Vec<Packet>,
    /// Timer requests, by kind (a later request of a kind replaces an earlier one).
    pub timers: [TimerRequest; TimerKind::COUNT],
}

impl Default for Outbox {
    fn default() -> Self {
        Outbox { packets: Vec::new(), timers: [TimerRequest::Keep; TimerKind::COUNT] }
    }
}

impl Outbox {
    /// Asks for the endpoint's `kind` timer event at `at`.
    #[inline]
    pub fn set_timer(&mut self, kind: TimerKind, at: SimTime) {
        self.timers[kind as usize] = TimerRequest::Set(at);
    }

    /// Cancels the endpoint's exact `kind` timer.
    #[inline]
    pub fn cancel_timer(&mut self, kind: TimerKind) {
        debug_assert!(kind.is_exact());
        self.timers[kind as usize] = TimerRequest::Cancel;
    }

    /// The time asked for the `kind` timer, if one was.
    pub fn timer_at(&self, kind: TimerKind) -> Option<SimTime> {
        match self.timers[kind as usize] {
            TimerRequest::Set(t) => Some(t),
            _ => None,
        }
    }

    /// Empties the outbox, keeping its capacity.
    pub fn clear(&mut self) {
        self.packets.clear();
        self.timers = [TimerRequest::Keep; TimerKind::COUNT];
    }
}
