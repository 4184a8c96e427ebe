//! A timer lane: cancellable timers that all run for the same delay (a TCP receiver's
//! delayed-ACK timer: every one is set to "now + the timeout").
//!
//! Timers set for one fixed delay expire in the order they were set, so a lane is a FIFO of
//! event-queue keys (time, insertion sequence, event) and needs no heap of its own. Only its
//! earliest live timer sits in the event queue, under a lane-head key with the same time and
//! sequence, so it runs exactly where it would have run as an ordinary event. Cancelling a
//! timer overwrites its entry with a tombstone in O(1) and touches nothing else; the
//! tombstones are skipped in a batch when the lane's head comes due. A delayed-ACK timer is
//! set and cancelled about once per two segments and rarely fires: this way it costs the
//! event queue nothing until it does (where a lazy timer would have woken the receiver once
//! per timeout for nothing).

use std::collections::VecDeque;

/// An entry that was cancelled.
const TOMBSTONE: u128 = 0;
/// `position_of_owner` value: the owner has no live timer in the lane.
const NONE: u64 = u64::MAX;

/// The timers of one fixed delay.
pub struct TimerLane {
    /// The delay every timer of the lane runs for, picoseconds.
    pub delay_ps: u64,
    /// What the lane's timers are (the caller's tag: a timer kind).
    pub tag: u32,
    /// Entries in expiry order; `TOMBSTONE` for a cancelled one.
    entries: VecDeque<u128>,
    /// The owner of each entry, in step with `entries`.
    owners: VecDeque<u32>,
    /// Position (counted since the lane began) of `entries[0]`.
    first_position: u64,
    /// Position of each owner's live timer, or `NONE`.
    position_of_owner: Vec<u64>,
    /// Whether the event queue holds a lane-head key for this lane.
    pub head_queued: bool,
}

impl TimerLane {
    /// An empty lane for timers `tag` of `delay_ps`, owned by up to `owners` components.
    pub fn new(delay_ps: u64, tag: u32, owners: usize) -> Self {
        TimerLane {
            delay_ps,
            tag,
            entries: VecDeque::new(),
            owners: VecDeque::new(),
            first_position: 0,
            position_of_owner: vec![NONE; owners],
            head_queued: false,
        }
    }

    /// Appends `owner`'s timer with event-queue key `key` (which must not precede any
    /// entry of the lane), replacing the owner's live timer if it has one.
    #[inline]
    pub fn push(&mut self, owner: u32, key: u128) {
        debug_assert!(key != TOMBSTONE && self.entries.back().is_none_or(|&k| k == TOMBSTONE || k < key));
        self.cancel(owner);
        self.position_of_owner[owner as usize] = self.first_position + self.entries.len() as u64;
        self.entries.push_back(key);
        self.owners.push_back(owner);
    }

    /// Cancels `owner`'s live timer, if any.
    #[inline]
    pub fn cancel(&mut self, owner: u32) {
        let position = std::mem::replace(&mut self.position_of_owner[owner as usize], NONE);
        if position != NONE {
            self.entries[(position - self.first_position) as usize] = TOMBSTONE;
        }
    }

    /// Drops the cancelled entries at the front; returns the earliest live key, if any.
    #[inline]
    pub fn front(&mut self) -> Option<u128> {
        while self.entries.front() == Some(&TOMBSTONE) {
            self.entries.pop_front();
            self.owners.pop_front();
            self.first_position += 1;
        }
        if self.entries.is_empty() {
            self.entries.clear(); // rewinds the rings
            self.owners.clear();
        }
        self.entries.front().copied()
    }

    /// Removes the front entry, a live timer that is running now.
    #[inline]
    pub fn pop_front(&mut self) -> u128 {
        let key = self.entries.pop_front().expect("a lane head to run");
        let owner = self.owners.pop_front().expect("an owner per entry");
        if self.position_of_owner[owner as usize] == self.first_position {
            self.position_of_owner[owner as usize] = NONE;
        }
        self.first_position += 1;
        key
    }

    /// Live timers held.
    pub fn live(&self) -> usize {
        self.entries.iter().filter(|&&k| k != TOMBSTONE).count()
    }
}
