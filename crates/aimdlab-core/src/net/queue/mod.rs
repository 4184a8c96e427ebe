//! Egress queue disciplines: DropTail, RED (with ECN marking), CoDel, FQ-CoDel and PIE, each
//! in a file with its parameter struct (`params::DisciplineSpec`), made selectable by `kind`
//! through the registry list below. A discipline records what it dropped or marked in the
//! link's `QueueLog`.
//!
//! Adding a discipline: one new file plus one line in the `queue_registry!` list.

pub mod discipline;
pub mod fifo;
pub mod log;
pub mod params;
pub mod red_linux;
pub mod registry;
pub mod spec;

pub use codel::{Codel, CodelParams};
pub use discipline::QueueDiscipline;
pub use fq_codel::{FqCodel, FqCodelParams};
pub use log::{DropCause, QueueLog};
pub use pie::{Pie, PieParams};
pub use red::{Red, RedConfig};

// The disciplines, `module::Variant(ParamsStruct)`: one line each; the first is the default.
registry::queue_registry! {
    droptail::DropTail(DropTailSpec),
    red::Red(RedSpec),
    codel::Codel(CodelSpec),
    fq_codel::FqCodel(FqCodelSpec),
    pie::Pie(PieSpec),
    step::Step(StepSpec),
}
