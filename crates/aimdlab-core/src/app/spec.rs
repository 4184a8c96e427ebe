//! A flow group's `app` table as a scenario writes it — `{ kind = "onoff", rate = "500Kbps" }`,
//! `kind` defaulting to `"bulk"` — its JSON Schema (one alternative per registered
//! application), and its resolution through the registry.

use super::{app_kinds, kinds_accepting, resolve_kind, table_schemas, AppConfig};
use crate::error::ScenarioError;
use crate::kind_table::{any_of_schema, resolve_table, Registry};
use crate::units::Bytes;
use schemars::gen::SchemaGenerator;
use schemars::schema::Schema;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value};

/// A flow group's application: `kind` and that application's parameters.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct AppSpec(pub Map<String, Value>);

impl JsonSchema for AppSpec {
    fn schema_name() -> String {
        "AppSpec".into()
    }

    fn json_schema(gen: &mut SchemaGenerator) -> Schema {
        any_of_schema(table_schemas(gen), "The application: `kind` (default \"bulk\") and its parameters; parameters of other applications are rejected.")
    }
}

/// Resolves the `app` table at `path` for a flow whose data packets are `packet` bytes.
pub fn resolve_app(spec: &AppSpec, packet: Bytes, path: &str) -> Result<AppConfig, ScenarioError> {
    let resolve = |kind: &str, given: &Map<String, Value>, path: &str| resolve_kind(kind, given, packet, path);
    let registry = Registry { what: "application", kinds: app_kinds(), resolve: &resolve, accepting: &kinds_accepting };
    resolve_table(&spec.0, &registry, path)
}
