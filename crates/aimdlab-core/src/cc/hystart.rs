//! HyStart, the hybrid slow start Linux's CUBIC runs by default (Ha & Rhee, "Taming the
//! Elephants: New TCP Slow Start", Computer Networks 2011; Linux `net/ipv4/tcp_cubic.c`,
//! `hystart_update` and `bictcp_acked`, as since Linux 5.7; ns-3's `TcpCubic` has the same
//! rules). It leaves slow start (ssthresh = cwnd) before the first loss when either:
//!
//! - **ACK train**: the ACKs of one round arrive back to back (each within 2 ms of the last)
//!   for longer than half the minimum RTT — the window already fills the pipe; or
//! - **delay increase**: the smallest of the round's first 8 RTT samples exceeds the
//!   minimum RTT by clamp(min RTT / 8, 4 ms, 16 ms) — a queue is building.
//!
//! Only above a window of 16 packets (`hystart_low_window`). A round ends when the
//! cumulative ACK passes what was sent when it began. RTT samples within 1 s of the start of
//! a congestion-avoidance epoch after a reduction are ignored, as Linux does.
//!
//! One simplification, written down: Linux lengthens the ACK-train threshold by
//! min(1 ms, 4 · 64 KB / pacing rate) (`hystart_ack_delay`); that is 1 ms below about
//! 2 Gbit/s of pacing rate, and it is 1 ms here at every rate.

use super::congestion_control::AckEvent;
use crate::units::{SimDuration, SimTime};

/// Below this window (packets) HyStart does not act (`hystart_low_window`).
pub const LOW_WINDOW_PKTS: f64 = 16.0;
/// RTT samples per round before the delay test (`HYSTART_MIN_SAMPLES`).
pub const MIN_SAMPLES: u32 = 8;
/// Longest gap between two ACKs of one train (`hystart_ack_delta_us`).
pub const ACK_DELTA: SimDuration = SimDuration::from_micros(2000);
/// Bounds of the delay-increase threshold (`HYSTART_DELAY_MIN`, `HYSTART_DELAY_MAX`).
pub const DELAY_MIN: SimDuration = SimDuration::from_micros(4000);
/// See `DELAY_MIN`.
pub const DELAY_MAX: SimDuration = SimDuration::from_micros(16000);
/// Linux's `hystart_ack_delay` below ~2 Gbit/s of pacing rate.
pub const ACK_DELAY: SimDuration = SimDuration::from_micros(1000);

/// Why HyStart ended slow start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// The ACK train lasted longer than half the minimum RTT.
    AckTrain,
    /// The round's RTT rose above the minimum by the threshold.
    Delay,
}

/// HyStart's state for one flow.
#[derive(Clone, Debug, Default)]
pub struct HyStart {
    /// Slow start has been ended (until the next timeout).
    found: bool,
    round_start: SimTime,
    last_ack: SimTime,
    /// The round ends when the cumulative ACK passes this segment.
    end_seq: u64,
    /// Smallest RTT sample of this round.
    curr_rtt: Option<SimDuration>,
    sample_cnt: u32,
    /// Smallest RTT sample seen (`delay_min`).
    delay_min: Option<SimDuration>,
    started: bool,
}

impl HyStart {
    /// After a timeout: slow start begins again, and so may HyStart (`bictcp_state`).
    pub fn reset(&mut self) {
        self.found = false;
        self.started = false;
    }

    fn new_round(&mut self, ev: &AckEvent) {
        self.round_start = ev.now;
        self.last_ack = ev.now;
        self.end_seq = ev.snd_nxt;
        self.curr_rtt = None;
        self.sample_cnt = 0;
        self.started = true;
    }

    /// An ACK with an RTT sample arrived while the window `cwnd_pkts` is below ssthresh
    /// (`in_slow_start`); `settling` is true within 1 s of a new epoch after a reduction.
    /// Returns why slow start should end now, if it should.
    pub fn on_ack(&mut self, ev: &AckEvent, cwnd_pkts: f64, in_slow_start: bool, settling: bool) -> Option<Exit> {
        let delay = ev.rtt_sample?;
        if settling {
            return None;
        }
        let delay = delay.max(SimDuration::from_micros(1));
        let delay_min = *self.delay_min.insert(self.delay_min.map_or(delay, |d| d.min(delay)));
        if self.found || !in_slow_start {
            return None;
        }
        if !self.started || ev.snd_una > self.end_seq {
            self.new_round(ev);
        }
        if cwnd_pkts < LOW_WINDOW_PKTS {
            return None;
        }
        if ev.now.saturating_since(self.last_ack) <= ACK_DELTA {
            self.last_ack = ev.now;
            let threshold = SimDuration((delay_min + ACK_DELAY).0 / 2);
            if ev.now.saturating_since(self.round_start) > threshold {
                self.found = true;
                return Some(Exit::AckTrain);
            }
        }
        let curr = *self.curr_rtt.insert(self.curr_rtt.map_or(delay, |c| c.min(delay)));
        if self.sample_cnt < MIN_SAMPLES {
            self.sample_cnt += 1;
        } else if curr > delay_min + SimDuration(delay_min.0 / 8).clamp(DELAY_MIN, DELAY_MAX) {
            self.found = true;
            return Some(Exit::Delay);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::ack_at;
    use super::*;

    fn ack(now_us: u64, rtt_us: u64, snd_una: u64, snd_nxt: u64) -> AckEvent {
        AckEvent { rtt_sample: Some(SimDuration::from_micros(rtt_us)), snd_una, snd_nxt, ..ack_at(1, SimTime::ZERO + SimDuration::from_micros(now_us), false) }
    }

    #[test]
    fn a_round_whose_rtt_rises_by_the_threshold_ends_slow_start() {
        let mut h = HyStart::default();
        // Round 1: 20 ACKs at the 40 ms base RTT, 5 ms apart (no train).
        for i in 0..20 {
            assert_eq!(h.on_ack(&ack(i * 5000, 40_000, i, 20), 20.0, true, false), None);
        }
        // Round 2: RTT 44.9 ms stays under 40 + max(40/8, 4) = 45 ms ...
        for i in 0..20 {
            assert_eq!(h.on_ack(&ack(100_000 + i * 5000, 44_900, 21 + i, 60), 40.0, true, false), None);
        }
        // ... round 3 at 45.1 ms exceeds it on its ninth sample.
        let exits: Vec<_> = (0..20).map(|i| h.on_ack(&ack(300_000 + i * 5000, 45_100, 61 + i, 140), 80.0, true, false)).collect();
        assert_eq!(exits.iter().position(|e| e.is_some()), Some(8));
        assert_eq!(exits[8], Some(Exit::Delay));
    }

    #[test]
    fn acks_back_to_back_for_half_the_min_rtt_end_slow_start() {
        let mut h = HyStart::default();
        // 1 ms apart at a 40 ms RTT: the train passes (40 + 1)/2 = 20.5 ms after 21 ACKs.
        let exits: Vec<_> = (0..30).map(|i| h.on_ack(&ack(i * 1000, 40_000, i, 100), 32.0, true, false)).collect();
        assert_eq!(exits.iter().position(|e| e.is_some()), Some(21));
        assert_eq!(exits[21], Some(Exit::AckTrain));
    }

    #[test]
    fn below_16_packets_or_after_slow_start_nothing_happens() {
        let mut h = HyStart::default();
        for i in 0..100 {
            assert_eq!(h.on_ack(&ack(i * 1000, 40_000 + i * 1000, i, 200), 15.0, true, false), None);
            assert_eq!(h.on_ack(&ack(i * 1000, 40_000 + i * 1000, i, 200), 40.0, false, false), None);
        }
    }
}
