//! Test helpers for controllers: scripted ACKs and congestion events (the idea of quiche's
//! `TestSender`).

use super::congestion_control::{AckEvent, CongestionControl, CongestionEvent, CongestionKind};
use super::params::ControllerParams;
use crate::transport::congestion_window::CongestionWindow;
use crate::units::{SimDuration, SimTime};

/// Controller `cc` driven as a transport drives it, from window `cwnd_pkts`/`ssthresh_pkts`.
pub fn windowed<C: CongestionControl>(cc: C, cwnd_pkts: f64, ssthresh_pkts: f64) -> CongestionWindow<C> {
    CongestionWindow::new(cc, cwnd_pkts, ssthresh_pkts)
}

/// An ACK of `n` new packets at time zero with a 100 ms RTT.
pub fn ack(n: u64) -> AckEvent {
    ack_at(n, SimTime::ZERO, false)
}

/// An ACK of `n` new packets at `now`, with ECN-Echo `ece`.
pub fn ack_at(n: u64, now: SimTime, ece: bool) -> AckEvent {
    AckEvent {
        now,
        newly_acked_pkts: n,
        rtt_sample: Some(SimDuration::from_millis(100)),
        srtt: SimDuration::from_millis(100),
        min_rtt: Some(SimDuration::from_millis(100)),
        ece,
        in_recovery: false,
        cwnd_limited: true,
        pkts_in_flight: 0,
        snd_una: 0,
        snd_nxt: 0,
        rate: None,
    }
}

/// A congestion event of `kind` at time zero.
pub fn congestion(kind: CongestionKind) -> CongestionEvent {
    CongestionEvent { now: SimTime::ZERO, kind, pkts_in_flight: 10, srtt: SimDuration::from_millis(100) }
}

/// Delivers `rounds` rounds of one ACK per packet of the window (rounds 100 ms apart).
pub fn run_rounds(cc: &mut CongestionWindow<impl CongestionControl>, rounds: u32) {
    for r in 0..rounds {
        let now = SimTime::from_millis(100 * r as u64);
        let w = cc.cwnd_pkts().floor() as u64;
        for _ in 0..w {
            cc.on_ack(&ack_at(1, now, false));
        }
    }
}

/// The time-average window of `cc` under one loss every 1/`p` acknowledged packets (the
/// deterministic model behind a response function): `cycles` loss cycles, the first `settle`
/// not counted; each round trip is a window of packets, each acknowledged.
pub fn mean_window_under_periodic_loss(cc: &mut CongestionWindow<impl CongestionControl>, p: f64, cycles: u32, settle: u32) -> f64 {
    let every = (1.0 / p).round() as u64;
    let (mut sum, mut rounds) = (0.0, 0u64);
    for cycle in 0..cycles {
        let mut acked = 0u64;
        while acked < every {
            let w = cc.cwnd_pkts();
            let n = (w.floor() as u64).min(every - acked).max(1);
            for _ in 0..n {
                cc.on_ack(&ack(1));
            }
            acked += n;
            if cycle >= settle {
                sum += w;
                rounds += 1;
            }
        }
        cc.on_congestion(&congestion(CongestionKind::Loss));
    }
    sum / rounds as f64
}

/// An ACK-clocked sender without losses for controller tests: sequence numbers, the clock and
/// one ACK per segment, so controllers that mark rounds by `snd_una`/`snd_nxt` see them.
#[derive(Clone, Debug)]
pub struct Pipe {
    /// Oldest unacknowledged segment.
    pub snd_una: u64,
    /// Next segment to send.
    pub snd_nxt: u64,
    /// The clock: the time of the last ACK.
    pub now: SimTime,
}

impl Pipe {
    /// A pipe with `initial_window` segments sent at time zero.
    pub fn new(initial_window: u64) -> Self {
        Pipe { snd_una: 0, snd_nxt: initial_window, now: SimTime::ZERO }
    }

    /// One round trip: each segment in flight at its start is acknowledged `rtt` later (ACKs
    /// spread evenly over the round), and after each ACK the sender fills the window
    /// `window(&ev)` returns. The events, in order.
    pub fn round_with(&mut self, rtt: SimDuration, mut window: impl FnMut(&AckEvent) -> f64) -> Vec<AckEvent> {
        let end = self.snd_nxt;
        let n = (end - self.snd_una).max(1);
        let start = self.now;
        let mut events = Vec::new();
        let mut i = 0;
        while self.snd_una < end {
            i += 1;
            self.snd_una += 1;
            self.now = start + SimDuration(rtt.0 / n * i);
            let ev = AckEvent {
                now: self.now,
                newly_acked_pkts: 1,
                rtt_sample: Some(rtt),
                srtt: rtt,
                min_rtt: Some(rtt),
                ece: false,
                in_recovery: false,
                cwnd_limited: true,
                pkts_in_flight: self.snd_nxt - self.snd_una,
                snd_una: self.snd_una,
                snd_nxt: self.snd_nxt,
                rate: None,
            };
            let w = window(&ev).floor().max(1.0) as u64;
            events.push(ev);
            while self.snd_nxt - self.snd_una < w {
                self.snd_nxt += 1;
            }
        }
        events
    }

    /// One round trip of `cc` (see `round_with`); returns the window at its end.
    pub fn run_round(&mut self, cc: &mut CongestionWindow<impl CongestionControl>, rtt: SimDuration) -> f64 {
        self.round_with(rtt, |ev| {
            cc.on_ack(ev);
            cc.cwnd_pkts()
        });
        cc.cwnd_pkts()
    }
}

/// Builds a controller from its parameters and drives it from a window, as a transport does.
pub trait BuildWindowed: ControllerParams {
    /// The controller chosen under `name`, from window `cwnd_pkts`/`ssthresh_pkts`.
    fn build_windowed(&self, name: &'static str, cwnd_pkts: f64, ssthresh_pkts: f64) -> CongestionWindow<Self::Controller> {
        CongestionWindow::new(self.build(name), cwnd_pkts, ssthresh_pkts)
    }
}

impl<P: ControllerParams> BuildWindowed for P {}
