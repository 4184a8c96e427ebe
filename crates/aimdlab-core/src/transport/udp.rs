//! UDP: a sender that puts each message the application offers on the wire at once, in a
//! packet of its own, and a sink that only counts (the flow's receiver-side measurements
//! are the flow's). Nothing is acknowledged or retransmitted.

use super::outbox::Outbox;
use crate::ids::{FlowId, NodeId};
use crate::monitor::sender_stats::SenderStats;
use crate::net::packet::Packet;
use crate::units::{Bytes, SimTime};

/// A UDP sender.
pub struct UdpSender {
    flow: FlowId,
    dst: NodeId,
    pkt_size: Bytes,
    seq: u64,
    /// Counters over the run (only the data counters move).
    pub stats: SenderStats,
    /// `stats` when the measurement window started.
    stats_at_window_start: SenderStats,
}

impl UdpSender {
    /// A sender of `flow` to `dst` whose packets are `pkt_size` bytes on the wire.
    pub fn new(flow: FlowId, dst: NodeId, pkt_size: Bytes) -> Self {
        UdpSender { flow, dst, pkt_size, seq: 0, stats: SenderStats::default(), stats_at_window_start: SenderStats::default() }
    }

    /// Sends one message at `now`.
    pub fn send(&mut self, now: SimTime, out: &mut Outbox) {
        out.packets.push(Packet::data(self.flow, self.dst, self.seq, self.pkt_size, now));
        self.seq += 1;
        self.stats.data_pkts_sent += 1;
        self.stats.data_bytes_sent += self.pkt_size.0;
    }

    /// Counters over the measurement window.
    pub fn window_stats(&self) -> SenderStats {
        self.stats.since(&self.stats_at_window_start)
    }

    /// Starts the measurement window: snapshots the counters.
    pub fn start_window(&mut self) {
        self.stats_at_window_start = self.stats;
    }
}
