//! Proportional Rate Reduction (RFC 6937): how many segments fast recovery may send on each
//! ACK, so that the window comes down to ssthresh smoothly over one round trip instead of a
//! half-RTT silence followed by a burst (RFC 6675's `pipe < cwnd` rule), and ends near
//! ssthresh even when losses or ACK losses shrink `pipe` far below it.
//!
//! The rule is RFC 6937 §3 with its Slow Start Reduction Bound (SSRB), the variant Linux
//! (`tcp_cwnd_reduction`) runs:
//!
//! ```text
//! at entry:      prr_delivered = prr_out = 0, RecoverFS = snd.nxt − snd.una
//! on each ACK:   prr_delivered += DeliveredData
//!   pipe > ssthresh:  sndcnt = ⌈prr_delivered · ssthresh / RecoverFS⌉ − prr_out
//!   otherwise:        sndcnt = min(ssthresh − pipe, max(prr_delivered − prr_out, DeliveredData) + 1)
//! on each send:  prr_out += 1
//! ```
//!
//! Units are segments. Choices where the sources differ, written down:
//! - RecoverFS is the data outstanding at entry (RFC 6937); ns-3 uses `pipe` at entry, Linux
//!   the congestion window before the cut (`prior_cwnd`): equal when the window was full.
//! - The reduction bound adds one segment on every ACK (RFC 6937); Linux adds it only when
//!   the ACK advanced snd.una and marked nothing newly lost, ns-3.44 only when it
//!   cumulatively acknowledged a retransmission (PRR-CRB otherwise).
//! - As Linux does, the first call of a recovery allows at least one segment, so the fast
//!   retransmission always leaves, and an ACK that delivers nothing allows nothing.
//! - PRR also runs in CWR after an ECN echo (Linux's CA_CWR, ns-3's `EnterCwr`), from
//!   `enter_cwr`: there is nothing to retransmit, so its first ACK gets no forced segment.
//!
//! Not modelled: two errors of ns-3.44's `TcpPrrRecovery::DoRecovery`, which move its
//! results away from these rules (docs/explanation/aimd-family.md has the measurements).
//! It adds one segment to DeliveredData for every duplicate ACK even with SACK, where RFC
//! 6937 does so only without it (the SACKed segment is then counted twice, and a cut to 0.7
//! sends 1.4 segments per segment delivered); and it multiplies `prr_delivered · ssthresh`
//! in 32-bit bytes, which wraps once the product passes 2³² and stops sending until pipe
//! falls to ssthresh.

/// One fast recovery's PRR state.
#[derive(Clone, Copy, Debug, Default)]
pub struct Prr {
    /// Segments delivered to the receiver since recovery began (cumulatively or SACKed).
    delivered_pkts: u64,
    /// Segments sent since recovery began (new or retransmitted).
    out_pkts: u64,
    /// Segments outstanding when recovery began (RFC 6937 RecoverFS).
    recover_fs_pkts: u64,
    /// A CWR reduction (no retransmission to force out first).
    cwr: bool,
    /// Segments it still lets leave before the next ACK.
    budget_pkts: u64,
}

impl Prr {
    /// Starts a recovery with `outstanding_pkts` = snd.nxt − snd.una.
    pub fn enter(outstanding_pkts: u64) -> Self {
        Prr { delivered_pkts: 0, out_pkts: 0, recover_fs_pkts: outstanding_pkts.max(1), cwr: false, budget_pkts: 0 }
    }

    /// Starts a CWR reduction after an ECN echo with `outstanding_pkts` = snd.nxt − snd.una.
    pub fn enter_cwr(outstanding_pkts: u64) -> Self {
        Prr { cwr: true, ..Prr::enter(outstanding_pkts) }
    }

    /// A segment was sent during recovery.
    #[inline]
    pub fn on_send(&mut self) {
        self.out_pkts += 1;
        self.budget_pkts = self.budget_pkts.saturating_sub(1);
    }

    /// Segments it lets leave before the next ACK.
    #[inline]
    pub fn budget_pkts(&self) -> u64 {
        self.budget_pkts
    }

    /// An ACK delivered `delivered_pkts` segments; with `pipe_pkts` in flight and the
    /// controller's `ssthresh_pkts`, sets how many segments may be sent now (sndcnt, the
    /// budget) and returns it.
    pub fn on_ack(&mut self, delivered_pkts: u64, pipe_pkts: u64, ssthresh_pkts: f64) -> u64 {
        self.budget_pkts = self.sndcnt(delivered_pkts, pipe_pkts, ssthresh_pkts);
        self.budget_pkts
    }

    /// RFC 6937's sndcnt for an ACK (see the module doc).
    fn sndcnt(&mut self, delivered_pkts: u64, pipe_pkts: u64, ssthresh_pkts: f64) -> u64 {
        let first = self.out_pkts == 0 && !self.cwr;
        if delivered_pkts == 0 {
            return u64::from(first);
        }
        self.delivered_pkts += delivered_pkts;
        let ssthresh = ssthresh_pkts.max(1.0);
        let sndcnt = if pipe_pkts as f64 > ssthresh {
            // Proportional part: send ssthresh/RecoverFS of what was delivered.
            let allowed = (self.delivered_pkts as f64 * ssthresh / self.recover_fs_pkts as f64).ceil() as u64;
            allowed.saturating_sub(self.out_pkts)
        } else {
            // Slow-start reduction bound: catch up towards ssthresh, at most one segment more
            // than delivered.
            let limit = self.delivered_pkts.saturating_sub(self.out_pkts).max(delivered_pkts) + 1;
            let room = (ssthresh - pipe_pkts as f64).floor() as u64;
            room.min(limit)
        };
        if first {
            sndcnt.max(1)
        } else {
            sndcnt
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_single_loss_in_a_window_of_100_sends_one_segment_per_two_acks_to_ssthresh_50() {
        // 100 outstanding, one lost: 99 ACKs come back, each delivering one segment.
        let mut prr = Prr::enter(100);
        let mut pipe = 99u64; // the lost one no longer counts
        let mut sent = 0u64;
        let mut largest_burst = 0u64;
        for _ in 0..99 {
            pipe -= 1;
            let n = prr.on_ack(1, pipe, 50.0);
            for _ in 0..n {
                prr.on_send();
            }
            pipe += n;
            sent += n;
            largest_burst = largest_burst.max(n);
        }
        // Proportional: ⌈99·50/100⌉ = 50 segments over the round trip, never two at once
        // except the entry ACK (the fast retransmission counts as its first).
        assert_eq!(sent, 50);
        assert!(largest_burst <= 1, "largest burst {largest_burst}");
        assert_eq!(pipe, 50);
    }

    #[test]
    fn after_heavy_loss_the_reduction_bound_climbs_back_like_slow_start() {
        // 100 outstanding, 80 lost: pipe is far below ssthresh 50; each ACK of one segment may
        // send two (delivered + 1), never more, until pipe reaches ssthresh.
        let mut prr = Prr::enter(100);
        let mut pipe = 20u64;
        for _ in 0..5 {
            pipe -= 1;
            let n = prr.on_ack(1, pipe, 50.0);
            assert!(n <= 2, "sndcnt {n}");
            pipe += n;
            for _ in 0..n {
                prr.on_send();
            }
        }
        assert_eq!(pipe, 25);
    }

    #[test]
    fn an_ack_that_delivers_nothing_sends_nothing_after_the_first() {
        let mut prr = Prr::enter(10);
        assert_eq!(prr.on_ack(0, 9, 5.0), 1, "the fast retransmission always leaves");
        prr.on_send();
        assert_eq!(prr.on_ack(0, 9, 5.0), 0);
    }
}
