//! Validation and defaults of loss models (the `loss` table of a link), with errors naming the
//! field, the value and what is accepted. (Queue disciplines resolve their own tables:
//! `net/queue/spec.rs`.)

use super::schema::{LossApplies, LossKind, LossSpec};
use crate::error::ScenarioError;
use crate::net::loss::{LossModel, LossTarget};
use crate::net::queue::params::check_probability;

type Res<T> = Result<T, ScenarioError>;

fn err<T>(path: String, message: impl Into<String>) -> Res<T> {
    Err(ScenarioError::new(path, message))
}

/// A probability in [0, 1] (or (0, 1] when `open_zero`) at `path`.
fn probability(v: f64, path: String, open_zero: bool) -> Res<f64> {
    check_probability("", v, open_zero).map_err(|e| ScenarioError::new(path, e.message))
}

/// The most link-layer retransmissions a loss model may ask for (802.11's long retry limit
/// is 7; a bound keeps a loss rate of 1 from holding the link for ever).
pub const MAX_RETRIES: u32 = 16;

/// Resolves the `loss` table found at `path`.
pub fn resolve_loss(l: &Option<LossSpec>, path: &str) -> Res<LossModel> {
    let Some(l) = l else { return Ok(LossModel::None) };
    let applies_to = match l.applies_to.unwrap_or(LossApplies::Both) {
        LossApplies::Data => LossTarget::Data,
        LossApplies::Ack => LossTarget::Ack,
        LossApplies::Both => LossTarget::Both,
    };
    let only = |name: &str, given: bool, model: &str| -> Res<()> {
        if given {
            return err(format!("{path}.{name}"), format!("does not apply to model = {model:?}"));
        }
        Ok(())
    };
    let retries = l.retries.unwrap_or(0);
    if retries > MAX_RETRIES {
        return err(format!("{path}.retries"), format!("{retries} is not accepted; expected 0 to {MAX_RETRIES} link-layer retransmissions"));
    }
    match l.model {
        LossKind::Bernoulli => {
            for (name, given) in [("p", l.p.is_some()), ("r", l.r.is_some()), ("loss_good", l.loss_good.is_some()), ("loss_bad", l.loss_bad.is_some())] {
                only(name, given, "bernoulli")?;
            }
            let Some(rate) = l.rate else {
                return err(format!("{path}.rate"), "is missing; a bernoulli loss model needs a packet error rate in [0, 1]");
            };
            Ok(LossModel::Bernoulli { rate: probability(rate, format!("{path}.rate"), false)?, applies_to, retries })
        }
        LossKind::GilbertElliott => {
            only("rate", l.rate.is_some(), "gilbert_elliott")?;
            let (Some(p), Some(r)) = (l.p, l.r) else {
                let missing = if l.p.is_none() { "p" } else { "r" };
                return err(format!("{path}.{missing}"), "is missing; gilbert_elliott needs p (Good → Bad) and r (Bad → Good)");
            };
            Ok(LossModel::GilbertElliott {
                p: probability(p, format!("{path}.p"), false)?,
                r: probability(r, format!("{path}.r"), true)?,
                loss_good: probability(l.loss_good.unwrap_or(0.0), format!("{path}.loss_good"), false)?,
                loss_bad: probability(l.loss_bad.unwrap_or(1.0), format!("{path}.loss_bad"), false)?,
                applies_to,
                retries,
            })
        }
    }
}
