//! The columns of the flow and link tables: each declared once with its name, unit, a
//! one-line description and how it is read from a finished run (`aimdlab columns` prints
//! them). Counters are over the measurement window `[warmup, end)`.

use super::table::{Column, Table};
use super::unit::Unit;
use crate::flow::Flow;
use crate::net::link::Link;
use crate::scenario::plan::{FlowPlan, LinkPlan};
use crate::transport::interface::{TransportReceiver, TransportSender};
use crate::units::SimTime;

/// What a flow column reads.
pub struct FlowRow<'a> {
    /// The flow.
    pub flow: &'a Flow,
    /// Its plan.
    pub plan: &'a FlowPlan,
    /// Node names.
    pub nodes: &'a [String],
    /// Start of the measurement window.
    pub window_start: SimTime,
    /// End of the run.
    pub end: SimTime,
    /// The flow's max-min fair share of the links on its path, bits/s (`fair_share.rs`).
    pub fair_share_bps: f64,
}

/// What a link column reads.
pub struct LinkRow<'a> {
    /// The link.
    pub link: &'a Link,
    /// Its plan.
    pub plan: &'a LinkPlan,
    /// Its index.
    pub index: usize,
    /// End of the run.
    pub end: SimTime,
    /// Time-averaged queue length over the window, packets.
    pub queue_mean_pkts: f64,
}

/// How a column's value is read: a number (NaN: not available), a count or a label.
pub enum Read<F, U, S> {
    /// A number (NaN: not available).
    F64(F),
    /// A count.
    U64(U),
    /// A label.
    Str(S),
}

/// One declared column.
pub struct ColumnDef<F, U, S> {
    /// Column name (its unit is in the name's suffix where it has one).
    pub name: &'static str,
    /// Unit (and so the values it can take).
    pub unit: Unit,
    /// What it is, in one line.
    pub doc: &'static str,
    /// How it is read.
    pub read: Read<F, U, S>,
}

/// A column of the flow table.
pub type FlowColumn = ColumnDef<fn(&FlowRow<'_>) -> f64, fn(&FlowRow<'_>) -> u64, fn(&FlowRow<'_>) -> String>;
/// A column of the link table.
pub type LinkColumn = ColumnDef<fn(&LinkRow<'_>) -> f64, fn(&LinkRow<'_>) -> u64, fn(&LinkRow<'_>) -> String>;

/// Bits per second of `bytes` over `[from, to)` (NaN for an empty span).
pub fn rate_bps(bytes: u64, from: SimTime, to: SimTime) -> f64 {
    let span = to.saturating_since(from).as_secs_f64();
    if span <= 0.0 {
        f64::NAN
    } else {
        bytes as f64 * 8.0 / span
    }
}

/// Where a flow's window starts: the later of the warm-up's end and the flow's start.
fn since(r: &FlowRow) -> SimTime {
    r.window_start.max(r.flow.start_at)
}

fn rtt(r: &FlowRow) -> (f64, f64, f64) {
    r.flow.sender.rtt().map_or((f64::NAN, f64::NAN, f64::NAN), |e| e.window_stats_ms())
}

macro_rules! col {
    ($kind:ident, $name:expr, $unit:ident, $doc:expr, $read:expr) => {
        ColumnDef { name: $name, unit: Unit::$unit, doc: $doc, read: Read::$kind($read) }
    };
}

/// The flow table, in column order: who the flow is and what it achieved, then its delays,
/// then its counts.
pub fn flow_columns() -> Vec<FlowColumn> {
    let mut columns = flow_identity_and_rate_columns();
    columns.extend(flow_delay_columns());
    columns.extend(flow_count_columns());
    columns
}

/// The flow, its transport and controller, and its rates.
fn flow_identity_and_rate_columns() -> Vec<FlowColumn> {
    vec![
        col!(U64, "flow", Index, "flow index, 0-based, in the order of the flows groups and their counts", |r| r.flow.id.0 as u64),
        col!(U64, "group", Index, "index of the flow's group in `flows`", |r| r.plan.group as u64),
        col!(Str, "group_name", Label, "the group's name", |r| r.plan.group_name.clone()),
        col!(Str, "cc", Label, "congestion controller (`tfrc` for DCCP CCID-3, `udp` for a UDP flow)", |r| r.flow.sender.cc_name().to_string()),
        col!(Str, "transport", Label, "`tcp`, `udp`, `dccp-ccid2` or `dccp-ccid3`", |r| r.plan.transport.label(r.plan.settings())),
        col!(Str, "src", Label, "sending host", |r| r.nodes[r.plan.src.idx()].clone()),
        col!(Str, "dst", Label, "receiving host", |r| r.nodes[r.plan.dst.idx()].clone()),
        col!(F64, "start_s", Seconds, "when the flow's application started", |r| r.flow.start_at.as_secs_f64()),
        col!(F64, "goodput_bps", BitsPerSecond, "payload delivered for the first time, per second of the window", |r| rate_bps(
            r.flow.stats.window_delivered_bytes(),
            since(r),
            r.end
        )),
        col!(F64, "throughput_bps", BitsPerSecond, "wire bytes of every data packet received (headers, duplicates), per second", |r| rate_bps(
            r.flow.stats.window_received_bytes(),
            since(r),
            r.end
        )),
        col!(F64, "fair_share_bps", BitsPerSecond, "max-min fair share of the link rates on the flow's path, every flow present and greedy", |r| r
            .fair_share_bps),
        col!(F64, "send_rate_bps", BitsPerSecond, "wire bytes of data sent (retransmissions included), per second", |r| rate_bps(
            r.flow.sender.window_stats().data_bytes_sent,
            since(r),
            r.end
        )),
        col!(F64, "completion_time_s", Seconds, "a finite transfer's duration (NaN if unfinished or not finite)", |r| r
            .flow
            .stats
            .completed_at
            .map_or(f64::NAN, |t| t.saturating_since(r.flow.start_at).as_secs_f64())),
    ]
}

/// Its RTT, one-way delay and jitter, loss and ECN event rates, final window.
fn flow_delay_columns() -> Vec<FlowColumn> {
    vec![
        col!(F64, "rtt_mean_ms", Milliseconds, "mean RTT sample (Karn's rule)", |r| rtt(r).0),
        col!(F64, "rtt_min_ms", Milliseconds, "smallest RTT sample", |r| rtt(r).1),
        col!(F64, "rtt_max_ms", Milliseconds, "largest RTT sample", |r| rtt(r).2),
        col!(F64, "delay_mean_ms", Milliseconds, "mean one-way delay of data packets (sent to received)", |r| r.flow.stats.one_way_delay.mean_ms()),
        col!(F64, "delay_p50_ms", Milliseconds, "median one-way delay", |r| r.flow.stats.one_way_delay.quantile_ms(0.5)),
        col!(F64, "delay_p95_ms", Milliseconds, "95th percentile of the one-way delay", |r| r.flow.stats.one_way_delay.quantile_ms(0.95)),
        col!(F64, "delay_p99_ms", Milliseconds, "99th percentile of the one-way delay", |r| r.flow.stats.one_way_delay.quantile_ms(0.99)),
        col!(F64, "delay_max_ms", Milliseconds, "largest one-way delay", |r| r.flow.stats.one_way_delay.max_ms()),
        col!(F64, "jitter_ms", Milliseconds, "mean absolute difference of consecutive one-way delays (RFC 3393 IPDV)", |r| r.flow.stats.jitter_ms()),
        col!(F64, "jitter_rfc3550_ms", Milliseconds, "RFC 3550 interarrival jitter at the end (1/16-gain filter of the IPDV)", |r| r
            .flow
            .stats
            .rfc3550_jitter_ms()),
        col!(F64, "rto_first_mean_ms", Milliseconds, "mean RTO at the first timeout of each backoff sequence (the models' T0)", |r| r
            .flow
            .sender
            .window_stats()
            .rto_first_mean_ms()),
        col!(F64, "loss_event_rate", Fraction, "loss events (fast retransmits, DCCP loss reductions, timeouts) per data packet sent: the papers' p", |r| r
            .flow
            .sender
            .window_stats()
            .loss_event_rate()),
        col!(F64, "ecn_event_rate", Fraction, "window reductions on ECN-Echo per data packet sent", |r| r.flow.sender.window_stats().ecn_event_rate()),
        col!(F64, "cwnd_final_pkts", Packets, "congestion window at the end (NaN without a controller)", |r| r
            .flow
            .sender
            .window()
            .map_or(f64::NAN, |w| w.cwnd_pkts)),
    ]
}

/// What it delivered, sent, retransmitted and lost.
fn flow_count_columns() -> Vec<FlowColumn> {
    vec![
        col!(U64, "delivered_bytes", Bytes, "payload delivered for the first time", |r| r.flow.stats.window_delivered_bytes()),
        col!(U64, "received_pkts", Packets, "data packets received (duplicates included)", |r| r.flow.stats.window_received_pkts()),
        col!(U64, "received_bytes", Bytes, "wire bytes of those packets (headers and duplicates included)", |r| r.flow.stats.window_received_bytes()),
        col!(U64, "data_pkts_sent", Packets, "data packets sent (retransmissions included)", |r| r.flow.sender.window_stats().data_pkts_sent),
        col!(U64, "bytes_sent", Bytes, "wire bytes of those packets", |r| r.flow.sender.window_stats().data_bytes_sent),
        col!(U64, "payload_sent_bytes", Bytes, "application payload sent for the first time (no retransmission, no header)", |r| r
            .flow
            .sender
            .window_stats()
            .payload_bytes_sent),
        col!(U64, "retransmitted_pkts", Packets, "retransmitted data packets", |r| r.flow.sender.window_stats().retransmitted_pkts),
        col!(U64, "fast_retransmits", Count, "entries into fast recovery", |r| r.flow.sender.window_stats().fast_retransmits),
        col!(U64, "timeouts", Count, "retransmission timeouts, every expiry (backoffs included)", |r| r.flow.sender.window_stats().timeouts),
        col!(U64, "timeout_sequences", Count, "timeouts that start a backoff sequence (one loss indication each)", |r| r
            .flow
            .sender
            .window_stats()
            .timeout_sequences),
        col!(U64, "ecn_reductions", Count, "window reductions in response to ECN-Echo", |r| r.flow.sender.window_stats().ecn_reductions),
        col!(U64, "loss_events", Count, "window reductions in response to loss: fast_retransmits + loss_reductions + timeouts", |r| r
            .flow
            .sender
            .window_stats()
            .loss_events()),
        col!(U64, "loss_reductions", Count, "window reductions on loss by a transport that does not retransmit (DCCP CCID-2)", |r| r
            .flow
            .sender
            .window_stats()
            .loss_reductions),
        col!(U64, "lost_pkts", Packets, "data packets the sender deemed lost and did not resend (DCCP)", |r| r.flow.sender.window_stats().lost_pkts),
        col!(F64, "receiver_p", Fraction, "loss-event rate the receiver computed at the end (DCCP CCID-3, RFC 5348 §5.4; NaN otherwise)", |r| r
            .flow
            .receiver
            .loss_event_rate()
            .0),
        col!(U64, "receiver_loss_events", Count, "loss events the receiver counted (DCCP CCID-3)", |r| r.flow.receiver.loss_event_rate().1),
        col!(U64, "app_drops", Packets, "application messages the send buffer discarded (DCCP)", |r| r.flow.sender.window_stats().app_drops),
        col!(
            F64,
            "loss_rate",
            Fraction,
            "data packets sent in the window that a link dropped, over those sent (NaN if none): each sent packet is received, dropped or still held at the end",
            |r| r.flow.stats.window_loss_rate(r.flow.sent_in_window)
        ),
    ]
}

/// The link table, in column order.
pub fn link_columns() -> Vec<LinkColumn> {
    vec![
        col!(U64, "link", Index, "link index", |r| r.index as u64),
        col!(Str, "name", Label, "`from->to`", |r| r.plan.name.clone()),
        col!(U64, "rate_bps", BitsPerSecond, "transmission rate", |r| r.plan.rate.bps),
        col!(F64, "delay_ms", Milliseconds, "propagation delay", |r| r.plan.delay.as_millis_f64()),
        col!(U64, "tx_pkts", Packets, "packets that started transmission", |r| r.link.stats.window_tx_pkts()),
        col!(U64, "tx_bytes", Bytes, "wire bytes that started transmission", |r| r.link.stats.window_tx_bytes()),
        col!(U64, "drops", Packets, "drops of every cause", |r| r.link.stats.window_log().dropped()),
        col!(U64, "drops_overflow", Packets, "arrivals to a full buffer", |r| r.link.stats.window_log().overflow),
        col!(U64, "drops_early", Packets, "AQM drops (RED early, CoDel, PIE)", |r| r.link.stats.window_log().early),
        col!(U64, "drops_forced", Packets, "RED drops above the maximum threshold", |r| r.link.stats.window_log().forced),
        col!(U64, "drops_error", Packets, "losses on the wire (the link's loss model)", |r| r.link.stats.window_log().link_error),
        col!(U64, "ecn_marks", Packets, "packets marked CE instead of dropped", |r| r.link.stats.window_log().ecn_marks),
        col!(F64, "utilization", Fraction, "fraction of the window the link was transmitting", |r| r.link.utilization(r.end)),
        col!(F64, "queue_mean_pkts", Packets, "time-averaged queue length", |r| r.queue_mean_pkts),
        col!(U64, "queue_max_pkts", Packets, "largest queue length", |r| r.link.stats.max_queue_pkts),
        col!(F64, "qdelay_mean_ms", Milliseconds, "mean queuing delay (enqueue to start of transmission)", |r| r.link.stats.queuing_delay.mean_ms()),
        col!(F64, "qdelay_p50_ms", Milliseconds, "median queuing delay", |r| r.link.stats.queuing_delay.quantile_ms(0.5)),
        col!(F64, "qdelay_p95_ms", Milliseconds, "95th percentile of the queuing delay", |r| r.link.stats.queuing_delay.quantile_ms(0.95)),
        col!(F64, "qdelay_p99_ms", Milliseconds, "99th percentile of the queuing delay", |r| r.link.stats.queuing_delay.quantile_ms(0.99)),
        col!(F64, "qdelay_max_ms", Milliseconds, "largest queuing delay", |r| r.link.stats.queuing_delay.max_ms()),
    ]
}

macro_rules! table_of {
    ($(#[$doc:meta])* $name:ident, $column:ty, $row:ident) => {
        $(#[$doc])*
        pub fn $name(columns: &[$column], rows: &[$row<'_>]) -> Table {
            let mut t = Table::default();
            for c in columns {
                let column = match c.read {
                    Read::F64(f) => Column::F64(rows.iter().map(f).collect()),
                    Read::U64(f) => Column::U64(rows.iter().map(f).collect()),
                    Read::Str(f) => Column::Str(rows.iter().map(f).collect()),
                };
                t.push(c.name, column);
            }
            t
        }
    };
}

table_of!(
    /// The flow table of `rows`.
    flows_table,
    FlowColumn,
    FlowRow
);
table_of!(
    /// The link table of `rows`.
    links_table,
    LinkColumn,
    LinkRow
);
