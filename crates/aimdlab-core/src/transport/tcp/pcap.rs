//! TCP packets in a pcap trace (`crate::net::pcap` says what is synthetic).

use crate::net::packet::{Packet, PacketKind};
use crate::net::pcap::{ms32, sender_port, FlowWire, RECEIVER_PORT};

/// Writes the TCP header of `p`; returns its payload bytes.
pub fn write_header(h: &mut Vec<u8>, p: &Packet, f: u32, wire: &FlowWire) -> u64 {
    let data = p.kind == PacketKind::Data;
    let byte = |seg: u64| (1 + seg.wrapping_mul(wire.mss)) as u32;
    let (sport, dport, seq, ack) = if data { (sender_port(f), RECEIVER_PORT, byte(p.seq), 1) } else { (RECEIVER_PORT, sender_port(f), 1, byte(p.seq)) };
    let mut flags = 0x10u8; // ACK
    if p.ece {
        flags |= 0x40;
    }
    if p.cwr {
        flags |= 0x80;
    }
    h.extend_from_slice(&sport.to_be_bytes());
    h.extend_from_slice(&dport.to_be_bytes());
    h.extend_from_slice(&seq.to_be_bytes());
    h.extend_from_slice(&ack.to_be_bytes());
    h.push(0); // data offset, set once the options are written
    h.push(flags);
    h.extend_from_slice(&65535u16.to_be_bytes());
    h.extend_from_slice(&[0, 0, 0, 0]); // checksum, urgent pointer
    if wire.timestamps {
        h.extend_from_slice(&[1, 1, 8, 10]);
        h.extend_from_slice(&ms32(p.sent_at).to_be_bytes());
        h.extend_from_slice(&(if data { 0 } else { ms32(p.echo_sent_at) }).to_be_bytes());
    }
    let sack = p.options.ranges();
    if !data && !sack.is_empty() {
        h.extend_from_slice(&[1, 1, 5, 2 + 8 * sack.len() as u8]);
        for (s, e) in sack.iter() {
            h.extend_from_slice(&byte(s).to_be_bytes());
            h.extend_from_slice(&byte(e).to_be_bytes());
        }
    }
    h[12] = ((h.len() / 4) as u8) << 4;
    if data {
        p.size.0.saturating_sub(wire.data_header)
    } else {
        0
    }
}
