//! DCCP, the Datagram Congestion Control Protocol (RFC 4340), as far as congestion control
//! needs it: an unreliable transport whose every packet has a sequence number, whose
//! acknowledgements carry an Ack Vector saying exactly which packets arrived, and whose
//! congestion control is a pluggable CCID — CCID-2, TCP-like (RFC 4341), with any window
//! controller of the `cc` registry (`tw` is the thesis's TCP-like TW), or CCID-3, TFRC
//! (RFC 4342 / RFC 5348), through the rate-control interface.
//!
//! What rides in a DCCP packet's fields (`net::packet::Packet`): data — `seq` its sequence
//! number, `sack.base()` the sender's ack of ack + 1 (0: none yet), `ccid_value` the Ack Ratio asked for
//! (CCID-2) or the sender's RTT in 100 µs units (CCID-3); ACK — `seq` the ACK's own sequence number, `sack` the Ack Vector's three newest
//! received runs (the first ends at the acknowledgement number + 1), `echo_sent_at` a
//! Timestamp Echo, `ece` ECN-Echo; CCID-3 feedback — `sack.words()` X_recv (bytes/s), 1/p
//! (u32::MAX: no loss) and the elapsed time (µs), RFC 4342 §8.3–8.5's 32-bit values. Sizes on the wire follow RFC 4340 (`params`).
//!
//! Not modelled: the handshake and teardown, feature negotiation (its outcome rides on data
//! packets), Sync/SyncAck, checksums, the Sequence Window, and DCCP-Ack packets from the
//! sender (its ack of ack rides on data packets, so a sender with nothing to send leaves
//! the receiver's vector untrimmed — only ACK sizes are affected).

pub mod ack_vector;
pub mod ccid2;
pub mod ccid2_receiver;
pub mod ccid3;
pub mod ccid3_receiver;
pub mod loss_intervals;
pub mod params;
pub mod pcap;
pub mod receiver;
pub mod send_buffer;
pub mod sender;
pub mod transport;
