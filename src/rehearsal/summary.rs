//! The rehearsal section of a report: the interpreter, the start-up, each request or
//! mini-batch and what came of it. Built by the rehearse command from what its run
//! recorded; printed by `report::rehearsal_table` and as the `rehearsal` key of JSON.

use serde::Serialize;

/// What was rehearsed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum RehearsalMode {
    /// The scoring script under the inference server (`rehearse online`).
    Online,
    /// The entry script under the ParallelRunStep harness (`rehearse parallel`).
    Parallel,
}

/// One rehearsal.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct RehearsalSummary {
    pub mode: RehearsalMode,
    pub entry_script: String,
    /// The interpreter that ran it, and its version.
    pub python: String,
    pub python_version: String,
    /// The inference server package's version (online).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub server_version: Option<String>,
    /// `AZUREML_MODEL_DIR` as the server got it (online).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model_dir: Option<String>,
    /// Where the server's log or the job's log tree was kept (`--out`); none when the
    /// temporary folder was removed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kept: Option<String>,
    /// The environment variables set from the deployment file (names only: values
    /// may be secrets).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub environment: Vec<String>,
    /// The job's settings as rehearsed, and where each came from (parallel).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub settings: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub startup: Option<Startup>,
    pub requests: Vec<RequestRecord>,
    pub processes: Vec<WorkerProcess>,
    pub mini_batches: Vec<MiniBatch>,
    /// Why the run ended early (a time limit, every init() failing, the error threshold).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped: Option<String>,
}

/// The server's start-up (online).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Startup {
    /// The liveness route answered 200.
    pub ready: bool,
    /// From the start of the server to its first 200 (or to giving up).
    pub millis: u64,
    /// How long the rehearsal waited at most (`--timeout`).
    pub limit_ms: u64,
    /// How the server ended when it exited before answering.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exit: Option<String>,
    /// The deployment's probes' patience, when a deployment file was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub budget: Option<super::probe_budget::ProbeBudget>,
}

/// One request sent to the server's scoring route (online).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct RequestRecord {
    /// The `--data` file, or `swagger sample` for the schema's example.
    pub input: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    /// What a caller of a managed endpoint would get for it: a non-2xx answer of the
    /// container comes back as 424, an answer past `request_timeout_ms` as 408.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub caller_status: Option<u16>,
    pub millis: u64,
    /// The server said run() raised (`x-ms-run-function-failed: True`).
    pub run_function_failed: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_id: Option<String>,
    /// The first characters of the body.
    pub body_start: String,
    /// The request got no answer: why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// One worker process of the harness (parallel).
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct WorkerProcess {
    pub name: String,
    pub init_ok: bool,
    pub init_seconds: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Its peak resident memory, in MiB.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub peak_memory_mb: Option<u64>,
}

/// One mini-batch, by its last attempt (parallel).
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct MiniBatch {
    pub id: u64,
    pub items: u64,
    /// Its files or rows.
    pub detail: String,
    pub tries: u64,
    pub seconds: f64,
    /// How many results run() returned (none for an exception or a return that is not
    /// a list, array or frame).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub results: Option<u64>,
    pub outcome: MiniBatchOutcome,
    pub process: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub peak_memory_mb: Option<u64>,
}

/// How a mini-batch ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum MiniBatchOutcome {
    Succeeded,
    /// run() returned fewer results than inputs.
    FewerResults,
    /// run() raised (or returned something that is not a list, array or frame).
    Failed,
    /// run() did not return within the run_invocation_timeout.
    TimedOut,
    /// Never finished: the run stopped first.
    NotRun,
}

impl MiniBatchOutcome {
    pub(crate) fn label(self) -> &'static str {
        match self {
            MiniBatchOutcome::Succeeded => "succeeded",
            MiniBatchOutcome::FewerResults => "fewer results",
            MiniBatchOutcome::Failed => "failed",
            MiniBatchOutcome::TimedOut => "timed out",
            MiniBatchOutcome::NotRun => "not run",
        }
    }
}

impl RehearsalSummary {
    /// Paths shown as the report shows them (a temporary folder by what was read there).
    pub(crate) fn relabel(&mut self, show: &dyn Fn(&str) -> String) {
        if let Some(k) = &mut self.kept {
            *k = show(k);
        }
    }
}
