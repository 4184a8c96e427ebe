//! A flow's two transport endpoints: the sender at its source and the receiver at its
//! destination, each one of the transports (TCP, UDP, DCCP). The simulator talks
//! to them only through these: a packet arrived, a timer fired, the application started or
//! stopped; what they send and the timers they want come back in an `Outbox`. A UDP flow
//! carries no TCP state.

use super::arrival::DataArrival;
use super::dccp::receiver::DccpReceiver;
use super::dccp::sender::DccpSender;
use super::outbox::Outbox;
use super::rtt::RttEstimator;
use super::tcp::receiver::TcpReceiver;
use super::tcp::sender::TcpSender;
use super::timer::TimerKind;
use super::udp::UdpSender;
use crate::cc::Controller;
use crate::monitor::sender_stats::SenderStats;
use crate::net::packet::Packet;
use crate::units::SimTime;

/// The sending endpoint of a flow. TCP and DCCP are held inline (no indirection per ACK);
/// a UDP flow leaves part of the space unused.
#[allow(clippy::large_enum_variant)]
pub enum SenderEndpoint {
    /// TCP (SACK or NewReno) with a congestion controller.
    Tcp(TcpSender),
    /// UDP: sends what the application offers, unacknowledged.
    Udp(UdpSender),
    /// DCCP: unreliable, congestion-controlled by its CCID.
    Dccp(DccpSender),
}

/// The receiving endpoint of a flow.
pub enum ReceiverEndpoint {
    /// TCP: acknowledges data (cumulative, SACK, delayed ACKs).
    Tcp(TcpReceiver),
    /// UDP: counts what arrives (in the flow's measurements) and answers nothing.
    UdpSink,
    /// DCCP: acknowledges with Ack Vectors.
    Dccp(DccpReceiver),
}

impl SenderEndpoint {
    /// The application starts at `now` (TCP opens its window; UDP waits for messages).
    #[inline]
    pub fn start(&mut self, now: SimTime, out: &mut Outbox) {
        match self {
            SenderEndpoint::Tcp(s) => s.start(now, out),
            SenderEndpoint::Dccp(s) => s.start(now, out),
            SenderEndpoint::Udp(_) => {}
        }
    }

    /// The application writes `write` at `now`: UDP sends it at once in packets of at most
    /// `mss` payload bytes, DCCP queues those packets for its CCID, TCP adds the bytes to its
    /// stream and queues the full segments they complete.
    pub fn offer(&mut self, write: crate::app::Write, now: SimTime, out: &mut Outbox) {
        match self {
            SenderEndpoint::Tcp(s) => s.offer_write(write, now, out),
            SenderEndpoint::Udp(s) => s.send(write, now, out),
            SenderEndpoint::Dccp(s) => s.offer(write, now, out),
        }
    }

    /// The application stops offering new data.
    pub fn stop_app(&mut self) {
        match self {
            SenderEndpoint::Tcp(s) => s.stop_app(),
            SenderEndpoint::Dccp(s) => s.stop_app(),
            SenderEndpoint::Udp(_) => {}
        }
    }

    /// Hints that an acknowledgement will arrive soon (see `TcpSender::prefetch_for_ack`).
    #[inline]
    pub fn prefetch_for_ack(&self) {
        if let SenderEndpoint::Tcp(s) = self {
            s.prefetch_for_ack();
        }
    }

    /// A packet for the sender (an acknowledgement) arrived at `now`.
    #[inline]
    pub fn on_packet(&mut self, p: &Packet, now: SimTime, out: &mut Outbox) {
        match self {
            SenderEndpoint::Tcp(s) => s.on_ack(p, now, out),
            SenderEndpoint::Dccp(s) => s.on_ack(p, now, out),
            SenderEndpoint::Udp(_) => {}
        }
    }

    /// The sender's `kind` timer fired at `now`.
    pub fn on_timer(&mut self, kind: TimerKind, now: SimTime, out: &mut Outbox) {
        match (self, kind) {
            (SenderEndpoint::Tcp(s), TimerKind::Retransmit) => s.on_rto_timer(now, out),
            (SenderEndpoint::Tcp(s), TimerKind::Pacing) => s.on_pacing_timer(now, out),
            (SenderEndpoint::Dccp(s), TimerKind::Retransmit) => s.on_rto_timer(now, out),
            (SenderEndpoint::Dccp(s), TimerKind::Pacing) => s.on_pacing_timer(now, out),
            (SenderEndpoint::Dccp(s), TimerKind::NoFeedback) => s.on_nofeedback_timer(now, out),
            (_, kind) => unreachable!("a sender has no {kind:?} timer"),
        }
    }

    /// Counters over the measurement window.
    pub fn stats(&self) -> SenderStats {
        match self {
            SenderEndpoint::Tcp(s) => s.window_stats(),
            SenderEndpoint::Udp(s) => s.window_stats(),
            SenderEndpoint::Dccp(s) => s.window_stats(),
        }
    }

    /// Wire bytes of data sent since the start of the run.
    pub fn sent_total_bytes(&self) -> u64 {
        match self {
            SenderEndpoint::Tcp(s) => s.stats.data_bytes_sent,
            SenderEndpoint::Udp(s) => s.stats.data_bytes_sent,
            SenderEndpoint::Dccp(s) => s.stats.data_bytes_sent,
        }
    }

    /// The congestion controller, if the transport has one.
    pub fn controller(&self) -> Option<&Controller> {
        match self {
            SenderEndpoint::Tcp(s) => Some(&s.cc),
            SenderEndpoint::Dccp(s) => s.controller(),
            SenderEndpoint::Udp(_) => None,
        }
    }

    /// Publishes the sender's controller state variables (a window controller's or a rate
    /// controller's) into the time series.
    pub fn state_vars(&self, publish: &mut dyn FnMut(&'static str, f64)) {
        match self {
            SenderEndpoint::Tcp(s) => crate::cc::CongestionControl::state_vars(&s.cc, publish),
            SenderEndpoint::Dccp(s) => s.state_vars(publish),
            SenderEndpoint::Udp(_) => {}
        }
    }

    /// The name of the flow's congestion control: its window controller, its rate controller
    /// (`tfrc`), or `udp` for none.
    pub fn cc_name(&self) -> &'static str {
        use crate::cc::CongestionControl;
        match self {
            SenderEndpoint::Tcp(s) => s.cc.name(),
            SenderEndpoint::Dccp(s) => match &s.ccid {
                super::dccp::sender::SenderCcid::Two(c) => c.cc.name(),
                super::dccp::sender::SenderCcid::Three(c) => c.rc.name(),
            },
            SenderEndpoint::Udp(_) => "udp",
        }
    }

    /// The congestion-window trace, if the flow is traced and has a window.
    pub fn cwnd_trace(&self) -> Option<&crate::monitor::cwnd_trace::CwndTrace> {
        match self {
            SenderEndpoint::Tcp(s) => s.cwnd_trace.as_deref(),
            SenderEndpoint::Dccp(s) => match &s.ccid {
                super::dccp::sender::SenderCcid::Two(c) => c.cwnd_trace.as_deref(),
                super::dccp::sender::SenderCcid::Three(_) => None,
            },
            SenderEndpoint::Udp(_) => None,
        }
    }

    /// The RTT estimator, if the transport measures RTTs.
    pub fn rtt(&self) -> Option<&RttEstimator> {
        match self {
            SenderEndpoint::Tcp(s) => Some(&s.rtt),
            SenderEndpoint::Dccp(s) => Some(&s.rtt),
            SenderEndpoint::Udp(_) => None,
        }
    }

    /// Packets in flight (0 for a transport that does not track them).
    pub fn in_flight_pkts(&self) -> u64 {
        match self {
            SenderEndpoint::Tcp(s) => s.pipe(),
            SenderEndpoint::Dccp(s) => s.pipe(),
            SenderEndpoint::Udp(_) => 0,
        }
    }

    /// Starts the measurement window.
    pub fn start_window(&mut self) {
        match self {
            SenderEndpoint::Tcp(s) => s.start_window(),
            SenderEndpoint::Udp(s) => s.start_window(),
            SenderEndpoint::Dccp(s) => s.start_window(),
        }
    }
}

impl ReceiverEndpoint {
    /// A data packet arrived at `now`; says whether it was new and how far in-order delivery
    /// advanced (a UDP sink takes every packet as new and delivers nothing in order).
    #[inline]
    pub fn on_packet(&mut self, p: &Packet, now: SimTime, out: &mut Outbox) -> DataArrival {
        match self {
            ReceiverEndpoint::Tcp(r) => r.on_data(p, now, out),
            ReceiverEndpoint::UdpSink => DataArrival { first_arrival: true, in_order_advance: 0 },
            ReceiverEndpoint::Dccp(r) => r.on_data(p, now, out),
        }
    }

    /// The receiver's `kind` timer fired at `now`.
    pub fn on_timer(&mut self, kind: TimerKind, now: SimTime, out: &mut Outbox) {
        match (self, kind) {
            (ReceiverEndpoint::Tcp(r), TimerKind::DelayedAck) => r.on_dack_timer(now, out),
            (ReceiverEndpoint::Dccp(r), kind) => r.on_timer(kind, now, out),
            (_, kind) => unreachable!("a receiver has no {kind:?} timer"),
        }
    }

    /// The loss-event rate the receiver computed and the loss events it counted (DCCP
    /// CCID-3; NaN and 0 otherwise).
    pub fn loss_event_rate(&self) -> (f64, u64) {
        match self {
            ReceiverEndpoint::Dccp(r) => (r.loss_event_rate(), r.loss_events()),
            _ => (f64::NAN, 0),
        }
    }

    /// Starts the measurement window.
    pub fn start_window(&mut self) {
        if let ReceiverEndpoint::Dccp(r) = self {
            r.start_window();
        }
    }

    /// The next in-order sequence number expected (TCP), if any.
    pub fn rcv_nxt(&self) -> Option<u64> {
        match self {
            ReceiverEndpoint::Tcp(r) => Some(r.rcv_nxt),
            ReceiverEndpoint::UdpSink | ReceiverEndpoint::Dccp(_) => None,
        }
    }
}
