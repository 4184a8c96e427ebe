//! The congestion-window trace of one flow (`cwnd_trace`): a row for every change of cwnd or
//! ssthresh, with what caused it — the record a researcher reads to see a controller's
//! decisions one by one (ns-2's `trace cwnd_`, ns-3's `CongestionWindow` trace source,
//! Linux's `tcp_probe`). Rows come from the sender's calls into its controller; a call that
//! leaves both values as they were writes nothing. The trace covers the whole run, warm-up
//! included, in simulated time.

use super::table::{Column, Table};
use super::unit::Unit;
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
    time: Vec<SimTime>,
    cause: Vec<CwndCause>,
    cwnd_pkts: Vec<f64>,
    ssthresh_pkts: Vec<f64>,
    in_flight_pkts: Vec<u64>,
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

/// The columns of the congestion-window trace (`cwnd_trace`), one row per change.
pub const CWND_TRACE_COLUMNS: &[(&str, Unit, &str)] = &[
    ("time_s", Unit::Seconds, "simulated time of the change (the whole run, warm-up included)"),
    ("flow", Unit::Index, "flow index"),
    ("cause", Unit::Label, "what changed it: slow_start, avoidance, recovery_ack, loss, ecn, timeout, recovery_exit"),
    ("cwnd_pkts", Unit::Packets, "congestion window after the change"),
    ("ssthresh_pkts", Unit::Packets, "slow-start threshold after the change (inf when unset)"),
    ("in_flight_pkts", Unit::Packets, "the sender's pipe when the change was made"),
];

/// The traces of several flows as one table: `time_s`, `flow`, `cause` (a dictionary column of
/// `CwndCause` names), `cwnd_pkts`, `ssthresh_pkts`, `in_flight_pkts`, sorted by flow then time.
pub fn table<'a>(traces: impl Iterator<Item = (u64, &'a CwndTrace)>) -> Table {
    let (mut time_s, mut flow, mut cause, mut cwnd, mut ssthresh, mut in_flight) = (vec![], vec![], vec![], vec![], vec![], vec![]);
    for (id, t) in traces {
        time_s.extend(t.time.iter().map(|x| x.as_secs_f64()));
        flow.extend(std::iter::repeat_n(id, t.len()));
        cause.extend(t.cause.iter().map(|c| *c as u32));
        cwnd.extend_from_slice(&t.cwnd_pkts);
        ssthresh.extend_from_slice(&t.ssthresh_pkts);
        in_flight.extend_from_slice(&t.in_flight_pkts);
    }
    let columns = [
        Column::F64(time_s),
        Column::U64(flow),
        Column::Dict(cause, CwndCause::ALL.iter().map(|c| c.name()).collect()),
        Column::F64(cwnd),
        Column::F64(ssthresh),
        Column::U64(in_flight),
    ];
    let mut out = Table::default();
    for (&(name, _, _), col) in CWND_TRACE_COLUMNS.iter().zip(columns) {
        out.push(name, col);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_changes_are_recorded_and_codes_follow_all() {
        let s = |c, t| CwndState { cwnd_pkts: c, ssthresh_pkts: t };
        let mut tr = CwndTrace::new(s(10.0, f64::INFINITY));
        tr.observe(SimTime::from_millis(1), CwndCause::SlowStart, s(10.0, f64::INFINITY), 10);
        assert!(tr.is_empty());
        tr.observe(SimTime::from_millis(2), CwndCause::SlowStart, s(11.0, f64::INFINITY), 11);
        tr.observe(SimTime::from_millis(3), CwndCause::Loss, s(5.5, 5.5), 10);
        assert_eq!(tr.len(), 2);
        let t = table([(7u64, &tr)].into_iter());
        assert_eq!(t.get("flow"), Some(&Column::U64(vec![7, 7])));
        match t.get("cause") {
            Some(Column::Dict(codes, names)) => {
                assert_eq!(names[codes[1] as usize], "loss");
                assert_eq!(names.len(), CwndCause::ALL.len());
                for (i, c) in CwndCause::ALL.iter().enumerate() {
                    assert_eq!(*c as usize, i);
                }
            }
            other => panic!("cause column {other:?}"),
        }
    }
}
