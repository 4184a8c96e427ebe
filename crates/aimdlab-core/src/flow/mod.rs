//! A flow: an application, a sending endpoint at `src`, a receiving endpoint at `dst`, and
//! what was measured.

pub mod stats;

use crate::app::Application;
use crate::flow::stats::FlowStats;
use crate::ids::{FlowId, NodeId};
use crate::rng::RngStream;
use crate::scenario::plan::FlowPlan;
use crate::transport::registry::{ReceiverEndpoint, SenderEndpoint};
use crate::transport::segments::SegmentSizes;
use crate::units::{Bytes, SimTime};

/// One flow of the simulation. Laid out in declaration order on cache lines of its own
/// (`align(64)`), since with thousands of flows a flow is rarely in cache when its packet
/// arrives: line 0 holds every scalar a packet's delivery or an endpoint's sending reads
/// (hosts, send jitter, data header, transfer length), then come the receiver
/// (lines 1-2), its measurements and the sender; what only starts, stops and samples read
/// comes last.
#[repr(C, align(64))]
pub struct Flow {
    /// Its id.
    pub id: FlowId,
    /// Sender node.
    pub src: NodeId,
    /// Receiver node.
    pub dst: NodeId,
    /// Extra random delay before a data packet leaves the host (0: none).
    pub send_jitter: crate::units::SimDuration,
    /// Header bytes of its data packets (a data packet's payload is its size less these).
    pub data_header: Bytes,
    /// Segments of a finite transfer (`None`: unlimited).
    pub total_segments: Option<u64>,
    /// Data packets the host sent into the network at or after the measurement window's
    /// start (every transmission; the sim counts them as it hands them to the first link):
    /// the denominator of the flow's loss rate (`FlowStats::window_loss_rate`).
    pub sent_in_window: u64,
    /// Fills line 0, so the receiver starts line 1 (see the layout above).
    _line0_rest: [u64; 1],
    /// The receiving endpoint, at `dst`.
    pub receiver: ReceiverEndpoint,
    /// Receiver-side measurements.
    pub stats: FlowStats,
    /// The sending endpoint, at `src`.
    pub sender: SenderEndpoint,
    /// What the flow's application offers.
    pub app: Application,
    /// The flow's random stream (after its start-time draw).
    pub rng: RngStream,
    /// When its application starts (after jitter).
    pub start_at: SimTime,
    /// `stats.delivered_bytes` at the previous sample.
    pub delivered_at_last_sample: u64,
    /// The sender's `sent_total_bytes` at the previous sample.
    pub sent_at_last_sample: u64,
    /// Data packets waiting out their send jitter, with their release times (non-decreasing).
    pub release: std::collections::VecDeque<(SimTime, crate::net::packet::Packet)>,
}

impl Flow {
    /// Builds flow `id` from its plan, starting at `start_at`, drawing from `rng`.
    pub fn new(id: FlowId, plan: &FlowPlan, start_at: SimTime, rng: RngStream) -> Self {
        let tcp = &plan.tcp;
        // What the application's rate is counted in (as the scenario was checked with it).
        let app_header = Bytes(plan.transport.app_header_bytes(&plan.own, tcp));
        let app = Application::new(&plan.app, Bytes(tcp.mss.0 + app_header.0));
        // What a data packet carries besides payload: IP, transport and options (TCP's
        // timestamps among them), so that goodput counts payload alone.
        let header = Bytes(plan.data_header_bytes());
        let sizes = SegmentSizes::new(tcp.mss.0, plan.app.transfer_bytes());
        let (sender, receiver) = plan.transport.endpoints(id, plan.settings(), sizes);
        Flow {
            id,
            src: plan.src,
            dst: plan.dst,
            start_at,
            total_segments: sizes.total,
            sent_in_window: 0,
            _line0_rest: [0; 1],
            data_header: header,
            app,
            sender,
            rng,
            receiver,
            stats: FlowStats::default(),
            delivered_at_last_sample: 0,
            sent_at_last_sample: 0,
            send_jitter: plan.tcp.send_jitter,
            release: std::collections::VecDeque::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_every_packet_reads_of_its_flow_lies_on_line_0_and_the_receiver_starts_line_1() {
        use std::mem::{align_of, offset_of, size_of};
        assert_eq!(align_of::<Flow>(), 64, "every flow starts a cache line");
        let last = offset_of!(Flow, total_segments) + size_of::<Option<u64>>() - 1;
        assert_eq!(last / 64, 0, "hosts, send jitter, data header and transfer length on line 0");
        assert_eq!(offset_of!(Flow, receiver), 64, "the receiver on lines of its own");
    }
}
