//! Rendering finished results. Each output format is its own printer over the same
//! data; nothing here computes or decides anything.

pub(crate) mod diff;
pub(crate) mod dns_table;
pub(crate) mod explain;
pub(crate) mod findings;
pub(crate) mod fleet;
pub(crate) mod json;
pub(crate) mod junit;
pub(crate) mod log_analytics;
pub(crate) mod markdown;
pub(crate) mod markdown_escape;
pub(crate) mod prs_table;
pub(crate) mod rehearsal_table;
pub(crate) mod replicas;
pub mod rule_doc;
pub(crate) mod rule_list;
pub(crate) mod sarif;
pub mod schema;
pub(crate) mod score_table;
pub(crate) mod section;
pub(crate) mod style;
pub(crate) mod table;
pub(crate) mod text;
pub(crate) mod yaml;

use std::fmt;

use serde::Serialize;

/// `-o/--output`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum OutputFormat {
    /// Human-readable text (colours only on a terminal)
    Table,
    /// JSON with a versioned schema (`schema_version`)
    Json,
    /// The same schema as json, in YAML
    Yaml,
    /// SARIF 2.1.0 for GitHub code scanning (commands that report findings)
    Sarif,
    /// JUnit XML, one testcase per rule and input (commands that report findings)
    Junit,
    /// Markdown for pull requests and job summaries (findings commands, explain)
    Markdown,
}

impl OutputFormat {
    /// The names `-o` accepts, from the clap definition.
    pub fn names() -> Vec<String> {
        use clap::ValueEnum;
        OutputFormat::value_variants()
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    /// Formats that only make sense for commands that report findings.
    pub fn is_findings_only(self) -> bool {
        matches!(
            self,
            OutputFormat::Sarif | OutputFormat::Junit | OutputFormat::Markdown
        )
    }

    /// The format a file name implies: `.sarif`, `.json`, `.yaml`/`.yml`, `.xml`, `.md`.
    pub fn from_extension(path: &std::path::Path) -> Option<OutputFormat> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        // `results.sarif.json` is SARIF, as GitHub's upload action names it.
        let inner = path
            .file_stem()
            .map(std::path::Path::new)
            .and_then(std::path::Path::extension)
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        Some(match (ext.as_str(), inner.as_deref()) {
            ("sarif", _) | ("json", Some("sarif")) => OutputFormat::Sarif,
            ("json", _) => OutputFormat::Json,
            ("yaml" | "yml", _) => OutputFormat::Yaml,
            ("xml", _) => OutputFormat::Junit,
            ("md" | "markdown", _) => OutputFormat::Markdown,
            ("txt", _) => OutputFormat::Table,
            _ => return None,
        })
    }
}

impl fmt::Display for OutputFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use clap::ValueEnum;
        match self.to_possible_value() {
            Some(v) => f.write_str(v.get_name()),
            None => Ok(()),
        }
    }
}

/// `1 error`, `2 errors`.
/// How much table output says: `-q`, the default, or `-v`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detail {
    Quiet,
    Normal,
    Verbose,
}

impl Detail {
    pub fn of(quiet: bool, verbose: bool) -> Detail {
        match (quiet, verbose) {
            (true, _) => Detail::Quiet,
            (false, true) => Detail::Verbose,
            (false, false) => Detail::Normal,
        }
    }
}

pub fn plural<N: Into<u128>>(n: N, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Version of every json/yaml document amldoctor prints; bumped on incompatible change.
pub const SCHEMA_VERSION: u32 = 1;

/// The frame around every json/yaml document.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct Envelope<'a, T: Serialize> {
    pub schema_version: u32,
    pub tool: Tool,
    pub command: &'static str,
    #[serde(flatten)]
    pub body: &'a T,
}

#[derive(Debug, Serialize, schemars::JsonSchema)]
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

/// Refuses the findings-only formats for commands that do not report findings.
pub fn require_plain(format: OutputFormat, command: &str) -> crate::error::Result<()> {
    if format.is_findings_only() {
        Err(crate::error::Error::input(format!(
            "'{command}' does not report findings, so -o {format} does not apply; use table, json or yaml"
        )))
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::ValueEnum;

    #[test]
    fn names_are_the_documented_ones() {
        // Part of the CLI contract (README, .amldoctor.yaml `output:`, AMLDOCTOR_OUTPUT).
        assert_eq!(
            OutputFormat::names(),
            ["table", "json", "yaml", "sarif", "junit", "markdown"]
        );
        assert_eq!(OutputFormat::Junit.to_string(), "junit");
        assert_eq!(
            OutputFormat::from_str("SARIF", true),
            Ok(OutputFormat::Sarif)
        );
    }
}

/// How the SARIF, JUnit and markdown writers write a report: chosen by the run's flags
/// when rendering, never stored in the report.
#[derive(Debug, Clone, Default)]
pub struct WriterOptions {
    pub sarif: sarif::SarifOptions,
    pub junit: junit::JunitOptions,
    pub markdown: markdown::MarkdownOptions,
}

/// Writes a findings report in `format`.
pub fn render(
    format: OutputFormat,
    report: &findings::Report,
    out: &mut dyn std::io::Write,
    style: style::Style,
    detail: Detail,
    options: &WriterOptions,
) -> std::io::Result<()> {
    match format {
        OutputFormat::Table => table::write_table(out, report, style, detail),
        OutputFormat::Json => json::write(out, &Envelope::new(report.command, &report.document())),
        OutputFormat::Yaml => yaml::write(out, &Envelope::new(report.command, &report.document())),
        OutputFormat::Sarif => sarif::write(out, report, &options.sarif),
        OutputFormat::Junit => junit::write(out, report, &options.junit),
        OutputFormat::Markdown => markdown::write(out, report, &options.markdown),
    }
}

/// Writes a document of a command that reports no findings (`explain`, `rules`,
/// `replicas`) as JSON, or as YAML for any other format it accepts.
pub fn emit<T: Serialize>(
    format: OutputFormat,
    command: &'static str,
    body: &T,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    match format {
        OutputFormat::Json => json::write(out, &Envelope::new(command, body)),
        _ => yaml::write(out, &Envelope::new(command, body)),
    }
}
