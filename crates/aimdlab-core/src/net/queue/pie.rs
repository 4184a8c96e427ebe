//! PIE, Proportional Integral controller Enhanced (RFC 8033): drops (or ECN-marks) arrivals
//! with a probability that a PI controller updates every `t_update` from the queuing delay:
//!
//! `p = α·(qdelay − target) + β·(qdelay − qdelay_old)` (RFC 8033 §4.2), scaled down while
//! the probability is small (the auto-tuning table of §4.2), capped at +0.02 per update once
//! it exceeds 0.1, decayed by 0.98 when the queue has been empty for two updates.
//!
//! Queuing delay is measured with timestamps (the sojourn time of the last packet to leave;
//! RFC 8033 §5.2 allows this instead of departure-rate estimation). No early drop during the
//! burst allowance, while the delay is under target/2 and p < 0.2, or while fewer than two
//! packets are queued (§4.1). With `ecn`, ECN-capable packets are marked while p ≤ 0.1
//! (§5.1). Defaults (§4 and §5): target 15 ms, t_update 15 ms, α 0.125 Hz, β 1.25 Hz,
//! max_burst 150 ms. The periodic update runs lazily at each arrival for the periods that
//! have elapsed, which gives the same sequence of probabilities as a timer.

use super::droptail::push_or_overflow;
use super::fifo::PacketFifo;
use super::log::{DropCause, QueueLog};
use crate::net::packet::{Ecn, Packet};
use crate::rng::RngStream;
use crate::units::parse::PacketsOrBytes;
use crate::units::{SimDuration, SimTime};
use rand::Rng;
use super::discipline::QueueDiscipline;
use super::params::{check_limit, check_positive_duration, limit_in_pkts, DisciplineSpec};
use crate::error::ParamError;
use crate::units::quantity::{BufferSize, Duration};
use crate::units::Rate;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Resolved PIE parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct PieParams {
    /// Buffer capacity.
    pub limit: PacketsOrBytes,
    /// Target queuing delay (QDELAY_REF).
    pub target: SimDuration,
    /// Period of the probability update (T_UPDATE).
    pub t_update: SimDuration,
    /// Integral gain α, Hz.
    pub alpha: f64,
    /// Proportional gain β, Hz.
    pub beta: f64,
    /// Burst allowance (MAX_BURST).
    pub max_burst: SimDuration,
    /// Mark ECN-capable packets (while p ≤ 0.1) instead of dropping them.
    pub ecn: bool,
}

/// Most elapsed update periods replayed one by one after an idle spell; beyond, the decay
/// is applied in closed form.
const MAX_REPLAYED_UPDATES: u32 = 1000;

/// A PIE queue.
pub struct Pie {
    prm: PieParams,
    fifo: PacketFifo,
    drop_prob: f64,
    qdelay: f64,
    qdelay_old: f64,
    burst_allowance: f64,
    next_update: SimTime,
}

impl Pie {
    /// An empty PIE queue.
    pub fn new(prm: &PieParams) -> Self {
        Pie {
            fifo: PacketFifo::new(),
            drop_prob: 0.0,
            qdelay: 0.0,
            qdelay_old: 0.0,
            burst_allowance: prm.max_burst.as_secs_f64(),
            next_update: SimTime::ZERO + prm.t_update,
            prm: prm.clone(),
        }
    }

    /// The current drop probability.
    pub fn drop_prob(&self) -> f64 {
        self.drop_prob
    }

    /// RFC 8033 §4.2 `calculate_drop_prob` and §4.3 burst allowance bookkeeping.
    fn update(&mut self) {
        let target = self.prm.target.as_secs_f64();
        let qdelay = if self.fifo.is_empty() { 0.0 } else { self.qdelay };
        let mut p = self.prm.alpha * (qdelay - target) + self.prm.beta * (qdelay - self.qdelay_old);
        p /= match self.drop_prob {
            d if d < 0.000001 => 2048.0,
            d if d < 0.00001 => 512.0,
            d if d < 0.0001 => 128.0,
            d if d < 0.001 => 32.0,
            d if d < 0.01 => 8.0,
            d if d < 0.1 => 2.0,
            _ => 1.0,
        };
        if self.drop_prob >= 0.1 && p > 0.02 {
            p = 0.02;
        }
        self.drop_prob += p;
        if qdelay == 0.0 && self.qdelay_old == 0.0 {
            self.drop_prob *= 0.98;
        }
        self.drop_prob = self.drop_prob.clamp(0.0, 1.0);
        self.burst_allowance = (self.burst_allowance - self.prm.t_update.as_secs_f64()).max(0.0);
        if self.drop_prob == 0.0 && qdelay < target / 2.0 && self.qdelay_old < target / 2.0 {
            self.burst_allowance = self.prm.max_burst.as_secs_f64();
        }
        self.qdelay_old = qdelay;
    }

    fn catch_up(&mut self, now: SimTime) {
        let mut n = 0;
        while now >= self.next_update {
            if n == MAX_REPLAYED_UPDATES {
                let periods = now.saturating_since(self.next_update).0 / self.prm.t_update.0 + 1;
                self.drop_prob *= 0.98f64.powf(periods as f64);
                self.next_update += SimDuration(periods * self.prm.t_update.0);
                break;
            }
            self.update();
            self.next_update += self.prm.t_update;
            n += 1;
        }
    }

    /// Offers `p` at `now` (RFC 8033 §4.1 `enqueue` / `drop_early`). Returns whether queued.
    pub fn enqueue(&mut self, mut p: Packet, now: SimTime, rng: &mut RngStream, log: &mut QueueLog) -> bool {
        self.catch_up(now);
        let target = self.prm.target.as_secs_f64();
        let protected = self.burst_allowance > 0.0 || (self.qdelay_old < target / 2.0 && self.drop_prob < 0.2) || self.fifo.len_pkts() < 2;
        if !protected && rng.gen::<f64>() < self.drop_prob {
            if self.prm.ecn && p.ecn != Ecn::NotEct && self.drop_prob <= 0.1 {
                p.ecn = Ecn::Ce;
                log.ecn_marks += 1;
            } else {
                log.drop(DropCause::Early);
                return false;
            }
        }
        push_or_overflow(&mut self.fifo, self.prm.limit, p, log)
    }

    /// Takes the head packet at `now`, measuring its sojourn time.
    pub fn dequeue(&mut self, now: SimTime) -> Option<Packet> {
        self.catch_up(now);
        let p = self.fifo.pop()?;
        self.qdelay = now.saturating_since(p.enqueued_at).as_secs_f64();
        Some(p)
    }
}

/// PIE's parameters (`queue = { kind = "pie", target = "15ms" }`), defaults from RFC 8033.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct PieSpec {
    /// Capacity (tail drop beyond it). Default `"1000pkt"` (Linux).
    pub limit: BufferSize,
    /// Reference queuing delay (QDELAY_REF). Default `"15ms"`.
    pub target: Duration,
    /// Update period of the drop probability (T_UPDATE). Default `"15ms"`.
    pub t_update: Duration,
    /// Integral gain α, Hz. Default 0.125.
    pub alpha: f64,
    /// Proportional gain β, Hz. Default 1.25.
    pub beta: f64,
    /// Burst allowance (MAX_BURST). Default `"150ms"`.
    pub max_burst: Duration,
    /// Mark ECN-capable packets (CE, while p ≤ 0.1) instead of dropping them. Default false.
    pub ecn: bool,
}

impl Default for PieSpec {
    fn default() -> Self {
        PieSpec {
            limit: BufferSize(PacketsOrBytes::Packets(1000)),
            target: Duration(SimDuration::from_millis(15)),
            t_update: Duration(SimDuration::from_millis(15)),
            alpha: 0.125,
            beta: 1.25,
            max_burst: Duration(SimDuration::from_millis(150)),
            ecn: false,
        }
    }
}

impl DisciplineSpec for PieSpec {
    const KIND: &'static str = "pie";
    type Config = PieParams;
    type Queue = Box<Pie>;
    fn resolve(&self, _rate: Rate) -> Result<PieParams, ParamError> {
        let limit = check_limit(self.limit.0)?;
        for (field, v) in [("alpha", self.alpha), ("beta", self.beta)] {
            if !(v.is_finite() && v > 0.0) {
                return Err(ParamError { field, message: format!("{v} is not positive; expected a gain > 0 (Hz)") });
            }
        }
        Ok(PieParams {
            limit,
            target: check_positive_duration("target", self.target.0)?,
            t_update: check_positive_duration("t_update", self.t_update.0)?,
            alpha: self.alpha,
            beta: self.beta,
            max_burst: self.max_burst.0,
            ecn: self.ecn,
        })
    }
    fn build(p: &PieParams, _rate: Rate, _salt: u64) -> Box<Pie> {
        Box::new(Pie::new(p))
    }
    fn limit_pkts(p: &PieParams) -> u64 {
        limit_in_pkts(p.limit)
    }
}

impl QueueDiscipline for Pie {
    #[inline]
    fn enqueue(&mut self, p: Packet, now: SimTime, rng: &mut RngStream, log: &mut QueueLog) -> bool {
        Pie::enqueue(self, p, now, rng, log)
    }
    #[inline]
    fn dequeue(&mut self, now: SimTime, _log: &mut QueueLog) -> Option<Packet> {
        Pie::dequeue(self, now)
    }
    #[inline]
    fn len_pkts(&self) -> u64 {
        self.fifo.len_pkts()
    }
    #[inline]
    fn len_bytes(&self) -> u64 {
        self.fifo.len_bytes()
    }
    fn for_each_packet(&self, f: &mut dyn FnMut(&Packet)) {
        self.fifo.iter().for_each(f)
    }
}
