//! `amldoctor diagnose PATH…`: scan local logs with the rule catalogue.

use std::io::Write;
use std::path::PathBuf;

use crate::cli::DiagnoseArgs;
use crate::context::Context;
use crate::engine::parallel::{Outcome, scan_all};
use crate::engine::{Analysis, Placeholders};
use crate::error::{Error, Result};
use crate::exit_code::ExitCode;
use crate::finding::{Evidence, Severity};
use crate::redact::redact;
use crate::report::diagnose::{DiagnoseReport, InputReport, NotAnalysed, Summary, write_table};
use crate::report::style::Style;
use crate::report::{Envelope, OutputFormat, json, yaml};
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
    let results = scan_all(
        &set,
        &inputs.documents,
        args.kind,
        threads,
        &source::inputs::open,
    );

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
    let mut error_lines: Vec<Evidence> = Vec::new();
    for r in results {
        let path = r.origin.display_name();
        match r.outcome {
            Outcome::Scanned {
                kind,
                kind_source,
                scan,
                hits,
            } => {
                error_lines.extend(scan.error_lines.iter().map(|h| Evidence {
                    path: path.clone(),
                    line: h.line,
                    text: redact(&h.text).into_owned(),
                }));
                report_inputs.push(InputReport {
                    path: path.clone(),
                    kind,
                    kind_source,
                    lines: scan.lines,
                    bytes: scan.bytes,
                    long_lines: scan.long_lines,
                });
                analysis.add(&path, hits);
            }
            Outcome::Skipped(reason) => not_analysed.push(NotAnalysed { path, reason }),
        }
    }
    let findings = analysis.finish(&set, &placeholders(ctx));
    let count = |s: Severity| findings.iter().filter(|f| f.severity == s).count() as u64;
    let failed = findings.iter().any(|f| args.gate.fail_on.trips(f.severity));
    let keep = error_lines
        .len()
        .saturating_sub(crate::engine::scan::ERROR_LINES_KEPT);
    let report = DiagnoseReport {
        summary: Summary {
            errors: count(Severity::Error),
            warnings: count(Severity::Warning),
            infos: count(Severity::Info),
            inputs_analysed: report_inputs.len() as u64,
            inputs_not_analysed: not_analysed.len() as u64,
            rules: set.rules.len() as u64,
            fail_on: args.gate.fail_on,
            failed,
        },
        last_error_lines: if findings.is_empty() {
            error_lines.split_off(keep)
        } else {
            Vec::new()
        },
        findings,
        inputs: report_inputs,
        not_analysed,
    };

    for u in inputs.unreadable.iter().filter(|u| u.explicit) {
        let _ = writeln!(err, "error: cannot analyse {}: {}", u.path, u.reason);
    }
    match ctx.output.value {
        OutputFormat::Table => {
            write_table(out, &report, Style::new(ctx.color), ctx.quiet).map_err(Error::write)?;
        }
        OutputFormat::Json => {
            json::write(out, &Envelope::new("diagnose", &report)).map_err(Error::write)?
        }
        OutputFormat::Yaml => {
            yaml::write(out, &Envelope::new("diagnose", &report)).map_err(Error::write)?
        }
    }

    let mut code = if failed {
        ExitCode::Findings
    } else {
        ExitCode::Clean
    };
    if inputs.unreadable.iter().any(|u| u.explicit) || report.inputs.is_empty() {
        code = code.merge(ExitCode::Usage);
        if report.inputs.is_empty() && inputs.unreadable.iter().all(|u| !u.explicit) {
            let _ = writeln!(err, "error: none of the inputs could be analysed");
        }
    }
    Ok(code)
}
