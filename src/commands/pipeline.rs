//! The one tail every findings command shares: gate (suppressions, baseline,
//! `--fail-on`) → a command-neutral [`Report`] → every output format and
//! `--output-file` → exit code. Commands only collect evidence and findings.

use std::io::Write;

use crate::analyse::Analysed;
use crate::cli::ReportArgs;
use crate::context::Context;
use crate::error::{Error, Result};
use crate::exit_code::ExitCode;
use crate::finding::{BaselineState, Severity};
use crate::report::findings::{Report, Summary};
use crate::report::section::Section;
use crate::report::style::Style;
use crate::report::{Detail, OutputFormat, WriterOptions, render};
use crate::rules::RuleSet;
use crate::source;

/// Gates, reports and returns the exit code.
pub(crate) fn finish(
    command: &'static str,
    ctx: &Context,
    set: &RuleSet,
    args: &ReportArgs,
    mut c: Analysed,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitCode> {
    let missing_names = std::mem::take(&mut c.missing_names);
    let gate = super::gate_config::build(ctx, set, args, &c.findings)?;
    let outcome = crate::gate::apply(&gate, std::mem::take(&mut c.findings));
    let fix_suggestions = c
        .fix_texts
        .take()
        .map(|texts| crate::lint::fix::suggest(&outcome.findings, &texts));
    let input_errors = std::mem::take(&mut c.input_errors);
    let warnings = std::mem::take(&mut c.warnings);
    let mut report = report_of(command, args, c, outcome, missing_names);
    if let Some(fixes) = fix_suggestions {
        report.sections.push(Section::FixSuggestions(fixes));
    }
    for e in &input_errors {
        super::support::error(err, e);
    }
    for n in warnings.iter().chain(&report.notices) {
        super::support::warning(err, n);
    }
    let mut code = if report.summary.failed {
        ExitCode::Findings
    } else {
        ExitCode::Clean
    };
    if !input_errors.is_empty() || report.summary.inputs_analysed == 0 {
        code = code.merge(ExitCode::Usage);
        if report.summary.inputs_analysed == 0 && input_errors.is_empty() {
            let _ = writeln!(err, "error: none of the inputs could be analysed");
        }
    }
    // With nothing analysed there is no report to print: the errors above say why, and
    // an empty report on stdout would look like a clean result to a script.
    if report.summary.inputs_analysed == 0 {
        for n in report.not_analysed.iter().filter(|n| !n.error) {
            let _ = writeln!(err, "error: {}: not analysed: {}", n.path, n.reason);
        }
        return Ok(code);
    }
    write_outputs(ctx, args, &report, out).map(|()| code)
}

/// The report of what was analysed, after the gate.
fn report_of(
    command: &'static str,
    args: &ReportArgs,
    c: Analysed,
    outcome: crate::gate::GateResult,
    missing_names: Vec<crate::rules::template::MissingName>,
) -> Report {
    let findings = outcome.findings;
    let count = |s: Severity| findings.iter().filter(|f| f.severity == s).count() as u64;
    let nothing = findings.is_empty() && outcome.suppressed.is_empty();
    Report {
        command,
        summary: Summary {
            errors: count(Severity::Error),
            warnings: count(Severity::Warning),
            infos: count(Severity::Info),
            suppressed: outcome.suppressed.len() as u64,
            baseline_unchanged: findings
                .iter()
                .filter(|f| f.baseline_state == Some(BaselineState::Unchanged))
                .count() as u64,
            inputs_analysed: c.inputs_analysed(),
            inputs_not_analysed: c.not_analysed.len() as u64,
            rules: c.rules.len() as u64,
            fail_on: args.fail_on,
            failed: outcome.failed,
        },
        last_error_lines: if nothing { c.error_lines } else { Vec::new() },
        findings,
        missing_names,
        suppressed: outcome.suppressed,
        notices: outcome.notices,
        inputs: c.inputs,
        resources: c.resources,
        not_analysed: c.not_analysed,
        sections: c.sections,
        rules: c.rules,
        not_shown: None,
    }
}

/// How the SARIF, JUnit and markdown writers write this run's report.
fn writer_options(ctx: &Context, args: &ReportArgs) -> WriterOptions {
    let cwd = source::local::current_dir().ok();
    WriterOptions {
        sarif: crate::report::sarif::SarifOptions {
            category: args.sarif_category.clone(),
            keep_suppressed: args.sarif_keep_suppressed,
            working_directory: cwd.as_ref().map(|d| slashed(d)),
            repository_root: cwd
                .as_deref()
                .and_then(source::local::repository_root)
                .map(|d| slashed(&d)),
        },
        junit: crate::report::junit::JunitOptions {
            file_attribute: args.junit_file_attribute,
            elapsed_seconds: ctx.started.elapsed().as_secs_f64(),
        },
        markdown: crate::report::markdown::MarkdownOptions {
            limit: args.markdown_limit,
        },
    }
}

/// Every `--output-file`, then stdout.
fn write_outputs(
    ctx: &Context,
    args: &ReportArgs,
    report: &Report,
    out: &mut dyn Write,
) -> Result<()> {
    let writers = writer_options(ctx, args);
    // Files first, so a report file exists even when stdout goes away.
    for (format, path) in &args.output_file {
        let mut buf = Vec::new();
        let shown = report.shown_from(min_severity(args, *format));
        // A file holds the whole report: the limit is for comments posted from stdout.
        let mut options = writers.clone();
        options.markdown.limit = 0;
        render(
            *format,
            &shown,
            &mut buf,
            Style::new(false),
            Detail::Normal,
            &options,
        )
        .map_err(Error::write)?;
        source::local::write_file(path, &buf)?;
    }
    let shown = report.shown_from(min_severity(args, ctx.output.value));
    match render(
        ctx.output.value,
        &shown,
        out,
        Style::new(ctx.color).with_width(ctx.width),
        Detail::of(ctx.quiet, ctx.verbose),
        &writers,
    ) {
        // A reader that went away (`| head`) does not change the verdict.
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(Error::write(e)),
        _ => Ok(()),
    }
}

/// A path with `/` separators, as URIs want it.
fn slashed(p: &std::path::Path) -> String {
    p.to_string_lossy().replace('\\', "/")
}

/// The lowest severity `format` shows: `--min-severity`, else warnings and up for the
/// formats people read and everything for the formats programs read.
fn min_severity(args: &ReportArgs, format: OutputFormat) -> Severity {
    args.min_severity.unwrap_or_else(|| {
        let readable = match format {
            OutputFormat::Table | OutputFormat::Markdown => Severity::Warning,
            _ => Severity::Info,
        };
        // What fails the gate is always shown: `--fail-on info` shows infos.
        match args.fail_on {
            crate::finding::FailOn::Info => Severity::Info,
            _ => readable,
        }
    })
}
