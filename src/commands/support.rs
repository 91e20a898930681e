//! What several commands share: loading the rule set (built-in, user directories and
//! the analysers' computed ids), the run's placeholder values, and "did you mean".

use std::path::PathBuf;

use crate::context::Context;
use crate::error::{Error, Result};
use crate::rules::RuleSet;
use crate::rules::load::RuleFile;
use crate::source;

/// The built-in catalogue alone.
pub fn builtin_rules() -> std::result::Result<RuleSet, crate::rules::RuleError> {
    crate::rules::load_builtin(&crate::analyse::analyser::computed_rule_ids())
}

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
    crate::rules::load_dir(user, &crate::analyse::analyser::computed_rule_ids()).map_err(|e| {
        Error::input(e.to_string())
            .with_hint("see docs/rule-format.md, or run 'amldoctor rules test DIR'")
    })
}

/// Edit distance, for "did you mean".
pub fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.to_lowercase().chars().collect();
    let b: Vec<char> = b.to_lowercase().chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != cb);
            cur.push((prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

/// Up to five names close to `query`, closest first.
pub fn closest(query: &str, names: &[&str]) -> Vec<String> {
    let q = query.trim().to_lowercase();
    let mut scored: Vec<(usize, &str)> = names
        .iter()
        .map(|n| {
            let d = distance(&q, n);
            // A substring is as good as a small typo.
            let d = if n.to_lowercase().contains(&q) && q.len() >= 3 {
                d.min(2)
            } else {
                d
            };
            (d, *n)
        })
        .filter(|(d, n)| *d <= (n.len().max(q.len()) / 3).max(2))
        .collect();
    scored.sort();
    scored.dedup_by(|a, b| a.1.eq_ignore_ascii_case(b.1));
    scored
        .into_iter()
        .take(5)
        .map(|(_, n)| n.to_owned())
        .collect()
}

/// An `--ignore` or suppression naming a rule that does not exist.
pub fn unknown_rule(set: &RuleSet, id: &str, key: &str) -> Error {
    let names: Vec<&str> = set.rules.iter().map(|r| r.id.as_str()).collect();
    let near = closest(id, &names);
    let e = Error::input(format!("{key}: no rule has the id '{id}'"));
    if near.is_empty() {
        e.with_hint("run 'amldoctor rules list'")
    } else {
        e.with_hint(format!("did you mean {}?", near.join(", ")))
    }
}

/// The time of the run, in Unix seconds: the clock, or `AMLDOCTOR_NOW` (RFC 3339).
pub fn now_unix(ctx: &Context) -> Result<i64> {
    match &ctx.overrides.now {
        Some(text) => text
            .trim()
            .parse::<jiff::Timestamp>()
            .map(|t| t.as_second())
            .map_err(|_| {
                Error::input(format!(
                    "AMLDOCTOR_NOW: '{text}' is not a time such as 2026-11-30T18:00:00Z"
                ))
            }),
        None => Ok(i64::try_from(source::local::now_unix()).unwrap_or(i64::MAX)),
    }
}

/// `/subscriptions/…/workspaces/…` from the context, or an error naming the flag.
pub fn workspace_path(ctx: &Context, command: &str) -> Result<String> {
    let need = |what: &str, flag: &str, default: &str| {
        Error::input(format!("{command} needs the {what}: pass {flag}"))
            .with_hint(format!("or set a default: {default}"))
    };
    let sub = ctx.subscription.as_ref().ok_or_else(|| {
        need(
            "subscription",
            "--subscription",
            "az account set --subscription <id>",
        )
    })?;
    if !crate::context::names::is_guid(&sub.value) {
        return Err(Error::input(format!(
            "--subscription: '{}' is a name; pass the subscription id (a GUID)",
            sub.value
        ))
        .with_hint("az account list --query \"[].{name:name, id:id}\" -o table"));
    }
    let group = ctx.resource_group.as_ref().ok_or_else(|| {
        need(
            "resource group",
            "-g/--resource-group",
            "az configure --defaults group=<group>",
        )
    })?;
    let ws = ctx.workspace.as_ref().ok_or_else(|| {
        need(
            "workspace",
            "-w/--workspace-name",
            "az configure --defaults workspace=<workspace>",
        )
    })?;
    Ok(format!(
        "/subscriptions/{}/resourceGroups/{}/providers/Microsoft.MachineLearningServices/workspaces/{}",
        sub.value, group.value, ws.value
    ))
}

/// `--debug`: every request and its answer, secrets redacted.
pub fn debug_traces(
    ctx: &Context,
    azure: &mut crate::source::azure::Azure,
    err: &mut dyn std::io::Write,
) {
    if ctx.debug {
        for line in azure.take_traces() {
            debug(err, &line);
        }
    }
}

/// The connection for the context's cloud; `AMLDOCTOR_ARM_ENDPOINT` overrides the
/// Resource Manager URL (tests point it at a server on this machine).
pub fn connect_azure(ctx: &Context) -> Result<crate::source::azure::Azure> {
    let o = &ctx.overrides;
    let (arm, scope) = ctx.cloud.value.arm().ok_or_else(|| {
        Error::input(format!(
            "the cloud '{}' is a custom one; amldoctor knows the endpoints of AzureCloud, AzureChinaCloud and AzureUSGovernment",
            ctx.cloud.value
        ))
    })?;
    let arm = o.arm_endpoint.clone().unwrap_or_else(|| arm.to_owned());
    let seconds =
        |value: Option<u64>, default: u64| std::time::Duration::from_secs(value.unwrap_or(default));
    let options = crate::source::azure::AzureOptions {
        arm_endpoint: arm,
        arm_scope: scope.to_owned(),
        ml_scope: ctx.cloud.value.ml_scope().unwrap_or(scope).to_owned(),
        log_analytics: {
            let (url, la_scope) = ctx.cloud.value.log_analytics().unwrap_or((
                "https://api.loganalytics.io",
                "https://api.loganalytics.io/.default",
            ));
            (
                o.log_analytics_endpoint
                    .clone()
                    .unwrap_or_else(|| url.to_owned()),
                la_scope.to_owned(),
            )
        },
        operation_timeout: seconds(o.operation_timeout, 600),
        auth: ctx.auth,
        timeout: seconds(o.http_timeout, 60),
        policy: crate::source::azure::RetryPolicy {
            budget: seconds(o.retry_budget, 90),
            ..crate::source::azure::RetryPolicy::default()
        },
    };
    // The credential chain reads its own variables (AZURE_CLIENT_ID …).
    crate::source::azure::Azure::connect(options, &source::local::environment())
}

/// The workspace a live command reads, from the context (an error names the flag).
pub fn place(ctx: &Context, command: &str) -> Result<crate::source::collect::Place> {
    let workspace_path = workspace_path(ctx, command)?;
    let value = |s: &Option<crate::setting::Setting<String>>| s.as_ref().map(|s| s.value.clone());
    Ok(crate::source::collect::Place {
        workspace_path,
        source: crate::source::bundle::BundleSource {
            subscription: value(&ctx.subscription),
            resource_group: value(&ctx.resource_group),
            workspace: value(&ctx.workspace),
            ..crate::source::bundle::BundleSource::default()
        },
    })
}

/// Runs `work` on the folder a live read saves its bundle in: `--save DIR`, kept (and
/// `work` is told so, to say where), else a temporary folder removed afterwards.
pub fn in_bundle_dir<T>(
    save: Option<&std::path::Path>,
    command: &str,
    work: impl FnOnce(&std::path::Path, bool) -> Result<T>,
) -> Result<T> {
    match save {
        Some(dir) => work(dir, true),
        None => {
            let dir = source::local::temporary_dir(command);
            let result = work(&dir, false);
            source::local::remove_dir(&dir);
            result
        }
    }
}

/// An `error:` line on stderr (with its `hint:`), for an error the run goes on past.
pub fn error(err: &mut dyn std::io::Write, e: &Error) {
    // Diagnostics are best effort: a closed stderr must not fail the command.
    let _ = writeln!(err, "error: {e}");
    if let Some(hint) = &e.hint {
        let _ = writeln!(err, "hint: {hint}");
    }
}

/// A `warning:` line on stderr: something the user should know that does not stop the run.
pub fn warning(err: &mut dyn std::io::Write, text: &str) {
    let _ = writeln!(err, "warning: {text}");
}

/// A `note:` line on stderr: where something was saved, what was resolved.
pub fn note(err: &mut dyn std::io::Write, text: &str) {
    let _ = writeln!(err, "note: {text}");
}

/// A `debug:` line on stderr (`--debug`): where a setting came from, a request made.
pub fn debug(err: &mut dyn std::io::Write, text: &str) {
    let _ = writeln!(err, "debug: {text}");
}
