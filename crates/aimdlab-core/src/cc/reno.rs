//! TCP Reno congestion control: AIMD with α = 1 packet per RTT and β = 1/2.
//!
//! RFC 5681 §3.1: slow start grows cwnd by min(N, 1) segments per ACK that acknowledges N
//! new segments (eq. 2); congestion avoidance grows it by 1/cwnd per such ACK (eq. 3), so a
//! receiver that delays ACKs (b = 2) gets 1/2 packet per RTT. On loss detected by duplicate
//! ACKs, ssthresh = cwnd/2 and cwnd = ssthresh (fast recovery, RFC 6582 / RFC 6675 run the
//! window as `pipe` meanwhile); on a retransmission timeout, cwnd = 1 (the loss window).
//!
//! Parity note: RFC 5681 eq. 4 writes ssthresh = max(FlightSize/2, 2·SMSS), and so does ns-3's
//! `TcpNewReno::GetSsThresh` (bytes in flight / 2); Linux (`tcp_reno_ssthresh`) and the AIMD
//! papers halve cwnd. `halve = "cwnd"` (the default) halves cwnd, `"flight"` the packets in
//! flight when the loss is detected; both floored at 2.

use super::congestion_control::{AckEvent, CongestionControl, CongestionEvent, Window};
use super::cut_base::CutBase;
use super::params::{Names, Checked, ControllerParams};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Reno's rule: only what it halves.
#[derive(Clone, Debug, Default)]
pub struct Reno {
    halve: CutBase,
}

/// Multiplicative decrease factor β.
pub const BETA: f64 = 0.5;
/// Additive increase α, packets per RTT.
pub const ALPHA: f64 = 1.0;

/// Reno's parameters (α = 1 and β = 1/2 make it Reno; GAIMD takes others): only what it
/// halves. `newreno` is accepted as another name for it (loss recovery, NewReno or SACK, is
/// the transport's: `tcp.recovery`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct RenoParams {
    /// What it halves: `"cwnd"` (default; Linux, the AIMD papers) or `"flight"`, the packets
    /// in flight when the loss is detected (RFC 5681 eq. 4, ns-3's `TcpNewReno`).
    pub halve: CutBase,
}

impl ControllerParams for RenoParams {
    type Controller = Reno;
    const NAMES: Names<Self> = &[("reno", Self::default), ("newreno", Self::default)];
    fn check(&self, _name: &'static str) -> Checked {
        Ok(())
    }
    fn build(&self, _name: &'static str) -> Reno {
        Reno { halve: self.halve }
    }
}

impl CongestionControl for Reno {
    fn name(&self) -> &'static str {
        "reno"
    }

    fn cong_avoid(&mut self, w: &mut Window, _ev: &AckEvent, _acked_pkts: u64) {
        // RFC 5681 eq. 2: cwnd += min(N, SMSS) in slow start; eq. 3: cwnd += SMSS·SMSS/cwnd,
        // i.e. α/cwnd packets per ACK.
        w.aimd_step(ALPHA);
    }

    fn ssthresh(&mut self, w: &Window, ev: &CongestionEvent) -> f64 {
        self.halve.pkts(w, ev) * BETA
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::CongestionKind;

    use super::super::testing::{ack, congestion, windowed};

    #[test]
    fn slow_start_doubles_per_round() {
        let mut r = windowed(Reno::default(), 2.0, f64::INFINITY);
        for _round in 0..3 {
            let w = r.cwnd_pkts() as u64;
            for _ in 0..w {
                r.on_ack(&ack(1));
            }
        }
        assert_eq!(r.cwnd_pkts(), 16.0);
    }

    #[test]
    fn congestion_avoidance_adds_one_packet_per_round() {
        let mut r = windowed(Reno::default(), 20.0, 10.0);
        for _ in 0..20 {
            r.on_ack(&ack(1));
        }
        // Twenty ACKs of 1/cwnd each: just under one packet (cwnd grows during the round).
        assert!((r.cwnd_pkts() - 20.0 - 1.0).abs() < 0.05, "{}", r.cwnd_pkts());
    }

    #[test]
    fn loss_halves_and_timeout_resets_to_one() {
        let mut r = windowed(Reno::default(), 40.0, f64::INFINITY);
        r.on_congestion(&congestion(CongestionKind::Loss));
        assert_eq!((r.cwnd_pkts(), r.ssthresh_pkts()), (20.0, 20.0));
        r.on_congestion(&congestion(CongestionKind::Timeout));
        assert_eq!((r.cwnd_pkts(), r.ssthresh_pkts()), (1.0, 10.0));
        r.on_congestion(&congestion(CongestionKind::Loss));
        assert_eq!(r.ssthresh_pkts(), 2.0);
    }

    #[test]
    fn halving_the_flight_follows_rfc_5681_eq_4() {
        let mut r = windowed(RenoParams { halve: CutBase::Flight }.build("reno"), 40.0, f64::INFINITY);
        let mut loss = congestion(CongestionKind::Loss);
        loss.pkts_in_flight = 30;
        r.on_congestion(&loss);
        assert_eq!((r.cwnd_pkts(), r.ssthresh_pkts()), (15.0, 15.0));
        loss.pkts_in_flight = 1;
        r.on_congestion(&loss);
        assert_eq!(r.ssthresh_pkts(), 2.0, "floored at 2 segments");
    }

    #[test]
    fn no_growth_during_recovery() {
        let mut r = windowed(Reno::default(), 10.0, 5.0);
        let mut a = ack(1);
        a.in_recovery = true;
        r.on_ack(&a);
        assert_eq!(r.cwnd_pkts(), 10.0);
    }
}
