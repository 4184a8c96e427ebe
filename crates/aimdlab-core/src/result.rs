//! What a run produces: a summary (JSON) and columnar tables of flows, links and time series.
//!
//! Definitions (all over the measurement window `[warmup, duration]`, a flow's own window
//! starting no earlier than its start time):
//! - `goodput_bps`: payload of original data received, each segment counted once at its first
//!   arrival (no headers, no duplicate copies), bits per second. Counting at first arrival
//!   rather than at in-order delivery keeps goodput ≤ throughput in any window; the two differ
//!   only by the time a segment waits in the reordering buffer.
//! - `throughput_bps`: wire bytes of every data packet that reached the receiver (headers and
//!   retransmissions included), bits per second.
//! - `send_rate_bps`: wire bytes of every data packet the sender handed to the network.
//! - `utilization`: fraction of the window a link's serializer was busy.
//!
//! The summary's `scopes` names which of its figures cover the window (`bottleneck`, goodput,
//! `jain_index`, `retransmitted_pkts`, `timeouts`) and which the whole run (`packets`, the
//! conservation counters, and `events`).

use crate::flow::Flow;
use crate::monitor::columns::{flow_columns, flows_table, link_columns, links_table, FlowRow, LinkRow};
use crate::monitor::fair_share;
use crate::monitor::table::{Column, Table};
use crate::monitor::timeseries::{FlowSeries, LinkSeries};
use crate::monitor::unit::{column_doc, ColumnDoc, Unit};
use crate::net::link::Link;
use crate::net::pcap::{self, FlowWire};
use crate::scenario::Plan;
use crate::transport::interface::TransportSender;
use crate::units::SimTime;
use serde_json::{json, Value};

/// The outcome of one run.
#[derive(Clone, Debug)]
pub struct RunResult {
    /// Headline figures (deterministic: same scenario and seed, same JSON).
    pub summary: Value,
    /// One row per flow.
    pub flows: Table,
    /// One row per link.
    pub links: Table,
    /// One row per flow per sample.
    pub timeseries: Table,
    /// One row per monitored link per sample.
    pub link_timeseries: Table,
    /// One row per change of a traced flow's cwnd or ssthresh (`cwnd_trace`).
    pub cwnd_trace: Table,
    /// libpcap files of the traced links (`pcap`): link name and file bytes.
    pub pcaps: Vec<(String, Vec<u8>)>,
}

/// Jain's fairness index (Σx)² / (n·Σx²) of the finite values in `xs` (NaN if none).
pub fn jain_index(xs: &[f64]) -> f64 {
    let v: Vec<f64> = xs.iter().copied().filter(|x| x.is_finite()).collect();
    let sum: f64 = v.iter().sum();
    let sq: f64 = v.iter().map(|x| x * x).sum();
    if v.is_empty() || sq == 0.0 {
        f64::NAN
    } else {
        sum * sum / (v.len() as f64 * sq)
    }
}

/// Each flow's max-min fair share over its data path (`fair_share.rs`), bits/s.
fn fair_shares_bps(plan: &crate::scenario::Plan) -> Vec<f64> {
    let link_to: Vec<_> = plan.links.iter().map(|l| l.to).collect();
    let paths: Vec<Vec<usize>> = plan.flows.iter().map(|fp| fair_share::data_path(&plan.routes, &link_to, fp.src, fp.dst)).collect();
    let rates: Vec<f64> = plan.links.iter().map(|l| l.rate.bps as f64).collect();
    fair_share::max_min_shares_bps(&paths, &rates)
}

/// The run's headline figures, from its flows and links tables and its whole-run counters.
fn summary(run: &RunParts, flows: &Table, links: &Table) -> Value {
    let plan = &run.plan;
    let n = run.flows.len();
    let goodputs: Vec<f64> = match flows.get("goodput_bps") {
        Some(Column::F64(v)) => v.clone(),
        _ => unreachable!("the flows table declares goodput_bps"),
    };
    // The aggregate: every flow's payload delivered in the window over the window's length.
    // (Not the sum of the flows' goodputs: each of those is over the flow's own part of the
    // window, so a late or short flow's rate would count as if it had lasted it all, and the
    // sum could exceed the bottleneck's rate.)
    let delivered_bytes = match flows.get("delivered_bytes") {
        Some(Column::U64(v)) => v.iter().sum::<u64>(),
        _ => unreachable!("the flows table declares delivered_bytes"),
    };
    let window_s = (plan.duration.as_secs_f64() - plan.warmup.as_secs_f64()).max(f64::MIN_POSITIVE);
    let total_goodput = delivered_bytes as f64 * 8.0 / window_s;
    let mean_goodput = goodputs.iter().filter(|x| x.is_finite()).sum::<f64>() / n as f64;
    let bottleneck = plan.bottleneck.map(|b| bottleneck_summary(links, b.idx()));
    let in_flight: u64 = run.links.iter().map(|l| l.packets_held()).sum();
    let sum_u = |name: &str| match flows.get(name) {
        Some(Column::U64(v)) => v.iter().sum::<u64>(),
        _ => 0,
    };
    json!({
        "name": plan.name,
        "seed": run.seed,
        "duration_s": plan.duration.as_secs_f64(),
        "warmup_s": plan.warmup.as_secs_f64(),
        "flows": n,
        "bottleneck": bottleneck.unwrap_or(Value::Null),
        "goodput_total_bps": total_goodput,
        "goodput_mean_bps": finite_or_null(mean_goodput),
        "jain_index": finite_or_null(jain_index(&goodputs)),
        "retransmitted_pkts": sum_u("retransmitted_pkts"),
        "timeouts": sum_u("timeouts"),
        "packets": {
            "sent": run.packets_sent,
            "delivered": run.packets_delivered,
            "dropped": run.links.iter().map(|l| l.stats.log.dropped()).sum::<u64>(),
            "in_flight": in_flight,
        },
        "events": run.events_processed,
        // Which figures cover which time: the measurement window, or the whole run (what the
        // conservation check needs: every packet ever sent is delivered, dropped or in flight).
        "scopes": {
            "window": ["bottleneck", "goodput_total_bps", "goodput_mean_bps", "jain_index", "retransmitted_pkts", "timeouts"],
            "whole_run": ["packets", "events"],
        },
    })
}

/// The summary's numbers, each with its unit and meaning; `bottleneck.X` repeats the links
/// table's column X (`BOTTLENECK_COLUMNS`) for the bottleneck.
pub fn summary_docs() -> Vec<(String, Unit, &'static str)> {
    let own = [
        ("seed", Unit::Index, "the seed the engine used"),
        ("duration_s", Unit::Seconds, "the run's simulated length"),
        ("warmup_s", Unit::Seconds, "the warm-up left out of the window's figures"),
        ("flows", Unit::Count, "flows in the run"),
        ("goodput_total_bps", Unit::BitsPerSecond, "payload every flow delivered in the window, per second of the window"),
        ("goodput_mean_bps", Unit::BitsPerSecond, "mean of the flows' goodput_bps"),
        ("jain_index", Unit::Fraction, "Jain's fairness index of the flows' goodput_bps"),
        ("retransmitted_pkts", Unit::Packets, "retransmitted data packets, every flow"),
        ("timeouts", Unit::Count, "retransmission timeouts, every flow"),
        ("packets.sent", Unit::Packets, "packets every host sent over the whole run"),
        ("packets.delivered", Unit::Packets, "packets that reached their destination over the whole run"),
        ("packets.dropped", Unit::Packets, "packets dropped over the whole run"),
        ("packets.in_flight", Unit::Packets, "packets still held by a link at the end"),
        ("events", Unit::Count, "events the engine processed"),
    ];
    let links = crate::monitor::columns::link_columns();
    let bottleneck = BOTTLENECK_COLUMNS.iter().map(|&name| {
        let c = links.iter().find(|c| c.name == name).expect("the links table declares each bottleneck column");
        (format!("bottleneck.{name}"), c.unit, c.doc)
    });
    own.into_iter().map(|(n, u, d)| (n.to_string(), u, d)).chain(bottleneck).collect()
}

/// Every declared column, the summary's numbers included: (table, name, unit, description,
/// low, high).
pub fn column_docs() -> Vec<ColumnDoc> {
    let flows = crate::monitor::columns::flow_columns().into_iter().map(|c| column_doc("flows", c.name, c.unit, c.doc));
    let links = crate::monitor::columns::link_columns().into_iter().map(|c| column_doc("links", c.name, c.unit, c.doc));
    let series = crate::monitor::timeseries::flow_series_docs().into_iter().map(|(n, u, d)| column_doc("timeseries", n, u, d));
    let link_series = crate::monitor::timeseries::link_series_docs().into_iter().map(|(n, u, d)| column_doc("link_timeseries", n, u, d));
    let cwnd_trace = crate::monitor::cwnd_trace_table::CWND_TRACE_COLUMNS.iter().map(|&(n, u, d)| column_doc("cwnd_trace", n, u, d));
    let summary = summary_docs().into_iter().map(|(n, u, d)| column_doc("summary", n, u, d));
    flows.chain(links).chain(series).chain(link_series).chain(cwnd_trace).chain(summary).collect()
}

/// The columns of the links table that the summary's `bottleneck` repeats, the link's `name`
/// as `link`: the headline figures of the link most flows share.
const BOTTLENECK_COLUMNS: &[&str] = &[
    "rate_bps",
    "utilization",
    "drops",
    "drops_overflow",
    "drops_early",
    "drops_forced",
    "drops_error",
    "ecn_marks",
    "tx_pkts",
    "queue_mean_pkts",
    "queue_max_pkts",
    "qdelay_mean_ms",
    "qdelay_p99_ms",
];

/// The summary's `bottleneck`: row `row` of the links table, its `BOTTLENECK_COLUMNS` (a
/// number that is not finite as null).
fn bottleneck_summary(links: &Table, row: usize) -> Value {
    let mut out = serde_json::Map::new();
    if let Some(Column::Str(names)) = links.get("name") {
        out.insert("link".into(), Value::from(names[row].clone()));
    }
    for &name in BOTTLENECK_COLUMNS {
        let value = match links.get(name) {
            Some(Column::U64(v)) => Value::from(v[row]),
            Some(Column::F64(v)) => finite_or_null(v[row]),
            _ => unreachable!("the links table declares {name} as a number"),
        };
        out.insert(name.into(), value);
    }
    Value::Object(out)
}

fn finite_or_null(x: f64) -> Value {
    if x.is_finite() {
        json!(x)
    } else {
        Value::Null
    }
}

/// What a finished run hands to the result builder: its plan, its parts and its run totals.
pub struct RunParts {
    /// The plan that ran.
    pub plan: Plan,
    /// The seed the engine used.
    pub seed: u64,
    /// The end of the run.
    pub end: SimTime,
    /// The start of the measurement window (the end of the warm-up).
    pub window_start: SimTime,
    /// Every link, with its statistics.
    pub links: Vec<Link>,
    /// Every flow, with its endpoints' statistics.
    pub flows: Vec<Flow>,
    /// The per-flow time series.
    pub flow_series: FlowSeries,
    /// The per-link time series.
    pub link_series: LinkSeries,
    /// Packets sent by every host over the run.
    pub packets_sent: u64,
    /// Packets that reached their destination host over the run.
    pub packets_delivered: u64,
    /// Events the engine processed.
    pub events_processed: u64,
}

/// Builds the tables and the summary of a finished run.
pub(crate) fn collect(mut run: RunParts) -> RunResult {
    let end = run.end;
    let plan = &run.plan;

    let ws = run.window_start;
    let shares = fair_shares_bps(plan);
    let flow_rows: Vec<FlowRow> = run
        .flows
        .iter()
        .zip(&plan.flows)
        .zip(&shares)
        .map(|((flow, fp), &fair_share_bps)| FlowRow { flow, plan: fp, nodes: &plan.nodes, window_start: ws, end, fair_share_bps })
        .collect();
    let flows = flows_table(&flow_columns(), &flow_rows);

    // Links.
    let qmean: Vec<f64> = run.links.iter_mut().map(|l| l.mean_queue_pkts(end)).collect();
    let link_rows: Vec<LinkRow> = run
        .links
        .iter()
        .zip(&plan.links)
        .enumerate()
        .map(|(index, (link, lp))| LinkRow { link, plan: lp, index, end, queue_mean_pkts: qmean[index] })
        .collect();
    let links = links_table(&link_columns(), &link_rows);

    let summary = summary(&run, &flows, &links);

    let wires: Vec<FlowWire> = plan.flows.iter().map(|f| f.transport.wire(f.settings())).collect();
    let pcaps = run.links.iter().zip(&plan.links).filter_map(|(l, lp)| l.capture().map(|c| (lp.name.clone(), pcap::write(c, &wires)))).collect();

    let cwnd_trace = crate::monitor::cwnd_trace_table::table(run.flows.iter().filter_map(|f| f.sender.cwnd_trace().map(|t| (f.id.0 as u64, t))));

    RunResult {
        pcaps,
        cwnd_trace,
        summary,
        flows,
        links,
        timeseries: std::mem::take(&mut run.flow_series).into_table(),
        link_timeseries: std::mem::take(&mut run.link_series).into_table(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jain_index_bounds() {
        assert_eq!(jain_index(&[1.0, 1.0, 1.0]), 1.0);
        assert!((jain_index(&[1.0, 0.0, 0.0, 0.0]) - 0.25).abs() < 1e-12);
        assert!(jain_index(&[]).is_nan());
    }
}
