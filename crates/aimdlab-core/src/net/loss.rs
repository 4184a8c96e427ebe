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
    },
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

    /// Whether this link loses `p`.
    #[inline]
    pub fn is_lost(&mut self, p: &Packet, rng: &mut RngStream) -> bool {
        match self.model {
            LossModel::None => false,
            LossModel::Bernoulli { rate, applies_to } => applies(applies_to, p) && rng.gen::<f64>() < rate,
            LossModel::GilbertElliott { p: pgb, r, loss_good, loss_bad, applies_to } => {
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
