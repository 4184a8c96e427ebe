//! The registry of queue disciplines: one line per discipline in the `queue_registry!` list
//! of `net/queue/mod.rs` (its module, its variant name and its parameter struct, see
//! [`DisciplineSpec`](super::params::DisciplineSpec)). From that list the macro makes the
//! resolved [`QueueConfig`](super::QueueConfig), the per-link [`Queue`](super::Queue)
//! (dispatched statically on the hot path), lookup by `kind`, and the JSON Schema of every
//! `queue` table.
//!
//! Adding a discipline: a new file with the queue, its parameter struct and their trait
//! impls, and one line in that list (the line also declares the file's module).

use super::params::DisciplineSpec;
use crate::error::ScenarioError;
use crate::kind_table::{kind_schema, read_fields};
use schemars::gen::SchemaGenerator;
use schemars::schema::Schema;
use serde_json::{Map, Value};

/// Reads the fields `given` of a `queue` table at `path` as `S`'s parameters (defaults for
/// the rest) and resolves them for a link of `rate`.
pub fn read<S: DisciplineSpec>(given: &Map<String, Value>, rate: crate::units::Rate, path: &str) -> Result<S::Config, ScenarioError> {
    let spec: S = read_fields(given, S::KIND, path)?;
    spec.resolve(rate).map_err(|e| e.at(path))
}

/// The schema of a `queue` table of `S`: its parameters plus `kind` (required unless `S` is
/// the default discipline).
pub fn table_schema<S: DisciplineSpec>(gen: &mut SchemaGenerator, default_kind: &str) -> Schema {
    kind_schema::<S>(gen, S::KIND, S::KIND == default_kind)
}

/// Declares the disciplines' modules and makes, from the list, `QueueConfig`, `Queue`,
/// `queue_kinds`, `table_schemas` and `resolve_kind` in the invoking module. The first line
/// is the default discipline.
macro_rules! queue_registry {
    ($($module:ident :: $variant:ident ( $spec:ident )),* $(,)?) => {
        $( #[allow(missing_docs)] pub mod $module; )*
        $( pub use $module::$spec; )*

        /// A queue discipline resolved for one link.
        #[derive(Clone, Debug, PartialEq)]
        pub enum QueueConfig {
            $(
                #[allow(missing_docs)]
                $variant(<$spec as $crate::net::queue::params::DisciplineSpec>::Config),
            )*
        }

        /// An egress queue: its discipline.
        pub struct Queue {
            discipline: QueueKind,
        }

        /// The discipline of an egress queue.
        pub enum QueueKind {
            $(
                #[allow(missing_docs)]
                $variant(<$spec as $crate::net::queue::params::DisciplineSpec>::Queue),
            )*
        }

        impl QueueKind {
            #[inline]
            fn len_pkts(&self) -> u64 {
                match self { $( QueueKind::$variant(q) => $crate::net::queue::discipline::QueueDiscipline::len_pkts(q), )* }
            }
        }

        impl QueueConfig {
            /// The capacity in packets (bytes as 1000-byte packets), for the memory estimate.
            pub fn limit_pkts(&self) -> u64 {
                match self { $( QueueConfig::$variant(c) => <$spec as $crate::net::queue::params::DisciplineSpec>::limit_pkts(c), )* }
            }
            /// Bytes allocated up front beside the packet ring, for a run of `flows` flows.
            pub fn extra_bytes(&self, flows: u64) -> u64 {
                match self { $( QueueConfig::$variant(c) => <$spec as $crate::net::queue::params::DisciplineSpec>::extra_bytes(c, flows), )* }
            }
        }

        impl Queue {
            /// A new empty queue of the configured kind on a link of `rate`; `salt` seeds what a
            /// discipline fixes at start (FQ-CoDel's hash perturbation).
            pub fn new(cfg: &QueueConfig, rate: $crate::units::Rate, salt: u64) -> Self {
                let discipline = match cfg { $( QueueConfig::$variant(c) => QueueKind::$variant(<$spec as $crate::net::queue::params::DisciplineSpec>::build(c, rate, salt)), )* };
                Queue { discipline }
            }
        }

        impl $crate::net::queue::discipline::QueueDiscipline for Queue {
            #[inline]
            fn enqueue(&mut self, p: $crate::net::packet::Packet, now: $crate::units::SimTime, rng: &mut $crate::rng::RngStream, log: &mut $crate::net::queue::log::QueueLog) -> bool {
                match &mut self.discipline { $( QueueKind::$variant(q) => $crate::net::queue::discipline::QueueDiscipline::enqueue(q, p, now, rng, log), )* }
            }
            #[inline]
            fn dequeue(&mut self, now: $crate::units::SimTime, log: &mut $crate::net::queue::log::QueueLog) -> Option<$crate::net::packet::Packet> {
                match &mut self.discipline { $( QueueKind::$variant(q) => $crate::net::queue::discipline::QueueDiscipline::dequeue(q, now, log), )* }
            }
            #[inline]
            fn len_pkts(&self) -> u64 {
                self.discipline.len_pkts()
            }
            #[inline]
            fn len_bytes(&self) -> u64 {
                match &self.discipline { $( QueueKind::$variant(q) => $crate::net::queue::discipline::QueueDiscipline::len_bytes(q), )* }
            }
            fn for_each_packet(&self, f: &mut dyn FnMut(&$crate::net::packet::Packet)) {
                match &self.discipline { $( QueueKind::$variant(q) => $crate::net::queue::discipline::QueueDiscipline::for_each_packet(q, f), )* }
            }
            fn state_vars(&self, publish: &mut dyn FnMut(&'static str, f64)) {
                match &self.discipline { $( QueueKind::$variant(q) => $crate::net::queue::discipline::QueueDiscipline::state_vars(q, publish), )* }
            }
            #[inline]
            fn is_passive(&self) -> bool {
                match &self.discipline { $( QueueKind::$variant(q) => $crate::net::queue::discipline::QueueDiscipline::is_passive(q), )* }
            }
        }

        /// Every `kind` a scenario may give, the default first.
        pub fn queue_kinds() -> Vec<&'static str> {
            vec![$( <$spec as $crate::net::queue::params::DisciplineSpec>::KIND, )*]
        }

        /// The JSON Schema of each discipline's `queue` table, in registry order.
        pub fn table_schemas(gen: &mut schemars::gen::SchemaGenerator) -> Vec<schemars::schema::Schema> {
            let default = queue_kinds()[0];
            vec![$( $crate::net::queue::registry::table_schema::<$spec>(gen, default), )*]
        }

        /// The kinds whose parameters include `field` (for error messages).
        pub fn kinds_accepting(field: &str) -> Vec<&'static str> {
            let mut kinds = Vec::new();
            $(
                if $crate::kind_table::accepts::<$spec>(field) {
                    kinds.push(<$spec as $crate::net::queue::params::DisciplineSpec>::KIND);
                }
            )*
            kinds
        }

        /// Resolves discipline `kind` with the fields `given` (without `kind`) at `path` for a
        /// link of `rate`; `None` if no discipline has that kind.
        pub fn resolve_kind(kind: &str, given: &serde_json::Map<String, serde_json::Value>, rate: $crate::units::Rate, path: &str) -> Result<Option<QueueConfig>, $crate::error::ScenarioError> {
            $(
                if kind == <$spec as $crate::net::queue::params::DisciplineSpec>::KIND {
                    return $crate::net::queue::registry::read::<$spec>(given, rate, path).map(|c| Some(QueueConfig::$variant(c)));
                }
            )*
            Ok(None)
        }
    };
}
pub(crate) use queue_registry;
