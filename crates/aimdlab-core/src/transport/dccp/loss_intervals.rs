//! The TFRC receiver's loss-event rate (RFC 5348 §5): losses within one round trip of the
//! loss that starts a loss event belong to it; a loss interval runs from the first loss of
//! one event to just before the first loss of the next; p is 1 / the weighted mean of the
//! last eight intervals, with weights (1, 1, 1, 1, 0.8, 0.6, 0.4, 0.2), counting the open
//! interval only when it raises the mean (§5.4). The first interval is synthesised from the
//! receive rate at the first loss (§6.3.1).

use crate::cc::tfrc::equation_loss_rate;
use crate::units::{SimDuration, SimTime};
use std::collections::VecDeque;

/// Weights of the loss intervals, newest first (RFC 5348 §5.4).
pub const WEIGHTS: [f64; 8] = [1.0, 1.0, 1.0, 1.0, 0.8, 0.6, 0.4, 0.2];

/// The loss-interval history of one receiver.
#[derive(Clone, Debug, Default)]
pub struct LossIntervals {
    /// Closed intervals, packets, newest first (at most 8).
    closed: VecDeque<u64>,
    /// The first lost packet of the current loss event and when it was (nominally) lost.
    event: Option<(u64, SimTime)>,
    /// Loss events so far.
    pub events: u64,
}

impl LossIntervals {
    /// Packet `seq`, nominally due at `at`, was lost (or ECN-marked); `rtt` is the receiver's
    /// RTT estimate, `x_recv`/`s`: the receive rate (bytes/s) and packet size for the first
    /// interval. Returns whether it started a new loss event.
    pub fn on_loss(&mut self, seq: u64, at: SimTime, rtt: SimDuration, x_recv: f64, s: f64) -> bool {
        match self.event {
            Some((_, start)) if at.saturating_since(start) <= rtt => false,
            Some((first, _)) => {
                self.closed.push_front(seq - first);
                self.closed.truncate(WEIGHTS.len());
                self.event = Some((seq, at));
                self.events += 1;
                true
            }
            None => {
                // §6.3.1: the interval before the first loss is the one whose p gives the
                // equation's rate equal to the receive rate.
                let r = rtt.as_secs_f64().max(1e-6);
                let p = equation_loss_rate(s, r, x_recv.max(s / 64.0));
                self.closed.push_front((1.0 / p).round().max(1.0) as u64);
                self.event = Some((seq, at));
                self.events += 1;
                true
            }
        }
    }

    /// The loss-event rate with `highest` the greatest sequence number received (0 before
    /// any loss).
    pub fn p(&self, highest: u64) -> f64 {
        let Some((first, _)) = self.event else {
            return 0.0;
        };
        let open = (highest + 1).saturating_sub(first) as f64;
        let (mut tot0, mut tot1, mut w_tot) = (0.0, 0.0, 0.0);
        for (i, &w) in WEIGHTS.iter().enumerate().take(self.closed.len()) {
            let newer = if i == 0 { open } else { self.closed[i - 1] as f64 };
            tot0 += newer * w;
            tot1 += self.closed[i] as f64 * w;
            w_tot += w;
        }
        1.0 / (tot0.max(tot1) / w_tot)
    }

    /// Intervals held (the open one included), for the size of the Loss Intervals option.
    pub fn count(&self) -> usize {
        self.closed.len() + usize::from(self.event.is_some())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn losses_within_one_rtt_are_one_event_and_p_is_the_weighted_mean() {
        let rtt = SimDuration::from_millis(100);
        let mut li = LossIntervals::default();
        assert_eq!(li.p(1000), 0.0);
        // First loss: synthesised interval from X_recv; force 100 packets via the equation.
        let x = crate::cc::tfrc::equation_rate_bytes_per_s(1000.0, 0.1, 0.01);
        assert!(li.on_loss(500, SimTime::from_millis(1000), rtt, x, 1000.0));
        assert!(!li.on_loss(503, SimTime::from_millis(1050), rtt, x, 1000.0), "within R of the event's start");
        assert!(li.on_loss(600, SimTime::from_millis(1200), rtt, x, 1000.0));
        assert!(li.on_loss(700, SimTime::from_millis(1400), rtt, x, 1000.0));
        assert_eq!(li.events, 3);
        // Closed: [100, 100, 100] (the synthesised one first); open interval at 749: 50.
        // tot0 = 50 + 100 + 100 = 250, tot1 = 300: p = 1/(300/3) = 0.01.
        assert!((li.p(749) - 0.01).abs() < 1e-12, "{}", li.p(749));
        // A long open interval counts: at 1099 it is 400: (400 + 200)/3 = 200.
        assert!((li.p(1099) - 1.0 / 200.0).abs() < 1e-12);
    }

    #[test]
    fn only_eight_intervals_are_kept() {
        let rtt = SimDuration::from_millis(1);
        let mut li = LossIntervals::default();
        for k in 0..20u64 {
            li.on_loss(10 * k, SimTime::from_millis(10 * k), rtt, 1e6, 1000.0);
        }
        assert_eq!(li.count(), 9);
        assert!((li.p(199) - 0.1).abs() < 1e-12, "every interval is 10 packets");
    }
}
