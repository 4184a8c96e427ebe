//! Per-round RTT statistics for the delay-based controllers (Vegas, Veno, YeAH, Illinois).
//!
//! A round is one window of data: it ends when the cumulative ACK passes the segment that was
//! next to send when the round began (`snd_nxt`), as Linux's `tcp_vegas.c` marks it with
//! `beg_snd_nxt`. Within a round the controller collects the RTT samples; over the whole
//! connection it keeps the smallest sample as the propagation delay (`baseRTT`).

use super::congestion_control::AckEvent;
use crate::units::SimDuration;

/// RTT samples of the current round and the smallest ever seen.
#[derive(Clone, Debug, Default)]
pub struct RttRound {
    /// The round ends when `snd_una` passes this segment.
    end_seq: u64,
    /// Smallest RTT sample of the connection (`baseRTT`).
    base: Option<SimDuration>,
    /// Smallest and largest RTT sample of this round, their sum and count.
    min: Option<SimDuration>,
    max: Option<SimDuration>,
    sum_ps: u128,
    count: u32,
    /// Rounds are suspended (a recovery or a timeout); see `on_ack_when_open`.
    paused: bool,
}

/// The statistics of a round that has just ended.
#[derive(Clone, Copy, Debug)]
pub struct RoundSample {
    /// Smallest RTT sample of the connection, seconds.
    pub base_rtt_s: f64,
    /// Smallest RTT sample of the round, seconds.
    pub min_rtt_s: f64,
    /// Largest RTT sample of the round, seconds.
    pub max_rtt_s: f64,
    /// Mean RTT sample of the round, seconds.
    pub mean_rtt_s: f64,
    /// RTT samples in the round.
    pub count: u32,
}

impl RttRound {
    /// Takes `ev`'s RTT sample; returns the round's statistics when `ev` ends a round (the
    /// round is then reset), `None` otherwise. A round without samples ends with `None`.
    pub fn on_ack(&mut self, ev: &AckEvent) -> Option<RoundSample> {
        if let Some(rtt) = ev.rtt_sample {
            self.base = Some(self.base.map_or(rtt, |b| b.min(rtt)));
            self.min = Some(self.min.map_or(rtt, |m| m.min(rtt)));
            self.max = Some(self.max.map_or(rtt, |m| m.max(rtt)));
            self.sum_ps += u128::from(rtt.0);
            self.count += 1;
        }
        if ev.snd_una <= self.end_seq {
            return None;
        }
        let sample = match (self.base, self.min, self.max) {
            (Some(base), Some(min), Some(max)) if self.count > 0 => Some(RoundSample {
                base_rtt_s: base.as_secs_f64(),
                min_rtt_s: min.as_secs_f64(),
                max_rtt_s: max.as_secs_f64(),
                mean_rtt_s: (self.sum_ps / u128::from(self.count)) as f64 / 1e12,
                count: self.count,
            }),
            _ => None,
        };
        self.restart(ev.snd_nxt);
        sample
    }

    /// As `on_ack`, but rounds stop during a recovery and after `pause`, and the first ACK
    /// outside them starts a fresh round (Linux's `vegas_enable` when the state returns to
    /// Open: samples taken across a reduction would mix two windows). The base RTT still
    /// takes every sample.
    pub fn on_ack_when_open(&mut self, ev: &AckEvent) -> Option<RoundSample> {
        if ev.in_recovery || self.paused {
            if let Some(rtt) = ev.rtt_sample {
                self.base = Some(self.base.map_or(rtt, |b| b.min(rtt)));
            }
            if !ev.in_recovery {
                self.paused = false;
                self.restart(ev.snd_nxt);
            } else {
                self.paused = true;
            }
            return None;
        }
        self.on_ack(ev)
    }

    /// Suspends rounds until the next ACK outside a recovery (after a timeout).
    pub fn pause(&mut self) {
        self.paused = true;
    }

    /// Starts a new round ending at `snd_nxt`, forgetting this round's samples (not the base).
    pub fn restart(&mut self, snd_nxt: u64) {
        self.end_seq = snd_nxt;
        self.min = None;
        self.max = None;
        self.sum_ps = 0;
        self.count = 0;
    }

    /// Smallest RTT sample of the connection, seconds, if any.
    pub fn base_rtt_s(&self) -> Option<f64> {
        self.base.map(SimDuration::as_secs_f64)
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::Pipe;
    use super::*;

    #[test]
    fn a_round_is_one_window_and_reports_its_samples() {
        let mut r = RttRound::default();
        let mut pipe = Pipe::new(10);
        let mut ended = Vec::new();
        for round in 0..3 {
            let rtt = SimDuration::from_millis(100 + 10 * round);
            for ev in pipe.round_with(rtt, |_| 10.0) {
                ended.extend(r.on_ack(&ev));
            }
        }
        // The first ACK ends the (empty) round before it; then one round per window of 10,
        // each ended by the first ACK of the next, whose sample it counts (as Linux does).
        assert_eq!(ended.iter().map(|s| s.count).collect::<Vec<_>>(), [1, 10, 10], "{ended:?}");
        assert!((ended[1].min_rtt_s - 0.100).abs() < 1e-12 && (ended[2].min_rtt_s - 0.110).abs() < 1e-12, "{ended:?}");
        assert!((ended[2].max_rtt_s - 0.120).abs() < 1e-12 && (ended[2].base_rtt_s - 0.100).abs() < 1e-12, "{ended:?}");
        assert!((ended[2].mean_rtt_s - 0.111).abs() < 1e-12, "{ended:?}");
    }
}
