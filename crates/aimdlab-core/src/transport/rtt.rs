//! RTT estimation and the retransmission timeout of RFC 6298.
//!
//! (2.2) first sample R: SRTT = R, RTTVAR = R/2; (2.3) later samples: RTTVAR = 3/4·RTTVAR +
//! 1/4·|SRTT − R|, SRTT = 7/8·SRTT + 1/8·R; RTO = SRTT + max(G, 4·RTTVAR), clamped to
//! [min_rto, max_rto] (2.4, 2.5). (5.5) each expiry doubles the RTO; a new valid sample
//! (Karn's rule: never from a retransmitted segment — enforced by the caller) removes the
//! backoff. G, the clock granularity, is 1 ms (ns-3's default).
//!
//! `linux_rto` (`tcp.rto_estimator = "linux"`): Linux's `tcp_rtt_estimator` and
//! `__tcp_set_rto` instead — the mean deviation counts a smaller RTT only 1/8 as much, its
//! largest value over a flight of data (`mdev_max`, reset to the minimum RTO each flight)
//! raises RTTVAR at once and lowers it by a quarter of the gap once per flight, and
//! RTO = SRTT + RTTVAR with RTTVAR never below the minimum RTO: a stable 100 ms path gets
//! 300 ms with a 200 ms minimum, where RFC 6298 gives max(SRTT + 4·RTTVAR, 200 ms) = 200 ms.
//!
//! `ns2` (`tcp.rto_estimator = "ns2"`): ns-2.35's `TcpAgent::rtt_update`, `rtt_timeout` and
//! `rtt_backoff` with `tcpTick_` 10 ms, `rttvar_exp_` 2 and `rfc2988_` on. One sample per
//! round trip (ns-2 times one segment at a time: here the first ACK past the data sent at
//! the previous sample), counted in clock ticks — the ticks between the segment's send
//! and its ACK (ns-2's `boot_time_` phase taken as 0); SRTT and RTTVAR are integers in
//! eighths and quarters of a tick; RTO = SRTT + 4·RTTVAR in whole ticks, at least min_rto
//! before the backoff multiplies it and at least two ticks; from the fifth expiry in a row
//! SRTT is folded into RTTVAR and restarts from the next sample.

use crate::units::{SimDuration, SimTime};

/// ns-2's clock tick (`Agent/TCP set tcpTick_ 0.01`).
pub const NS2_TICK: SimDuration = SimDuration::from_millis(10);

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
    /// Linux's estimator (`None`: RFC 6298's, or ns-2's).
    linux: Option<LinuxRto>,
    /// ns-2's estimator (`None`: RFC 6298's, or Linux's).
    ns2: Option<Ns2Rto>,
    /// Samples in the measurement window: count, sum (ps), min, max.
    pub samples: u64,
    sum_ps: u128,
    min_ps: u64,
    max_ps: u64,
}

/// Linux's estimator state (`tcp_sock`'s `mdev_us`, `mdev_max_us`, `rttvar_us`, `rtt_seq`),
/// in picoseconds; `mdev` and the two others are on Linux's ×4 scale of the mean deviation.
#[derive(Clone, Copy, Debug, Default)]
struct LinuxRto {
    mdev: i64,
    mdev_max: i64,
    rttvar: i64,
    rtt_seq: u64,
}

/// ns-2's estimator state (`TcpAgent`'s `t_srtt_`, `t_rttvar_`, `t_rtxcur_`), in ticks:
/// `t_srtt` in eighths, `t_rttvar` in quarters; `rtt_seq` ends the flight being timed.
#[derive(Clone, Copy, Debug, Default)]
struct Ns2Rto {
    t_srtt: i64,
    t_rttvar: i64,
    rtxcur_ticks: Option<i64>,
    rtt_seq: u64,
}

impl RttEstimator {
    /// An estimator that follows ns-2.35 (`TcpAgent::rtt_update`, see the module doc).
    pub fn ns2(initial_rto: SimDuration, min_rto: SimDuration, max_rto: SimDuration) -> Self {
        RttEstimator { ns2: Some(Ns2Rto::default()), ..RttEstimator::new(initial_rto, min_rto, max_rto) }
    }

    /// ns-2's `rtt_update` for an ACK at `now` of a segment sent `r` earlier, if it ends
    /// the flight being timed.
    fn on_ns2_sample(&mut self, mut n: Ns2Rto, r: SimDuration, now: SimTime, snd_una: u64, snd_nxt: u64, advanced: bool) {
        // ns-2 times one segment and ends the timing (and the backoff) only when the
        // cumulative ACK covers it (`newack`: `tcph->seqno() >= rtt_seq_`): a SACK alone does not.
        if snd_una <= n.rtt_seq || !advanced {
            return;
        }
        n.rtt_seq = snd_nxt;
        let tick = NS2_TICK.0;
        let t_rtt = ((now.0 / tick) as i64 - (now.0.saturating_sub(r.0) / tick) as i64).max(1);
        if n.t_srtt != 0 {
            let mut delta = t_rtt - (n.t_srtt >> 3);
            n.t_srtt += delta;
            if n.t_srtt <= 0 {
                n.t_srtt = 1;
            }
            delta = delta.abs() - (n.t_rttvar >> 2);
            n.t_rttvar += delta;
            if n.t_rttvar <= 0 {
                n.t_rttvar = 1;
            }
        } else {
            n.t_srtt = t_rtt << 3;
            n.t_rttvar = t_rtt << 1;
        }
        n.rtxcur_ticks = Some(((n.t_rttvar << 3) + n.t_srtt) >> 3);
        self.ns2 = Some(n);
        self.srtt = Some(SimDuration((n.t_srtt as u64 * tick) / 8));
        self.note_sample(r);
    }

    /// An estimator that follows Linux (`tcp_rtt_estimator`, `__tcp_set_rto`) instead of
    /// RFC 6298 (see the module doc).
    pub fn linux(initial_rto: SimDuration, min_rto: SimDuration, max_rto: SimDuration) -> Self {
        RttEstimator { linux: Some(LinuxRto::default()), ..RttEstimator::new(initial_rto, min_rto, max_rto) }
    }

    /// Takes one valid RTT sample, with the sender's oldest unacknowledged and next sequence
    /// numbers (Linux's estimator decays its variance once per flight of data, ns-2's takes
    /// one sample per flight), arriving at `now`.
    ///
    /// `advanced`: whether the ACK moved the cumulative point (ns-2 samples only then).
    pub fn on_sample_in_flight(&mut self, r: SimDuration, now: SimTime, snd_una: u64, snd_nxt: u64, advanced: bool) {
        if let Some(n) = self.ns2 {
            return self.on_ns2_sample(n, r, now, snd_una, snd_nxt, advanced);
        }
        let Some(mut l) = self.linux else {
            return self.on_sample(r);
        };
        let rto_min = self.min_rto.0 as i64;
        let m = (r.0 as i64).max(1);
        let srtt = match self.srtt {
            Some(srtt) => {
                let mut err = m - srtt.0 as i64;
                let srtt = srtt.0 as i64 + err / 8;
                if err < 0 {
                    err = -err - l.mdev / 4;
                    if err > 0 {
                        err /= 8; // a smaller RTT moves the deviation 1/8 as much
                    }
                } else {
                    err -= l.mdev / 4;
                }
                l.mdev += err;
                if l.mdev > l.mdev_max {
                    l.mdev_max = l.mdev;
                    l.rttvar = l.rttvar.max(l.mdev_max);
                }
                if snd_una > l.rtt_seq {
                    if l.mdev_max < l.rttvar {
                        l.rttvar -= (l.rttvar - l.mdev_max) / 4;
                    }
                    l.rtt_seq = snd_nxt;
                    l.mdev_max = rto_min;
                }
                srtt
            }
            None => {
                l.mdev = 2 * m;
                l.rttvar = l.mdev.max(rto_min);
                l.mdev_max = l.rttvar;
                l.rtt_seq = snd_nxt;
                m
            }
        };
        self.linux = Some(l);
        self.srtt = Some(SimDuration(srtt.max(1) as u64));
        self.rto = SimDuration((srtt + l.rttvar).max(1) as u64).min(self.max_rto);
        self.note_sample(r);
    }

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
            linux: None,
            ns2: None,
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
        self.note_sample(r);
    }

    /// Records a sample's statistics; a new sample ends the backoff.
    fn note_sample(&mut self, r: SimDuration) {
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
        // ns-2's `rtt_backoff`: backed off beyond 8×, SRTT is folded into RTTVAR.
        if let Some(n) = self.ns2.as_mut().filter(|_| self.backoff >= 4) {
            n.t_rttvar += n.t_srtt >> 3;
            n.t_srtt = 0;
        }
    }

    /// ns-2's timeout ends the timing in progress (`reset_rtx_timer`: `rtt_active_ = 0`); the
    /// next timed segment is the first new one (`output`: `seqno > maxseq_`), so the backoff
    /// ends only once the ACK covers data sent after the timeout — sequence `snd_nxt` at the
    /// timeout. Nothing for the other estimators.
    pub fn restart_timing_after_timeout(&mut self, snd_nxt: u64) {
        if let Some(n) = self.ns2.as_mut() {
            n.rtt_seq = snd_nxt;
        }
    }

    /// Timer expiries since the last new RTT sample (0: the next timeout starts a sequence).
    pub fn backoff(&self) -> u32 {
        self.backoff
    }

    /// The current RTO, backoff included.
    pub fn rto(&self) -> SimDuration {
        if let Some(n) = self.ns2 {
            // `rtt_timeout` with `rfc2988_`: min_rto applies before the backoff.
            let rtxcur = n.rtxcur_ticks.map_or(self.rto, |t| SimDuration(t as u64 * NS2_TICK.0));
            let base = rtxcur.max(self.min_rto);
            return SimDuration(base.0.saturating_mul(1u64 << self.backoff)).min(self.max_rto).max(SimDuration(2 * NS2_TICK.0));
        }
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
    fn ns2_ends_a_backoff_only_when_the_cumulative_ack_covers_data_sent_after_the_timeout() {
        // ns-2's `newack` ends the backoff when the ACK covers the timed segment; a timeout
        // stops the timing, and the next timed segment is the first new one.
        let ms = SimDuration::from_millis;
        let at = SimTime::from_millis;
        let mut e = RttEstimator::ns2(SimDuration::from_secs(3), ms(200), SimDuration::from_secs(60));
        e.on_sample_in_flight(ms(100), at(100), 1, 10, true);
        e.on_timeout();
        e.restart_timing_after_timeout(12); // (segments up to 11 were sent before the timeout)
        assert_eq!(e.backoff(), 1);
        e.on_sample_in_flight(ms(50), at(500), 12, 13, false); // a SACK of segment 12: not a sample
        assert_eq!(e.backoff(), 1);
        e.on_sample_in_flight(ms(50), at(600), 12, 13, true); // covers 11, sent before the timeout
        assert_eq!(e.backoff(), 1);
        e.on_sample_in_flight(ms(50), at(700), 13, 14, true); // covers 12, the first sent after it
        assert_eq!(e.backoff(), 0);
    }

    #[test]
    fn ns2_counts_ticks_once_per_flight_and_folds_srtt_after_four_backoffs() {
        let ms = SimDuration::from_millis;
        let at = SimTime::from_millis;
        let mut e = RttEstimator::ns2(SimDuration::from_secs(3), ms(200), SimDuration::from_secs(60));
        assert_eq!(e.rto(), SimDuration::from_secs(3), "rtxcur_init_");
        // Sent at 0, acknowledged at 105 ms: 10 ticks. t_srtt = 80, t_rttvar = 20:
        // RTO = (20·8 + 80) / 8 = 30 ticks.
        e.on_sample_in_flight(ms(105), at(105), 1, 10, true);
        assert_eq!(e.rto(), ms(300));
        assert_eq!(e.srtt(), Some(ms(100)));
        // Another ACK of the same flight is not a sample.
        e.on_sample_in_flight(ms(400), at(410), 10, 12, true);
        assert_eq!(e.rto(), ms(300));
        // Sent at 200, acknowledged at 300 ms (10 ticks): t_rttvar = 20 + (0 − 5) = 15, RTO 25 ticks.
        e.on_sample_in_flight(ms(100), at(300), 11, 20, true);
        assert_eq!(e.rto(), ms(250));
        for _ in 0..4 {
            e.on_timeout();
        }
        assert_eq!(e.rto(), ms(4000), "250 ms × 16");
        // SRTT was folded into RTTVAR: the next sample starts it again.
        e.on_sample_in_flight(ms(100), at(5000), 21, 30, true);
        assert_eq!(e.rto(), ms(300));
    }

    #[test]
    fn linux_rto_keeps_the_minimum_above_srtt_and_decays_once_per_flight() {
        let ms = SimDuration::from_millis;
        let mut e = RttEstimator::linux(SimDuration::from_secs(1), ms(200), SimDuration::from_secs(120));
        e.on_sample_in_flight(ms(100), SimTime::ZERO, 0, 10, true);
        // mdev = 2·100 = 200 (×4 scale), rttvar = max(200, 200): RTO = 100 + 200.
        assert_eq!(e.rto(), ms(300));
        // A stable RTT for many flights: rttvar decays only to the minimum RTO.
        for flight in 1..50u64 {
            e.on_sample_in_flight(ms(100), SimTime::ZERO, 10 * flight + 1, 10 * (flight + 1), true);
        }
        assert_eq!(e.rto(), ms(300));
        // The same path under RFC 6298 with the same minimum.
        let mut rfc = RttEstimator::new(SimDuration::from_secs(1), ms(200), SimDuration::from_secs(120));
        for _ in 0..50 {
            rfc.on_sample(ms(100));
        }
        assert_eq!(rfc.rto(), ms(200));
        // A 200 ms sample moves SRTT by 1/8; its deviation (100, ×4 scale) stays below the
        // minimum, so RTTVAR holds: 112.5 + 200.
        e.on_sample_in_flight(ms(200), SimTime::ZERO, 501, 510, true);
        assert_eq!(e.rto(), SimDuration::from_micros(312_500));
        // A 1 s sample raises RTTVAR at once: mdev = 100 − 25 + 887.5 = 962.5 ms; SRTT
        // 112.5 + 887.5/8 = 223.4375 ms; RTO = 1185.9375 ms.
        e.on_sample_in_flight(ms(1000), SimTime::ZERO, 502, 510, true);
        // (within a microsecond: 50 flights left a few nanoseconds of deviation)
        assert!(e.rto().0.abs_diff(1_185_937_500_000) < 1_000_000, "{}", e.rto());
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
