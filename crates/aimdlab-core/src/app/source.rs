//! What an application does while a flow runs: it may keep a timer of its own (the flow's
//! `AppTimer` event) and offer a message each time it fires. Bulk and finite applications
//! have no timer: the TCP sender reads their data as it needs it.

use crate::rng::RngStream;
use crate::units::SimTime;

/// What an application writes to its transport at one firing of its timer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Write {
    /// Nothing.
    Nothing,
    /// One message that fills one packet (a payload of the flow's `mss`).
    Packet,
    /// A message of this many payload bytes (a video frame, a voice frame): UDP and DCCP cut
    /// it into packets of at most `mss` payload bytes; TCP adds it to its byte stream and
    /// sends the full segments it completes.
    Bytes(u64),
}

impl Write {
    /// The packets this write makes with `mss` payload bytes per packet, and the payload of
    /// the last one.
    pub fn packets(self, mss: u64) -> (u64, u64) {
        match self {
            Write::Nothing | Write::Bytes(0) => (0, 0),
            Write::Packet => (1, mss),
            Write::Bytes(b) => {
                let n = b.div_ceil(mss);
                (n, b - (n - 1) * mss)
            }
        }
    }
}

/// What an application does when its timer fires.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AppStep {
    /// What it writes now.
    pub write: Write,
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
        AppStep { write: Write::Nothing, next: None }
    }
    /// The flow's `stop` time: offer nothing more.
    fn stop(&mut self) {}
}
