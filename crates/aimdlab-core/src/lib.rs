//! aimdlab-core: a fast, deterministic packet-level network simulator for AIMD-family
//! congestion control. Pure Rust, no Python.
//!
//! Data flows one way: scenario JSON → [`scenario::load_json`] (validated [`scenario::Plan`])
//! → [`sim::Simulator`] → event loop → [`result::RunResult`] (columnar tables).
//!
//! ```
//! let plan = aimdlab_core::scenario::load_json(r#"{
//!   "duration": "5s",
//!   "topology": {"dumbbell": {
//!     "bottleneck": {"rate": "5Mbps", "delay": "30ms"},
//!     "access": {"rate": "10Mbps", "delay": "1ms"}}},
//!   "flows": [{"count": 2}]
//! }"#).unwrap();
//! let result = aimdlab_core::run(plan, None).unwrap();
//! assert!(result.summary["bottleneck"]["utilization"].as_f64().unwrap() > 0.5);
//! ```
#![warn(missing_docs)]

pub mod app;
pub mod calendar_queue;
pub mod cc;
pub mod control;
pub mod delay_histogram;
pub mod error;
pub mod event;
pub mod flow;
pub mod huge_pages;
pub mod ids;
pub mod kind_table;
pub mod monitor;
pub mod net;
pub mod overlay;
pub mod prefetch;
pub mod profile_presets;
pub mod result;
pub mod rng;
pub mod scenario;
pub mod serde_words;
pub mod sim;
pub mod stack_profile;
pub mod timer_lane;
pub mod transport;
pub mod units;

pub use result::RunResult;
pub use scenario::{Plan, ScenarioError};
pub use sim::Simulator;

/// Why a valid scenario produced no result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// A bug in the engine (a panic), reported instead of taking the host process down.
    Panic(String),
    /// The run was cancelled through its `RunControl`.
    Cancelled,
    /// The simulated clock stopped moving (see [`sim::Stall`]).
    Stalled(String),
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::Panic(m) => write!(f, "internal engine error (please report it with the scenario): {m}"),
            EngineError::Cancelled => write!(f, "the run was cancelled"),
            EngineError::Stalled(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for EngineError {}

/// Runs `plan` (with `seed` overriding its seed), turning a panic into an `EngineError`.
/// The simulator keeps the plan (its routes and names) for the run, so it takes it.
pub fn run(plan: Plan, seed: Option<u64>) -> Result<RunResult, EngineError> {
    run_simulator(|| Simulator::new(plan, seed), &control::RunControl::new())
}

/// Builds a simulator with `build` (e.g. to install custom controllers) and runs it under
/// `control`, turning a panic into an `EngineError`.
pub fn run_simulator(build: impl FnOnce() -> Simulator, control: &control::RunControl) -> Result<RunResult, EngineError> {
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| build().run_checked(control)));
    match outcome {
        Ok(Ok(Some(result))) => Ok(result),
        Ok(Ok(None)) => Err(EngineError::Cancelled),
        Ok(Err(stall)) => Err(EngineError::Stalled(stall.to_string())),
        Err(e) => {
            let msg = e.downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| e.downcast_ref::<String>().cloned()).unwrap_or_else(|| "unknown panic".into());
            Err(EngineError::Panic(msg))
        }
    }
}
