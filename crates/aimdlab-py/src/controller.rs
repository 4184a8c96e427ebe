//! Congestion controllers written in Python, driven through the core's `CongestionControl`
//! trait, in one of two forms:
//!
//! - A rule (the object has `cong_avoid(w, ack)` and `ssthresh(w, event)`): as a built-in
//!   controller, over the window the transport keeps. `cong_avoid` grows the `Window` it is
//!   handed (`w.cwnd`, `w.ssthresh`, `w.slow_start()`, `w.aimd_step(alpha)`), called only on an
//!   ACK of new data outside recovery and CWR, once a growth step (its `ack.newly_acked_pkts`:
//!   the segments the step stands for); `ssthresh` returns the threshold after a loss,
//!   timeout or ECN echo, and the transport cuts. An optional `on_ack(ack)` sees every ACK.
//! - A window of its own (the object has `on_ack(ack)`, `on_congestion(event)` and attributes
//!   `cwnd` and `ssthresh`, packets): every ACK and signal reaches it, and the window it leaves
//!   in `cwnd`/`ssthresh` is the flow's.
//!
//! Either may set `pacing_rate_bps` and define `state()` (a dict of named numbers). Each
//! callback takes the GIL (the engine runs without it). The window a callback leaves is read
//! once after it and checked (cwnd a positive finite number of packets, ssthresh positive, ∞
//! allowed). The first exception a callback raises, or the first bad value, is kept, the run
//! is cancelled (no further callback runs), and the exception is raised to the caller; a bad
//! value is a `ControllerError` naming the controller class, the attribute and the flow. The
//! names of `state()` are fixed by its first sample. A stack's window policy (ns-2's halving)
//! writes the window it sets back into `cwnd` and `ssthresh` of a controller that keeps its own.

use crate::errors::ControllerError;
use aimdlab_core::cc::{AckEvent, CongestionControl, CongestionEvent, CongestionKind, Window};
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

/// The window a rule reads and grows (`cong_avoid`) or reads (`ssthresh`), packets; valid
/// during the call it is handed to (the engine fills the same object for the next).
#[pyclass(name = "Window", module = "aimdlab._core")]
pub struct PyWindow {
    /// Congestion window, packets.
    #[pyo3(get, set)]
    cwnd: f64,
    /// Slow-start threshold, packets (∞ when unset).
    #[pyo3(get, set)]
    ssthresh: f64,
}

impl PyWindow {
    fn of(w: &Window) -> Self {
        PyWindow { cwnd: w.cwnd_pkts, ssthresh: w.ssthresh_pkts }
    }
    fn core(&self) -> Window {
        Window::new(self.cwnd, self.ssthresh)
    }
    fn apply(&mut self, f: impl FnOnce(&mut Window) -> bool) -> bool {
        let mut w = self.core();
        let applied = f(&mut w);
        (self.cwnd, self.ssthresh) = (w.cwnd_pkts, w.ssthresh_pkts);
        applied
    }
}

#[pymethods]
impl PyWindow {
    /// Whether cwnd is below ssthresh.
    fn in_slow_start(&self) -> bool {
        self.core().in_slow_start()
    }
    /// RFC 5681 slow start for one step: one packet more while below ssthresh; whether it
    /// applied.
    fn slow_start(&mut self) -> bool {
        self.apply(|w| w.slow_start())
    }
    /// `per_rtt_pkts`/cwnd more: that many packets a round trip.
    fn additive_increase(&mut self, per_rtt_pkts: f64) {
        self.apply(|w| {
            w.additive_increase(per_rtt_pkts);
            true
        });
    }
    /// One AIMD step: slow start below ssthresh, else `per_rtt_pkts` a round trip.
    fn aimd_step(&mut self, per_rtt_pkts: f64) {
        self.apply(|w| {
            w.aimd_step(per_rtt_pkts);
            true
        });
    }
    fn __repr__(&self) -> String {
        format!("Window(cwnd={}, ssthresh={})", self.cwnd, self.ssthresh)
    }
}

/// Where the first Python exception of a run is kept.
pub type ErrorSlot = Arc<Mutex<Option<PyErr>>>;

/// A Python object driven as a congestion controller.
pub struct PyController {
    obj: Py<PyAny>,
    /// The flow it controls (for messages).
    flow: usize,
    /// The object is a rule (`cong_avoid` and `ssthresh`); otherwise it keeps its own window.
    rule: bool,
    /// A rule with an `on_ack` of its own (every ACK).
    rule_on_ack: bool,
    /// The `Window` a rule's `cong_avoid` is handed, made at its first call and filled before
    /// each.
    window_obj: Option<Py<PyWindow>>,
    /// The window the object last left (a controller that keeps its own).
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

/// Whether `method` is one of `aimdlab.Controller`'s own do-nothing hooks (marked so).
fn is_base_hook(method: &Bound<'_, PyAny>) -> bool {
    method.getattr("_aimdlab_default_hook").is_ok()
}

/// The object's `pacing_rate_bps`, checked (None or absent: no pacing).
fn read_pacing(b: &Bound<'_, PyAny>, flow: usize) -> PyResult<Option<Rate>> {
    match b.getattr("pacing_rate_bps") {
        Ok(v) if !v.is_none() => {
            let bps = read_number(b, flow, "pacing_rate_bps")?;
            if !(bps.is_finite() && (1.0..=1e15).contains(&bps)) {
                return Err(value_error(b, flow, "pacing_rate_bps", format!("= {bps} is outside [1, 1e15]; expected a rate in bits per second, or None")));
            }
            Ok(Some(Rate::from_bps(bps.round() as u64)))
        }
        _ => Ok(None),
    }
}

/// Checks the window a rule's `cong_avoid` left in `w`.
fn checked_window(b: &Bound<'_, PyAny>, flow: usize, w: &PyWindow) -> PyResult<Window> {
    if !(w.cwnd.is_finite() && w.cwnd > 0.0) {
        return Err(value_error(b, flow, "w.cwnd", format!("= {} is not a positive finite number of packets", w.cwnd)));
    }
    if w.ssthresh.is_nan() || w.ssthresh <= 0.0 {
        return Err(value_error(b, flow, "w.ssthresh", format!("= {} is not a positive number of packets (∞ is allowed)", w.ssthresh)));
    }
    Ok(w.core())
}

impl PyController {
    /// Wraps `obj`, the controller of flow `flow`; one that keeps its own window gets its
    /// `cwnd`/`ssthresh` set to the flow's initial values when they are None.
    #[allow(clippy::too_many_arguments)]
    pub fn new(py: Python<'_>, obj: Py<PyAny>, flow: usize, w0: f64, ssthresh0: f64, errors: ErrorSlot, control: Arc<RunControl>) -> PyResult<Self> {
        let b = obj.bind(py);
        let (grows, cuts) = (b.hasattr("cong_avoid")?, b.hasattr("ssthresh")? && b.getattr("ssthresh")?.is_callable());
        if grows != cuts {
            let (has, lacks) = if grows { ("cong_avoid", "ssthresh") } else { ("ssthresh", "cong_avoid") };
            return Err(ControllerError::new_err(format!(
                "controller {} of flow {flow}: defines {has} but not {lacks}; a rule defines both (or keeps its own window in on_ack and on_congestion)",
                class_name(b)
            )));
        }
        let rule = grows;
        if !rule {
            if b.getattr("cwnd")?.is_none() {
                b.setattr("cwnd", w0)?;
            }
            if b.getattr("ssthresh")?.is_none() {
                b.setattr("ssthresh", ssthresh0)?;
            }
        }
        let mut c = PyController {
            rule_on_ack: rule && b.getattr("on_ack").is_ok_and(|m| !is_base_hook(&m)),
            obj,
            flow,
            rule,
            window_obj: None,
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

    /// Reads and checks what the object leaves after a callback: its window (one that keeps
    /// its own) and its pacing rate.
    fn refresh(&mut self, py: Python<'_>) -> PyResult<()> {
        let b = self.obj.bind(py);
        self.pacing = read_pacing(b, self.flow)?;
        if self.rule {
            return Ok(());
        }
        let cwnd = read_number(b, self.flow, "cwnd")?;
        if !(cwnd.is_finite() && cwnd > 0.0) {
            return Err(value_error(b, self.flow, "cwnd", format!("= {cwnd} is not a positive finite number of packets")));
        }
        let ssthresh = read_number(b, self.flow, "ssthresh")?;
        if ssthresh.is_nan() || ssthresh <= 0.0 {
            return Err(value_error(b, self.flow, "ssthresh", format!("= {ssthresh} is not a positive number of packets (∞ is allowed)")));
        }
        self.cwnd = cwnd;
        self.ssthresh = ssthresh;
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

/// What a Python controller sees of ACK `ev`.
fn ack_event(ev: &AckEvent) -> PyAckEvent {
    PyAckEvent {
        now_s: ev.now.as_secs_f64(),
        newly_acked_pkts: ev.newly_acked_pkts,
        rtt_s: ev.rtt_sample.map(|d| d.as_secs_f64()),
        srtt_s: ev.srtt.as_secs_f64(),
        min_rtt_s: ev.min_rtt.map(|d| d.as_secs_f64()),
        ece: ev.ece,
        in_recovery: ev.in_recovery,
        pkts_in_flight: ev.pkts_in_flight,
    }
}

/// What a Python controller sees of congestion signal `ev`.
fn congestion_event(ev: &CongestionEvent) -> PyCongestionEvent {
    PyCongestionEvent {
        now_s: ev.now.as_secs_f64(),
        kind: match ev.kind {
            CongestionKind::Loss => "loss",
            CongestionKind::Timeout => "timeout",
            CongestionKind::Ecn => "ecn",
        },
        pkts_in_flight: ev.pkts_in_flight,
        srtt_s: ev.srtt.as_secs_f64(),
    }
}

impl PyController {
    /// The window the object keeps, into the transport's `w` (a controller that keeps its own).
    fn hand_over(&self, w: &mut Window) {
        if !self.rule && !self.control.is_cancelled() {
            *w = Window::new(self.cwnd, self.ssthresh);
        }
    }
}

impl CongestionControl for PyController {
    fn name(&self) -> &'static str {
        "python"
    }

    fn init(&mut self, w: &mut Window) {
        self.hand_over(w);
    }

    fn on_ack(&mut self, w: &mut Window, ev: &AckEvent) {
        if self.rule && !self.rule_on_ack {
            return;
        }
        let e = ack_event(ev);
        self.call("on_ack", |py, obj| obj.call_method1("on_ack", (Py::new(py, e)?,)).map(|_| ()));
        self.hand_over(w);
    }

    fn cong_avoid(&mut self, w: &mut Window, ev: &AckEvent, acked_pkts: u64) {
        if !self.rule {
            return; // its `on_ack` grew its own window
        }
        // The rule sees the segments this growth step stands for as `newly_acked_pkts`.
        let (e, flow) = (PyAckEvent { newly_acked_pkts: acked_pkts, ..ack_event(ev) }, self.flow);
        let mut grown = None;
        let mut window_obj = self.window_obj.take();
        self.call("cong_avoid", |py, obj| {
            let win = match &window_obj {
                Some(win) => {
                    *win.try_borrow_mut(py)? = PyWindow::of(w);
                    win.clone_ref(py)
                }
                None => window_obj.insert(Py::new(py, PyWindow::of(w))?).clone_ref(py),
            };
            obj.call_method1("cong_avoid", (win.clone_ref(py), Py::new(py, e)?))?;
            let left = checked_window(obj, flow, &win.borrow(py))?;
            grown = Some(left);
            Ok(())
        });
        self.window_obj = window_obj;
        if let Some(left) = grown {
            *w = left;
        }
    }

    fn ssthresh(&mut self, w: &Window, ev: &CongestionEvent) -> f64 {
        let (e, flow) = (congestion_event(ev), self.flow);
        let mut answer = w.ssthresh_pkts;
        self.call("ssthresh", |py, obj| {
            let v = obj.call_method1("ssthresh", (Py::new(py, PyWindow::of(w))?, Py::new(py, e)?))?;
            let x: f64 = v.extract().map_err(|_| {
                value_error(obj, flow, "ssthresh()", format!("returned {}; expected a number of packets", v.repr().map(|r| r.to_string()).unwrap_or_default()))
            })?;
            if !(x.is_finite() && x > 0.0) {
                return Err(value_error(obj, flow, "ssthresh()", format!("returned {x}; expected a positive finite number of packets")));
            }
            answer = x;
            Ok(())
        });
        answer
    }

    fn on_congestion(&mut self, w: &mut Window, ev: &CongestionEvent) {
        if self.rule {
            let ssthresh = self.ssthresh(w, ev);
            if !self.control.is_cancelled() {
                w.cut(ssthresh, ev.kind);
            }
            return;
        }
        let e = congestion_event(ev);
        self.call("on_congestion", |py, obj| obj.call_method1("on_congestion", (Py::new(py, e)?,)).map(|_| ()));
        self.hand_over(w);
    }

    fn on_window_set(&mut self, w: &Window) {
        if self.rule || self.control.is_cancelled() {
            return;
        }
        (self.cwnd, self.ssthresh) = (w.cwnd_pkts, w.ssthresh_pkts);
        Python::with_gil(|py| {
            let b = self.obj.bind(py);
            if let Err(e) = b.setattr("cwnd", w.cwnd_pkts).and_then(|_| b.setattr("ssthresh", w.ssthresh_pkts)) {
                self.fail(py, "setting cwnd and ssthresh", e);
            }
        })
    }

    fn pacing_rate(&self) -> Option<Rate> {
        self.pacing
    }

    fn state_vars(&self, _w: &Window, publish: &mut dyn FnMut(&'static str, f64)) {
        if self.control.is_cancelled() {
            return;
        }
        Python::with_gil(|py| match self.read_state(py) {
            Ok(s) => s.into_iter().for_each(|(n, v)| publish(n, v)),
            Err(e) => self.fail(py, "state()", e),
        })
    }
}
