//! The human-readable table: findings grouped by severity with their evidence, fix
//! and next commands, then what was read and the gate's verdict.

use std::fmt::Write as _;
use std::io::{self, Write};

use crate::evidence::KindSource;
use crate::finding::{Finding, Severity};

use super::findings::Report;
use super::plural;
use super::style::Style;

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
        return write_quiet(out, r);
    }
    for p in &r.prs {
        super::prs_table::write(out, p, style)?;
    }
    write_findings(out, r, style)?;
    write_missing_names(out, r, style)?;
    write_nothing_found(out, r, style)?;
    write_suppressed(out, r, style)?;
    write_inputs(out, r, style)?;
    write_verdict(out, r, style)
}

/// `-q`: one tab-separated line a finding.
fn write_quiet(out: &mut dyn Write, r: &Report) -> io::Result<()> {
    for f in &r.findings {
        let at = f
            .evidence
            .first()
            .map(|e| format!("{}:{}", e.path(), e.line()))
            .unwrap_or_default();
        writeln!(out, "{}\t{}\t{}\t{}", f.severity, f.rule_id, at, f.title)?;
    }
    Ok(())
}

fn write_findings(out: &mut dyn Write, r: &Report, style: Style) -> io::Result<()> {
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
    Ok(())
}

/// Once, under the findings: the values the commands above still need and where the
/// user gets each.
fn write_missing_names(out: &mut dyn Write, r: &Report, style: Style) -> io::Result<()> {
    if r.missing_names.is_empty() {
        return Ok(());
    }
    writeln!(
        out,
        "{}",
        style.bold("Fill in before running the commands above:")
    )?;
    let width = r
        .missing_names
        .iter()
        .map(|m| m.placeholder.len())
        .max()
        .unwrap_or(0);
    for m in &r.missing_names {
        writeln!(out, "  {:width$}  {}", m.placeholder, m.filled_by)?;
    }
    writeln!(out)
}

fn write_nothing_found(out: &mut dyn Write, r: &Report, style: Style) -> io::Result<()> {
    let s = &r.summary;
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
    Ok(())
}

fn write_suppressed(out: &mut dyn Write, r: &Report, style: Style) -> io::Result<()> {
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
    Ok(())
}

fn write_inputs(out: &mut dyn Write, r: &Report, style: Style) -> io::Result<()> {
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
    writeln!(out)
}

fn write_verdict(out: &mut dyn Write, r: &Report, style: Style) -> io::Result<()> {
    let s = &r.summary;
    let verdict = if s.failed {
        style.red(&format!("gate failed (--fail-on {})", s.fail_on))
    } else {
        style.green(&format!("gate passed (--fail-on {})", s.fail_on))
    };
    let mut extra = String::new();
    if s.suppressed > 0 {
        let _ = write!(extra, ", {} suppressed", s.suppressed);
    }
    if s.baseline_unchanged > 0 {
        let _ = write!(extra, ", {} in the baseline", s.baseline_unchanged);
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
