//! FQ-CoDel (RFC 8290): flows hashed into `flows` queues, served by deficit round robin with
//! a `quantum` of bytes, new flows before old ones, each queue under its own CoDel.
//!
//! - Classification: a flow (aimdlab's flow id) is hashed with a per-link perturbation drawn
//!   from the link's random stream (RFC 8290 §4.1.1), so distinct flows may share a queue.
//! - Scheduling (§4.2): the new-flows list is served first; a queue whose deficit is spent
//!   gets another quantum and moves to the tail of the old list; an empty new queue moves to
//!   the old list, an empty old queue leaves the lists.
//! - Overflow (§4.1): when the total exceeds `limit`, the packet at the head of the queue
//!   holding the most bytes is dropped (one per arrival; Linux drops up to 64 at once).
//!   "Most bytes" ties (e.g. queues of 0-byte packets) go to the queue with the most packets,
//!   then the lowest index; an empty queue is never chosen.
//! - Defaults (§4 and §5.1): 1024 queues, quantum 1514 bytes, limit 10240 packets, CoDel
//!   target 5 ms and interval 100 ms.
//! - Memory: a flow queue is allocated the first time a packet hashes to it, so a link pays
//!   for the queues its traffic uses, not for all `flows` of them.

use super::codel::{CodelParams, CodelState};
use super::fifo::PacketFifo;
use super::log::{DropCause, QueueLog};
use crate::net::packet::Packet;
use crate::units::SimTime;
use std::collections::{HashMap, VecDeque};
use super::codel::codel_params;
use super::discipline::QueueDiscipline;
use super::params::DisciplineSpec;
use crate::error::ParamError;
use crate::rng::RngStream;
use crate::units::quantity::{BufferSize, Duration, Size};
use crate::units::parse::PacketsOrBytes;
use crate::units::{Bytes, Rate, SimDuration};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Resolved FQ-CoDel parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct FqCodelParams {
    /// Total packets held before overflow drops.
    pub limit_pkts: u64,
    /// Number of flow queues.
    pub flows: u32,
    /// DRR quantum, bytes.
    pub quantum: u64,
    /// The CoDel of every queue.
    pub codel: CodelParams,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum List {
    None,
    New,
    Old,
}

struct FlowQueue {
    fifo: PacketFifo,
    codel: CodelState,
    deficit: i64,
    list: List,
}

/// An FQ-CoDel queue.
pub struct FqCodel {
    prm: FqCodelParams,
    /// The flow queues in use, in order of first use.
    queues: Vec<FlowQueue>,
    /// Hash bucket → index in `queues` (only looked up, never iterated: runs stay deterministic).
    slot_of_bucket: HashMap<u32, u32>,
    new_flows: VecDeque<u32>,
    old_flows: VecDeque<u32>,
    perturbation: u64,
    pkts: u64,
    bytes: u64,
}

impl FqCodel {
    /// An empty FQ-CoDel queue; `perturbation` salts the flow hash.
    pub fn new(prm: &FqCodelParams, perturbation: u64) -> Self {
        FqCodel {
            prm: prm.clone(),
            queues: Vec::new(),
            slot_of_bucket: HashMap::new(),
            new_flows: VecDeque::new(),
            old_flows: VecDeque::new(),
            perturbation,
            pkts: 0,
            bytes: 0,
        }
    }

    /// The hash bucket of `p`'s flow, in `0..flows`.
    fn classify(&self, p: &Packet) -> u32 {
        let mut z = (p.flow.0 as u64).wrapping_add(self.perturbation).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        z ^= z >> 29;
        (z % self.prm.flows as u64) as u32
    }

    /// Index in `queues` of `p`'s flow queue, allocating it on first use.
    fn queue_of(&mut self, p: &Packet) -> u32 {
        let bucket = self.classify(p);
        let next = self.queues.len() as u32;
        let i = *self.slot_of_bucket.entry(bucket).or_insert(next);
        if i == next {
            self.queues.push(FlowQueue { fifo: PacketFifo::new(), codel: CodelState::default(), deficit: 0, list: List::None });
        }
        i
    }

    /// Flow queues allocated so far.
    pub fn queues_in_use(&self) -> usize {
        self.queues.len()
    }

    /// Appends `p` to its flow's queue; on overflow drops from the fattest queue.
    pub fn enqueue(&mut self, p: Packet, log: &mut QueueLog) -> bool {
        let i = self.queue_of(&p);
        let size = p.size.0;
        let q = &mut self.queues[i as usize];
        q.codel.on_enqueue(&p);
        q.fifo.push(p);
        if q.list == List::None {
            q.list = List::New;
            q.deficit = self.prm.quantum as i64;
            self.new_flows.push_back(i);
        }
        self.pkts += 1;
        self.bytes += size;
        if self.pkts > self.prm.limit_pkts {
            // The queue just appended to holds a packet, so a non-empty queue exists.
            let fattest = (0..self.queues.len())
                .filter(|&j| !self.queues[j].fifo.is_empty())
                .max_by_key(|&j| (self.queues[j].fifo.len_bytes(), self.queues[j].fifo.len_pkts(), std::cmp::Reverse(j)))
                .unwrap_or(i as usize);
            let Some(dropped) = self.queues[fattest].fifo.pop() else { return true };
            self.pkts -= 1;
            self.bytes -= dropped.size.0;
            log.drop(DropCause::Overflow);
        }
        true
    }

    /// Takes the next packet at `now` (RFC 8290 §4.2), CoDel dropping or marking per queue.
    pub fn dequeue(&mut self, now: SimTime, log: &mut QueueLog) -> Option<Packet> {
        loop {
            let (i, from_new) = match self.new_flows.front() {
                Some(&i) => (i, true),
                None => (*self.old_flows.front()?, false),
            };
            let q = &mut self.queues[i as usize];
            if q.deficit <= 0 {
                q.deficit += self.prm.quantum as i64;
                if from_new {
                    self.new_flows.pop_front();
                } else {
                    self.old_flows.pop_front();
                }
                q.list = List::Old;
                self.old_flows.push_back(i);
                continue;
            }
            let before_pkts = q.fifo.len_pkts();
            let before_bytes = q.fifo.len_bytes();
            let p = q.codel.dequeue(&mut q.fifo, now, &self.prm.codel, log);
            self.pkts -= before_pkts - q.fifo.len_pkts();
            self.bytes -= before_bytes - q.fifo.len_bytes();
            match p {
                Some(p) => {
                    q.deficit -= p.size.0 as i64;
                    return Some(p);
                }
                None => {
                    if from_new {
                        self.new_flows.pop_front();
                        q.list = List::Old;
                        self.old_flows.push_back(i);
                    } else {
                        self.old_flows.pop_front();
                        q.list = List::None;
                    }
                }
            }
        }
    }
}

/// FQ-CoDel's parameters (`queue = { kind = "fq_codel", flows = 1024 }`), defaults from
/// RFC 8290 and Linux.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct FqCodelSpec {
    /// Capacity, in packets only. Default `"10240pkt"` (RFC 8290).
    pub limit: BufferSize,
    /// Number of flow queues, 1 to 65536. Default 1024.
    pub flows: u32,
    /// DRR quantum. Default `"1514B"`.
    pub quantum: Size,
    /// Each queue's CoDel target. Default `"5ms"`.
    pub target: Duration,
    /// Each queue's CoDel interval. Default `"100ms"`.
    pub interval: Duration,
    /// Mark ECN-capable packets (CE) instead of dropping them. Default false.
    pub ecn: bool,
}

impl Default for FqCodelSpec {
    fn default() -> Self {
        FqCodelSpec {
            limit: BufferSize(PacketsOrBytes::Packets(10240)),
            flows: 1024,
            quantum: Size(Bytes(1514)),
            target: Duration(SimDuration::from_millis(5)),
            interval: Duration(SimDuration::from_millis(100)),
            ecn: false,
        }
    }
}

impl DisciplineSpec for FqCodelSpec {
    const KIND: &'static str = "fq_codel";
    type Config = FqCodelParams;
    type Queue = Box<FqCodel>;
    fn resolve(&self, _rate: Rate) -> Result<FqCodelParams, ParamError> {
        let limit_pkts = match self.limit.0 {
            PacketsOrBytes::Packets(0) => return Err(ParamError { field: "limit", message: "\"0pkt\" holds nothing; expected at least 1 packet".into() }),
            PacketsOrBytes::Packets(n) => n,
            PacketsOrBytes::Bytes(_) => return Err(ParamError { field: "limit", message: "is in bytes; fq_codel takes a limit in packets such as \"10240pkt\"".into() }),
        };
        if self.flows == 0 || self.flows > 65536 {
            return Err(ParamError { field: "flows", message: format!("{} is out of range; expected 1 to 65536 queues", self.flows) });
        }
        if self.quantum.0 .0 == 0 {
            return Err(ParamError { field: "quantum", message: "\"0B\" is not allowed; expected at least one byte".into() });
        }
        Ok(FqCodelParams { limit_pkts, flows: self.flows, quantum: self.quantum.0 .0, codel: codel_params(self.target, self.interval, self.ecn)? })
    }
    fn build(p: &FqCodelParams, _rate: Rate, salt: u64) -> Box<FqCodel> {
        Box::new(FqCodel::new(p, salt))
    }
    fn limit_pkts(p: &FqCodelParams) -> u64 {
        p.limit_pkts.min(1 << 16)
    }
    /// A flow queue (FIFO header, CoDel state, deficit) and its map entry, per flow queue
    /// that traffic can reach.
    fn extra_bytes(p: &FqCodelParams, flows: u64) -> u64 {
        (p.flows as u64).min(flows) * 160
    }
}

impl QueueDiscipline for FqCodel {
    #[inline]
    fn enqueue(&mut self, p: Packet, _now: SimTime, _rng: &mut RngStream, log: &mut QueueLog) -> bool {
        FqCodel::enqueue(self, p, log)
    }
    #[inline]
    fn dequeue(&mut self, now: SimTime, log: &mut QueueLog) -> Option<Packet> {
        FqCodel::dequeue(self, now, log)
    }
    #[inline]
    fn len_pkts(&self) -> u64 {
        self.pkts
    }
    #[inline]
    fn len_bytes(&self) -> u64 {
        self.bytes
    }
    fn for_each_packet(&self, f: &mut dyn FnMut(&Packet)) {
        self.queues.iter().flat_map(|q| q.fifo.iter()).for_each(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::{FlowId, NodeId};
    use crate::units::{Bytes, SimDuration};

    fn params(limit_pkts: u64, flows: u32) -> FqCodelParams {
        let codel = CodelParams { target: SimDuration::from_millis(5), interval: SimDuration::from_millis(100), ecn: false };
        FqCodelParams { limit_pkts, flows, quantum: 1514, codel }
    }

    #[test]
    fn overflow_of_zero_byte_packets_drops_from_a_queue_that_holds_one() {
        let mut q = FqCodel::new(&params(3, 64), 7);
        let mut log = QueueLog::default();
        for i in 0..10u64 {
            q.enqueue(Packet::data(FlowId((i % 4) as u32), NodeId(0), i, Bytes(0), SimTime::ZERO), &mut log);
            assert!(q.len_pkts() <= 3);
        }
        assert_eq!(log.overflow, 7);
        assert_eq!(q.len_bytes(), 0);
    }

    #[test]
    fn flow_queues_are_allocated_on_first_use() {
        let mut q = FqCodel::new(&params(10_240, 65_536), 1);
        let mut log = QueueLog::default();
        assert_eq!(q.queues_in_use(), 0);
        for i in 0..300u64 {
            q.enqueue(Packet::data(FlowId((i % 3) as u32), NodeId(0), i, Bytes(1000), SimTime::ZERO), &mut log);
        }
        assert!((1..=3).contains(&q.queues_in_use()), "{}", q.queues_in_use());
        let mut served = 0;
        while q.dequeue(SimTime::ZERO, &mut log).is_some() {
            served += 1;
        }
        assert_eq!(served, 300);
    }
}
