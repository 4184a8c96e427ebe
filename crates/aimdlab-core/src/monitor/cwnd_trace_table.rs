//! The congestion-window traces of the chosen flows (`transport/cwnd_trace.rs` records them)
//! as one result table, with its columns declared.

use super::table::{Column, Table};
use super::unit::Unit;
use crate::transport::cwnd_trace::{CwndCause, CwndTrace};

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
    use crate::transport::cwnd_trace::CwndState;
    use crate::units::SimTime;

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
