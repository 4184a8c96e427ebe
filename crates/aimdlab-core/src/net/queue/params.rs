//! What a queue discipline's parameter struct provides to the registry: its `kind` name, its
//! defaults (the RFC's or ns-2's values, in `Default`), the checks serde cannot make, the
//! resolution on a link of a given rate (RED's automatic thresholds), and how to build the
//! queue.
//!
//! A scenario's `queue = { kind = "red", limit = "100pkt", ecn = true }` is read as: the
//! struct of that kind with its defaults for absent fields (a wrong type is an error at
//! `queue.limit`), then resolved and checked (`queue.max_p: 1.5 is outside (0, 1]; ...`).

use super::discipline::QueueDiscipline;
use crate::error::ParamError;
use crate::units::parse::PacketsOrBytes;
use crate::units::{Rate, SimDuration};
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use std::fmt::Debug;

/// A queue discipline's parameters as a scenario gives them.
pub trait DisciplineSpec: Clone + Debug + Default + DeserializeOwned + serde::Serialize + JsonSchema {
    /// The `kind` a scenario gives, e.g. `"red"`.
    const KIND: &'static str;
    /// The parameters resolved for one link.
    type Config: Clone + Debug + PartialEq;
    /// The queue.
    type Queue: QueueDiscipline;
    /// Checks the values and resolves them for a link of `rate`.
    fn resolve(&self, rate: Rate) -> Result<Self::Config, ParamError>;
    /// An empty queue on a link of `rate`; `salt` seeds what a discipline fixes at start
    /// (FQ-CoDel's hash perturbation).
    fn build(config: &Self::Config, rate: Rate, salt: u64) -> Self::Queue;
    /// The capacity in packets (bytes counted as 1000-byte packets), for the memory estimate.
    fn limit_pkts(config: &Self::Config) -> u64;
    /// Bytes allocated up front beside the packet ring (FQ-CoDel's flow queues), for the
    /// memory estimate of a run of `flows` flows.
    fn extra_bytes(_config: &Self::Config, _flows: u64) -> u64 {
        0
    }
}

/// A queue capacity must hold at least one packet.
pub fn check_limit(limit: PacketsOrBytes) -> Result<PacketsOrBytes, ParamError> {
    match limit {
        PacketsOrBytes::Packets(0) => Err(ParamError { field: "limit", message: "\"0pkt\" holds nothing; expected at least 1 packet".into() }),
        PacketsOrBytes::Bytes(b) if b.0 == 0 => {
            Err(ParamError { field: "limit", message: "\"0B\" holds nothing; expected at least one packet's worth of bytes".into() })
        }
        l => Ok(l),
    }
}

/// The capacity in packets, bytes counted as 1000-byte packets, at most 2^16.
pub fn limit_in_pkts(limit: PacketsOrBytes) -> u64 {
    match limit {
        PacketsOrBytes::Packets(n) => n.min(1 << 16),
        PacketsOrBytes::Bytes(b) => (b.0 / 1000).min(1 << 16),
    }
}

/// A probability in [0, 1], or (0, 1] when `open_zero`.
pub fn check_probability(field: &'static str, v: f64, open_zero: bool) -> Result<f64, ParamError> {
    let ok = v.is_finite() && v <= 1.0 && if open_zero { v > 0.0 } else { v >= 0.0 };
    if !ok {
        let range = if open_zero { "(0, 1]" } else { "[0, 1]" };
        return Err(ParamError { field, message: format!("{v} is outside {range}; expected a probability in {range}") });
    }
    Ok(v)
}

/// A duration above zero.
pub fn check_positive_duration(field: &'static str, d: SimDuration) -> Result<SimDuration, ParamError> {
    if d == SimDuration::ZERO {
        return Err(ParamError { field, message: "\"0s\" is not allowed; expected a duration > 0".into() });
    }
    Ok(d)
}
