//! serde's refusals in the project's words. serde says what Rust expected ("invalid type:
//! floating point `1.5`, expected string or map", "expected u32", "expected struct LossSpec");
//! a scenario's author needs the value they wrote and what the field accepts. The accepted
//! values come from the field's JSON Schema (the one `aimdlab schema` prints), so every field
//! — of every controller, queue, application — is described the same way without a message
//! written per field.

use schemars::gen::SchemaGenerator;
use schemars::JsonSchema;
use serde_json::Value;

/// serde's `message` about the field at `at` (serde_path_to_error's path, relative to `S`; `.`
/// for `S` itself) in the project's words: `1.5 is not valid; expected one of "ewma",
/// "tustin", "linux"`. A message serde did not word (a check of the field's own) is kept.
pub fn worded<S: JsonSchema>(message: &str, at: &str) -> String {
    let root = serde_json::to_value(SchemaGenerator::default().into_root_schema_for::<S>()).unwrap_or(Value::Null);
    let accepted = find(&root, at).and_then(|node| accepted(&root, node, 0));
    reword(message, accepted)
}

/// serde's `message` in words, where no schema is at hand: Rust's type names put in words.
pub fn without_schema(message: &str) -> String {
    reword(message, None)
}

/// The schema of the field at `at` under `root`'s top level, if the path leads to one.
fn find<'a>(root: &'a Value, at: &str) -> Option<&'a Value> {
    let mut node = root;
    for piece in at.split('.').filter(|p| !p.is_empty()) {
        let (name, indexes) = piece.split_once('[').map_or((piece, ""), |(n, rest)| (n, rest));
        if !name.is_empty() {
            node = step(root, node, |n| n.get("properties").and_then(|p| p.get(name)))?;
        }
        for _ in indexes.split('[').filter(|i| !i.is_empty()) {
            node = step(root, node, |n| n.get("items"))?;
        }
    }
    Some(node)
}

/// `take` of `node` or, where `node` is a choice of alternatives, of the first that has it.
fn step<'a>(root: &'a Value, node: &'a Value, take: impl Fn(&'a Value) -> Option<&'a Value>) -> Option<&'a Value> {
    let node = resolve(root, node);
    take(node).or_else(|| alternatives(node).iter().find_map(|alt| take(resolve(root, alt))))
}

/// `node` with a `$ref` (or a lone `allOf` around one) followed to its definition.
fn resolve<'a>(root: &'a Value, node: &'a Value) -> &'a Value {
    let mut node = node;
    for _ in 0..8 {
        if let Some(name) = node.get("$ref").and_then(Value::as_str).and_then(|r| r.strip_prefix("#/definitions/")) {
            match root.get("definitions").and_then(|d| d.get(name)) {
                Some(found) => node = found,
                None => break,
            }
        } else if let Some([only]) = node.get("allOf").and_then(Value::as_array).map(Vec::as_slice) {
            node = only;
        } else {
            break;
        }
    }
    node
}

fn alternatives(node: &Value) -> &[Value] {
    node.get("anyOf").or_else(|| node.get("oneOf")).and_then(Value::as_array).map_or(&[], Vec::as_slice)
}

/// What a field of schema `node` accepts, in words.
fn accepted(root: &Value, node: &Value, depth: usize) -> Option<String> {
    let node = resolve(root, node);
    if depth > 4 {
        return None;
    }
    if let Some(values) = node.get("enum").and_then(Value::as_array) {
        let shown: Vec<String> = values.iter().filter(|v| !v.is_null()).map(Value::to_string).collect();
        return Some(if shown.len() == 1 { shown[0].clone() } else { format!("one of {}", shown.join(", ")) });
    }
    if let Some(value) = node.get("const") {
        return Some(value.to_string());
    }
    let alts = alternatives(node);
    let values: Vec<&Value> =
        alts.iter().filter_map(|alt| resolve(root, alt).get("enum").and_then(Value::as_array)).flatten().filter(|v| !v.is_null()).collect();
    if !alts.is_empty() && values.len() >= alts.len() && alts.iter().all(|alt| resolve(root, alt).get("enum").is_some()) {
        let shown: Vec<String> = values.iter().map(|v| v.to_string()).collect();
        return Some(if shown.len() == 1 { shown[0].clone() } else { format!("one of {}", shown.join(", ")) });
    }
    if !alts.is_empty() {
        let mut parts: Vec<String> = Vec::new();
        for alt in alts.iter().filter(|alt| resolve(root, alt).get("type").and_then(Value::as_str) != Some("null")) {
            if let Some(words) = accepted(root, alt, depth + 1) {
                if !parts.contains(&words) {
                    parts.push(words);
                }
            }
        }
        return (!parts.is_empty()).then(|| parts.join(" or "));
    }
    let types: Vec<&str> = match node.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).filter(|t| *t != "null").collect(),
        _ => return None,
    };
    let words: Vec<String> = types.iter().map(|t| type_words(node, t)).collect();
    Some(words.join(" or "))
}

/// A JSON Schema type, with its bounds, in words.
fn type_words(node: &Value, kind: &str) -> String {
    let bound = |key: &str| node.get(key).and_then(Value::as_f64);
    let range = match (bound("minimum"), bound("maximum")) {
        (Some(lo), Some(hi)) => format!(" from {lo} to {hi}"),
        (Some(lo), None) => format!(" ≥ {lo}"),
        (None, Some(hi)) => format!(" ≤ {hi}"),
        (None, None) => String::new(),
    };
    match kind {
        "boolean" => "true or false".into(),
        "integer" => format!("a whole number{range}"),
        "number" => format!("a number{range}"),
        "string" => "text".into(),
        "array" => "a list".into(),
        "object" => match node.get("properties").and_then(Value::as_object) {
            Some(p) if !p.is_empty() => format!("a table of {}", p.keys().cloned().collect::<Vec<_>>().join(", ")),
            _ => "a table".into(),
        },
        other => other.into(),
    }
}

/// serde's message with the value shown as written and `accepted` (or, without it, serde's
/// own expectation with Rust's type names put in words).
fn reword(message: &str, accepted: Option<String>) -> String {
    let expect = |serde_says: &str| {
        accepted.clone().unwrap_or_else(|| {
            let words = rust_words(&format!("expected {serde_says}"));
            words.strip_prefix("expected ").unwrap_or(&words).to_string()
        })
    };
    for prefix in ["invalid type: ", "invalid value: "] {
        if let Some(rest) = message.strip_prefix(prefix) {
            if let Some((value, expected)) = rest.rsplit_once(", expected ") {
                return format!("{} is not valid; expected {}", shown(value), expect(expected));
            }
        }
    }
    if let Some(rest) = message.strip_prefix("unknown variant `") {
        if let Some((value, expected)) = rest.split_once("`, expected ") {
            return format!("{value:?} is not valid; expected {}", expect(&expected.replace('`', "\"")));
        }
    }
    rust_words(message)
}

/// serde's description of a value (`floating point \`1.5\``, `string "x"`, `map`) as the
/// value itself, or what it is.
fn shown(unexpected: &str) -> String {
    if let Some((_, rest)) = unexpected.split_once('`') {
        return rest.trim_end_matches('`').to_string();
    }
    if let Some(rest) = unexpected.strip_prefix("string ") {
        return rest.to_string();
    }
    match unexpected {
        "map" => "a table".into(),
        "sequence" => "a list".into(),
        "unit value" | "null" => "an empty value".into(),
        other => other.into(),
    }
}

/// Rust's type names in serde's messages, in words.
fn rust_words(message: &str) -> String {
    let mut out = message
        .replace("expected f64", "expected a number")
        .replace("expected f32", "expected a number")
        .replace("expected a boolean", "expected true or false");
    for int in ["u8", "u16", "u32", "u64", "usize"] {
        out = out.replace(&format!("expected {int}"), "expected a whole number ≥ 0");
    }
    for int in ["i32", "i64"] {
        out = out.replace(&format!("expected {int}"), "expected a whole number");
    }
    if let Some(i) = out.find("expected struct ") {
        out.truncate(i);
        out.push_str("expected a table");
    }
    out.replace("string or map", "a name or a table")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_type_error_names_the_value_and_what_the_field_accepts() {
        assert_eq!(
            reword("invalid type: floating point `1.5`, expected string or map", Some("one of \"ewma\", \"tustin\"".into())),
            "1.5 is not valid; expected one of \"ewma\", \"tustin\""
        );
        assert_eq!(reword("invalid value: integer `-1`, expected u32", None), "-1 is not valid; expected a whole number ≥ 0");
        assert_eq!(reword("invalid type: map, expected f64", None), "a table is not valid; expected a number");
        assert_eq!(reword("invalid type: floating point `0.01`, expected struct LossSpec", None), "0.01 is not valid; expected a table");
    }

    #[test]
    fn a_message_of_the_fields_own_is_kept() {
        assert_eq!(reword("2 is outside (0, 1)", Some("a number".into())), "2 is outside (0, 1)");
    }
}
