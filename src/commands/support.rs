//! What several commands share: loading the rule set (built-in, user directories and
//! the analysers' computed ids), the run's placeholder values, and "did you mean".

use std::path::PathBuf;

use crate::context::Context;
use crate::engine::Placeholders;
use crate::error::{Error, Result};
use crate::report::findings::{NotAnalysed, ResourceReport};
use crate::rules::RuleSet;
use crate::rules::load::RuleFile;
use crate::source;

/// The ids every analyser computes, handed to the rule loader so that rules never
/// import an analyser.
pub fn computed_rule_ids() -> Vec<&'static str> {
    let mut ids: Vec<&'static str> = crate::prs::computed_rule_ids();
    ids.extend(crate::checks::computed_rule_ids());
    ids.extend(crate::lint::computed_rule_ids());
    ids.extend(crate::scoring::computed_rule_ids());
    ids
}

/// The built-in catalogue alone.
pub fn builtin_rules() -> std::result::Result<RuleSet, crate::rules::RuleError> {
    crate::rules::load_builtin(&computed_rule_ids())
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
    crate::rules::load_dir(user, &computed_rule_ids()).map_err(|e| {
        Error::input(e.to_string())
            .with_hint("see docs/rule-format.md, or run 'amldoctor rules test DIR'")
    })
}

/// Values for `{group}`, `{workspace}`, `{subscription}`, `{endpoint}` and
/// `{deployment}` in commands, from flags and the project file.
pub fn placeholders(ctx: &Context) -> Placeholders {
    let mut p = Placeholders::new();
    let settings = [
        ("group", &ctx.resource_group),
        ("workspace", &ctx.workspace),
        ("subscription", &ctx.subscription),
        ("endpoint", &ctx.endpoint),
        ("deployment", &ctx.deployment),
    ];
    for (name, setting) in settings {
        if let Some(s) = setting {
            p.insert(name, s.value.clone());
        }
    }
    p
}

/// [`placeholders`], with the names a bundle's manifest records filling what the
/// context lacks, so a saved bundle's commands read as the live run's did.
pub fn placeholders_with_bundles(ctx: &Context, inputs: &source::inputs::InputSet) -> Placeholders {
    let mut p = placeholders(ctx);
    for (_, m) in &inputs.bundles {
        let names = [
            ("group", &m.source.resource_group),
            ("workspace", &m.source.workspace),
            ("subscription", &m.source.subscription),
            ("endpoint", &m.source.endpoint),
            ("deployment", &m.source.deployment),
            ("run_id", &m.source.run),
        ];
        for (key, value) in names {
            if let Some(v) = value {
                p.entry(key).or_insert_with(|| v.clone());
            }
        }
    }
    p
}

/// What the bundles among the inputs could not collect, as inputs not analysed (a
/// check that could not run says so).
pub fn bundle_gaps(inputs: &source::inputs::InputSet) -> Vec<NotAnalysed> {
    let mut out = Vec::new();
    for (dir, m) in &inputs.bundles {
        for f in &m.failed {
            let path = f.path.as_ref().map_or_else(
                || dir.display().to_string(),
                |p| dir.join(p).display().to_string(),
            );
            let reason = match &f.skipped_check {
                Some(check) => format!(
                    "check {check} skipped: {} could not be read: {}",
                    f.what, f.reason
                ),
                None => format!("not collected from Azure: {}", f.reason),
            };
            out.push(NotAnalysed::new(&path, reason));
        }
    }
    out
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

/// Resources read from the JSON among a command's inputs.
#[derive(Debug, Default)]
pub struct ResourceInputs {
    pub resources: Vec<crate::evidence::resource::Resource>,
    pub reports: Vec<ResourceReport>,
    pub not_analysed: Vec<NotAnalysed>,
    /// Inputs that cannot be used (malformed JSON given to `check`): one sentence each.
    pub errors: Vec<Error>,
    /// Things the user should know that do not stop the run.
    pub warnings: Vec<String>,
    /// DNS answers saved in a bundle, to be judged again.
    pub dns: Vec<crate::evidence::dns::DnsObservation>,
}

/// The largest document `diagnose` reads whole to see whether it is a resource; larger
/// inputs are logs to it. `check`, told the inputs are resources, goes up to
/// [`source::json::MAX_JSON_BYTES`].
const DETECT_JSON_BYTES: usize = 16 * 1024 * 1024;

/// Takes the JSON resource documents out of `inputs`. Every other input stays for the
/// log scanner, unless `only_json` (for `check`), where it is not analysed; there, input
/// that is not valid JSON is an error naming the file, line and column.
pub fn read_resources(inputs: &mut source::inputs::InputSet, only_json: bool) -> ResourceInputs {
    let mut out = ResourceInputs::default();
    let mut keep = Vec::new();
    let limit = if only_json {
        source::json::MAX_JSON_BYTES
    } else {
        DETECT_JSON_BYTES
    };
    for origin in std::mem::take(&mut inputs.documents) {
        let read = source::json::read_json(&origin, limit);
        let named = inputs.explicit.contains(&origin);
        if read_one(&origin, read, only_json, named, &mut out) {
            keep.push(origin);
        }
    }
    inputs.explicit.retain(|o| keep.contains(o));
    inputs.documents = keep;
    out
}

/// Files what reading one input gave; returns whether it stays for the log scanner.
fn read_one(
    origin: &crate::evidence::Origin,
    read: std::io::Result<source::json::JsonRead>,
    only_json: bool,
    named: bool,
    out: &mut ResourceInputs,
) -> bool {
    use crate::evidence::json_lines::JsonText;
    use crate::evidence::resource::{JsonDocument, classify};
    use source::json::JsonRead;

    let path = origin.display_name();
    let mut fail = |e: Error, reason: String| {
        out.errors.push(e);
        out.not_analysed.push(NotAnalysed::error(&path, reason));
    };
    match read {
        // The scanner reports unreadable files with the other log inputs.
        Err(_) if !only_json => return true,
        Err(e) => {
            let reason = crate::error::io_reason(&e);
            fail(
                Error::input(format!("cannot read {path}: {reason}")),
                reason,
            );
        }
        Ok(JsonRead::Json { value, bytes }) => match classify(&path, value, JsonText::new(bytes)) {
            JsonDocument::Resources(list) => {
                out.reports.extend(list.iter().map(ResourceReport::of));
                out.resources.extend(list);
            }
            JsonDocument::Dns(observations) => out.dns.extend(observations),
            JsonDocument::BadDns(why) => fail(Error::input(format!("{path}: {why}")), why),
            JsonDocument::ErrorBody | JsonDocument::Unknown(_) if !only_json => return true,
            JsonDocument::ErrorBody => out.not_analysed.push(NotAnalysed::new(
                &path,
                "an error response, not a resource; run 'amldoctor diagnose' on it",
            )),
            JsonDocument::Unknown(why) => out.not_analysed.push(NotAnalysed::new(&path, why)),
        },
        Ok(JsonRead::Malformed {
            line,
            column,
            message,
        }) => {
            let at = format!("{path}:{line}:{column}: not valid JSON: {message}");
            if !only_json {
                let named_json = matches!(origin, crate::evidence::Origin::File(p)
                    if p.extension().is_some_and(|e| e.eq_ignore_ascii_case("json")));
                if named_json {
                    out.warnings.push(format!("{at}; it was read as text"));
                }
                return true;
            }
            let hint = "save the document again with the az command's -o json";
            fail(
                Error::input(at).with_hint(hint),
                format!("not valid JSON ({line}:{column}): {message}"),
            );
        }
        Ok(JsonRead::TooLarge) if only_json => {
            let mib = source::json::MAX_JSON_BYTES / (1024 * 1024);
            let reason = format!("larger than {mib} MiB; resource documents are read whole");
            fail(Error::input(format!("{path}: {reason}")), reason);
        }
        // Named on the command line as JSON, it must be one JSON document; a file
        // found in a folder (a README, a log) is only passed over.
        Ok(_) if only_json && named => {
            let reason = "not one JSON document (text, or several documents one after another): save each az output to its own file";
            fail(Error::input(format!("{path}: {reason}")), reason.to_owned());
        }
        Ok(_) if only_json => out.not_analysed.push(NotAnalysed::new(
            &path,
            "not JSON: expected the JSON an az command prints",
        )),
        Ok(_) => return true,
    }
    false
}

/// Applies computed checks, then resource rules, to the resources read (so rules that
/// need another finding see the computed ones). Only rules whose resource kinds are set
/// in `set` run: `check AREA` clears the others.
pub fn add_resources(
    set: &RuleSet,
    analysis: &mut crate::engine::Analysis,
    resources: &[crate::evidence::resource::Resource],
    options: &crate::checks::CheckOptions,
) {
    let selected = |id: &str| set.get(id).is_some_and(|rule| rule.resource_kinds != 0);
    for computed in crate::checks::run(resources, options, &selected) {
        if let Some(index) = set.index_of(computed.rule_id) {
            analysis.add_computed(index, computed);
        }
    }
    analysis.add_resources(set, resources);
}

/// Judges DNS answers (saved in a bundle, or just taken) into findings under the DNS
/// rules, against what the resources say the answers must be.
pub fn add_dns(
    ctx: &Context,
    set: &RuleSet,
    analysis: &mut crate::engine::Analysis,
    dns: &[crate::evidence::dns::DnsObservation],
    resources: &[crate::evidence::resource::Resource],
    cidrs: &[ipnet::IpNet],
) {
    use crate::evidence::dns::{CloudSuffixes, private_endpoint_addresses, private_roles};
    if dns.is_empty() {
        return;
    }
    // The workspace's names fill the zone commands (`-g {group}`).
    let names = resources
        .iter()
        .find(|r| r.kind == crate::evidence::resource::ResourceKind::Workspace)
        .map(|r| {
            r.names()
                .into_iter()
                .filter(|(k, _)| matches!(k.as_str(), "group" | "workspace" | "subscription"))
                .collect()
        })
        .unwrap_or_default();
    let expect = crate::checks::dns::Expectations {
        private_roles: private_roles(resources),
        cidrs: cidrs.to_vec(),
        endpoint_addresses: private_endpoint_addresses(resources),
        suffixes: CloudSuffixes::of(ctx.cloud.value.name()),
        names,
    };
    for computed in crate::checks::dns::findings(dns, &expect) {
        if let Some(index) = set.index_of(computed.rule_id) {
            analysis.add_computed(index, computed);
        }
    }
}

/// The time of the run, in Unix seconds: the clock, or `AMLDOCTOR_NOW` (RFC 3339).
pub fn now_unix() -> Result<i64> {
    match source::local::now_override() {
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
            let _ = writeln!(err, "debug: {line}");
        }
    }
}

/// The connection for the context's cloud; `AMLDOCTOR_ARM_ENDPOINT` overrides the
/// Resource Manager URL (tests point it at a server on this machine).
pub fn connect_azure(ctx: &Context) -> Result<crate::source::azure::Azure> {
    let env = source::local::environment();
    let (arm, scope) = ctx.cloud.value.arm().ok_or_else(|| {
        Error::input(format!(
            "the cloud '{}' is a custom one; amldoctor knows the endpoints of AzureCloud, AzureChinaCloud and AzureUSGovernment",
            ctx.cloud.value
        ))
    })?;
    let arm = env
        .var("AMLDOCTOR_ARM_ENDPOINT")
        .map_or_else(|| arm.to_owned(), str::to_owned);
    let seconds = |name: &str, default: u64| {
        env.var(name)
            .and_then(|v| v.trim().parse::<u64>().ok())
            .map_or(
                std::time::Duration::from_secs(default),
                std::time::Duration::from_secs,
            )
    };
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
                env.var("AMLDOCTOR_LOG_ANALYTICS_ENDPOINT")
                    .map_or_else(|| url.to_owned(), str::to_owned),
                la_scope.to_owned(),
            )
        },
        operation_timeout: seconds("AMLDOCTOR_OPERATION_TIMEOUT", 600),
        auth: ctx.auth,
        timeout: seconds("AMLDOCTOR_HTTP_TIMEOUT", 60),
        policy: crate::source::azure::RetryPolicy {
            budget: seconds("AMLDOCTOR_RETRY_BUDGET", 90),
            ..crate::source::azure::RetryPolicy::default()
        },
    };
    crate::source::azure::Azure::connect(options, &env)
}
