//! TCP as the simulator sees it: the sender and receiver behind the transport interface, and
//! the descriptor the registry lists.

use super::receiver::TcpReceiver;
use super::sender::TcpSender;
use crate::cc::{CongestionControl, Controller, Window};
use crate::ids::FlowId;
use crate::net::packet::Packet;
use crate::net::pcap::FlowWire;
use crate::transport::arrival::DataArrival;
use crate::transport::cwnd_trace::CwndTrace;
use crate::transport::interface::{FlowSettings, Transport, TransportReceiver, TransportSender};
use crate::transport::outbox::Outbox;
use crate::transport::rtt::RttEstimator;
use crate::transport::segments::SegmentSizes;
use crate::transport::sender_stats::SenderStats;
use crate::transport::timer::TimerKind;
use crate::units::SimTime;

/// TCP (the registry's descriptor).
pub struct Tcp;

impl Transport for Tcp {
    type Sender = TcpSender;
    type Receiver = TcpReceiver;

    fn endpoints(id: FlowId, flow: FlowSettings<'_>, sizes: SegmentSizes) -> (TcpSender, TcpReceiver) {
        let tcp = flow.tcp;
        let cc = Controller::new(flow.cc);
        let mut sender = TcpSender::new(id, flow.dst, tcp, sizes, cc);
        if flow.cwnd_trace {
            sender.trace_cwnd();
        }
        if flow.self_paced {
            sender.limit_to_offered(); // sends only what the application has offered
        }
        (sender, TcpReceiver::new(id, flow.src, tcp))
    }

    fn label(_flow: FlowSettings<'_>) -> String {
        "tcp".into()
    }

    fn data_header_bytes(flow: FlowSettings<'_>) -> u64 {
        flow.tcp.tcp_header().0
    }

    fn takes_window_controller(_flow: FlowSettings<'_>) -> bool {
        true
    }

    const SELF_CLOCKED: bool = true;

    fn wire(flow: FlowSettings<'_>) -> FlowWire {
        let header = Self::data_header_bytes(flow);
        FlowWire { protocol: 6, header: super::pcap::write_header, mss: flow.tcp.mss.0, data_header: header, timestamps: flow.tcp.timestamps }
    }
}

impl TransportSender for TcpSender {
    #[inline]
    fn start(&mut self, now: SimTime, out: &mut Outbox) {
        TcpSender::start(self, now, out)
    }
    fn offer(&mut self, write: crate::app::Write, now: SimTime, out: &mut Outbox) {
        self.offer_write(write, now, out)
    }
    fn stop_app(&mut self) {
        TcpSender::stop_app(self)
    }
    #[inline]
    fn on_packet(&mut self, p: &Packet, now: SimTime, out: &mut Outbox) {
        self.on_ack(p, now, out)
    }
    fn on_timer(&mut self, kind: TimerKind, now: SimTime, out: &mut Outbox) {
        match kind {
            TimerKind::Retransmit => self.on_rto_timer(now, out),
            TimerKind::Pacing => self.on_pacing_timer(now, out),
            kind => unreachable!("a TCP sender has no {kind:?} timer"),
        }
    }
    fn window_stats(&self) -> SenderStats {
        TcpSender::window_stats(self)
    }
    fn sent_total_bytes(&self) -> u64 {
        self.stats.data_bytes_sent
    }
    fn start_window(&mut self) {
        TcpSender::start_window(self)
    }
    fn window(&self) -> Option<Window> {
        Some(self.window.window())
    }
    fn set_controller(&mut self, cc: Box<dyn CongestionControl>) -> Result<(), String> {
        self.window.replace_controller(Controller::Custom(cc));
        Ok(())
    }
    fn cc_name(&self) -> &'static str {
        self.window.name()
    }
    fn state_vars(&self, publish: &mut dyn FnMut(&'static str, f64)) {
        self.window.state_vars(publish)
    }
    fn cwnd_trace(&self) -> Option<&CwndTrace> {
        self.cwnd_trace.as_deref()
    }
    fn rtt(&self) -> Option<&RttEstimator> {
        Some(&self.rtt)
    }
    fn in_flight_pkts(&self) -> u64 {
        self.pipe()
    }
}

impl TransportReceiver for TcpReceiver {
    #[inline]
    fn on_packet(&mut self, p: &Packet, now: SimTime, out: &mut Outbox) -> DataArrival {
        self.on_data(p, now, out)
    }
    fn on_timer(&mut self, kind: TimerKind, now: SimTime, out: &mut Outbox) {
        match kind {
            TimerKind::DelayedAck => self.on_dack_timer(now, out),
            kind => unreachable!("a TCP receiver has no {kind:?} timer"),
        }
    }
    fn rcv_nxt(&self) -> Option<u64> {
        Some(self.rcv_nxt)
    }
}
