//! A lazy timer (see `timer`): the deadline an endpoint runs a timer to, and the one event it
//! keeps in the queue for it. Retransmission, nofeedback and feedback timers run to deadlines;
//! pacing wakes the sender at a time.

use super::outbox::Outbox;
use super::timer::TimerKind;
use crate::units::SimTime;

/// A lazy timer of one endpoint: the deadline it runs to (which may move) and the one event
/// it has in the queue, never later than the deadline. Moving the deadline later schedules
/// nothing; the event, when it comes, finds the deadline still ahead and asks again for it.
/// A bare wake-up (pacing) uses only the event: `wake_at` and `take_event`.
#[derive(Clone, Copy, Debug, Default)]
pub struct LazyTimer {
    deadline: Option<SimTime>,
    event_at: Option<SimTime>,
}

impl LazyTimer {
    /// Asks for an event of `kind` at `at` unless one is pending no later.
    #[inline]
    pub fn wake_at(&mut self, kind: TimerKind, at: SimTime, out: &mut Outbox) {
        if self.event_at.is_none_or(|pending| at < pending) {
            self.event_at = Some(at);
            out.set_timer(kind, at);
        }
    }

    /// Whether the event arriving at `now` is the pending one (then it is consumed); a
    /// superseded event returns false.
    #[inline]
    pub fn take_event(&mut self, now: SimTime) -> bool {
        if self.event_at != Some(now) {
            return false;
        }
        self.event_at = None;
        true
    }

    /// Runs the timer to `deadline` (replacing the one set).
    #[inline]
    pub fn arm(&mut self, kind: TimerKind, deadline: SimTime, out: &mut Outbox) {
        self.deadline = Some(deadline);
        self.wake_at(kind, deadline, out);
    }

    /// Stops the timer (its pending event, if any, will find nothing to do).
    #[inline]
    pub fn stop(&mut self) {
        self.deadline = None;
    }

    /// The deadline set, if any.
    #[inline]
    pub fn deadline(&self) -> Option<SimTime> {
        self.deadline
    }

    /// Whether a deadline is set.
    #[inline]
    pub fn is_armed(&self) -> bool {
        self.deadline.is_some()
    }

    /// The timer's event at `now`: true if the deadline has come (the timer is then
    /// stopped); a superseded event, a stopped timer or a deadline still ahead (asked for
    /// again) give false.
    pub fn fire(&mut self, kind: TimerKind, now: SimTime, out: &mut Outbox) -> bool {
        if !self.take_event(now) {
            return false;
        }
        match self.deadline {
            None => false,
            Some(d) if d > now => {
                self.wake_at(kind, d, out);
                false
            }
            Some(_) => {
                self.deadline = None;
                true
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_moved_deadline_keeps_one_event_and_fires_once_when_due() {
        let (mut t, mut out) = (LazyTimer::default(), Outbox::default());
        t.arm(TimerKind::Retransmit, SimTime::from_millis(100), &mut out);
        assert_eq!(out.timer_at(TimerKind::Retransmit), Some(SimTime::from_millis(100)));
        out.clear();
        t.arm(TimerKind::Retransmit, SimTime::from_millis(300), &mut out);
        assert_eq!(out.timer_at(TimerKind::Retransmit), None, "later deadline: the pending event stays");
        assert!(!t.fire(TimerKind::Retransmit, SimTime::from_millis(100), &mut out), "deadline still ahead");
        assert_eq!(out.timer_at(TimerKind::Retransmit), Some(SimTime::from_millis(300)), "asked again for the deadline");
        assert!(!t.fire(TimerKind::Retransmit, SimTime::from_millis(200), &mut out), "a superseded event");
        assert!(t.fire(TimerKind::Retransmit, SimTime::from_millis(300), &mut out));
        assert!(!t.is_armed());
        t.arm(TimerKind::Retransmit, SimTime::from_millis(400), &mut out);
        t.stop();
        assert!(!t.fire(TimerKind::Retransmit, SimTime::from_millis(400), &mut out), "stopped");
    }
}
