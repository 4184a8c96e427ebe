//! A check of the scenario's shape against its JSON Schema, before serde reads it: an array
//! is accepted only where the schema says "array".
//!
//! serde's derived structs also accept a sequence of their fields in declaration order, so
//! without this check `bottleneck = ["10Mbps", "10ms"]` would silently mean
//! `{ rate = "10Mbps", delay = "10ms" }`. The schema (generated from `schema.rs`) stays the
//! single source of truth: this walk only asks it which places take arrays.

use crate::error::ScenarioError;
use serde_json::Value;
use std::sync::OnceLock;

/// The scenario's JSON Schema, built once.
fn root() -> &'static Value {
    static ROOT: OnceLock<Value> = OnceLock::new();
    ROOT.get_or_init(super::schema::json_schema)
}

/// The schema `s` after following `$ref` (definitions of the root schema).
fn resolve(s: &Value) -> &Value {
    let mut s = s;
    for _ in 0..16 {
        match s.get("$ref").and_then(Value::as_str).and_then(|r| r.strip_prefix("#/definitions/")) {
            Some(name) => s = &root()["definitions"][name],
            None => break,
        }
    }
    s
}

/// Every alternative a value at schema `s` may match (through anyOf/oneOf/allOf).
fn alternatives<'a>(s: &'a Value, out: &mut Vec<&'a Value>) {
    let s = resolve(s);
    let mut nested = false;
    for key in ["anyOf", "oneOf", "allOf"] {
        if let Some(list) = s.get(key).and_then(Value::as_array) {
            nested = true;
            list.iter().for_each(|a| alternatives(a, out));
        }
    }
    if !nested || s.get("type").is_some() || s.get("properties").is_some() {
        out.push(s);
    }
}

fn has_type(s: &Value, ty: &str) -> bool {
    match s.get("type") {
        Some(Value::String(t)) => t == ty,
        Some(Value::Array(ts)) => ts.iter().any(|t| t == ty),
        None => ty == "object" && s.get("properties").is_some(),
        _ => false,
    }
}

/// What the alternatives accept, in words, for the error message.
fn describe(alts: &[&Value]) -> String {
    let mut kinds: Vec<&str> = Vec::new();
    for (ty, word) in [("object", "a table"), ("string", "a string"), ("integer", "an integer"), ("number", "a number"), ("boolean", "true or false")] {
        if alts.iter().any(|a| has_type(a, ty)) && !kinds.contains(&word) {
            kinds.push(word);
        }
    }
    if kinds.is_empty() {
        "a value of another kind (see `aimdlab schema`)".into()
    } else {
        kinds.join(" or ")
    }
}

/// Checks `value` against `schema` at `path`; errors name the first array found where the
/// schema takes none.
fn walk(value: &Value, schema: &Value, path: &str) -> Result<(), ScenarioError> {
    let mut alts = Vec::new();
    alternatives(schema, &mut alts);
    if alts.is_empty() {
        return Ok(()); // an unconstrained value (e.g. `true` schema)
    }
    match value {
        Value::Array(items) => {
            let arrays: Vec<&Value> = alts.iter().copied().filter(|a| has_type(a, "array")).collect();
            if arrays.is_empty() {
                return Err(ScenarioError::new(path, format!("an array is not accepted here; expected {}", describe(&alts))));
            }
            for (i, item) in items.iter().enumerate() {
                let item_path = format!("{path}[{i}]");
                for a in &arrays {
                    if let Some(items_schema) = a.get("items") {
                        walk(item, items_schema, &item_path)?;
                    }
                }
            }
        }
        Value::Object(map) => {
            for (key, v) in map {
                let child = if path.is_empty() { key.clone() } else { format!("{path}.{key}") };
                for a in &alts {
                    if let Some(p) = a.get("properties").and_then(|p| p.get(key)) {
                        walk(v, p, &child)?;
                    }
                }
            }
        }
        _ => {}
    }
    Ok(())
}

/// Rejects arrays where the scenario schema expects a table or a single value.
pub fn check(value: &Value) -> Result<(), ScenarioError> {
    walk(value, root(), "")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn scenario(bottleneck: Value) -> Value {
        json!({"duration": "1s", "topology": {"dumbbell": {"bottleneck": bottleneck, "access": {"rate": "1Mbps", "delay": "1ms"}}},
               "flows": [{"count": 1}]})
    }

    #[test]
    fn an_array_is_not_a_table() {
        let e = check(&scenario(json!(["10Mbps", "10ms"]))).unwrap_err();
        assert_eq!(e.path, "topology.dumbbell.bottleneck");
        assert!(e.message.contains("expected a table"), "{}", e.message);
    }

    #[test]
    fn arrays_are_accepted_where_the_schema_has_them() {
        check(&scenario(json!({"rate": "10Mbps", "delay": "10ms"}))).unwrap();
        let e = check(&json!({"flows": [["reno"]]})).unwrap_err();
        assert_eq!(e.path, "flows[0]");
        let e = check(&json!({"flows": [{"cc": ["gaimd", 0.5]}]})).unwrap_err();
        assert_eq!(e.path, "flows[0].cc");
        assert!(e.message.contains("a table or a string"), "{}", e.message);
    }
}
