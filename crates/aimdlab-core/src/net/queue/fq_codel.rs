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
//! - Defaults (§4 and §5.1): 1024 queues, quantum 1514 bytes, limit 10240 packets, CoDel
//!   target 5 ms and interval 100 ms.

use super::codel::{CodelParams, CodelState};
use super::fifo::PacketFifo;
use super::{DropCause, QueueLog};
use crate::net::packet::Packet;
use crate::units::SimTime;
use std::collections::VecDeque;

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
    queues: Vec<FlowQueue>,
    new_flows: VecDeque<u32>,
    old_flows: VecDeque<u32>,
    perturbation: u64,
    pkts: u64,
    bytes: u64,
}

impl FqCodel {
    /// An empty FQ-CoDel queue; `perturbation` salts the flow hash.
    pub fn new(prm: &FqCodelParams, perturbation: u64) -> Self {
        let queues = (0..prm.flows)
            .map(|_| FlowQueue { fifo: PacketFifo::with_capacity(0), codel: CodelState::default(), deficit: 0, list: List::None })
            .collect();
        FqCodel {
            prm: prm.clone(),
            queues,
            new_flows: VecDeque::with_capacity(prm.flows as usize),
            old_flows: VecDeque::with_capacity(prm.flows as usize),
            perturbation,
            pkts: 0,
            bytes: 0,
        }
    }

    fn classify(&self, p: &Packet) -> u32 {
        let mut z = (p.flow.0 as u64).wrapping_add(self.perturbation).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        z ^= z >> 29;
        (z % self.prm.flows as u64) as u32
    }

    /// Appends `p` to its flow's queue; on overflow drops from the fattest queue.
    pub fn enqueue(&mut self, p: Packet, log: &mut QueueLog) -> bool {
        let i = self.classify(&p);
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
            let fattest = (0..self.queues.len()).max_by_key(|&j| (self.queues[j].fifo.len_bytes(), std::cmp::Reverse(j))).unwrap();
            let dropped = self.queues[fattest].fifo.pop().expect("the fattest queue holds a packet");
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

    /// Packets held.
    pub fn len_pkts(&self) -> u64 {
        self.pkts
    }

    /// Bytes held.
    pub fn len_bytes(&self) -> u64 {
        self.bytes
    }
}
