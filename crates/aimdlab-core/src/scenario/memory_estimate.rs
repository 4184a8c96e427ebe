//! The estimated memory of a run, by part, and the check that refuses a run above a limit
//! naming the scenario field behind its largest part. (`memory.rs` computes the estimate from
//! the engine's own type sizes.)

use crate::error::ScenarioError;

/// Memory every run is allowed whatever its size: the engine's fixed structures and the
/// conversion of its results for the caller (measured 50-65 MB resident for a 10-flow run
/// from Python while the conversion imported pandas; 2-3 MB since it does not — the allowance
/// is kept, a floor below which a limit is refused).
pub const FIXED_BYTES: u64 = 64_000_000;

/// One part of the estimate: what it is, the scenario field that drives it, and its bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemoryPart {
    /// What the memory holds, e.g. "per-flow state".
    pub what: &'static str,
    /// The scenario field that makes it large, e.g. `flows` or `sample_interval`.
    pub field: String,
    /// Estimated bytes.
    pub bytes: u64,
}

/// The estimated memory of one run, by part.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MemoryEstimate {
    /// The parts, largest first.
    pub parts: Vec<MemoryPart>,
}

impl MemoryEstimate {
    /// Total estimated bytes.
    pub fn total_bytes(&self) -> u64 {
        self.parts.iter().map(|p| p.bytes).fold(0, u64::saturating_add)
    }

    /// Refuses the run when the estimate is above `limit_bytes`, naming the field behind the
    /// largest part.
    pub fn check(&self, limit_bytes: u64) -> Result<(), ScenarioError> {
        let total = self.total_bytes();
        if total <= limit_bytes {
            return Ok(());
        }
        if limit_bytes < FIXED_BYTES {
            return Err(ScenarioError::new(
                "max_memory",
                format!("{} is below the {} every run takes; expected a larger limit", human(limit_bytes), human(FIXED_BYTES)),
            ));
        }
        let largest = self.parts.iter().find(|p| !p.field.is_empty()).unwrap_or(&self.parts[0]);
        let parts: Vec<String> = self.parts.iter().filter(|p| p.bytes * 20 >= total).map(|p| format!("{} {}", p.what, human(p.bytes))).collect();
        Err(ScenarioError::new(
            largest.field.clone(),
            format!(
                "this run needs about {} ({}), above the memory limit of {}; make the scenario smaller or raise the limit (max_memory, --max-memory)",
                human(total),
                parts.join(", "),
                human(limit_bytes)
            ),
        ))
    }
}

/// Bytes in a unit a person reads at a glance: `9.3 GB`, `120 MB`.
pub fn human(bytes: u64) -> String {
    let b = bytes as f64;
    if b >= 1e9 {
        format!("{:.1} GB", b / 1e9)
    } else if b >= 1e6 {
        format!("{:.0} MB", b / 1e6)
    } else {
        format!("{:.0} kB", b / 1e3)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_largest_part_names_its_field() {
        let e = MemoryEstimate {
            parts: vec![
                MemoryPart { what: "time series", field: "sample_interval".into(), bytes: 900 },
                MemoryPart { what: "per-flow state", field: "flows".into(), bytes: 100 },
            ],
        };
        assert_eq!(e.total_bytes(), 1000);
        assert!(e.check(1000).is_ok());
        let err = e.check(999).unwrap_err();
        assert_eq!(err.path, "max_memory"); // below the fixed cost of any run
        let big = |b: u64| MemoryEstimate { parts: e.parts.iter().map(|p| MemoryPart { bytes: p.bytes * b, ..p.clone() }).collect() };
        let err = big(1_000_000).check(999_000_000).unwrap_err();
        assert_eq!(err.path, "sample_interval");
        assert!(err.message.contains("above the memory limit"), "{}", err.message);
    }

    #[test]
    fn human_units() {
        assert_eq!(human(9_300_000_000), "9.3 GB");
        assert_eq!(human(120_000_000), "120 MB");
        assert_eq!(human(4_000), "4 kB");
    }
}
