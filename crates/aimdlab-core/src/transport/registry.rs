//! The transports a scenario can name, one line each: `Variant => module::Descriptor`,
//! where the descriptor implements `interface::Transport`. The list makes the scenario's
//! `transport` values (`TransportKind`), a flow's two endpoints (`SenderEndpoint`,
//! `ReceiverEndpoint`: each transport's endpoints held inline, dispatched statically), and
//! the questions the simulator asks of a flow's transport. Nothing outside this file matches
//! on the transport.
//!
//! Adding a transport: its folder (endpoints implementing `TransportSender` and
//! `TransportReceiver`, a descriptor implementing `Transport`) and one line below.

use super::arrival::DataArrival;
use super::interface::OwnSettings;
use super::interface::{FlowSettings, Transport, TransportReceiver, TransportSender};
use super::outbox::Outbox;
use super::rtt::RttEstimator;
use super::segments::SegmentSizes;
use super::timer::TimerKind;
use crate::cc::{CongestionControl, Window};
use crate::ids::FlowId;
use crate::net::packet::Packet;
use crate::net::pcap::FlowWire;
use crate::transport::cwnd_trace::CwndTrace;
use crate::transport::sender_stats::SenderStats;
use crate::units::SimTime;

macro_rules! transports {
    ($( $(#[$doc:meta])* $variant:ident => $descriptor:ty ),* $(,)?) => {
        /// A flow's transport (the scenario's `transport`).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize, schemars::JsonSchema)]
        #[serde(rename_all = "snake_case")]
        pub enum TransportKind {
            $( $(#[$doc])* $variant, )*
        }

        /// The sending endpoint of a flow.
        #[allow(clippy::large_enum_variant)] // held inline: no indirection per ACK
        pub enum SenderEndpoint {
            $( #[allow(missing_docs)] $variant(<$descriptor as Transport>::Sender), )*
        }

        /// The receiving endpoint of a flow.
        #[allow(clippy::large_enum_variant)]
        pub enum ReceiverEndpoint {
            $( #[allow(missing_docs)] $variant(<$descriptor as Transport>::Receiver), )*
        }

        impl TransportKind {
            /// The endpoints of flow `id` with `flow`'s settings.
            pub fn endpoints(self, id: FlowId, flow: FlowSettings<'_>, sizes: SegmentSizes) -> (SenderEndpoint, ReceiverEndpoint) {
                match self {
                    $( TransportKind::$variant => {
                        let (s, r) = <$descriptor as Transport>::endpoints(id, flow, sizes);
                        (SenderEndpoint::$variant(s), ReceiverEndpoint::$variant(r))
                    } )*
                }
            }
            /// Its name in the flows table.
            pub fn label(self, flow: FlowSettings<'_>) -> String {
                match self { $( TransportKind::$variant => <$descriptor as Transport>::label(flow), )* }
            }
            /// Header bytes of the flow's data packets.
            pub fn data_header_bytes(self, flow: FlowSettings<'_>) -> u64 {
                match self { $( TransportKind::$variant => <$descriptor as Transport>::data_header_bytes(flow), )* }
            }
            /// Whether a window controller drives the flow.
            pub fn takes_window_controller(self, flow: FlowSettings<'_>) -> bool {
                match self { $( TransportKind::$variant => <$descriptor as Transport>::takes_window_controller(flow), )* }
            }
            /// Whether its sender sends only what acknowledgements allow.
            pub fn self_clocked(self) -> bool {
                match self { $( TransportKind::$variant => <$descriptor as Transport>::SELF_CLOCKED, )* }
            }
            /// How the flow's packets are written into a pcap trace.
            pub fn wire(self, flow: FlowSettings<'_>) -> FlowWire {
                match self { $( TransportKind::$variant => <$descriptor as Transport>::wire(flow), )* }
            }
            /// The name of its own settings table in a flow group, if it has one.
            pub fn settings_table(self) -> Option<&'static str> {
                match self { $( TransportKind::$variant => <$descriptor as Transport>::SETTINGS_TABLE, )* }
            }
            /// Reads its own settings table (`Transport::resolve_settings`).
            pub fn resolve_settings(self, table: Option<&serde_json::Value>, tcp: &crate::transport::tcp::config::TcpConfig, path: &str) -> Result<OwnSettings, crate::error::ScenarioError> {
                match self { $( TransportKind::$variant => <$descriptor as Transport>::resolve_settings(table, tcp, path), )* }
            }
            /// Header bytes the application's rate counts per packet.
            pub fn app_header_bytes(self, own: &OwnSettings, tcp: &crate::transport::tcp::config::TcpConfig) -> u64 {
                match self { $( TransportKind::$variant => <$descriptor as Transport>::app_header_bytes(own, tcp), )* }
            }
            /// What of a flow group it cannot carry (`Transport::check`).
            pub fn check(self, own: &OwnSettings, cc_given: bool, app: &crate::app::AppConfig) -> Result<(), (&'static str, String)> {
                match self { $( TransportKind::$variant => <$descriptor as Transport>::check(own, cc_given, app), )* }
            }
        }

        impl TransportSender for SenderEndpoint {
            #[inline]
            fn start(&mut self, now: SimTime, out: &mut Outbox) {
                match self { $( SenderEndpoint::$variant(s) => TransportSender::start(s, now, out), )* }
            }
            fn offer(&mut self, write: crate::app::Write, now: SimTime, out: &mut Outbox) {
                match self { $( SenderEndpoint::$variant(s) => TransportSender::offer(s, write, now, out), )* }
            }
            fn stop_app(&mut self) {
                match self { $( SenderEndpoint::$variant(s) => TransportSender::stop_app(s), )* }
            }
            #[inline]
            fn on_packet(&mut self, p: &Packet, now: SimTime, out: &mut Outbox) {
                match self { $( SenderEndpoint::$variant(s) => TransportSender::on_packet(s, p, now, out), )* }
            }
            fn on_timer(&mut self, kind: TimerKind, now: SimTime, out: &mut Outbox) {
                match self { $( SenderEndpoint::$variant(s) => TransportSender::on_timer(s, kind, now, out), )* }
            }
            fn window_stats(&self) -> SenderStats {
                match self { $( SenderEndpoint::$variant(s) => TransportSender::window_stats(s), )* }
            }
            fn sent_total_bytes(&self) -> u64 {
                match self { $( SenderEndpoint::$variant(s) => TransportSender::sent_total_bytes(s), )* }
            }
            fn start_window(&mut self) {
                match self { $( SenderEndpoint::$variant(s) => TransportSender::start_window(s), )* }
            }
            fn window(&self) -> Option<Window> {
                match self { $( SenderEndpoint::$variant(s) => TransportSender::window(s), )* }
            }
            fn set_controller(&mut self, cc: Box<dyn CongestionControl>) -> Result<(), String> {
                match self { $( SenderEndpoint::$variant(s) => TransportSender::set_controller(s, cc), )* }
            }
            fn cc_name(&self) -> &'static str {
                match self { $( SenderEndpoint::$variant(s) => TransportSender::cc_name(s), )* }
            }
            fn state_vars(&self, publish: &mut dyn FnMut(&'static str, f64)) {
                match self { $( SenderEndpoint::$variant(s) => TransportSender::state_vars(s, publish), )* }
            }
            fn cwnd_trace(&self) -> Option<&CwndTrace> {
                match self { $( SenderEndpoint::$variant(s) => TransportSender::cwnd_trace(s), )* }
            }
            fn rtt(&self) -> Option<&RttEstimator> {
                match self { $( SenderEndpoint::$variant(s) => TransportSender::rtt(s), )* }
            }
            fn in_flight_pkts(&self) -> u64 {
                match self { $( SenderEndpoint::$variant(s) => TransportSender::in_flight_pkts(s), )* }
            }
        }

        impl TransportReceiver for ReceiverEndpoint {
            #[inline]
            fn on_packet(&mut self, p: &Packet, now: SimTime, out: &mut Outbox) -> DataArrival {
                match self { $( ReceiverEndpoint::$variant(r) => TransportReceiver::on_packet(r, p, now, out), )* }
            }
            fn on_timer(&mut self, kind: TimerKind, now: SimTime, out: &mut Outbox) {
                match self { $( ReceiverEndpoint::$variant(r) => TransportReceiver::on_timer(r, kind, now, out), )* }
            }
            fn loss_event_rate(&self) -> (f64, u64) {
                match self { $( ReceiverEndpoint::$variant(r) => TransportReceiver::loss_event_rate(r), )* }
            }
            fn start_window(&mut self) {
                match self { $( ReceiverEndpoint::$variant(r) => TransportReceiver::start_window(r), )* }
            }
            fn rcv_nxt(&self) -> Option<u64> {
                match self { $( ReceiverEndpoint::$variant(r) => TransportReceiver::rcv_nxt(r), )* }
            }
        }
    };
}

transports! {
    /// TCP: reliable, window-based, with the group's congestion controller.
    Tcp => super::tcp::transport::Tcp,
    /// UDP: unreliable, no congestion control.
    Udp => super::udp::Udp,
    /// DCCP (RFC 4340): unreliable, congestion-controlled by its CCID (`dccp.ccid`).
    Dccp => super::dccp::transport::Dccp,
}

impl TransportKind {
    /// The transport of a group that names none: UDP for an application that paces itself
    /// (it offers data over time), TCP for one that has data to send.
    pub fn default_for(self_paced: bool) -> Self {
        if self_paced {
            TransportKind::Udp
        } else {
            TransportKind::Tcp
        }
    }
}
