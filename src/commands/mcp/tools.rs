//! The tools `amldoctor mcp` serves: each one's arguments (their JSON Schema is
//! generated from the types below), its description, and the command line it stands
//! for. A tool is the command an engineer would type, with `-o json`: the result an
//! agent gets is the one the CLI prints, and nothing here analyses anything.

use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value};

use crate::source::roots::Roots;

/// The longest paste `diagnose_text` and `check_resources` take.
pub(super) const MAX_TEXT_BYTES: usize = 32 * 1024 * 1024;

/// A tool as listed to the client.
#[derive(Debug)]
pub(super) struct ToolSpec {
    pub name: &'static str,
    pub title: &'static str,
    pub description: &'static str,
    pub input: fn() -> Map<String, Value>,
    /// The findings report schema describes its result.
    pub report: bool,
    /// Reads Azure: listed only with `--allow-azure`.
    pub azure: bool,
}

impl ToolSpec {
    /// Its input schema, generated once for every tool.
    pub(super) fn schema(&self) -> &'static Map<String, Value> {
        static SCHEMAS: std::sync::OnceLock<Vec<Map<String, Value>>> = std::sync::OnceLock::new();
        let all = SCHEMAS.get_or_init(|| TOOLS.iter().map(|t| (t.input)()).collect());
        let at = TOOLS.iter().position(|t| t.name == self.name).unwrap_or(0);
        &all[at]
    }
}

/// The command line a call stands for, and the text `-` reads.
#[derive(Debug)]
pub(super) struct Invocation {
    pub argv: Vec<String>,
    pub stdin: Option<Arc<[u8]>>,
}

/// What the server was started with that tools need.
#[derive(Debug)]
pub(super) struct ToolEnv {
    pub roots: Roots,
    /// The server's own Azure flags (`-g`, `-w`, `--subscription`, …), the defaults of
    /// the Azure tools.
    pub azure_flags: Vec<String>,
}

/// A pasted log or error message.
#[derive(Debug, Deserialize, JsonSchema)]
struct DiagnoseText {
    /// The text as the user pasted it: a container log, an az or SDK error, a
    /// traceback, a job's output, or a resource's JSON
    text: String,
    /// Read it as this kind instead of detecting it
    kind: Option<String>,
}

/// Local files, folders, bundles or ParallelRunStep log trees.
#[derive(Debug, Deserialize, JsonSchema)]
struct DiagnosePaths {
    /// Files or folders under the server's roots (relative paths start at the first
    /// root)
    paths: Vec<String>,
    /// Read every input as this kind instead of detecting it
    kind: Option<String>,
}

/// What to explain.
#[derive(Debug, Deserialize, JsonSchema)]
struct Explain {
    /// An error code (ImageBuildFailure, ResourceNotReady), an HTTP status (424) or a
    /// rule id
    subject: String,
}

/// Resources as `az … show -o json` or the ARM REST API print them.
#[derive(Debug, Deserialize, JsonSchema)]
struct CheckResources {
    /// The JSON text: one resource, a list, or a bundle's saved document
    text: String,
    /// Which checks to run [default: all]
    area: Option<String>,
}

/// Files to check before they are deployed.
#[derive(Debug, Deserialize, JsonSchema)]
struct LintPaths {
    /// Deployment YAML, environment files, requirements and scoring scripts, or the
    /// folders holding them, under the server's roots
    paths: Vec<String>,
}

/// The sizing inputs of an online deployment.
#[derive(Debug, Deserialize, JsonSchema)]
struct Replicas {
    /// Target requests per second (e.g. 20 or 0.5)
    rps: serde_json::Number,
    /// Time to process one request: 10s, 250ms, PT10S [default: 10s]
    latency: Option<String>,
    /// max_concurrent_requests_per_instance [default: 1, or the deployment file's]
    max_concurrent: Option<u64>,
    /// Target utilization: 0.7 or 70% [default: 70%]
    utilization: Option<String>,
    /// Evaluate this existing instance count
    instances: Option<u64>,
    /// A deployment YAML under the server's roots to read the settings from
    deployment_file: Option<String>,
}

/// A look-up in the rule catalogue.
#[derive(Debug, Deserialize, JsonSchema)]
struct RulesSearch {
    /// Words to find in a rule's id, title, family, codes or fix
    text: Option<String>,
    /// One rule's id: its full documentation
    id: Option<String>,
    /// Only this family (build, deployment, http, inference-server, …)
    family: Option<String>,
}

/// Where in Azure (each defaults to the server's own flags, then the az CLI's
/// defaults).
#[derive(Debug, Default, Deserialize, JsonSchema)]
struct Scope {
    /// Subscription id or name
    subscription: Option<String>,
    /// Resource group
    resource_group: Option<String>,
    /// Azure Machine Learning workspace
    workspace: Option<String>,
}

/// A deployment read live from Azure.
#[derive(Debug, Deserialize, JsonSchema)]
struct DiagnoseDeployment {
    /// The online endpoint
    endpoint: String,
    /// The deployment [default: the endpoint's only one]
    deployment: Option<String>,
    #[serde(flatten)]
    scope: Scope,
}

/// A workspace's configuration read live from Azure.
#[derive(Debug, Deserialize, JsonSchema)]
struct CheckWorkspace {
    /// Which checks to run [default: all]
    area: Option<String>,
    /// The online endpoint the deployment checks read
    endpoint: Option<String>,
    /// Its deployment
    deployment: Option<String>,
    #[serde(flatten)]
    scope: Scope,
}

/// A deployment's container log read from Azure.
#[derive(Debug, Deserialize, JsonSchema)]
struct GetLogs {
    /// The online endpoint
    endpoint: String,
    /// The deployment [default: the endpoint's only one]
    deployment: Option<String>,
    /// Which container: inference-server or storage-initializer
    container: Option<String>,
    /// How many lines from the end [default: 5000]
    lines: Option<u64>,
    #[serde(flatten)]
    scope: Scope,
}

/// Every tool, in the order they are listed.
pub(super) const TOOLS: &[ToolSpec] = &[
    ToolSpec {
        name: "diagnose_text",
        title: "Diagnose a pasted log or error",
        description: "Call this first whenever the user shows an Azure Machine Learning failure as text: a deployment or container log, an `az ml` or SDK error, a Python traceback, a job or ParallelRunStep output. Returns amldoctor's findings (the cause, the fix and the exact next commands) from its tested rule catalogue, in the JSON report that `amldoctor diagnose - -o json` prints. Quote its findings rather than guessing.",
        input: schema::<DiagnoseText>,
        report: true,
        azure: false,
    },
    ToolSpec {
        name: "diagnose_paths",
        title: "Diagnose log files and folders",
        description: "Call this when the failure is in files on disk: container logs, a bundle saved by `amldoctor logs`/`diagnose --save`, or a ParallelRunStep log tree (it reads the tree's job and node logs and counts retries, timeouts and out-of-memory kills). Paths must be under the server's roots. Same report as `amldoctor diagnose PATH… -o json`.",
        input: schema::<DiagnosePaths>,
        report: true,
        azure: false,
    },
    ToolSpec {
        name: "explain",
        title: "Explain an error code, HTTP status or rule",
        description: "Call this when the user asks what an Azure ML error code (ImageBuildFailure, ResourceNotReady, OutOfQuota…), a scoring HTTP status (401, 408, 424, 429, 502…) or an amldoctor rule id means: its causes, checks and fix, with the commands to run.",
        input: schema::<Explain>,
        report: false,
        azure: false,
    },
    ToolSpec {
        name: "check_resources",
        title: "Check resource JSON for misconfiguration",
        description: "Call this with the JSON of Azure resources as `az ml online-deployment show`, `az ml online-endpoint show`, `az ml workspace show`, `az keyvault show` or the ARM REST API print it: finds settings that break deployments (probe timings, request timeouts, traffic, public network access, private endpoints, Key Vault firewall). Same report as `amldoctor check all --from - -o json` (or the area asked for).",
        input: schema::<CheckResources>,
        report: true,
        azure: false,
    },
    ToolSpec {
        name: "lint_paths",
        title: "Lint deployment files before deploying",
        description: "Call this before the user runs `az ml online-deployment create` or submits a parallel job: checks the deployment YAML, conda/pip environment files and scoring or entry scripts under the server's roots for what would fail once deployed, with the line to change. Same report as `amldoctor lint PATH… -o json`.",
        input: schema::<LintPaths>,
        report: true,
        azure: false,
    },
    ToolSpec {
        name: "replicas",
        title: "Size an online deployment",
        description: "Call this when the user asks how many instances a request rate needs, or why requests get 429: computes instances from rps, request time, max concurrent requests per instance and target utilization, and the pending-request ceiling beyond which the service answers 429.",
        input: schema::<Replicas>,
        report: false,
        azure: false,
    },
    ToolSpec {
        name: "rules_search",
        title: "Search amldoctor's rule catalogue",
        description: "Call this to find which known failures amldoctor recognises for a topic (text), to list a family, or to read one rule in full (id): what it matches, why it matters, the fix and its commands.",
        input: schema::<RulesSearch>,
        report: false,
        azure: false,
    },
    ToolSpec {
        name: "diagnose_deployment",
        title: "Diagnose an online deployment live from Azure",
        description: "Call this when the user names a failing online endpoint or deployment and no log is at hand: reads its container and storage-initializer logs and its settings from Azure (read only, into a temporary folder removed afterwards), then diagnoses them. Same report as `amldoctor diagnose -e ENDPOINT -n DEPLOYMENT -o json`.",
        input: schema::<DiagnoseDeployment>,
        report: true,
        azure: true,
    },
    ToolSpec {
        name: "check_workspace",
        title: "Check a workspace's configuration live",
        description: "Call this when deployments fail on networking, images or access: reads the workspace, its registry, storage, Key Vault, private endpoints and (with an endpoint) the deployment from Azure, read only, and reports what is misconfigured. Same report as `amldoctor check all -o json` (or the area asked for).",
        input: schema::<CheckWorkspace>,
        report: true,
        azure: true,
    },
    ToolSpec {
        name: "get_logs",
        title: "Read a deployment's container log",
        description: "Call this to read an online deployment's container log (inference-server or storage-initializer) from Azure, read only, as the lines `amldoctor logs -e ENDPOINT -n DEPLOYMENT -o json` prints; pass them to diagnose_text, or call diagnose_deployment to do both at once.",
        input: schema::<GetLogs>,
        report: false,
        azure: true,
    },
];

/// A type's JSON Schema as a tool's `inputSchema`.
fn schema<T: JsonSchema>() -> Map<String, Value> {
    let generator = schemars::generate::SchemaSettings::draft2020_12().into_generator();
    let mut value = serde_json::to_value(generator.into_root_schema_for::<T>())
        .unwrap_or_else(|_| serde_json::json!({ "type": "object" }));
    if let Some(props) = value.get_mut("properties").and_then(Value::as_object_mut) {
        // clap knows the values a kind or an area may take; the schema says them too.
        for (key, values) in [("kind", kinds()), ("area", areas())] {
            if let Some(p) = props.get_mut(key) {
                p["enum"] = Value::from(values);
                if let Some(o) = p.as_object_mut() {
                    o.remove("type");
                }
            }
        }
    }
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

fn possible<E: clap::ValueEnum>() -> Vec<Value> {
    let mut values: Vec<Value> = E::value_variants()
        .iter()
        .filter_map(|v| v.to_possible_value())
        .map(|p| Value::from(p.get_name().to_owned()))
        .collect();
    values.push(Value::Null);
    values
}

fn kinds() -> Vec<Value> {
    possible::<crate::evidence::DocumentKind>()
}

fn areas() -> Vec<Value> {
    possible::<crate::cli::CheckSelection>()
}

/// The tool a call names, if this server serves it.
pub(super) fn find(name: &str, allow_azure: bool) -> Option<&'static ToolSpec> {
    TOOLS
        .iter()
        .find(|t| t.name == name && (allow_azure || !t.azure))
}

/// The command line of a call to `tool` with `arguments`; a bad argument is one
/// sentence for the agent.
pub(super) fn invocation(
    tool: &ToolSpec,
    arguments: Map<String, Value>,
    env: &ToolEnv,
) -> Result<Invocation, String> {
    known_arguments(tool, &arguments)?;
    let value = Value::Object(arguments);
    let mut argv = vec!["amldoctor".to_owned(), "-o".to_owned(), "json".to_owned()];
    let mut stdin = None;
    match tool.name {
        "diagnose_text" => {
            let a: DiagnoseText = parse(tool, value)?;
            stdin = Some(text_bytes(a.text)?);
            argv.extend(["diagnose".into(), "-".into()]);
            push_opt(&mut argv, "--kind", a.kind);
        }
        "diagnose_paths" => {
            let a: DiagnosePaths = parse(tool, value)?;
            argv.push("diagnose".into());
            push_opt(&mut argv, "--kind", a.kind);
            argv.push("--".into());
            argv.extend(confined(&a.paths, env)?);
        }
        "explain" => {
            let a: Explain = parse(tool, value)?;
            argv.extend(["explain".into(), "--".into(), a.subject]);
        }
        "check_resources" => {
            let a: CheckResources = parse(tool, value)?;
            stdin = Some(text_bytes(a.text)?);
            argv.push("check".into());
            argv.extend(area(a.area)?);
            argv.extend(["--from".into(), "-".into()]);
        }
        "lint_paths" => {
            let a: LintPaths = parse(tool, value)?;
            argv.extend(["lint".into(), "--".into()]);
            argv.extend(confined(&a.paths, env)?);
        }
        "replicas" => replicas(parse(tool, value)?, env, &mut argv)?,
        "rules_search" => rules_search(parse(tool, value)?, &mut argv),
        _ => azure(tool, value, env, &mut argv)?,
    }
    Ok(Invocation { argv, stdin })
}

fn replicas(a: Replicas, env: &ToolEnv, argv: &mut Vec<String>) -> Result<(), String> {
    argv.extend(["replicas".into(), "--rps".into(), a.rps.to_string()]);
    push_opt(argv, "--latency", a.latency);
    push_opt(
        argv,
        "--max-concurrent",
        a.max_concurrent.map(|n| n.to_string()),
    );
    push_opt(argv, "--utilization", a.utilization);
    push_opt(argv, "--instances", a.instances.map(|n| n.to_string()));
    if let Some(f) = a.deployment_file {
        let path = env.roots.confine(&f)?;
        argv.extend(["--deployment-file".into(), path.display().to_string()]);
    }
    Ok(())
}

fn rules_search(a: RulesSearch, argv: &mut Vec<String>) {
    argv.push("rules".into());
    if let Some(id) = a.id {
        argv.extend(["show".into(), "--".into(), id]);
    } else {
        argv.push("list".into());
        push_opt(argv, "--search", a.text);
        push_opt(argv, "--family", a.family);
    }
}

/// The tools that read Azure.
fn azure(
    tool: &ToolSpec,
    value: Value,
    env: &ToolEnv,
    argv: &mut Vec<String>,
) -> Result<(), String> {
    let scope = match tool.name {
        "diagnose_deployment" => {
            let a: DiagnoseDeployment = parse(tool, value)?;
            argv.push("diagnose".into());
            push_opt(argv, "--endpoint-name", Some(a.endpoint));
            push_opt(argv, "--name", a.deployment);
            a.scope
        }
        "check_workspace" => {
            let a: CheckWorkspace = parse(tool, value)?;
            argv.push("check".into());
            argv.extend(area(a.area)?);
            push_opt(argv, "--endpoint-name", a.endpoint);
            push_opt(argv, "--name", a.deployment);
            a.scope
        }
        "get_logs" => {
            let a: GetLogs = parse(tool, value)?;
            argv.push("logs".into());
            push_opt(argv, "--endpoint-name", Some(a.endpoint));
            push_opt(argv, "--name", a.deployment);
            push_opt(argv, "--container", a.container);
            push_opt(argv, "--lines", a.lines.map(|n| n.to_string()));
            a.scope
        }
        other => return Err(format!("there is no amldoctor tool named '{other}'")),
    };
    // A call's own scope wins over the server's flags: clap takes the last value.
    argv.extend(env.azure_flags.iter().cloned());
    push_opt(argv, "--subscription", scope.subscription);
    push_opt(argv, "--resource-group", scope.resource_group);
    push_opt(argv, "--workspace-name", scope.workspace);
    Ok(())
}

/// `--flag=value`, in one word: a value that starts with `-` stays a value and is
/// never read as another flag (an agent's `--output-file=…` must not become one).
fn push_opt(argv: &mut Vec<String>, flag: &str, value: Option<String>) {
    if let Some(v) = value {
        argv.push(format!("{flag}={v}"));
    }
}

/// The area `check` takes as its one positional word, checked against clap's values
/// first for the same reason.
fn area(value: Option<String>) -> Result<Option<String>, String> {
    match value {
        None => Ok(None),
        Some(v) if areas().contains(&Value::from(v.as_str())) => Ok(Some(v)),
        Some(v) => Err(format!(
            "area '{v}' is not one of {}",
            areas()
                .iter()
                .filter_map(Value::as_str)
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

fn confined(paths: &[String], env: &ToolEnv) -> Result<Vec<String>, String> {
    if paths.is_empty() {
        return Err("paths is empty; name at least one file or folder".to_owned());
    }
    paths
        .iter()
        .map(|p| env.roots.confine(p).map(|c| c.display().to_string()))
        .collect()
}

fn text_bytes(text: String) -> Result<Arc<[u8]>, String> {
    if text.len() > MAX_TEXT_BYTES {
        return Err(format!(
            "text is {} bytes; the tool takes at most {} MiB (save it to a file under a root and call diagnose_paths)",
            text.len(),
            MAX_TEXT_BYTES / (1024 * 1024)
        ));
    }
    Ok(Arc::from(text.into_bytes()))
}

/// An argument the schema does not have is refused by name, not ignored.
fn known_arguments(tool: &ToolSpec, arguments: &Map<String, Value>) -> Result<(), String> {
    let known: Vec<&String> = tool
        .schema()
        .get("properties")
        .and_then(Value::as_object)
        .map(|p| p.keys().collect())
        .unwrap_or_default();
    match arguments.keys().find(|k| !known.contains(k)) {
        Some(k) => Err(format!(
            "{} has no argument '{k}'; it takes {}",
            tool.name,
            known
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )),
        None => Ok(()),
    }
}

fn parse<T: serde::de::DeserializeOwned>(tool: &ToolSpec, value: Value) -> Result<T, String> {
    serde_json::from_value(value).map_err(|e| format!("{}: {e}", tool.name))
}
