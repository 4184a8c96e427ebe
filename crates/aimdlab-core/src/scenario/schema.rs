//! The scenario schema: what a TOML file or Python dict may say. This is the single source of
//! truth for scenarios; `aimdlab schema` prints it as JSON Schema (from these doc comments).
//!
//! Every struct denies unknown fields so a typo is an error naming the field, never a
//! silently ignored setting. Defaults are written next to each field.

use crate::app::spec::AppSpec;
use crate::cc::spec::CcSpec;
use crate::net::queue::spec::QueueSpec;
use crate::units::quantity::{BufferSize, Duration, LinkRate, Size};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A complete experiment: topology, transport defaults, flows, and what to measure.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// A short name for the experiment, copied into the results.
    #[serde(default)]
    pub name: String,
    /// Free text describing the experiment (ignored by the engine).
    #[serde(default)]
    pub description: String,
    /// Simulated time to run, e.g. `"100s"`.
    pub duration: Duration,
    /// Start of the measurement window; summary figures exclude `[0, warmup)`. Default `"0s"`.
    #[serde(default)]
    pub warmup: Option<Duration>,
    /// Master random seed; every component derives its own stream from it. Default 1.
    #[serde(default)]
    #[schemars(default = "default_seed")]
    pub seed: Option<u64>,
    /// Interval between time-series samples. Default `"100ms"`.
    #[serde(default)]
    pub sample_interval: Option<Duration>,
    /// Which flows the per-flow time series records: `"all"` (default), `"none"`, or a list
    /// of flow indices (0-based, in the order of the `flows` groups and their counts), e.g.
    /// `[0, 1, 99]`. The flow table and the summary always cover every flow; a 10,000-flow
    /// run need not record 10,000 series.
    #[serde(default)]
    pub sampled_flows: Option<SampledFlows>,
    /// Flows whose congestion window is traced: a row for every change of cwnd or ssthresh
    /// with its cause (slow_start, avoidance, recovery_ack, loss, ecn, timeout,
    /// recovery_exit), over the whole run, in the result's `cwnd_trace` table. `"none"`
    /// (default), `"all"`, or a list of flow indices as for `sampled_flows`. TCP and DCCP
    /// CCID-2 flows have a window; other flows record nothing.
    #[serde(default)]
    pub cwnd_trace: Option<SampledFlows>,
    /// Links whose packets are written as libpcap traces, by name (`"r1->r2"`; a dumbbell's
    /// nodes are s0…, r1, r2, d0…): every packet that starts transmission on the link in the
    /// measurement window, with synthetic IPv4/TCP/DCCP/UDP headers. Default none.
    #[serde(default)]
    pub pcap: Vec<String>,
    /// The network.
    pub topology: Topology,
    /// Transport defaults for every flow (each flow group may override any of them).
    #[serde(default, skip_serializing_if = "TcpTable::is_empty")] // (and no default in the schema)
    pub tcp: TcpTable,
    /// Groups of flows; a group with `count = N` makes N identical flows.
    pub flows: Vec<FlowGroup>,
}

/// The network: a dumbbell or an explicit list of nodes and links.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Topology {
    /// N senders → R1 → bottleneck → R2 → N receivers; one sender/receiver pair per flow.
    Dumbbell(Box<Dumbbell>),
    /// Named nodes, links between them, and optional static routes (e.g. a parking lot).
    Explicit(Explicit),
}

/// The classic single-bottleneck dumbbell.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Dumbbell {
    /// The R1 → R2 bottleneck link (its queue is the one the papers study).
    pub bottleneck: LinkSpec,
    /// The R2 → R1 link carrying ACKs back. Default: the same rate, delay and queue as
    /// `bottleneck`, without its loss.
    #[serde(default)]
    pub reverse_bottleneck: Option<LinkSpec>,
    /// Every access link (sender ↔ R1 and R2 ↔ receiver, both directions, its loss too)
    /// unless a flow group overrides it.
    pub access: LinkSpec,
}

/// A unidirectional link: a serializer at `rate` behind an egress `queue`, then `delay`.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LinkSpec {
    /// Transmission rate, e.g. `"5Mbps"`.
    pub rate: LinkRate,
    /// One-way propagation delay, e.g. `"30ms"`.
    pub delay: Duration,
    /// The egress queue. Default: DropTail with 100 packets.
    #[serde(default)]
    pub queue: QueueSpec,
    /// Random loss on the wire. Default: none.
    #[serde(default)]
    pub loss: Option<LossSpec>,
    /// Link-layer bytes added to every packet on the wire (header, trailer, preamble, gap):
    /// counted in the serialization time, so in the utilization, not in packet sizes or byte
    /// counters. Default `"0B"`; Ethernet on the wire is `"38B"`, PPP `"2B"`.
    #[serde(default)]
    pub framing: Option<Size>,
    /// A device queue between the queue discipline and the serializer, in packets (ns-3's
    /// `NetDevice` transmit queue, a driver ring): the discipline hands its head over
    /// whenever the device has room, so its limit, its AQM decisions and the reported queue
    /// length count only the packets it still holds. Default `"0pkt"` (`"1pkt"` with
    /// `tcp.profile = "ns3"`).
    #[serde(default)]
    pub device_queue: Option<BufferSize>,
}

/// Loss models.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LossKind {
    /// Each packet lost independently with probability `rate`.
    Bernoulli,
    /// Two-state bursty loss with parameters `p`, `r`, `loss_good`, `loss_bad`.
    GilbertElliott,
}

/// Which packets a loss model hits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LossApplies {
    /// Data segments only.
    Data,
    /// ACKs only.
    Ack,
    /// Every packet.
    Both,
}

/// Random loss on a link.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LossSpec {
    /// `"bernoulli"` or `"gilbert_elliott"`.
    pub model: LossKind,
    /// Bernoulli: packet error rate in [0, 1].
    #[serde(default)]
    pub rate: Option<f64>,
    /// Gilbert–Elliott: probability of moving Good → Bad at a packet, in [0, 1].
    #[serde(default)]
    pub p: Option<f64>,
    /// Gilbert–Elliott: probability of moving Bad → Good at a packet, in (0, 1].
    #[serde(default)]
    pub r: Option<f64>,
    /// Gilbert–Elliott: loss probability in Good (1 − k). Default 0.
    #[serde(default)]
    pub loss_good: Option<f64>,
    /// Gilbert–Elliott: loss probability in Bad (1 − h). Default 1.
    #[serde(default)]
    pub loss_bad: Option<f64>,
    /// `"data"`, `"ack"` or `"both"`. Default `"both"`.
    #[serde(default)]
    pub applies_to: Option<LossApplies>,
    /// Link-layer retransmissions of a lost frame (ARQ): the packet is lost only when all
    /// 1 + retries attempts are, and each attempt takes one serialization time. Default 0.
    #[serde(default)]
    pub retries: Option<u32>,
}

/// An explicit topology.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Explicit {
    /// Node names; hosts and routers alike.
    pub nodes: Vec<String>,
    /// Links between named nodes.
    pub links: Vec<ExplicitLink>,
    /// Static next-hop overrides; every other route is the shortest path in hops (ties go to
    /// the link listed first).
    #[serde(default)]
    pub routes: Vec<Route>,
}

/// A link of an explicit topology.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExplicitLink {
    /// Node the link leaves.
    pub from: String,
    /// Node the link enters.
    pub to: String,
    /// Transmission rate.
    pub rate: LinkRate,
    /// One-way propagation delay.
    pub delay: Duration,
    /// The egress queue (at `from`). Default: DropTail with 100 packets.
    #[serde(default)]
    pub queue: QueueSpec,
    /// Random loss on the `from → to` direction only. Default: none.
    #[serde(default)]
    pub loss: Option<LossSpec>,
    /// Also create the reverse link `to → from` with the same settings. Default true.
    #[serde(default)]
    pub duplex: Option<bool>,
    /// Record this link's (forward direction's) queue and utilization time series.
    /// Default false.
    #[serde(default)]
    pub monitor: bool,
    /// Link-layer bytes added to every packet on the wire, both directions (see the
    /// dumbbell's `framing`). Default `"0B"`.
    #[serde(default)]
    pub framing: Option<Size>,
    /// A device queue between the queue discipline and the serializer, both directions (see
    /// the dumbbell's `device_queue`). Default `"0pkt"`.
    #[serde(default)]
    pub device_queue: Option<BufferSize>,
}

/// A static route: at `node`, packets for `dst` go to the neighbour `via`.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Route {
    /// The node where the rule applies.
    pub node: String,
    /// The destination node.
    pub dst: String,
    /// The next hop (must be linked from `node`).
    pub via: String,
}

/// Transport settings. In `[tcp]` these are defaults for every flow; in a flow group they
/// override the defaults for that group. Besides `profile` and `sack`, its fields are
/// `TcpConfig`'s (`transport/tcp/config.rs`, where each one's default, range and docs are):
/// the table keeps them as written, and `compile_flow::resolve_tcp` lays them over the
/// profile's settings by name.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TcpTable {
    /// Whose TCP to run: `"rfc"` (the RFCs, the default), `"linux"` (6.x), `"linux26"` (2.6.31,
    /// NCTUns 6.0's), `"ns3"` (3.44) or `"ns2"` (2.35) — a preset of the fields below and of
    /// some controller parameters, each of which a field given explicitly still overrides
    /// (docs/explanation/profiles.md lists every value and its source). In `[tcp]` it also sets the links'
    /// default `framing` and their RED queues' rules.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<crate::stack_profile::StackProfile>,
    /// The other fields given, by name, as written.
    #[serde(flatten)]
    pub fields: serde_json::Map<String, serde_json::Value>,
}

/// The description of `sack`, a field of the table that is not `TcpConfig`'s.
const SACK_DOC: &str =
    "Selective acknowledgements (RFC 2018) with RFC 6675 loss recovery; when false, NewReno (RFC 6582). Default true. `recovery` says the same and more.";

impl TcpTable {
    /// Whether the table gives no field.
    pub fn is_empty(&self) -> bool {
        self.profile.is_none() && self.fields.is_empty()
    }

    /// Whether the table gives field `name`.
    pub fn gives(&self, name: &str) -> bool {
        self.fields.contains_key(name)
    }
}

impl JsonSchema for TcpTable {
    fn schema_name() -> String {
        "TcpTable".into()
    }

    /// `TcpConfig`'s schema with every field optional, and `profile` and `sack` besides.
    fn json_schema(gen: &mut schemars::gen::SchemaGenerator) -> schemars::schema::Schema {
        use schemars::schema::{Schema, SchemaObject};
        let mut schema = crate::transport::tcp::config::TcpConfig::json_schema(gen).into_object();
        schema.metadata().description =
            Some("Transport settings. In `[tcp]` these are defaults for every flow; in a flow group they override the defaults for that group.".into());
        let object = schema.object();
        object.required.clear();
        let mut profile = SchemaObject::default();
        profile.metadata().description = Some("Whose TCP to run: `\"rfc\"` (the RFCs, the default), `\"linux\"` (6.x), `\"linux26\"` (2.6.31, NCTUns 6.0's), `\"ns3\"` (3.44) or `\"ns2\"` (2.35) — a preset of the fields below and of some controller parameters, each of which a field given explicitly still overrides (docs/explanation/profiles.md lists every value and its source). In `[tcp]` it also sets the links' default `framing` and their RED queues' rules.".into());
        profile.subschemas().all_of = Some(vec![gen.subschema_for::<crate::stack_profile::StackProfile>()]);
        let mut sack = gen.subschema_for::<bool>().into_object();
        sack.metadata().description = Some(SACK_DOC.into());
        object.properties.insert("profile".into(), Schema::Object(profile));
        object.properties.insert("sack".into(), Schema::Object(sack));
        Schema::Object(schema)
    }
}

/// A choice of flows (`sampled_flows`, `cwnd_trace`): `"all"`, `"none"`, or a list of indices.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(untagged, expecting = "is not a choice of flows; expected \"all\", \"none\" or a list of flow indices such as [0, 3]")]
pub enum SampledFlows {
    /// `"all"` or `"none"`.
    Named(String),
    /// Flow indices, 0-based.
    List(Vec<u64>),
}

/// A flow's transport: the transports' registry lists them.
pub use crate::transport::registry::TransportKind;

/// Overrides of a flow's own access link (dumbbell only).
#[derive(Clone, Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AccessOverride {
    /// Rate of this flow's access link (both directions).
    #[serde(default)]
    pub rate: Option<LinkRate>,
    /// One-way delay of this flow's access link (both directions).
    #[serde(default)]
    pub delay: Option<Duration>,
}

/// A group of identical flows.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FlowGroup {
    /// A label for the group, copied into the results. Default `"group<i>"`.
    #[serde(default)]
    pub name: Option<String>,
    /// How many flows this group makes. Default 1.
    #[serde(default)]
    pub count: Option<u32>,
    /// Congestion controller of a TCP flow or a DCCP CCID-2 flow. Default `"reno"` (a UDP
    /// flow has none; CCID-3 is rate-based).
    #[serde(default)]
    pub cc: Option<CcSpec>,
    /// The application. Default bulk.
    #[serde(default)]
    pub app: AppSpec,
    /// The transport: `"tcp"` (reliable, congestion-controlled by `cc`), `"udp"` (sends
    /// what the application offers, unacknowledged; only for an application that paces
    /// itself) or `"dccp"` (unreliable, congestion-controlled: its settings in `dccp`).
    /// Default `"tcp"`, or `"udp"` for an application that paces itself.
    #[serde(default)]
    pub transport: Option<TransportKind>,
    /// When the flows start. Default `"0s"`.
    #[serde(default)]
    pub start: Option<Duration>,
    /// Each flow starts at `start` plus a uniform draw from `[0, start_jitter)`, from its own
    /// random stream. Default `"0s"`.
    #[serde(default)]
    pub start_jitter: Option<Duration>,
    /// When the application stops offering new data. Default: never.
    #[serde(default)]
    pub stop: Option<Duration>,
    /// Sender node (explicit topology only).
    #[serde(default)]
    pub src: Option<String>,
    /// Receiver node (explicit topology only).
    #[serde(default)]
    pub dst: Option<String>,
    /// The sender's access link (dumbbell only), e.g. a longer delay for a longer RTT.
    #[serde(default)]
    pub access: Option<AccessOverride>,
    /// The receiver's access link (dumbbell only).
    #[serde(default)]
    pub receiver_access: Option<AccessOverride>,
    /// Transport settings overriding `[tcp]` for this group (`mss` is also a DCCP flow's
    /// payload per packet).
    #[serde(default)]
    pub tcp: Option<TcpTable>,
    /// DCCP settings (`transport = "dccp"` only).
    #[serde(default)]
    pub dccp: Option<crate::transport::dccp::params::DccpConfig>,
}

impl FlowGroup {
    /// The transports' own settings tables the group gives (`dccp`), by name, as written.
    pub fn own_tables(&self) -> Vec<(&'static str, serde_json::Value)> {
        self.dccp.iter().map(|d| ("dccp", serde_json::to_value(d).unwrap_or_default())).collect()
    }
}

/// The JSON Schema of scenario files.
pub fn json_schema() -> serde_json::Value {
    let schema = schemars::schema_for!(Scenario);
    serde_json::to_value(schema).expect("the schema serializes")
}

/// The seed a scenario without one runs with (`compile.rs` applies it), as the schema says.
pub const DEFAULT_SEED: u64 = 1;

fn default_seed() -> Option<u64> {
    Some(DEFAULT_SEED)
}
