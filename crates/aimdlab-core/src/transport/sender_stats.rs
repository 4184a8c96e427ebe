//! The sender monitor: what a flow's sending endpoint did — data packets and bytes sent,
//! retransmissions, fast retransmits, timeouts, ECN reductions, ACKs — and the loss-event
//! rate the papers use, defined here once. The endpoint counts into it as it acts (TCP all
//! of it, UDP its packets and bytes); a measurement window is the difference from a snapshot.

/// Sender-side counters. A sender keeps them over the whole run; a measurement window is
/// their difference from the snapshot taken when it started (`since`).
#[derive(Clone, Copy, Debug, Default)]
pub struct SenderStats {
    /// Data packets handed to the network (originals and retransmissions).
    pub data_pkts_sent: u64,
    /// Wire bytes of those packets.
    pub data_bytes_sent: u64,
    /// Application payload bytes sent for the first time (TCP: new segments, no
    /// retransmission; UDP and DCCP, which resend nothing: every data packet's payload).
    pub payload_bytes_sent: u64,
    /// Retransmitted data packets.
    pub retransmitted_pkts: u64,
    /// Fast retransmits (entries into fast recovery).
    pub fast_retransmits: u64,
    /// Retransmission timeouts (every expiry, backoffs included).
    pub timeouts: u64,
    /// Timeouts that start a sequence (the RTO was not backed off): one loss indication each,
    /// as Padhye et al. and gaimd.txt count them.
    pub timeout_sequences: u64,
    /// Sum over those first timeouts of the RTO in effect, picoseconds (the models' T0).
    pub rto_first_sum_ps: u128,
    /// Window reductions in response to ECN-Echo.
    pub ecn_reductions: u64,
    /// ACKs received.
    pub acks_received: u64,
    /// Window reductions in response to a loss by a transport that does not retransmit
    /// (DCCP CCID-2: at most one per round trip).
    pub loss_reductions: u64,
    /// Data packets the sender deemed lost and did not resend (DCCP).
    pub lost_pkts: u64,
    /// Messages the application offered that the send buffer discarded (DCCP).
    pub app_drops: u64,
}

impl SenderStats {
    /// What happened since `base` (an earlier snapshot of the same counters).
    pub fn since(&self, base: &SenderStats) -> SenderStats {
        SenderStats {
            data_pkts_sent: self.data_pkts_sent - base.data_pkts_sent,
            data_bytes_sent: self.data_bytes_sent - base.data_bytes_sent,
            payload_bytes_sent: self.payload_bytes_sent - base.payload_bytes_sent,
            retransmitted_pkts: self.retransmitted_pkts - base.retransmitted_pkts,
            fast_retransmits: self.fast_retransmits - base.fast_retransmits,
            timeouts: self.timeouts - base.timeouts,
            timeout_sequences: self.timeout_sequences - base.timeout_sequences,
            rto_first_sum_ps: self.rto_first_sum_ps - base.rto_first_sum_ps,
            ecn_reductions: self.ecn_reductions - base.ecn_reductions,
            acks_received: self.acks_received - base.acks_received,
            loss_reductions: self.loss_reductions - base.loss_reductions,
            lost_pkts: self.lost_pkts - base.lost_pkts,
            app_drops: self.app_drops - base.app_drops,
        }
    }

    /// Mean RTO at the first timeout of each sequence, ms (the models' T0; NaN without one).
    pub fn rto_first_mean_ms(&self) -> f64 {
        if self.timeout_sequences == 0 {
            return f64::NAN;
        }
        self.rto_first_sum_ps as f64 / self.timeout_sequences as f64 / 1e9
    }

    /// Loss events: window reductions in response to loss — fast retransmits (entries into
    /// fast recovery, at most one per window), DCCP's loss reductions (at most one per round
    /// trip), plus every retransmission timeout (each expiry, backoffs included, cuts the
    /// window again, as ns-2's `slowdown` counts it). The papers' measure of p (gaimd.txt
    /// §2.4.1: window reductions per packet sent).
    pub fn loss_events(&self) -> u64 {
        self.fast_retransmits + self.loss_reductions + self.timeouts
    }

    /// The loss-event rate p of the models: loss events per data packet sent
    /// (retransmissions included), NaN before any packet. ECN reductions are not in it (see
    /// `ecn_event_rate`).
    pub fn loss_event_rate(&self) -> f64 {
        if self.data_pkts_sent == 0 {
            return f64::NAN;
        }
        self.loss_events() as f64 / self.data_pkts_sent as f64
    }

    /// Window reductions in response to ECN-Echo per data packet sent, NaN before any packet.
    pub fn ecn_event_rate(&self) -> f64 {
        if self.data_pkts_sent == 0 {
            return f64::NAN;
        }
        self.ecn_reductions as f64 / self.data_pkts_sent as f64
    }
}
