//! The JSON Schema of the `-o json` findings report (`diagnose`, `check`, `lint`),
//! generated from the report types themselves so it cannot drift from what is printed.
//! Checked in as docs/report.schema.json; a test regenerates it and validates every
//! report of the fixture set against it.

use schemars::JsonSchema;

use super::Tool;
use super::findings::Report;

/// A findings report as `-o json` prints it: the envelope and the report's fields.
#[derive(JsonSchema)]
#[schemars(
    title = "Findings report of amldoctor",
    description = "What `amldoctor diagnose|check|lint -o json` prints (schema_version 1). The same document is printed as YAML by `-o yaml`."
)]
#[allow(dead_code)]
struct FindingsDocument {
    /// Changes only when a field is removed or changes meaning.
    schema_version: u32,
    tool: Tool,
    /// The command that made the report.
    command: String,
    #[serde(flatten)]
    body: Report,
}

/// The schema, as the JSON text checked in.
pub fn findings_report() -> String {
    // The serialising side: a field left out when empty is optional.
    let generator = schemars::generate::SchemaSettings::draft2020_12()
        .for_serialize()
        .into_generator();
    let schema = generator.into_root_schema_for::<FindingsDocument>();
    let mut text = serde_json::to_string_pretty(&schema).unwrap_or_default();
    text.push('\n');
    text
}
