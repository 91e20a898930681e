//! `amldoctor score`: resolve an online endpoint's scoring URI and credential (from
//! Azure, or from its JSON with `--from` and a credential in an environment variable),
//! send a bounded probe, and report what the caller got: the findings through the
//! shared pipeline, and a scoring section with the latency percentiles and the
//! catalogue's explanation of every error status.

use std::io::Write;
use std::sync::Arc;

use crate::analyse::gather::Scoring;
use crate::analyse::{Evidence, Options, Selection, analyse, placeholders};
use crate::catalogue::http_statuses;
use crate::checks::deployment::Settings;
use crate::cli::ScoreArgs;
use crate::context::Context;
use crate::error::{Error, Result};
use crate::evidence::resource::ResourceKind;
use crate::exit_code::ExitCode;
use crate::scoring::bounds;
use crate::scoring::target::{
    self, AuthMode, DeploymentInfo, ProbeSetup, Target, reached, target_of,
};
use crate::source;
use crate::source::scoring::Probe;

use super::azure::connect_azure;
use super::pipeline::finish;
use super::support::load_rules;
use crate::source::collect::{self, Place};

pub(crate) fn run(
    ctx: &Context,
    args: &ScoreArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitCode> {
    bounds::check(args.count, args.concurrency, args.force)?;
    let timeout = bounds::timeout(args.timeout)?;
    let body = source::local::read_request_body(&args.data)?;
    let set = load_rules(ctx, &args.rule_dirs)?;
    let (target, credential) = if args.from.is_empty() {
        live_target(ctx, args, err)?
    } else {
        offline_target(ctx, args)?
    };
    target.check_deployment(args.deployment.as_deref())?;
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
    let bar = source::scoring::progress_bar(args.count);
    let ticker = bar.clone();
    let samples = source::scoring::run(&probe, Arc::new(move || ticker.inc(1)));
    bar.finish_and_clear();
    let samples = samples?;
    if ctx.debug {
        for sample in &samples {
            super::support::debug(err, &probe.trace(sample));
        }
    }

    let setup = ProbeSetup {
        deployment: args.deployment.clone(),
        concurrency: args.concurrency,
        timeout_ms: u64::try_from(timeout.as_millis()).unwrap_or(u64::MAX),
        rps: args.rps,
    };
    let statuses = http_statuses().map_err(Error::input)?;
    let mut summary = target::summary_of(&target, &setup, &samples, &statuses)?;
    let mut names = target::names_of(
        &target,
        args.deployment.as_deref(),
        placeholders::of_context(ctx),
    );
    if let Some(rps) = args.rps {
        names.insert("rps", rps.to_string());
    }
    placeholders::fill_explanations(&mut summary, &names);
    let evidence = Evidence {
        scoring: Some(Scoring { summary, samples }),
        // The endpoint probed counts as the input analysed.
        remote_inputs: 1,
        ..Evidence::default()
    };
    let a = analyse(&set, evidence, &Options::new(Selection::Scoring, names));
    finish("score", ctx, &set, &args.report, a, out, err)
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
        for r in source::local::resources_in(path)? {
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
    let place = super::azure::place(ctx, "score")?;
    let mut azure = connect_azure(ctx)?;
    let result = read_live(&mut azure, &place, &endpoint, args.deployment.as_deref());
    super::azure::debug_traces(ctx, &mut azure, err);
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
    let resource = collect::ml_resource(azure, &path, ResourceKind::OnlineEndpoint, &what)?;
    let mut target = target_of(&resource, Vec::new())?;
    for name in reached(&target, deployment) {
        let what = format!("reading deployment '{name}' of endpoint '{endpoint}'");
        let dep_path = format!("{path}/deployments/{name}");
        let r = collect::ml_resource(azure, &dep_path, ResourceKind::OnlineDeployment, &what)
            .map_err(|e| collect::no_such_deployment(azure, &path, endpoint, e))?;
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
        AuthMode::AadToken => azure.scoring_token()?,
    };
    Ok((target, Some(credential)))
}
