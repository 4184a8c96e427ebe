//! UDP: a sender that puts each message the application offers on the wire at once, in
//! packets of at most `mss` payload bytes, and a sink that only counts (the flow's receiver-side measurements
//! are the flow's). Nothing is acknowledged or retransmitted.

use super::outbox::Outbox;
use crate::app::Write;
use crate::ids::{FlowId, NodeId};
use crate::monitor::sender_stats::SenderStats;
use crate::net::packet::Packet;
use crate::units::{Bytes, SimTime};

/// A UDP sender.
pub struct UdpSender {
    flow: FlowId,
    dst: NodeId,
    mss: u64,
    header: Bytes,
    seq: u64,
    /// Counters over the run (only the data counters move).
    pub stats: SenderStats,
    /// `stats` when the measurement window started.
    stats_at_window_start: SenderStats,
}

impl UdpSender {
    /// A sender of `flow` to `dst` whose packets carry up to `mss` payload bytes behind
    /// `header` bytes.
    pub fn new(flow: FlowId, dst: NodeId, mss: Bytes, header: Bytes) -> Self {
        UdpSender { flow, dst, mss: mss.0, header, seq: 0, stats: SenderStats::default(), stats_at_window_start: SenderStats::default() }
    }

    /// Sends what the application wrote at `now`, in packets of at most `mss` payload bytes.
    pub fn send(&mut self, write: Write, now: SimTime, out: &mut Outbox) {
        let (n, last) = write.packets(self.mss);
        for i in 0..n {
            let payload = if i + 1 == n { last } else { self.mss };
            let size = Bytes(payload + self.header.0);
            out.packets.push(Packet::data(self.flow, self.dst, self.seq, size, now));
            self.seq += 1;
            self.stats.data_pkts_sent += 1;
            self.stats.data_bytes_sent += size.0;
            self.stats.payload_bytes_sent += payload;
        }
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
