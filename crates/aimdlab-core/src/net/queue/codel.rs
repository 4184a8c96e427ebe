//! CoDel, Controlled Delay (RFC 8289): drops (or ECN-marks) at dequeue when the sojourn time
//! of packets has stayed above `target` for at least `interval`, then at intervals shrinking
//! as `interval/√count` (the control law, RFC 8289 §3.3) until it falls below `target`.
//!
//! The state machine follows the RFC's pseudocode (§5): `dodequeue` decides `ok_to_drop`;
//! entering the dropping state reuses the previous count when the last episode ended less
//! than 16 intervals ago. A packet is never judged while the queue holds less than one
//! MTU's worth of bytes (the largest packet seen). With `ecn`, an ECN-capable packet is
//! marked instead of dropped and the schedule advances as for a drop (as Linux does).
//! Defaults: target 5 ms, interval 100 ms (RFC 8289 §4.2, 4.3).

use super::fifo::PacketFifo;
use super::log::{DropCause, QueueLog};
use crate::net::packet::{Ecn, Packet};
use crate::units::{SimDuration, SimTime};
use super::discipline::QueueDiscipline;
use super::params::{check_limit, check_positive_duration, limit_in_pkts, DisciplineSpec};
use crate::error::ParamError;
use crate::rng::RngStream;
use crate::units::quantity::{BufferSize, Duration};
use crate::units::parse::PacketsOrBytes;
use crate::units::Rate;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Resolved CoDel parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct CodelParams {
    /// Acceptable standing queue delay.
    pub target: SimDuration,
    /// Window over which the delay must stay above target before dropping.
    pub interval: SimDuration,
    /// Mark ECN-capable packets instead of dropping them.
    pub ecn: bool,
}

/// CoDel's per-queue state (shared by CoDel and each FQ-CoDel flow queue).
#[derive(Clone, Debug, Default)]
pub struct CodelState {
    first_above_time: Option<SimTime>,
    drop_next: SimTime,
    count: u32,
    lastcount: u32,
    dropping: bool,
    max_packet: u64,
}

fn control_law(t: SimTime, interval: SimDuration, count: u32) -> SimTime {
    t + SimDuration::from_secs_f64(interval.as_secs_f64() / (count.max(1) as f64).sqrt())
}

impl CodelState {
    /// Notes the size of an arriving packet (the MTU estimate).
    #[inline]
    pub fn on_enqueue(&mut self, p: &Packet) {
        self.max_packet = self.max_packet.max(p.size.0);
    }

    fn dodequeue(&mut self, fifo: &mut PacketFifo, now: SimTime, prm: &CodelParams) -> (Option<Packet>, bool) {
        let Some(p) = fifo.pop() else {
            self.first_above_time = None;
            return (None, false);
        };
        let sojourn = now.saturating_since(p.enqueued_at);
        let mut ok_to_drop = false;
        if sojourn < prm.target || fifo.len_bytes() <= self.max_packet {
            self.first_above_time = None;
        } else {
            match self.first_above_time {
                None => self.first_above_time = Some(now + prm.interval),
                Some(t) if now >= t => ok_to_drop = true,
                Some(_) => {}
            }
        }
        (Some(p), ok_to_drop)
    }

    /// Marks `p` if allowed, else records its drop; returns the packet when it was marked.
    fn signal(p: Packet, prm: &CodelParams, log: &mut QueueLog) -> Option<Packet> {
        if prm.ecn && p.ecn != Ecn::NotEct {
            log.ecn_marks += 1;
            Some(Packet { ecn: Ecn::Ce, ..p })
        } else {
            log.drop(DropCause::Early);
            None
        }
    }

    /// Dequeues from `fifo` at `now` under CoDel (RFC 8289 §5.6 `dequeue`).
    pub fn dequeue(&mut self, fifo: &mut PacketFifo, now: SimTime, prm: &CodelParams, log: &mut QueueLog) -> Option<Packet> {
        let (mut p, mut ok_to_drop) = self.dodequeue(fifo, now, prm);
        if p.is_none() {
            self.dropping = false;
            return None;
        }
        if self.dropping {
            if !ok_to_drop {
                self.dropping = false;
            } else {
                while now >= self.drop_next && self.dropping {
                    self.count += 1;
                    if let Some(marked) = Self::signal(p.take().unwrap(), prm, log) {
                        self.drop_next = control_law(self.drop_next, prm.interval, self.count);
                        return Some(marked);
                    }
                    (p, ok_to_drop) = self.dodequeue(fifo, now, prm);
                    if p.is_none() || !ok_to_drop {
                        self.dropping = false;
                    } else {
                        self.drop_next = control_law(self.drop_next, prm.interval, self.count);
                    }
                }
            }
        } else if ok_to_drop {
            let marked = Self::signal(p.take().unwrap(), prm, log);
            if marked.is_some() {
                p = marked;
            } else {
                (p, _) = self.dodequeue(fifo, now, prm);
            }
            self.dropping = true;
            let delta = self.count.saturating_sub(self.lastcount);
            self.count = if delta > 1 && now.saturating_since(self.drop_next) < prm.interval.saturating_mul(16) { delta } else { 1 };
            self.drop_next = control_law(now, prm.interval, self.count);
            self.lastcount = self.count;
        }
        p
    }
}

/// A single CoDel queue with a packet or byte limit (tail drop when full).
pub struct Codel {
    fifo: PacketFifo,
    limit: crate::units::parse::PacketsOrBytes,
    params: CodelParams,
    state: CodelState,
}

impl Codel {
    /// An empty CoDel queue.
    pub fn new(limit: crate::units::parse::PacketsOrBytes, params: &CodelParams) -> Self {
        Codel { fifo: super::fifo::PacketFifo::new(), limit, params: params.clone(), state: CodelState::default() }
    }
    /// Appends `p` unless the buffer is full (then an overflow drop).
    pub fn enqueue(&mut self, p: Packet, log: &mut QueueLog) -> bool {
        if super::droptail::fits(&self.fifo, self.limit, p.size.0) {
            self.state.on_enqueue(&p);
            self.fifo.push(p);
            true
        } else {
            log.drop(DropCause::Overflow);
            false
        }
    }
    /// Takes the next packet to send at `now`, dropping or marking as CoDel decides.
    pub fn dequeue(&mut self, now: SimTime, log: &mut QueueLog) -> Option<Packet> {
        self.state.dequeue(&mut self.fifo, now, &self.params, log)
    }}

/// CoDel's parameters (`queue = { kind = "codel", target = "5ms" }`), defaults from RFC 8289
/// and Linux.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct CodelSpec {
    /// Capacity (tail drop beyond it). Default `"1000pkt"` (Linux).
    pub limit: BufferSize,
    /// Acceptable standing queue delay. Default `"5ms"`.
    pub target: Duration,
    /// The sliding window. Default `"100ms"`.
    pub interval: Duration,
    /// Mark ECN-capable packets (CE) instead of dropping them. Default false.
    pub ecn: bool,
}

impl Default for CodelSpec {
    fn default() -> Self {
        CodelSpec {
            limit: BufferSize(PacketsOrBytes::Packets(1000)),
            target: Duration(SimDuration::from_millis(5)),
            interval: Duration(SimDuration::from_millis(100)),
            ecn: false,
        }
    }
}

/// CoDel resolved for one link: its capacity and its control law.
#[derive(Clone, Debug, PartialEq)]
pub struct CodelConfig {
    /// Capacity.
    pub limit: PacketsOrBytes,
    /// The control law's parameters.
    pub params: CodelParams,
}

/// CoDel's control-law parameters from `target`, `interval` and `ecn` (shared with FQ-CoDel).
pub fn codel_params(target: Duration, interval: Duration, ecn: bool) -> Result<CodelParams, ParamError> {
    Ok(CodelParams { target: check_positive_duration("target", target.0)?, interval: check_positive_duration("interval", interval.0)?, ecn })
}

impl DisciplineSpec for CodelSpec {
    const KIND: &'static str = "codel";
    type Config = CodelConfig;
    type Queue = Box<Codel>;
    fn resolve(&self, _rate: Rate) -> Result<CodelConfig, ParamError> {
        Ok(CodelConfig { limit: check_limit(self.limit.0)?, params: codel_params(self.target, self.interval, self.ecn)? })
    }
    fn build(c: &CodelConfig, _rate: Rate, _salt: u64) -> Box<Codel> {
        Box::new(Codel::new(c.limit, &c.params))
    }
    fn limit_pkts(c: &CodelConfig) -> u64 {
        limit_in_pkts(c.limit)
    }
}

impl QueueDiscipline for Codel {
    #[inline]
    fn enqueue(&mut self, p: Packet, _now: SimTime, _rng: &mut RngStream, log: &mut QueueLog) -> bool {
        Codel::enqueue(self, p, log)
    }
    #[inline]
    fn dequeue(&mut self, now: SimTime, log: &mut QueueLog) -> Option<Packet> {
        Codel::dequeue(self, now, log)
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
