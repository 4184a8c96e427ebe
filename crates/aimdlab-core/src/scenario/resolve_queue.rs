//! Validation and defaults of queue disciplines and loss models (the `queue` and `loss`
//! tables of a link), with errors naming the field, the value and what is accepted.

use super::schema::{LossApplies, LossKind, LossSpec, QueueKind, QueueSpec};
use crate::error::ScenarioError;
use crate::net::loss::{LossModel, LossTarget};
use crate::net::queue::{CodelParams, FqCodelParams, PieParams, QueueConfig, RedConfig};
use crate::units::parse::PacketsOrBytes;
use crate::units::{Rate, SimDuration};

type Res<T> = Result<T, ScenarioError>;

fn err<T>(path: String, message: impl Into<String>) -> Res<T> {
    Err(ScenarioError::new(path, message))
}

fn kind_name(k: QueueKind) -> &'static str {
    match k {
        QueueKind::Droptail => "droptail",
        QueueKind::Red => "red",
        QueueKind::Codel => "codel",
        QueueKind::FqCodel => "fq_codel",
        QueueKind::Pie => "pie",
    }
}

/// Rejects fields given for a discipline they do not belong to.
fn check_fields(q: &QueueSpec, path: &str) -> Res<()> {
    use QueueKind::*;
    let fields: [(&str, bool, &[QueueKind]); 19] = [
        ("min_th", q.min_th.is_some(), &[Red]),
        ("max_th", q.max_th.is_some(), &[Red]),
        ("max_p", q.max_p.is_some(), &[Red]),
        ("w_q", q.w_q.is_some(), &[Red]),
        ("gentle", q.gentle.is_some(), &[Red]),
        ("wait", q.wait.is_some(), &[Red]),
        ("mean_pkt_size", q.mean_pkt_size.is_some(), &[Red]),
        ("auto", q.auto.is_some(), &[Red]),
        ("mark_forced", q.mark_forced.is_some(), &[Red]),
        ("ecn", q.ecn.is_some(), &[Red, Codel, FqCodel, Pie]),
        ("target", q.target.is_some(), &[Red, Codel, FqCodel, Pie]),
        ("interval", q.interval.is_some(), &[Codel, FqCodel]),
        ("flows", q.flows.is_some(), &[FqCodel]),
        ("quantum", q.quantum.is_some(), &[FqCodel]),
        ("t_update", q.t_update.is_some(), &[Pie]),
        ("alpha", q.alpha.is_some(), &[Pie]),
        ("beta", q.beta.is_some(), &[Pie]),
        ("max_burst", q.max_burst.is_some(), &[Pie]),
        ("limit", false, &[]),
    ];
    for (name, given, kinds) in fields {
        if given && !kinds.contains(&q.kind) {
            let names: Vec<&str> = kinds.iter().map(|k| kind_name(*k)).collect();
            return err(format!("{path}.{name}"), format!("does not apply to kind = {:?}; it is a setting of {}", kind_name(q.kind), names.join(", ")));
        }
    }
    Ok(())
}

fn probability(v: f64, path: String, open_zero: bool) -> Res<f64> {
    let ok = v.is_finite() && v <= 1.0 && if open_zero { v > 0.0 } else { v >= 0.0 };
    if !ok {
        let range = if open_zero { "(0, 1]" } else { "[0, 1]" };
        return err(path, format!("{v} is outside {range}; expected a probability in {range}"));
    }
    Ok(v)
}

fn positive_duration(d: Option<super::quantity::Duration>, default: SimDuration, path: String) -> Res<SimDuration> {
    let d = d.map(|d| d.0).unwrap_or(default);
    if d == SimDuration::ZERO {
        return err(path, "\"0s\" is not allowed; expected a duration > 0");
    }
    Ok(d)
}

/// Default capacity of a discipline when `limit` is not given.
fn default_limit(k: QueueKind) -> u64 {
    match k {
        QueueKind::Droptail | QueueKind::Red => 100,
        QueueKind::Codel | QueueKind::Pie => 1000,
        QueueKind::FqCodel => 10240,
    }
}

/// Resolves the `queue` table of a link of `rate` found at `path`.
pub fn resolve_queue(q: &QueueSpec, rate: Rate, path: &str) -> Res<QueueConfig> {
    check_fields(q, path)?;
    let limit = match q.limit.map(|l| l.0) {
        None => PacketsOrBytes::Packets(default_limit(q.kind)),
        Some(PacketsOrBytes::Packets(0)) => return err(format!("{path}.limit"), "\"0pkt\" holds nothing; expected at least 1 packet"),
        Some(PacketsOrBytes::Bytes(b)) if b.0 == 0 => {
            return err(format!("{path}.limit"), "\"0B\" holds nothing; expected at least one packet's worth of bytes")
        }
        Some(l) => l,
    };
    let codel = |default_target_ms: u64| -> Res<CodelParams> {
        Ok(CodelParams {
            target: positive_duration(q.target, SimDuration::from_millis(default_target_ms), format!("{path}.target"))?,
            interval: positive_duration(q.interval, SimDuration::from_millis(100), format!("{path}.interval"))?,
            ecn: q.ecn.unwrap_or(false),
        })
    };
    Ok(match q.kind {
        QueueKind::Droptail => QueueConfig::DropTail { limit },
        QueueKind::Codel => QueueConfig::Codel { limit, params: codel(5)? },
        QueueKind::FqCodel => {
            let PacketsOrBytes::Packets(limit_pkts) = limit else {
                return err(format!("{path}.limit"), "is in bytes; fq_codel takes a limit in packets such as \"10240pkt\"");
            };
            let flows = q.flows.unwrap_or(1024);
            if flows == 0 || flows > 65536 {
                return err(format!("{path}.flows"), format!("{flows} is out of range; expected 1 to 65536 queues"));
            }
            let quantum = q.quantum.map(|b| b.0 .0).unwrap_or(1514);
            if quantum == 0 {
                return err(format!("{path}.quantum"), "\"0B\" is not allowed; expected at least one byte");
            }
            QueueConfig::FqCodel(FqCodelParams { limit_pkts, flows, quantum, codel: codel(5)? })
        }
        QueueKind::Pie => {
            let alpha = q.alpha.unwrap_or(0.125);
            let beta = q.beta.unwrap_or(1.25);
            for (name, v) in [("alpha", alpha), ("beta", beta)] {
                if !(v.is_finite() && v > 0.0) {
                    return err(format!("{path}.{name}"), format!("{v} is not positive; expected a gain > 0 (Hz)"));
                }
            }
            QueueConfig::Pie(PieParams {
                limit,
                target: positive_duration(q.target, SimDuration::from_millis(15), format!("{path}.target"))?,
                t_update: positive_duration(q.t_update, SimDuration::from_millis(15), format!("{path}.t_update"))?,
                alpha,
                beta,
                max_burst: q.max_burst.map(|d| d.0).unwrap_or(SimDuration::from_millis(150)),
                ecn: q.ecn.unwrap_or(false),
            })
        }
        QueueKind::Red => QueueConfig::Red(resolve_red(q, limit, rate, path)?),
    })
}

fn resolve_red(q: &QueueSpec, limit: PacketsOrBytes, rate: Rate, path: &str) -> Res<RedConfig> {
    let mean_pkt_size = q.mean_pkt_size.map(|s| s.0 .0).unwrap_or(500);
    if mean_pkt_size == 0 {
        return err(format!("{path}.mean_pkt_size"), "\"0B\" is not allowed; expected a packet size > 0");
    }
    let auto = q.auto.unwrap_or(false);
    let (min_th, max_th, w_q, byte_mode);
    if auto {
        for (name, given) in [("min_th", q.min_th.is_some()), ("max_th", q.max_th.is_some()), ("w_q", q.w_q.is_some())] {
            if given {
                return err(format!("{path}.{name}"), "is set automatically when auto = true; remove it or set auto = false");
            }
        }
        // Adaptive RED §5: C in packets of mean_pkt_size per second.
        let c = rate.bps as f64 / (8.0 * mean_pkt_size as f64);
        let target = q.target.map(|d| d.0).unwrap_or(SimDuration::from_millis(5)).as_secs_f64();
        min_th = (target * c / 2.0).max(5.0);
        max_th = 3.0 * min_th;
        w_q = 1.0 - (-1.0 / c).exp();
        byte_mode = false;
    } else {
        if q.target.is_some() {
            return err(format!("{path}.target"), "applies to RED only with auto = true");
        }
        let min = q.min_th.map(|t| t.0).unwrap_or(PacketsOrBytes::Packets(5));
        let max = q.max_th.map(|t| t.0).unwrap_or(PacketsOrBytes::Packets(15));
        let (lo, hi, bytes) = match (min, max) {
            (PacketsOrBytes::Packets(a), PacketsOrBytes::Packets(b)) => (a as f64, b as f64, false),
            (PacketsOrBytes::Bytes(a), PacketsOrBytes::Bytes(b)) => (a.0 as f64, b.0 as f64, true),
            _ => return err(format!("{path}.max_th"), "is in a different unit from min_th; give both in packets (\"5pkt\") or both in bytes (\"7500B\")"),
        };
        if lo >= hi {
            return err(format!("{path}.min_th"), format!("{lo} is not below max_th ({hi}); expected min_th < max_th"));
        }
        min_th = lo;
        max_th = hi;
        byte_mode = bytes;
        w_q = q.w_q.unwrap_or(0.002);
        probability(w_q, format!("{path}.w_q"), true)?;
    }
    let max_p = q.max_p.unwrap_or(0.1);
    probability(max_p, format!("{path}.max_p"), true)?;
    Ok(RedConfig {
        limit,
        byte_mode,
        min_th,
        max_th,
        max_p,
        w_q,
        gentle: q.gentle.unwrap_or(true),
        wait: q.wait.unwrap_or(true),
        mean_pkt_size,
        ecn: q.ecn.unwrap_or(false),
        mark_forced: q.mark_forced.unwrap_or(false),
    })
}

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
    match l.model {
        LossKind::Bernoulli => {
            for (name, given) in [("p", l.p.is_some()), ("r", l.r.is_some()), ("loss_good", l.loss_good.is_some()), ("loss_bad", l.loss_bad.is_some())] {
                only(name, given, "bernoulli")?;
            }
            let Some(rate) = l.rate else {
                return err(format!("{path}.rate"), "is missing; a bernoulli loss model needs a packet error rate in [0, 1]");
            };
            Ok(LossModel::Bernoulli { rate: probability(rate, format!("{path}.rate"), false)?, applies_to })
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
            })
        }
    }
}
