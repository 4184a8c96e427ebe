//! What the simulator asks of a transport: a sending endpoint, a receiving endpoint, and a
//! description of the transport itself (how a flow's plan becomes its endpoints, its name in
//! the flows table, its header bytes, its packets in a pcap trace). A new transport
//! implements these in its folder and adds one line to `registry.rs`.

use super::arrival::DataArrival;
use super::outbox::Outbox;
use super::rtt::RttEstimator;
use super::segments::SegmentSizes;
use super::tcp::config::TcpConfig;
use super::timer::TimerKind;
use crate::cc::{CcConfig, CongestionControl, Window};
use crate::ids::{FlowId, NodeId};
use crate::net::packet::Packet;
use crate::net::pcap::FlowWire;
use crate::transport::cwnd_trace::CwndTrace;
use crate::transport::sender_stats::SenderStats;
use crate::units::SimTime;

/// What a transport reads of a flow's plan (`FlowPlan::settings`).
#[derive(Clone, Copy)]
pub struct FlowSettings<'a> {
    /// Sender node.
    pub src: NodeId,
    /// Receiver node.
    pub dst: NodeId,
    /// TCP's settings (the segment size and header of every transport, for now).
    pub tcp: &'a TcpConfig,
    /// The transport's own settings, from its table (`Transport::resolve_settings`).
    pub own: &'a OwnSettings,
    /// The congestion controller asked for.
    pub cc: &'a CcConfig,
    /// Whether the congestion window is traced.
    pub cwnd_trace: bool,
    /// Whether the application paces itself (offers data over time).
    pub self_paced: bool,
}

/// A transport's own settings, read from its table in a flow group
/// (`Transport::SETTINGS_TABLE`) and kept in the flow's plan without the plan or the simulator
/// knowing their type: the transport that made them reads them back (`get`).
#[derive(Clone, Default)]
pub struct OwnSettings(Option<std::sync::Arc<dyn std::any::Any + Send + Sync>>);

impl OwnSettings {
    /// Settings `s` of a transport.
    pub fn new<T: std::any::Any + Send + Sync>(s: T) -> Self {
        OwnSettings(Some(std::sync::Arc::new(s)))
    }

    /// The settings, if they are a `T`.
    #[inline]
    pub fn get<T: std::any::Any>(&self) -> Option<&T> {
        self.0.as_deref().and_then(|s| s.downcast_ref::<T>())
    }
}

impl std::fmt::Debug for OwnSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() { "OwnSettings(..)" } else { "OwnSettings(none)" })
    }
}

/// A flow's sending endpoint, at its source.
pub trait TransportSender {
    /// The application starts at `now`.
    fn start(&mut self, _now: SimTime, _out: &mut Outbox) {}
    /// The application writes `write` at `now`.
    fn offer(&mut self, write: crate::app::Write, now: SimTime, out: &mut Outbox);
    /// The application stops offering new data (what is outstanding is still delivered).
    fn stop_app(&mut self) {}
    /// A packet for the sender (an acknowledgement) arrived at `now`.
    fn on_packet(&mut self, _p: &Packet, _now: SimTime, _out: &mut Outbox) {}
    /// The sender's `kind` timer fired at `now` (only timers it asked for fire).
    fn on_timer(&mut self, _kind: TimerKind, _now: SimTime, _out: &mut Outbox) {}
    /// Counters over the measurement window.
    fn window_stats(&self) -> SenderStats;
    /// Wire bytes of data sent since the start of the run.
    fn sent_total_bytes(&self) -> u64;
    /// Starts the measurement window.
    fn start_window(&mut self);
    /// Its congestion window, if it keeps one.
    fn window(&self) -> Option<Window> {
        None
    }
    /// Replaces its window controller; an error saying why a transport without one cannot
    /// take it (the caller names the flow).
    fn set_controller(&mut self, cc: Box<dyn CongestionControl>) -> Result<(), String>;
    /// The name of its congestion control (`udp` for none).
    fn cc_name(&self) -> &'static str;
    /// Publishes its controller's state variables into the time series.
    fn state_vars(&self, _publish: &mut dyn FnMut(&'static str, f64)) {}
    /// The congestion-window trace, if traced and the transport has a window.
    fn cwnd_trace(&self) -> Option<&CwndTrace> {
        None
    }
    /// The RTT estimator, if the transport measures RTTs.
    fn rtt(&self) -> Option<&RttEstimator> {
        None
    }
    /// Packets in flight (0 for a transport that does not track them).
    fn in_flight_pkts(&self) -> u64 {
        0
    }
}

/// A flow's receiving endpoint, at its destination.
pub trait TransportReceiver {
    /// A data packet arrived at `now`: whether it was new and how far in-order delivery
    /// advanced.
    fn on_packet(&mut self, p: &Packet, now: SimTime, out: &mut Outbox) -> DataArrival;
    /// The receiver's `kind` timer fired at `now` (only timers it asked for fire).
    fn on_timer(&mut self, _kind: TimerKind, _now: SimTime, _out: &mut Outbox) {}
    /// The loss-event rate it computed and the loss events it counted (NaN and 0 if none).
    fn loss_event_rate(&self) -> (f64, u64) {
        (f64::NAN, 0)
    }
    /// Starts the measurement window.
    fn start_window(&mut self) {}
    /// The next in-order sequence number it expects, if it delivers in order.
    fn rcv_nxt(&self) -> Option<u64> {
        None
    }
}

/// A transport: its endpoints, and what the rest of the simulator needs to know of it.
pub trait Transport {
    /// Its sending endpoint.
    type Sender: TransportSender;
    /// Its receiving endpoint.
    type Receiver: TransportReceiver;
    /// The endpoints of flow `id` with `flow`'s settings, segmenting data as `sizes` says.
    fn endpoints(id: FlowId, flow: FlowSettings<'_>, sizes: SegmentSizes) -> (Self::Sender, Self::Receiver);
    /// Its name in the flows table's `transport` column (e.g. `dccp-ccid2`).
    fn label(flow: FlowSettings<'_>) -> String;
    /// Header bytes of the flow's data packets (IP + transport + options).
    fn data_header_bytes(flow: FlowSettings<'_>) -> u64;
    /// Whether the flow is driven by a window controller that `Simulator::set_controller`
    /// may replace.
    fn takes_window_controller(flow: FlowSettings<'_>) -> bool;
    /// Whether its sender sends only what acknowledgements allow (send jitter then holds
    /// at most a window of packets).
    const SELF_CLOCKED: bool;
    /// How its packets are written into a pcap trace.
    fn wire(flow: FlowSettings<'_>) -> FlowWire;
    /// The name of its own settings table in a flow group, if it has one.
    const SETTINGS_TABLE: Option<&'static str> = None;
    /// Reads its own table (`table`, as written; `None` when the group has none) at `path`,
    /// for a flow whose TCP settings are `tcp`. Default: no settings of its own.
    fn resolve_settings(_table: Option<&serde_json::Value>, _tcp: &TcpConfig, _path: &str) -> Result<OwnSettings, crate::error::ScenarioError> {
        Ok(OwnSettings::default())
    }
    /// Header bytes the application's rate counts per packet (IP and transport, without
    /// options), with its own settings `own` and TCP's `tcp`. Default: TCP's.
    fn app_header_bytes(_own: &OwnSettings, tcp: &TcpConfig) -> u64 {
        tcp.header.0
    }
    /// What of a flow group it cannot carry: its own settings `own`, whether the group names a
    /// controller (`cc_given`), its application. `Err((field, message))` names the group's
    /// field.
    fn check(_own: &OwnSettings, _cc_given: bool, _app: &crate::app::AppConfig) -> Result<(), (&'static str, String)> {
        Ok(())
    }
}
