//! Findings only a rehearsal can give, from what it recorded: the server never became
//! ready, or became ready later than the deployment's probes wait; a request that a
//! caller of a managed endpoint would get as 424 or 408; a script that needs Azure or a
//! model folder to start; and, when nothing failed, the next step. The script's own
//! failures (the import error, the traceback of `init()` or `run()`) are the
//! catalogue's, read from the server log or the job's log tree.

use std::collections::BTreeMap;

use super::summary::{MiniBatchOutcome, RehearsalMode, RehearsalSummary, RequestRecord};
use crate::finding::{Computed, Evidence};

/// The rules computed here, in report order.
pub(crate) const COMPUTED_RULES: &[&str] = &[
    SERVER_NOT_STARTED,
    "rehearse-init-needs-azure",
    "rehearse-model-dir-missing",
    "rehearse-startup-over-probe-budget",
    "rehearse-request-failed",
    "rehearse-request-over-timeout",
    "rehearse-stopped",
    "rehearse-no-request",
    "rehearse-online-ready",
    "rehearse-parallel-ready",
];

const SERVER_NOT_STARTED: &str = "rehearse-server-not-started";

/// What a rehearsal recorded, and what the analysis needs beside the report's section.
#[derive(Debug, Clone)]
pub(crate) struct RehearsalRun {
    pub(crate) summary: RehearsalSummary,
    /// The server log's last lines (where a server that never answered says why).
    pub(crate) log_tail: Vec<Evidence>,
    /// Lines of the script that reach Azure ([`azure_calls`]).
    pub(crate) azure_calls: Vec<Evidence>,
    /// Lines of the script that read `AZUREML_MODEL_DIR`.
    pub(crate) model_dir_uses: Vec<Evidence>,
    /// The deployment's `request_timeout_ms`, and whether it is the platform's default
    /// (online only).
    pub(crate) request_timeout_ms: Option<(u64, bool)>,
}

/// Calls that need a workspace (SDK v1 `Model.get_model_path`, a `Workspace` or run
/// context, an `MLClient` with a credential): on a deployment they reach Azure, locally
/// they need a login, and in a container without one they fail.
const AZURE_CALLS: &[&str] = &[
    "get_model_path(",
    "Workspace.from_config(",
    "Workspace.get(",
    "Workspace(",
    "Run.get_context(",
    "MLClient(",
    "DefaultAzureCredential(",
    "InteractiveLoginAuthentication(",
];

/// The lines of `text` (the script at `path`) that name an Azure call, and those that
/// read `AZUREML_MODEL_DIR`; comments left out.
pub(crate) fn script_lines(path: &str, text: &str) -> (Vec<Evidence>, Vec<Evidence>) {
    let mut azure = Vec::new();
    let mut model_dir = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let code = line.split('#').next().unwrap_or("");
        let at = || Evidence::at_line(path, i as u64 + 1, line.trim_end());
        if AZURE_CALLS.iter().any(|c| code.contains(c)) {
            azure.push(at());
        }
        if code.contains("AZUREML_MODEL_DIR") {
            model_dir.push(at());
        }
    }
    (azure, model_dir)
}

fn computed(
    id: &'static str,
    evidence: Vec<Evidence>,
    facts: BTreeMap<String, String>,
) -> Computed {
    Computed {
        rule_id: id,
        count: evidence.len().max(1) as u64,
        evidence,
        facts,
        names: BTreeMap::new(),
        commands: Vec::new(),
        edits: Vec::new(),
    }
}

fn facts(pairs: &[(&str, String)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .filter(|(_, v)| !v.is_empty())
        .map(|(k, v)| ((*k).to_owned(), v.clone()))
        .collect()
}

fn seconds(ms: u64) -> String {
    format!("{}.{} s", ms / 1000, (ms % 1000) / 100)
}

/// The findings of one rehearsal.
pub(crate) fn compute(run: &RehearsalRun) -> Vec<Computed> {
    let mut out = match run.summary.mode {
        RehearsalMode::Online => online(run),
        RehearsalMode::Parallel => parallel(run),
    };
    if let Some(why) = &run.summary.stopped {
        out.push(computed(
            "rehearse-stopped",
            Vec::new(),
            facts(&[("reason", why.clone())]),
        ));
    }
    out
}

fn online(run: &RehearsalRun) -> Vec<Computed> {
    let s = &run.summary;
    let mut out = Vec::new();
    let Some(startup) = &s.startup else {
        return out;
    };
    let failed_requests: Vec<&RequestRecord> = s.requests.iter().filter(|r| !ok(r)).collect();
    let broken = !startup.ready || !failed_requests.is_empty();
    if !startup.ready {
        let how = startup.exit.clone().map_or_else(
            || format!("did not answer GET / within {}", seconds(startup.limit_ms)),
            |e| format!("{e} after {}", seconds(startup.millis)),
        );
        out.push(computed(
            SERVER_NOT_STARTED,
            run.log_tail.clone(),
            facts(&[("how", how), ("log", s.kept.clone().unwrap_or_default())]),
        ));
    }
    if broken && !run.azure_calls.is_empty() {
        out.push(computed(
            "rehearse-init-needs-azure",
            run.azure_calls.clone(),
            BTreeMap::new(),
        ));
    }
    if !startup.ready && s.model_dir.is_none() && !run.model_dir_uses.is_empty() {
        out.push(computed(
            "rehearse-model-dir-missing",
            run.model_dir_uses.clone(),
            BTreeMap::new(),
        ));
    }
    if let Some(b) = &startup.budget
        && startup.exit.is_none()
        && startup.millis > b.millis
    {
        let took = if startup.ready {
            format!(
                "answered its liveness route after {}",
                seconds(startup.millis)
            )
        } else {
            format!("still had not answered after {}", seconds(startup.millis))
        };
        out.push(computed(
            "rehearse-startup-over-probe-budget",
            Vec::new(),
            facts(&[
                ("took", took),
                ("probe", b.probe.clone()),
                ("budget", b.formula.clone()),
            ]),
        ));
    }
    requests(run, &failed_requests, &mut out);
    if startup.ready && s.requests.is_empty() {
        out.push(computed("rehearse-no-request", Vec::new(), BTreeMap::new()));
    }
    if out.is_empty() {
        out.push(computed(
            "rehearse-online-ready",
            Vec::new(),
            BTreeMap::new(),
        ));
    }
    out
}

/// An answer a caller would take as success.
fn ok(r: &RequestRecord) -> bool {
    r.status.is_some_and(|s| (200..300).contains(&s))
}

fn describe(r: &RequestRecord) -> String {
    let got = match (r.status, &r.error) {
        (Some(s), _) => format!("HTTP {s}"),
        (None, Some(e)) => e.clone(),
        (None, None) => "no answer".to_owned(),
    };
    let mut parts = vec![format!("{}: {got} after {} ms", r.input, r.millis)];
    if let Some(c) = r.caller_status.filter(|c| Some(*c) != r.status) {
        parts.push(format!("a caller of the endpoint gets {c}"));
    }
    if r.run_function_failed {
        parts.push("x-ms-run-function-failed: True".to_owned());
    }
    if !r.body_start.is_empty() {
        parts.push(format!("body {}", r.body_start));
    }
    parts.join("; ")
}

fn requests(run: &RehearsalRun, failed: &[&RequestRecord], out: &mut Vec<Computed>) {
    let at =
        |r: &RequestRecord| Evidence::computed_in(run.summary.entry_script.clone(), describe(r));
    if !failed.is_empty() {
        let statuses: Vec<String> = failed
            .iter()
            .map(|r| {
                r.status
                    .map_or_else(|| "no answer".to_owned(), |s| s.to_string())
            })
            .collect();
        let callers: Vec<String> = failed
            .iter()
            .filter_map(|r| r.caller_status.map(|c| c.to_string()))
            .collect();
        out.push(computed(
            "rehearse-request-failed",
            failed.iter().map(|r| at(r)).collect(),
            facts(&[
                ("statuses", statuses.join(", ")),
                ("caller_statuses", callers.join(", ")),
                ("of_requests", run.summary.requests.len().to_string()),
            ]),
        ));
    }
    let Some((limit, default)) = run.request_timeout_ms else {
        return;
    };
    let slow: Vec<&RequestRecord> = run
        .summary
        .requests
        .iter()
        .filter(|r| ok(r) && r.millis > limit)
        .collect();
    if !slow.is_empty() {
        let from = if default {
            "the platform's default"
        } else {
            "the deployment file's"
        };
        out.push(computed(
            "rehearse-request-over-timeout",
            slow.iter().map(|r| at(r)).collect(),
            facts(&[("request_timeout", format!("{limit} ms ({from})"))]),
        ));
    }
}

fn parallel(run: &RehearsalRun) -> Vec<Computed> {
    let s = &run.summary;
    let clean = s.stopped.is_none()
        && s.processes.iter().all(|p| p.init_ok)
        && s.mini_batches
            .iter()
            .all(|m| m.outcome == MiniBatchOutcome::Succeeded);
    if clean && !s.mini_batches.is_empty() {
        let items: u64 = s.mini_batches.iter().map(|m| m.items).sum();
        vec![computed(
            "rehearse-parallel-ready",
            Vec::new(),
            facts(&[
                ("mini_batches", s.mini_batches.len().to_string()),
                ("items", items.to_string()),
                ("processes", s.processes.len().to_string()),
            ]),
        )]
    } else {
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rehearsal::summary::Startup;

    fn run(ready: bool, requests: Vec<RequestRecord>) -> RehearsalRun {
        RehearsalRun {
            summary: RehearsalSummary {
                mode: RehearsalMode::Online,
                entry_script: "score.py".into(),
                python: "python3".into(),
                python_version: "3.11.2".into(),
                server_version: Some("1.5.1".into()),
                model_dir: None,
                kept: None,
                environment: Vec::new(),
                settings: Vec::new(),
                startup: Some(Startup {
                    ready,
                    millis: 1200,
                    limit_ms: 120_000,
                    exit: (!ready).then(|| "exited with code 3".to_owned()),
                    budget: None,
                }),
                requests,
                processes: Vec::new(),
                mini_batches: Vec::new(),
                stopped: None,
            },
            log_tail: Vec::new(),
            azure_calls: Vec::new(),
            model_dir_uses: vec![Evidence::at_line(
                "score.py",
                4,
                "os.getenv(\"AZUREML_MODEL_DIR\")",
            )],
            request_timeout_ms: Some((5000, true)),
        }
    }

    fn request(status: u16, millis: u64) -> RequestRecord {
        RequestRecord {
            input: "request.json".into(),
            status: Some(status),
            caller_status: Some(if (200..300).contains(&status) {
                status
            } else {
                424
            }),
            millis,
            run_function_failed: status == 500,
            request_id: None,
            body_start: String::new(),
            error: None,
        }
    }

    fn ids(run: &RehearsalRun) -> Vec<&'static str> {
        compute(run).iter().map(|c| c.rule_id).collect()
    }

    #[test]
    fn a_server_that_exited_without_a_model_dir_says_both() {
        assert_eq!(
            ids(&run(false, Vec::new())),
            [SERVER_NOT_STARTED, "rehearse-model-dir-missing"]
        );
    }

    #[test]
    fn requests_are_judged_as_a_caller_of_the_endpoint_sees_them() {
        assert_eq!(
            ids(&run(true, vec![request(200, 30)])),
            ["rehearse-online-ready"]
        );
        assert_eq!(
            ids(&run(true, vec![request(500, 30)])),
            ["rehearse-request-failed"]
        );
        assert_eq!(
            ids(&run(true, vec![request(200, 6000)])),
            ["rehearse-request-over-timeout"]
        );
        assert_eq!(ids(&run(true, Vec::new())), ["rehearse-no-request"]);
    }

    #[test]
    fn script_lines_skip_comments() {
        let (azure, dir) = script_lines(
            "score.py",
            "# Model.get_model_path(\"x\") was the v1 way\npath = Model.get_model_path(\"m\")\nd = os.environ['AZUREML_MODEL_DIR']\n",
        );
        assert_eq!(azure.len(), 1);
        assert_eq!(azure[0].location.line(), 2);
        assert_eq!(dir.len(), 1);
    }
}
