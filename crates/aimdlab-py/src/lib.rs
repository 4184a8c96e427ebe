//! Thin PyO3 bindings of aimdlab-core: scenario JSON in, columnar results out, errors as
//! exceptions. Everything a user touches is the typed Python facade in `python/aimdlab`.

// pyo3 0.22's #[pyfunction] expansion trips this lint on PyResult returns.
#![allow(clippy::useless_conversion)]

mod controller;
mod errors;

use aimdlab_core::monitor::table::{Column, Table};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyTuple};

use errors::{EngineError, RunCancelled, ScenarioError};

/// Watches and stops a run from another thread: `now_s()` is the simulated time reached,
/// `cancel()` asks the run to stop (it raises `RunCancelled`).
#[pyclass(frozen)]
struct RunControl {
    inner: std::sync::Arc<aimdlab_core::control::RunControl>,
}

#[pymethods]
impl RunControl {
    #[new]
    fn new() -> Self {
        RunControl { inner: std::sync::Arc::new(aimdlab_core::control::RunControl::new()) }
    }
    /// Simulated time reached so far, seconds.
    fn now_s(&self) -> f64 {
        self.inner.now_ps() as f64 / aimdlab_core::units::PS_PER_SEC as f64
    }
    /// Asks the run to stop at its next check (within a few thousand events).
    fn cancel(&self) {
        self.inner.cancel()
    }
}

fn scenario_err(e: aimdlab_core::ScenarioError) -> PyErr {
    ScenarioError::new_err(e.to_string())
}

/// A table as a list of `(name, kind, data)`: kind "f64"/"u64" with little-endian bytes,
/// "str" with a list of strings, "dict" with (little-endian u32 codes, list of names),
/// "f64_runs" with (little-endian f64 bytes, rows per value: each value repeated that many
/// times), or "u64_cycle" with (little-endian u64 bytes, cycles: the values that many times
/// over).
fn table_to_py<'py>(py: Python<'py>, t: &Table) -> PyResult<Bound<'py, PyList>> {
    let out = PyList::empty_bound(py);
    for (name, col) in &t.columns {
        let item: Bound<'py, PyTuple> = match col {
            Column::F64(v) => {
                let bytes = le_bytes(py, v, |x| x.to_le_bytes())?;
                PyTuple::new_bound(py, [name.into_py(py), "f64".into_py(py), bytes.into_py(py)])
            }
            Column::U64(v) => {
                let bytes = le_bytes(py, v, |x| x.to_le_bytes())?;
                PyTuple::new_bound(py, [name.into_py(py), "u64".into_py(py), bytes.into_py(py)])
            }
            Column::F64Runs(v, run) => {
                let data = PyTuple::new_bound(py, [le_bytes(py, v, |x| x.to_le_bytes())?.into_py(py), run.into_py(py)]);
                PyTuple::new_bound(py, [name.into_py(py), "f64_runs".into_py(py), data.into_py(py)])
            }
            Column::U64Cycle(v, cycles) => {
                let data = PyTuple::new_bound(py, [le_bytes(py, v, |x| x.to_le_bytes())?.into_py(py), cycles.into_py(py)]);
                PyTuple::new_bound(py, [name.into_py(py), "u64_cycle".into_py(py), data.into_py(py)])
            }
            Column::Str(v) => PyTuple::new_bound(py, [name.into_py(py), "str".into_py(py), v.clone().into_py(py)]),
            Column::Dict(codes, names) => {
                let bytes = le_bytes(py, codes, |x| x.to_le_bytes())?;
                let data = PyTuple::new_bound(py, [bytes.into_py(py), names.clone().into_py(py)]);
                PyTuple::new_bound(py, [name.into_py(py), "dict".into_py(py), data.into_py(py)])
            }
        };
        out.append(item)?;
    }
    Ok(out)
}

/// The little-endian bytes of `values` as a Python `bytes`, written straight into it (one copy
/// of the column, none in between: a 100-flow run's time series is 64 MB).
fn le_bytes<'py, T: Copy, const N: usize>(py: Python<'py>, values: &[T], le: impl Fn(T) -> [u8; N]) -> PyResult<Bound<'py, PyBytes>> {
    PyBytes::new_bound_with(py, values.len() * N, |buf| {
        for (out, &x) in buf.chunks_exact_mut(N).zip(values) {
            out.copy_from_slice(&le(x));
        }
        Ok(())
    })
}

/// Validates a scenario (JSON text), refusing it when its estimated memory is above
/// `max_memory_bytes`; raises `ScenarioError` naming the bad field. Returns its duration in
/// seconds.
#[pyfunction]
#[pyo3(signature = (scenario_json, max_memory_bytes=None))]
fn validate(scenario_json: &str, max_memory_bytes: Option<u64>) -> PyResult<f64> {
    aimdlab_core::scenario::load_json_limited(scenario_json, max_memory_bytes).map(|plan| plan.duration.as_secs_f64()).map_err(scenario_err)
}

/// The estimated memory of a run of a valid scenario (JSON text), as a list of
/// `(what, field, bytes)`, largest first.
#[pyfunction]
fn memory_estimate(scenario_json: &str) -> PyResult<Vec<(&'static str, String, u64)>> {
    let plan = aimdlab_core::scenario::load_json(scenario_json).map_err(scenario_err)?;
    Ok(plan.memory.parts.into_iter().map(|p| (p.what, p.field, p.bytes)).collect())
}

/// Runs a scenario (JSON text) with an optional seed override, `RunControl`, Python
/// controllers for the flows whose `cc` is `"python"` (a dict: flow index → object), and a
/// memory limit (see `validate`).
/// Returns a dict with `summary` (JSON text), the tables `flows`, `links`, `timeseries`,
/// `link_timeseries`, `cwnd_trace`, and `pcaps` (link name → libpcap file bytes). The GIL is released while the engine runs.
#[pyfunction]
#[pyo3(signature = (scenario_json, seed=None, control=None, controllers=None, max_memory_bytes=None))]
fn run(
    py: Python<'_>,
    scenario_json: &str,
    seed: Option<u64>,
    control: Option<&Bound<'_, RunControl>>,
    controllers: Option<std::collections::HashMap<usize, PyObject>>,
    max_memory_bytes: Option<u64>,
) -> PyResult<PyObject> {
    let plan = aimdlab_core::scenario::load_json_limited(scenario_json, max_memory_bytes).map_err(scenario_err)?;
    let control = control.map_or_else(|| std::sync::Arc::new(aimdlab_core::control::RunControl::new()), |c| c.get().inner.clone());
    let mut controllers = controllers.unwrap_or_default();
    let errors: controller::ErrorSlot = Default::default();
    let mut installed = Vec::new();
    for (i, f) in plan.flows.iter().enumerate() {
        // A UDP or CCID-3 flow has no window controller to install.
        let wants = f.cc == aimdlab_core::cc::CcConfig::External && f.takes_window_controller();
        match (wants, controllers.remove(&i)) {
            (true, Some(obj)) => {
                let c =
                    controller::PyController::new(py, obj, i, f.tcp.initial_cwnd_pkts as f64, f.tcp.initial_ssthresh_pkts, errors.clone(), control.clone())?;
                installed.push((i, c));
            }
            (true, None) => {
                return Err(ScenarioError::new_err(format!(
                    "flows[{}].cc: \"python\" needs a controller; name its class, cc = {{ python = \"module:Class\", ... }}, or pass an aimdlab.Controller instance through aimdlab.run",
                    f.group
                )))
            }
            (false, Some(_)) => {
                return Err(ScenarioError::new_err(format!("flows[{}].cc: a controller object was given for a flow whose cc is not \"python\"", f.group)))
            }
            (false, None) => {}
        }
    }
    if let Some(i) = controllers.keys().next() {
        return Err(ScenarioError::new_err(format!("a controller object was given for flow {i}, which does not exist")));
    }
    let outcome = py.allow_threads(|| {
        aimdlab_core::run_simulator(
            || {
                let mut sim = aimdlab_core::Simulator::new(plan, seed);
                for (i, c) in installed {
                    sim.set_controller(aimdlab_core::ids::FlowId(i as u32), Box::new(c))
                        .expect("every flow given a controller takes one (checked against its plan above)");
                }
                sim
            },
            &control,
        )
    });
    if let Some(e) = errors.lock().expect("error slot").take() {
        return Err(e);
    }
    let result = outcome.map_err(|e| match e {
        aimdlab_core::EngineError::Cancelled => RunCancelled::new_err(e.to_string()),
        aimdlab_core::EngineError::Panic(_) | aimdlab_core::EngineError::Stalled(_) => EngineError::new_err(e.to_string()),
    })?;
    let d = pyo3::types::PyDict::new_bound(py);
    d.set_item("summary", serde_json::to_string(&result.summary).expect("summary serializes"))?;
    d.set_item("flows", table_to_py(py, &result.flows)?)?;
    d.set_item("links", table_to_py(py, &result.links)?)?;
    d.set_item("timeseries", table_to_py(py, &result.timeseries)?)?;
    d.set_item("link_timeseries", table_to_py(py, &result.link_timeseries)?)?;
    d.set_item("cwnd_trace", table_to_py(py, &result.cwnd_trace)?)?;
    let pcaps = pyo3::types::PyDict::new_bound(py);
    for (name, bytes) in &result.pcaps {
        pcaps.set_item(name, pyo3::types::PyBytes::new_bound(py, bytes))?;
    }
    d.set_item("pcaps", pcaps)?;
    Ok(d.into_py(py))
}

/// Parses a size such as `"4GB"` or `"512MiB"` into bytes (the scenario files' units);
/// raises `ValueError` naming the value and the accepted units.
#[pyfunction]
fn parse_bytes(text: &str) -> PyResult<u64> {
    aimdlab_core::units::parse::parse_bytes(text).map(|b| b.0).map_err(pyo3::exceptions::PyValueError::new_err)
}

/// Splits a quantity such as `"12.5ms"` into `(12.5, "ms")` by the scenario files' grammar (a
/// bare number has the unit `""`); None if the text is not a quantity.
#[pyfunction]
fn split_quantity(text: &str) -> Option<(f64, String)> {
    aimdlab_core::units::parse::split_number_unit(text).map(|(v, u)| (v, u.to_string()))
}

/// Parses a duration such as `"30ms"` into seconds; raises `ValueError` naming the value.
#[pyfunction]
fn parse_duration_s(text: &str) -> PyResult<f64> {
    aimdlab_core::units::parse::parse_duration(text).map(|d| d.as_secs_f64()).map_err(pyo3::exceptions::PyValueError::new_err)
}

/// Parses a rate such as `"5Mbps"` into bits per second; raises `ValueError` naming the value.
#[pyfunction]
fn parse_rate_bps(text: &str) -> PyResult<u64> {
    aimdlab_core::units::parse::parse_rate(text).map(|r| r.bps).map_err(pyo3::exceptions::PyValueError::new_err)
}

/// Parses a buffer size, `"100pkt"` or `"150KB"`, into `(count, "pkt")` or `(bytes, "B")`;
/// raises `ValueError` naming the value.
#[pyfunction]
fn parse_limit(text: &str) -> PyResult<(u64, &'static str)> {
    use aimdlab_core::units::parse::{parse_packets_or_bytes, PacketsOrBytes};
    match parse_packets_or_bytes(text).map_err(pyo3::exceptions::PyValueError::new_err)? {
        PacketsOrBytes::Packets(n) => Ok((n, "pkt")),
        PacketsOrBytes::Bytes(b) => Ok((b.0, "B")),
    }
}

/// A rate in the scenario units, e.g. `8Gbps` (as the engine writes it in its messages).
#[pyfunction]
fn format_rate(bps: f64) -> String {
    aimdlab_core::units::limits::fmt_rate(bps)
}

/// The JSON Schema of scenario files, as JSON text.
#[pyfunction]
fn schema() -> String {
    serde_json::to_string_pretty(&aimdlab_core::scenario::json_schema()).expect("schema serializes")
}

/// Names of the built-in congestion controllers.
#[pyfunction]
fn controllers() -> Vec<&'static str> {
    aimdlab_core::cc::controller_names()
}

/// The columns of the result tables and the summary's numbers: (table, name, unit,
/// description, low, high), `low`/`high` the range of its values.
#[pyfunction]
fn columns() -> Vec<aimdlab_core::monitor::unit::ColumnDoc> {
    aimdlab_core::result::column_docs()
}

/// The native module `aimdlab._core`.
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("ScenarioError", m.py().get_type_bound::<ScenarioError>())?;
    m.add("EngineError", m.py().get_type_bound::<EngineError>())?;
    m.add("RunCancelled", m.py().get_type_bound::<RunCancelled>())?;
    m.add_class::<RunControl>()?;
    m.add_class::<controller::PyAckEvent>()?;
    m.add_class::<controller::PyCongestionEvent>()?;
    m.add_class::<controller::PyWindow>()?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("__commit__", env!("AIMDLAB_GIT_COMMIT"))?;
    m.add("FIXED_MEMORY_BYTES", aimdlab_core::scenario::memory_estimate::FIXED_BYTES)?;
    m.add_function(wrap_pyfunction!(validate, m)?)?;
    m.add_function(wrap_pyfunction!(memory_estimate, m)?)?;
    m.add_function(wrap_pyfunction!(parse_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(split_quantity, m)?)?;
    m.add_function(wrap_pyfunction!(parse_duration_s, m)?)?;
    m.add_function(wrap_pyfunction!(parse_rate_bps, m)?)?;
    m.add_function(wrap_pyfunction!(parse_limit, m)?)?;
    m.add_function(wrap_pyfunction!(format_rate, m)?)?;
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(schema, m)?)?;
    m.add_function(wrap_pyfunction!(controllers, m)?)?;
    m.add_function(wrap_pyfunction!(columns, m)?)?;
    Ok(())
}
