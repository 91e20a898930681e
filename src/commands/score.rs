//! `amldoctor score`: resolve an online endpoint's scoring URI and credential (from
//! Azure, or from its JSON with `--from` and a credential in an environment variable),
//! send a bounded probe, and report what the caller got: the findings through the
//! shared pipeline, and a scoring section with the latency percentiles and the
//! catalogue's explanation of every error status.

use std::io::{IsTerminal, Write};
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;

use crate::analyse::gather::Scoring;
use crate::analyse::{Evidence, Options, Selection, analyse, placeholders};
use crate::capacity::{CapacityInputs, CapacityPlan, Ratio};
use crate::catalogue::http_statuses;
use crate::checks::deployment::Settings;
use crate::cli::ScoreArgs;
use crate::context::Context;
use crate::error::{Error, Result};
use crate::evidence::json_lines::JsonText;
use crate::evidence::resource::{JsonDocument, Resource, ResourceKind, Shape, classify};
use crate::exit_code::ExitCode;
use crate::scoring::summary::{PendingCeiling, Setup, Sizing, summarise};
use crate::setting::{Setting, ValueSource};
use crate::source;
use crate::source::scoring::Probe;

use super::pipeline::finish;
use super::support::{connect_azure, load_rules};
use crate::source::collect::Place;

/// Without `--force`: a probe, not a load test.
const SAFE_COUNT: u64 = 100;
const SAFE_CONCURRENCY: u64 = 8;
/// With `--force`.
const MAX_COUNT: u64 = 10_000;
const MAX_CONCURRENCY: u64 = 64;
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// How the endpoint authenticates callers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum AuthMode {
    Key,
    AmlToken,
    AadToken,
}

impl AuthMode {
    /// `Key` / `key`, `AMLToken` / `aml_token`, `AADToken` / `aad_token`.
    fn parse(text: &str) -> Option<AuthMode> {
        let t: String = text
            .chars()
            .filter(char::is_ascii_alphanumeric)
            .collect::<String>()
            .to_ascii_lowercase();
        match t.as_str() {
            "key" => Some(AuthMode::Key),
            "amltoken" => Some(AuthMode::AmlToken),
            "aadtoken" => Some(AuthMode::AadToken),
            _ => None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            AuthMode::Key => "key",
            AuthMode::AmlToken => "aml_token",
            AuthMode::AadToken => "aad_token",
        }
    }
}

/// A deployment's settings the 429 ceiling and `--rps` need.
#[derive(Debug, Clone)]
struct DeploymentInfo {
    name: String,
    settings: Settings,
}

/// The endpoint to score.
#[derive(Debug)]
struct Target {
    endpoint: String,
    scoring_uri: String,
    auth: AuthMode,
    kind: &'static str,
    traffic: Vec<(String, u64)>,
    deployments: Vec<DeploymentInfo>,
    /// Names from the endpoint's resource id (`group`, `workspace`, `subscription`).
    names: std::collections::BTreeMap<String, String>,
}

pub fn run(
    ctx: &Context,
    args: &ScoreArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitCode> {
    check_bounds(args)?;
    let timeout = timeout(args)?;
    let body = source::local::read_request_body(&args.data)?;
    let set = load_rules(ctx, &args.rule_dirs)?;
    let (target, credential) = if args.from.is_empty() {
        live_target(ctx, args, err)?
    } else {
        offline_target(ctx, args)?
    };
    let known = !target.deployments.is_empty() || !target.traffic.is_empty();
    if let Some(d) = &args.deployment
        && known
        && !target.deployments.iter().any(|x| &x.name == d)
        && !target.traffic.iter().any(|(n, _)| n == d)
    {
        return Err(Error::input(format!(
            "-n {d}: endpoint '{}' has no deployment of that name",
            target.endpoint
        )));
    }
    let probe = Probe {
        url: target.scoring_uri.clone(),
        credential,
        deployment: args.deployment.clone(),
        body: Arc::new(body),
        content_type: args.content_type.clone(),
        count: args.count,
        concurrency: args.concurrency,
        timeout,
        id_prefix: source::scoring::id_prefix(),
    };
    let bar = progress_bar(args.count);
    let ticker = bar.clone();
    let samples = source::scoring::run(&probe, Arc::new(move || ticker.inc(1)));
    bar.finish_and_clear();
    let samples = samples?;

    let setup = Setup {
        endpoint: target.endpoint.clone(),
        deployment: args.deployment.clone(),
        scoring_uri: without_query(&target.scoring_uri),
        auth_mode: target.auth.name().to_owned(),
        endpoint_kind: target.kind.to_owned(),
        concurrency: args.concurrency,
        timeout_ms: u64::try_from(timeout.as_millis()).unwrap_or(u64::MAX),
        ceiling: ceiling(&target, args.deployment.as_deref()),
    };
    let (sizing, sizing_skipped) = match args.rps {
        Some(rps) => sized(rps, &samples, &target, args.deployment.as_deref())?,
        None => (None, None),
    };
    let statuses = http_statuses().map_err(Error::input)?;
    let mut summary = summarise(&setup, &samples, &statuses, sizing);
    summary.sizing_skipped = sizing_skipped;
    let mut names = placeholders::of_context(ctx);
    names
        .entry("endpoint")
        .or_insert_with(|| target.endpoint.clone());
    for key in ["subscription", "group", "workspace"] {
        if let Some(v) = target.names.get(key) {
            names.entry(key).or_insert_with(|| v.clone());
        }
    }
    // The deployment the requests reached: the one named, else the only one with traffic.
    if let [only] = reached(&target, args.deployment.as_deref()).as_slice() {
        names.entry("deployment").or_insert_with(|| only.clone());
    }
    // The explanations' commands as the report prints them: names filled, the rest `<name>`.
    let filled = |t: &str| {
        crate::rules::template::show_missing(&crate::rules::template::fill(
            t,
            &Default::default(),
            &names,
        ))
    };
    for e in &mut summary.explanations {
        e.meaning = filled(&e.meaning);
        e.checks = e.checks.iter().map(|c| filled(c)).collect();
        e.commands = e.commands.iter().map(|c| filled(c)).collect();
    }
    let evidence = Evidence {
        scoring: Some(Scoring { summary, samples }),
        // The endpoint probed counts as the input analysed.
        remote_inputs: 1,
        ..Evidence::default()
    };
    let a = analyse(&set, evidence, &Options::new(Selection::Scoring, names));
    finish("score", ctx, &set, &args.report, a, out, err)
}

fn check_bounds(args: &ScoreArgs) -> Result<()> {
    let (count_limit, concurrency_limit) = if args.force {
        (MAX_COUNT, MAX_CONCURRENCY)
    } else {
        (SAFE_COUNT, SAFE_CONCURRENCY)
    };
    let over = |flag: &str, value: u64, limit: u64| {
        let e = Error::input(format!("{flag} {value}: at most {limit} without --force"));
        if args.force {
            Error::input(format!(
                "{flag} {value}: at most {limit}, even with --force"
            ))
        } else {
            e.with_hint("a live endpoint's other callers share it; pass --force for a larger probe")
        }
    };
    if args.count > count_limit {
        return Err(over("--count", args.count, count_limit));
    }
    if args.concurrency > concurrency_limit {
        return Err(over("--concurrency", args.concurrency, concurrency_limit));
    }
    Ok(())
}

fn timeout(args: &ScoreArgs) -> Result<Duration> {
    let Some(t) = args.timeout else {
        return Ok(DEFAULT_TIMEOUT);
    };
    let ms = t
        .checked_mul(Ratio::from_int(1000))
        .map(Ratio::ceil)
        .ok()
        .and_then(|ms| u64::try_from(ms).ok())
        .filter(|ms| (1..=3_600_000).contains(ms))
        .ok_or_else(|| Error::input("--timeout: expected a duration between 1 ms and 1 hour"))?;
    Ok(Duration::from_millis(ms))
}

/// The URI as reports show it: no query (a SAS or key could sit there).
fn without_query(uri: &str) -> String {
    uri.split(['?', '#']).next().unwrap_or(uri).to_owned()
}

/// The first present field of `pointers`, as text.
fn text_at(r: &Resource, pointers: &[&str]) -> Option<String> {
    pointers.iter().find_map(|p| {
        r.json
            .pointer(p)
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
    })
}

/// The scoring target an endpoint resource describes (either shape).
fn target_of(r: &Resource, deployments: Vec<DeploymentInfo>) -> Result<Target> {
    let arm = r.shape == Shape::Arm;
    let (uri, auth, compute, traffic) = if arm {
        (
            "/properties/scoringUri",
            "/properties/authMode",
            "/properties/compute",
            "/properties/traffic",
        )
    } else {
        ("/scoring_uri", "/auth_mode", "/compute", "/traffic")
    };
    let endpoint = r.name.clone().unwrap_or_default();
    let scoring_uri = text_at(r, &[uri]).ok_or_else(|| {
        Error::input(format!(
            "{}: the endpoint '{endpoint}' shows no scoring URI ({uri}); is it still being created?",
            r.path
        ))
    })?;
    let auth_text = text_at(r, &[auth]).unwrap_or_default();
    let auth = AuthMode::parse(&auth_text).ok_or_else(|| {
        Error::input(format!(
            "{}: the endpoint's authentication mode '{auth_text}' ({auth}) is none of key, aml_token, aad_token",
            r.path
        ))
    })?;
    let kubernetes = text_at(r, &[compute]).is_some()
        || text_at(r, &["/kind"])
            .is_some_and(|k| k.eq_ignore_ascii_case("k8s") || k.eq_ignore_ascii_case("kubernetes"));
    let traffic = r
        .json
        .pointer(traffic)
        .and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .map(|(k, v)| (k.clone(), v.as_u64().unwrap_or(0)))
                .collect()
        })
        .unwrap_or_default();
    Ok(Target {
        endpoint,
        scoring_uri,
        auth,
        kind: if kubernetes { "kubernetes" } else { "managed" },
        traffic,
        deployments,
        names: r.names(),
    })
}

/// The resources of one JSON file.
fn resources_of(path: &std::path::Path) -> Result<Vec<Resource>> {
    let loaded = source::local::read_config_file(path, false)?
        .ok_or_else(|| Error::input(format!("cannot read {}", path.display())))?;
    let shown = path.display().to_string();
    let value: Value = serde_json::from_str(&loaded.text).map_err(|e| {
        Error::input(format!(
            "{shown}:{}: not JSON ({e}); expected what az ml online-endpoint show -o json prints",
            e.line()
        ))
    })?;
    match classify(&shown, value, JsonText::new(loaded.text.into_bytes())) {
        JsonDocument::Resources(list) => Ok(list),
        _ => Err(Error::input(format!(
            "{shown}: not an online endpoint or deployment; expected what az ml online-endpoint show -o json prints"
        ))),
    }
}

/// `-e`, else `endpoint:` of the project file.
fn endpoint_name(ctx: &Context, args: &ScoreArgs) -> Option<String> {
    args.endpoint
        .clone()
        .or_else(|| ctx.endpoint.as_ref().map(|s| s.value.clone()))
}

/// `--from`: the endpoint (and deployments) from files, the credential from a variable.
fn offline_target(ctx: &Context, args: &ScoreArgs) -> Result<(Target, Option<String>)> {
    let mut endpoints = Vec::new();
    let mut deployments = Vec::new();
    for path in &args.from {
        for r in resources_of(path)? {
            match r.kind {
                ResourceKind::OnlineEndpoint => endpoints.push(r),
                ResourceKind::OnlineDeployment => deployments.push(DeploymentInfo {
                    name: r.name.clone().unwrap_or_default(),
                    settings: Settings::read(&r),
                }),
                _ => {}
            }
        }
    }
    let wanted = endpoint_name(ctx, args);
    let endpoint = match &wanted {
        Some(name) => endpoints
            .iter()
            .find(|r| r.name.as_deref() == Some(name.as_str())),
        None if endpoints.len() == 1 => endpoints.first(),
        None => None,
    }
    .ok_or_else(|| match (&wanted, endpoints.len()) {
        (_, 0) => Error::input(
            "--from: no online endpoint among the files; pass what az ml online-endpoint show -o json prints",
        ),
        (Some(name), _) => Error::input(format!("--from: no endpoint named '{name}' among the files")),
        (None, n) => Error::input(format!("--from: {n} endpoints among the files; pick one with -e")),
    })?;
    let target = target_of(endpoint, deployments)?;
    let (flag, var) = match (&args.key_env, &args.token_env) {
        (Some(v), _) => ("--key-env", v),
        (None, Some(v)) => ("--token-env", v),
        (None, None) => {
            return Err(Error::input(format!(
                "--from gives no credential: the endpoint uses {} authentication; pass --key-env VAR or --token-env VAR naming the environment variable that holds it",
                target.auth.name()
            )));
        }
    };
    let env = source::local::environment();
    let value = env
        .var(var)
        .ok_or_else(|| Error::input(format!("{flag} {var}: the variable is not set or empty")))?;
    Ok((target, Some(value.trim().to_owned())))
}

/// The endpoint, its deployments and its credential, read from Azure.
fn live_target(
    ctx: &Context,
    args: &ScoreArgs,
    err: &mut dyn Write,
) -> Result<(Target, Option<String>)> {
    let endpoint = endpoint_name(ctx, args).ok_or_else(|| {
        Error::input("score needs the endpoint: pass -e ENDPOINT (or --from with its JSON)")
    })?;
    let place = super::support::place(ctx, "score")?;
    let mut azure = connect_azure(ctx)?;
    let result = read_live(&mut azure, &place, &endpoint, args.deployment.as_deref());
    super::support::debug_traces(ctx, &mut azure, err);
    result
}

fn read_live(
    azure: &mut source::azure::Azure,
    place: &Place,
    endpoint: &str,
    deployment: Option<&str>,
) -> Result<(Target, Option<String>)> {
    let path = place.endpoint_path(endpoint);
    let what = format!("reading endpoint '{endpoint}'");
    let answer = azure.ml_resource(&path, &what)?;
    let resource = resource_from(&path, answer, ResourceKind::OnlineEndpoint, &what)?;
    let mut target = target_of(&resource, Vec::new())?;
    for name in reached(&target, deployment) {
        let what = format!("reading deployment '{name}' of endpoint '{endpoint}'");
        let dep_path = format!("{path}/deployments/{name}");
        let answer = azure.ml_resource(&dep_path, &what)?;
        let r = resource_from(&dep_path, answer, ResourceKind::OnlineDeployment, &what)?;
        target.deployments.push(DeploymentInfo {
            name,
            settings: Settings::read(&r),
        });
    }
    let credential = match target.auth {
        AuthMode::Key => {
            azure.endpoint_key(&path, &format!("listing the keys of endpoint '{endpoint}'"))?
        }
        AuthMode::AmlToken => azure.endpoint_token(
            &path,
            &format!("getting a scoring token of endpoint '{endpoint}'"),
        )?,
        AuthMode::AadToken => azure.data_plane_token()?,
    };
    Ok((target, Some(credential)))
}

fn resource_from(path: &str, answer: Value, kind: ResourceKind, what: &str) -> Result<Resource> {
    let bytes = serde_json::to_vec_pretty(&answer).unwrap_or_default();
    match classify(path, answer, JsonText::new(bytes)) {
        JsonDocument::Resources(list) => list.into_iter().find(|r| r.kind == kind),
        _ => None,
    }
    .ok_or_else(|| Error::access(format!("{what}: the answer is not an {}", kind.name())))
}

/// The deployments the requests reach: the one `-n` names, else those with traffic.
fn reached(target: &Target, deployment: Option<&str>) -> Vec<String> {
    match deployment {
        Some(d) => vec![d.to_owned()],
        None => target
            .traffic
            .iter()
            .filter(|(_, share)| *share > 0)
            .map(|(n, _)| n.clone())
            .collect(),
    }
}

/// The 429 ceiling of the deployments the requests reach: 2 × concurrent requests per
/// instance × instances of each, added up; those without settings are named.
fn ceiling(target: &Target, deployment: Option<&str>) -> Option<PendingCeiling> {
    let names = reached(target, deployment);
    if names.is_empty() {
        return None;
    }
    let mut c = PendingCeiling {
        value: 0,
        parts: Vec::new(),
        unknown: Vec::new(),
    };
    for name in names {
        let settings = target
            .deployments
            .iter()
            .find(|d| d.name == name)
            .map(|d| &d.settings);
        match settings.and_then(|s| s.instance_count.as_ref().map(|n| (s, n.value))) {
            Some((s, instances)) => {
                let per = s.max_concurrent.as_ref().map_or(1, |r| r.value);
                let value = 2 * u128::from(per) * u128::from(instances);
                c.value += value;
                c.parts.push(format!(
                    "{name}: 2 × {per} per instance × {instances} instance{} = {value}",
                    if instances == 1 { "" } else { "s" }
                ));
            }
            None => c.unknown.push(name),
        }
    }
    Some(c)
}

/// `--rps`: the sizing of the one deployment the requests reach, or why there is none.
fn sized(
    rps: Ratio,
    samples: &[crate::scoring::sample::Sample],
    target: &Target,
    deployment: Option<&str>,
) -> Result<(Option<Sizing>, Option<String>)> {
    let Some(latency) = crate::scoring::summary::success_latency(samples) else {
        return Ok((
            None,
            Some("no request succeeded, so there is no scoring time to size from".to_owned()),
        ));
    };
    let names = reached(target, deployment);
    let [name] = names.as_slice() else {
        return Ok((
            None,
            Some(format!(
                "the requests reach {} deployments; pass -n to size one",
                names.len()
            )),
        ));
    };
    let d = target.deployments.iter().find(|d| &d.name == name);
    Ok((sizing(rps, latency.p95_ms, target, d)?, None))
}

/// The replicas formula with the measured p95 as the request time.
fn sizing(
    rps: Ratio,
    p95_ms: f64,
    target: &Target,
    d: Option<&DeploymentInfo>,
) -> Result<Option<Sizing>> {
    // Whole milliseconds, rounded up: the histogram's tenths are not worth a fraction.
    let request_ms = Ratio::parse_decimal(&format!("{p95_ms}"))
        .map_or(1, |r| u64::try_from(r.ceil()).unwrap_or(u64::MAX))
        .max(1);
    let from = |key: &str| match d {
        Some(d) => ValueSource::Deployment {
            name: format!("{}/{}", target.endpoint, d.name),
            key: key.to_owned(),
        },
        None => ValueSource::Default,
    };
    let max_concurrent = d.and_then(|d| d.settings.max_concurrent.as_ref()).map_or(
        Setting::default(crate::capacity::DEFAULT_MAX_CONCURRENT),
        |r| {
            Setting::new(
                r.value,
                from("request_settings.max_concurrent_requests_per_instance"),
            )
        },
    );
    let utilization = d
        .and_then(|d| d.settings.target_utilization_percent.as_ref())
        .map(|r| r.value)
        .unwrap_or(70);
    let plan = CapacityPlan::compute(CapacityInputs {
        rps: Setting::new(rps, ValueSource::Flag("--rps")),
        request_time_seconds: Setting::new(
            Ratio::new(u128::from(request_ms), 1000).unwrap_or(Ratio::from_int(1)),
            ValueSource::Flag("the measured p95 latency"),
        ),
        max_concurrent_requests_per_instance: max_concurrent.clone(),
        target_utilization: Setting::new(
            Ratio::new(u128::from(utilization.clamp(1, 100)), 100).unwrap_or(Ratio::from_int(1)),
            from("scale_settings.target_utilization_percentage"),
        ),
        instance_count: d
            .and_then(|d| d.settings.instance_count.as_ref())
            .map(|r| Setting::new(r.value, from("instance_count"))),
        request_timeout_ms: d
            .and_then(|d| d.settings.request_timeout_ms.as_ref())
            .map(|r| Setting::new(r.value, from("request_settings.request_timeout_ms"))),
        autoscale_max_instances: None,
    })
    .map_err(|e| Error::input(format!("--rps: {e}")))?;
    Ok(Some(Sizing {
        rps: rps.to_readable_string(),
        request_time_ms: request_ms,
        max_concurrent_requests_per_instance: max_concurrent.value,
        target_utilization_percent: utilization.to_string(),
        instances_required: plan.instances_required,
        pending_request_ceiling: plan.pending_request_ceiling,
        instances_now: d
            .and_then(|d| d.settings.instance_count.as_ref())
            .map(|r| r.value),
    }))
}

/// Requests done of all, on a terminal's stderr, for more than a few requests.
fn progress_bar(count: u64) -> indicatif::ProgressBar {
    if count <= 5 || !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(count);
    if let Ok(style) =
        indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} requests ({elapsed})")
    {
        bar.set_style(style);
    }
    bar
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auth_modes_in_both_spellings() {
        assert_eq!(AuthMode::parse("Key"), Some(AuthMode::Key));
        assert_eq!(AuthMode::parse("aml_token"), Some(AuthMode::AmlToken));
        assert_eq!(AuthMode::parse("AMLToken"), Some(AuthMode::AmlToken));
        assert_eq!(AuthMode::parse("aad_token"), Some(AuthMode::AadToken));
        assert_eq!(AuthMode::parse("password"), None);
    }

    #[test]
    fn queries_never_reach_the_report() {
        assert_eq!(
            without_query("https://ep.eastus.inference.ml.azure.com/score?sig=abc"),
            "https://ep.eastus.inference.ml.azure.com/score"
        );
    }
}
