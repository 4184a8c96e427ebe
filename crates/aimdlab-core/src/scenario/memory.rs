//! How much memory a run will take, estimated from the resolved scenario before anything big
//! is built, so that a scenario too large for the machine is refused with an error naming
//! the field that drives it instead of aborting the process when an allocation fails.
//!
//! The estimate counts what grows with the scenario's size — per-flow and per-link state
//! (sizes taken from the engine's own types), the routing table, preallocated queue and
//! propagation buffers, time-series rows and their copy handed to the caller, link and
//! congestion-window traces —
//! as address space (allocated, touched or not), which is what a memory cap such as
//! `ulimit -v` sees.
//! It does not count packets queued beyond what a queue preallocates, which the queue limits
//! bound. `tests/test_memory.py` holds it against measured peak memory.

use super::memory_estimate::{MemoryEstimate, MemoryPart, FIXED_BYTES};
use super::plan::{FlowPlan, LinkPlan};
use crate::delay_histogram::DelayHistogram;
use crate::flow::Flow;
use crate::net::link::Link;
use crate::net::packet::Packet;
use crate::net::queue::QueueConfig;
use crate::units::SimDuration;

use std::mem::size_of;

/// Controller state columns assumed per time-series row beyond the eight fixed ones
/// (MR-AIMD records two, CUBIC one; a Python controller's `state()` may record more).
const STATE_COLUMNS: u64 = 4;

/// Bytes of one propagation-pipe entry: the arrival time and the packet's pool slot.
const PIPE_ENTRY_BYTES: u64 = 16;

/// Entries a ring (a queue FIFO or a propagation pipe) holds once it has held one: the
/// standard ring's smallest allocation. Rings allocate nothing before their first packet and
/// grow on demand.
const FIRST_RING_ENTRIES: u64 = 4;

/// Copies of the time series alive at the end of a run: the engine's columns (a growing
/// vector may hold up to twice its length) plus the copy handed to the caller.
const SERIES_COPIES: u64 = 3;

/// Bytes a queue allocates: its FIFO's first ring (at its first packet), and what a
/// discipline keeps beside it (FQ-CoDel's flow queues).
fn queue_bytes(q: &QueueConfig, flows: u64) -> u64 {
    let ring = (q.limit_pkts() + 1).min(FIRST_RING_ENTRIES) * size_of::<Packet>() as u64;
    ring + q.extra_bytes(flows)
}

/// Bytes a link's device queue allocates (`device_queue`): its box and its first ring.
fn device_queue_bytes(pkts: u64) -> u64 {
    if pkts == 0 {
        return 0;
    }
    size_of::<crate::net::link_layer::DeviceQueue>() as u64 + 16 + pkts.min(FIRST_RING_ENTRIES) * size_of::<Packet>() as u64
}

/// Packets the network holds at most, roughly: rings grow on demand, and what fills them is
/// the flows' windows, which the bottleneck bounds (its buffer plus its bandwidth × twice its
/// delay, with 1000-byte packets) — twice that for a slow-start overshoot. The monitored
/// links are taken as the bottlenecks; without any, every queue is taken as full.
fn packets_held(links: &[LinkPlan]) -> u64 {
    let bottleneck = |l: &LinkPlan| l.queue.limit_pkts() + (l.rate.bps as f64 * 2.0 * l.delay.as_secs_f64() / 8000.0) as u64;
    let monitored: u64 = links.iter().filter(|l| l.monitor).map(bottleneck).sum();
    if monitored > 0 {
        2 * monitored
    } else {
        links.iter().map(bottleneck).sum()
    }
}

/// Bytes per packet a link trace (`pcap`) takes at its peak, when its file is written: the
/// captured packet and its time (twice, for a growing vector) and its libpcap record (at
/// most 16 + 20 + 60 header bytes). The caller's copy of the file is made after the capture
/// is freed, and is smaller.
fn pcap_bytes_per_packet() -> u64 {
    2 * size_of::<(crate::units::SimTime, Packet)>() as u64 + 96
}

/// Packets of `bytes` each that a link of `bps` carries over `duration`.
fn packets_in(bps: u64, duration: SimDuration, bytes: u64) -> u64 {
    (bps as f64 * duration.as_secs_f64() / (8.0 * bytes.max(1) as f64)) as u64
}

/// Packets a traced link can carry over `duration`: its rate filled with the smallest data
/// packet of any flow (a link of ACKs carries no more packets than the data it answers).
/// Sources of packets smaller than their flow's segment size (VoIP frames) can exceed it.
fn pcap_packets(links: &[LinkPlan], flows: &[FlowPlan], duration: SimDuration) -> u64 {
    let smallest = flows.iter().map(FlowPlan::data_packet_bytes).min().unwrap_or(1500);
    links.iter().filter(|l| l.pcap).map(|l| packets_in(l.rate.bps, duration, smallest)).sum()
}

/// Rows the congestion-window traces (`cwnd_trace`) can hold: at most one per acknowledgement
/// or congestion event, so no more than the data packets the traced flows can send — each
/// flow's fastest link filled with its smallest packets; on a dumbbell, where every flow
/// crosses the bottleneck, no more than the bottleneck carries.
fn cwnd_trace_rows(links: &[LinkPlan], flows: &[FlowPlan], duration: SimDuration, dumbbell: bool) -> u64 {
    let traced_packet_bytes = || flows.iter().filter(|f| f.cwnd_trace).map(FlowPlan::data_packet_bytes);
    let fastest = links.iter().map(|l| l.rate.bps).max().unwrap_or(0);
    let rows = traced_packet_bytes().map(|b| packets_in(fastest, duration, b)).fold(0, u64::saturating_add);
    let bottleneck = links.iter().filter(|l| l.monitor).map(|l| l.rate.bps).max();
    match (dumbbell, bottleneck, traced_packet_bytes().min()) {
        (true, Some(bps), Some(smallest)) => rows.min(packets_in(bps, duration, smallest)),
        _ => rows,
    }
}

/// Estimates the memory of a run of `flows` over `links` with `nodes` nodes and a routing
/// table of `route_shape` = (rows, columns), sampling `samples` times the series of
/// `sampled_flows` flows, for `duration`; `topology` is the field
/// path of the topology (`topology.dumbbell` or `topology.explicit`).
#[allow(clippy::too_many_arguments)]
pub fn estimate(
    nodes: u64,
    links: &[LinkPlan],
    flows: &[FlowPlan],
    sampled_flows: u64,
    route_shape: (u64, u64),
    samples: u64,
    duration: SimDuration,
    topology: &str,
) -> MemoryEstimate {
    let n_flows = flows.len() as u64;
    let n_links = links.len() as u64;
    // A delay histogram holds 512 bytes per octave its samples span: assume 16 octaves (1 µs
    // to 65 ms of queuing, or of one-way delay variation).
    let histogram = 16 * DelayHistogram::OCTAVE_BYTES as u64;
    let packet = size_of::<Packet>() as u64;
    // The plan moves into the simulator: one copy (and a link's name).
    let plan_flow = size_of::<FlowPlan>() as u64 + 16;
    let plan_link = size_of::<LinkPlan>() as u64 + 32;
    // A flow: its struct, delay histogram, scoreboard, out-of-order list, a few events.
    let flow = size_of::<Flow>() as u64 + histogram + 64 + 16 * 16 + 4 * 16 + plan_flow;
    // A link: its struct, queuing-delay histogram, propagation pipe's first ring of
    // (arrival, slot) entries.
    let link = size_of::<Link>() as u64 + histogram + FIRST_RING_ENTRIES * PIPE_ENTRY_BYTES + 2 * 16 + plan_link;
    // Rings at first use, and the packets they grow to hold (a ring may be twice its
    // contents; a packet on a wire also holds a pipe entry and a pool slot).
    let queues: u64 = links.iter().map(|l| queue_bytes(&l.queue, n_flows) + device_queue_bytes(l.layer.device_queue_pkts)).sum::<u64>()
        + 2 * packets_held(links) * (packet + PIPE_ENTRY_BYTES);
    // The routes (kept in the plan, which moves into the simulator).
    let routing = crate::net::routing::heap_bytes(nodes as usize, route_shape.0 as usize, route_shape.1 as usize) as u64;
    let monitored = links.iter().filter(|l| l.monitor).count() as u64;
    let flow_series = samples * sampled_flows * (8 + STATE_COLUMNS) * 8 * SERIES_COPIES;
    let link_series = samples * monitored * 8 * 8 * SERIES_COPIES;
    let mut parts = vec![
        MemoryPart { what: "per-flow state", field: "flows".into(), bytes: n_flows * flow },
        MemoryPart { what: "per-link state", field: topology.into(), bytes: n_links * link },
        MemoryPart { what: "queue buffers and packets", field: topology.into(), bytes: queues },
        MemoryPart { what: "routing table", field: if topology.ends_with("dumbbell") { "flows".into() } else { topology.into() }, bytes: routing },
        MemoryPart { what: "time series", field: "sample_interval".into(), bytes: flow_series + link_series },
        MemoryPart { what: "engine and results (fixed)", field: String::new(), bytes: FIXED_BYTES },
    ];
    let cwnd_rows = cwnd_trace_rows(links, flows, duration, topology.ends_with("dumbbell"));
    if cwnd_rows > 0 {
        let bytes = cwnd_rows.saturating_mul(crate::transport::cwnd_trace::CwndTrace::ROW_BYTES_PEAK);
        parts.push(MemoryPart { what: "congestion-window traces", field: "cwnd_trace".into(), bytes });
    }
    // What applications' configurations hold, once per group (its flows share it): a trace's frames.
    let mut held = 0u64;
    for (i, f) in flows.iter().enumerate() {
        if i == 0 || flows[i - 1].group != f.group {
            held = held.saturating_add(f.app.held_bytes());
        }
    }
    if held > 0 {
        parts.push(MemoryPart { what: "trace files' frames", field: "flows".into(), bytes: held });
    }
    // Data packets `tcp.send_jitter` holds back before they leave the host: what a self-paced
    // source over UDP offers within one jitter width (TCP and DCCP are held by their window).
    let entry = 2.0 * size_of::<(crate::units::SimTime, Packet)>() as f64; // (a ring may be twice its contents)
    let jitter_bytes: f64 = flows
        .iter()
        .filter(|f| f.tcp.send_jitter > SimDuration::ZERO && !f.transport.self_clocked())
        .filter_map(|f| f.app.peak_bps().map(|bps| (bps / 8.0 / f.tcp.mss.0.max(1) as f64 * f.tcp.send_jitter.as_secs_f64()).ceil() + 1.0))
        .map(|pkts| pkts * entry)
        .sum();
    if jitter_bytes > 0.0 {
        parts.push(MemoryPart { what: "packets held by send jitter", field: "tcp.send_jitter".into(), bytes: jitter_bytes.min(u64::MAX as f64) as u64 });
    }
    let traced = pcap_packets(links, flows, duration);
    if traced > 0 {
        parts.push(MemoryPart { what: "link traces", field: "pcap".into(), bytes: traced.saturating_mul(pcap_bytes_per_packet()) });
    }
    parts.sort_by_key(|p| std::cmp::Reverse(p.bytes));
    MemoryEstimate { parts }
}
