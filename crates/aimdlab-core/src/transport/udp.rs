//! UDP: a sender that puts each message the application offers on the wire at once, in
//! packets of at most `mss` payload bytes, and a sink that only counts (the flow's receiver-side measurements
//! are the flow's). Nothing is acknowledged or retransmitted. With the descriptor the
//! registry lists, and its packets' pcap header.

use super::arrival::DataArrival;
use super::interface::{FlowSettings, Transport, TransportReceiver, TransportSender};
use super::outbox::Outbox;
use super::segments::SegmentSizes;
use crate::app::Write;
use crate::cc::CongestionControl;
use crate::ids::{FlowId, NodeId};
use crate::net::packet::Packet;
use crate::net::pcap::{sender_port, FlowWire, IP_HEADER, RECEIVER_PORT};
use crate::transport::sender_stats::SenderStats;
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

/// UDP's receiving end: counts what arrives (in the flow's measurements), answers nothing.
pub struct UdpSink;

/// UDP (the registry's descriptor).
pub struct Udp;

impl Transport for Udp {
    type Sender = UdpSender;
    type Receiver = UdpSink;

    fn endpoints(id: FlowId, flow: FlowSettings<'_>, _sizes: SegmentSizes) -> (UdpSender, UdpSink) {
        (UdpSender::new(id, flow.dst, flow.tcp.mss, flow.tcp.header), UdpSink)
    }

    fn label(_flow: FlowSettings<'_>) -> String {
        "udp".into()
    }

    fn data_header_bytes(flow: FlowSettings<'_>) -> u64 {
        flow.tcp.header.0
    }

    fn takes_window_controller(_flow: FlowSettings<'_>) -> bool {
        false
    }

    const SELF_CLOCKED: bool = false;

    fn wire(flow: FlowSettings<'_>) -> FlowWire {
        FlowWire { protocol: 17, header: write_pcap_header, mss: flow.tcp.mss.0, data_header: flow.tcp.header.0, timestamps: flow.tcp.timestamps }
    }

    fn check(_own: &crate::transport::interface::OwnSettings, cc_given: bool, app: &crate::app::AppConfig) -> Result<(), (&'static str, String)> {
        if !app.self_paced() {
            return Err((
                "transport",
                format!("\"udp\" carries only an application that paces itself (such as \"onoff\"); app.kind = {:?} needs \"tcp\" or \"dccp\"", app.kind()),
            ));
        }
        if cc_given {
            return Err(("cc", "applies only to TCP and DCCP; a UDP flow has no congestion controller (remove cc, or set transport = \"tcp\")".into()));
        }
        Ok(())
    }
}

impl TransportSender for UdpSender {
    fn offer(&mut self, write: Write, now: SimTime, out: &mut Outbox) {
        self.send(write, now, out)
    }
    fn window_stats(&self) -> SenderStats {
        UdpSender::window_stats(self)
    }
    fn sent_total_bytes(&self) -> u64 {
        self.stats.data_bytes_sent
    }
    fn start_window(&mut self) {
        UdpSender::start_window(self)
    }
    fn set_controller(&mut self, _cc: Box<dyn CongestionControl>) -> Result<(), String> {
        Err("runs over UDP and has no congestion controller".into())
    }
    fn cc_name(&self) -> &'static str {
        "udp"
    }
}

impl TransportReceiver for UdpSink {
    /// Every packet counts as new; nothing is delivered in order.
    #[inline]
    fn on_packet(&mut self, _p: &Packet, _now: SimTime, _out: &mut Outbox) -> DataArrival {
        DataArrival { first_arrival: true, in_order_advance: 0 }
    }
}

/// Writes the UDP header of `p`; returns its payload bytes.
pub fn write_pcap_header(h: &mut Vec<u8>, p: &Packet, f: u32, _wire: &FlowWire) -> u64 {
    let payload = p.size.0.saturating_sub((IP_HEADER + 8) as u64);
    h.extend_from_slice(&sender_port(f).to_be_bytes());
    h.extend_from_slice(&RECEIVER_PORT.to_be_bytes());
    h.extend_from_slice(&((8 + payload) as u16).to_be_bytes());
    h.extend_from_slice(&[0, 0]);
    payload
}
