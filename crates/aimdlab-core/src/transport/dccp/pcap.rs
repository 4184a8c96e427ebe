//! DCCP packets in a pcap trace (`crate::net::pcap` says what is synthetic).

use crate::net::packet::{Packet, PacketKind};
use crate::net::pcap::{sender_port, FlowWire, IP_HEADER, RECEIVER_PORT};

/// Writes the DCCP header of `p` (RFC 4340 §5.1 with X = 1); returns its payload bytes.
pub fn write_header(h: &mut Vec<u8>, p: &Packet, f: u32, wire: &FlowWire) -> u64 {
    let data = p.kind == PacketKind::Data;
    let (sport, dport) = if data { (sender_port(f), RECEIVER_PORT) } else { (RECEIVER_PORT, sender_port(f)) };
    let (kind, fixed) = if data { (2u8, 16usize) } else { (3u8, 24usize) };
    // The simulated size: data = data_header + payload; an ACK = its header and options.
    let (header_bytes, payload) = if data {
        ((wire.data_header as usize).saturating_sub(IP_HEADER), p.size.0.saturating_sub(wire.data_header))
    } else {
        ((p.size.0 as usize).saturating_sub(IP_HEADER), 0)
    };
    let header_bytes = header_bytes.max(fixed).div_ceil(4) * 4;
    h.extend_from_slice(&sport.to_be_bytes());
    h.extend_from_slice(&dport.to_be_bytes());
    h.push((header_bytes / 4) as u8);
    h.push(((p.ccid_value & 0xf) as u8) << 4);
    h.extend_from_slice(&[0, 0]); // checksum
    h.push((kind << 1) | 1); // type, X = 1
    h.push(0);
    h.extend_from_slice(&(p.seq & 0xffff_ffff_ffff).to_be_bytes()[2..]);
    if !data {
        let acked = p.options.ranges().iter().next().map_or(0, |(_, e)| e.saturating_sub(1));
        h.extend_from_slice(&[0, 0]);
        h.extend_from_slice(&(acked & 0xffff_ffff_ffff).to_be_bytes()[2..]);
    }
    h.resize(header_bytes, 0); // options as Padding (type 0)
    payload
}
