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
    timers: [TimerRequest; TimerKind::COUNT],
    /// Bit `k` set: `timers[k]` holds a request (most calls make none, so the simulator
    /// reads only these).
    requested: u8,
}

impl Default for Outbox {
    fn default() -> Self {
        Outbox { packets: Vec::new(), timers: [TimerRequest::Keep; TimerKind::COUNT], requested: 0 }
    }
}

impl Outbox {
    /// Asks for the endpoint's `kind` timer event at `at`.
    #[inline]
    pub fn set_timer(&mut self, kind: TimerKind, at: SimTime) {
        self.timers[kind as usize] = TimerRequest::Set(at);
        self.requested |= 1 << kind as u8;
    }

    /// Cancels the endpoint's exact `kind` timer.
    #[inline]
    pub fn cancel_timer(&mut self, kind: TimerKind) {
        debug_assert!(kind.is_exact());
        self.timers[kind as usize] = TimerRequest::Cancel;
        self.requested |= 1 << kind as u8;
    }

    /// What was asked of the `kind` timer.
    #[inline]
    pub fn request(&self, kind: TimerKind) -> TimerRequest {
        self.timers[kind as usize]
    }

    /// The timers something was asked of, in `TimerKind::ALL` order, with the request.
    #[inline]
    pub fn requests(&self) -> impl Iterator<Item = (TimerKind, TimerRequest)> + '_ {
        let mut bits = self.requested;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let k = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            Some((TimerKind::ALL[k], self.timers[k]))
        })
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
        while self.requested != 0 {
            self.timers[self.requested.trailing_zeros() as usize] = TimerRequest::Keep;
            self.requested &= self.requested - 1;
        }
    }
}
