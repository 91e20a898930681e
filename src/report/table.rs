//! The human-readable table: findings grouped by severity with their evidence, fix
//! and next commands, then what was read and the gate's verdict.

use std::fmt::Write as _;
use std::io::{self, Write};

use crate::evidence::KindSource;
use crate::finding::{Evidence, Finding, Severity};
use crate::rules::template::MissingName;

use super::findings::Report;
use super::style::Style;
use super::text;
use super::{Detail, plural};

fn severity_label(style: Style, s: Severity) -> String {
    match s {
        Severity::Error => style.red("error"),
        Severity::Warning => style.yellow("warning"),
        Severity::Info => style.cyan("info"),
    }
}

/// Human-readable output: findings grouped by severity, causes before symptoms.
pub(crate) fn write_table(
    out: &mut dyn Write,
    r: &Report,
    style: Style,
    detail: Detail,
) -> io::Result<()> {
    if detail == Detail::Quiet {
        return write_quiet(out, r);
    }
    for s in r.sections.iter() {
        s.write_table_head(out, style, detail)?;
    }
    write_findings(out, r, style)?;
    if !r.missing_names.is_empty() {
        write_missing_names(out, &r.missing_names, style)?;
        writeln!(out)?;
    }
    write_nothing_found(out, r, style)?;
    write_fix_suggestions(out, r, style)?;
    write_not_shown(out, r, style)?;
    write_suppressed(out, r, style)?;
    super::dns_table::write(out, r.sections.dns(), style)?;
    write_inputs(out, r, style, detail)?;
    write_verdict(out, r, style)
}

/// `-q`: one tab-separated line a finding: severity, rule, where, title, facts; then,
/// with `--fix-suggestions`, the diff alone.
fn write_quiet(out: &mut dyn Write, r: &Report) -> io::Result<()> {
    for f in &r.findings {
        let at = f
            .evidence
            .first()
            .map(|e| e.location.at())
            .unwrap_or_default();
        // The facts are what -q keeps of the detail: the module, the VM size, the limit.
        let facts: Vec<String> = f.facts.iter().map(|(k, v)| format!("{k}={v}")).collect();
        // Tab-separated; the facts column only when there are facts (no trailing tab).
        let facts = if facts.is_empty() {
            String::new()
        } else {
            format!("\t{}", facts.join(", "))
        };
        writeln!(
            out,
            "{}\t{}\t{}\t{}{facts}",
            f.severity, f.rule_id, at, f.title
        )?;
    }
    // Asked for with -q, the edits follow as the bare diff, ready for `patch -p0`.
    if let Some(s) = r.sections.fix_suggestions() {
        for line in super::diff::lines(s) {
            writeln!(out, "{line}")?;
        }
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

/// `lint --fix-suggestions`: the edited lines per file, then the findings without one.
fn write_fix_suggestions(out: &mut dyn Write, r: &Report, style: Style) -> io::Result<()> {
    let Some(s) = r.sections.fix_suggestions() else {
        return Ok(());
    };
    writeln!(
        out,
        "{}",
        style.bold("── Suggested edits (no file was changed) ──")
    )?;
    writeln!(out)?;
    if s.files.is_empty() {
        writeln!(out, "No finding shown has an edit lint can suggest.")?;
    }
    for line in super::diff::lines(s) {
        let shown = if line.starts_with("---") || line.starts_with("+++") {
            style.bold(&line)
        } else if line.starts_with("@@") {
            style.cyan(&line)
        } else if line.starts_with('-') {
            style.red(&line)
        } else {
            style.green(&line)
        };
        writeln!(out, "{shown}")?;
    }
    writeln!(out)?;
    for w in &s.without_edit {
        for line in text::wrap(&w.line(), style.width(), "", "  ") {
            writeln!(out, "{}", style.dim(&line))?;
        }
    }
    if !s.without_edit.is_empty() {
        writeln!(out)?;
    }
    Ok(())
}

/// How many findings `--min-severity` left out, and how to see them.
fn write_not_shown(out: &mut dyn Write, r: &Report, style: Style) -> io::Result<()> {
    if let Some((n, min)) = r.not_shown {
        let lower = if min == Severity::Error {
            "info or warning"
        } else {
            "info"
        };
        let text = format!(
            "{} not shown ({lower}): --min-severity info shows {}.",
            plural(n, "finding", "findings"),
            if n == 1 { "it" } else { "them" }
        );
        for line in text::wrap(&text, style.width(), "", "") {
            writeln!(out, "{}", style.dim(&line))?;
        }
        writeln!(out)?;
    }
    Ok(())
}

/// Once, under the findings: the values the commands above still need and where the
/// user gets each.
pub(super) fn write_missing_names(
    out: &mut dyn Write,
    missing: &[MissingName],
    style: Style,
) -> io::Result<()> {
    if missing.is_empty() {
        return Ok(());
    }
    writeln!(
        out,
        "{}",
        style.bold("Fill in before running the commands above:")
    )?;
    let width = missing
        .iter()
        .map(|m| m.placeholder.len())
        .max()
        .unwrap_or(0);
    for m in missing {
        let first = format!("  {:width$}  ", m.placeholder);
        let rest = " ".repeat(first.len());
        write_lines(out, &text::wrap(&m.filled_by, style.width(), &first, &rest))?;
    }
    Ok(())
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
                "{} in {} ({} rules).",
                if r.not_shown.is_some() {
                    "No error or warning found"
                } else {
                    "No known problem found"
                },
                plural(s.inputs_analysed, "input", "inputs"),
                s.rules
            ))
        )?;
        if !r.last_error_lines.is_empty() {
            writeln!(out)?;
            writeln!(out, "The last error-like lines seen, in case they help:")?;
            for e in &r.last_error_lines {
                // Where, then the line itself below it: up to three lines of it.
                writeln!(out, "  {}:{}", e.path(), e.line())?;
                let mut lines = text::wrap(e.text.trim(), style.width(), "    ", "    ");
                if lines.len() > 3 {
                    lines.truncate(3);
                    lines[2].push_str(" …");
                }
                write_lines(out, &lines)?;
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

/// One line of the Inputs list: a path and what is said of it, or a whole tree.
enum InputRow<'a> {
    Plain {
        path: &'a str,
        label: String,
        note: bool,
    },
    Tree(&'a str),
}

fn write_inputs(out: &mut dyn Write, r: &Report, style: Style, detail: Detail) -> io::Result<()> {
    // Hosts named with --host alone: the DNS answers above are all there is.
    if r.inputs.is_empty() && r.resources.is_empty() && r.not_analysed.is_empty() {
        return Ok(());
    }
    writeln!(out, "{}", style.bold("Inputs"))?;
    let rows = input_rows(r, detail);
    // Labels start in one column: the widest at which every path no wider still has
    // its label on its line; a wider path puts its label below it.
    let width = style.width();
    let mut sizes: Vec<(usize, usize)> = rows
        .iter()
        .filter_map(|row| match row {
            InputRow::Plain { path, label, .. } => {
                Some((text::columns(path), text::columns(label)))
            }
            InputRow::Tree(_) => None,
        })
        .collect();
    // A label too long for any line goes below its path whatever the column.
    sizes.retain(|(p, l)| 2 + p + 2 + l <= width);
    let fits = |c: usize| sizes.iter().all(|(p, l)| *p > c || 2 + c + 2 + l <= width);
    let column = sizes
        .iter()
        .map(|(p, _)| *p)
        .filter(|c| fits(*c))
        .max()
        .unwrap_or(0);
    for row in &rows {
        let (path, label, note) = match row {
            InputRow::Tree(root) => {
                write_tree_inputs(out, r, root, style)?;
                continue;
            }
            InputRow::Plain { path, label, note } => (*path, label, *note),
        };
        let pad = column.saturating_sub(text::columns(path));
        let padded = format!("{path}{}", " ".repeat(pad));
        let lines =
            if text::columns(path) <= column && 2 + column + 2 + text::columns(label) <= width {
                vec![format!("  {padded}  {label}")]
            } else {
                let mut lines = vec![format!("  {path}")];
                lines.extend(text::wrap(label, width, "      ", "      "));
                lines
            };
        for line in lines {
            // Colour only the label's part of a note; the path stays plain.
            match line.strip_prefix(&format!("  {path}")) {
                Some(rest) if note => writeln!(out, "  {path}{}", style.yellow(rest))?,
                _ if note => writeln!(out, "{}", style.yellow(&line))?,
                _ => writeln!(out, "{line}")?,
            }
        }
    }
    writeln!(out)
}

/// The Inputs list in order: logs (a tree once, unless -v lists its files), resources,
/// then what was not analysed.
fn input_rows(r: &Report, detail: Detail) -> Vec<InputRow<'_>> {
    let mut rows = Vec::new();
    let mut trees_done: Vec<&str> = Vec::new();
    for i in &r.inputs {
        if let Some(root) = i.prs_tree.as_deref()
            && detail != Detail::Verbose
        {
            if !trees_done.contains(&root) {
                trees_done.push(root);
                rows.push(InputRow::Tree(root));
            }
            continue;
        }
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
        let label = format!(
            "{} ({how}), {}{long}",
            i.kind,
            plural(i.lines, "line", "lines")
        );
        rows.push(InputRow::Plain {
            path: &i.path,
            label,
            note: false,
        });
    }
    for res in &r.resources {
        rows.push(InputRow::Plain {
            path: &res.path,
            label: resource_label(res),
            note: false,
        });
    }
    not_analysed_rows(r, detail, &mut rows);
    rows
}

/// Inputs listed for one reason before the rest are counted (`--verbose` lists all): a
/// folder of 100,000 empty files is a line, not 100,000.
const SAME_REASON_ROWS: usize = 5;

fn not_analysed_rows<'a>(r: &'a Report, detail: Detail, rows: &mut Vec<InputRow<'a>>) {
    let mut reasons: Vec<(&str, usize)> = Vec::new();
    for n in &r.not_analysed {
        let seen = match reasons.iter_mut().find(|(reason, _)| *reason == n.reason) {
            Some((_, count)) => {
                *count += 1;
                *count
            }
            None => {
                reasons.push((&n.reason, 1));
                1
            }
        };
        if seen <= SAME_REASON_ROWS || detail == Detail::Verbose {
            rows.push(InputRow::Plain {
                path: &n.path,
                label: format!("not analysed: {}", n.reason),
                note: true,
            });
        }
    }
    if detail == Detail::Verbose {
        return;
    }
    for (reason, count) in reasons {
        if count > SAME_REASON_ROWS {
            let more = u128::try_from(count - SAME_REASON_ROWS).unwrap_or(u128::MAX);
            rows.push(InputRow::Plain {
                path: "…",
                label: format!("and {more} more: {reason} (-v lists them)"),
                note: true,
            });
        }
    }
}

/// `at /value/0: online-endpoint ep1 (az CLI shape)`.
fn resource_label(res: &crate::report::findings::ResourceReport) -> String {
    let at = if res.pointer.is_empty() {
        String::new()
    } else {
        format!(" at {}", res.pointer)
    };
    let shape = match res.shape {
        crate::evidence::resource::Shape::Arm => "ARM shape",
        crate::evidence::resource::Shape::AzCli => "az CLI shape",
        crate::evidence::resource::Shape::File
            if res.kind == crate::evidence::resource::ResourceKind::PythonScript =>
        {
            "script"
        }
        crate::evidence::resource::Shape::File => "spec file",
    };
    // `at /value/0` goes with the label, so a long path keeps its line.
    format!(
        "{}{} {} {} ({shape})",
        at.trim_start(),
        if at.is_empty() { "" } else { ":" },
        res.kind,
        res.name.as_deref().unwrap_or("(unnamed)")
    )
    .trim_start()
    .to_owned()
}

/// One ParallelRunStep tree among the inputs: its files and lines, counted per folder.
fn write_tree_inputs(out: &mut dyn Write, r: &Report, root: &str, style: Style) -> io::Result<()> {
    let files: Vec<&crate::report::findings::InputReport> = r
        .inputs
        .iter()
        .filter(|i| i.prs_tree.as_deref() == Some(root))
        .collect();
    let lines: u64 = files.iter().map(|i| i.lines).sum();
    let long: u64 = files.iter().map(|i| i.long_lines).sum();
    let mut folders: Vec<(String, u64)> = Vec::new();
    for i in &files {
        let folder = tree_folder(root, &i.path);
        match folders.iter_mut().find(|(f, _)| *f == folder) {
            Some((_, n)) => *n += 1,
            None => folders.push((folder, 1)),
        }
    }
    let long = if long > 0 {
        format!(
            ", {} scanned in pieces",
            plural(long, "overlong line", "overlong lines")
        )
    } else {
        String::new()
    };
    let label = format!(
        "ParallelRunStep tree, {}, {}{long}",
        plural(files.len() as u64, "file", "files"),
        plural(lines, "line", "lines")
    );
    write_lines(out, &text::labelled(root, &label, style.width(), "  "))?;
    let parts: Vec<String> = folders.iter().map(|(f, n)| format!("{f} {n}")).collect();
    let body = format!("{} (-v lists each file)", parts.join(", "));
    write_lines(out, &text::wrap(&body, style.width(), "    ", "    "))
}

/// The folder a tree file is counted under: `sys/node`, `user/error`, `perf`, or
/// `top level` for the files at the root.
fn tree_folder(root: &str, path: &str) -> String {
    let path = std::path::Path::new(path);
    let root = std::path::Path::new(root);
    let Ok(inside) = path.strip_prefix(root) else {
        // The driver log of a job folder sits beside its `logs/`.
        let beside = root
            .parent()
            .and_then(|p| path.strip_prefix(p).ok())
            .and_then(|p| p.components().next())
            .map(|c| c.as_os_str().to_string_lossy().into_owned());
        return format!("../{}", beside.unwrap_or_default());
    };
    let relative = inside.to_string_lossy().replace('\\', "/");
    let parts: Vec<&str> = relative.split('/').collect();
    match parts.as_slice() {
        [_] => "top level".to_owned(),
        [a @ ("sys" | "user"), b, _, ..] => format!("{a}/{b}"),
        [a, ..] => (*a).to_owned(),
        [] => "top level".to_owned(),
    }
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
        plural(s.infos, "info", "info"),
        plural(s.inputs_analysed, "input", "inputs"),
    )?;
    Ok(())
}

/// How a finding less specific than a signature was reached, said under its title.
pub(crate) fn layer_note(layer: crate::finding::Layer) -> Option<&'static str> {
    use crate::finding::Layer;
    match layer {
        Layer::Signature | Layer::Computed => None,
        Layer::ServiceError => Some("from the service's own error code and message"),
        Layer::Category => Some("classified by its message or traceback (no signature matched)"),
        Layer::Unrecognised => Some("no layer named it: the input's last failure, quoted"),
    }
}

fn write_finding(out: &mut dyn Write, f: &Finding, style: Style) -> io::Result<()> {
    let width = style.width();
    // The title wraps under itself; the label and id stay on the first line.
    let head = format!("{}[{}] ", f.severity, f.rule_id);
    let title = text::wrap(&f.title, width, &head, "  ");
    for (i, line) in title.iter().enumerate() {
        if i == 0 {
            let rest = &line[head.len()..];
            writeln!(
                out,
                "{}{} {}",
                severity_label(style, f.severity),
                style.bold(&format!("[{}]", f.rule_id)),
                style.bold(rest)
            )?;
        } else {
            writeln!(out, "{}", style.bold(line))?;
        }
    }
    if let Some(how) = layer_note(f.layer) {
        writeln!(out, "  {}", style.dim(how))?;
    }
    if f.baseline_state == Some(crate::finding::BaselineState::Unchanged) {
        writeln!(
            out,
            "  {}",
            style.dim("in the baseline: reported, does not fail the gate")
        )?;
    }
    if !f.caused_by.is_empty() {
        let text = format!("symptom of: {}", f.caused_by.join(", "));
        write_lines(out, &text::wrap(&text, width, "  ", "    "))?;
    }
    write_evidence(out, f, style)?;
    if !f.facts.is_empty() {
        let facts: Vec<String> = f.facts.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let text = format!("facts: {}", facts.join(", "));
        write_lines(out, &text::wrap(&text, width, "  ", "    "))?;
    }
    if !f.symptoms.is_empty() {
        let text = format!("causes: {}", f.symptoms.join(", "));
        write_lines(out, &text::wrap(&text, width, "  ", "    "))?;
    }
    writeln!(out, "  {}", style.bold("fix:"))?;
    write_lines(out, &text::reflow(&f.remediation, width, 4))?;
    if !f.commands.is_empty() {
        writeln!(out, "  {}", style.bold("run:"))?;
        for c in &f.commands {
            for line in text::command_lines(c, width, 4) {
                writeln!(out, "{}", style.cyan(&line))?;
            }
        }
    }
    for d in &f.docs {
        writeln!(out, "  docs: {d}")?;
    }
    writeln!(out)?;
    Ok(())
}

fn write_lines(out: &mut dyn Write, lines: &[String]) -> io::Result<()> {
    for line in lines {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// Where the finding was seen, then each evidence line shortened around its match to
/// fit the width.
/// The line evidence with each file's pieces together, files in the order they first
/// appear (so the first piece stays first), and a piece seen twice shown once.
fn grouped_by_file(evidence: &[Evidence]) -> Vec<&Evidence> {
    let lines: Vec<&Evidence> = evidence.iter().filter(|e| !e.computed).collect();
    let mut paths: Vec<&str> = Vec::new();
    for e in &lines {
        if !paths.contains(&e.path()) {
            paths.push(e.path());
        }
    }
    let mut out: Vec<&Evidence> = Vec::with_capacity(lines.len());
    for p in paths {
        for e in lines.iter().filter(|e| e.path() == p) {
            if !out
                .iter()
                .any(|o| o.path() == e.path() && o.line() == e.line() && o.text == e.text)
            {
                out.push(e);
            }
        }
    }
    out
}

fn write_evidence(out: &mut dyn Write, f: &Finding, style: Style) -> io::Result<()> {
    let hits = if f.inputs > 1 {
        format!("{} in {} inputs", plural(f.count, "hit", "hits"), f.inputs)
    } else {
        plural(f.count, "hit", "hits")
    };
    match f.evidence.first() {
        // An analyser's conclusion is not a line of the file it is anchored to.
        Some(first) if first.computed => {
            let text = format!("{} ({hits})", first.text);
            let head = format!("  {} ", style.dim("="));
            write_lines(out, &text::wrap(&text, style.width(), &head, "    "))?;
        }
        Some(first) => {
            let at = format!("{} ({hits})", first.location.at());
            for (i, line) in text::fit(&at, style.width(), "  --> ", "      ")
                .iter()
                .enumerate()
            {
                match line.strip_prefix("  --> ") {
                    Some(rest) if i == 0 => writeln!(out, "  {} {rest}", style.dim("-->"))?,
                    _ => writeln!(out, "{line}")?,
                }
            }
        }
        None => {}
    }
    let number = f
        .evidence
        .iter()
        .map(|e| text::columns(&e.location.row_label()))
        .max()
        .unwrap_or(1);
    // `  NN | ` before the text.
    let room = style.width().saturating_sub(number + 5).max(20);
    // After a computed first piece, the next file gets its own `-->`.
    let mut last_path: Option<&str> = f.evidence.first().filter(|e| e.computed).map(|_| "");
    for e in grouped_by_file(&f.evidence) {
        if last_path.is_some_and(|p| p != e.path()) {
            writeln!(out, "  {} {}", style.dim("-->"), e.path())?;
        }
        last_path = Some(e.path());
        let shown = match e.location.pointer() {
            Some(p) => {
                let full = format!("{p}: {}", e.text);
                text::shorten(&full, room, 0)
            }
            None => text::shorten(&e.text, room, e.at),
        };
        let label = e.location.row_label();
        // Line numbers align right; DNS server names read better aligned left.
        let label = if matches!(e.location, crate::finding::Location::Dns { .. }) {
            format!("{label:<number$}")
        } else {
            format!("{label:>number$}")
        };
        if label.trim().is_empty() {
            writeln!(out, "  {} {shown}", style.dim("|"))?;
        } else {
            writeln!(out, "  {label} {} {shown}", style.dim("|"))?;
        }
    }
    Ok(())
}
