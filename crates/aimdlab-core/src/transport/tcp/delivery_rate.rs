//! Delivery-rate estimation: Y. Cheng, N. Cardwell, S. Hassas Yeganeh and V. Jacobson,
//! "Delivery Rate Estimation", draft-cheng-iccrg-delivery-rate-estimation-02 (2022), as
//! Linux's `tcp_rate.c` does it. A transport feature any controller may ask for
//! (`CongestionControl::wants_rate_samples`); BBR does.
//!
//! Each transmission records the connection's delivery state (§3.2): how much had been
//! delivered and when, and when the flight it belongs to began. When an ACK reports
//! segments delivered (cumulatively or by SACK), the most recently sent of them gives the
//! sample (§3.3): the data delivered between its transmission and now, over the longer of
//! the send interval and the ACK interval of that span (so neither ACK compression nor a
//! burst of sends inflates it). A sample whose interval is shorter than the minimum RTT is
//! discarded (§3.3, Linux: it cannot be a real flight). Samples taken while the application
//! had nothing to send are flagged app-limited (§3.4), so a filter of the maximum need not
//! believe them when they are low.

pub use crate::cc::rate_sample::RateSample;
use crate::units::{SimDuration, SimTime};

/// The delivery state a transmission records (§3.2's per-packet fields).
#[derive(Clone, Copy, Debug, Default)]
struct TxState {
    /// `C.delivered` when the segment was sent.
    delivered: u64,
    /// `C.delivered_time` when the segment was sent.
    delivered_time: SimTime,
    /// `C.first_sent_time` when the segment was sent: the send time of the flight's first.
    first_sent_time: SimTime,
    sent_time: SimTime,
    app_limited: bool,
    /// Sent and not yet delivered.
    pending: bool,
}

/// The connection's delivery state and its per-segment records.
#[derive(Clone, Debug)]
pub struct DeliveryRate {
    ring: Vec<TxState>,
    mask: u64,
    /// `C.delivered`: segments delivered so far.
    delivered: u64,
    /// `C.delivered_time`: when `delivered` last grew.
    delivered_time: SimTime,
    /// `C.first_sent_time`: the send time of the segment whose delivery last gave a sample.
    first_sent_time: SimTime,
    /// `C.app_limited`: nonzero while samples up to this delivered count are app-limited.
    app_limited: u64,
    /// The sample being built from the current ACK: the sampled segment's record.
    picked: Option<TxState>,
    acked_sacked: u64,
}

impl Default for DeliveryRate {
    fn default() -> Self {
        DeliveryRate {
            ring: vec![TxState::default(); 64],
            mask: 63,
            delivered: 0,
            delivered_time: SimTime::ZERO,
            first_sent_time: SimTime::ZERO,
            app_limited: 0,
            picked: None,
            acked_sacked: 0,
        }
    }
}

impl DeliveryRate {
    /// Segment `seq` leaves at `now` (first time or again) with `in_flight` segments in
    /// flight before it and `una` the oldest outstanding (§3.2 `SendPacket`).
    pub fn on_send(&mut self, una: u64, seq: u64, in_flight: u64, now: SimTime) {
        if seq - una >= self.ring.len() as u64 {
            let len = ((seq - una + 1).next_power_of_two() * 2) as usize;
            let mut ring = vec![TxState::default(); len];
            let mask = len as u64 - 1;
            for s in una..seq {
                ring[(s & mask) as usize] = self.ring[(s & self.mask) as usize];
            }
            (self.ring, self.mask) = (ring, mask);
        }
        if in_flight == 0 {
            self.first_sent_time = now;
            self.delivered_time = now;
        }
        self.ring[(seq & self.mask) as usize] = TxState {
            delivered: self.delivered,
            delivered_time: self.delivered_time,
            first_sent_time: self.first_sent_time,
            sent_time: now,
            app_limited: self.app_limited != 0,
            pending: true,
        };
    }

    /// Segment `seq` is newly reported delivered at `now` (§3.3 `UpdateRateSample`).
    pub fn on_delivered(&mut self, seq: u64, now: SimTime) {
        let p = &mut self.ring[(seq & self.mask) as usize];
        if !p.pending {
            return;
        }
        p.pending = false;
        let p = *p;
        self.delivered += 1;
        self.acked_sacked += 1;
        self.delivered_time = now;
        // The most recently sent of the delivered segments gives the sample.
        if self.picked.is_none_or(|q| p.sent_time > q.sent_time || (p.sent_time == q.sent_time && p.delivered > q.delivered)) {
            self.picked = Some(p);
            self.first_sent_time = p.sent_time;
        }
    }

    /// The application has nothing to send and the window is not full (§3.4): samples until
    /// what is in flight is delivered are app-limited.
    pub fn on_app_limited(&mut self, in_flight: u64) {
        self.app_limited = (self.delivered + in_flight).max(1);
    }

    /// Ends the ACK (§3.3 `GenerateRateSample`): the sample, with the ACK's `losses_pkts` and
    /// `prior_in_flight_pkts`, valid if its interval is at least `min_rtt`.
    pub fn sample(&mut self, min_rtt: Option<SimDuration>, losses_pkts: u64, prior_in_flight_pkts: u64, now: SimTime) -> RateSample {
        if self.app_limited != 0 && self.delivered > self.app_limited {
            self.app_limited = 0;
        }
        let acked_sacked = std::mem::take(&mut self.acked_sacked);
        let mut rs = RateSample {
            delivery_rate_pps: 0.0,
            delivered_pkts: 0,
            interval: SimDuration::ZERO,
            prior_delivered: 0,
            delivered_total: self.delivered,
            is_app_limited: false,
            acked_sacked_pkts: acked_sacked,
            losses_pkts,
            prior_in_flight_pkts,
            valid: false,
        };
        let Some(p) = self.picked.take() else { return rs };
        let send_elapsed = p.sent_time.saturating_since(p.first_sent_time);
        let ack_elapsed = now.saturating_since(p.delivered_time);
        rs.interval = send_elapsed.max(ack_elapsed);
        rs.delivered_pkts = self.delivered - p.delivered;
        rs.prior_delivered = p.delivered;
        rs.is_app_limited = p.app_limited;
        rs.valid = rs.interval > SimDuration::ZERO && min_rtt.is_none_or(|m| rs.interval >= m);
        if rs.valid {
            rs.delivery_rate_pps = rs.delivered_pkts as f64 / rs.interval.as_secs_f64();
        }
        rs
    }

    /// Segments delivered so far.
    pub fn delivered(&self) -> u64 {
        self.delivered
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(x: u64) -> SimTime {
        SimTime::from_millis(x)
    }

    #[test]
    fn a_paced_flight_gives_its_sending_rate_and_ack_compression_does_not_inflate_it() {
        // A 10-segment window over a 100 ms path: the first flight one segment every 10 ms,
        // then each ACK delivers one and releases the next: 100 segments/s.
        let mut d = DeliveryRate::default();
        for s in 0..10 {
            d.on_send(0, s, s, ms(10 * s));
        }
        let mut samples = Vec::new();
        for s in 0..40 {
            let t = ms(100 + 10 * s);
            d.on_delivered(s, t);
            let rs = d.sample(Some(SimDuration::from_millis(100)), 0, 10, t);
            samples.push((rs.valid, rs.delivery_rate_pps));
            d.on_send(s + 1, s + 10, 9, t);
        }
        // The first flight's samples start from nothing and are lower; from the second
        // flight on, every sample is the sending rate.
        assert!(samples[..10].iter().all(|(_, r)| *r <= 100.0 + 1e-9), "{samples:?}");
        assert!(samples[10..].iter().all(|(v, r)| *v && (r - 100.0).abs() < 1e-9), "{samples:?}");
        // All ten of a flight ACKed at one instant (compression): the send interval bounds it.
        let mut d = DeliveryRate::default();
        for s in 0..10 {
            d.on_send(0, s, s, ms(10 * s));
        }
        for s in 0..10 {
            d.on_delivered(s, ms(200));
        }
        let rs = d.sample(Some(SimDuration::from_millis(50)), 0, 10, ms(200));
        assert!(rs.valid && rs.delivered_pkts == 10 && rs.interval == SimDuration::from_millis(200), "{rs:?}");
    }

    #[test]
    fn delayed_acks_give_exactly_the_bottleneck_rate() {
        // A 10-segment window through a bottleneck that delivers one segment every 10 ms,
        // acknowledged two at a time: each ACK delivers two and releases two (once four,
        // then none: a pacing burst). The interval from the ACK before a segment's send to
        // the ACK that delivers it spans exactly the segments delivered in between — no
        // sample above 100 segments/s, even when all of an ACK's segments were sent before
        // the previous ACK's. (ns-3.44's `TcpRateLinux` keeps its sample across ACKs and
        // picks a segment only if its `delivered` is strictly above the last pick's, so such
        // an ACK reuses the previous ACK's interval with its own delivered count: traced at
        // 20 Mbit/s and 40 ms, 100 segments over 98 segment times, 2 % above the link.)
        let mut d = DeliveryRate::default();
        for s in 0..10 {
            d.on_send(0, s, s, ms(10 * s));
        }
        let mut next = 10;
        let mut samples = Vec::new();
        for k in 0..40 {
            let t = ms(100 + 20 * k + 10);
            d.on_delivered(2 * k, t);
            d.on_delivered(2 * k + 1, t);
            let rs = d.sample(Some(SimDuration::from_millis(100)), 0, 10, t);
            samples.push((rs.valid, rs.delivered_pkts, rs.delivery_rate_pps));
            let burst = match k {
                15 => 4,
                16 => 0,
                _ => 2,
            };
            for _ in 0..burst {
                d.on_send(2 * k + 2, next, 8, t);
                next += 1;
            }
        }
        assert!(samples.iter().all(|&(_, _, r)| r <= 100.0 + 1e-9), "{samples:?}");
        // From the second flight on, every sample is the link's rate but one: the segments
        // released by the ACK that sent nothing took 120 ms from that ACK — 10 over 120 ms.
        let off: Vec<_> = samples[10..].iter().filter(|&&(v, _, r)| !v || (r - 100.0).abs() > 1e-9).collect();
        assert!(off.len() == 1 && off[0].1 == 10 && (off[0].2 - 10.0 / 0.12).abs() < 1e-9, "{samples:?}");
    }

    #[test]
    fn a_segment_delivered_twice_counts_once_and_app_limited_flags_follow_the_flight() {
        let mut d = DeliveryRate::default();
        d.on_send(0, 0, 0, ms(0));
        d.on_app_limited(1);
        d.on_send(0, 1, 1, ms(1));
        d.on_delivered(1, ms(50));
        d.on_delivered(1, ms(51));
        let rs = d.sample(None, 0, 2, ms(51));
        assert_eq!((rs.acked_sacked_pkts, rs.delivered_total), (1, 1));
        assert!(rs.is_app_limited, "segment 1 was sent app-limited");
        d.on_delivered(0, ms(60));
        let rs = d.sample(None, 2, 1, ms(60));
        assert_eq!((rs.delivered_total, rs.losses_pkts, rs.is_app_limited), (2, 2, false));
    }
}
