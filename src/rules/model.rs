//! The rule file schema, exactly as users write it (see docs/rule-format.md).
//! `load.rs` validates these and compiles them into [`super::Rule`]s.

use serde::Deserialize;

use crate::finding::Severity;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RuleSpec {
    pub id: String,
    pub title: String,
    pub severity: Severity,
    pub family: String,
    #[serde(default)]
    pub applies_to: Option<Vec<String>>,
    #[serde(default)]
    pub codes: Vec<String>,
    #[serde(rename = "match", default)]
    pub matcher: MatchSpec,
    /// The finding is computed by amldoctor's code (ParallelRunStep counting), not
    /// matched from text: no patterns, and examples are optional.
    #[serde(default)]
    pub computed: bool,
    #[serde(default)]
    pub unless: Vec<String>,
    #[serde(default)]
    pub when: Vec<ConditionSpec>,
    #[serde(default)]
    pub context: Option<ContextSpec>,
    #[serde(default)]
    pub caused_by: Vec<String>,
    pub remediation: String,
    #[serde(default)]
    pub commands: Vec<String>,
    #[serde(default)]
    pub docs: Vec<String>,
    #[serde(default)]
    pub examples: ExamplesSpec,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatchSpec {
    #[serde(default)]
    pub any: Vec<String>,
    #[serde(default)]
    pub all: Vec<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConditionSpec {
    pub fact: String,
    #[serde(rename = "is")]
    pub value_type: String,
    pub op: String,
    pub value: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContextSpec {
    pub lines: u32,
    #[serde(default)]
    pub extract: Vec<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ExamplesSpec {
    #[serde(default, rename = "match")]
    pub matching: Vec<String>,
    #[serde(default)]
    pub no_match: Vec<String>,
    #[serde(default)]
    pub kind: Option<String>,
}

/// The families rules belong to.
pub const FAMILIES: &[&str] = &[
    "inference-server",
    "storage",
    "deployment",
    "kubernetes",
    "network",
    "prs",
    "build",
    "http",
];
