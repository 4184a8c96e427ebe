//! DCCP as the simulator sees it: the sender and receiver behind the transport interface,
//! and the descriptor the registry lists.

use super::params::DccpConfig;
use super::receiver::DccpReceiver;
use super::sender::{DccpSender, SenderCcid};
use crate::cc::{CongestionControl, Controller, Window};
use crate::error::ScenarioError;
use crate::ids::FlowId;
use crate::net::packet::Packet;
use crate::net::pcap::FlowWire;
use crate::transport::arrival::DataArrival;
use crate::transport::cwnd_trace::CwndTrace;
use crate::transport::interface::{FlowSettings, OwnSettings, Transport, TransportReceiver, TransportSender};
use crate::transport::outbox::Outbox;
use crate::transport::rtt::RttEstimator;
use crate::transport::segments::SegmentSizes;
use crate::transport::sender_stats::SenderStats;
use crate::transport::tcp::config::TcpConfig;
use crate::transport::timer::TimerKind;
use crate::units::SimTime;

/// DCCP (the registry's descriptor).
pub struct Dccp;

/// A DCCP flow's settings, as its plan keeps them.
fn settings(flow: FlowSettings<'_>) -> Option<&DccpConfig> {
    flow.own.get::<DccpConfig>()
}

impl Transport for Dccp {
    type Sender = DccpSender;
    type Receiver = DccpReceiver;

    fn endpoints(id: FlowId, flow: FlowSettings<'_>, sizes: SegmentSizes) -> (DccpSender, DccpReceiver) {
        let cfg = settings(flow).expect("a DCCP flow's plan has its DCCP settings");
        let cc = Controller::new(flow.cc);
        let mut sender = DccpSender::new(id, flow.dst, cfg, sizes, cc, flow.self_paced);
        if let (true, SenderCcid::Two(c)) = (flow.cwnd_trace, &mut sender.ccid) {
            c.trace_cwnd();
        }
        (sender, DccpReceiver::new(id, flow.src, cfg, flow.tcp.mss))
    }

    fn label(flow: FlowSettings<'_>) -> String {
        format!("dccp-ccid{}", settings(flow).map_or(2, |d| d.ccid))
    }

    fn data_header_bytes(flow: FlowSettings<'_>) -> u64 {
        Self::app_header_bytes(flow.own, flow.tcp)
    }

    fn app_header_bytes(own: &OwnSettings, tcp: &TcpConfig) -> u64 {
        own.get::<DccpConfig>().map_or(tcp.header.0, |d| d.data_header.0 .0)
    }

    fn takes_window_controller(flow: FlowSettings<'_>) -> bool {
        settings(flow).map_or(2, |d| d.ccid) == 2
    }

    const SELF_CLOCKED: bool = true;

    fn wire(flow: FlowSettings<'_>) -> FlowWire {
        let header = Self::data_header_bytes(flow);
        FlowWire { protocol: 33, header: super::pcap::write_header, mss: flow.tcp.mss.0, data_header: header, timestamps: flow.tcp.timestamps }
    }

    const SETTINGS_TABLE: Option<&'static str> = Some("dccp");

    /// The `dccp` table read over its defaults (`DccpConfig`).
    fn resolve_settings(table: Option<&serde_json::Value>, _tcp: &TcpConfig, path: &str) -> Result<OwnSettings, ScenarioError> {
        Ok(OwnSettings::new(DccpConfig::resolve(table, path)?))
    }

    fn check(own: &OwnSettings, cc_given: bool, _app: &crate::app::AppConfig) -> Result<(), (&'static str, String)> {
        if own.get::<DccpConfig>().is_some_and(|d| d.ccid == 3) && cc_given {
            return Err(("cc", "applies only to window-based control; DCCP CCID-3 is TFRC, rate-based (remove cc, or set dccp.ccid = 2)".into()));
        }
        Ok(())
    }
}

impl TransportSender for DccpSender {
    #[inline]
    fn start(&mut self, now: SimTime, out: &mut Outbox) {
        DccpSender::start(self, now, out)
    }
    fn offer(&mut self, write: crate::app::Write, now: SimTime, out: &mut Outbox) {
        DccpSender::offer(self, write, now, out)
    }
    fn stop_app(&mut self) {
        DccpSender::stop_app(self)
    }
    #[inline]
    fn on_packet(&mut self, p: &Packet, now: SimTime, out: &mut Outbox) {
        self.on_ack(p, now, out)
    }
    fn on_timer(&mut self, kind: TimerKind, now: SimTime, out: &mut Outbox) {
        match kind {
            TimerKind::Retransmit => self.on_rto_timer(now, out),
            TimerKind::Pacing => self.on_pacing_timer(now, out),
            TimerKind::NoFeedback => self.on_nofeedback_timer(now, out),
            kind => unreachable!("a DCCP sender has no {kind:?} timer"),
        }
    }
    fn window_stats(&self) -> SenderStats {
        DccpSender::window_stats(self)
    }
    fn sent_total_bytes(&self) -> u64 {
        self.stats.data_bytes_sent
    }
    fn start_window(&mut self) {
        DccpSender::start_window(self)
    }
    fn window(&self) -> Option<Window> {
        DccpSender::window(self)
    }
    fn set_controller(&mut self, cc: Box<dyn CongestionControl>) -> Result<(), String> {
        match &mut self.ccid {
            SenderCcid::Two(c) => {
                c.window.replace_controller(Controller::Custom(cc));
                Ok(())
            }
            SenderCcid::Three(_) => Err("runs DCCP CCID-3, a rate-based control; a window controller cannot replace it".into()),
        }
    }
    fn cc_name(&self) -> &'static str {
        match &self.ccid {
            SenderCcid::Two(c) => c.window.name(),
            SenderCcid::Three(c) => c.rc.name(),
        }
    }
    fn state_vars(&self, publish: &mut dyn FnMut(&'static str, f64)) {
        DccpSender::state_vars(self, publish)
    }
    fn cwnd_trace(&self) -> Option<&CwndTrace> {
        match &self.ccid {
            SenderCcid::Two(c) => c.cwnd_trace.as_deref(),
            SenderCcid::Three(_) => None,
        }
    }
    fn rtt(&self) -> Option<&RttEstimator> {
        Some(&self.rtt)
    }
    fn in_flight_pkts(&self) -> u64 {
        self.pipe()
    }
}

impl TransportReceiver for DccpReceiver {
    #[inline]
    fn on_packet(&mut self, p: &Packet, now: SimTime, out: &mut Outbox) -> DataArrival {
        self.on_data(p, now, out)
    }
    fn on_timer(&mut self, kind: TimerKind, now: SimTime, out: &mut Outbox) {
        DccpReceiver::on_timer(self, kind, now, out)
    }
    fn loss_event_rate(&self) -> (f64, u64) {
        (DccpReceiver::loss_event_rate(self), self.loss_events())
    }
    fn start_window(&mut self) {
        DccpReceiver::start_window(self)
    }
}
