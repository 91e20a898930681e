//! `amldoctor check --fleet`: every Azure Machine Learning workspace in the
//! subscriptions or management groups given, with what hangs off each (Key Vault,
//! registry, storage account, online endpoints and deployments), from one Resource
//! Graph query instead of one GET per resource; the same resource rules as `check`
//! run one workspace at a time, and the report groups the results by workspace.

use std::io::Write;

use crate::analyse::{Analysed, Options, Selection, fleet, placeholders, rule_refs};
use crate::checks::CheckOptions;
use crate::cli::CheckArgs;
use crate::context::Context;
use crate::error::{Error, Result};
use crate::exit_code::ExitCode;
use crate::report::fleet::FleetSummary;
use crate::report::section::Section;
use crate::rules::RuleSet;
use crate::source::azure::resource_graph::GraphScope;

use super::azure::connect_azure;
use super::pipeline::finish;

pub(crate) fn run(
    ctx: &Context,
    args: &CheckArgs,
    set: &RuleSet,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitCode> {
    let scope = GraphScope {
        subscriptions: subscriptions(ctx, args)?,
        management_groups: args.management_groups.clone(),
    };
    let (stats, kept) = read_fleet(ctx, &scope, err)?;
    let (rows, dropped, subscription_names) = kept.finish();
    let selection = Selection::Check(args.area.area());
    let names = placeholders::of_context(ctx);
    let options = Options {
        checks: CheckOptions {
            rps: args.rps,
            latency_seconds: args.latency,
            now_unix: Some(super::support::now_unix(ctx)?),
        },
        ..Options::new(selection, names.clone())
    };
    let (findings, workspaces) = fleet::judge(set, rows, &options, &subscription_names);
    let warnings = fleet::warnings(stats.truncated, stats.subscription_limit_hit, dropped);
    let rps = args.rps.is_some();
    let missing_names = placeholders::missing(&findings, &names);
    let mut a = Analysed {
        warnings,
        findings: crate::engine::order(findings),
        missing_names,
        rules: rule_refs(set, &|r| selection.applied(r, rps, false)),
        names,
        remote_inputs: stats.rows,
        ..Analysed::default()
    };
    a.sections.push(Section::Fleet(Box::new(FleetSummary {
        resources_read: stats.rows,
        pages: stats.pages,
        query_seconds: (stats.elapsed.as_secs_f64() * 10.0).round() / 10.0,
        throttled_seconds: stats.throttled.as_secs(),
        subscriptions: scope.subscriptions,
        management_groups: scope.management_groups,
        workspaces,
    })));
    finish("check", ctx, set, &args.report, a, out, err)
}

/// The fleet's rows from Resource Graph, kept as the pages stream by.
fn read_fleet(
    ctx: &Context,
    scope: &GraphScope,
    err: &mut dyn Write,
) -> Result<(
    crate::source::azure::resource_graph::GraphStats,
    fleet::Kept,
)> {
    let mut azure = connect_azure(ctx)?;
    let mut kept = fleet::Kept::default();
    let stats = azure.resource_graph(
        fleet::QUERY,
        scope,
        "querying Azure Resource Graph",
        &mut |page| {
            for row in page {
                kept.add(row);
            }
            Ok(())
        },
    );
    super::azure::debug_traces(ctx, &mut azure, err);
    Ok((stats?, kept))
}

/// `--subscription` (repeatable), else the default one; none with a management group.
fn subscriptions(ctx: &Context, args: &CheckArgs) -> Result<Vec<String>> {
    let mut subs = ctx.subscriptions.clone();
    if subs.is_empty()
        && let Some(s) = &ctx.subscription
    {
        subs.push(s.value.clone());
    }
    if subs.is_empty() && args.management_groups.is_empty() {
        return Err(Error::input(
            "check --fleet needs a scope: pass --subscription ID (repeatable) or --management-group NAME",
        )
        .with_hint("or set a default subscription with 'az account set --subscription ID'"));
    }
    if !args.management_groups.is_empty() {
        if !ctx.subscriptions.is_empty() {
            // Resource Graph takes one kind of scope per query.
            return Err(Error::input(
                "check --fleet: pass --subscription or --management-group, not both",
            ));
        }
        // A management group alone: the default subscription is not meant.
        subs.clear();
    }
    if let Some(bad) = subs
        .iter()
        .find(|s| !crate::context::name_rules::is_guid(s))
    {
        return Err(Error::input(format!(
            "--subscription {bad}: check --fleet needs the subscription id (a GUID), as Resource Graph takes it"
        ))
        .with_hint("az account list --query \"[].{name:name, id:id}\" -o table"));
    }
    Ok(subs)
}
