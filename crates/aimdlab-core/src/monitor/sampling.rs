//! What a sample of the time series reads: of a flow, its window, threshold, RTT and what it
//! delivered and sent since the last sample; of a monitored link, its queue now and what it
//! did since the last sample. The simulator calls these every `sample_interval` and pushes the
//! rows into the series (`timeseries.rs`, where each column is declared).

use super::timeseries::{FlowValues, LinkValues};
use crate::flow::Flow;
use crate::net::link::Link;
use crate::net::queue::QueueDiscipline;
use crate::transport::interface::TransportSender;
use crate::units::{SimDuration, SimTime};

/// A flow's row at a sample `interval` after the last one; moves its last-sample counters on.
pub fn flow_values(f: &mut Flow, interval: SimDuration) -> FlowValues {
    let delivered = f.stats.delivered_bytes - f.delivered_at_last_sample;
    f.delivered_at_last_sample = f.stats.delivered_bytes;
    let sent_total = f.sender.sent_total_bytes();
    let sent = sent_total - f.sent_at_last_sample;
    f.sent_at_last_sample = sent_total;
    let window = f.sender.window();
    FlowValues {
        cwnd_pkts: window.map_or(f64::NAN, |w| w.cwnd_pkts),
        ssthresh_pkts: window.map_or(f64::NAN, |w| w.ssthresh_pkts),
        goodput_bps: delivered as f64 * 8.0 / interval.as_secs_f64(),
        send_rate_bps: sent as f64 * 8.0 / interval.as_secs_f64(),
        srtt_ms: f.sender.rtt().and_then(|r| r.srtt()).map_or(f64::NAN, |d| d.as_millis_f64()),
        in_flight_pkts: f.sender.in_flight_pkts(),
    }
}

/// The value a queue publishes under `name` (`QueueDiscipline::state_vars`), NaN if none.
fn published(queue: &impl QueueDiscipline, name: &str) -> f64 {
    let mut value = f64::NAN;
    queue.state_vars(&mut |n, v| {
        if n == name {
            value = v;
        }
    });
    value
}

/// A monitored link's run totals at its last sample, to difference the next one against.
#[derive(Clone, Copy, Default)]
pub struct LinkTotals {
    /// Serializer busy time, picoseconds.
    busy_ps: u64,
    /// Packets that started transmission.
    tx_pkts: u64,
    /// Their summed queuing delay, picoseconds.
    queuing_delay_ps: u128,
}

/// A (settled) link's row at `now`, a sample `interval` after `last`, which it replaces.
pub fn link_values(link: &Link, now: SimTime, interval: SimDuration, last: &mut LinkTotals) -> LinkValues {
    let totals = LinkTotals { busy_ps: link.busy_ps_until(now), tx_pkts: link.stats.tx_pkts, queuing_delay_ps: link.stats.queuing_delay_total_ps() };
    let before = std::mem::replace(last, totals);
    let tx_pkts = totals.tx_pkts - before.tx_pkts;
    LinkValues {
        queue_len_pkts: link.queue.len_pkts(),
        queue_len_bytes: link.queue.len_bytes(),
        red_avg: published(&link.queue, "red_avg"),
        utilization: (totals.busy_ps - before.busy_ps) as f64 / interval.0 as f64,
        tx_pkts,
        queuing_delay_ms: match tx_pkts {
            0 => f64::NAN,
            n => (totals.queuing_delay_ps - before.queuing_delay_ps) as f64 / n as f64 / 1e9,
        },
    }
}
