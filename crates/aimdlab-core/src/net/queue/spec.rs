//! A link's `queue` table as a scenario writes it — `{ kind = "red", limit = "100pkt", ... }`,
//! `kind` defaulting to `"droptail"` — its JSON Schema (one alternative per registered
//! discipline, from its parameter struct), and its resolution for a link through the registry.

use super::{kinds_accepting, queue_kinds, resolve_kind, table_schemas, QueueConfig};
use crate::error::ScenarioError;
use crate::units::Rate;
use schemars::gen::SchemaGenerator;
use schemars::schema::{Schema, SchemaObject, SubschemaValidation};
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
        let any_of = table_schemas(gen);
        let mut s = SchemaObject { subschemas: Some(Box::new(SubschemaValidation { any_of: Some(any_of), ..Default::default() })), ..Default::default() };
        s.metadata().description =
            Some("An egress queue: `kind` (default \"droptail\") and that discipline's parameters; parameters of other disciplines are rejected.".into());
        Schema::Object(s)
    }
}

/// Resolves the `queue` table at `path` for a link of `rate`.
pub fn resolve_queue(spec: &QueueSpec, rate: Rate, path: &str) -> Result<QueueConfig, ScenarioError> {
    let mut given = spec.0.clone();
    let kind = match given.remove("kind") {
        None => queue_kinds()[0].to_string(),
        Some(Value::String(k)) => k,
        Some(other) => {
            return Err(ScenarioError::new(format!("{path}.kind"), format!("{other} is not a discipline name; expected one of {:?}", queue_kinds())))
        }
    };
    let resolved = resolve_kind(&kind, &given, rate, path).map_err(|mut e| {
        // A field of another discipline: say whose it is.
        if e.message.starts_with("is not a parameter of kind") {
            let field = e.path.rsplit('.').next().unwrap_or("");
            let owners = kinds_accepting(field);
            if !owners.is_empty() {
                e.message = format!("{} ({field} is a setting of {})", e.message, owners.join(", "));
            }
        }
        e
    })?;
    match resolved {
        Some(config) => Ok(config),
        None => Err(ScenarioError::new(format!("{path}.kind"), format!("{kind:?} is not a queue discipline; expected one of {:?}", queue_kinds()))),
    }
}
