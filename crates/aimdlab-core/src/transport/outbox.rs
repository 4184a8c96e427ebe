//! What a transport endpoint asks the simulator to do after handling an event: packets to
//! inject at its node and timers to schedule. Reused across calls, so it never reallocates
//! once warm.

use crate::net::packet::Packet;
use crate::units::SimTime;

/// Packets and timer requests from one endpoint call.
#[derive(Default)]
pub struct Outbox {
    /// Packets to inject, in order.
    pub packets: Vec<Packet>,
    /// Schedule the flow's retransmission-timer event at this time.
    pub rto_timer: Option<SimTime>,
    /// Schedule the flow's delayed-ACK timer event at this time.
    pub dack_timer: Option<SimTime>,
}

impl Outbox {
    /// Empties the outbox, keeping its capacity.
    pub fn clear(&mut self) {
        self.packets.clear();
        self.rto_timer = None;
        self.dack_timer = None;
    }
}
