//! Rules as data: YAML files compiled into one [`RuleSet`] whose patterns share a
//! single literal prefilter. `model.rs` is the file schema, `load/` reads, validates and
//! compiles (its errors in `error.rs`, the name forms it checks in `names.rs`),
//! `literal.rs` finds each pattern's required literal, `compare.rs` does the typed fact
//! comparisons.

pub(crate) mod compare;
mod error;
pub(crate) mod fix;
pub(crate) mod lazy_regex;
pub(crate) mod literal;
pub(crate) mod load;
pub(crate) mod model;
mod placeholder_names;
pub(crate) mod prefilter;
pub(crate) mod pushdown;
pub(crate) mod resource;
pub(crate) mod template;

use std::collections::BTreeMap;

use regex::bytes::Regex;

use crate::evidence::DocumentKind;
use crate::evidence::resource::ResourceKind;
use crate::evidence::surface::Surface;
use crate::finding::Severity;

pub use load::{RuleError, load_builtin, load_dir};

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/builtin_rules.rs"));
}

/// Built-in rule files, embedded at build time.
pub fn builtin_files() -> &'static [(&'static str, &'static str)] {
    embedded::BUILTIN_RULES
}

/// What a pattern does for its rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PatternRole {
    Any,
    All,
    Unless,
}

/// One compiled line pattern.
#[derive(Debug, Clone)]
pub struct Pattern {
    pub regex: lazy_regex::LazyRegex,
    pub rule: usize,
    pub role: PatternRole,
}

/// A `when` condition.
#[derive(Debug, Clone)]
pub struct Condition {
    pub fact: String,
    pub value_type: compare::ValueType,
    pub op: compare::Op,
    pub value: String,
}

impl Condition {
    pub fn holds(&self, facts: &BTreeMap<String, String>) -> bool {
        facts
            .get(&self.fact)
            .and_then(|f| self.value_type.compare(f, &self.value))
            .is_some_and(|ord| self.op.holds(ord))
    }
}

/// Lines read after a rule's first hit.
#[derive(Debug, Clone)]
pub struct ContextCapture {
    pub lines: u32,
    pub extract: Vec<Regex>,
}

/// Where a rule was defined.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleSource {
    pub path: String,
    pub builtin: bool,
}

/// Examples a rule carries and must pass.
#[derive(Debug, Clone)]
pub struct Examples {
    pub matching: Vec<String>,
    pub no_match: Vec<String>,
    /// The kind log examples are read as (resource examples are JSON documents).
    pub kind: DocumentKind,
}

/// A validated, compiled rule.
#[derive(Debug, Clone)]
pub struct Rule {
    pub id: String,
    pub title: String,
    pub severity: Severity,
    pub family: String,
    /// Bit set of [`DocumentKind::bit`]s the rule reads.
    pub kinds: u8,
    /// Bit set of [`ResourceKind::bit`]s the rule reads (resource and computed rules).
    pub resource_kinds: u16,
    /// Field tests, for rules over resources.
    pub resource: Option<resource::ResourceMatch>,
    /// The `amldoctor check` area of a rule over resources.
    pub check: Option<resource::CheckArea>,
    pub codes: Vec<String>,
    /// `explain CODE` shows this rule first among those sharing a code.
    pub usual: bool,
    /// Its severity holds only beside another warning or error in the same input.
    pub advisory: bool,
    pub any: Vec<usize>,
    pub all: Vec<usize>,
    pub unless: Vec<usize>,
    pub when: Vec<Condition>,
    pub context: Option<ContextCapture>,
    pub caused_by: Vec<String>,
    pub remediation: String,
    /// The edits `lint --fix-suggestions` shows for a file this rule fired on.
    pub fix: Vec<fix::Fix>,
    pub commands: Vec<String>,
    /// The fix on each surface that has its own (computed rules), in surface order.
    pub surfaces: Vec<(Surface, SurfaceFix)>,
    pub docs: Vec<String>,
    pub examples: Examples,
    pub source: RuleSource,
    /// Computed by code (an analyser: `prs`, `checks`), never matched from text.
    pub computed: bool,
}

/// A rule's fix on one surface: its remediation and next commands there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SurfaceFix {
    pub remediation: String,
    pub commands: Vec<String>,
}

impl Rule {
    /// The rule's own fix for a failure seen on `surface`, if it has one there (else its
    /// `remediation` and `commands` stand).
    pub fn fix_on(&self, surface: Option<Surface>) -> Option<&(Surface, SurfaceFix)> {
        self.surfaces.iter().find(|(s, _)| Some(*s) == surface)
    }

    pub fn reads_resource(&self, kind: ResourceKind) -> bool {
        self.resource_kinds & kind.bit() != 0
    }

    /// The resource kinds the rule reads.
    pub fn resource_kind_names(&self) -> Vec<&'static str> {
        ResourceKind::ALL
            .iter()
            .filter(|k| self.reads_resource(**k))
            .map(|k| k.name())
            .collect()
    }

    /// A wrapper code's rule (`caused-by: ['*']`): any other error on its input is its
    /// cause.
    pub fn is_wrapper(&self) -> bool {
        self.caused_by.iter().any(|c| c == load::ANY_CAUSE)
    }

    pub fn applies_to(&self, kind: DocumentKind) -> bool {
        self.kinds & kind.bit() != 0
    }

    /// Whether the rule reads a document read as any of `kinds`.
    pub fn applies_to_any(&self, kinds: crate::evidence::KindSet) -> bool {
        kinds.meets(self.kinds)
    }

    pub fn kind_names(&self) -> Vec<&'static str> {
        DocumentKind::ALL
            .iter()
            .filter(|k| self.applies_to(**k))
            .map(|k| k.name())
            .collect()
    }
}

/// Literals that mark a line as error-like, for "last error lines" when no rule fires.
pub const ERROR_LITERALS: &[&str] = &[
    "Error:",
    "Exception",
    "Traceback (most recent",
    "ERROR",
    "CRITICAL",
    "FATAL",
    "Fatal",
    "failed",
    "Failed",
    " E [",
    // The parts of a service's error block (see `evidence::service_error`).
    // Not `"code"` or `"message"`: every line of a JSON-structured log has such keys.
    "Code:",
    "ErrorCode",
    "Message:",
    "{\"error\":",
    "\"error\": {",
    "'error': {",
    "\"Error\": {",
    "\"Error\":{",
    "'Error': {",
    "\"details\":[{",
    "\"details\": [{",
    // A code value that names an error (`"code": "UserError"`, `AzureHttpError('…')`).
    "Error\"",
    "Error'",
    "Error(",
    "Exit: ",
    // What else shows that something failed (see `checks::unrecognised`).
    "[Errno",
    "exited with",
    "exit code",
    "exit status",
    "HTTP/1.1 ",
    "HTTP/2 ",
    "status code",
    "rovisioningState",
    "rovisioning_state",
    // Sentences that say something went wrong (see `checks::unrecognised::failure_phrase`).
    "error: ",
    "rror raised",
    "rror occurred",
    "an't ",
    "ncountered an exception",
    "nexpected error",
    "ailed to ",
    "ould not ",
    "annot ",
    "nable to ",
    "ot recognized",
    "isspelled",
    "oes not exist",
    "as not found",
    "not installed",
    "ermission denied",
    "ccess denied",
    "imed out",
    "oo many request",
    "hrottl",
    "onnection refused",
    "rovisioning error",
    "uthentication required",
    "nexpected keyword argument",
    "imeout exceeded",
    // A literal's first four bytes are its fingerprint in the SIMD search: each starts
    // where few healthy lines have those bytes (`such`, not `o su`; `Met `, not `et e`).
    "such file or directory",
    "oesn't exist",
    "Met error",
    "met error",
    "nsufficient",
    "allowed to ",
    "\"_schema\": [",
    // `az`'s `(StorageAuthError) Forbidden.`, an error list's `"ErrorMessage": "…"`.
    // Each starts on bytes few healthy lines hold (`canceled`, not `as c`; `ot
    // supported`, not `s no`): the first four are the SIMD search's fingerprint.
    "Error) ",
    "\"ErrorMessage\"",
    "attribute '",
    "rguments are required",
    // pytest's frame (`…/fields.py:19: in <module>`): a cut traceback still shows them.
    "in <module>",
    "lready exist",
    "xceeded",
    "onger than",
    "canceled",
    "cancelled",
    "be unique",
    "egistered resource provider",
    "TIMEOUT\"",
    "ot supported",
    "nvalid status code",
    // A traceback frame: whose code raised (see `checks::cause_category::user_script`).
    "File \"",
    // The `**Errors:**` heading of the report form `az` fills in (see
    // `checks::unrecognised::template_failure`).
    "Errors:",
    // A schema validator refusing a value (see `checks::cause_category::rank`).
    "may not be null",
    "issing data for required field",
    // R's reticulate wrapping a Python package's exception (see `checks::cause_category::rank`).
    "py_call_impl(",
];

/// Every rule, their patterns and the shared prefilter.
#[derive(Debug, Clone)]
pub struct RuleSet {
    pub rules: Vec<Rule>,
    pub patterns: Vec<Pattern>,
    /// Finds every literal of every pattern, plus [`ERROR_LITERALS`].
    pub prefilter: prefilter::Prefilter,
}

impl RuleSet {
    pub fn get(&self, id: &str) -> Option<&Rule> {
        self.rules.iter().find(|r| r.id == id)
    }

    pub fn index_of(&self, id: &str) -> Option<usize> {
        self.rules.iter().position(|r| r.id == id)
    }
}
