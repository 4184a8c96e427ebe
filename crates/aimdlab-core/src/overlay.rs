//! The one way a settings table is read, wherever it is (`tcp`, `dccp`, a controller's `cc`
//! table, a queue's or an application's kind): a settings struct's fields (its defaults, with a
//! stack profile's presets laid over them where it has any) as a map, each field the table
//! gives laid over the one of its name, the map read back into the struct. A field the struct
//! does not have is refused in the one wording (`serde_words::not_a_parameter`, the name it is
//! a typo of included); a value of the wrong type names its field in the project's words
//! (`serde_words::worded`). The struct's own `check` runs after, at its caller.

use crate::error::ScenarioError;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};

/// A settings struct's fields by name (its serde names: the table's).
pub fn fields_of<T: Serialize>(settings: &T) -> Map<String, Value> {
    match serde_json::to_value(settings) {
        Ok(Value::Object(m)) => m,
        _ => Map::new(),
    }
}

/// `base` (a settings struct's fields, `fields_of`) with each of `given` laid over the field
/// of that name, read into `T`. A name `base` does not have is refused as not a parameter of
/// `owner` (e.g. `"the tcp table"`, `kind = "red"`), naming the fields it takes and `also`
/// (names the caller reads itself, listed first); errors name `path.field`.
pub fn read_table<'a, T: DeserializeOwned + JsonSchema>(
    mut base: Map<String, Value>,
    given: impl IntoIterator<Item = (&'a String, &'a Value)>,
    owner: &str,
    also: &[&str],
    path: &str,
) -> Result<T, ScenarioError> {
    for (field, value) in given {
        if !base.contains_key(field.as_str()) {
            let accepted: Vec<&str> = also.iter().copied().chain(base.keys().map(String::as_str)).collect();
            return Err(ScenarioError::new(format!("{path}.{field}"), crate::serde_words::not_a_parameter(field, owner, &accepted)));
        }
        base.insert(field.clone(), value.clone());
    }
    serde_path_to_error::deserialize(Value::Object(base)).map_err(|e| {
        let at = e.path().to_string();
        let message = crate::serde_words::worded::<T>(&e.inner().to_string(), &at);
        ScenarioError::new(if at == "." { path.to_string() } else { format!("{path}.{at}") }, message)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Default, PartialEq, Serialize, serde::Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields)]
    struct Settings {
        /// A count.
        count: u32,
        /// A flag.
        on: bool,
    }

    #[test]
    fn a_table_is_its_defaults_with_the_fields_it_gives() {
        let given = serde_json::json!({ "count": 7 });
        let s: Settings = read_table(fields_of(&Settings::default()), given.as_object().unwrap(), "the t table", &[], "t").unwrap();
        assert_eq!(s, Settings { count: 7, on: false });
    }

    #[test]
    fn an_unknown_field_and_a_wrong_type_are_named_in_one_wording() {
        let typo = serde_json::json!({ "cuont": 7 });
        let e = read_table::<Settings>(fields_of(&Settings::default()), typo.as_object().unwrap(), "the t table", &["kind"], "t").unwrap_err();
        assert_eq!(e.to_string(), "t.cuont: is not a parameter of the t table; it takes kind, count, on (did you mean count?)");
        let wrong = serde_json::json!({ "on": "yes" });
        let e = read_table::<Settings>(fields_of(&Settings::default()), wrong.as_object().unwrap(), "the t table", &[], "t").unwrap_err();
        assert!(e.to_string().starts_with("t.on: \"yes\" is not valid; expected true or false"), "{e}");
    }
}
