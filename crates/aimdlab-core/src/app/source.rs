//! What an application does while a flow runs: it may keep a timer of its own (the flow's
//! `AppTimer` event) and offer a message each time it fires. Bulk and finite applications
//! have no timer: the TCP sender reads their data as it needs it.

use crate::rng::RngStream;
use crate::units::SimTime;

/// What an application does when its timer fires.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AppStep {
    /// Whether it offers one message now.
    pub send: bool,
    /// When its timer fires next (None: no more).
    pub next: Option<SimTime>,
}

/// A running application.
pub trait Source {
    /// The flow starts at `now`; returns when the application's timer first fires, if it
    /// has one.
    fn start(&mut self, _now: SimTime, _rng: &mut RngStream) -> Option<SimTime> {
        None
    }
    /// The application's timer fired at `now`.
    fn on_timer(&mut self, _now: SimTime, _rng: &mut RngStream) -> AppStep {
        AppStep { send: false, next: None }
    }
    /// The flow's `stop` time: offer nothing more.
    fn stop(&mut self) {}
}
