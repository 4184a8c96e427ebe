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

use crate::flow::Flow;
use crate::monitor::table::{Column, Table};
use crate::monitor::timeseries::{FlowSeries, LinkSeries};
use crate::net::link::Link;
use crate::scenario::Plan;
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

fn rate_bps(bytes: u64, from: SimTime, to: SimTime) -> f64 {
    let span = to.saturating_since(from).as_secs_f64();
    if span <= 0.0 {
        f64::NAN
    } else {
        bytes as f64 * 8.0 / span
    }
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

    let mut flows = Table::default();
    let n = run.flows.len();
    let mut cols_f: Vec<(&str, Vec<f64>)> = Vec::new();
    let mut cols_u: Vec<(&str, Vec<u64>)> = Vec::new();
    macro_rules! fcol {
        ($name:expr, $f:expr) => {
            cols_f.push(($name, run.flows.iter().map($f).collect()));
        };
    }
    let ws = run.window_start;
    fcol!("start_s", |f| f.start_at.as_secs_f64());
    fcol!("goodput_bps", |f| rate_bps(f.stats.window_delivered_bytes(), ws.max(f.start_at), end));
    fcol!("throughput_bps", |f| rate_bps(f.stats.window_received_bytes(), ws.max(f.start_at), end));
    fcol!("send_rate_bps", |f| rate_bps(f.sender.stats().data_bytes_sent, ws.max(f.start_at), end));
    fcol!("completion_time_s", |f| f.stats.completed_at.map_or(f64::NAN, |t| t.saturating_since(f.start_at).as_secs_f64()));
    let rtt = |f: &Flow| f.sender.rtt().map_or((f64::NAN, f64::NAN, f64::NAN), |r| r.window_stats_ms());
    fcol!("rtt_mean_ms", |f| rtt(f).0);
    fcol!("rtt_min_ms", |f| rtt(f).1);
    fcol!("rtt_max_ms", |f| rtt(f).2);
    fcol!("delay_mean_ms", |f| f.stats.one_way_delay.mean_ms());
    fcol!("delay_p50_ms", |f| f.stats.one_way_delay.quantile_ms(0.5));
    fcol!("delay_p95_ms", |f| f.stats.one_way_delay.quantile_ms(0.95));
    fcol!("delay_p99_ms", |f| f.stats.one_way_delay.quantile_ms(0.99));
    fcol!("delay_max_ms", |f| f.stats.one_way_delay.max_ms());
    fcol!("jitter_ms", |f| f.stats.jitter_ms());
    use crate::cc::CongestionControl;
    fcol!("rto_first_mean_ms", |f| { f.sender.stats().rto_first_mean_ms() });
    fcol!("loss_event_rate", |f| f.sender.stats().loss_event_rate());
    fcol!("ecn_event_rate", |f| f.sender.stats().ecn_event_rate());
    fcol!("cwnd_final_pkts", |f| f.sender.controller().map_or(f64::NAN, |c| c.cwnd_pkts()));
    macro_rules! ucol {
        ($name:expr, $f:expr) => {
            cols_u.push(($name, run.flows.iter().map($f).collect()));
        };
    }
    ucol!("delivered_bytes", |f| f.stats.window_delivered_bytes());
    ucol!("received_pkts", |f| f.stats.window_received_pkts());
    ucol!("data_pkts_sent", |f| f.sender.stats().data_pkts_sent);
    ucol!("bytes_sent", |f| f.sender.stats().data_bytes_sent);
    ucol!("retransmitted_pkts", |f| f.sender.stats().retransmitted_pkts);
    ucol!("fast_retransmits", |f| f.sender.stats().fast_retransmits);
    ucol!("timeouts", |f| f.sender.stats().timeouts);
    ucol!("timeout_sequences", |f| f.sender.stats().timeout_sequences);
    ucol!("ecn_reductions", |f| f.sender.stats().ecn_reductions);
    ucol!("loss_events", |f| f.sender.stats().loss_events());

    flows.push("flow", Column::U64((0..n as u64).collect()));
    flows.push("group", Column::U64(plan.flows.iter().map(|f| f.group as u64).collect()));
    flows.push("group_name", Column::Str(plan.flows.iter().map(|f| f.group_name.clone()).collect()));
    flows.push("cc", Column::Str(run.flows.iter().map(|f| f.sender.controller().map_or("udp", |c| c.name()).to_string()).collect()));
    flows.push("src", Column::Str(plan.flows.iter().map(|f| plan.nodes[f.src.idx()].clone()).collect()));
    flows.push("dst", Column::Str(plan.flows.iter().map(|f| plan.nodes[f.dst.idx()].clone()).collect()));
    for (name, v) in cols_f {
        flows.push(name, Column::F64(v));
    }
    for (name, v) in cols_u {
        flows.push(name, Column::U64(v));
    }

    // Links.
    let mut links = Table::default();
    let nl = run.links.len();
    let util: Vec<f64> = run.links.iter().map(|l| l.utilization(end)).collect();
    let qmean: Vec<f64> = run.links.iter_mut().map(|l| l.mean_queue_pkts(end)).collect();
    links.push("link", Column::U64((0..nl as u64).collect()));
    links.push("name", Column::Str(plan.links.iter().map(|l| l.name.clone()).collect()));
    links.push("rate_bps", Column::U64(plan.links.iter().map(|l| l.rate.bps).collect()));
    links.push("delay_ms", Column::F64(plan.links.iter().map(|l| l.delay.as_millis_f64()).collect()));
    links.push("tx_pkts", Column::U64(run.links.iter().map(|l| l.stats.window_tx_pkts()).collect()));
    links.push("tx_bytes", Column::U64(run.links.iter().map(|l| l.stats.window_tx_bytes()).collect()));
    links.push("drops", Column::U64(run.links.iter().map(|l| l.stats.window_log().dropped()).collect()));
    links.push("drops_overflow", Column::U64(run.links.iter().map(|l| l.stats.window_log().overflow).collect()));
    links.push("drops_early", Column::U64(run.links.iter().map(|l| l.stats.window_log().early).collect()));
    links.push("drops_forced", Column::U64(run.links.iter().map(|l| l.stats.window_log().forced).collect()));
    links.push("drops_error", Column::U64(run.links.iter().map(|l| l.stats.window_log().link_error).collect()));
    links.push("ecn_marks", Column::U64(run.links.iter().map(|l| l.stats.window_log().ecn_marks).collect()));
    links.push("utilization", Column::F64(util.clone()));
    links.push("queue_mean_pkts", Column::F64(qmean.clone()));
    links.push("queue_max_pkts", Column::U64(run.links.iter().map(|l| l.stats.max_queue_pkts).collect()));
    links.push("qdelay_mean_ms", Column::F64(run.links.iter().map(|l| l.stats.queuing_delay.mean_ms()).collect()));
    links.push("qdelay_p50_ms", Column::F64(run.links.iter().map(|l| l.stats.queuing_delay.quantile_ms(0.5)).collect()));
    links.push("qdelay_p95_ms", Column::F64(run.links.iter().map(|l| l.stats.queuing_delay.quantile_ms(0.95)).collect()));
    links.push("qdelay_p99_ms", Column::F64(run.links.iter().map(|l| l.stats.queuing_delay.quantile_ms(0.99)).collect()));
    links.push("qdelay_max_ms", Column::F64(run.links.iter().map(|l| l.stats.queuing_delay.max_ms()).collect()));

    // Summary.
    let goodputs: Vec<f64> = match flows.get("goodput_bps") {
        Some(Column::F64(v)) => v.clone(),
        _ => unreachable!(),
    };
    let total_goodput: f64 = goodputs.iter().filter(|x| x.is_finite()).sum();
    let bottleneck = plan.bottleneck.map(|b| {
        let l = &run.links[b.idx()];
        let q = &l.stats.queuing_delay;
        json!({
            "link": plan.links[b.idx()].name,
            "rate_bps": l.rate.bps,
            "utilization": finite_or_null(util[b.idx()]),
            "drops": l.stats.window_log().dropped(),
            "drops_overflow": l.stats.window_log().overflow,
            "drops_early": l.stats.window_log().early,
            "drops_forced": l.stats.window_log().forced,
            "drops_error": l.stats.window_log().link_error,
            "ecn_marks": l.stats.window_log().ecn_marks,
            "tx_pkts": l.stats.window_tx_pkts(),
            "queue_mean_pkts": finite_or_null(qmean[b.idx()]),
            "queue_max_pkts": l.stats.max_queue_pkts,
            "qdelay_mean_ms": finite_or_null(q.mean_ms()),
            "qdelay_p99_ms": finite_or_null(q.quantile_ms(0.99)),
        })
    });
    let in_flight: u64 = run.links.iter().map(|l| l.packets_held()).sum();
    let sum_u = |name: &str| match flows.get(name) {
        Some(Column::U64(v)) => v.iter().sum::<u64>(),
        _ => 0,
    };
    let summary = json!({
        "name": plan.name,
        "seed": run.seed,
        "duration_s": plan.duration.as_secs_f64(),
        "warmup_s": plan.warmup.as_secs_f64(),
        "flows": n,
        "bottleneck": bottleneck.unwrap_or(Value::Null),
        "goodput_total_bps": total_goodput,
        "goodput_mean_bps": finite_or_null(total_goodput / n as f64),
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
    });

    RunResult {
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
