//! Units of the simulation: time, sizes, rates, and the human-readable strings that name them
//! in scenario files (`"5Mbps"`, `"30ms"`, `"100pkt"`, `"20000KB"`).

pub mod limits;
pub mod parse;
pub mod quantity;
pub mod serde_text;
pub mod size;
pub mod time;

pub use size::{Bytes, Rate};
pub use time::{SimDuration, SimTime, PS_PER_SEC};
