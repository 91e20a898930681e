//! `amldoctor diagnose PATH…`: scan local logs with the rule catalogue.

use std::io::Write;
use std::path::PathBuf;

use crate::cli::DiagnoseArgs;
use crate::context::Context;
use crate::engine::parallel::{ScanOutcome, scan_all};
use crate::engine::{Analysis, Placeholders};
use crate::error::{Error, Result};
use crate::evidence::DocumentKind;
use crate::evidence::Origin;
use crate::exit_code::ExitCode;
use crate::finding::BaselineState;
use crate::finding::{Evidence, Severity};
use crate::gate::{BaselineFile, Gate, Suppression};
use crate::prs;
use crate::prs::analyze::ParsedFile;
use crate::report::diagnose::{
    DiagnoseReport, InputReport, NotAnalysed, RuleRef, Summary, write_table,
};
use crate::report::style::Style;
use crate::report::{Envelope, OutputFormat, json, junit, markdown, sarif, yaml};
use crate::rules::RuleSet;
use crate::rules::load::RuleFile;
use crate::source;

/// The built-in rules plus the user's rule directories (flags, then project file).
pub fn load_rules(ctx: &Context, extra: &[PathBuf]) -> Result<RuleSet> {
    let mut user = Vec::new();
    for dir in extra.iter().chain(&ctx.project_rule_dirs) {
        let files = source::inputs::read_rule_dir(dir).map_err(Error::input)?;
        user.extend(files.into_iter().map(|(path, text)| RuleFile {
            path: path.display().to_string(),
            text,
            builtin: false,
        }));
    }
    crate::rules::load_dir(user).map_err(|e| {
        Error::input(e.to_string())
            .with_hint("see docs/rule-format.md, or run 'amldoctor rules test DIR'")
    })
}

/// Values for `{group}`, `{workspace}`, `{subscription}` in commands.
pub fn placeholders(ctx: &Context) -> Placeholders {
    let mut p = Placeholders::new();
    if let Some(g) = &ctx.resource_group {
        p.insert("group", g.value.clone());
    }
    if let Some(w) = &ctx.workspace {
        p.insert("workspace", w.value.clone());
    }
    if let Some(s) = &ctx.subscription {
        p.insert("subscription", s.value.clone());
    }
    p
}

pub fn run(
    ctx: &Context,
    args: &DiagnoseArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitCode> {
    let set = load_rules(ctx, &args.rule_dirs)?;
    let inputs = source::inputs::collect(&args.paths);
    let threads = args.jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |j| usize::try_from(j).unwrap_or(usize::MAX),
    );
    // ParallelRunStep trees among the inputs: their files get a role and are parsed too.
    let files: Vec<std::path::PathBuf> = inputs
        .documents
        .iter()
        .filter_map(|o| match o {
            Origin::File(p) => Some(p.clone()),
            Origin::Stdin => None,
        })
        .collect();
    let roots = prs::tree::find_roots(&files);
    let placed: Vec<Option<(usize, prs::tree::Role)>> = inputs
        .documents
        .iter()
        .map(|o| match o {
            Origin::File(p) => prs::tree::classify(&roots, p),
            Origin::Stdin => None,
        })
        .collect();
    let roles: Vec<Option<prs::tree::Role>> = placed
        .iter()
        .map(|p| p.as_ref().map(|(_, r)| r.clone()))
        .collect();
    let results = scan_all(
        &set,
        &inputs.documents,
        &prs::parse::PrsObservers(&roles),
        args.kind,
        threads,
        &source::inputs::open,
    );
    let explicit_paths: Vec<String> = inputs.explicit.iter().map(|o| o.display_name()).collect();

    let mut analysis = Analysis::new();
    let mut report_inputs = Vec::new();
    let mut not_analysed: Vec<NotAnalysed> = inputs
        .unreadable
        .iter()
        .map(|u| NotAnalysed {
            path: u.path.clone(),
            reason: u.reason.clone(),
        })
        .collect();
    // Only the last few error-like lines over all inputs (in input order) are shown.
    let mut error_lines: std::collections::VecDeque<Evidence> = std::collections::VecDeque::new();
    let mut unreadable_named: Vec<(String, String)> = Vec::new();
    let mut trees: Vec<Vec<ParsedFile>> = vec![Vec::new(); roots.len()];
    for (r, place) in results.into_iter().zip(&placed) {
        let path = r.origin.display_name();
        match r.outcome {
            ScanOutcome::Scanned {
                kind,
                kind_source,
                scan,
                hits,
                observed: prs,
            } => {
                if let (Some(facts), Some((tree, role))) = (prs, place) {
                    trees[*tree].push(ParsedFile {
                        path: path.clone(),
                        role: role.clone(),
                        facts,
                    });
                }
                for h in &scan.error_lines {
                    if error_lines.len() == crate::engine::scan::ERROR_LINES_KEPT {
                        error_lines.pop_front();
                    }
                    error_lines.push_back(Evidence::at_line(path.clone(), h.line, h.text.clone()));
                }
                report_inputs.push(InputReport {
                    path: path.clone(),
                    kind,
                    kind_source,
                    lines: scan.lines,
                    bytes: scan.bytes,
                    long_lines: scan.long_lines,
                    prs_tree: place
                        .as_ref()
                        .map(|(tree, _)| roots[*tree].display().to_string()),
                });
                analysis.add(&path, hits);
            }
            ScanOutcome::Skipped(reason) => not_analysed.push(NotAnalysed { path, reason }),
            ScanOutcome::Unreadable(reason) => {
                // A file named on the command line that cannot be read is an input error.
                if explicit_paths.contains(&path) {
                    unreadable_named.push((path.clone(), reason.clone()));
                }
                not_analysed.push(NotAnalysed {
                    path,
                    reason: format!("cannot read it: {reason}"),
                });
            }
        }
    }
    let mut prs_summaries = Vec::new();
    for (root, files) in roots.iter().zip(trees) {
        // Computed findings without a line of their own point at the job's result file
        // (or the first file read), so every report format has a location.
        let anchor = files
            .iter()
            .find(|f| f.role == prs::tree::Role::JobResult)
            .or_else(|| files.first())
            .map(|f| f.path.clone());
        let root_name = root.display().to_string();
        let (summary, computed) = prs::analyze::analyze(&root_name, files);
        for mut c in computed {
            if c.evidence.is_empty()
                && let Some(path) = &anchor
            {
                c.evidence.push(Evidence::at_line(
                    path.clone(),
                    1,
                    format!("computed from the ParallelRunStep tree {root_name}"),
                ));
            }
            if let Some(index) = set.index_of(c.rule_id) {
                analysis.add_computed(index, c.count, c.evidence, c.facts);
            }
        }
        prs_summaries.push(summary);
    }
    let findings = analysis.finish(&set, &placeholders(ctx));

    // The gate: suppressions (flags and project file), baseline, threshold.
    let r = &args.report;
    let mut suppressions: Vec<Suppression> = Vec::new();
    for id in &r.ignore {
        if set.get(id).is_none() {
            return Err(unknown_rule(&set, id, "--ignore"));
        }
        suppressions.push(Suppression {
            rule: id.clone(),
            reason: "ignored with --ignore".to_owned(),
            expires: None,
            path: None,
            source: "--ignore".to_owned(),
        });
    }
    for s in &ctx.suppressions {
        if set.get(&s.rule).is_none() {
            return Err(unknown_rule(&set, &s.rule, &format!("{}.rule", s.source)));
        }
        suppressions.push(s.clone());
    }
    let baseline = match (&r.write_baseline, &r.baseline) {
        (Some(path), _) => {
            let file = BaselineFile::from_findings(&findings);
            source::local::write_file(path, &json_text(&file)?)?;
            Some(file)
        }
        (None, Some(path)) => {
            let loaded = source::local::read_config_file(path, false)?
                .ok_or_else(|| Error::input(format!("cannot read {}", path.display())))?;
            Some(
                BaselineFile::parse(&loaded.text)
                    .map_err(|e| Error::input(format!("{}: {e}", path.display())))?,
            )
        }
        (None, None) => None,
    };
    let gate = Gate {
        fail_on: r.fail_on,
        suppressions,
        baseline,
        today: source::local::today(),
        base: source::local::current_dir().ok(),
    };
    let outcome = crate::gate::apply(&gate, findings);
    let findings = outcome.findings;
    let count = |s: Severity| findings.iter().filter(|f| f.severity == s).count() as u64;
    let report = DiagnoseReport {
        summary: Summary {
            errors: count(Severity::Error),
            warnings: count(Severity::Warning),
            infos: count(Severity::Info),
            suppressed: outcome.suppressed.len() as u64,
            baseline_unchanged: findings
                .iter()
                .filter(|f| f.baseline_state == Some(BaselineState::Unchanged))
                .count() as u64,
            inputs_analysed: report_inputs.len() as u64,
            inputs_not_analysed: not_analysed.len() as u64,
            rules: set.rules.len() as u64,
            fail_on: r.fail_on,
            failed: outcome.failed,
        },
        last_error_lines: if findings.is_empty() && outcome.suppressed.is_empty() {
            error_lines.into()
        } else {
            Vec::new()
        },
        findings,
        suppressed: outcome.suppressed,
        notices: outcome.notices,
        inputs: report_inputs,
        not_analysed,
        prs: prs_summaries,
        rules: set
            .rules
            .iter()
            .map(|rule| RuleRef {
                id: rule.id.clone(),
                family: rule.family.clone(),
                severity: rule.severity,
                title: rule.title.clone(),
                reads: DocumentKind::ALL
                    .into_iter()
                    .filter(|k| rule.applies_to(*k))
                    .collect(),
            })
            .collect(),
    };

    for u in inputs.unreadable.iter().filter(|u| u.explicit) {
        let _ = writeln!(err, "error: cannot analyse {}: {}", u.path, u.reason);
    }
    for (path, reason) in &unreadable_named {
        let _ = writeln!(err, "error: cannot analyse {path}: {reason}");
    }
    for n in &report.notices {
        let _ = writeln!(err, "warning: {n}");
    }
    let mut code = if report.summary.failed {
        ExitCode::Findings
    } else {
        ExitCode::Clean
    };
    if inputs.unreadable.iter().any(|u| u.explicit)
        || !unreadable_named.is_empty()
        || report.inputs.is_empty()
    {
        code = code.merge(ExitCode::Usage);
        if report.inputs.is_empty() && inputs.unreadable.iter().all(|u| !u.explicit) {
            let _ = writeln!(err, "error: none of the inputs could be analysed");
        }
    }

    // Files first, so a report file exists even when stdout goes away.
    for (format, path) in &r.output_file {
        let mut buf = Vec::new();
        render(*format, &report, &mut buf, Style::new(false), false).map_err(Error::write)?;
        source::local::write_file(path, &buf)?;
    }
    match render(
        ctx.output.value,
        &report,
        out,
        Style::new(ctx.color),
        ctx.quiet,
    ) {
        Ok(()) => {}
        // A reader that went away (`| head`) does not change the verdict.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(code),
        Err(e) => return Err(Error::write(e)),
    }
    Ok(code)
}

/// Writes the report in `format`.
pub fn render(
    format: OutputFormat,
    report: &DiagnoseReport,
    out: &mut dyn Write,
    style: Style,
    quiet: bool,
) -> std::io::Result<()> {
    match format {
        OutputFormat::Table => write_table(out, report, style, quiet),
        OutputFormat::Json => json::write(out, &Envelope::new("diagnose", report)),
        OutputFormat::Yaml => yaml::write(out, &Envelope::new("diagnose", report)),
        OutputFormat::Sarif => sarif::write(out, report),
        OutputFormat::Junit => junit::write(out, report),
        OutputFormat::Markdown => markdown::write(out, report),
    }
}

fn json_text<T: serde::Serialize>(value: &T) -> Result<Vec<u8>> {
    let mut buf = serde_json::to_vec_pretty(value)
        .map_err(|e| Error::input(format!("cannot encode the baseline: {e}")))?;
    buf.push(b'\n');
    Ok(buf)
}

fn unknown_rule(set: &RuleSet, id: &str, key: &str) -> Error {
    let names: Vec<&str> = set.rules.iter().map(|r| r.id.as_str()).collect();
    let near = super::explain::closest(id, &names);
    let e = Error::input(format!("{key}: no rule has the id '{id}'"));
    if near.is_empty() {
        e.with_hint("run 'amldoctor rules list'")
    } else {
        e.with_hint(format!("did you mean {}?", near.join(", ")))
    }
}
