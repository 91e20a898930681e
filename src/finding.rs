//! Findings: what the engine concludes, ready for any report format.

use std::collections::BTreeMap;
use std::fmt;

use serde::Serialize;

/// How serious a finding is. Ordered: `Info < Warning < Error`.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Serialize)]
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

/// A line that shows why a finding was reported.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Evidence {
    /// The input the line came from (`<stdin>` for standard input).
    pub path: String,
    /// 1-based line number.
    pub line: u64,
    /// The line, trimmed to a readable length and with secrets redacted.
    pub text: String,
}

/// One rule's conclusion over all inputs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    pub rule_id: String,
    pub severity: Severity,
    pub family: String,
    pub title: String,
    /// How many lines matched, over all inputs.
    pub count: u64,
    /// How many inputs it was found in.
    pub inputs: u64,
    pub evidence: Vec<Evidence>,
    /// Values extracted from the evidence (server version, build date, quota numbers…).
    pub facts: BTreeMap<String, String>,
    pub remediation: String,
    /// Next commands, with known values filled in.
    pub commands: Vec<String>,
    pub docs: Vec<String>,
    /// Rules found in the same run that explain this one (this finding is their symptom).
    pub caused_by: Vec<String>,
    /// Findings in the same run that are symptoms of this one.
    pub symptoms: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

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
