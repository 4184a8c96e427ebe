//! Link impairments: random packet loss on the wire, independent (Bernoulli, a packet error
//! rate) or bursty (Gilbert–Elliott), applied to data packets, ACKs, or both.
//!
//! Gilbert–Elliott (E. N. Gilbert 1960, E. O. Elliott 1963): a two-state Markov chain that
//! moves Good → Bad with probability `p` and Bad → Good with probability `r` at every
//! packet, and loses a packet with probability `loss_good` in Good and `loss_bad` in Bad
//! (the classic four parameters p, r, k = 1 − loss_good, h = 1 − loss_bad). The chain spends
//! a fraction p/(p + r) of packets in Bad; with `loss_good = 0` and `loss_bad = 1`, losses
//! come in bursts of mean length 1/r.
//!
//! A lost packet has still used the link (it is dropped when its transmission ends), and it
//! is counted as a link-error drop, apart from queue drops.
//!
//! Link-layer retransmission (`retries`, ARQ as in IEEE 802.11's retry limit): a frame the
//! channel corrupts is sent again by the link itself, up to `retries` more times, each
//! attempt a fresh draw of the loss process and a full serialization time on the link; the
//! packet is lost to the transport only when every attempt fails. With a packet error rate e
//! the loss the transport sees is e^(1 + retries) and the link spends 1/(1 − e) attempts per
//! packet on average (for e < 1, with unbounded retries). The link-layer acknowledgement and
//! its turnaround are not modelled: an attempt costs its serialization time only.

use super::packet::{Packet, PacketKind};
use crate::rng::RngStream;
use rand::Rng;

/// Which packets a loss model applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LossTarget {
    /// Data segments only.
    Data,
    /// ACKs only.
    Ack,
    /// Every packet.
    Both,
}

/// A resolved loss model.
#[derive(Clone, Debug, PartialEq)]
pub enum LossModel {
    /// No loss.
    None,
    /// Each packet lost independently with probability `rate`.
    Bernoulli {
        /// Packet error rate.
        rate: f64,
        /// Packets it applies to.
        applies_to: LossTarget,
        /// Link-layer retransmissions of a lost frame.
        retries: u32,
    },
    /// Gilbert–Elliott bursty loss.
    GilbertElliott {
        /// P(Good → Bad) per packet.
        p: f64,
        /// P(Bad → Good) per packet.
        r: f64,
        /// Loss probability in Good.
        loss_good: f64,
        /// Loss probability in Bad.
        loss_bad: f64,
        /// Packets it applies to.
        applies_to: LossTarget,
        /// Link-layer retransmissions of a lost frame.
        retries: u32,
    },
}

/// What the link did with one packet: how many times it sent the frame, and whether the
/// packet was lost in the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Transmission {
    /// Frames sent: 1, plus one per link-layer retransmission.
    pub attempts: u32,
    /// Whether every attempt failed.
    pub lost: bool,
}

/// The loss process of one link.
pub struct LinkLoss {
    model: LossModel,
    bad: bool,
}

fn applies(target: LossTarget, p: &Packet) -> bool {
    match target {
        LossTarget::Both => true,
        LossTarget::Data => p.kind == PacketKind::Data,
        LossTarget::Ack => p.kind == PacketKind::Ack,
    }
}

impl LinkLoss {
    /// A loss process starting in the Good state.
    pub fn new(model: &LossModel) -> Self {
        LinkLoss { model: model.clone(), bad: false }
    }

    /// Sends `p` over the channel: one attempt, plus the link-layer retransmissions its
    /// losses call for.
    #[inline]
    pub fn transmit(&mut self, p: &Packet, rng: &mut RngStream) -> Transmission {
        let retries = match self.model {
            LossModel::None => return Transmission { attempts: 1, lost: false },
            LossModel::Bernoulli { retries, .. } | LossModel::GilbertElliott { retries, .. } => retries,
        };
        let mut attempts = 1;
        loop {
            let lost = self.is_lost(p, rng);
            if !lost || attempts > retries {
                return Transmission { attempts, lost };
            }
            attempts += 1;
        }
    }

    /// Whether the channel corrupts one attempt at sending `p`.
    #[inline]
    pub fn is_lost(&mut self, p: &Packet, rng: &mut RngStream) -> bool {
        match self.model {
            LossModel::None => false,
            LossModel::Bernoulli { rate, applies_to, .. } => applies(applies_to, p) && rng.gen::<f64>() < rate,
            LossModel::GilbertElliott { p: pgb, r, loss_good, loss_bad, applies_to, .. } => {
                if !applies(applies_to, p) {
                    return false;
                }
                let flip = rng.gen::<f64>();
                self.bad = if self.bad { flip >= r } else { flip < pgb };
                let loss = if self.bad { loss_bad } else { loss_good };
                rng.gen::<f64>() < loss
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::{FlowId, NodeId};
    use crate::rng::{derive_stream, StreamKind};
    use crate::units::{Bytes, SimTime};

    fn packet(kind: PacketKind) -> Packet {
        Packet { kind, ..Packet::data(FlowId(0), NodeId(0), 0, Bytes(1000), SimTime::ZERO) }
    }

    #[test]
    fn gilbert_elliott_bursts_have_mean_length_one_over_r() {
        let (p, r) = (0.01, 0.25);
        let mut loss = LinkLoss::new(&LossModel::GilbertElliott { p, r, loss_good: 0.0, loss_bad: 1.0, applies_to: LossTarget::Both, retries: 0 });
        let mut rng = derive_stream(1, StreamKind::LinkLoss, 0);
        let n = 2_000_000;
        let (mut lost, mut bursts, mut in_burst) = (0u64, 0u64, false);
        for _ in 0..n {
            let l = loss.is_lost(&packet(PacketKind::Data), &mut rng);
            lost += l as u64;
            if l && !in_burst {
                bursts += 1;
            }
            in_burst = l;
        }
        let mean_burst = lost as f64 / bursts as f64;
        let loss_rate = lost as f64 / n as f64;
        assert!((mean_burst - 1.0 / r).abs() / (1.0 / r) < 0.03, "mean burst {mean_burst}");
        let stationary = p / (p + r);
        assert!((loss_rate - stationary).abs() / stationary < 0.03, "loss rate {loss_rate} vs {stationary}");
    }

    #[test]
    fn a_data_only_model_spares_acks() {
        let mut loss = LinkLoss::new(&LossModel::Bernoulli { rate: 1.0, applies_to: LossTarget::Data, retries: 0 });
        let mut rng = derive_stream(1, StreamKind::LinkLoss, 0);
        assert!(loss.is_lost(&packet(PacketKind::Data), &mut rng));
        assert!(!loss.is_lost(&packet(PacketKind::Ack), &mut rng));
    }

    #[test]
    fn link_layer_retries_leave_a_loss_of_e_to_the_one_plus_retries() {
        let (e, retries) = (0.3, 2);
        let mut loss = LinkLoss::new(&LossModel::Bernoulli { rate: e, applies_to: LossTarget::Data, retries });
        let mut rng = derive_stream(1, StreamKind::LinkLoss, 0);
        let n = 1_000_000;
        let (mut lost, mut attempts) = (0u64, 0u64);
        for _ in 0..n {
            let t = loss.transmit(&packet(PacketKind::Data), &mut rng);
            assert!((1..=1 + retries).contains(&t.attempts));
            lost += t.lost as u64;
            attempts += t.attempts as u64;
        }
        let expect_loss = e.powi(1 + retries as i32); // 0.027
        let expect_attempts = 1.0 + e + e * e; // attempts 1, 2, 3 with P = 1, e, e^2
        assert!((lost as f64 / n as f64 - expect_loss).abs() / expect_loss < 0.03, "loss {}", lost as f64 / n as f64);
        assert!((attempts as f64 / n as f64 - expect_attempts).abs() / expect_attempts < 0.01);
        // ACKs are outside a data-only model: one attempt, never lost.
        assert_eq!(loss.transmit(&packet(PacketKind::Ack), &mut rng), Transmission { attempts: 1, lost: false });
    }
}
