//! The report every findings command prints (`diagnose`, `check`): findings plus the
//! sections a command fills (inputs read, resources read, ParallelRunStep summaries),
//! and its table rendering. Writers of the other formats read the same [`Report`].

use std::io::{self, Write};

use serde::Serialize;

use crate::evidence::{DocumentKind, KindSource};
use crate::finding::{Evidence, FailOn, Finding, Severity};

use super::plural;
use super::style::Style;

/// One analysed input and the kind it was read as.
#[derive(Debug, Clone, Serialize)]
pub struct InputReport {
    pub path: String,
    pub kind: DocumentKind,
    pub kind_source: KindSource,
    pub lines: u64,
    pub bytes: u64,
    /// Lines longer than the scanner's buffer, scanned in pieces.
    pub long_lines: u64,
    /// The ParallelRunStep tree (its root) the input belongs to, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prs_tree: Option<String>,
}

/// An input that was not analysed.
#[derive(Debug, Clone, Serialize)]
pub struct NotAnalysed {
    pub path: String,
    pub reason: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    pub errors: u64,
    pub warnings: u64,
    pub infos: u64,
    /// Findings taken out by `--ignore` or a suppression.
    pub suppressed: u64,
    /// Findings that are in the baseline (reported, not failing).
    pub baseline_unchanged: u64,
    pub inputs_analysed: u64,
    pub inputs_not_analysed: u64,
    pub rules: u64,
    pub fail_on: FailOn,
    /// Whether the gate failed (exit code 1).
    pub failed: bool,
}

/// A rule as report writers need it (JUnit lists passing rules too).
#[derive(Debug, Clone, Serialize)]
pub struct RuleRef {
    pub id: String,
    pub family: String,
    pub severity: Severity,
    pub title: String,
    pub reads: Vec<DocumentKind>,
}

/// A resource read from JSON, and what it was read as.
#[derive(Debug, Clone, Serialize)]
pub struct ResourceReport {
    pub path: String,
    /// Where in the file (`/value/0` for a list element; empty for the whole file).
    pub pointer: String,
    pub kind: crate::evidence::resource::ResourceKind,
    pub shape: crate::evidence::resource::Shape,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
}

/// Everything a findings command reports. Command-neutral: sections a command does
/// not fill stay empty.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// The command that made it (`diagnose`, `check`).
    #[serde(skip)]
    pub command: &'static str,
    pub summary: Summary,
    pub findings: Vec<Finding>,
    pub suppressed: Vec<crate::gate::Suppressed>,
    /// Expired or unused suppressions and similar things the user must know.
    pub notices: Vec<String>,
    pub inputs: Vec<InputReport>,
    /// Resources read from JSON inputs.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub resources: Vec<ResourceReport>,
    pub not_analysed: Vec<NotAnalysed>,
    /// When no rule fired: the last error-like lines seen, so the user has a lead.
    pub last_error_lines: Vec<Evidence>,
    /// One summary per ParallelRunStep log tree found among the inputs.
    pub prs: Vec<crate::prs::analyze::PrsSummary>,
    /// The rules that were applied (not serialised; JUnit uses it for passing cases).
    #[serde(skip)]
    pub rules: Vec<RuleRef>,
}

fn severity_label(style: Style, s: Severity) -> String {
    match s {
        Severity::Error => style.red("error"),
        Severity::Warning => style.yellow("warning"),
        Severity::Info => style.cyan("info"),
    }
}

/// Human-readable output: findings grouped by severity, causes before symptoms.
pub fn write_table(out: &mut dyn Write, r: &Report, style: Style, quiet: bool) -> io::Result<()> {
    if quiet {
        for f in &r.findings {
            let at = f
                .evidence
                .first()
                .map(|e| format!("{}:{}", e.path(), e.line()))
                .unwrap_or_default();
            writeln!(out, "{}\t{}\t{}\t{}", f.severity, f.rule_id, at, f.title)?;
        }
        return Ok(());
    }
    let s = &r.summary;
    for p in &r.prs {
        super::prs_table::write(out, p, style)?;
    }
    let mut previous: Option<Severity> = None;
    for f in &r.findings {
        if previous != Some(f.severity) {
            let header = match f.severity {
                Severity::Error => "Errors",
                Severity::Warning => "Warnings",
                Severity::Info => "Information",
            };
            writeln!(out, "{}", style.bold(&format!("── {header} ──")))?;
            writeln!(out)?;
            previous = Some(f.severity);
        }
        write_finding(out, f, style)?;
    }
    if r.findings.is_empty() && s.inputs_analysed == 0 {
        writeln!(
            out,
            "{}",
            style.yellow("Nothing was analysed: no input could be read.")
        )?;
        writeln!(out)?;
    } else if r.findings.is_empty() {
        writeln!(
            out,
            "{}",
            style.green(&format!(
                "No known problem found in {} ({} rules).",
                plural(s.inputs_analysed, "input", "inputs"),
                s.rules
            ))
        )?;
        if !r.last_error_lines.is_empty() {
            writeln!(out)?;
            writeln!(out, "The last error-like lines seen, in case they help:")?;
            for e in &r.last_error_lines {
                writeln!(out, "  {}:{}: {}", e.path(), e.line(), e.text)?;
            }
        }
        writeln!(out)?;
    }
    if !r.suppressed.is_empty() {
        writeln!(out, "{}", style.bold("Suppressed"))?;
        for x in &r.suppressed {
            let until = x
                .expires
                .as_ref()
                .map(|e| format!(", until {e}"))
                .unwrap_or_default();
            writeln!(
                out,
                "  {}[{}] {} ({}{until}): {}",
                x.severity, x.rule_id, x.title, x.source, x.reason
            )?;
        }
        writeln!(out)?;
    }
    for n in &r.notices {
        writeln!(out, "{} {n}", style.yellow("notice:"))?;
    }
    if !r.notices.is_empty() {
        writeln!(out)?;
    }
    writeln!(out, "{}", style.bold("Inputs"))?;
    for i in &r.inputs {
        let how = match i.kind_source {
            KindSource::Detected => "detected",
            KindSource::Forced => "--kind",
            KindSource::PrsTree => "ParallelRunStep tree",
        };
        let long = if i.long_lines > 0 {
            format!(
                ", {} scanned in pieces",
                plural(i.long_lines, "overlong line", "overlong lines")
            )
        } else {
            String::new()
        };
        writeln!(
            out,
            "  {}  {} ({how}), {}{long}",
            i.path,
            i.kind,
            plural(i.lines, "line", "lines")
        )?;
    }
    for res in &r.resources {
        let at = if res.pointer.is_empty() {
            String::new()
        } else {
            format!(" at {}", res.pointer)
        };
        let shape = match res.shape {
            crate::evidence::resource::Shape::Arm => "ARM shape",
            crate::evidence::resource::Shape::AzCli => "az CLI shape",
        };
        writeln!(
            out,
            "  {}{at}  {} {} ({shape})",
            res.path,
            res.kind,
            res.name.as_deref().unwrap_or("(unnamed)")
        )?;
    }
    for n in &r.not_analysed {
        writeln!(
            out,
            "  {}  {}",
            n.path,
            style.yellow(&format!("not analysed: {}", n.reason))
        )?;
    }
    writeln!(out)?;
    let verdict = if s.failed {
        style.red(&format!("gate failed (--fail-on {})", s.fail_on))
    } else {
        style.green(&format!("gate passed (--fail-on {})", s.fail_on))
    };
    let mut extra = String::new();
    if s.suppressed > 0 {
        extra.push_str(&format!(", {} suppressed", s.suppressed));
    }
    if s.baseline_unchanged > 0 {
        extra.push_str(&format!(", {} in the baseline", s.baseline_unchanged));
    }
    writeln!(
        out,
        "{}, {}, {} in {}{extra}: {verdict}",
        plural(s.errors, "error", "errors"),
        plural(s.warnings, "warning", "warnings"),
        plural(s.infos, "info", "infos"),
        plural(s.inputs_analysed, "input", "inputs"),
    )?;
    Ok(())
}

fn write_finding(out: &mut dyn Write, f: &Finding, style: Style) -> io::Result<()> {
    writeln!(
        out,
        "{}{} {}",
        severity_label(style, f.severity),
        style.bold(&format!("[{}]", f.rule_id)),
        style.bold(&f.title)
    )?;
    if f.baseline_state == Some(crate::finding::BaselineState::Unchanged) {
        writeln!(
            out,
            "  {}",
            style.dim("in the baseline: reported, does not fail the gate")
        )?;
    }
    if !f.caused_by.is_empty() {
        writeln!(out, "  symptom of: {}", f.caused_by.join(", "))?;
    }
    let hits = if f.inputs > 1 {
        format!("{} in {} inputs", plural(f.count, "hit", "hits"), f.inputs)
    } else {
        plural(f.count, "hit", "hits")
    };
    if let Some(first) = f.evidence.first() {
        writeln!(
            out,
            "  {} {}:{} ({hits})",
            style.dim("-->"),
            first.path(),
            first.line()
        )?;
    }
    let width = f
        .evidence
        .iter()
        .map(|e| e.line().to_string().len())
        .max()
        .unwrap_or(1);
    let mut last_path: Option<&str> = None;
    for e in &f.evidence {
        if last_path.is_some_and(|p| p != e.path()) {
            writeln!(out, "  {} {}", style.dim("-->"), e.path())?;
        }
        last_path = Some(e.path());
        match e.location.pointer() {
            Some(p) => writeln!(
                out,
                "  {:>width$} {} {p}: {}",
                e.line(),
                style.dim("|"),
                e.text
            )?,
            None => writeln!(out, "  {:>width$} {} {}", e.line(), style.dim("|"), e.text)?,
        }
    }
    if !f.facts.is_empty() {
        let facts: Vec<String> = f.facts.iter().map(|(k, v)| format!("{k}={v}")).collect();
        writeln!(out, "  facts: {}", facts.join(", "))?;
    }
    if !f.symptoms.is_empty() {
        writeln!(out, "  causes: {}", f.symptoms.join(", "))?;
    }
    writeln!(out, "  {}", style.bold("fix:"))?;
    for line in f.remediation.lines() {
        writeln!(out, "    {line}")?;
    }
    if !f.commands.is_empty() {
        writeln!(out, "  {}", style.bold("run:"))?;
        for c in &f.commands {
            writeln!(out, "    {}", style.cyan(c))?;
        }
    }
    for d in &f.docs {
        writeln!(out, "  docs: {d}")?;
    }
    writeln!(out)?;
    Ok(())
}
