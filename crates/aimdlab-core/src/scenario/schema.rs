//! The scenario schema: what a TOML file or Python dict may say. This is the single source of
//! truth for scenarios; `aimdlab schema` prints it as JSON Schema (from these doc comments).
//!
//! Every struct denies unknown fields so a typo is an error naming the field, never a
//! silently ignored setting. Defaults are written next to each field.

use super::quantity::{BufferSize, Duration, LinkRate, Size};
use crate::app::spec::AppSpec;
use crate::cc::spec::CcSpec;
use crate::net::queue::spec::QueueSpec;
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
    #[serde(default, skip_serializing_if = "TcpParams::is_empty")] // (and no default in the schema)
    pub tcp: TcpParams,
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
/// override the defaults for that group.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TcpParams {
    /// Whose TCP to run: `"rfc"` (the RFCs, the default), `"linux"` (6.x), `"linux26"` (2.6.31,
    /// NCTUns 6.0's), `"ns3"` (3.44) or `"ns2"` (2.35) — a preset of the fields below and of
    /// some controller parameters, each of which a field given explicitly still overrides
    /// (docs/explanation/profiles.md lists every value and its source). In `[tcp]` it also sets the links'
    /// default `framing` and their RED queues' rules.
    pub profile: Option<crate::transport::profile::StackProfile>,
    /// Maximum segment size (payload per packet). Default `"1460B"`.
    pub mss: Option<Size>,
    /// IP + TCP header bytes added to every packet, data and ACK. Default `"40B"`.
    pub header: Option<Size>,
    /// Selective acknowledgements (RFC 2018) with RFC 6675 loss recovery; when false,
    /// NewReno (RFC 6582). Default true. `recovery` says the same and more.
    pub sack: Option<bool>,
    /// Loss recovery: `"sack"` (RFC 6675, the default), `"newreno"` (RFC 6582) or `"reno"`
    /// (classic Reno as ns-2's Agent/TCP/Reno: any new ACK ends fast recovery; a second loss
    /// in the window usually ends in a timeout). Must agree with `sack` if both are given.
    pub recovery: Option<crate::transport::tcp::config::Recovery>,
    /// Whose reading of the recovery rules: `"rfc"` (as RFC 5681, 6582 and 6675 write them;
    /// the default) or `"ns2"` (as ns-2.35's agents implement them: a second fast retransmit
    /// only once the cumulative ACK passes what was sent when the last one began, Newreno's
    /// timer restarted on the first partial ACK only, and `recovery = "sack"` as Sack1 with
    /// its `pipe_` counter; docs/explanation/profiles.md has the full list).
    pub recovery_rules: Option<crate::transport::tcp::config::RecoveryRules>,
    /// How a loss is found before the retransmission timer: `"dupack"` (three duplicate ACKs,
    /// or three SACKed segments above a hole, RFC 5681/6675; the default) or `"rack_tlp"`
    /// (RFC 8985 as Linux: time-based — a segment is lost once one sent after it is delivered
    /// and an RTT plus a reordering window has passed, lost retransmissions too — with a tail
    /// loss probe two SRTTs after the last send). `rack_tlp` needs `recovery = "sack"`;
    /// otherwise duplicate ACKs are counted.
    pub loss_detection: Option<crate::transport::tcp::config::LossDetection>,
    /// What one ACK tells the congestion controller: `"per_ack"` (RFC 5681: an ACK of N
    /// segments is one step of growth; the default) or `"per_segment"` (each acknowledged
    /// segment is one step, as Linux counts; with delayed ACKs slow start then doubles per
    /// RTT and congestion avoidance adds one segment per RTT).
    pub cwnd_growth: Option<crate::transport::tcp::config::CwndGrowth>,
    /// After an ECN reduction, no window growth until the data outstanding at the reduction
    /// is acknowledged — Linux's CWR state (`tcp_may_raise_cwnd`) and ns-3's. Default false
    /// (RFC 3168 §6.1.2 leaves growth on).
    pub cwr_freeze: Option<bool>,
    /// How the retransmission timeout follows the RTT: `"rfc6298"` (max(SRTT + 4·RTTVAR,
    /// min_rto), the default), `"linux"` (SRTT + RTTVAR with RTTVAR ≥ min_rto, decayed once
    /// per flight: Linux's `tcp_rtt_estimator`) or `"ns2"` (one sample per round trip in
    /// 10 ms ticks, ns-2's `rtt_update`).
    pub rto_estimator: Option<crate::transport::tcp::config::RtoEstimator>,
    /// The slow-start threshold after a retransmission timeout: `"controller"` (its own cut,
    /// e.g. GAIMD's β·W; the default) or `"half"` (W/2 whatever the controller, as ns-2's
    /// `slowdown()` sets it).
    pub timeout_ssthresh: Option<crate::transport::tcp::config::TimeoutSsthresh>,
    /// The first window decrease of the connection, and any decrease in slow start:
    /// `"controller"` (its own cut; the default) or `"half"` (halve whatever the controller's
    /// β, as ns-2's `slowdown()` does with `first_decrease_`).
    pub first_decrease: Option<crate::transport::tcp::config::FirstDecrease>,
    /// Limited transmit (RFC 3042): before fast recovery, each of the first duplicate ACKs
    /// lets one new segment out. Default true, as in Linux, ns-3 and ns-2 (`singledup_ 1`).
    pub limited_transmit: Option<bool>,
    /// Proportional Rate Reduction (RFC 6937, SSRB): fast recovery sends about one segment
    /// per two delivered until pipe reaches ssthresh, instead of waiting for pipe to fall
    /// below cwnd; with `cwr_freeze`, CWR after an ECN reduction does the same. Default false
    /// (RFC 6675's pipe rule); Linux and ns-3 run PRR.
    pub prr: Option<bool>,
    /// Initial congestion window in packets. Default 10 (RFC 6928).
    pub initial_cwnd: Option<u32>,
    /// Initial slow-start threshold in packets. Default: unbounded.
    pub initial_ssthresh: Option<u32>,
    /// Lower bound of the retransmission timeout. Default `"1s"` (RFC 6298 (2.4)).
    pub min_rto: Option<Duration>,
    /// Upper bound of the retransmission timeout. Default `"60s"` (RFC 6298 (2.5)).
    pub max_rto: Option<Duration>,
    /// Retransmission timeout before the first RTT sample. Default `"1s"` (RFC 6298 (2.1)).
    pub initial_rto: Option<Duration>,
    /// Duplicate ACKs that trigger fast retransmit. Default 3.
    pub dupthresh: Option<u32>,
    /// Receiver acknowledges every second full segment (b = 2, RFC 5681 §4.2). Default false.
    pub delayed_ack: Option<bool>,
    /// Longest a delayed ACK waits. Default `"40ms"` (Linux's minimum ATO).
    pub delayed_ack_timeout: Option<Duration>,
    /// Linux's quick-ACK mode: the receiver acknowledges each of the first `quickacks`
    /// segments at once (again after 1 s without data, and the next two after a first CE
    /// mark), delaying ACKs only after that. Default 0; Linux: 16 (`TCP_MAX_QUICKACKS`).
    pub quickacks: Option<u32>,
    /// The timestamps option (RFC 7323) on every TCP packet: 12 header bytes more, data and
    /// ACKs (RTT samples come from the timestamp echo either way). Default false.
    pub timestamps: Option<bool>,
    /// Receiver window in packets or bytes. Default `"65535pkt"`.
    pub receive_window: Option<BufferSize>,
    /// Each data packet leaves its host after an extra random delay, uniform in
    /// [0, send_jitter), order kept — ns-2's `overhead_`, the usual cure for DropTail phase
    /// effects (Floyd & Jacobson, "On Traffic Phase Effects in Packet-Switched Gateways",
    /// 1992). Default `"0s"`.
    pub send_jitter: Option<Duration>,
    /// ECN (RFC 3168): data packets are sent ECN-capable (ECT(0)), the receiver echoes CE
    /// marks, and the sender reacts to an echo at most once per window. Default false.
    pub ecn: Option<bool>,
}

impl TcpParams {
    /// Whether the table gives no field (serialized, it is `{}` once nulls are dropped).
    pub fn is_empty(&self) -> bool {
        matches!(serde_json::to_value(self), Ok(serde_json::Value::Object(m)) if m.values().all(serde_json::Value::is_null))
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
    pub tcp: Option<TcpParams>,
    /// DCCP settings (`transport = "dccp"` only).
    #[serde(default)]
    pub dccp: Option<crate::transport::dccp::params::DccpParams>,
}

/// The JSON Schema of scenario files.
pub fn json_schema() -> serde_json::Value {
    let schema = schemars::schema_for!(Scenario);
    serde_json::to_value(schema).expect("the schema serializes")
}
