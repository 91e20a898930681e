//! Rendering finished results. Each output format is its own printer over the same
//! data; nothing here computes or decides anything.

pub mod diagnose;
pub mod json;
pub mod replicas;
pub mod rule_doc;
pub mod style;
pub mod yaml;

use std::fmt;

use serde::Serialize;

/// `-o/--output`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum OutputFormat {
    /// Human-readable text (colours only on a terminal)
    Table,
    /// JSON with a versioned schema (`schema_version`)
    Json,
    /// The same schema as json, in YAML
    Yaml,
}

impl OutputFormat {
    pub fn names() -> Vec<&'static str> {
        vec!["table", "json", "yaml"]
    }
}

impl fmt::Display for OutputFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            OutputFormat::Table => "table",
            OutputFormat::Json => "json",
            OutputFormat::Yaml => "yaml",
        })
    }
}

/// Version of every json/yaml document amldoctor prints; bumped on incompatible change.
pub const SCHEMA_VERSION: u32 = 1;

/// The frame around every json/yaml document.
#[derive(Debug, Serialize)]
pub struct Envelope<'a, T: Serialize> {
    pub schema_version: u32,
    pub tool: Tool,
    pub command: &'static str,
    #[serde(flatten)]
    pub body: &'a T,
}

#[derive(Debug, Serialize)]
pub struct Tool {
    pub name: &'static str,
    pub version: &'static str,
}

impl<'a, T: Serialize> Envelope<'a, T> {
    pub fn new(command: &'static str, body: &'a T) -> Self {
        Envelope {
            schema_version: SCHEMA_VERSION,
            tool: Tool {
                name: env!("CARGO_PKG_NAME"),
                version: env!("CARGO_PKG_VERSION"),
            },
            command,
            body,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::ValueEnum;

    #[test]
    fn names_match_the_value_enum() {
        let from_clap: Vec<String> = OutputFormat::value_variants()
            .iter()
            .map(|v| v.to_possible_value().unwrap().get_name().to_owned())
            .collect();
        assert_eq!(from_clap, OutputFormat::names());
        for v in OutputFormat::value_variants() {
            assert_eq!(v.to_string(), v.to_possible_value().unwrap().get_name());
        }
    }
}
