//! `amldoctor replicas`: sizes a deployment with the article's formula.

use std::io::Write;

use crate::capacity::deployment::{self, DeploymentCapacity};
use crate::capacity::{
    CapacityInputs, CapacityPlan, DEFAULT_MAX_CONCURRENT, DEFAULT_REQUEST_TIME_SECONDS,
    DEFAULT_UTILIZATION_PERCENT,
};
use crate::cli::ReplicasArgs;
use crate::context::Context;
use crate::error::{Error, Result};
use crate::exit_code::ExitCode;
use crate::ratio::Ratio;
use crate::report::OutputFormat;
use crate::report::replicas::{ReplicasReport, write_table};
use crate::report::style::Style;
use crate::setting::{Setting, ValueSource};
use crate::source;

/// Where the deployment's settings came from.
#[derive(Debug, Clone)]
enum SpecSource {
    File(std::path::PathBuf),
    /// `endpoint/deployment`, read from Azure.
    Live(String),
}

pub(crate) fn run(
    ctx: &Context,
    args: &ReplicasArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitCode> {
    crate::report::require_plain(ctx.output.value, "replicas")?;
    let file = match (&args.deployment_file, &args.endpoint, &args.deployment) {
        (Some(path), _, _) => {
            let loaded = source::local::read_config_file(path, false)?
                .ok_or_else(|| Error::input(format!("cannot read {}", path.display())))?;
            let parsed = DeploymentCapacity::from_yaml(&loaded.text)
                .map_err(|e| Error::input(format!("{}: {e}", path.display())))?;
            Some((SpecSource::File(loaded.path), parsed))
        }
        (None, Some(endpoint), deployment) => {
            let spec = live_deployment(ctx, endpoint, deployment.as_deref(), err)?;
            let name = spec.name.clone().unwrap_or_default();
            Some((SpecSource::Live(format!("{endpoint}/{name}")), spec))
        }
        _ => None,
    };
    let inputs = build_inputs(args, file.as_ref())?;
    let plan = CapacityPlan::compute(inputs).map_err(|e| {
        Error::input(format!("{e}"))
            .with_hint("use smaller --rps, --latency or a larger --utilization")
    })?;
    let (next, no_change) = crate::analyse::replicas::update_command(
        &plan,
        file.as_ref().map(|(_, d)| d),
        crate::analyse::placeholders::of_context(ctx),
    );
    let report = ReplicasReport::new(plan, next, no_change);

    match ctx.output.value {
        OutputFormat::Table => {
            write_table(
                out,
                &report,
                Style::new(ctx.color).with_width(ctx.width),
                ctx.quiet,
            )
            .map_err(Error::write)?;
            if ctx.quiet {
                for w in &report.warnings {
                    super::support::warning(err, &w.message);
                }
            }
        }
        format => crate::report::emit(format, "replicas", &report, out).map_err(Error::write)?,
    }
    Ok(ExitCode::Clean)
}

/// The capacity settings of a deployment in Azure (read-only GET), in the keys of the
/// deployment YAML.
fn live_deployment(
    ctx: &Context,
    endpoint: &str,
    deployment: Option<&str>,
    err: &mut dyn Write,
) -> Result<DeploymentCapacity> {
    use crate::evidence::json_lines::JsonText;
    use crate::evidence::resource::{JsonDocument, classify};

    let ws = super::azure::workspace_path(ctx, "replicas -e/-n")?;
    let mut azure = super::azure::connect_azure(ctx)?;
    let endpoint_path = format!("{ws}/onlineEndpoints/{endpoint}");
    // Without -n, the endpoint's only deployment, as the other commands take it.
    let deployment = match deployment {
        Some(d) => d.to_owned(),
        None => crate::source::collect::only_deployment(&mut azure, &endpoint_path, endpoint)?,
    };
    let path = format!("{endpoint_path}/deployments/{deployment}");
    let what = format!("reading deployment '{deployment}' of endpoint '{endpoint}'");
    let answer = azure.ml_resource(&path, &what).map_err(|e| {
        crate::source::collect::no_such_deployment(&mut azure, &endpoint_path, endpoint, e)
    });
    if ctx.debug {
        for line in azure.take_traces() {
            super::support::debug(err, &line);
        }
    }
    let answer = answer?;
    let bytes = serde_json::to_vec_pretty(&answer).unwrap_or_default();
    let resource = match classify(&path, answer, JsonText::new(bytes)) {
        JsonDocument::Resources(mut list) if !list.is_empty() => list.remove(0),
        _ => {
            return Err(Error::access(format!(
                "{what}: the answer is not an online deployment"
            )));
        }
    };
    let s = crate::checks::deployment::Settings::read(&resource);
    Ok(DeploymentCapacity {
        name: Some(deployment.to_owned()),
        endpoint_name: Some(endpoint.to_owned()),
        max_concurrent_requests_per_instance: s.max_concurrent.map(|r| r.value),
        request_timeout_ms: s.request_timeout_ms.map(|r| r.value),
        target_utilization_percentage: s.target_utilization_percent.map(|r| r.value),
        instance_count: s.instance_count.map(|r| r.value),
        autoscale_max_instances: s.max_instances.map(|r| r.value),
    })
}

/// Flags first, then the deployment (file or live), then the documented defaults.
fn build_inputs(
    args: &ReplicasArgs,
    file: Option<&(SpecSource, DeploymentCapacity)>,
) -> Result<CapacityInputs> {
    let from_file = |key: &str| -> ValueSource {
        match file.map(|(s, _)| s) {
            Some(SpecSource::Live(name)) => ValueSource::Deployment {
                name: name.clone(),
                key: key.to_owned(),
            },
            Some(SpecSource::File(path)) => ValueSource::DeploymentFile {
                path: path.clone(),
                key: key.to_owned(),
            },
            None => ValueSource::Default,
        }
    };
    let spec = file.map(|(_, d)| d);

    let max_concurrent = match (
        args.max_concurrent,
        spec.and_then(|d| d.max_concurrent_requests_per_instance),
    ) {
        (Some(n), _) => Setting::new(n, ValueSource::Flag("--max-concurrent")),
        (None, Some(n)) => Setting::new(n, from_file(deployment::KEY_MAX_CONCURRENT)),
        (None, None) => Setting::default(DEFAULT_MAX_CONCURRENT),
    };
    let utilization = match (
        args.utilization,
        spec.and_then(|d| d.target_utilization_percentage),
    ) {
        (Some(u), _) => Setting::new(u, ValueSource::Flag("--utilization")),
        (None, Some(p)) => Setting::new(
            percent_fraction(u128::from(p))?,
            from_file(deployment::KEY_UTILIZATION),
        ),
        (None, None) => Setting::default(percent_fraction(DEFAULT_UTILIZATION_PERCENT)?),
    };
    let instance_count = match (args.instances, spec.and_then(|d| d.instance_count)) {
        (Some(n), _) => Some(Setting::new(n, ValueSource::Flag("--instances"))),
        (None, Some(n)) => Some(Setting::new(n, from_file(deployment::KEY_INSTANCE_COUNT))),
        (None, None) => None,
    };
    Ok(CapacityInputs {
        rps: Setting::new(args.rps, ValueSource::Flag("--rps")),
        request_time_seconds: match args.latency {
            Some(l) => Setting::new(l, ValueSource::Flag("--latency")),
            None => Setting::default(Ratio::from_int(DEFAULT_REQUEST_TIME_SECONDS)),
        },
        max_concurrent_requests_per_instance: max_concurrent,
        target_utilization: utilization,
        instance_count,
        request_timeout_ms: spec
            .and_then(|d| d.request_timeout_ms)
            .map(|t| Setting::new(t, from_file(deployment::KEY_TIMEOUT))),
        autoscale_max_instances: spec
            .and_then(|d| d.autoscale_max_instances)
            .map(|m| Setting::new(m, from_file(deployment::KEY_MAX_INSTANCES))),
    })
}

fn percent_fraction(p: u128) -> Result<Ratio> {
    Ratio::new(p, 100).ok_or_else(|| Error::input("invalid utilization percentage"))
}
