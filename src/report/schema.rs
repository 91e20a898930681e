//! The JSON Schema of the `-o json` findings report (`diagnose`, `check`, `lint`),
//! generated from the types that print it (the envelope and the report), so it cannot
//! drift from what is printed. Checked in as docs/report.schema.json; a test regenerates
//! it and validates every report of the fixture set against it. Objects admit no
//! property the types do not have (`unevaluatedProperties: false`), so a renamed or
//! misspelt field fails the test.

use serde_json::{Value, json};

use super::Envelope;
use super::findings::ReportDocument;

/// The commands that print a findings report.
const COMMANDS: &[&str] = &["diagnose", "check", "lint", "score"];

/// The schema, as the JSON text checked in.
pub fn findings_report() -> String {
    // The serialising side: a field left out when empty is optional.
    let generator = schemars::generate::SchemaSettings::draft2020_12()
        .for_serialize()
        .into_generator();
    let schema = generator.into_root_schema_for::<Envelope<'static, ReportDocument<'static>>>();
    let mut value = serde_json::to_value(&schema).unwrap_or_default();
    value["title"] = json!("Findings report of amldoctor");
    value["description"] = json!(
        "What `amldoctor diagnose|check|lint -o json` prints; `-o yaml` prints the same document."
    );
    value["properties"]["schema_version"]["const"] = json!(super::SCHEMA_VERSION);
    value["properties"]["command"]["enum"] = json!(COMMANDS);
    closed(&mut value, true);
    let mut text = serde_json::to_string_pretty(&value).unwrap_or_default();
    text.push('\n');
    text
}

/// Every object schema with properties admits no others (evaluated through its
/// subschemas too, so flattened and untagged parts count). The branches of `anyOf`,
/// `oneOf` and `allOf` stay open: each is only part of the object.
fn closed(v: &mut Value, here: bool) {
    match v {
        Value::Object(map) => {
            if here && map.contains_key("properties") {
                map.insert("unevaluatedProperties".to_owned(), json!(false));
            }
            for (key, child) in map.iter_mut() {
                let branches = matches!(key.as_str(), "anyOf" | "oneOf" | "allOf");
                match child {
                    Value::Array(items) if branches => {
                        items.iter_mut().for_each(|i| closed(i, false));
                    }
                    _ => closed(child, true),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|i| closed(i, true)),
        _ => {}
    }
}
