//! Markdown for pull-request comments and CI job summaries: a verdict line, a findings
//! table, then one section per finding with evidence, the fix and the commands.

use std::fmt::Write as _;
use std::io::{self, Write};

use crate::finding::{BaselineState, Layer, Severity};
use crate::rules::template::MissingName;

use super::findings::Report;
use super::markdown_escape::{cell, code, fence, placeholders_as_code};
use super::plural;

fn icon(s: Severity) -> &'static str {
    match s {
        Severity::Error => "🔴 error",
        Severity::Warning => "🟠 warning",
        Severity::Info => "🔵 info",
    }
}

/// The largest comment GitHub takes on a pull request (65,536 characters; counted here
/// in bytes, which are never fewer, so the same number also holds a job summary's
/// byte limit).
pub(crate) const PR_COMMENT_LIMIT: usize = 65_536;

/// How the markdown writer writes (`--markdown-limit`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MarkdownOptions {
    /// The most bytes the document may have; 0 for no limit.
    pub limit: usize,
}

impl Default for MarkdownOptions {
    fn default() -> MarkdownOptions {
        MarkdownOptions {
            limit: PR_COMMENT_LIMIT,
        }
    }
}

/// How much of a report a cut document shows. Every finding keeps its table row; the
/// sections, the suggested edits, the DNS answers and the input list are what go.
#[derive(Debug, Clone, Copy)]
struct Cut {
    /// Findings with a section (the first ones: errors first).
    findings: usize,
    /// Input rows.
    inputs: usize,
    /// The `--markdown-limit` the document was cut to.
    limit: usize,
    /// Whether the findings table is kept (when not even it fits, only the summary is).
    table: bool,
}

/// Inputs a cut document lists.
const CUT_INPUTS: usize = 50;

/// The report in markdown, within `--markdown-limit` bytes: a report too long
/// keeps its summary, the first findings that fit (table rows and sections) and a line
/// saying how many were left out and how to get them all.
pub(crate) fn write(out: &mut dyn Write, r: &Report, options: &MarkdownOptions) -> io::Result<()> {
    let full = render(r, None)?;
    let limit = options.limit;
    if limit == 0 || full.len() <= limit {
        return out.write_all(full.as_bytes());
    }
    let inputs = CUT_INPUTS.min(r.inputs.len());
    let fits = |k: usize| -> io::Result<Option<String>> {
        let text = render(
            r,
            Some(Cut {
                findings: k,
                inputs,
                limit,
                table: true,
            }),
        )?;
        Ok((text.len() <= limit).then_some(text))
    };
    // The most sections that fit: fewer always fit when more do.
    let (mut lo, mut hi) = (0, r.findings.len());
    let mut best = fits(0)?;
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        match fits(mid)? {
            Some(text) => {
                lo = mid;
                best = Some(text);
            }
            None => hi = mid - 1,
        }
    }
    match best {
        Some(text) => out.write_all(text.as_bytes()),
        // Not even the summary and the table fit: the summary and the note alone.
        None => {
            let mut buf: Vec<u8> = Vec::new();
            write_summary(&mut buf, r)?;
            write_cut_note(
                &mut buf,
                r,
                Cut {
                    findings: 0,
                    inputs: 0,
                    limit,
                    table: false,
                },
            )?;
            out.write_all(&buf)
        }
    }
}

fn render(r: &Report, cut: Option<Cut>) -> io::Result<String> {
    let mut buf: Vec<u8> = Vec::new();
    let out: &mut dyn Write = &mut buf;
    write_summary(out, r)?;
    for s in r.sections.iter() {
        s.write_markdown_head(out)?;
    }
    let shown = cut.map_or(r.findings.len(), |c| c.findings);
    if r.findings.is_empty() {
        write_nothing_found(out, r)?;
    } else {
        write_finding_table(out, r)?;
        for f in &r.findings[..shown] {
            write_finding(out, f)?;
        }
        write_missing_names(out, &r.missing_names)?;
    }
    if let Some(c) = cut {
        write_cut_note(out, r, c)?;
    }
    if cut.is_none() {
        write_fix_suggestions(out, r)?;
    }
    if let Some((n, _)) = r.not_shown {
        writeln!(
            out,
            "_{} not shown: `--min-severity info` shows {}._\n",
            plural(n, "finding", "findings"),
            if n == 1 { "it" } else { "them" }
        )?;
    }
    write_suppressed_and_notices(out, r)?;
    if cut.is_none() {
        write_dns(out, r)?;
    }
    write_inputs(out, r, cut.map(|c| c.inputs))?;
    String::from_utf8(buf).map_err(io::Error::other)
}

/// Says what a cut document left out and where the whole report goes.
fn write_cut_note(out: &mut dyn Write, r: &Report, c: Cut) -> io::Result<()> {
    let mut left: Vec<String> = Vec::new();
    let sections = r.findings.len() - c.findings;
    if sections > 0 && c.table {
        left.push(format!(
            "the sections of {} (the table above lists every one)",
            plural(sections as u64, "finding", "findings")
        ));
    } else if sections > 0 {
        left.push(format!(
            "the findings table and the sections of {} (the summary above counts them)",
            plural(sections as u64, "finding", "findings")
        ));
    }
    if let Some(s) = r.sections.fix_suggestions()
        && !s.files.is_empty()
    {
        left.push(format!(
            "the suggested edits of {}",
            plural(s.files.len() as u64, "file", "files")
        ));
    }
    if !r.sections.dns().is_empty() {
        left.push("the DNS answers".to_owned());
    }
    if r.inputs.len() > c.inputs {
        left.push(format!(
            "{} of the input list",
            plural((r.inputs.len() - c.inputs) as u64, "row", "rows")
        ));
    }
    writeln!(
        out,
        "> **Cut to fit {} bytes**: left out are {}. The whole report: `--output-file markdown=amldoctor.md` (a file is never cut), or for a job summary (`$GITHUB_STEP_SUMMARY`, up to 1 MiB) `--markdown-limit 1048576`.\n",
        c.limit,
        left.join("; "),
    )
}

/// `lint --fix-suggestions`: the diff in a fenced block, then the findings without one.
fn write_fix_suggestions(out: &mut dyn Write, r: &Report) -> io::Result<()> {
    let Some(s) = r.sections.fix_suggestions() else {
        return Ok(());
    };
    writeln!(out, "**Suggested edits** (no file was changed)\n")?;
    if !s.files.is_empty() {
        writeln!(out, "{}", fence("diff", &super::diff::lines(s).join("\n")))?;
    }
    for w in &s.without_edit {
        writeln!(out, "- {}", w.line())?;
    }
    if !s.without_edit.is_empty() {
        writeln!(out)?;
    }
    Ok(())
}

/// What each DNS server answered for each host.
fn write_dns(out: &mut dyn Write, r: &Report) -> io::Result<()> {
    if r.sections.dns().is_empty() {
        return Ok(());
    }
    writeln!(
        out,
        "**DNS answers**\n\n| host | role | server | answer |\n|---|---|---|---|"
    )?;
    for o in r.sections.dns() {
        writeln!(
            out,
            "| `{}` | {} | `{}` | {} |",
            code(&o.host),
            o.role.name(),
            code(&o.server),
            cell(&o.answer_text())
        )?;
    }
    writeln!(out)
}

/// The values the commands still need, and where to get each.
pub(super) fn write_missing_names(out: &mut dyn Write, missing: &[MissingName]) -> io::Result<()> {
    if missing.is_empty() {
        return Ok(());
    }
    writeln!(out, "**Fill in before running the commands above**\n")?;
    for m in missing {
        writeln!(out, "- `{}`: {}", m.placeholder, m.filled_by)?;
    }
    writeln!(out)
}

fn write_summary(out: &mut dyn Write, r: &Report) -> io::Result<()> {
    let s = &r.summary;
    let verdict = if s.failed {
        "❌ gate failed"
    } else {
        "✅ gate passed"
    };
    writeln!(
        out,
        "## amldoctor: {}, {}, {} — {verdict} (`--fail-on {}`)\n",
        plural(s.errors, "error", "errors"),
        plural(s.warnings, "warning", "warnings"),
        plural(s.infos, "info", "info"),
        s.fail_on
    )?;
    let mut extra = Vec::new();
    if s.suppressed > 0 {
        extra.push(format!("{} suppressed", s.suppressed));
    }
    if s.baseline_unchanged > 0 {
        extra.push(format!(
            "{} unchanged from the baseline",
            s.baseline_unchanged
        ));
    }
    writeln!(
        out,
        "{} analysed, {} not analysed, {} rules{}.\n",
        plural(s.inputs_analysed, "input", "inputs"),
        s.inputs_not_analysed,
        s.rules,
        if extra.is_empty() {
            String::new()
        } else {
            format!("; {}", extra.join(", "))
        }
    )?;
    Ok(())
}

fn write_nothing_found(out: &mut dyn Write, r: &Report) -> io::Result<()> {
    writeln!(out, "No known problem found.\n")?;
    if !r.last_error_lines.is_empty() {
        let lines: Vec<String> = r
            .last_error_lines
            .iter()
            .map(|e| format!("{}: {}", e.location, e.text))
            .collect();
        writeln!(
            out,
            "The last error-like lines seen:\n\n{}",
            fence("text", &lines.join("\n"))
        )?;
    }
    Ok(())
}

fn write_finding_table(out: &mut dyn Write, r: &Report) -> io::Result<()> {
    writeln!(
        out,
        "| severity | rule | finding | where | hits |\n|---|---|---|---|---:|"
    )?;
    for f in &r.findings {
        let at = f
            .evidence
            .first()
            .map(|e| format!("`{}`", code(&e.location.at())))
            .unwrap_or_default();
        let mut title = cell(&f.title);
        if f.baseline_state == Some(BaselineState::Unchanged) {
            title.push_str(" *(baseline)*");
        }
        if !matches!(f.layer, Layer::Signature | Layer::Computed) {
            let _ = write!(title, " *({})*", f.layer.name());
        }
        if !f.caused_by.is_empty() {
            let _ = write!(
                title,
                " — symptom of `{}`",
                f.caused_by
                    .iter()
                    .map(|c| code(c))
                    .collect::<Vec<_>>()
                    .join("`, `")
            );
        }
        writeln!(
            out,
            "| {} | `{}` | {} | {} | {} |",
            icon(f.severity),
            code(&f.rule_id),
            title,
            at,
            f.count
        )?;
    }
    writeln!(out)?;
    Ok(())
}

fn write_finding(out: &mut dyn Write, f: &crate::finding::Finding) -> io::Result<()> {
    writeln!(
        out,
        "### {} `{}`: {}\n",
        icon(f.severity),
        f.rule_id,
        f.title
    )?;
    let lines: Vec<String> = f
        .evidence
        .iter()
        .map(|e| format!("{}: {}", e.location, e.text))
        .collect();
    write!(out, "{}", fence("text", &lines.join("\n")))?;
    if !f.facts.is_empty() {
        let facts: Vec<String> = f
            .facts
            .iter()
            .map(|(k, v)| format!("`{k}` = `{}`", v.replace('`', "'")))
            .collect();
        writeln!(out, "\nFacts: {}", facts.join(", "))?;
    }
    writeln!(
        out,
        "\n**Fix**\n\n{}\n",
        placeholders_as_code(f.remediation.trim_end())
    )?;
    if !f.commands.is_empty() {
        write!(out, "**Run**\n\n{}", fence("sh", &f.commands.join("\n")))?;
    }
    if !f.docs.is_empty() {
        let links: Vec<String> = f.docs.iter().map(|d| format!("<{d}>")).collect();
        writeln!(out, "\nDocs: {}", links.join(" · "))?;
    }
    writeln!(out)?;
    Ok(())
}

fn write_suppressed_and_notices(out: &mut dyn Write, r: &Report) -> io::Result<()> {
    if !r.suppressed.is_empty() {
        writeln!(
            out,
            "### Suppressed\n\n| rule | reason | until | declared in |\n|---|---|---|---|"
        )?;
        for x in &r.suppressed {
            writeln!(
                out,
                "| `{}` | {} | {} | {} |",
                code(&x.rule_id),
                cell(&x.reason),
                x.expires.as_deref().unwrap_or("—"),
                cell(&x.source)
            )?;
        }
        writeln!(out)?;
    }
    for n in &r.notices {
        writeln!(out, "> ⚠️ {}\n", cell(n))?;
    }
    if !r.not_analysed.is_empty() {
        writeln!(
            out,
            "> ⚠️ {} input(s) could not be analysed (listed under Inputs); the verdict covers only the rest.\n",
            r.not_analysed.len()
        )?;
    }
    Ok(())
}

/// What was read; a cut document lists the first `most` inputs.
fn write_inputs(out: &mut dyn Write, r: &Report, most: Option<usize>) -> io::Result<()> {
    writeln!(
        out,
        "<details><summary>Inputs</summary>\n\n| input | kind | lines |\n|---|---|---:|"
    )?;
    let shown = most.unwrap_or(r.inputs.len()).min(r.inputs.len());
    for i in &r.inputs[..shown] {
        writeln!(out, "| `{}` | {} | {} |", code(&i.path), i.kind, i.lines)?;
    }
    if shown < r.inputs.len() {
        writeln!(out, "| … and {} more | | |", r.inputs.len() - shown)?;
    }
    for res in &r.resources {
        writeln!(
            out,
            "| `{}{}` | {} `{}` | |",
            code(&res.path),
            code(&res.pointer),
            res.kind,
            code(res.name.as_deref().unwrap_or("")),
        )?;
    }
    for n in &r.not_analysed {
        writeln!(
            out,
            "| `{}` | not analysed: {} | |",
            code(&n.path),
            cell(&n.reason)
        )?;
    }
    writeln!(out, "\n</details>")
}
