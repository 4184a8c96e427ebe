//! Congestion controllers written in Python: a Python object with `on_ack(ack)`,
//! `on_congestion(event)`, attributes `cwnd` and `ssthresh` (packets), optional
//! `pacing_rate_bps` and `state()` (a dict of named numbers), driven through the core's
//! `CongestionControl` trait.
//!
//! Each callback takes the GIL (the engine runs without it). `cwnd`/`ssthresh` are read once
//! after each callback and cached, since the transport asks for them far more often. The
//! first exception a callback raises is kept, the run is cancelled, and the exception is
//! raised to the caller unchanged.

use aimdlab_core::cc::{AckEvent, CongestionControl, CongestionEvent, CongestionKind};
use aimdlab_core::control::RunControl;
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
    cwnd: f64,
    ssthresh: f64,
    /// State-variable names, leaked once each (the time series keys are `&'static str`).
    names: Mutex<HashMap<String, &'static str>>,
    errors: ErrorSlot,
    control: Arc<RunControl>,
}

impl PyController {
    /// Wraps `obj`, setting its `cwnd`/`ssthresh` to the flow's initial values when they are
    /// None.
    pub fn new(py: Python<'_>, obj: Py<PyAny>, w0: f64, ssthresh0: f64, errors: ErrorSlot, control: Arc<RunControl>) -> PyResult<Self> {
        let b = obj.bind(py);
        if b.getattr("cwnd")?.is_none() {
            b.setattr("cwnd", w0)?;
        }
        if b.getattr("ssthresh")?.is_none() {
            b.setattr("ssthresh", ssthresh0)?;
        }
        let mut c = PyController { obj, cwnd: w0, ssthresh: ssthresh0, names: Mutex::new(HashMap::new()), errors, control };
        c.refresh(py)?;
        Ok(c)
    }

    fn refresh(&mut self, py: Python<'_>) -> PyResult<()> {
        let b = self.obj.bind(py);
        self.cwnd = b.getattr("cwnd")?.extract()?;
        self.ssthresh = b.getattr("ssthresh")?.extract()?;
        if !(self.cwnd.is_finite() && self.cwnd > 0.0) {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "controller {}: cwnd = {} is not a positive number of packets",
                b.get_type().name()?,
                self.cwnd
            )));
        }
        Ok(())
    }

    fn call(&mut self, f: impl FnOnce(Python<'_>, &Bound<'_, PyAny>) -> PyResult<()>) {
        Python::with_gil(|py| {
            let result = f(py, self.obj.bind(py)).and_then(|_| self.refresh(py));
            if let Err(e) = result {
                let mut slot = self.errors.lock().expect("error slot");
                if slot.is_none() {
                    *slot = Some(e);
                }
                self.control.cancel();
            }
        })
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
        self.call(|py, obj| obj.call_method1("on_ack", (Py::new(py, e)?,)).map(|_| ()));
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
        self.call(|py, obj| obj.call_method1("on_congestion", (Py::new(py, e)?,)).map(|_| ()));
    }

    fn cwnd_pkts(&self) -> f64 {
        self.cwnd
    }

    fn ssthresh_pkts(&self) -> f64 {
        self.ssthresh
    }

    fn state_vars(&self, publish: &mut dyn FnMut(&'static str, f64)) {
        // The trait takes &self; collect under the GIL into a local copy.
        let state = Python::with_gil(|py| -> PyResult<Vec<(&'static str, f64)>> {
            let b = self.obj.bind(py);
            if !b.hasattr("state")? {
                return Ok(Vec::new());
            }
            let d = b.call_method0("state")?;
            let d = d.downcast::<pyo3::types::PyDict>()?;
            let mut out = Vec::with_capacity(d.len());
            for (k, v) in d.iter() {
                let k: String = k.extract()?;
                let mut names = self.names.lock().expect("names");
                let name = *names.entry(k.clone()).or_insert_with(|| Box::leak(k.into_boxed_str()));
                out.push((name, v.extract()?));
            }
            Ok(out)
        });
        match state {
            Ok(s) => s.into_iter().for_each(|(n, v)| publish(n, v)),
            Err(e) => {
                let mut slot = self.errors.lock().expect("error slot");
                if slot.is_none() {
                    *slot = Some(e);
                }
                self.control.cancel();
            }
        }
    }
}
