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
    if let Some((field, accepted)) = unknown_field(message) {
        // The table the field is not in: the last name of the path above it.
        let parent = at.rsplit_once('.').map_or("", |(p, _)| p);
        let table = parent.rsplit('.').next().unwrap_or("").split('[').next().unwrap_or("");
        let owner = if table.is_empty() { "the scenario".to_string() } else { format!("the {table} table") };
        return not_a_parameter(&field, &owner, &accepted.iter().map(String::as_str).collect::<Vec<_>>());
    }
    let root = serde_json::to_value(SchemaGenerator::default().into_root_schema_for::<S>()).unwrap_or(Value::Null);
    let accepted = find(&root, at).and_then(|node| accepted(&root, node, 0));
    reword(message, accepted)
}

/// The one wording of a field a settings table does not take, wherever the table is read (a
/// controller's, a queue's or an application's kind, the `tcp` and `dccp` tables, the
/// scenario's): `is not a parameter of OWNER; it takes a, b, c`, and the accepted name the
/// field is a typo of, if one is near.
pub fn not_a_parameter(field: &str, owner: &str, accepted: &[&str]) -> String {
    let takes = if accepted.is_empty() { "it takes no parameters".to_string() } else { format!("it takes {}", accepted.join(", ")) };
    match closest(field, accepted) {
        Some(name) => format!("is not a parameter of {owner}; {takes} (did you mean {name}?)"),
        None => format!("is not a parameter of {owner}; {takes}"),
    }
}

/// serde's "unknown field" refusal: the field and the names serde says it expected
/// (`unknown field \`x\`, expected one of \`a\`, \`b\``, `expected \`a\``, `there are no fields`).
pub fn unknown_field(message: &str) -> Option<(String, Vec<String>)> {
    let rest = message.strip_prefix("unknown field `")?;
    let (field, tail) = rest.split_once('`')?;
    let accepted = tail
        .trim_start_matches(", ")
        .trim_start_matches("expected ")
        .trim_start_matches("one of ")
        .split(", ")
        .filter_map(|n| n.strip_prefix('`').and_then(|n| n.strip_suffix('`')))
        .map(str::to_string)
        .collect();
    Some((field.to_string(), accepted))
}

/// The accepted name `field` is most likely a typo of: at most two edits away (one for a
/// name of up to four letters), and the only one that near.
fn closest<'a>(field: &str, accepted: &[&'a str]) -> Option<&'a str> {
    let limit = if field.chars().count() <= 4 { 1 } else { 2 };
    let mut near = accepted.iter().map(|n| (edits(field, n), *n)).filter(|(d, _)| *d <= limit).collect::<Vec<_>>();
    near.sort();
    match near.as_slice() {
        [(d, name), rest @ ..] if rest.first().is_none_or(|(e, _)| e > d) => Some(name),
        _ => None,
    }
}

/// Levenshtein's distance between `a` and `b` (insertions, deletions, substitutions), with a
/// swap of two neighbouring letters counted as one edit.
fn edits(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            d[i][j] = (d[i - 1][j] + 1).min(d[i][j - 1] + 1).min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
            }
        }
    }
    d[a.len()][b.len()]
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
    fn a_field_a_table_does_not_take_is_named_with_what_it_takes_and_the_likely_typo() {
        let serde = "unknown field `mms`, expected one of `profile`, `sack`, `mss`, `min_rto`";
        assert_eq!(
            worded::<crate::scenario::schema::Scenario>(serde, "tcp.mms"),
            "is not a parameter of the tcp table; it takes profile, sack, mss, min_rto (did you mean mss?)"
        );
        assert_eq!(not_a_parameter("gamma", "\"gaimd\"", &["alpha", "beta"]), "is not a parameter of \"gaimd\"; it takes alpha, beta");
        assert_eq!(not_a_parameter("bta", "\"gaimd\"", &["alpha", "beta"]), "is not a parameter of \"gaimd\"; it takes alpha, beta (did you mean beta?)");
        assert_eq!(not_a_parameter("x", "kind = \"fifo\"", &[]), "is not a parameter of kind = \"fifo\"; it takes no parameters");
        // Two names equally near: no guess.
        assert_eq!(closest("min_tx", &["min_th", "max_th", "min_rto"]), Some("min_th"));
        assert_eq!(closest("ab", &["ac", "ad"]), None);
        assert_eq!(unknown_field("unknown field `x`, there are no fields"), Some(("x".into(), vec![])));
    }

    #[test]
    fn a_message_of_the_fields_own_is_kept() {
        assert_eq!(reword("2 is outside (0, 1)", Some("a number".into())), "2 is outside (0, 1)");
    }
}
