//! The congestion-window trace of one flow (`cwnd_trace`): a row for every change of cwnd or
//! ssthresh, with what caused it — the record a researcher reads to see a controller's
//! decisions one by one (ns-2's `trace cwnd_`, ns-3's `CongestionWindow` trace source,
//! Linux's `tcp_probe`). Rows come from the sender's calls into its controller; a call that
//! leaves both values as they were writes nothing. The trace covers the whole run, warm-up
//! included, in simulated time.

use crate::units::SimTime;

/// What changed the window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CwndCause {
    /// An acknowledgement below ssthresh (slow start).
    SlowStart,
    /// An acknowledgement at or above ssthresh (congestion avoidance).
    Avoidance,
    /// An acknowledgement during loss recovery or CWR.
    RecoveryAck,
    /// A loss reduction: TCP's fast retransmit at the start of a recovery, a DCCP CCID-2
    /// packet deemed lost.
    Loss,
    /// An ECN echo: the ECN reduction.
    Ecn,
    /// The retransmission timer expired.
    Timeout,
    /// The end of a loss recovery.
    RecoveryExit,
}

impl CwndCause {
    /// Every cause, in the order of their codes.
    pub const ALL: [CwndCause; 7] =
        [CwndCause::SlowStart, CwndCause::Avoidance, CwndCause::RecoveryAck, CwndCause::Loss, CwndCause::Ecn, CwndCause::Timeout, CwndCause::RecoveryExit];

    /// The name written in the trace's `cause` column.
    pub fn name(self) -> &'static str {
        match self {
            CwndCause::SlowStart => "slow_start",
            CwndCause::Avoidance => "avoidance",
            CwndCause::RecoveryAck => "recovery_ack",
            CwndCause::Loss => "loss",
            CwndCause::Ecn => "ecn",
            CwndCause::Timeout => "timeout",
            CwndCause::RecoveryExit => "recovery_exit",
        }
    }
}

/// The window of a flow as the trace last saw it.
#[derive(Clone, Copy, Debug)]
pub struct CwndState {
    /// Congestion window, packets.
    pub cwnd_pkts: f64,
    /// Slow-start threshold, packets (∞ when unset).
    pub ssthresh_pkts: f64,
}

impl CwndState {
    /// The window `w` as the trace records it.
    pub fn of(w: crate::cc::Window) -> Self {
        CwndState { cwnd_pkts: w.cwnd_pkts, ssthresh_pkts: w.ssthresh_pkts }
    }

    /// The cause of a change on an acknowledgement in this state (before the change).
    pub fn ack_cause(&self, in_recovery: bool) -> CwndCause {
        if in_recovery {
            CwndCause::RecoveryAck
        } else if self.cwnd_pkts < self.ssthresh_pkts {
            CwndCause::SlowStart
        } else {
            CwndCause::Avoidance
        }
    }
}

impl From<crate::cc::CongestionKind> for CwndCause {
    fn from(kind: crate::cc::CongestionKind) -> Self {
        match kind {
            crate::cc::CongestionKind::Loss => CwndCause::Loss,
            crate::cc::CongestionKind::Ecn => CwndCause::Ecn,
            crate::cc::CongestionKind::Timeout => CwndCause::Timeout,
        }
    }
}

/// One flow's trace, column by column.
#[derive(Debug)]
pub struct CwndTrace {
    /// When each change was made.
    pub time: Vec<SimTime>,
    /// What made it.
    pub cause: Vec<CwndCause>,
    /// cwnd after it, packets.
    pub cwnd_pkts: Vec<f64>,
    /// ssthresh after it, packets.
    pub ssthresh_pkts: Vec<f64>,
    /// The sender's pipe when it was made.
    pub in_flight_pkts: Vec<u64>,
    last: CwndState,
}

impl CwndTrace {
    /// An empty trace of a window that starts at `initial`.
    pub fn new(initial: CwndState) -> Self {
        CwndTrace { time: Vec::new(), cause: Vec::new(), cwnd_pkts: Vec::new(), ssthresh_pkts: Vec::new(), in_flight_pkts: Vec::new(), last: initial }
    }

    /// Records `now`'s window `state` with its `cause`, if cwnd or ssthresh differ from the
    /// last values seen; `in_flight_pkts` is the sender's pipe when the change is made.
    pub fn observe(&mut self, now: SimTime, cause: CwndCause, state: CwndState, in_flight_pkts: u64) {
        let same = |a: f64, b: f64| a == b || (a.is_nan() && b.is_nan());
        if same(state.cwnd_pkts, self.last.cwnd_pkts) && same(state.ssthresh_pkts, self.last.ssthresh_pkts) {
            return;
        }
        self.last = state;
        self.time.push(now);
        self.cause.push(cause);
        self.cwnd_pkts.push(state.cwnd_pkts);
        self.ssthresh_pkts.push(state.ssthresh_pkts);
        self.in_flight_pkts.push(in_flight_pkts);
    }

    /// Rows recorded.
    pub fn len(&self) -> usize {
        self.time.len()
    }

    /// Whether nothing has been recorded.
    pub fn is_empty(&self) -> bool {
        self.time.is_empty()
    }

    /// Bytes one row takes in the trace, in its table and in the caller's copy, counting a
    /// growing vector's slack.
    pub const ROW_BYTES_PEAK: u64 = 2 * (8 + 1 + 8 + 8 + 8) + 2 * (8 + 8 + 4 + 8 + 8 + 8);
}
