//! Findings: what the engine concludes, ready for any report format.

use std::collections::BTreeMap;
use std::fmt;

use serde::Serialize;

/// How serious a finding is. Ordered: `Info < Warning < Error`.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    serde::Deserialize,
    clap::ValueEnum,
    schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Context worth knowing; not a problem by itself
    Info,
    /// Likely to cause trouble
    Warning,
    /// A failure and its cause
    Error,
}

impl Severity {
    pub fn name(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// `--fail-on`: the lowest severity that makes the run exit 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum FailOn {
    /// Fail on errors only (default)
    Error,
    /// Fail on warnings and errors
    Warning,
    /// Fail on any finding
    Info,
    /// Never fail because of findings
    Never,
}

impl fmt::Display for FailOn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FailOn::Error => "error",
            FailOn::Warning => "warning",
            FailOn::Info => "info",
            FailOn::Never => "never",
        })
    }
}

impl FailOn {
    /// Whether a finding of `severity` trips the gate.
    pub fn trips(self, severity: Severity) -> bool {
        match self {
            FailOn::Error => severity >= Severity::Error,
            FailOn::Warning => severity >= Severity::Warning,
            FailOn::Info => true,
            FailOn::Never => false,
        }
    }
}

/// Where a piece of evidence is: a line of a log file, or a key of a resource's JSON
/// (kept with the line it stands on, so every report format can point at it).
/// Serialised flat into [`Evidence`] (`path`, `line`, and `pointer` for resources), so
/// the json schema of log evidence is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum Location {
    /// A 1-based line of an input (`<stdin>` for standard input).
    Line { path: String, line: u64 },
    /// A key of a resource document: its RFC 6901 JSON pointer and the line it is on.
    Pointer {
        path: String,
        line: u64,
        pointer: String,
    },
    /// A host name as one DNS server answered for it (`server` is `system` or `IP:PORT`).
    Dns { host: String, server: String },
}

impl Location {
    /// The input the evidence came from.
    pub fn path(&self) -> &str {
        match self {
            Location::Line { path, .. } | Location::Pointer { path, .. } => path,
            Location::Dns { host, .. } => host,
        }
    }

    /// The 1-based line in [`Location::path`]; 0 for a DNS name, and for a document
    /// read from Azure and not kept, whose lines nobody can open.
    pub fn line(&self) -> u64 {
        match self {
            Location::Line { line, .. } | Location::Pointer { line, .. } => *line,
            Location::Dns { .. } => 0,
        }
    }

    /// Where, as a report heads it: `path:line` (the path alone when there is no
    /// line to open), or the host name for DNS evidence.
    pub fn at(&self) -> String {
        match self {
            Location::Dns { host, .. } => host.clone(),
            _ if self.line() == 0 => self.path().to_owned(),
            _ => format!("{}:{}", self.path(), self.line()),
        }
    }

    /// The same place, with no line: the document it was on is not kept.
    pub fn without_line(&mut self) {
        if let Location::Line { line, .. } | Location::Pointer { line, .. } = self {
            *line = 0;
        }
    }

    /// What a report shows before one evidence text: its line number, or the DNS
    /// server that answered.
    pub fn row_label(&self) -> String {
        match self {
            Location::Dns { server, .. } => server.clone(),
            _ if self.line() == 0 => String::new(),
            _ => self.line().to_string(),
        }
    }

    /// The JSON pointer of a resource key, if this is one.
    pub fn pointer(&self) -> Option<&str> {
        match self {
            Location::Pointer { pointer, .. } => Some(pointer),
            Location::Line { .. } | Location::Dns { .. } => None,
        }
    }
}

impl fmt::Display for Location {
    /// `path:line`, and for a resource key ` (/json/pointer)` after it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Line { path, line: 0 } => write!(f, "{path}"),
            Location::Line { path, line } => write!(f, "{path}:{line}"),
            Location::Pointer {
                path,
                line: 0,
                pointer,
            } => write!(f, "{path} ({pointer})"),
            Location::Pointer {
                path,
                line,
                pointer,
            } => write!(f, "{path}:{line} ({pointer})"),
            Location::Dns { host, server } if server == "system" => {
                write!(f, "{host} (the system resolver)")
            }
            Location::Dns { host, server } => write!(f, "{host} (DNS server {server})"),
        }
    }
}

/// A line (or resource key) that shows why a finding was reported.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, schemars::JsonSchema)]
pub struct Evidence {
    #[serde(flatten)]
    pub location: Location,
    /// The line (or `pointer: value`), trimmed to a readable length and with secrets
    /// redacted.
    pub text: String,
    /// Where the match starts in `text` (bytes): a narrow report shortens around it.
    #[serde(skip)]
    pub at: usize,
    /// The text says how an analyser concluded, not what a line of the file holds; the
    /// location only anchors it for formats that need one.
    #[serde(skip)]
    pub computed: bool,
    /// The matched text's first and one-past-last column on the file's line (1-based,
    /// UTF-16 code units as SARIF counts them), when the scanner knows them.
    #[serde(skip)]
    pub columns: Option<(u64, u64)>,
}

impl Evidence {
    /// Evidence from line `line` of the input `path`.
    pub fn at_line(path: impl Into<String>, line: u64, text: impl Into<String>) -> Evidence {
        Evidence {
            location: Location::Line {
                path: path.into(),
                line,
            },
            text: text.into(),
            at: 0,
            computed: false,
            columns: None,
        }
    }

    /// What DNS `server` answered for `host`.
    pub fn dns(
        host: impl Into<String>,
        server: impl Into<String>,
        text: impl Into<String>,
    ) -> Evidence {
        Evidence {
            location: Location::Dns {
                host: host.into(),
                server: server.into(),
            },
            text: text.into(),
            at: 0,
            computed: false,
            columns: None,
        }
    }

    /// An analyser's note anchored at the start of `path` (see [`Evidence::computed`]).
    pub fn computed_in(path: impl Into<String>, text: impl Into<String>) -> Evidence {
        Evidence {
            computed: true,
            columns: None,
            ..Evidence::at_line(path, 1, text)
        }
    }

    /// The same evidence, its match starting at byte `at` of the text.
    #[must_use]
    pub fn matched_at(self, at: usize) -> Evidence {
        Evidence { at, ..self }
    }

    /// The same evidence, with the match's columns on the file's line.
    #[must_use]
    pub fn with_columns(self, columns: Option<(u64, u64)>) -> Evidence {
        Evidence { columns, ..self }
    }

    pub fn path(&self) -> &str {
        self.location.path()
    }

    pub fn line(&self) -> u64 {
        self.location.line()
    }
}

/// A finding an analyser computed in code (ParallelRunStep counting, deployment
/// settings): the rule id, how often, the evidence and the facts.
#[derive(Debug, Clone, PartialEq)]
pub struct Computed {
    pub rule_id: &'static str,
    pub count: u64,
    pub evidence: Vec<Evidence>,
    pub facts: BTreeMap<String, String>,
    /// Names of the resource it is about (`endpoint`, `group` …): they fill commands
    /// but are not shown as facts.
    pub names: BTreeMap<String, String>,
    /// Command templates this computation adds before the rule's own (the next step
    /// for the kind of input it looked at).
    pub commands: Vec<&'static str>,
    /// The edits that would fix it (shown by `lint --fix-suggestions`).
    pub edits: Vec<Edit>,
}

/// A change to one file that would fix a finding, as a rule's `fix:` or an analyser
/// describes it. Nothing is ever written: `lint --fix-suggestions` turns edits into the
/// edited lines it prints, against the file's text.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, schemars::JsonSchema)]
pub struct Edit {
    pub path: String,
    /// The 1-based line the change is anchored at (0 with [`Change::AddKey`]: the
    /// document's top level).
    pub line: u64,
    pub change: Change,
}

/// What an [`Edit`] does at its line.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, schemars::JsonSchema)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Change {
    /// The key on the line (`key: value`, a Python `key=value` argument), or the
    /// requirement named `key` (`- name==1.0`), takes this value or version specifier.
    SetValue { key: String, value: String },
    /// The mapping whose key is on the line gains `keys` (nested, outermost first) with
    /// this value.
    AddKey { keys: Vec<String>, value: String },
    /// The key (or the requirement) named `key` on the line goes, with the block
    /// nested under it.
    Remove { key: String },
    /// A list item (or requirement line) written like the one on the line goes after
    /// it, holding `value`.
    AddItem { value: String },
    /// `old` on the line becomes `new`.
    ReplaceText { old: String, new: String },
    /// These lines are inserted after the line (0: before the first; `u64::MAX`: at
    /// the end of the file).
    InsertLines { lines: Vec<String> },
}

/// A suppressed finding, kept in the report so nothing disappears silently.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Suppressed {
    pub rule_id: String,
    pub severity: Severity,
    pub title: String,
    pub count: u64,
    pub paths: Vec<String>,
    pub fingerprint: String,
    pub reason: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expires: Option<String>,
    pub source: String,
}

/// One rule's conclusion over all inputs.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Finding {
    pub rule_id: String,
    pub severity: Severity,
    /// Which layer of the analysis produced it, so a reader knows how specific it is.
    pub layer: Layer,
    pub family: String,
    pub title: String,
    /// How many lines matched, over all inputs.
    pub count: u64,
    /// How many inputs it was found in.
    pub inputs: u64,
    pub evidence: Vec<Evidence>,
    /// Values extracted from the evidence (server version, build date, quota numbers…).
    pub facts: BTreeMap<String, String>,
    /// Names of the resource it is about, read from resource ids: they fill commands
    /// but are not shown as facts.
    #[serde(skip)]
    pub names: BTreeMap<String, String>,
    pub remediation: String,
    /// Next commands, with known values filled in.
    pub commands: Vec<String>,
    pub docs: Vec<String>,
    /// Rules found in the same run that explain this one (this finding is their symptom).
    pub caused_by: Vec<String>,
    /// Findings in the same run that are symptoms of this one.
    pub symptoms: Vec<String>,
    /// Edits of the files read that would fix it, every one (evidence keeps a few
    /// lines; edits are not cut). Reports show them only when asked.
    #[serde(skip)]
    pub edits: Vec<Edit>,
    /// Every input it was found in, in input order.
    pub paths: Vec<String>,
    /// Stable identity across runs (rule id and the first evidence line with numbers
    /// masked), used by baselines and SARIF `partialFingerprints`.
    pub fingerprint: String,
    /// Set by the gate: this finding makes the run exit 1. Writers show the verdict;
    /// they never decide it.
    #[serde(skip)]
    pub failing: bool,
    /// Set when a baseline was given: whether the finding is in it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baseline_state: Option<BaselineState>,
}

/// The layer of the analysis a finding comes from, most specific first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Layer {
    /// A signature rule matched the input's own words (or a resource's fields).
    Signature,
    /// amldoctor's code concluded it from counts, settings or several facts together.
    Computed,
    /// The service's own error code and message, which no signature explains (or
    /// Azure's own diagnosis).
    ServiceError,
    /// The words of a failure's message place it in a cause category.
    Category,
    /// A failure no layer could name: the input's last error, quoted.
    Unrecognised,
}

impl Layer {
    /// How reports name it (`service-error`).
    pub fn name(self) -> &'static str {
        match self {
            Layer::Signature => "signature",
            Layer::Computed => "computed",
            Layer::ServiceError => "service-error",
            Layer::Category => "category",
            Layer::Unrecognised => "unrecognised",
        }
    }
}

#[cfg(test)]
impl Finding {
    /// A finding of `rule_id` for unit tests: one hit in one input, nothing else set.
    pub(crate) fn bare(rule_id: &str, severity: Severity) -> Finding {
        Finding {
            rule_id: rule_id.into(),
            severity,
            layer: Layer::Signature,
            family: "x".into(),
            title: rule_id.into(),
            count: 1,
            inputs: 1,
            evidence: Vec::new(),
            facts: BTreeMap::new(),
            names: BTreeMap::new(),
            remediation: String::new(),
            commands: Vec::new(),
            docs: Vec::new(),
            caused_by: Vec::new(),
            symptoms: Vec::new(),
            edits: Vec::new(),
            paths: Vec::new(),
            fingerprint: String::new(),
            failing: false,
            baseline_state: None,
        }
    }
}

/// A finding compared with a baseline, named as SARIF names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum BaselineState {
    /// Not in the baseline: this one trips the gate.
    New,
    /// In the baseline: reported, but does not trip the gate.
    Unchanged,
}

/// 64-bit FNV-1a; stable across platforms and releases, unlike `std`'s hasher.
pub(crate) fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// Text with the parts that change from run to run (timestamps, pids, counts, ids)
/// masked: runs of digits become `#`, hex-looking words of 8+ characters become `#`.
pub(crate) fn normalize_for_fingerprint(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        let hexish = word.len() >= 8
            && word.bytes().all(|b| b.is_ascii_hexdigit() || b == b'-')
            && word.bytes().any(|b| b.is_ascii_digit());
        if hexish {
            out.push('#');
            continue;
        }
        let mut in_digits = false;
        for c in word.chars() {
            if c.is_ascii_digit() {
                if !in_digits {
                    out.push('#');
                }
                in_digits = true;
            } else {
                in_digits = false;
                out.push(c);
            }
        }
    }
    out
}

/// The fingerprint of a finding of `rule_id` whose first evidence line is `text`.
pub(crate) fn fingerprint(rule_id: &str, text: &str) -> String {
    let mut key = rule_id.as_bytes().to_vec();
    key.push(0);
    key.extend(normalize_for_fingerprint(text).as_bytes());
    format!("{:016x}", fnv1a(&key))
}

/// An input that was not analysed.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct NotAnalysed {
    pub path: String,
    pub reason: String,
    /// The input was named by the user and could not be used: the run exits 2, and
    /// JUnit shows it as an error.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub error: bool,
}

impl NotAnalysed {
    pub fn new(path: &str, reason: impl Into<String>) -> NotAnalysed {
        NotAnalysed {
            path: path.to_owned(),
            reason: reason.into(),
            error: false,
        }
    }

    /// An input the run could not use although the user named it.
    pub fn error(path: &str, reason: impl Into<String>) -> NotAnalysed {
        NotAnalysed {
            error: true,
            ..NotAnalysed::new(path, reason)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprints_ignore_what_changes_between_runs() {
        let a = fingerprint(
            "gunicorn-worker-oom-killed",
            "2025-04-26 11:50:37,650 E [12] gunicorn.error - Worker (pid:294) was sent SIGKILL! Perhaps out of memory?",
        );
        let b = fingerprint(
            "gunicorn-worker-oom-killed",
            "2025-05-02 08:01:11,002 E [7]  gunicorn.error - Worker (pid:81) was sent SIGKILL! Perhaps out of memory?",
        );
        assert_eq!(a, b);
        assert_ne!(
            a,
            fingerprint(
                "gunicorn-worker-timeout",
                "2025-04-26 11:50:37,650 E [12] gunicorn.error - Worker (pid:294) was sent SIGKILL! Perhaps out of memory?"
            )
        );
        assert_ne!(
            a,
            fingerprint(
                "gunicorn-worker-oom-killed",
                "Worker with pid 81 was terminated due to signal 9"
            )
        );
        assert_eq!(a.len(), 16);
        assert_eq!(
            normalize_for_fingerprint(
                "traceId 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01 at 12:30"
            ),
            "traceId # at #:#"
        );
        // Pinned: a change in the hash would silently invalidate every baseline file.
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }

    #[test]
    fn severity_order_and_gate() {
        assert!(Severity::Error > Severity::Warning && Severity::Warning > Severity::Info);
        let table = [
            (FailOn::Error, [false, false, true]),
            (FailOn::Warning, [false, true, true]),
            (FailOn::Info, [true, true, true]),
            (FailOn::Never, [false, false, false]),
        ];
        for (fail_on, expected) in table {
            let got =
                [Severity::Info, Severity::Warning, Severity::Error].map(|s| fail_on.trips(s));
            assert_eq!(got, expected, "{fail_on:?}");
        }
    }
}
