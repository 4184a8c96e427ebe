//! A flow group's `app` table as a scenario writes it — `{ kind = "onoff", rate = "500Kbps" }`,
//! `kind` defaulting to `"bulk"` — its JSON Schema (one alternative per registered
//! application), and its resolution through the registry.

use super::{app_kinds, kinds_accepting, resolve_kind, table_schemas, AppConfig};
use crate::error::ScenarioError;
use crate::units::Bytes;
use schemars::gen::SchemaGenerator;
use schemars::schema::{Schema, SchemaObject, SubschemaValidation};
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
        let any_of = table_schemas(gen);
        let mut s = SchemaObject { subschemas: Some(Box::new(SubschemaValidation { any_of: Some(any_of), ..Default::default() })), ..Default::default() };
        s.metadata().description = Some("The application: `kind` (default \"bulk\") and its parameters; parameters of other applications are rejected.".into());
        Schema::Object(s)
    }
}

/// Resolves the `app` table at `path` for a flow whose data packets are `packet` bytes.
pub fn resolve_app(spec: &AppSpec, packet: Bytes, path: &str) -> Result<AppConfig, ScenarioError> {
    let mut given = spec.0.clone();
    let kind = match given.remove("kind") {
        None => app_kinds()[0].to_string(),
        Some(Value::String(k)) => k,
        Some(other) => {
            return Err(ScenarioError::new(format!("{path}.kind"), format!("{other} is not an application name; expected one of {:?}", app_kinds())))
        }
    };
    let resolved = resolve_kind(&kind, &given, packet, path).map_err(|mut e| {
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
        None => Err(ScenarioError::new(format!("{path}.kind"), format!("{kind:?} is not an application; expected one of {:?}", app_kinds()))),
    }
}
