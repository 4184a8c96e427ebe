//! Semantic validation of a parsed scenario and its resolution into a `Plan`: defaults,
//! names → ids, dumbbell expansion, shortest-path routing, per-flow transport settings.

use super::compile_flow::{err, group_common, resolve_tcp, Res, TopTcp};
use super::plan::{FlowPlan, LinkPlan, Plan};
use super::resolve_loss::resolve_loss;
use super::schema::{AccessOverride, Dumbbell, Explicit, LinkSpec, SampledFlows, Scenario, Topology};
use crate::error::ScenarioError;
use crate::ids::{FlowId, LinkId, NodeId};
use crate::net::link_layer::LinkLayer;
use crate::net::loss::LossModel;
use crate::net::queue::spec::resolve_queue;
use crate::net::queue::QueueConfig;
use crate::net::routing;
use crate::units::parse::PacketsOrBytes;
use crate::units::quantity::{BufferSize, Size};
use crate::units::{Rate, SimDuration};
use std::collections::HashMap;

/// Most flows one scenario may create.
pub const MAX_FLOWS: u64 = 100_000;
// A timer event names its flow in `TIMER_FLOW_BITS` bits.
const _: () = assert!(MAX_FLOWS <= 1 << crate::event::TIMER_FLOW_BITS);

/// Validates `s` and resolves it into a `Plan`.
pub fn compile(s: &Scenario) -> Res<Plan> {
    compile_limited(s, None)
}

/// Validates `s` and resolves it into a `Plan`, refusing it (before the routing table and
/// anything else that grows with its size is built) when its estimated memory is above
/// `max_memory_bytes`.
pub fn compile_limited(s: &Scenario, max_memory_bytes: Option<u64>) -> Res<Plan> {
    let RunTimes { duration, warmup, sample_interval, samples } = run_times(s)?;
    if s.flows.is_empty() {
        return err("flows", "is empty; expected at least one flow group");
    }
    let total: u64 = s.flows.iter().map(|g| g.count.unwrap_or(1) as u64).sum();
    if total > MAX_FLOWS {
        return err("flows", format!("{total} flows in all; expected at most {MAX_FLOWS}"));
    }
    let profile = s.tcp.profile.unwrap_or_default();
    // Resolved once here, so its errors name `tcp.…` whatever the groups say.
    let resolved = resolve_tcp(&crate::transport::tcp::profile::tcp_config(profile), &s.tcp, "tcp")?;
    let defaults = TopTcp { params: &s.tcp, profile, resolved };

    let mut net = Net::default();
    let mut flows = Vec::new();
    let bottleneck = match &s.topology {
        Topology::Dumbbell(d) => Some(build_dumbbell(d, s, &defaults, &mut net, &mut flows)?),
        Topology::Explicit(e) => build_explicit(e, s, &defaults, &mut net, &mut flows)?,
    };
    if net.links.len() > crate::event::MAX_EVENT_ID as usize {
        return err("topology", format!("{} links; expected at most {}", net.links.len(), crate::event::MAX_EVENT_ID));
    }
    let topology = match &s.topology {
        Topology::Dumbbell(_) => "topology.dumbbell",
        Topology::Explicit(_) => "topology.explicit",
    };
    let endpoints = flow_endpoints(&flows, net.nodes.len());
    let sampled_flows = resolve_flow_choice("sampled_flows", s.sampled_flows.as_ref(), flows.len(), true)?;
    for id in resolve_flow_choice("cwnd_trace", s.cwnd_trace.as_ref(), flows.len(), false)? {
        flows[id.idx()].cwnd_trace = true;
    }
    mark_traced_links(&s.pcap, &mut net.links)?;
    let link_ends: Vec<(NodeId, NodeId)> = net.links.iter().map(|l| (l.from, l.to)).collect();
    let statics: Vec<(NodeId, NodeId, LinkId)> = net.static_routes.iter().map(|(n, d, l, _)| (*n, *d, *l)).collect();
    let static_dsts: Vec<NodeId> = statics.iter().map(|s| s.1).collect();
    let (rows, columns) = routing::table_shape(net.nodes.len(), &link_ends, &endpoints, &static_dsts);
    let memory = super::memory::estimate(
        net.nodes.len() as u64,
        &net.links,
        &flows,
        sampled_flows.len() as u64,
        (rows as u64, columns as u64),
        samples,
        duration,
        topology,
    );
    if let Some(limit) = max_memory_bytes {
        memory.check(limit)?;
    }
    let routes = routing::Routes::build(net.nodes.len(), &link_ends, &endpoints, &statics);
    check_routes(&net, &routes, &s.topology, &flows)?;
    // The plan lives as long as the run: no growth slack.
    let (mut nodes, mut links, mut flows) = (net.nodes, net.links, flows);
    nodes.shrink_to_fit();
    links.shrink_to_fit();
    flows.shrink_to_fit();
    Ok(Plan {
        name: s.name.clone(),
        duration,
        warmup,
        seed: s.seed.unwrap_or(super::schema::DEFAULT_SEED),
        sample_interval,
        sampled_flows,
        nodes,
        links,
        bottleneck,
        flows,
        routes,
        memory,
    })
}

/// The run's times, checked: its duration, warm-up, sample interval and number of samples.
struct RunTimes {
    duration: SimDuration,
    warmup: SimDuration,
    sample_interval: SimDuration,
    samples: u64,
}

/// `duration`, `warmup` and `sample_interval`, checked against one another.
fn run_times(s: &Scenario) -> Res<RunTimes> {
    let duration = s.duration.0;
    if duration == SimDuration::ZERO {
        return err("duration", "\"0s\" is empty; expected a duration > 0");
    }
    let warmup = s.warmup.map(|d| d.0).unwrap_or(SimDuration::ZERO);
    if warmup >= duration {
        return err("warmup", format!("{warmup} is not before the end of the run ({duration}); expected warmup < duration"));
    }
    let sample_interval = s.sample_interval.map(|d| d.0).unwrap_or(SimDuration::from_millis(100));
    if sample_interval == SimDuration::ZERO {
        return err("sample_interval", "\"0s\" is empty; expected a duration > 0");
    }
    let samples = duration.0 / sample_interval.0;
    if samples > 10_000_000 {
        return err("sample_interval", format!("{sample_interval} gives {samples} samples over {duration}; expected at most 10 million"));
    }
    Ok(RunTimes { duration, warmup, sample_interval, samples })
}

/// The nodes flows start or end at, each once, in the order the flows first name them.
fn flow_endpoints(flows: &[FlowPlan], nodes: usize) -> Vec<NodeId> {
    let mut endpoints = Vec::new();
    let mut seen = vec![false; nodes];
    for f in flows {
        for node in [f.src, f.dst] {
            if !std::mem::replace(&mut seen[node.idx()], true) {
                endpoints.push(node);
            }
        }
    }
    endpoints
}

/// Marks the links `pcap` names for a libpcap trace; an error for a name that is no link, or
/// two names whose traces would share a file.
fn mark_traced_links(pcap: &[String], links: &mut [LinkPlan]) -> Res<()> {
    let mut pcap_files: HashMap<String, usize> = HashMap::new();
    for (i, name) in pcap.iter().enumerate() {
        let file = pcap_file_name(name);
        if let Some(j) = pcap_files.insert(file.clone(), i) {
            return err(
                format!("pcap[{i}]"),
                format!("{name:?} would be saved as {file}, like pcap[{j}] {:?}; rename a node so that each trace has its own file", pcap[j]),
            );
        }
        match links.iter_mut().find(|l| &l.name == name) {
            Some(l) => l.pcap = true,
            None => {
                let names: Vec<&str> = links.iter().map(|l| l.name.as_str()).take(6).collect();
                let more = if links.len() > 6 { ", …" } else { "" };
                return err(format!("pcap[{i}]"), format!("{name:?} is not a link; expected a link name such as {}{more}", names.join(", ")));
            }
        }
    }
    Ok(())
}

#[derive(Default)]
struct Net {
    nodes: Vec<String>,
    links: Vec<LinkPlan>,
    static_routes: Vec<(NodeId, NodeId, LinkId, String)>,
}

impl Net {
    fn node(&mut self, name: String) -> NodeId {
        self.nodes.push(name);
        NodeId(self.nodes.len() as u32 - 1)
    }
    #[allow(clippy::too_many_arguments)]
    fn link(
        &mut self,
        from: NodeId,
        to: NodeId,
        rate: Rate,
        delay: SimDuration,
        queue: QueueConfig,
        loss: LossModel,
        monitor: bool,
        layer: LinkLayer,
    ) -> LinkId {
        let name = format!("{}->{}", self.nodes[from.idx()], self.nodes[to.idx()]);
        self.links.push(LinkPlan { name, from, to, rate, delay, queue, loss, monitor, layer, pcap: false });
        LinkId(self.links.len() as u32 - 1)
    }
}

/// A link's layer below IP — `framing` bytes and `device_queue` packets — at `path` (a
/// link's table); what a link does not say is what the scenario's stack profile counts
/// (nothing for the RFC profile).
fn resolve_layer(framing: &Option<Size>, device_queue: &Option<BufferSize>, path: &str, top: &TopTcp) -> Res<LinkLayer> {
    let framing = match framing {
        None => top.profile.link_framing(),
        Some(s) if s.0 .0 > 1000 => {
            return err(format!("{path}.framing"), format!("{} bytes is out of range; expected 0B to 1000B of link-layer framing per packet", s.0 .0))
        }
        Some(s) => s.0,
    };
    let device_queue_pkts = match device_queue {
        None => top.profile.device_queue_pkts(),
        Some(BufferSize(PacketsOrBytes::Packets(n))) if *n <= 1000 => *n,
        Some(BufferSize(PacketsOrBytes::Packets(n))) => {
            return err(format!("{path}.device_queue"), format!("{n}pkt is out of range; expected 0pkt to 1000pkt"))
        }
        Some(BufferSize(PacketsOrBytes::Bytes(b))) => {
            return err(format!("{path}.device_queue"), format!("{}B is in bytes; expected packets such as \"1pkt\"", b.0));
        }
    };
    Ok(LinkLayer { framing, device_queue_pkts })
}

fn override_access(base: &LinkSpec, o: &Option<AccessOverride>) -> (Rate, SimDuration) {
    let mut rate = base.rate.0;
    let mut delay = base.delay.0;
    if let Some(o) = o {
        if let Some(r) = o.rate {
            rate = r.0;
        }
        if let Some(d) = o.delay {
            delay = d.0;
        }
    }
    (rate, delay)
}

fn build_dumbbell(d: &Dumbbell, s: &Scenario, defaults: &TopTcp, net: &mut Net, flows: &mut Vec<FlowPlan>) -> Res<LinkId> {
    let base = "topology.dumbbell";
    let bq = resolve_queue(&d.bottleneck.queue, d.bottleneck.rate.0, defaults.profile, &format!("{base}.bottleneck.queue"))?;
    let bloss = resolve_loss(&d.bottleneck.loss, &format!("{base}.bottleneck.loss"))?;
    let (rev, rev_path, rloss) = match &d.reverse_bottleneck {
        Some(r) => (r, "reverse_bottleneck", resolve_loss(&r.loss, &format!("{base}.reverse_bottleneck.loss"))?),
        None => (&d.bottleneck, "bottleneck", LossModel::None),
    };
    let rq = resolve_queue(&rev.queue, rev.rate.0, defaults.profile, &format!("{base}.{rev_path}.queue"))?;
    let aloss = resolve_loss(&d.access.loss, &format!("{base}.access.loss"))?;
    let r1 = net.node("r1".into());
    let r2 = net.node("r2".into());
    let blayer = resolve_layer(&d.bottleneck.framing, &d.bottleneck.device_queue, &format!("{base}.bottleneck"), defaults)?;
    let rlayer = resolve_layer(&rev.framing, &rev.device_queue, &format!("{base}.{rev_path}"), defaults)?;
    let alayer = resolve_layer(&d.access.framing, &d.access.device_queue, &format!("{base}.access"), defaults)?;
    let bottleneck = net.link(r1, r2, d.bottleneck.rate.0, d.bottleneck.delay.0, bq, bloss, true, blayer);
    net.link(r2, r1, rev.rate.0, rev.delay.0, rq, rloss, false, rlayer);
    for (gi, g) in s.flows.iter().enumerate() {
        for field in [("src", &g.src), ("dst", &g.dst)] {
            if field.1.is_some() {
                return err(format!("flows[{gi}].{}", field.0), "applies only to explicit topologies; a dumbbell gives each flow its own sender and receiver");
            }
        }
        let common = group_common(g, gi, defaults, s.duration.0)?;
        for _ in 0..g.count.unwrap_or(1) {
            let i = flows.len();
            let src = net.node(format!("s{i}"));
            let dst = net.node(format!("d{i}"));
            let (sr, sd) = override_access(&d.access, &g.access);
            let (rr, rd) = override_access(&d.access, &g.receiver_access);
            // The rate matters to the queue only for RED's automatic parameters.
            let aq = |rate: Rate| resolve_queue(&d.access.queue, rate, defaults.profile, &format!("{base}.access.queue"));
            let (sq, rq) = (aq(sr)?, aq(rr)?);
            net.link(src, r1, sr, sd, sq.clone(), aloss.clone(), false, alayer);
            net.link(r1, src, sr, sd, sq, aloss.clone(), false, alayer);
            net.link(r2, dst, rr, rd, rq.clone(), aloss.clone(), false, alayer);
            net.link(dst, r2, rr, rd, rq, aloss.clone(), false, alayer);
            flows.push(FlowPlan { src, dst, ..common.clone() });
        }
    }
    Ok(bottleneck)
}

/// The file a link's pcap trace is saved as: `r1->r2` → `r1-r2.pcap` (`/` → `_`). The Python
/// front saves under the same name (`aimdlab.result.pcap_file_name`); two links that map to one
/// file are refused here.
pub fn pcap_file_name(link: &str) -> String {
    format!("{}.pcap", link.replace("->", "-").replace('/', "_"))
}

fn build_explicit(e: &Explicit, s: &Scenario, defaults: &TopTcp, net: &mut Net, flows: &mut Vec<FlowPlan>) -> Res<Option<LinkId>> {
    let base = "topology.explicit";
    let mut by_name: HashMap<&str, NodeId> = HashMap::new();
    for (i, n) in e.nodes.iter().enumerate() {
        if n.is_empty() {
            return err(format!("{base}.nodes[{i}]"), "is empty; expected a node name");
        }
        if n.chars().any(char::is_control) {
            return err(format!("{base}.nodes[{i}]"), format!("{n:?} holds a control character; expected printable text (it names files such as pcap traces)"));
        }
        if by_name.contains_key(n.as_str()) {
            return err(format!("{base}.nodes[{i}]"), format!("{n:?} is listed twice; expected unique names"));
        }
        by_name.insert(n, net.node(n.clone()));
    }
    let lookup = |name: &str, path: String| -> Res<NodeId> {
        by_name.get(name).copied().ok_or_else(|| {
            let mut known: Vec<&str> = e.nodes.iter().map(|s| s.as_str()).collect();
            known.truncate(20);
            ScenarioError::new(path, format!("{name:?} is not a node; expected one of {known:?}"))
        })
    };
    let mut bottleneck = None;
    for (i, l) in e.links.iter().enumerate() {
        let p = format!("{base}.links[{i}]");
        let from = lookup(&l.from, format!("{p}.from"))?;
        let to = lookup(&l.to, format!("{p}.to"))?;
        if from == to {
            return err(format!("{p}.to"), format!("{:?} is the same node as from; expected a link between two nodes", l.to));
        }
        let q = resolve_queue(&l.queue, l.rate.0, defaults.profile, &format!("{p}.queue"))?;
        let loss = resolve_loss(&l.loss, &format!("{p}.loss"))?;
        let layer = resolve_layer(&l.framing, &l.device_queue, &p, defaults)?;
        let id = net.link(from, to, l.rate.0, l.delay.0, q.clone(), loss, l.monitor, layer);
        if l.monitor && bottleneck.is_none() {
            bottleneck = Some(id);
        }
        if l.duplex.unwrap_or(true) {
            net.link(to, from, l.rate.0, l.delay.0, q, LossModel::None, false, layer);
        }
    }
    for (i, r) in e.routes.iter().enumerate() {
        let p = format!("{base}.routes[{i}]");
        let node = lookup(&r.node, format!("{p}.node"))?;
        let dst = lookup(&r.dst, format!("{p}.dst"))?;
        let via = lookup(&r.via, format!("{p}.via"))?;
        let Some(link) = net.links.iter().position(|l| l.from == node && l.to == via) else {
            return err(format!("{p}.via"), format!("{:?} is not linked from {:?}; expected a neighbour of the node", r.via, r.node));
        };
        net.static_routes.push((node, dst, LinkId(link as u32), p));
    }
    for (gi, g) in s.flows.iter().enumerate() {
        let p = format!("flows[{gi}]");
        for field in [("access", g.access.is_some()), ("receiver_access", g.receiver_access.is_some())] {
            if field.1 {
                return err(format!("{p}.{}", field.0), "applies only to the dumbbell; in an explicit topology set the links");
            }
        }
        let src = match &g.src {
            Some(n) => lookup(n, format!("{p}.src"))?,
            None => return err(format!("{p}.src"), "is missing; a flow of an explicit topology needs a sender node"),
        };
        let dst = match &g.dst {
            Some(n) => lookup(n, format!("{p}.dst"))?,
            None => return err(format!("{p}.dst"), "is missing; a flow of an explicit topology needs a receiver node"),
        };
        if src == dst {
            return err(format!("{p}.dst"), "is the same node as src; expected a different node");
        }
        let common = group_common(g, gi, defaults, s.duration.0)?;
        for _ in 0..g.count.unwrap_or(1) {
            flows.push(FlowPlan { src, dst, ..common.clone() });
        }
    }
    Ok(bottleneck)
}

/// Checks that every flow's data and ACK paths exist and are loop-free.
fn check_routes(net: &Net, routes: &routing::Routes, topo: &Topology, flows: &[FlowPlan]) -> Res<()> {
    let n = net.nodes.len();
    let path_prefix = match topo {
        Topology::Dumbbell(_) => "topology.dumbbell",
        Topology::Explicit(_) => "topology.explicit",
    };
    for (fi, f) in flows.iter().enumerate() {
        for (a, b) in [(f.src, f.dst), (f.dst, f.src)] {
            let mut at = a;
            let mut hops = 0;
            while at != b {
                let Some(l) = routes.next_link(at, b) else {
                    return err(
                        format!("{path_prefix}.links"),
                        format!("flow {fi}: no route from {:?} to {:?}; expected links connecting them", net.nodes[a.idx()], net.nodes[b.idx()]),
                    );
                };
                at = net.links[l.idx()].to;
                hops += 1;
                // Shortest-path routes never loop, but a node with one outgoing link forwards
                // on it even when the destination is unreachable: without static routes a
                // loop means there is no route.
                if hops > n && net.static_routes.is_empty() {
                    return err(
                        format!("{path_prefix}.links"),
                        format!("flow {fi}: no route from {:?} to {:?}; expected links connecting them", net.nodes[a.idx()], net.nodes[b.idx()]),
                    );
                }
                if hops > n {
                    return err(
                        format!("{path_prefix}.routes"),
                        format!(
                            "flow {fi}: the route from {:?} to {:?} loops or does not exist; check the links and static routes",
                            net.nodes[a.idx()],
                            net.nodes[b.idx()]
                        ),
                    );
                }
            }
        }
    }
    Ok(())
}

/// The flows a choice of flows (`field`: `sampled_flows`, `cwnd_trace`) names, in increasing
/// order; `all_by_default` says what an absent field means.
fn resolve_flow_choice(field: &str, spec: Option<&SampledFlows>, n_flows: usize, all_by_default: bool) -> Res<Vec<FlowId>> {
    let all = || (0..n_flows as u32).map(FlowId).collect();
    match spec {
        None if all_by_default => Ok(all()),
        None => Ok(Vec::new()),
        Some(SampledFlows::Named(name)) => match name.as_str() {
            "all" => Ok(all()),
            "none" => Ok(Vec::new()),
            other => err(field, format!("{other:?} is not accepted; expected \"all\", \"none\" or a list of flow indices")),
        },
        Some(SampledFlows::List(list)) => {
            let mut ids = Vec::with_capacity(list.len());
            for (i, &f) in list.iter().enumerate() {
                if f >= n_flows as u64 {
                    return err(format!("{field}[{i}]"), format!("{f} is not a flow; expected an index below {n_flows} (the run has {n_flows} flows)"));
                }
                ids.push(FlowId(f as u32));
            }
            ids.sort_unstable();
            ids.dedup();
            Ok(ids)
        }
    }
}
