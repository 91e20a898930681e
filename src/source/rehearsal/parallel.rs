//! `rehearse parallel`: the harness shipped in the binary runs the entry script as the
//! ParallelRunStep driver does and writes a job's log tree. This side writes the harness
//! and its configuration, runs it in a process group under the whole run's time limit,
//! and reads back the summary it leaves beside the tree.

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use serde::Serialize;

use super::Interpreter;
use super::process::{Group, describe_exit};
use crate::error::{Error, Result};
use crate::rehearsal::job_settings::MiniBatchSize;

const HARNESS: &str = include_str!("../../../assets/rehearse/parallel_harness.py");

/// The harness's configuration, as it reads it (keys are the harness's).
#[derive(Debug, Clone, Serialize)]
pub(crate) struct ParallelSetup {
    pub(crate) entry_script: PathBuf,
    pub(crate) inputs: Vec<PathBuf>,
    pub(crate) input_type: &'static str,
    pub(crate) mini_batch_size: MiniBatchSize,
    pub(crate) processes: u64,
    /// `run_invocation_timeout`, in seconds.
    pub(crate) timeout: u64,
    pub(crate) max_tries: u64,
    /// -1 for none.
    pub(crate) error_threshold: i64,
    pub(crate) output_action: &'static str,
    pub(crate) append_row_file_name: String,
    pub(crate) args: Vec<String>,
    /// The job's folder: `logs/`, `azureml-logs/`, `outputs/`.
    pub(crate) out: PathBuf,
    pub(crate) working_dir: PathBuf,
    /// Where the harness writes its summary (outside the log tree).
    pub(crate) summary: PathBuf,
    /// The whole run's limit.
    #[serde(skip)]
    pub(crate) total_timeout: Duration,
    /// Where the harness itself and its output go.
    #[serde(skip)]
    pub(crate) work_dir: PathBuf,
}

/// What the harness left.
#[derive(Debug, Clone)]
pub(crate) struct ParallelOutcome {
    /// Its summary (`None` when it was stopped before writing one).
    pub(crate) summary: Option<serde_json::Value>,
    /// The run passed the whole-run limit and was stopped.
    pub(crate) timed_out: bool,
}

/// Runs the harness to its end or to the whole run's limit.
pub(crate) fn run(setup: &ParallelSetup, python: &Interpreter) -> Result<ParallelOutcome> {
    let harness = super::write_asset(&setup.work_dir, "parallel_harness.py", HARNESS)?;
    let config = setup.work_dir.join("harness-config.json");
    let text = serde_json::to_string(setup).map_err(|e| Error::input(e.to_string()))?;
    std::fs::write(&config, text)
        .map_err(|e| Error::input(format!("cannot write {}: {e}", config.display())))?;
    std::fs::create_dir_all(&setup.out)
        .map_err(|e| Error::input(format!("cannot create {}: {e}", setup.out.display())))?;
    let log = setup.work_dir.join("harness.log");
    let mut command = Command::new(&python.path);
    command
        .arg(&harness)
        .arg(&config)
        .current_dir(&setup.working_dir)
        .env("PYTHONUNBUFFERED", "1")
        // No __pycache__ left in the user's project by a rehearsal.
        .env("PYTHONDONTWRITEBYTECODE", "1");
    let mut group = Group::spawn(command, &log, "the ParallelRunStep harness")?;
    let status = group.wait_until(Instant::now() + setup.total_timeout);
    group.stop(Duration::from_secs(3));
    let summary = std::fs::read(&setup.summary)
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok());
    match (status, &summary) {
        (None, _) => Ok(ParallelOutcome {
            summary,
            timed_out: true,
        }),
        (Some(s), None) => {
            let tail = super::log_tail(&log, 1);
            let last = tail
                .last()
                .map_or("it printed nothing", |(_, l)| l.as_str());
            Err(Error::input(format!(
                "the ParallelRunStep harness {} before it finished: {last}",
                describe_exit(s)
            )))
        }
        (Some(_), Some(_)) => Ok(ParallelOutcome {
            summary,
            timed_out: false,
        }),
    }
}
