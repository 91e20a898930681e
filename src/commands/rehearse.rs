//! `amldoctor rehearse online|parallel`: resolve the script, files and settings, have
//! `source::rehearsal` run it locally (the real inference server, or the
//! ParallelRunStep harness), and report what happened through the shared analysis: the
//! server log or the job's log tree scanned by the catalogue, plus what only the run
//! shows.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::analyse::{
    Analysed, Evidence, Options, ReadMode, Selection, analyse, gather, placeholders,
};
use crate::checks::deployment::Settings;
use crate::cli::RehearseOnlineArgs;
use crate::context::Context;
use crate::error::{Error, Result};
use crate::exit_code::ExitCode;
use crate::finding::Evidence as Line;
use crate::ratio::Ratio;
use crate::rehearsal::computed::{RehearsalRun, script_lines};
use crate::rehearsal::probe_budget;
use crate::rehearsal::summary::{RehearsalMode, RehearsalSummary, RequestRecord, Startup};
use crate::source::rehearsal::{self as run, TempDir, online};

use super::pipeline::finish;
use super::support::load_rules;

/// `--timeout` as a duration of 1 s to 24 h.
pub(super) fn limit(t: Ratio, flag: &str) -> Result<Duration> {
    crate::scoring::bounds::duration(t, flag, 1000..=86_400_000, "between 1 s and 24 h")
}

/// What the deployment file says that a rehearsal uses.
#[derive(Debug, Default)]
struct DeploymentFile {
    shown: Option<String>,
    settings: Settings,
    env: Vec<(String, String)>,
    scoring_script: Option<PathBuf>,
    /// `endpoint_name` and `name`, for the commands printed (flags and the project file win).
    names: Vec<(&'static str, String)>,
}

fn deployment_file(path: Option<&Path>) -> Result<DeploymentFile> {
    let Some(path) = path else {
        return Ok(DeploymentFile::default());
    };
    let doc = run::read_yaml(path, "--deployment-file")?;
    let shown = path.display().to_string();
    if !doc.value.is_object() {
        return Err(Error::input(format!(
            "--deployment-file {shown}: expected an online deployment YAML (a mapping with endpoint_name, model, code_configuration …)"
        )));
    }
    let spec = crate::lint::deployment_resource(&shown, &doc);
    let env = doc
        .value
        .get("environment_variables")
        .and_then(serde_json::Value::as_object)
        .map(|vars| {
            vars.iter()
                .map(|(k, v)| {
                    (
                        k.clone(),
                        v.as_str().map_or_else(|| v.to_string(), str::to_owned),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    let dir = path.parent().unwrap_or(Path::new("."));
    let code = doc
        .value
        .pointer("/code_configuration/code")
        .and_then(|v| v.as_str());
    let scoring_script = doc
        .value
        .pointer("/code_configuration/scoring_script")
        .and_then(|v| v.as_str())
        .map(|s| dir.join(code.unwrap_or(".")).join(s));
    let names = [("endpoint", "endpoint_name"), ("deployment", "name")]
        .into_iter()
        .filter_map(|(placeholder, key)| {
            let v = doc.value.get(key)?.as_str()?;
            Some((placeholder, v.to_owned()))
        })
        .collect();
    Ok(DeploymentFile {
        names,
        shown: Some(shown),
        settings: Settings::read(&spec),
        env,
        scoring_script,
    })
}

pub(crate) fn online(
    ctx: &Context,
    args: &RehearseOnlineArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitCode> {
    let set = load_rules(ctx, &args.rule_dirs)?;
    let timeout = limit(args.timeout, "--timeout")?;
    let dep = deployment_file(args.deployment_file.as_deref())?;
    let script = args.entry_script.clone().or(dep.scoring_script.clone()).ok_or_else(|| {
        Error::input("rehearse online needs the scoring script: pass --entry-script FILE (or a --deployment-file whose code_configuration names it)")
    })?;
    let script = run::require_file(&script, "--entry-script")?;
    let model_dir = args
        .model_dir
        .as_deref()
        .map(|d| run::require_path(d, "--model-dir", true))
        .transpose()?;
    let mut requests = Vec::new();
    for d in &args.data {
        requests.push((d.display().to_string(), run::read_body(d)?));
    }
    let python = run::probe(
        args.python.as_deref(),
        &[(
            "azureml-inference-server-http",
            "azureml_inference_server_http",
        )],
    )?;
    let server_version = python
        .package("azureml-inference-server-http")
        .ok_or_else(|| python.lacks("azureml-inference-server-http", "rehearse online"))?
        .to_owned();
    let (temp, work_dir) = working_folder(args.out.as_deref())?;
    let setup = online::OnlineSetup {
        python: &python,
        entry_script: script.clone(),
        model_dir: model_dir.clone(),
        requests,
        content_type: args.content_type.clone(),
        env: dep.env.clone(),
        timeout,
        work_dir: work_dir.clone(),
    };
    let outcome = online::run(&setup)?;
    let shown_script = script.display().to_string();
    let (azure_calls, model_dir_uses) = script_lines(&shown_script, &run::script_text(&script));
    let log = outcome.log.display().to_string();
    let log_tail = run::log_tail(&outcome.log, 6)
        .into_iter()
        .map(|(n, l)| Line::at_line(log.clone(), n, l))
        .collect();
    let request_timeout_ms = probe_budget::request_timeout_ms(&dep.settings);
    let summary = RehearsalSummary {
        mode: RehearsalMode::Online,
        entry_script: shown_script,
        python: python.path.display().to_string(),
        python_version: python.version.clone(),
        server_version: Some(server_version),
        model_dir: model_dir.map(|d| d.display().to_string()),
        kept: temp.is_none().then(|| log.clone()),
        environment: dep.env.iter().map(|(k, _)| k.clone()).collect(),
        settings: Vec::new(),
        startup: Some(Startup {
            ready: outcome.ready,
            millis: millis(outcome.startup),
            limit_ms: millis(timeout),
            exit: outcome.exit.clone(),
            budget: dep.shown.as_ref().map(|_| probe_budget::of(&dep.settings)),
        }),
        requests: outcome
            .answers
            .iter()
            .map(|(name, a)| request_record(name, a, request_timeout_ms.0))
            .collect(),
        processes: Vec::new(),
        mini_batches: Vec::new(),
        stopped: None,
    };
    let mut evidence = gather(&[log], None, ReadMode::Logs);
    evidence.rehearsal = Some(RehearsalRun {
        summary,
        log_tail,
        azure_calls,
        model_dir_uses,
        request_timeout_ms: Some(request_timeout_ms),
    });
    let mut names = placeholders::of_context(ctx);
    if let Some(f) = &dep.shown {
        names.insert("deployment_yaml", f.clone());
    }
    for (placeholder, value) in &dep.names {
        names.entry(placeholder).or_insert_with(|| value.clone());
    }
    report(
        ctx,
        &set,
        &args.report,
        temp.as_ref(),
        evidence,
        names,
        out,
        err,
    )
}

/// `--out`, else a temporary folder removed when the command returns.
pub(super) fn working_folder(out: Option<&Path>) -> Result<(Option<TempDir>, PathBuf)> {
    match out {
        Some(dir) => Ok((None, run::out_dir(dir)?)),
        None => {
            let t = TempDir::create("rehearse")?;
            let path = t.path.clone();
            Ok((Some(t), path))
        }
    }
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// One answer as the report shows it, with what a caller of a managed endpoint gets:
/// the container's failure as 424, an answer past the request timeout as 408.
fn request_record(
    name: &str,
    answer: &std::result::Result<run::http::Answer, String>,
    request_timeout_ms: u64,
) -> RequestRecord {
    match answer {
        Ok(a) => {
            let ms = millis(a.latency);
            let caller = match a.status {
                s if !(200..300).contains(&s) => 424,
                _ if ms > request_timeout_ms => 408,
                s => s,
            };
            let body = String::from_utf8_lossy(&a.body);
            RequestRecord {
                input: name.to_owned(),
                status: Some(a.status),
                caller_status: Some(caller),
                millis: ms,
                run_function_failed: a
                    .header("x-ms-run-function-failed")
                    .is_some_and(|v| v.eq_ignore_ascii_case("true")),
                request_id: a.header("x-ms-request-id").map(str::to_owned),
                body_start: crate::redact::redact(&body.chars().take(200).collect::<String>())
                    .into_owned(),
                error: None,
            }
        }
        Err(e) => RequestRecord {
            input: name.to_owned(),
            status: None,
            caller_status: None,
            millis: 0,
            run_function_failed: false,
            request_id: None,
            body_start: String::new(),
            error: Some(e.clone()),
        },
    }
}

/// The shared tail: analyse, show a temporary folder's paths by what they are, report.
#[allow(clippy::too_many_arguments)]
pub(super) fn report(
    ctx: &Context,
    set: &crate::rules::RuleSet,
    args: &crate::cli::ReportArgs,
    temp: Option<&TempDir>,
    evidence: Evidence,
    names: crate::rules::template::Placeholders,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitCode> {
    let mut a: Analysed = analyse(set, evidence, &Options::new(Selection::Everything, names));
    if let Some(t) = temp {
        let origins = crate::analyse::origins::Origins::of_folder(
            &t.path.display().to_string(),
            "rehearsal (not kept)",
        );
        origins.relabel(&mut a);
    }
    finish("rehearse", ctx, set, args, a, out, err)
}
