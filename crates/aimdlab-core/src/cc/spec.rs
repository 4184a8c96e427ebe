//! A flow group's `cc` entry as a scenario writes it — a name (`cc = "reno"`) or a table with
//! the name and that controller's parameters (`cc = { name = "gaimd", beta = 0.875 }`) — its
//! JSON Schema (one alternative per registered controller, from its parameter struct), and
//! its resolution through the registry into a checked [`CcConfig`].

use super::{controller_names, resolve_registered, table_schemas, CcConfig};
use crate::error::ScenarioError;
use crate::stack_profile::StackProfile;
use schemars::gen::SchemaGenerator;
use schemars::schema::{InstanceType, Schema, SchemaObject, SubschemaValidation};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value};

/// The congestion controller: a name, or a table with `name` and its parameters.
#[derive(Clone, Debug, PartialEq)]
pub enum CcSpec {
    /// Just the name, e.g. `"reno"`.
    Name(String),
    /// The table as written: `name` and the parameters.
    Table(Map<String, Value>),
}

impl Default for CcSpec {
    fn default() -> Self {
        CcSpec::Name("reno".into())
    }
}

impl<'de> Deserialize<'de> for CcSpec {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = CcSpec;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a controller name such as \"reno\" or a table { name = \"reno\", ... }")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<CcSpec, E> {
                Ok(CcSpec::Name(v.to_owned()))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<CcSpec, A::Error> {
                Map::deserialize(serde::de::value::MapAccessDeserializer::new(map)).map(CcSpec::Table)
            }
        }
        d.deserialize_any(V)
    }
}

impl JsonSchema for CcSpec {
    fn schema_name() -> String {
        "CcSpec".into()
    }

    fn json_schema(gen: &mut SchemaGenerator) -> Schema {
        let names: Vec<Value> = controller_names().into_iter().map(Value::from).collect();
        let mut by_name = SchemaObject { instance_type: Some(InstanceType::String.into()), enum_values: Some(names), ..Default::default() };
        by_name.metadata().description = Some("A controller by name, with its default parameters.".into());
        let mut any_of = vec![Schema::Object(by_name)];
        any_of.extend(table_schemas(gen));
        any_of.push(python_class_schema());
        let mut s = SchemaObject { subschemas: Some(Box::new(SubschemaValidation { any_of: Some(any_of), ..Default::default() })), ..Default::default() };
        s.metadata().description = Some("The congestion controller: a name (`\"reno\"`), or a table with `name` and that controller's parameters; parameters that do not belong to `name` are rejected.".into());
        Schema::Object(s)
    }
}

/// The schema of `{ python = "module:Class", ... }`: a controller class written in Python, made
/// with the other fields as its keyword arguments. The aimdlab package imports and builds it
/// (the engine itself runs it as `"python"`).
fn python_class_schema() -> Schema {
    let mut class = SchemaObject { instance_type: Some(InstanceType::String.into()), ..Default::default() };
    class.string().pattern = Some(r"^\s*[A-Za-z_][\w.]*\s*:\s*[A-Za-z_][\w.]*\s*$".into());
    class.metadata().description = Some("A subclass of aimdlab.Controller, as module:Class (imported from sys.path, then the current folder).".into());
    let mut s = SchemaObject { instance_type: Some(InstanceType::Object.into()), ..Default::default() };
    s.metadata().description =
        Some("A controller written in Python: `python` names its class; the other fields are its constructor's keyword arguments.".into());
    let object = s.object();
    object.properties.insert("python".into(), Schema::Object(class));
    object.required.insert("python".into());
    object.additional_properties = Some(Box::new(Schema::Bool(true)));
    Schema::Object(s)
}

/// Resolves a `cc` entry found at `path` (e.g. `flows[0].cc`) for a flow of stack `profile`:
/// the name, then the defaults overlaid with the profile's and the parameters given, checked.
pub fn resolve(spec: &CcSpec, path: &str, profile: StackProfile) -> Result<CcConfig, ScenarioError> {
    let empty = Map::new();
    let (name, name_path, params) = match spec {
        CcSpec::Name(n) => (n.as_str(), path.to_string(), &empty),
        CcSpec::Table(t) => {
            let name_path = format!("{path}.name");
            let name = match t.get("name") {
                Some(Value::String(n)) => n.as_str(),
                Some(other) => return Err(ScenarioError::new(name_path, format!("{other} is not a name; expected a string such as \"reno\""))),
                None if t.contains_key("python") => {
                    return Err(ScenarioError::new(
                        format!("{path}.python"),
                        "names a Python class, which the aimdlab package builds; run the scenario through it",
                    ))
                }
                None => return Err(ScenarioError::new(name_path, "is missing; a cc table needs the controller's name")),
            };
            (name, name_path, t)
        }
    };
    let key = name.to_ascii_lowercase().replace('-', "_");
    let given: Vec<(&String, &Value)> = params.iter().filter(|(k, _)| k.as_str() != "name").collect();
    match resolve_registered(&key, &given, path, profile)? {
        Some(config) => Ok(config),
        None => Err(ScenarioError::new(name_path, format!("{name:?} is not a known controller; expected one of {:?}", controller_names()))),
    }
}
