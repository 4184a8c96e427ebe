//! The DCCP receiver: the half its CCID asks for (CCID-2: Ack Vectors per Ack Ratio;
//! CCID-3: TFRC feedback once per RTT).

use super::ccid2_receiver::Ccid2Receiver;
use super::ccid3_receiver::Ccid3Receiver;
use super::params::DccpConfig;
use crate::ids::{FlowId, NodeId};
use crate::net::packet::Packet;
use crate::transport::arrival::DataArrival;
use crate::transport::outbox::Outbox;
use crate::transport::timer::TimerKind;
use crate::units::{Bytes, SimTime};

/// One DCCP flow's receiver.
pub enum DccpReceiver {
    /// CCID-2.
    Two(Ccid2Receiver),
    /// CCID-3 (boxed: its loss history is larger than a TCP receiver).
    Three(Box<Ccid3Receiver>),
}

impl DccpReceiver {
    /// A receiver of `flow` whose packets go back to `src`, for data of `mss` payload bytes.
    pub fn new(flow: FlowId, src: NodeId, cfg: &DccpConfig, mss: Bytes) -> Self {
        match cfg.ccid {
            3 => DccpReceiver::Three(Box::new(Ccid3Receiver::new(flow, src, cfg, mss))),
            _ => DccpReceiver::Two(Ccid2Receiver::new(flow, src, cfg)),
        }
    }

    /// A data packet arrived at `now`.
    pub fn on_data(&mut self, p: &Packet, now: SimTime, out: &mut Outbox) -> DataArrival {
        match self {
            DccpReceiver::Two(r) => r.on_data(p, now, out),
            DccpReceiver::Three(r) => r.on_data(p, now, out),
        }
    }

    /// The receiver's `kind` timer fired at `now`.
    pub fn on_timer(&mut self, kind: TimerKind, now: SimTime, out: &mut Outbox) {
        match (self, kind) {
            (DccpReceiver::Two(r), TimerKind::DelayedAck) => r.on_ack_timer(now, out),
            (DccpReceiver::Three(r), TimerKind::Feedback) => r.on_feedback_timer(now, out),
            (_, kind) => unreachable!("a DCCP receiver has no {kind:?} timer here"),
        }
    }

    /// The loss-event rate the receiver computed (CCID-3; NaN for CCID-2).
    pub fn loss_event_rate(&self) -> f64 {
        match self {
            DccpReceiver::Two(_) => f64::NAN,
            DccpReceiver::Three(r) => r.p(),
        }
    }

    /// Starts the measurement window.
    pub fn start_window(&mut self) {
        if let DccpReceiver::Three(r) = self {
            r.start_window();
        }
    }

    /// Loss events the receiver counted in the measurement window (CCID-3; 0 for CCID-2).
    pub fn loss_events(&self) -> u64 {
        match self {
            DccpReceiver::Two(_) => 0,
            DccpReceiver::Three(r) => r.loss_events(),
        }
    }
}
