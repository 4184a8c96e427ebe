//! A flow: one application, its sender at `src`, its receiver at `dst`, and what was measured.

use crate::cc::Controller;
use crate::ids::{FlowId, NodeId};
use crate::monitor::flow_stats::FlowStats;
use crate::rng::RngStream;
use crate::scenario::plan::{AppPlan, FlowPlan};
use crate::transport::receiver::TcpReceiver;
use crate::transport::segments::SegmentSizes;
use crate::transport::sender::TcpSender;
use crate::transport::udp_onoff::OnOffSource;
use crate::units::SimTime;

/// One flow of the simulation.
pub struct Flow {
    /// Its id.
    pub id: FlowId,
    /// Sender node.
    pub src: NodeId,
    /// Receiver node.
    pub dst: NodeId,
    /// When its application starts (after jitter).
    pub start_at: SimTime,
    /// Segment sizes of its application.
    pub sizes: SegmentSizes,
    /// The sender (TCP flows; for a UDP source it only keeps the send counters).
    pub sender: TcpSender,
    /// The UDP ON/OFF source, for flows whose application is `onoff`.
    pub onoff: Option<OnOffSource>,
    /// The flow's random stream (after its start-time draw).
    pub rng: RngStream,
    /// The receiver.
    pub receiver: TcpReceiver,
    /// Receiver-side measurements.
    pub stats: FlowStats,
    /// Payload bytes delivered since the start of the run (for per-interval goodput).
    pub delivered_total_bytes: u64,
    /// `delivered_total_bytes` at the previous sample.
    pub delivered_at_last_sample: u64,
    /// The sender's `sent_total_bytes` at the previous sample.
    pub sent_at_last_sample: u64,
    /// Extra random delay before a data packet leaves the host (0: none).
    pub send_jitter: crate::units::SimDuration,
    /// Data packets waiting out their send jitter, with their release times (non-decreasing).
    pub release: std::collections::VecDeque<(SimTime, crate::net::packet::Packet)>,
}

impl Flow {
    /// Builds flow `id` from its plan, starting at `start_at`, drawing from `rng`.
    pub fn new(id: FlowId, plan: &FlowPlan, start_at: SimTime, rng: RngStream) -> Self {
        let size = match plan.app {
            AppPlan::Bulk | AppPlan::OnOff(_) => None,
            AppPlan::Finite(b) => Some(b.0),
        };
        let onoff = match plan.app {
            AppPlan::OnOff(p) => Some(OnOffSource::new(id, plan.dst, p, crate::units::Bytes(plan.tcp.mss.0 + plan.tcp.header.0))),
            _ => None,
        };
        let tcp = &plan.tcp;
        let sizes = SegmentSizes::new(tcp.mss.0, size);
        let cc = Controller::new(&plan.cc, tcp.initial_cwnd_pkts as f64, tcp.initial_ssthresh_pkts);
        Flow {
            id,
            src: plan.src,
            dst: plan.dst,
            start_at,
            sizes,
            sender: TcpSender::new(id, plan.dst, tcp, sizes, cc),
            onoff,
            rng,
            receiver: TcpReceiver::new(id, plan.src, tcp.header, tcp.sack, tcp.delayed_ack, tcp.delayed_ack_timeout),
            stats: FlowStats::default(),
            delivered_total_bytes: 0,
            delivered_at_last_sample: 0,
            sent_at_last_sample: 0,
            send_jitter: plan.tcp.send_jitter,
            release: std::collections::VecDeque::new(),
        }
    }
}
