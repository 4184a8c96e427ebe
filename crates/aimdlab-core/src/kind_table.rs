//! Tables chosen by a `kind` field (`queue = { kind = "red", ... }`, `app = { kind = "onoff",
//! ... }`): reading the remaining fields into the kind's parameter struct with errors that
//! name the field, and the JSON Schema alternative of one kind.

use crate::error::ScenarioError;
use schemars::gen::SchemaGenerator;
use schemars::schema::{InstanceType, Schema, SchemaObject, SubschemaValidation};
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};

/// Reads the fields `given` (without `kind`) of a table at `path` into `S`, the parameters
/// of `kind`: `S`'s defaults with the fields given laid over them (`overlay::read_table`).
pub fn read_fields<S: DeserializeOwned + Serialize + Default + JsonSchema>(given: &Map<String, Value>, kind: &str, path: &str) -> Result<S, ScenarioError> {
    crate::overlay::read_table(crate::overlay::fields_of(&S::default()), given, &format!("kind = {kind:?}"), &["kind"], path)
}

/// The schema of a table of `kind` with `S`'s parameters: `S`'s fields plus `kind`
/// (required unless `kind` is the default one).
pub fn kind_schema<S: JsonSchema>(gen: &mut SchemaGenerator, kind: &str, is_default: bool) -> Schema {
    let mut s = S::json_schema(gen).into_object();
    let mut k = SchemaObject { instance_type: Some(InstanceType::String.into()), enum_values: Some(vec![Value::from(kind)]), ..Default::default() };
    k.metadata().description = Some("The kind.".into());
    let object = s.object();
    object.properties.insert("kind".into(), Schema::Object(k));
    if !is_default {
        object.required.insert("kind".into());
    }
    Schema::Object(s)
}

/// Whether `S`'s parameters include `field` (for error messages).
pub fn accepts<S: JsonSchema>(field: &str) -> bool {
    S::json_schema(&mut SchemaGenerator::default()).into_object().object.is_some_and(|o| o.properties.contains_key(field))
}

/// The schema of a table that is one of `alternatives` (one per kind).
pub fn any_of_schema(alternatives: Vec<Schema>, description: &str) -> Schema {
    let mut s = SchemaObject { subschemas: Some(Box::new(SubschemaValidation { any_of: Some(alternatives), ..Default::default() })), ..Default::default() };
    s.metadata().description = Some(description.into());
    Schema::Object(s)
}

/// Resolves one kind's fields at a path (`None`: no such kind).
pub type ResolveKind<'a, C> = &'a dyn Fn(&str, &Map<String, Value>, &str) -> Result<Option<C>, ScenarioError>;

/// How a registry resolves the tables of its kinds.
pub struct Registry<'a, C> {
    /// What a kind is, in messages, e.g. `"queue discipline"`.
    pub what: &'a str,
    /// Every kind, the default first.
    pub kinds: Vec<&'static str>,
    /// Resolves one kind's fields at a path (`None`: no such kind).
    pub resolve: ResolveKind<'a, C>,
    /// The kinds whose parameters include a field.
    pub accepting: &'a dyn Fn(&str) -> Vec<&'static str>,
}

/// Resolves a table chosen by its `kind` (the registry's default when absent) at `path`.
/// A field that belongs to another kind is named with its owners.
pub fn resolve_table<C>(table: &Map<String, Value>, registry: &Registry<C>, path: &str) -> Result<C, ScenarioError> {
    let mut given = table.clone();
    let kind = match given.remove("kind") {
        None => registry.kinds[0].to_string(),
        Some(Value::String(k)) => k,
        Some(other) => return Err(ScenarioError::new(format!("{path}.kind"), format!("{other} is not a name; expected one of {:?}", registry.kinds))),
    };
    let resolved = (registry.resolve)(&kind, &given, path).map_err(|mut e| {
        if e.message.starts_with("is not a parameter of kind") {
            let field = e.path.rsplit('.').next().unwrap_or("");
            let owners = (registry.accepting)(field);
            if !owners.is_empty() {
                e.message = format!("{} ({field} is a setting of {})", e.message, owners.join(", "));
            }
        }
        e
    })?;
    resolved.ok_or_else(|| ScenarioError::new(format!("{path}.kind"), format!("{kind:?} is not a {}; expected one of {:?}", registry.what, registry.kinds)))
}
