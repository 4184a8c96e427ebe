//! BBR's ACK-aggregation allowance, as Linux (since 4.19, `bbr_update_ack_aggregation`,
//! `bbr_ack_aggregation_cwnd`) and ns-3's `TcpBbr` have it: when ACKs come in bursts (delayed
//! ACKs, aggregation on the path), more data is acknowledged in a stretch than BtlBw explains,
//! and a window of exactly the BDP would leave the sender idle between bursts. The excess
//! since the ACK rate last fell to BtlBw (an epoch), at most the window, is kept as the
//! maximum of each of two windows of 5 rounds; the window target adds `gain` × the larger,
//! at most BtlBw × 100 ms, once the pipe is full.

use crate::units::SimTime;

/// Rounds of each of the two windows (`bbr_extra_acked_win_rtts`).
const WINDOW_ROUNDS: u32 = 5;
/// The allowance is at most this much of BtlBw, seconds (`bbr_extra_acked_max_us`).
const MAX_SECONDS: f64 = 0.1;

/// One flow's aggregation estimate.
#[derive(Clone, Debug)]
pub struct AckAggregation {
    gain: f64,
    /// The largest excess of each window, packets.
    extra: [f64; 2],
    idx: usize,
    rounds: u32,
    epoch_start: SimTime,
    epoch_acked: f64,
}

impl AckAggregation {
    /// An estimate weighted by `gain` in the window target (0: off).
    pub fn new(gain: f64) -> Self {
        AckAggregation { gain, extra: [0.0; 2], idx: 0, rounds: 0, epoch_start: SimTime::ZERO, epoch_acked: 0.0 }
    }

    /// An ACK at `now` acknowledged `acked` packets; `round_start` if it began a round, with
    /// BtlBw `btl_bw_pps` and the window `cwnd`.
    pub fn on_ack(&mut self, now: SimTime, acked: f64, round_start: bool, btl_bw_pps: f64, cwnd: f64) {
        if self.gain == 0.0 || acked <= 0.0 {
            return;
        }
        if round_start {
            self.rounds = (self.rounds + 1).min(31);
            if self.rounds >= WINDOW_ROUNDS {
                self.rounds = 0;
                self.idx = 1 - self.idx;
                self.extra[self.idx] = 0.0;
            }
        }
        let mut expected = btl_bw_pps * now.saturating_since(self.epoch_start).as_secs_f64();
        // A new epoch when the ACKs fell behind BtlBw (or after very many).
        if self.epoch_acked <= expected || self.epoch_acked + acked >= (1u64 << 20) as f64 {
            (self.epoch_acked, self.epoch_start, expected) = (0.0, now, 0.0);
        }
        self.epoch_acked += acked;
        let excess = (self.epoch_acked - expected).min(cwnd);
        self.extra[self.idx] = self.extra[self.idx].max(excess);
    }

    /// The packets the window target adds, once the pipe is full.
    pub fn cwnd_pkts(&self, btl_bw_pps: f64, full_pipe: bool) -> f64 {
        if self.gain == 0.0 || !full_pipe {
            return 0.0;
        }
        (self.gain * self.extra[0].max(self.extra[1])).min(btl_bw_pps * MAX_SECONDS)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn acks_in_bursts_add_the_burst_and_smooth_acks_add_nothing() {
        // BtlBw 1,000 packets/s: one packet a millisecond.
        let mut smooth = AckAggregation::new(1.0);
        for ms in 1..=200 {
            smooth.on_ack(SimTime::from_millis(ms), 1.0, ms % 40 == 0, 1_000.0, 100.0);
        }
        assert!(smooth.cwnd_pkts(1_000.0, true) <= 1.0, "{}", smooth.cwnd_pkts(1_000.0, true));
        // The same rate in bursts of 20 packets every 20 ms: a burst of excess each time.
        let mut bursty = AckAggregation::new(1.0);
        for ms in (20..=200).step_by(20) {
            bursty.on_ack(SimTime::from_millis(ms), 20.0, ms % 40 == 0, 1_000.0, 100.0);
        }
        let extra = bursty.cwnd_pkts(1_000.0, true);
        assert!((19.0..=21.0).contains(&extra), "{extra}");
        assert_eq!(bursty.cwnd_pkts(1_000.0, false), 0.0, "only once the pipe is full");
        assert_eq!(AckAggregation::new(0.0).cwnd_pkts(1_000.0, true), 0.0);
        // At most 100 ms of BtlBw.
        assert!(bursty.cwnd_pkts(100.0, true) <= 10.0);
    }
}
