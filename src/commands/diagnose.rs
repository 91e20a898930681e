//! `amldoctor diagnose PATH…`: picks the source (local paths, a deployment or run read
//! from Azure, a Log Analytics query), gathers the evidence, analyses it and hands the
//! findings to the shared tail.

use std::io::Write;

use crate::analyse::{Options, ReadMode, Selection, gather, log_analytics, placeholders};
use crate::cli::DiagnoseArgs;
use crate::context::Context;
use crate::error::{Error, Result};
use crate::evidence::log_analytics::LogAnalyticsRead;
use crate::exit_code::ExitCode;
use crate::report::section::Section;
use crate::source;

use super::azure::{connect_azure, in_bundle_dir};
use super::pipeline::finish;
use super::support::load_rules;
use crate::source::collect;

pub(crate) fn run(
    ctx: &Context,
    args: &DiagnoseArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitCode> {
    if args.log_analytics.is_some() {
        return from_log_analytics(ctx, args, out, err);
    }
    // clap does not enforce `requires` beside the paths it conflicts with.
    if args.since.is_some() {
        return Err(Error::input(
            "--since says how far back --log-analytics reads; it needs --log-analytics WORKSPACE_ID",
        ));
    }
    if args.endpoint.is_some() || args.run.is_some() {
        return live(ctx, args, out, err);
    }
    analyse(ctx, args, &args.paths, out, err)
}

/// `diagnose --log-analytics WORKSPACE_ID`: the rules' literals pushed down as one
/// query, the candidate lines it returned saved as a bundle (into --save DIR, else a
/// temporary folder), analysed as one.
fn from_log_analytics(
    ctx: &Context,
    args: &DiagnoseArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitCode> {
    let set = load_rules(ctx, &args.rule_dirs)?;
    let scope = log_analytics::Scope {
        endpoint: args.endpoint.as_deref(),
        deployment: args.deployment.as_deref(),
    };
    let workspace_id = args.log_analytics.clone().unwrap_or_default();
    let request = log_analytics::request(&set, workspace_id, args.since, scope)?;
    let (dir, temporary) = match &args.save {
        Some(d) => (d.clone(), false),
        None => (source::local::temporary_dir("log-analytics"), true),
    };
    let result = connect_azure(ctx).and_then(|mut azure| {
        let read = source::log_analytics::read(&mut azure, &request, &dir);
        super::azure::debug_traces(ctx, &mut azure, err);
        let read = read?;
        for n in &read.summary.notes {
            super::support::warning(err, n);
        }
        if !temporary {
            super::support::note(
                err,
                &format!("the lines read are saved in {}", dir.display()),
            );
        }
        analyse_with(
            ctx,
            args,
            &[dir.display().to_string()],
            Some(read),
            temporary.then_some(dir.as_path()),
            out,
            err,
        )
    });
    if temporary {
        source::local::remove_dir(&dir);
    }
    result
}

/// `diagnose -e EP [-n DEP]` / `diagnose --run RUN`: reads a bundle from Azure (into
/// --save DIR, else a temporary folder removed afterwards), then analyses it exactly
/// as `diagnose DIR` would.
fn live(
    ctx: &Context,
    args: &DiagnoseArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitCode> {
    let place = super::azure::place(ctx, "diagnose")?;
    in_bundle_dir(args.save.as_deref(), "diagnose", |dir, kept| {
        let mut azure = connect_azure(ctx)?;
        let what = match (&args.endpoint, &args.run) {
            (Some(endpoint), _) => collect::Live::Deployment {
                endpoint,
                deployment: args.deployment.as_deref(),
            },
            (None, Some(run)) => collect::Live::Run(run),
            (None, None) => {
                return Err(Error::input(
                    "diagnose needs paths, -e ENDPOINT or --run RUN_ID",
                ));
            }
        };
        let manifest = collect::live_bundle(&mut azure, &place, what, dir);
        super::azure::debug_traces(ctx, &mut azure, err);
        let manifest = manifest?;
        super::logs::note_resolved(&manifest, err);
        if kept {
            super::support::note(
                err,
                &format!("what was read from Azure is saved in {}", dir.display()),
            );
        }
        let paths = [dir.display().to_string()];
        analyse_with(ctx, args, &paths, None, (!kept).then_some(dir), out, err)
    })
}

/// Analyses local paths (a bundle among them).
fn analyse(
    ctx: &Context,
    args: &DiagnoseArgs,
    paths: &[String],
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitCode> {
    analyse_with(ctx, args, paths, None, None, out, err)
}

/// [`analyse`], with what a Log Analytics query read for the report.
fn analyse_with(
    ctx: &Context,
    args: &DiagnoseArgs,
    paths: &[String],
    log_analytics: Option<LogAnalyticsRead>,
    temporary: Option<&std::path::Path>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitCode> {
    let set = load_rules(ctx, &args.rule_dirs)?;
    if paths.iter().any(|p| p == "-") && source::local::stdin_is_terminal() {
        // Nothing was piped in: without this line the command would seem to hang.
        let _ = writeln!(
            err,
            "reading the log from standard input: paste it, then press Ctrl-D (Ctrl-Z and Enter on Windows)"
        );
    }
    let evidence = gather(paths, ctx.stdin.as_ref(), ReadMode::Logs);
    let mut names = placeholders::with_bundles(ctx, &evidence.inputs);
    // The one endpoint and deployment the Log Analytics lines are of fill commands.
    if let Some(la) = &log_analytics {
        for (key, value) in log_analytics::only_names(&la.summary) {
            names.entry(key).or_insert(value);
        }
    }
    let options = Options {
        checks: crate::checks::CheckOptions {
            now_unix: Some(super::support::now_unix(ctx)?),
            ..crate::checks::CheckOptions::default()
        },
        jobs: args.jobs.map_or_else(
            || std::thread::available_parallelism().map_or(1, |n| n.get()),
            |j| usize::try_from(j).unwrap_or(usize::MAX),
        ),
        kind: args.kind,
        cloud: ctx.cloud.value.name().to_owned(),
        workspace_diagnosis: true,
        ..Options::new(Selection::Everything, names)
    };
    let mut a = crate::analyse::analyse(&set, evidence, &options);
    if let Some(mut la) = log_analytics {
        // A Log Analytics query that returned no candidate line was still analysed.
        a.remote_inputs = u64::from(a.inputs.is_empty());
        log_analytics::count_findings(&set, &a.findings, &mut la.summary, &la.lines);
        a.sections.push(Section::LogAnalytics(Box::new(la.summary)));
    }
    if let Some(dir) = temporary {
        super::azure::show_origins(dir, &mut a, err);
    }
    finish("diagnose", ctx, &set, &args.report, a, out, err)
}
