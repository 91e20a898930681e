//! `amldoctor logs -e EP [-n DEP]`: an online deployment's container logs, read from
//! Azure with the getLogs action, printed as `az ml online-deployment get-logs` prints
//! them.

use std::io::Write;

use serde_json::{Value, json};

use crate::cli::{ContainerArg, LogsArgs};
use crate::context::Context;
use crate::error::{Error, Result};
use crate::exit_code::ExitCode;
use crate::source::azure::{AuthChoice, Azure};

use super::support::{connect_azure, workspace_path};

/// The ARM api-version for online endpoints and deployments (stable).
pub const API_VERSION: &str = "2024-10-01";

pub fn run(
    ctx: &Context,
    args: &LogsArgs,
    auth: AuthChoice,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitCode> {
    crate::report::require_plain(ctx.output.value, "logs")?;
    let workspace_path = workspace_path(ctx, "logs")?;
    let mut azure = connect_azure(ctx, auth)?;
    let endpoint_path = format!("{workspace_path}/onlineEndpoints/{}", args.endpoint);
    let result = fetch(&mut azure, &endpoint_path, args);
    if ctx.debug {
        for line in azure.take_traces() {
            let _ = writeln!(err, "debug: {line}");
        }
    }
    let sections = result?;
    let many = sections.len() > 1;
    for (container, content) in sections {
        let written = if many {
            writeln!(out, "===== {container} =====").and_then(|()| writeln!(out, "{content}"))
        } else {
            writeln!(out, "{content}")
        };
        if let Err(e) = written {
            return if e.kind() == std::io::ErrorKind::BrokenPipe {
                Ok(ExitCode::Clean)
            } else {
                Err(Error::write(e))
            };
        }
    }
    Ok(ExitCode::Clean)
}

/// The deployment (named, or the endpoint's only one), then each container's log.
fn fetch(
    azure: &mut Azure,
    endpoint_path: &str,
    args: &LogsArgs,
) -> Result<Vec<(&'static str, String)>> {
    let deployment = match &args.deployment {
        Some(d) => d.clone(),
        None => only_deployment(azure, endpoint_path, &args.endpoint)?,
    };
    let containers: &[(&str, &str)] = match args.container {
        ContainerArg::InferenceServer => &[("inference-server", "InferenceServer")],
        ContainerArg::StorageInitializer => &[("storage-initializer", "StorageInitializer")],
        ContainerArg::All => &[
            ("storage-initializer", "StorageInitializer"),
            ("inference-server", "InferenceServer"),
        ],
    };
    let path = format!("{endpoint_path}/deployments/{deployment}/getLogs");
    let mut sections = Vec::new();
    for (name, rest) in containers {
        let body = json!({"containerType": rest, "tail": args.lines});
        let what = format!(
            "reading the {name} log of deployment '{deployment}' of endpoint '{}'",
            args.endpoint
        );
        let answer = azure.arm_post(&path, API_VERSION, &body, &what)?;
        sections.push((*name, content(&answer)));
    }
    Ok(sections)
}

/// The log text of a getLogs answer: `content`, with the literal `\n` sequences some
/// service versions send turned into line breaks, as az does.
fn content(answer: &Value) -> String {
    let text = answer["content"].as_str().unwrap_or_default();
    crate::redact::redact(&text.replace("\\n", "\n"))
        .trim_end_matches('\n')
        .to_owned()
}

/// The endpoint's deployment when it has exactly one; otherwise an error listing them.
fn only_deployment(azure: &mut Azure, endpoint_path: &str, endpoint: &str) -> Result<String> {
    let what = format!("listing the deployments of endpoint '{endpoint}'");
    let list = azure.arm_list(&format!("{endpoint_path}/deployments"), API_VERSION, &what)?;
    let names: Vec<String> = list
        .iter()
        .filter_map(|d| d["name"].as_str().map(str::to_owned))
        .collect();
    match names.as_slice() {
        [one] => Ok(one.clone()),
        [] => Err(Error::input(format!(
            "endpoint '{endpoint}' has no deployment"
        ))),
        many => Err(Error::input(format!(
            "endpoint '{endpoint}' has {} deployments ({}); say which with -n",
            many.len(),
            many.join(", ")
        ))),
    }
}
