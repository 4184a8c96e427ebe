//! The one error type of scenario loading: it names the field path, the bad value and what
//! is accepted, e.g. `flows[2].start: "-1s" is negative; expected a duration ≥ 0`.

use std::fmt;

/// An invalid scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError {
    /// Dotted path of the offending field, e.g. `topology.dumbbell.bottleneck.rate`
    /// (empty for the document itself).
    pub path: String,
    /// What is wrong and what is accepted.
    pub message: String,
}

impl ScenarioError {
    /// An error at `path`.
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        ScenarioError { path: path.into(), message: message.into() }
    }
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() || self.path == "." {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for ScenarioError {}

/// A parameter that failed a check: the field (relative to the table it belongs to, e.g. `cc` or `queue`) and what is wrong
/// and what is accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamError {
    /// The parameter's name, e.g. `"beta"`.
    pub field: &'static str,
    /// The value, what is wrong with it and what is accepted.
    pub message: String,
}

impl ParamError {
    /// The error as a scenario error under the table at `path`.
    pub fn at(self, path: &str) -> ScenarioError {
        ScenarioError::new(format!("{path}.{}", self.field), self.message)
    }
}
