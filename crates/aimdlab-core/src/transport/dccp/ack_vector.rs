//! The receiver's Ack Vector (RFC 4340 §11.4): which data packets arrived, from the oldest the
//! sender does not yet know about (just above the acknowledgement number the sender last
//! confirmed, its "ack of ack", RFC 4340 §11.4.2) up to the greatest sequence number received.
//!
//! On the wire an Ack Vector is run-length encoded: one byte per run of up to 64 packets in
//! one state (received or not received). aimdlab keeps the received runs as ranges and puts
//! the three most recent in the ACK (the packet's `sack` ranges); the ACK's size counts the
//! whole vector's bytes as RFC 4340 would send them. The three most recent runs are what a
//! sender needs: older runs were carried by earlier ACKs (each run is the most recent when
//! it grows), so only the loss of several ACKs in a row hides a run, and the sender then
//! counts those packets lost, as a real sender whose ACKs were lost would.

use crate::net::packet::{SackBlocks, MAX_SACK_BLOCKS};
use std::collections::VecDeque;

/// Packets one run-length byte covers (6 bits of run length + 1, RFC 4340 §11.4).
pub const RUN_PKTS: u64 = 64;

/// The received packets a DCCP receiver still reports.
#[derive(Clone, Debug, Default)]
pub struct AckVector {
    /// Received ranges `[start, end)`, ascending, disjoint and not adjacent.
    runs: VecDeque<(u64, u64)>,
    /// First sequence number the vector covers (the sender knows everything below it).
    low: u64,
}

impl AckVector {
    /// Records the arrival of packet `seq`; false if it was received before (or lies below
    /// what the vector covers, so it is old news to the sender).
    pub fn record(&mut self, seq: u64) -> bool {
        if seq < self.low {
            return false;
        }
        match self.runs.back_mut() {
            Some(last) if seq == last.1 => {
                last.1 += 1; // the usual case: the next packet in order
                return true;
            }
            Some(last) if seq > last.1 => {
                self.runs.push_back((seq, seq + 1));
                return true;
            }
            None => {
                self.runs.push_back((seq, seq + 1));
                return true;
            }
            _ => {}
        }
        // Out of order: find the first run ending at or after seq.
        let i = self.runs.partition_point(|&(_, e)| e < seq);
        let (s, e) = self.runs[i];
        if seq >= s && seq < e {
            return false;
        }
        if seq == e {
            // extends run i at its end; may join run i + 1
            self.runs[i].1 += 1;
            if i + 1 < self.runs.len() && self.runs[i + 1].0 == self.runs[i].1 {
                self.runs[i].1 = self.runs[i + 1].1;
                self.runs.remove(i + 1);
            }
        } else if seq + 1 == s {
            self.runs[i].0 = seq;
        } else {
            self.runs.insert(i, (seq, seq + 1));
        }
        true
    }

    /// The sender has confirmed ACKs whose acknowledgement numbers reach below `known_below`
    /// (its ack of ack + 1; 0 before any ACK): forgets every packet below it.
    pub fn trim(&mut self, known_below: u64) {
        let low = known_below;
        if low <= self.low {
            return;
        }
        self.low = low;
        while let Some(first) = self.runs.front_mut() {
            if first.1 <= low {
                self.runs.pop_front();
            } else {
                first.0 = first.0.max(low);
                break;
            }
        }
    }

    /// The greatest sequence number received, if any is still reported.
    pub fn greatest_received(&self) -> Option<u64> {
        self.runs.back().map(|&(_, e)| e - 1)
    }

    /// The most recent received runs as the ACK carries them: at most three, newest first.
    pub fn recent_runs(&self) -> SackBlocks {
        let oldest = self.runs.len().saturating_sub(MAX_SACK_BLOCKS);
        let base = self.runs.get(oldest).map_or(0, |&(s, _)| s);
        let mut blocks = SackBlocks::new(base);
        for &(s, e) in self.runs.iter().rev().take(MAX_SACK_BLOCKS) {
            blocks.push(s, e);
        }
        blocks
    }

    /// Bytes of the Ack Vector option on the wire: type and length (2) plus one byte per run
    /// of up to 64 packets in one state, over `[low, greatest received]`, padded to a
    /// multiple of 4 (the header length counts 32-bit words, RFC 4340 §5.1).
    pub fn option_bytes(&self) -> u64 {
        let mut bytes = 0;
        let mut at = self.low;
        for &(s, e) in &self.runs {
            bytes += (s - at).div_ceil(RUN_PKTS) + (e - s).div_ceil(RUN_PKTS);
            at = e;
        }
        (2 + bytes).div_ceil(4) * 4
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn in_order_packets_make_one_run_and_holes_make_more() {
        let mut v = AckVector::default();
        for s in [0, 1, 2, 4, 5, 9] {
            assert!(v.record(s));
        }
        assert!(!v.record(5), "a duplicate is not new");
        assert_eq!(v.greatest_received(), Some(9));
        assert_eq!(v.recent_runs().to_vec(), vec![(9, 10), (4, 6), (0, 3)]);
        // late arrivals fill holes and join runs
        assert!(v.record(3));
        assert_eq!(v.recent_runs().to_vec(), vec![(9, 10), (0, 6)]);
        assert!(v.record(7));
        assert!(v.record(8));
        assert!(v.record(6));
        assert_eq!(v.recent_runs().to_vec(), vec![(0, 10)]);
    }

    #[test]
    fn only_the_three_newest_runs_ride_in_an_ack() {
        let mut v = AckVector::default();
        for s in [0, 2, 4, 6, 8] {
            v.record(s);
        }
        assert_eq!(v.recent_runs().to_vec(), vec![(8, 9), (6, 7), (4, 5)]);
    }

    #[test]
    fn the_ack_of_ack_trims_what_the_sender_knows() {
        let mut v = AckVector::default();
        for s in 0..10 {
            v.record(s);
        }
        v.trim(0);
        assert_eq!(v.recent_runs().to_vec(), vec![(0, 10)], "0: the sender knows nothing yet");
        v.trim(6);
        assert_eq!(v.recent_runs().to_vec(), vec![(6, 10)]);
        assert!(!v.record(3), "below the vector: old news");
        v.trim(21);
        assert_eq!(v.greatest_received(), None);
    }

    #[test]
    fn option_size_counts_runs_of_64() {
        let mut v = AckVector::default();
        assert_eq!(v.option_bytes(), 4, "2 bytes of type and length, padded");
        for s in 0..64 {
            v.record(s);
        }
        assert_eq!(v.option_bytes(), 4, "one run byte: 3 bytes, padded to 4");
        v.record(64);
        assert_eq!(v.option_bytes(), 4, "65 packets take two run bytes: 4");
        v.record(70); // a hole of 5, then one received
        assert_eq!(v.option_bytes(), 8, "four run bytes + 2 = 6, padded to 8");
    }
}
