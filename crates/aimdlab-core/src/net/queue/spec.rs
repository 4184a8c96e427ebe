//! A link's `queue` table as a scenario writes it — `{ kind = "red", limit = "100pkt", ... }`,
//! `kind` defaulting to `"droptail"` — its JSON Schema (one alternative per registered
//! discipline, from its parameter struct), and its resolution for a link through the registry.

use super::{kinds_accepting, queue_kinds, resolve_kind, table_schemas, QueueConfig};
use crate::error::ScenarioError;
use crate::kind_table::{any_of_schema, resolve_table, Registry};
use crate::stack_profile::StackProfile;
use crate::units::Rate;
use schemars::gen::SchemaGenerator;
use schemars::schema::Schema;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value};

/// An egress queue: `kind` and that discipline's parameters (absent fields take its defaults).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct QueueSpec(pub Map<String, Value>);

impl JsonSchema for QueueSpec {
    fn schema_name() -> String {
        "QueueSpec".into()
    }

    fn json_schema(gen: &mut SchemaGenerator) -> Schema {
        any_of_schema(
            table_schemas(gen),
            "An egress queue: `kind` (default \"droptail\") and that discipline's parameters; parameters of other disciplines are rejected.",
        )
    }
}

/// Resolves the `queue` table at `path` for a link of `rate` in a scenario run under
/// `profile`: the profile's presets for the discipline (`StackProfile::queue_presets`), then
/// the table's own fields over them.
pub fn resolve_queue(spec: &QueueSpec, rate: Rate, profile: StackProfile, path: &str) -> Result<QueueConfig, ScenarioError> {
    let resolve = |kind: &str, given: &Map<String, Value>, path: &str| {
        let mut fields = profile.queue_presets(kind);
        fields.extend(given.iter().map(|(k, v)| (k.clone(), v.clone())));
        resolve_kind(kind, &fields, rate, path)
    };
    let registry = Registry { what: "queue discipline", kinds: queue_kinds(), resolve: &resolve, accepting: &kinds_accepting };
    resolve_table(&spec.0, &registry, path)
}
