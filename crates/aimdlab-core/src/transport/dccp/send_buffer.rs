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
    /// Under `block`: the one message the application is blocked writing into a full buffer.
    blocked: Option<(SimTime, u64)>,
}

impl SendBuffer {
    /// An empty buffer of `bound` messages run by `policy`.
    pub fn new(bound: u32, policy: BufferPolicy) -> Self {
        SendBuffer { waiting: VecDeque::new(), bound: bound as usize, policy, blocked: None }
    }

    /// A message of `payload` bytes offered at `now`; returns whether a message was discarded
    /// to keep the bound (under `block`: one the blocked application did not make).
    pub fn offer(&mut self, now: SimTime, payload: u64) -> bool {
        if self.waiting.len() < self.bound {
            self.waiting.push_back((now, payload));
            return false;
        }
        match self.policy {
            BufferPolicy::DropOldest => {
                self.waiting.pop_front();
                self.waiting.push_back((now, payload));
                true
            }
            BufferPolicy::DropNewest => true,
            // Back-pressure: the application waits with this message until room frees, and
            // makes none of the messages its schedule would have made meanwhile.
            BufferPolicy::Block if self.blocked.is_none() => {
                self.blocked = Some((now, payload));
                false
            }
            BufferPolicy::Block => true,
        }
    }

    /// Takes the oldest waiting message (the time it was offered, its payload bytes); a
    /// blocked application's message takes the room it frees.
    pub fn take(&mut self) -> Option<(SimTime, u64)> {
        let message = self.waiting.pop_front();
        if message.is_some() {
            if let Some(blocked) = self.blocked.take() {
                self.waiting.push_back(blocked);
            }
        }
        message
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
        let mut skipped = 0;
        for ms in 0..5 {
            oldest.offer(t(ms), ms);
            newest.offer(t(ms), ms);
            skipped += block.offer(t(ms), ms) as u32;
        }
        assert_eq!((oldest.take(), oldest.take(), oldest.take()), (Some((t(3), 3)), Some((t(4), 4)), None));
        assert_eq!((newest.take(), newest.take(), newest.take()), (Some((t(0), 0)), Some((t(1), 1)), None));
        // Block: two in the buffer, the application waits with the third and makes neither
        // the fourth nor the fifth; the third goes in when room frees, at its own time.
        assert_eq!((block.len(), skipped), (2, 2));
        assert_eq!((block.take(), block.take(), block.take(), block.take()), (Some((t(0), 0)), Some((t(1), 1)), Some((t(2), 2)), None));
        assert!(!block.offer(t(9), 9), "room again: the application writes at once");
    }
}
