//! Watching and stopping a run from another thread: the simulator publishes its clock every
//! few thousand events and checks a cancel flag at the same moments. Both are relaxed
//! atomics, so the event loop pays almost nothing for them.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Events between two updates of the published clock (and checks of the cancel flag); a
/// power of two, so the check is a mask.
pub const PUBLISH_EVERY_EVENTS: u64 = 8192;

/// Shared between a running simulation and its observers.
#[derive(Debug, Default)]
pub struct RunControl {
    now_ps: AtomicU64,
    cancel: AtomicBool,
}

impl RunControl {
    /// A fresh control: clock at zero, not cancelled.
    pub fn new() -> Self {
        Self::default()
    }
    /// The simulated time reached, picoseconds (updated every `PUBLISH_EVERY_EVENTS` events).
    pub fn now_ps(&self) -> u64 {
        self.now_ps.load(Ordering::Relaxed)
    }
    /// Asks the run to stop at its next check.
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
    /// Whether a stop was asked for.
    pub fn is_cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }
    pub(crate) fn publish(&self, now_ps: u64) {
        self.now_ps.store(now_ps, Ordering::Relaxed);
    }
}
