//! The rule file schema, exactly as users write it (see docs/rule-format.md).
//! `load.rs` validates these and compiles them into [`super::Rule`]s.

use serde::Deserialize;

use crate::finding::Severity;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct RuleSpec {
    pub id: String,
    pub title: String,
    pub severity: Severity,
    pub family: String,
    #[serde(default)]
    pub applies_to: Option<Vec<String>>,
    #[serde(default)]
    pub codes: Vec<String>,
    /// The usual case among the rules sharing one of its codes: `explain CODE` shows
    /// it first.
    #[serde(default)]
    pub usual: bool,
    /// Advice, not a fault: at its severity only when a warning or error of another rule
    /// is in the same input; on an input that is otherwise healthy it is `info`.
    #[serde(default)]
    pub advisory: bool,
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
    /// For rules over resources: the `amldoctor check` area they belong to.
    #[serde(default)]
    pub check: Option<String>,
    pub remediation: String,
    /// For rules over files `lint` reads: the edits `--fix-suggestions` shows.
    #[serde(default)]
    pub fix: Vec<FixSpec>,
    #[serde(default)]
    pub commands: Vec<String>,
    /// For computed rules: the fix and the next commands on one surface (`online`,
    /// `batch`, `job`, `local`, `build`), in place of `remediation` and `commands` when
    /// the analysis knows what the failure was seen on.
    #[serde(default)]
    pub surfaces: std::collections::BTreeMap<String, SurfaceSpec>,
    #[serde(default)]
    pub docs: Vec<String>,
    #[serde(default)]
    pub examples: ExamplesSpec,
}

/// One entry of `surfaces:`; what it leaves out is the rule's own.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct SurfaceSpec {
    #[serde(default)]
    pub remediation: Option<String>,
    #[serde(default)]
    pub commands: Option<Vec<String>>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct MatchSpec {
    #[serde(default)]
    pub any: Vec<String>,
    #[serde(default)]
    pub all: Vec<String>,
    /// Tests on the fields of a resource (rules whose `applies-to` names resource kinds).
    #[serde(default)]
    pub fields: Option<FieldsSpec>,
    /// Other resources read in the same run that must exist, matching their own tests.
    #[serde(default)]
    pub with: Vec<RelatedSpec>,
    /// Resources that must not exist: the rule fires only when resources of that kind
    /// were read and none matches.
    #[serde(default)]
    pub without: Vec<RelatedSpec>,
    /// Resources that silence the rule when one was read and matches (a workspace under
    /// a managed virtual network, where legacy egress settings do not apply); unlike
    /// `without`, reading none of that kind does not silence it.
    #[serde(default)]
    pub unless_with: Vec<RelatedSpec>,
    /// Rules (log or resource) of which one must have fired in the same run; their facts
    /// join this rule's facts, so `when` can test them.
    #[serde(default)]
    pub with_finding: Vec<String>,
}

/// Field tests combined: every test of `all` and, when given, at least one of `any`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FieldsSpec {
    #[serde(default)]
    pub all: Vec<FieldSpec>,
    #[serde(default)]
    pub any: Vec<FieldSpec>,
}

/// A test on one field of a resource (see docs/rule-format.md).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct FieldSpec {
    /// Dotted path, `[*]`/`*` for every element, `|` between alternatives
    /// (`properties.networkAcls.bypass | bypass`).
    #[serde(default)]
    pub field: Option<String>,
    #[serde(default)]
    pub equals: Option<Scalar>,
    #[serde(default)]
    pub not_equals: Option<Scalar>,
    #[serde(default)]
    pub one_of: Vec<Scalar>,
    #[serde(default)]
    pub not_one_of: Vec<Scalar>,
    #[serde(default)]
    pub exists: Option<bool>,
    #[serde(default)]
    pub matches: Option<String>,
    #[serde(default)]
    pub not_matches: Option<String>,
    /// Typed comparison: `is: number|version|date`, with `op` and `value`.
    #[serde(default, rename = "is")]
    pub value_type: Option<String>,
    #[serde(default)]
    pub op: Option<String>,
    #[serde(default)]
    pub value: Option<Scalar>,
    /// Tests on each element the path selects, all of which must hold for it.
    #[serde(default, rename = "where")]
    pub where_all: Vec<FieldSpec>,
    /// Over the elements a `*` selects: `any` (default), `all` or `none` must pass.
    #[serde(default)]
    pub each: Option<String>,
    /// A group instead of a field: at least one of these tests holds.
    #[serde(default)]
    pub any_of: Vec<FieldSpec>,
    /// Keeps the passing value as a fact under this name.
    #[serde(default)]
    pub capture: Option<String>,
    /// Keeps the key (or index) of the passing element as a fact under this name.
    #[serde(default)]
    pub capture_key: Option<String>,
}

/// One edit of a rule's `fix:`: the key it changes and how.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct FixSpec {
    /// A field path without `*` (`request_settings.request_timeout_ms`); with
    /// alternatives (`a | b`), the first the file has is edited.
    pub key: String,
    /// The value the key takes (added when the file lacks it); may name facts.
    #[serde(default)]
    pub set: Option<Scalar>,
    /// The key (or the requirement) is deleted.
    #[serde(default)]
    pub remove: bool,
    /// Only when the key's value (as text) matches this regex: for a rule whose tests
    /// accept either of two keys, the fix of each.
    #[serde(default)]
    pub if_matches: Option<String>,
}

/// Another resource a rule needs (or must not find).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RelatedSpec {
    pub kind: String,
    #[serde(default)]
    pub all: Vec<FieldSpec>,
    #[serde(default)]
    pub any: Vec<FieldSpec>,
}

/// A literal in a field test, as YAML writes it.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub(crate) enum Scalar {
    Bool(bool),
    Int(i64),
    Float(f64),
    Text(String),
}

impl Scalar {
    /// The text form every comparison uses.
    pub(crate) fn text(&self) -> String {
        match self {
            Scalar::Bool(b) => b.to_string(),
            Scalar::Int(i) => i.to_string(),
            Scalar::Float(f) => f.to_string(),
            Scalar::Text(t) => t.clone(),
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ConditionSpec {
    pub fact: String,
    #[serde(rename = "is")]
    pub value_type: String,
    pub op: String,
    pub value: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ContextSpec {
    pub lines: u32,
    #[serde(default)]
    pub extract: Vec<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct ExamplesSpec {
    #[serde(default, rename = "match")]
    pub matching: Vec<String>,
    #[serde(default)]
    pub no_match: Vec<String>,
    #[serde(default)]
    pub kind: Option<String>,
}

/// The families rules belong to.
pub(crate) const FAMILIES: &[&str] = &[
    "inference-server",
    "storage",
    "deployment",
    "kubernetes",
    "network",
    "prs",
    "build",
    "http",
    "general",
    "rehearsal",
];
