//! RTT estimation and the retransmission timeout of RFC 6298.
//!
//! (2.2) first sample R: SRTT = R, RTTVAR = R/2; (2.3) later samples: RTTVAR = 3/4·RTTVAR +
//! 1/4·|SRTT − R|, SRTT = 7/8·SRTT + 1/8·R; RTO = SRTT + max(G, 4·RTTVAR), clamped to
//! [min_rto, max_rto] (2.4, 2.5). (5.5) each expiry doubles the RTO; a new valid sample
//! (Karn's rule: never from a retransmitted segment — enforced by the caller) removes the
//! backoff. G, the clock granularity, is 1 ms (ns-3's default).

use crate::units::SimDuration;

/// Clock granularity G of RFC 6298 §2.
pub const CLOCK_GRANULARITY: SimDuration = SimDuration::from_millis(1);

/// RTT estimator and RTO of one sender.
#[derive(Clone, Debug)]
pub struct RttEstimator {
    srtt: Option<SimDuration>,
    rttvar: SimDuration,
    rto: SimDuration,
    backoff: u32,
    min_rto: SimDuration,
    max_rto: SimDuration,
    min_rtt: Option<SimDuration>,
    /// Samples in the measurement window: count, sum (ps), min, max.
    pub samples: u64,
    sum_ps: u128,
    min_ps: u64,
    max_ps: u64,
}

impl RttEstimator {
    /// An estimator with no samples yet.
    pub fn new(initial_rto: SimDuration, min_rto: SimDuration, max_rto: SimDuration) -> Self {
        RttEstimator {
            srtt: None,
            rttvar: SimDuration::ZERO,
            rto: initial_rto.max(min_rto).min(max_rto),
            backoff: 0,
            min_rto,
            max_rto,
            min_rtt: None,
            samples: 0,
            sum_ps: 0,
            min_ps: u64::MAX,
            max_ps: 0,
        }
    }

    /// Takes one valid RTT sample.
    pub fn on_sample(&mut self, r: SimDuration) {
        match self.srtt {
            None => {
                self.srtt = Some(r);
                self.rttvar = SimDuration(r.0 / 2);
            }
            Some(srtt) => {
                let diff = srtt.0.abs_diff(r.0);
                self.rttvar = SimDuration((3 * self.rttvar.0 + diff) / 4);
                self.srtt = Some(SimDuration((7 * srtt.0 + r.0) / 8));
            }
        }
        let srtt = self.srtt.unwrap();
        let var_term = SimDuration(self.rttvar.0.saturating_mul(4)).max(CLOCK_GRANULARITY);
        self.rto = (srtt + var_term).max(self.min_rto).min(self.max_rto);
        self.backoff = 0;
        self.min_rtt = Some(self.min_rtt.map_or(r, |m| m.min(r)));
        self.samples += 1;
        self.sum_ps += r.0 as u128;
        self.min_ps = self.min_ps.min(r.0);
        self.max_ps = self.max_ps.max(r.0);
    }

    /// The timer expired: double the RTO (RFC 6298 (5.5)).
    pub fn on_timeout(&mut self) {
        self.backoff = (self.backoff + 1).min(30);
    }

    /// Timer expiries since the last new RTT sample (0: the next timeout starts a sequence).
    pub fn backoff(&self) -> u32 {
        self.backoff
    }

    /// The current RTO, backoff included.
    pub fn rto(&self) -> SimDuration {
        SimDuration(self.rto.0.saturating_mul(1u64 << self.backoff)).min(self.max_rto)
    }

    /// Smoothed RTT, or the current RTO before the first sample.
    pub fn srtt_or_rto(&self) -> SimDuration {
        self.srtt.unwrap_or(self.rto)
    }

    /// Smoothed RTT, if any sample was taken.
    pub fn srtt(&self) -> Option<SimDuration> {
        self.srtt
    }

    /// Smallest sample ever taken.
    pub fn min_rtt(&self) -> Option<SimDuration> {
        self.min_rtt
    }

    /// Forgets the window statistics (not the estimator state).
    pub fn start_window(&mut self) {
        self.samples = 0;
        self.sum_ps = 0;
        self.min_ps = u64::MAX;
        self.max_ps = 0;
    }

    /// (mean, min, max) of the window's samples in ms; NaN when none.
    pub fn window_stats_ms(&self) -> (f64, f64, f64) {
        if self.samples == 0 {
            return (f64::NAN, f64::NAN, f64::NAN);
        }
        (self.sum_ps as f64 / self.samples as f64 / 1e9, self.min_ps as f64 / 1e9, self.max_ps as f64 / 1e9)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc6298_first_and_second_sample() {
        let mut e = RttEstimator::new(SimDuration::from_secs(1), SimDuration::from_millis(200), SimDuration::from_secs(60));
        assert_eq!(e.rto(), SimDuration::from_secs(1));
        e.on_sample(SimDuration::from_millis(100));
        // SRTT 100, RTTVAR 50 → RTO = 100 + 200 = 300 ms.
        assert_eq!(e.rto(), SimDuration::from_millis(300));
        e.on_sample(SimDuration::from_millis(200));
        // RTTVAR = 3/4·50 + 1/4·100 = 62.5; SRTT = 112.5; RTO = 112.5 + 250 = 362.5 ms.
        assert_eq!(e.rto(), SimDuration::from_micros(362_500));
    }

    #[test]
    fn backoff_doubles_until_a_new_sample_and_respects_bounds() {
        let mut e = RttEstimator::new(SimDuration::from_secs(1), SimDuration::from_secs(1), SimDuration::from_secs(60));
        e.on_sample(SimDuration::from_millis(10));
        assert_eq!(e.rto(), SimDuration::from_secs(1)); // min_rto
        e.on_timeout();
        e.on_timeout();
        assert_eq!(e.rto(), SimDuration::from_secs(4));
        for _ in 0..10 {
            e.on_timeout();
        }
        assert_eq!(e.rto(), SimDuration::from_secs(60));
        e.on_sample(SimDuration::from_millis(10));
        assert_eq!(e.rto(), SimDuration::from_secs(1));
    }
}
