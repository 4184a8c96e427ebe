//! One way to read a settings table over defaults: the fields a scenario gives are laid over
//! a resolved settings struct (the defaults, or a stack profile's) by field name, as maps, and
//! the result is read back. The struct's serde names are the table's; its checks run after.

use crate::error::ScenarioError;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};

/// The fields a table gives (`table` serialized, its null fields — not given — dropped).
pub fn given_fields<P: Serialize>(table: &P) -> Map<String, Value> {
    match serde_json::to_value(table) {
        Ok(Value::Object(mut m)) => {
            m.retain(|_, v| !v.is_null());
            m
        }
        _ => Map::new(),
    }
}

/// `base` with each of `given` laid over the field of that name; an error names the field at
/// `path` (none is expected: `given` comes from a table already read).
pub fn overlay<T: Serialize + DeserializeOwned>(base: &T, given: Map<String, Value>, path: &str) -> Result<T, ScenarioError> {
    let mut fields = match serde_json::to_value(base) {
        Ok(Value::Object(m)) => m,
        _ => Map::new(),
    };
    fields.extend(given);
    serde_path_to_error::deserialize(Value::Object(fields)).map_err(|e| {
        let at = e.path().to_string();
        ScenarioError::new(format!("{path}.{at}"), crate::serde_words::without_schema(&e.inner().to_string()))
    })
}
