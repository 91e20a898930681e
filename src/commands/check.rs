//! `amldoctor check AREA`: the configuration checks of one area (or all), over resource
//! JSON the user has (`--from FILE|DIR|-`) or, without `--from`, over a bundle read
//! live from Azure, analysed exactly as `check --from DIR` analyses a saved one.

use std::io::Write;

use crate::analyse::{Options, ReadMode, Selection, gather, placeholders};
use crate::checks::CheckOptions;
use crate::cli::CheckArgs;
use crate::context::Context;
use crate::error::{Error, Result};
use crate::exit_code::ExitCode;
use crate::rules::resource::CheckArea;

use super::azure::{connect_azure, in_bundle_dir};
use super::pipeline::finish;
use super::support::load_rules;

pub(crate) fn run(
    ctx: &Context,
    args: &CheckArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitCode> {
    let area = args.area.area();
    refuse_combinations(args, area)?;
    if args.fleet {
        let set = load_rules(ctx, &args.rule_dirs)?;
        return super::fleet::run(ctx, args, &set, out, err);
    }
    if !args.from.is_empty() {
        return analyse(ctx, args, &args.from, true, None, out, err);
    }
    // Named hosts need no Azure access: nothing else is read.
    if area == Some(CheckArea::Dns) && args.endpoint.is_none() && !args.hosts.is_empty() {
        return analyse(ctx, args, &[], true, None, out, err);
    }
    if area == Some(CheckArea::Deployment) && args.endpoint.is_none() {
        return Err(Error::input(
            "check deployment reads an online endpoint from Azure: pass -e ENDPOINT (and -n DEPLOYMENT), or --from with its JSON",
        ));
    }
    let place = super::azure::place(ctx, "check").map_err(|e| {
        if area == Some(CheckArea::Dns) {
            with_host_hint(e)
        } else {
            e
        }
    })?;
    in_bundle_dir(args.save.as_deref(), "check", |dir, kept| {
        let mut azure = connect_azure(ctx)?;
        let collected = super::check_sources::collect_live(ctx, &mut azure, &place, args, dir);
        super::azure::debug_traces(ctx, &mut azure, err);
        collected?;
        if kept {
            super::support::note(
                err,
                &format!("what was read from Azure is saved in {}", dir.display()),
            );
        }
        // The DNS answers were taken while collecting and are in the bundle.
        let paths = [dir.display().to_string()];
        analyse(ctx, args, &paths, false, (!kept).then_some(dir), out, err)
    })
}

/// Flag combinations clap cannot see: they depend on the area's value.
fn refuse_combinations(args: &CheckArgs, area: Option<CheckArea>) -> Result<()> {
    if args.rps.is_some() && area.is_some_and(|a| a != CheckArea::Deployment) {
        return Err(Error::input(format!(
            "--rps sizes an online deployment; it applies to 'check deployment' or 'check all', not 'check {}'",
            area.map_or("all", CheckArea::name)
        )));
    }
    if args.fleet && area == Some(CheckArea::Dns) {
        return Err(Error::input(
            "check dns --fleet: DNS answers depend on where they are asked; run check dns per workspace",
        ));
    }
    Ok(())
}

/// `check dns` without a workspace: naming hosts needs no Azure access.
fn with_host_hint(e: Error) -> Error {
    let more = "pass --host HOST to resolve a host without Azure access";
    let hint = e
        .hint
        .as_ref()
        .map_or_else(|| more.to_owned(), |h| format!("{h}; or {more}"));
    e.with_hint(hint)
}

/// The checks over JSON on disk (files, folders, a bundle) or standard input.
fn analyse(
    ctx: &Context,
    args: &CheckArgs,
    from: &[String],
    resolve: bool,
    temporary: Option<&std::path::Path>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitCode> {
    let area = args.area.area();
    let set = load_rules(ctx, &args.rule_dirs)?;
    let mut evidence = gather(from, ctx.stdin.as_ref(), ReadMode::Resources);
    let names = placeholders::with_bundles(ctx, &evidence.inputs);
    if area.is_none_or(|a| a == CheckArea::Dns) {
        evidence.resources.dns =
            super::check_sources::dns_for_area(ctx, args, area, resolve, &mut evidence.resources)?;
    } else {
        evidence.resources.dns.clear();
    }
    // A bundle says itself which checks it could not run; only plain input must hold
    // what the area is about.
    if let Some(area) = area
        && area != CheckArea::Dns
        && evidence.resources.errors.is_empty()
        && evidence.errors.is_empty()
        && evidence.inputs.bundles.is_empty()
    {
        evidence.require_subject(area)?;
    }
    let options = Options {
        checks: CheckOptions {
            rps: args.rps,
            latency_seconds: args.latency,
            now_unix: Some(super::support::now_unix(ctx)?),
        },
        cloud: ctx.cloud.value.name().to_owned(),
        expect_cidrs: args.expect_cidrs.clone(),
        workspace_diagnosis: area.is_none_or(|a| a == CheckArea::Workspace),
        ..Options::new(Selection::Check(area), names)
    };
    let mut a = crate::analyse::analyse(&set, evidence, &options);
    if let Some(dir) = temporary {
        super::azure::show_origins(dir, &mut a, err);
    }
    finish("check", ctx, &set, &args.report, a, out, err)
}
