//! What a transport endpoint asks the simulator to do after handling an event: packets to
//! inject at its node and timers to schedule. Reused across calls, so it never reallocates
//! once warm.

use super::timer::TimerKind;
use crate::net::packet::Packet;
use crate::units::SimTime;

/// Packets and timer requests from one endpoint call.
#[derive(Default)]
pub struct Outbox {
    /// Packets to inject, in order.
    pub packets: Vec<Packet>,
    /// Timer events to schedule, by kind (a later request of a kind replaces an earlier one).
    pub timers: [Option<SimTime>; TimerKind::COUNT],
}

impl Outbox {
    /// Asks for the endpoint's `kind` timer event at `at`.
    #[inline]
    pub fn set_timer(&mut self, kind: TimerKind, at: SimTime) {
        self.timers[kind as usize] = Some(at);
    }

    /// Empties the outbox, keeping its capacity.
    pub fn clear(&mut self) {
        self.packets.clear();
        self.timers = [None; TimerKind::COUNT];
    }
}
