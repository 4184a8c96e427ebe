//! A validated, resolved scenario: names turned into typed ids, defaults applied, units
//! converted. The simulator is built from a `Plan` and cannot fail.

use crate::cc::CcConfig;
use crate::ids::{FlowId, LinkId, NodeId};
use crate::net::loss::LossModel;
use crate::net::queue::QueueConfig;
use crate::transport::tcp::config::TcpConfig;
use crate::units::{Rate, SimDuration};

/// One unidirectional link.
#[derive(Clone, Debug)]
pub struct LinkPlan {
    /// Human-readable name, e.g. `"r1->r2"`.
    pub name: String,
    /// Upstream node.
    pub from: NodeId,
    /// Downstream node.
    pub to: NodeId,
    /// Transmission rate.
    pub rate: Rate,
    /// Propagation delay.
    pub delay: SimDuration,
    /// Egress queue.
    pub queue: QueueConfig,
    /// Loss on the wire.
    pub loss: LossModel,
    /// Whether this link's time series are recorded.
    pub monitor: bool,
    /// Framing bytes and device queue.
    pub layer: crate::net::link_layer::LinkLayer,
    /// Its packets are captured as a libpcap trace.
    pub pcap: bool,
}

/// One flow.
#[derive(Clone, Debug)]
pub struct FlowPlan {
    /// Label of its group.
    pub group_name: String,
    /// Index of its group in `flows`.
    pub group: u32,
    /// Sender node.
    pub src: NodeId,
    /// Receiver node.
    pub dst: NodeId,
    /// Congestion controller.
    pub cc: CcConfig,
    /// Application.
    pub app: crate::app::AppConfig,
    /// The transport carrying it.
    pub transport: crate::transport::registry::TransportKind,
    /// Earliest start time (before jitter).
    pub start: SimDuration,
    /// Width of the uniform start-time jitter.
    pub start_jitter: SimDuration,
    /// Time the application stops offering new data.
    pub stop: Option<SimDuration>,
    /// Transport settings (a DCCP flow reads its payload size here).
    pub tcp: TcpConfig,
    /// Its transport's own settings (`Transport::resolve_settings`; DCCP's `dccp` table).
    pub own: crate::transport::interface::OwnSettings,
    /// Whether its congestion window is traced (`cwnd_trace`).
    pub cwnd_trace: bool,
}

impl FlowPlan {
    /// What its transport reads of the plan.
    pub fn settings(&self) -> crate::transport::interface::FlowSettings<'_> {
        crate::transport::interface::FlowSettings {
            src: self.src,
            dst: self.dst,
            tcp: &self.tcp,
            own: &self.own,
            cc: &self.cc,
            cwnd_trace: self.cwnd_trace,
            self_paced: self.app.self_paced(),
        }
    }

    /// Whether the flow is driven by a window controller (TCP, DCCP CCID-2): what
    /// `Simulator::set_controller` can replace. UDP has none; CCID-3 is rate-based (TFRC).
    pub fn takes_window_controller(&self) -> bool {
        self.transport.takes_window_controller(self.settings())
    }

    /// Bytes of the flow's full-size data packet: a segment of `mss` and its headers.
    pub fn data_packet_bytes(&self) -> u64 {
        self.tcp.mss.0 + self.data_header_bytes()
    }

    /// Header bytes of the flow's data packets (IP + transport + options).
    pub fn data_header_bytes(&self) -> u64 {
        self.transport.data_header_bytes(self.settings())
    }
}

/// A whole validated scenario.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Experiment name.
    pub name: String,
    /// Simulated time.
    pub duration: SimDuration,
    /// Start of the measurement window.
    pub warmup: SimDuration,
    /// Master seed from the scenario (the caller may override it).
    pub seed: u64,
    /// Time-series sampling interval.
    pub sample_interval: SimDuration,
    /// The flows whose time series are recorded, in increasing order.
    pub sampled_flows: Vec<FlowId>,
    /// Node names, indexed by `NodeId`.
    pub nodes: Vec<String>,
    /// Links, indexed by `LinkId`.
    pub links: Vec<LinkPlan>,
    /// The link the summary calls "the bottleneck" (dumbbell: R1 → R2; explicit: the first
    /// monitored link, else none).
    pub bottleneck: Option<LinkId>,
    /// Flows, indexed by `FlowId`.
    pub flows: Vec<FlowPlan>,
    /// The link to take at each node towards each flow endpoint.
    pub routes: crate::net::routing::Routes,
    /// The run's estimated memory, by part.
    pub memory: super::memory_estimate::MemoryEstimate,
}
