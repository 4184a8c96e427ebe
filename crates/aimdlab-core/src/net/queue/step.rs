//! Step marking: the queue DCTCP assumes (M. Alizadeh et al., "Data Center TCP (DCTCP)",
//! SIGCOMM 2010, §3.1; RFC 8257 §3.1). An arriving packet finding `k` or more packets (or
//! bytes) waiting — the instantaneous queue, no average — is marked CE if it is ECN-capable;
//! a packet that is not is dropped, as RED configured as a step (min_th = max_th = K,
//! w_q = 1) does in ns-3's and Linux's DCTCP set-ups. A FIFO of `limit` otherwise.
//! With `ecn = false` every packet above K is dropped: a step dropper.

use super::discipline::QueueDiscipline;
use super::droptail::push_or_overflow;
use super::fifo::PacketFifo;
use super::log::{DropCause, QueueLog};
use super::params::{check_limit, limit_in_pkts, DisciplineSpec};
use crate::error::ParamError;
use crate::net::packet::{Ecn, Packet};
use crate::rng::RngStream;
use crate::units::quantity::BufferSize;
use crate::units::parse::PacketsOrBytes;
use crate::units::{Rate, SimTime};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The step queue's parameters (`queue = { kind = "step", k = "20pkt", limit = "100pkt" }`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct StepSpec {
    /// Capacity in packets or bytes, not counting the packet being transmitted. Default
    /// `"100pkt"`.
    pub limit: BufferSize,
    /// The marking threshold K in packets or bytes: an arrival finding this much waiting is
    /// marked. Default `"20pkt"` (RFC 8257 §3.1 leaves K to the operator; the DCTCP paper's
    /// guideline is K > C·RTT/7: 20 packets at 10 Gbit/s and 100 µs RTT).
    pub k: BufferSize,
    /// Mark ECN-capable packets above K (and drop the others); false drops every packet
    /// above K. Default true.
    pub ecn: bool,
}

impl Default for StepSpec {
    fn default() -> Self {
        StepSpec { limit: BufferSize(PacketsOrBytes::Packets(100)), k: BufferSize(PacketsOrBytes::Packets(20)), ecn: true }
    }
}

/// The step queue resolved for a link.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepConfig {
    /// Capacity.
    pub limit: PacketsOrBytes,
    /// Marking threshold.
    pub k: PacketsOrBytes,
    /// Mark rather than drop.
    pub ecn: bool,
}

impl DisciplineSpec for StepSpec {
    const KIND: &'static str = "step";
    type Config = StepConfig;
    type Queue = Step;
    fn resolve(&self, _rate: Rate) -> Result<StepConfig, ParamError> {
        let limit = check_limit(self.limit.0)?;
        let k = self.k.0;
        let (k_v, limit_v) = match (k, limit) {
            (PacketsOrBytes::Packets(a), PacketsOrBytes::Packets(b)) => (a, b),
            (PacketsOrBytes::Bytes(a), PacketsOrBytes::Bytes(b)) => (a.0, b.0),
            _ => return Err(ParamError { field: "k", message: format!("{k:?} and limit {limit:?} use different units; expected both in packets or both in bytes") }),
        };
        if k_v == 0 || k_v > limit_v {
            return Err(ParamError { field: "k", message: format!("{k_v} is outside [1, limit = {limit_v}]; expected a threshold within the buffer") });
        }
        Ok(StepConfig { limit, k, ecn: self.ecn })
    }
    fn build(cfg: &StepConfig, _rate: Rate, _salt: u64) -> Step {
        Step { fifo: PacketFifo::new(), cfg: *cfg }
    }
    fn limit_pkts(cfg: &StepConfig) -> u64 {
        limit_in_pkts(cfg.limit)
    }
}

/// A step-marking FIFO.
pub struct Step {
    fifo: PacketFifo,
    cfg: StepConfig,
}

impl QueueDiscipline for Step {
    fn enqueue(&mut self, mut p: Packet, _now: SimTime, _rng: &mut RngStream, log: &mut QueueLog) -> bool {
        let above = match self.cfg.k {
            PacketsOrBytes::Packets(k) => self.fifo.len_pkts() >= k,
            PacketsOrBytes::Bytes(k) => self.fifo.len_bytes() >= k.0,
        };
        if above {
            if self.cfg.ecn && p.ecn != Ecn::NotEct {
                p.ecn = Ecn::Ce;
                log.ecn_marks += 1;
            } else {
                log.drop(DropCause::Early);
                return false;
            }
        }
        push_or_overflow(&mut self.fifo, self.cfg.limit, p, log)
    }
    fn dequeue(&mut self, _now: SimTime, _log: &mut QueueLog) -> Option<Packet> {
        self.fifo.pop()
    }
    fn len_pkts(&self) -> u64 {
        self.fifo.len_pkts()
    }
    fn len_bytes(&self) -> u64 {
        self.fifo.len_bytes()
    }
    fn for_each_packet(&self, f: &mut dyn FnMut(&Packet)) {
        self.fifo.iter().for_each(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn packet(ecn: Ecn) -> Packet {
        let p = Packet::data(crate::ids::FlowId(0), crate::ids::NodeId(0), 0, crate::units::Bytes(1000), SimTime::ZERO);
        Packet { ecn, ..p }
    }

    #[test]
    fn arrivals_finding_k_or_more_waiting_are_marked_or_dropped() {
        let cfg = StepSpec { k: BufferSize(PacketsOrBytes::Packets(3)), limit: BufferSize(PacketsOrBytes::Packets(5)), ecn: true }.resolve(Rate::from_bps(1)).unwrap();
        let mut q = StepSpec::build(&cfg, Rate::from_bps(1), 0);
        let (mut log, mut rng) = (QueueLog::default(), crate::rng::derive_stream(1, crate::rng::StreamKind::Aqm, 0));
        for _ in 0..3 {
            assert!(q.enqueue(packet(Ecn::Ect0), SimTime::ZERO, &mut rng, &mut log));
        }
        assert_eq!(log.ecn_marks, 0);
        // The fourth finds 3 waiting: marked; a packet without ECN is dropped.
        assert!(q.enqueue(packet(Ecn::Ect0), SimTime::ZERO, &mut rng, &mut log));
        assert!(!q.enqueue(packet(Ecn::NotEct), SimTime::ZERO, &mut rng, &mut log));
        assert_eq!((log.ecn_marks, log.dropped()), (1, 1));
        let marked: Vec<Ecn> = std::iter::from_fn(|| q.dequeue(SimTime::ZERO, &mut log)).map(|p| p.ecn).collect();
        assert_eq!(marked, [Ecn::Ect0, Ecn::Ect0, Ecn::Ect0, Ecn::Ce]);
    }

    #[test]
    fn k_must_lie_within_the_buffer_in_the_same_unit() {
        let bad = StepSpec { k: BufferSize(PacketsOrBytes::Packets(200)), ..Default::default() }.resolve(Rate::from_bps(1)).unwrap_err();
        assert_eq!(bad.field, "k");
        assert!(bad.message.contains("[1, limit = 100]"), "{}", bad.message);
        let mixed = StepSpec { k: BufferSize(PacketsOrBytes::Bytes(crate::units::Bytes(20_000))), ..Default::default() }.resolve(Rate::from_bps(1)).unwrap_err();
        assert!(mixed.message.contains("different units"), "{}", mixed.message);
    }
}
