//! Congestion controllers written in Python: a Python object with `on_ack(ack)`,
//! `on_congestion(event)`, attributes `cwnd` and `ssthresh` (packets), optional
//! `pacing_rate_bps` and `state()` (a dict of named numbers), driven through the core's
//! `CongestionControl` trait.
//!
//! Each callback takes the GIL (the engine runs without it). `cwnd`/`ssthresh` are read once
//! after each callback, checked (cwnd a positive finite number of packets, ssthresh positive,
//! ∞ allowed) and cached, since the transport asks for them far more often. The first
//! exception a callback raises, or the first bad value, is kept, the run is cancelled (no
//! further callback runs), and the exception is raised to the caller; a bad value is a
//! `ValueError` naming the controller class, the attribute and the flow. The names of
//! `state()` are fixed by its first sample. A stack's window policy (ns-2's halving) writes
//! the window it sets back into `cwnd` and `ssthresh` after `on_congestion`.

use crate::errors::ControllerError;
use aimdlab_core::cc::{AckEvent, CongestionControl, CongestionEvent, CongestionKind};
use aimdlab_core::control::RunControl;
use aimdlab_core::units::Rate;
use pyo3::prelude::*;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// What a Python controller sees of an acknowledgement.
#[pyclass(frozen, name = "AckEvent", module = "aimdlab._core")]
pub struct PyAckEvent {
    /// Simulated time, s.
    #[pyo3(get)]
    now_s: f64,
    /// Segments newly acknowledged cumulatively (0 for a duplicate ACK).
    #[pyo3(get)]
    newly_acked_pkts: u64,
    /// RTT sample of this ACK, s (None when Karn's rule gives none).
    #[pyo3(get)]
    rtt_s: Option<f64>,
    /// Smoothed RTT, s.
    #[pyo3(get)]
    srtt_s: f64,
    /// Smallest RTT so far, s.
    #[pyo3(get)]
    min_rtt_s: Option<f64>,
    /// The ACK carried ECN-Echo.
    #[pyo3(get)]
    ece: bool,
    /// The sender is in fast recovery.
    #[pyo3(get)]
    in_recovery: bool,
    /// Segments in flight after this ACK.
    #[pyo3(get)]
    pkts_in_flight: u64,
}

/// What a Python controller sees of a congestion signal.
#[pyclass(frozen, name = "CongestionEvent", module = "aimdlab._core")]
pub struct PyCongestionEvent {
    /// Simulated time, s.
    #[pyo3(get)]
    now_s: f64,
    /// "loss", "timeout" or "ecn".
    #[pyo3(get)]
    kind: &'static str,
    /// Segments in flight.
    #[pyo3(get)]
    pkts_in_flight: u64,
    /// Smoothed RTT, s.
    #[pyo3(get)]
    srtt_s: f64,
}

/// Where the first Python exception of a run is kept.
pub type ErrorSlot = Arc<Mutex<Option<PyErr>>>;

/// A Python object driven as a congestion controller.
pub struct PyController {
    obj: Py<PyAny>,
    /// The flow it controls (for messages).
    flow: usize,
    cwnd: f64,
    ssthresh: f64,
    /// `pacing_rate_bps`, when the object sets it.
    pacing: Option<Rate>,
    /// State-variable names, leaked once each (the time series keys are `&'static str`).
    names: Mutex<HashMap<String, &'static str>>,
    /// The names `state()` returned at the first sample; every later sample must match.
    state_keys: Mutex<Option<Vec<&'static str>>>,
    errors: ErrorSlot,
    control: Arc<RunControl>,
}

/// The class name of controller `obj`, for messages.
fn class_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "?".into())
}

/// A `ControllerError` about `attr` of the controller `obj` of flow `flow` (the hook that set
/// it is added by `PyController::fail`).
fn value_error(obj: &Bound<'_, PyAny>, flow: usize, attr: &str, what: String) -> PyErr {
    ControllerError::new_err(format!("controller {} of flow {flow}: {attr} {what}", class_name(obj)))
}

/// `e`, raised in or after `hook` of the controller `obj` of flow `flow`, as one line that
/// names them: a `ControllerError` of aimdlab's own gets the hook added; any exception of the
/// controller's code (a `SystemExit` included) becomes a `ControllerError` with it as its
/// cause. Ctrl-C (`KeyboardInterrupt`) stays what it is.
fn describe(py: Python<'_>, obj: &Bound<'_, PyAny>, flow: usize, hook: &str, e: PyErr) -> PyErr {
    if e.is_instance_of::<pyo3::exceptions::PyKeyboardInterrupt>(py) {
        return e;
    }
    let class = class_name(obj);
    let own = format!("controller {class} of flow {flow}: ");
    if e.is_instance_of::<ControllerError>(py) {
        let text = e.value_bound(py).str().map(|s| s.to_string()).unwrap_or_default();
        let detail = text.strip_prefix(&own).unwrap_or(&text);
        return ControllerError::new_err(format!("{own}after {hook}: {detail}"));
    }
    let kind = e.get_type_bound(py).name().map(|n| n.to_string()).unwrap_or_else(|_| "?".into());
    let text = e.value_bound(py).str().map(|s| s.to_string()).unwrap_or_default();
    let text: String = text.lines().next().unwrap_or("").chars().take(200).collect();
    let wrapped = ControllerError::new_err(format!("{own}{hook} raised {kind}{}{text}", if text.is_empty() { "" } else { ": " }));
    wrapped.set_cause(py, Some(e));
    wrapped
}

/// Reads attribute `attr` of `obj` as a number of packets.
fn read_number(obj: &Bound<'_, PyAny>, flow: usize, attr: &str) -> PyResult<f64> {
    let v = obj.getattr(attr)?;
    if v.is_instance_of::<pyo3::types::PyBool>() {
        return Err(value_error(obj, flow, attr, format!("= {v} is a bool; expected a number of packets")));
    }
    v.extract::<f64>().map_err(|e| {
        let shown: String = v.repr().map(|r| r.to_string()).unwrap_or_else(|_| "?".into()).chars().take(40).collect();
        let why = if e.is_instance_of::<pyo3::exceptions::PyOverflowError>(obj.py()) { "is too large for a float" } else { "is not a number" };
        value_error(obj, flow, attr, format!("= {shown} {why}; expected a number of packets"))
    })
}

impl PyController {
    /// Wraps `obj`, the controller of flow `flow`, setting its `cwnd`/`ssthresh` to the flow's
    /// initial values when they are None.
    #[allow(clippy::too_many_arguments)]
    pub fn new(py: Python<'_>, obj: Py<PyAny>, flow: usize, w0: f64, ssthresh0: f64, errors: ErrorSlot, control: Arc<RunControl>) -> PyResult<Self> {
        let b = obj.bind(py);
        if b.getattr("cwnd")?.is_none() {
            b.setattr("cwnd", w0)?;
        }
        if b.getattr("ssthresh")?.is_none() {
            b.setattr("ssthresh", ssthresh0)?;
        }
        let mut c = PyController {
            obj,
            flow,
            cwnd: w0,
            ssthresh: ssthresh0,
            pacing: None,
            names: Mutex::new(HashMap::new()),
            state_keys: Mutex::new(None),
            errors,
            control,
        };
        c.refresh(py).map_err(|e| describe(py, c.obj.bind(py), flow, "__init__", e))?;
        Ok(c)
    }

    /// Reads and checks `cwnd` and `ssthresh`.
    fn refresh(&mut self, py: Python<'_>) -> PyResult<()> {
        let b = self.obj.bind(py);
        let cwnd = read_number(b, self.flow, "cwnd")?;
        if !(cwnd.is_finite() && cwnd > 0.0) {
            return Err(value_error(b, self.flow, "cwnd", format!("= {cwnd} is not a positive finite number of packets")));
        }
        let ssthresh = read_number(b, self.flow, "ssthresh")?;
        if ssthresh.is_nan() || ssthresh <= 0.0 {
            return Err(value_error(b, self.flow, "ssthresh", format!("= {ssthresh} is not a positive number of packets (∞ is allowed)")));
        }
        // Optional: a controller that paces sets `pacing_rate_bps` (None: no pacing).
        let pacing = match b.getattr("pacing_rate_bps") {
            Ok(v) if !v.is_none() => {
                let bps = read_number(b, self.flow, "pacing_rate_bps")?;
                if !(bps.is_finite() && (1.0..=1e15).contains(&bps)) {
                    return Err(value_error(
                        b,
                        self.flow,
                        "pacing_rate_bps",
                        format!("= {bps} is outside [1, 1e15]; expected a rate in bits per second, or None"),
                    ));
                }
                Some(Rate::from_bps(bps.round() as u64))
            }
            _ => None,
        };
        self.cwnd = cwnd;
        self.ssthresh = ssthresh;
        self.pacing = pacing;
        Ok(())
    }

    /// Keeps the first error of the run (raised in or after `hook`) and cancels it.
    fn fail(&self, py: Python<'_>, hook: &str, e: PyErr) {
        let e = describe(py, self.obj.bind(py), self.flow, hook, e);
        let mut slot = self.errors.lock().expect("error slot");
        if slot.is_none() {
            *slot = Some(e);
        }
        self.control.cancel();
    }

    fn call(&mut self, hook: &str, f: impl FnOnce(Python<'_>, &Bound<'_, PyAny>) -> PyResult<()>) {
        // Once the run is cancelled (Ctrl-C, an earlier error), no more Python runs: the
        // engine stops at its next check without waiting for slow callbacks.
        if self.control.is_cancelled() {
            return;
        }
        Python::with_gil(|py| {
            if let Err(e) = f(py, self.obj.bind(py)).and_then(|_| self.refresh(py)) {
                self.fail(py, hook, e);
            }
        })
    }

    /// The controller's `state()` as named numbers, checked against the first sample's names.
    fn read_state(&self, py: Python<'_>) -> PyResult<Vec<(&'static str, f64)>> {
        let b = self.obj.bind(py);
        if !b.hasattr("state")? {
            return Ok(Vec::new());
        }
        let d = b.call_method0("state")?;
        let d = d
            .downcast::<pyo3::types::PyDict>()
            .map_err(|_| value_error(b, self.flow, "state()", "did not return a dict; expected a dict of names to numbers".into()))?;
        let mut out = Vec::with_capacity(d.len());
        for (k, v) in d.iter() {
            let k: String = k.extract().map_err(|_| value_error(b, self.flow, "state()", format!("has the key {k}, not a str")))?;
            let x: f64 = v.extract().map_err(|_| value_error(b, self.flow, &format!("state()[{k:?}]"), "is not a number".into()))?;
            let mut names = self.names.lock().expect("names");
            let name = *names.entry(k.clone()).or_insert_with(|| Box::leak(k.into_boxed_str()));
            out.push((name, x));
        }
        let mut keys = self.state_keys.lock().expect("state keys");
        let mut now: Vec<&'static str> = out.iter().map(|(n, _)| *n).collect();
        now.sort_unstable();
        match keys.as_ref() {
            None => *keys = Some(now),
            Some(first) if *first != now => {
                return Err(value_error(
                    b,
                    self.flow,
                    "state()",
                    format!("returned the keys {now:?}, but the first sample had {first:?}; expected the same keys at every sample"),
                ))
            }
            Some(_) => {}
        }
        Ok(out)
    }
}

impl CongestionControl for PyController {
    fn name(&self) -> &'static str {
        "python"
    }

    fn on_ack(&mut self, ev: &AckEvent) {
        let e = PyAckEvent {
            now_s: ev.now.as_secs_f64(),
            newly_acked_pkts: ev.newly_acked_pkts,
            rtt_s: ev.rtt_sample.map(|d| d.as_secs_f64()),
            srtt_s: ev.srtt.as_secs_f64(),
            min_rtt_s: ev.min_rtt.map(|d| d.as_secs_f64()),
            ece: ev.ece,
            in_recovery: ev.in_recovery,
            pkts_in_flight: ev.pkts_in_flight,
        };
        self.call("on_ack", |py, obj| obj.call_method1("on_ack", (Py::new(py, e)?,)).map(|_| ()));
    }

    fn on_congestion(&mut self, ev: &CongestionEvent) {
        let e = PyCongestionEvent {
            now_s: ev.now.as_secs_f64(),
            kind: match ev.kind {
                CongestionKind::Loss => "loss",
                CongestionKind::Timeout => "timeout",
                CongestionKind::Ecn => "ecn",
            },
            pkts_in_flight: ev.pkts_in_flight,
            srtt_s: ev.srtt.as_secs_f64(),
        };
        self.call("on_congestion", |py, obj| obj.call_method1("on_congestion", (Py::new(py, e)?,)).map(|_| ()));
    }

    fn set_window(&mut self, cwnd_pkts: f64, ssthresh_pkts: f64) {
        (self.cwnd, self.ssthresh) = (cwnd_pkts, ssthresh_pkts);
        if self.control.is_cancelled() {
            return;
        }
        Python::with_gil(|py| {
            let b = self.obj.bind(py);
            if let Err(e) = b.setattr("cwnd", cwnd_pkts).and_then(|_| b.setattr("ssthresh", ssthresh_pkts)) {
                self.fail(py, "setting cwnd and ssthresh", e);
            }
        })
    }

    fn cwnd_pkts(&self) -> f64 {
        self.cwnd
    }

    fn ssthresh_pkts(&self) -> f64 {
        self.ssthresh
    }

    fn pacing_rate(&self) -> Option<Rate> {
        self.pacing
    }

    fn state_vars(&self, publish: &mut dyn FnMut(&'static str, f64)) {
        if self.control.is_cancelled() {
            return;
        }
        Python::with_gil(|py| match self.read_state(py) {
            Ok(s) => s.into_iter().for_each(|(n, v)| publish(n, v)),
            Err(e) => self.fail(py, "state()", e),
        })
    }
}
