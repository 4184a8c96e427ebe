//! The event loop's lookahead: what it prefetches ahead of the arrivals on a link's wire
//! (`crate::prefetch` gives the hints). It changes only speed, never a result; it is on from
//! `LOOKAHEAD_FROM_FLOWS` flows (`docs/explanation/benchmarks.md` has the figures).

use super::Simulator;
use crate::ids::LinkId;
use crate::net::link::LINK_HOT_BYTES;
use crate::net::packet::PacketKind;
use crate::transport::registry::SenderEndpoint;

impl Simulator {
    /// Starts loading what the arrivals still on link `l`'s wire will read (`prefetch.rs`),
    /// in stages along the wire: the pipe entry `ENTRY_AHEAD` arrivals ahead (the pipe's ring
    /// was written a propagation delay ago: 0.983-0.988 of the time at 10,000 flows); the
    /// packet `PACKET_AHEAD` arrivals ahead; for the one `STATE_AHEAD` ahead (its packet loaded
    /// by now), the link it goes on to and the flow that receives it; for the one `HEAP_AHEAD`
    /// ahead (those loaded by now), what they point to —
    /// the pipe entry the next transmission writes, the link the flow answers on, the
    /// sender's scoreboard. Only a link with a long pipe (a fast or long link, where the
    /// arrivals come often and the state they touch is spread over thousands of flows) has
    /// arrivals that far ahead.
    #[inline]
    pub(super) fn prefetch_ahead(&self, l: LinkId) {
        const ENTRY_AHEAD: usize = 32;
        const PACKET_AHEAD: usize = 16;
        const STATE_AHEAD: usize = 8;
        const HEAP_AHEAD: usize = 4;
        let link = &self.links[l.idx()];
        if link.pipe_len() <= PACKET_AHEAD {
            return;
        }
        let node = link.to;
        link.prefetch_pipe_entry(ENTRY_AHEAD);
        if let Some(slot) = link.pipe_slot(PACKET_AHEAD) {
            self.wire.prefetch(slot);
        }
        if let Some(slot) = link.pipe_slot(STATE_AHEAD) {
            let p = self.wire.peek(slot);
            if let Some(next) = self.onward_link(node, p) {
                crate::prefetch::prefetch(&self.links[next.idx()], LINK_HOT_BYTES);
            }
            let flow = &self.flows[p.flow.idx()];
            // Line 0: its hosts and their links (see `Flow`'s layout).
            crate::prefetch::prefetch(flow, 64);
            match p.kind {
                PacketKind::Data => {
                    crate::prefetch::prefetch(&flow.receiver, 256);
                    crate::prefetch::prefetch(&flow.stats, 256);
                }
                PacketKind::Ack => crate::prefetch::prefetch(&flow.sender, std::mem::size_of::<crate::transport::registry::SenderEndpoint>()),
            }
        }
        if let Some(slot) = link.pipe_slot(HEAP_AHEAD) {
            let p = self.wire.peek(slot);
            if let Some(next) = self.onward_link(node, p) {
                self.links[next.idx()].prefetch_pipe_tail();
            }
            let flow = &self.flows[p.flow.idx()];
            // The link the flow's endpoint answers on: the receiver's for its ACKs, the
            // sender's for new data.
            let (from, to) = match p.kind {
                PacketKind::Data => (flow.dst, flow.src),
                PacketKind::Ack => {
                    // A TCP sender's scoreboard from `snd_una` (the other transports keep
                    // little state an ACK reads).
                    if let SenderEndpoint::Tcp(s) = &flow.sender {
                        s.prefetch_for_ack();
                    }
                    (flow.src, flow.dst)
                }
            };
            if let Some(out) = self.plan.routes.only_link(from).or_else(|| self.plan.routes.next_link(from, to)) {
                crate::prefetch::prefetch(&self.links[out.idx()], LINK_HOT_BYTES);
            }
        }
    }
}
