//! libpcap traces of chosen links (`pcap = ["r1->r2"]`): every packet that starts
//! transmission on the link during the measurement window, as tcpdump on the sending
//! interface would see it, with synthetic but consistent IPv4 + TCP / DCCP / UDP headers, so
//! that tshark, Wireshark and tcptrace read them.
//!
//! The file: libpcap format with nanosecond timestamps (magic 0xa1b23c4d), link type
//! LINKTYPE_RAW (101: each record starts with the IPv4 header), headers only (`incl_len` is
//! the header bytes, `orig_len` the packet's length on the wire, as a capture with a small
//! snap length gives).
//!
//! The headers (what is synthetic, written down):
//! - Addresses: flow f's sender is 10.(64 + f / 65536).(f / 256 % 256).(f % 256), its
//!   receiver 10.(128 + …) with the same low bytes; ports 49152 + f % 16384 → 5001.
//! - IPv4: the ECN field as the packet carries it (ECT(0), CE after a router's mark), DF set,
//!   TTL 64, an identification counting each direction's packets, a correct header checksum.
//! - TCP: sequence and acknowledgement numbers in bytes (segment n starts at byte 1 + n·MSS),
//!   the ACK flag on every packet, ECE on ACKs that echo CE, CWR on data after a reduction;
//!   the timestamps option when `tcp.timestamps` is on (TSval: the send time in ms; TSecr on
//!   ACKs: the echoed segment's send time); SACK blocks on ACKs, in bytes. aimdlab does not
//!   count SACK option bytes in a packet's size (see the README), so an ACK with SACK blocks is
//!   longer here by 4 + 8 bytes per block than the simulation's byte counts. No checksum
//!   (the payload is not captured).
//! - DCCP (RFC 4340 §5.1, 48-bit sequence numbers): DCCP-Data and DCCP-Ack packets, CCVal
//!   from the packet (CCID-3's window counter), the ACK's Acknowledgement Number = the
//!   newest packet its Ack Vector acknowledges; option bytes (the Ack Vector and CCID-3's
//!   feedback) are written as Padding of the same length.
//! - UDP: ports and length.

use crate::net::packet::{Ecn, Packet, PacketKind};
use crate::units::SimTime;

/// Writes the transport header of a packet of a flow (its id, and its `FlowWire`) into the
/// buffer; returns the packet's payload bytes. Each transport has its own, in its folder.
pub type HeaderWriter = fn(&mut Vec<u8>, &Packet, u32, &FlowWire) -> u64;

/// What the writer needs to know about one flow.
#[derive(Clone, Copy, Debug)]
pub struct FlowWire {
    /// The IP protocol number of its transport (6 TCP, 17 UDP, 33 DCCP).
    pub protocol: u8,
    /// Its transport's header writer.
    pub header: HeaderWriter,
    /// Payload bytes of a full segment (TCP sequence numbers count bytes).
    pub mss: u64,
    /// Header bytes of the flow's data packets (IP + transport + options).
    pub data_header: u64,
    /// Whether TCP packets carry the timestamps option.
    pub timestamps: bool,
}

/// Packets captured on one link: when each started transmission, and the packet.
pub type Capture = Vec<(SimTime, Packet)>;

/// LINKTYPE_RAW: records start with the IP header.
const LINKTYPE_RAW: u32 = 101;
/// Bytes of the IPv4 header written before the transport's.
pub const IP_HEADER: usize = 20;

fn sender_ip(flow: u32) -> [u8; 4] {
    [10, 64 + (flow >> 16) as u8, (flow >> 8) as u8, flow as u8]
}

fn receiver_ip(flow: u32) -> [u8; 4] {
    [10, 128 + (flow >> 16) as u8, (flow >> 8) as u8, flow as u8]
}

/// The sender's port of flow `flow`.
pub fn sender_port(flow: u32) -> u16 {
    49152 + (flow % 16384) as u16
}

/// Every receiver's port.
pub const RECEIVER_PORT: u16 = 5001;

/// The libpcap file of `capture`, whose packets belong to `flows` (indexed by flow id).
pub fn write(capture: &[(SimTime, Packet)], flows: &[FlowWire]) -> Vec<u8> {
    let mut out = Vec::with_capacity(24 + capture.len() * 80);
    out.extend_from_slice(&0xa1b2_3c4du32.to_le_bytes());
    out.extend_from_slice(&2u16.to_le_bytes());
    out.extend_from_slice(&4u16.to_le_bytes());
    out.extend_from_slice(&0i32.to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    out.extend_from_slice(&65535u32.to_le_bytes());
    out.extend_from_slice(&LINKTYPE_RAW.to_le_bytes());
    let mut ip_ids = vec![[0u16; 2]; flows.len()];
    let mut header = Vec::with_capacity(128);
    for (at, p) in capture {
        let f = p.flow.0;
        let wire = &flows[p.flow.idx()];
        let data = p.kind == PacketKind::Data;
        header.clear();
        let (proto, payload) = (wire.protocol, (wire.header)(&mut header, p, f, wire));
        let id = &mut ip_ids[p.flow.idx()][usize::from(!data)];
        *id = id.wrapping_add(1);
        let (src, dst) = if data { (sender_ip(f), receiver_ip(f)) } else { (receiver_ip(f), sender_ip(f)) };
        let total = IP_HEADER + header.len() + payload as usize;
        let ip = ip_header(total as u16, *id, p.ecn, proto, src, dst);
        let incl = (IP_HEADER + header.len()) as u32;
        let ps = at.0;
        out.extend_from_slice(&((ps / 1_000_000_000_000) as u32).to_le_bytes());
        out.extend_from_slice(&((ps % 1_000_000_000_000 / 1000) as u32).to_le_bytes());
        out.extend_from_slice(&incl.to_le_bytes());
        out.extend_from_slice(&(total as u32).to_le_bytes());
        out.extend_from_slice(&ip);
        out.extend_from_slice(&header);
    }
    out
}

fn ip_header(total: u16, id: u16, ecn: Ecn, proto: u8, src: [u8; 4], dst: [u8; 4]) -> [u8; 20] {
    let tos = match ecn {
        Ecn::NotEct => 0,
        Ecn::Ect0 => 0b10,
        Ecn::Ce => 0b11,
    };
    let mut h = [0u8; 20];
    h[0] = 0x45;
    h[1] = tos;
    h[2..4].copy_from_slice(&total.to_be_bytes());
    h[4..6].copy_from_slice(&id.to_be_bytes());
    h[6] = 0x40; // don't fragment
    h[8] = 64;
    h[9] = proto;
    h[12..16].copy_from_slice(&src);
    h[16..20].copy_from_slice(&dst);
    let mut sum: u32 = h.chunks(2).map(|w| u32::from(u16::from_be_bytes([w[0], w[1]]))).sum();
    while sum > 0xffff {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    h[10..12].copy_from_slice(&(!(sum as u16)).to_be_bytes());
    h
}

/// `t` in whole milliseconds, as 32 bits (TCP timestamps).
pub fn ms32(t: SimTime) -> u32 {
    (t.0 / 1_000_000_000) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::{FlowId, NodeId};
    use crate::net::packet::SackBlocks;
    use crate::units::Bytes;

    fn tcp() -> FlowWire {
        FlowWire { protocol: 6, header: crate::transport::tcp::pcap::write_header, mss: 1000, data_header: 40, timestamps: false }
    }

    #[test]
    fn a_data_segment_becomes_a_40_byte_ipv4_tcp_header_with_byte_sequence_numbers() {
        let at = SimTime::from_millis(1500);
        let p = Packet { ecn: Ecn::Ce, ..Packet::data(FlowId(3), NodeId(1), 7, Bytes(1040), at) };
        let file = write(&[(at, p)], &[tcp(); 4]);
        assert_eq!(file.len(), 24 + 16 + 40);
        let rec = &file[24..];
        assert_eq!(u32::from_le_bytes(rec[0..4].try_into().unwrap()), 1);
        assert_eq!(u32::from_le_bytes(rec[4..8].try_into().unwrap()), 500_000_000);
        assert_eq!(u32::from_le_bytes(rec[8..12].try_into().unwrap()), 40, "headers captured");
        assert_eq!(u32::from_le_bytes(rec[12..16].try_into().unwrap()), 1040, "length on the wire");
        let ip = &rec[16..36];
        assert_eq!(ip[1] & 3, 3, "CE");
        assert_eq!(&ip[12..16], &[10, 64, 0, 3]);
        let tcp = &rec[36..56];
        assert_eq!(u32::from_be_bytes(tcp[4..8].try_into().unwrap()), 1 + 7 * 1000);
        // The IP header checksum verifies: the one's-complement sum over the header is 0xffff.
        let mut sum: u32 = ip.chunks(2).map(|w| u32::from(u16::from_be_bytes([w[0], w[1]]))).sum();
        while sum > 0xffff {
            sum = (sum & 0xffff) + (sum >> 16);
        }
        assert_eq!(sum, 0xffff);
    }

    #[test]
    fn an_ack_carries_its_sack_blocks_in_bytes() {
        let mut sack = SackBlocks::new(5);
        sack.push(6, 9);
        let p = Packet {
            kind: PacketKind::Ack,
            options: crate::net::packet::AckOptions::sack(sack),
            ece: true,
            ..Packet::data(FlowId(0), NodeId(0), 5, Bytes(40), SimTime::ZERO)
        };
        let file = write(&[(SimTime::ZERO, p)], &[tcp()]);
        let tcp = &file[24 + 16 + 20..];
        assert_eq!(tcp[12] >> 4, 8, "20 bytes + NOP NOP SACK(10) = 32 bytes");
        assert_eq!(tcp[13], 0x50, "ACK + ECE");
        assert_eq!(u32::from_be_bytes(tcp[8..12].try_into().unwrap()), 5001);
        assert_eq!(u32::from_be_bytes(tcp[24..28].try_into().unwrap()), 6001);
        assert_eq!(u32::from_be_bytes(tcp[28..32].try_into().unwrap()), 9001);
    }

    #[test]
    fn dccp_headers_smaller_than_an_ip_header_still_write_a_whole_dccp_header() {
        // dccp.data_header and ack_header accept sizes below the 20-byte IP header.
        let wire = FlowWire { protocol: 33, header: crate::transport::dccp::pcap::write_header, mss: 1000, data_header: 8, timestamps: false };
        let data = Packet::data(FlowId(0), NodeId(1), 3, Bytes(1008), SimTime::ZERO);
        let ack = Packet { kind: PacketKind::Ack, ..Packet::data(FlowId(0), NodeId(0), 1, Bytes(4), SimTime::ZERO) };
        let file = write(&[(SimTime::ZERO, data), (SimTime::ZERO, ack)], &[wire]);
        // 16 + 20 + 16 (generic header) and 16 + 20 + 24 (with the acknowledgement subheader).
        assert_eq!(file.len(), 24 + 52 + 60);
    }
}
