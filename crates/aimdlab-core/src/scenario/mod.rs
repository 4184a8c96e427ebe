//! Scenarios: the schema (TOML / Python dict, as JSON to the engine), its validation with
//! field-naming errors, and the resolved `Plan` the simulator is built from.

pub mod compile;
pub mod compile_flow;
pub mod memory;
pub mod memory_estimate;
pub mod plan;
pub mod resolve_loss;
pub mod schema;
pub mod shape;

pub use crate::error::ScenarioError;
pub use plan::Plan;
pub use schema::{json_schema, Scenario};

/// Parses a scenario from JSON text (the form Python hands to the engine) and validates it.
pub fn load_json(text: &str) -> Result<Plan, ScenarioError> {
    load_json_limited(text, None)
}

/// Like `load_json`, and refuses a scenario whose estimated memory
/// ([`memory_estimate::MemoryEstimate`]) is above `max_memory_bytes`.
pub fn load_json_limited(text: &str, max_memory_bytes: Option<u64>) -> Result<Plan, ScenarioError> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| ScenarioError::new("", format!("the scenario is not valid JSON: {e}")))?;
    load_value_limited(value, max_memory_bytes)
}

/// Validates a scenario given as a JSON value.
pub fn load_value(value: serde_json::Value) -> Result<Plan, ScenarioError> {
    load_value_limited(value, None)
}

/// Validates a scenario given as a JSON value under a memory limit (see `load_json_limited`).
pub fn load_value_limited(value: serde_json::Value, max_memory_bytes: Option<u64>) -> Result<Plan, ScenarioError> {
    shape::check(&value)?;
    let scenario: Scenario = serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        let path = if path == "." { String::new() } else { path };
        let message = e.inner().to_string();
        // serde says "missing field `x`" at the parent; name the field itself.
        match message.strip_prefix("missing field `").and_then(|m| m.split_once('`')) {
            Some((field, _)) => {
                let path = if path.is_empty() { field.to_string() } else { format!("{path}.{field}") };
                ScenarioError::new(path, "is missing; it is required (see `aimdlab schema`)")
            }
            None => {
                let words = crate::serde_words::worded::<Scenario>(&message, e.path().to_string().as_str());
                ScenarioError::new(path, words)
            }
        }
    })?;
    compile::compile_limited(&scenario, max_memory_bytes)
}
