//! `amldoctor check AREA --from FILE|DIR|-`: the configuration checks of one area (or
//! all) over resource JSON the user already has. Live reading from Azure is not built
//! yet; without `--from` the command says how to save the JSON.

use std::io::Write;

use crate::checks::CheckOptions;
use crate::cli::CheckArgs;
use crate::context::Context;
use crate::engine::Analysis;
use crate::error::{Error, Result};
use crate::evidence::resource::{Resource, ResourceKind};
use crate::exit_code::ExitCode;
use crate::report::findings::NotAnalysed;
use crate::rules::resource::CheckArea;
use crate::rules::{Rule, RuleSet};
use crate::source;

use super::pipeline::{Collected, finish, rule_refs};
use super::support::{add_resources, load_rules, placeholders, read_resources};

pub fn run(
    ctx: &Context,
    args: &CheckArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitCode> {
    if args.from.is_empty() {
        return Err(Error::input(
            "check needs --from FILE|DIR|- with the resources' JSON; reading them from Azure is not available yet",
        )
        .with_hint(
            "save them first, e.g. 'az ml workspace show -n WS -g RG -o json > ws.json', 'az keyvault show -n KV -o json > kv.json', then 'amldoctor check --from .'",
        ));
    }
    let area = args.area.area();
    if args.rps.is_some() && area.is_some_and(|a| a != CheckArea::Deployment) {
        return Err(Error::input(format!(
            "--rps sizes an online deployment; it applies to 'check deployment' or 'check all', not 'check {}'",
            area.map_or("all", CheckArea::name)
        )));
    }
    let full = load_rules(ctx, &args.rule_dirs)?;
    let set = select(full, area);
    let mut inputs = source::inputs::collect(&args.from);
    let mut c = Collected::default();
    for u in &inputs.unreadable {
        if u.explicit {
            c.input_errors.push(Error::input(format!(
                "cannot read {}: {}",
                u.path, u.reason
            )));
            c.not_analysed
                .push(NotAnalysed::error(&u.path, u.reason.clone()));
        }
    }
    let resources = read_resources(&mut inputs, true);
    if let Some(area) = area
        && resources.errors.is_empty()
        && c.input_errors.is_empty()
    {
        require_subject(area, &resources.resources)?;
    }
    let options = CheckOptions {
        rps: args.rps,
        latency_seconds: args.latency,
        now_unix: Some(super::support::now_unix()?),
    };
    let mut analysis = Analysis::new();
    add_resources(&set, &mut analysis, &resources.resources, &options);
    c.take_resource_inputs(resources);
    c.findings = analysis.finish(&set, &placeholders(ctx));
    // The instance check runs only with --rps: without it, it neither passes nor fails.
    let ran = |r: &Rule| {
        r.resource_kinds != 0 && (args.rps.is_some() || r.id != "deployment-instances-below-rps")
    };
    c.rules = rule_refs(&set, &ran);
    finish("check", ctx, &set, &args.report, c, out, err)
}

/// The rule set with only the resource rules of `area` (all of them for `None`); log
/// rules stay out, so `check` never reports on text.
fn select(mut set: RuleSet, area: Option<CheckArea>) -> RuleSet {
    for rule in &mut set.rules {
        let keep = rule.resource_kinds != 0 && area.is_none_or(|a| rule.check == Some(a));
        if !keep {
            // Neither field tests nor computed checks run for a rule without kinds.
            rule.resource = None;
            rule.resource_kinds = 0;
        }
    }
    set
}

/// `check keyvault --from workspace.json`: nothing of the kinds the area is about.
fn require_subject(area: CheckArea, resources: &[Resource]) -> Result<()> {
    let subjects = area.subjects();
    if resources.iter().any(|r| subjects.contains(&r.kind)) {
        return Ok(());
    }
    let mut found: Vec<String> = resources
        .iter()
        .map(|r| format!("{} ({})", r.kind, r.path))
        .collect();
    found.dedup();
    let wanted: Vec<&str> = subjects.iter().map(|k: &ResourceKind| k.name()).collect();
    let what = if found.is_empty() {
        "no resource".to_owned()
    } else {
        found.join(", ")
    };
    Err(Error::input(format!(
        "check {area} needs a {} resource, but the input holds {what}",
        wanted.join(" or ")
    ))
    .with_hint(format!(
        "save it with '{}', or run 'amldoctor check all' on what you have",
        subjects[0].example_command()
    )))
}
