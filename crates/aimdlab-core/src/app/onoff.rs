//! The ON/OFF application, the background traffic of `gaimd.txt` §2.4.1: during ON periods it
//! offers fixed-size messages at a constant `rate`; ON and OFF durations are drawn from
//! Pareto distributions with the given means and shape (heavy-tailed for 1 < shape < 2,
//! which makes the aggregate self-similar). The first period is ON. It runs over UDP
//! (`transport/udp.rs`): nothing is acknowledged or retransmitted.
//!
//! Pareto(mean m, shape a): scale `x_m = m·(a − 1)/a`, sample `x_m / U^(1/a)`, U uniform in (0, 1].

use crate::rng::RngStream;
use crate::units::{Bytes, Rate, SimDuration, SimTime};
use rand::Rng;

/// Resolved ON/OFF parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OnOffParams {
    /// Sending rate while ON.
    pub rate: Rate,
    /// Mean ON duration.
    pub on_mean: SimDuration,
    /// Mean OFF duration.
    pub off_mean: SimDuration,
    /// Pareto shape (> 1).
    pub shape: f64,
}

/// One ON/OFF application.
pub struct OnOffSource {
    prm: OnOffParams,
    gap: SimDuration,
    on_until: SimTime,
    stopped: bool,
}

/// What the application does when its timer fires.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OnOffStep {
    /// Whether it offers one message now.
    pub send: bool,
    /// When its timer fires next (None once stopped).
    pub next: Option<SimTime>,
}

fn pareto(mean: SimDuration, shape: f64, rng: &mut RngStream) -> SimDuration {
    let scale = mean.as_secs_f64() * (shape - 1.0) / shape;
    let u: f64 = 1.0 - rng.gen::<f64>(); // (0, 1]
    SimDuration::from_secs_f64(scale / u.powf(1.0 / shape))
}

impl OnOffSource {
    /// A source offering messages that leave as `pkt_size`-byte packets (so that `rate` is
    /// the rate on the wire).
    pub fn new(prm: OnOffParams, pkt_size: Bytes) -> Self {
        OnOffSource { gap: prm.rate.serialization_time(pkt_size), prm, on_until: SimTime::ZERO, stopped: false }
    }

    /// The application stops sending.
    pub fn stop(&mut self) {
        self.stopped = true;
    }

    /// Starts the first ON period at `now`; returns when to send.
    pub fn start(&mut self, now: SimTime, rng: &mut RngStream) -> SimTime {
        self.on_until = now + pareto(self.prm.on_mean, self.prm.shape, rng);
        now
    }

    /// The timer fired at `now`: offers a message if ON, and says when to fire next.
    pub fn on_timer(&mut self, now: SimTime, rng: &mut RngStream) -> OnOffStep {
        if self.stopped {
            return OnOffStep { send: false, next: None };
        }
        if now >= self.on_until {
            let off = pareto(self.prm.off_mean, self.prm.shape, rng);
            let resume = now + off;
            self.on_until = resume + pareto(self.prm.on_mean, self.prm.shape, rng);
            return OnOffStep { send: false, next: Some(resume) };
        }
        OnOffStep { send: true, next: Some(now + self.gap) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{derive_stream, StreamKind};

    #[test]
    fn pareto_draws_have_the_requested_mean() {
        let mut rng = derive_stream(9, StreamKind::Flow, 0);
        let n = 400_000;
        // Shape 2.5 (finite variance) so the sample mean settles quickly.
        let mean = (0..n).map(|_| pareto(SimDuration::from_secs(1), 2.5, &mut rng).as_secs_f64()).sum::<f64>() / n as f64;
        assert!((mean - 1.0).abs() < 0.02, "{mean}");
    }

    #[test]
    fn sends_at_its_rate_while_on() {
        let prm = OnOffParams { rate: Rate::from_bps(500_000), on_mean: SimDuration::from_secs(1000), off_mean: SimDuration::from_secs(1), shape: 1.5 };
        let mut s = OnOffSource::new(prm, Bytes(1000));
        let mut rng = derive_stream(1, StreamKind::Flow, 0);
        let mut t = s.start(SimTime::ZERO, &mut rng);
        let mut sent = 0;
        while t < SimTime::ZERO + SimDuration::from_secs(1) {
            let step = s.on_timer(t, &mut rng);
            sent += step.send as u32;
            t = step.next.unwrap();
        }
        // 500 kbit/s of 1000-byte packets: 62.5 per second.
        assert!((62..=64).contains(&sent), "{sent}");
    }
}
