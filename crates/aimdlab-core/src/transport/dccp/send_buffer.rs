//! The DCCP sender's buffer of application messages the CCID does not yet let leave: bounded,
//! with a policy for a message offered when it is full (`dccp.buffer_policy`). A bulk or
//! finite application is not buffered: its data is always there to read.

use super::params::BufferPolicy;
use crate::units::SimTime;
use std::collections::VecDeque;

/// Waiting messages (one packet each), each with the time it was offered and its payload
/// bytes.
#[derive(Clone, Debug)]
pub struct SendBuffer {
    waiting: VecDeque<(SimTime, u64)>,
    bound: usize,
    policy: BufferPolicy,
}

impl SendBuffer {
    /// An empty buffer of `bound` messages run by `policy`.
    pub fn new(bound: u32, policy: BufferPolicy) -> Self {
        SendBuffer { waiting: VecDeque::new(), bound: bound as usize, policy }
    }

    /// A message of `payload` bytes offered at `now`; returns whether a message was discarded
    /// to keep the bound.
    pub fn offer(&mut self, now: SimTime, payload: u64) -> bool {
        if self.waiting.len() < self.bound || self.policy == BufferPolicy::Block {
            self.waiting.push_back((now, payload));
            return false;
        }
        if self.policy == BufferPolicy::DropOldest {
            self.waiting.pop_front();
            self.waiting.push_back((now, payload));
        }
        true
    }

    /// Takes the oldest waiting message (the time it was offered, its payload bytes).
    pub fn take(&mut self) -> Option<(SimTime, u64)> {
        self.waiting.pop_front()
    }

    /// Whether a message is waiting.
    pub fn has_message(&self) -> bool {
        !self.waiting.is_empty()
    }

    /// Messages waiting.
    pub fn len(&self) -> usize {
        self.waiting.len()
    }

    /// Whether nothing waits.
    pub fn is_empty(&self) -> bool {
        self.waiting.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(ms: u64) -> SimTime {
        SimTime::ZERO + crate::units::SimDuration::from_millis(ms)
    }

    #[test]
    fn each_policy_keeps_the_messages_it_says() {
        let mut oldest = SendBuffer::new(2, BufferPolicy::DropOldest);
        let mut newest = SendBuffer::new(2, BufferPolicy::DropNewest);
        let mut block = SendBuffer::new(2, BufferPolicy::Block);
        for ms in 0..4 {
            oldest.offer(t(ms), ms);
            newest.offer(t(ms), ms);
            assert!(!block.offer(t(ms), ms), "block never discards");
        }
        assert_eq!((oldest.take(), oldest.take(), oldest.take()), (Some((t(2), 2)), Some((t(3), 3)), None));
        assert_eq!((newest.take(), newest.take(), newest.take()), (Some((t(0), 0)), Some((t(1), 1)), None));
        assert_eq!(block.len(), 4);
    }
}
