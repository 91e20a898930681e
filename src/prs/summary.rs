//! The job summary of one ParallelRunStep tree: the types the reports render (table,
//! json, yaml, markdown). Kept apart from the code that fills them so writers depend on
//! plain data only.

use std::fmt;

use serde::Serialize;

use super::facts::FileFacts;
use super::tree::Role;
use super::user_errors::Phase;
use crate::finding::Evidence;

/// Defaults from the ParallelRunConfig documentation, used when the driver log does not
/// show a value (findings say so).
pub(crate) const DEFAULT_RUN_INVOCATION_TIMEOUT: u64 = 60;
/// GPU nodes default to one process; CPU nodes to their core count, which logs do not show.
pub(crate) const DEFAULT_PROCESS_COUNT_PER_NODE: u64 = 1;
/// Memory use at or above this on a node where a worker was killed corroborates an OOM.
pub(crate) const OOM_MEMORY_PERCENT: f64 = 90.0;
/// Failing mini-batches listed in json/yaml (the table shows fewer).
pub(crate) const MAX_FAILING_LISTED: usize = 50;

/// A number as the summary and the findings quoting it show it: two decimals.
pub(super) fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// One parsed file of a tree.
#[derive(Debug, Clone)]
pub(crate) struct ParsedFile {
    pub path: String,
    pub role: Role,
    pub facts: FileFacts,
}

/// A configuration value and where it came from.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct ConfigValue {
    pub value: i64,
    pub source: ConfigSource,
}

/// Where a configuration value was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ConfigSource {
    /// The driver's command-line arguments.
    DriverLog,
    /// Implied by a message of the job (the error threshold in its closing summary).
    JobMessages,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Config {
    pub node_count: Option<ConfigValue>,
    pub process_count_per_node: Option<ConfigValue>,
    pub run_invocation_timeout: Option<ConfigValue>,
    pub run_max_try: Option<ConfigValue>,
    pub error_threshold: Option<ConfigValue>,
    /// Seconds between resource samples; 0 turns the monitor off (default 600).
    pub resource_monitor_interval: Option<ConfigValue>,
    /// `append_row` or `summary_only`, as the driver was given it.
    pub output_action: Option<String>,
    /// The `append_row` output file (`parallel_run_step.txt` unless set).
    pub append_row_file_name: Option<String>,
    /// The entry script's log level (`INFO` unless set).
    pub logging_level: Option<String>,
    /// The entry script (`--scoring_module_name`).
    pub entry_script: Option<String>,
}

/// The `append_row` output file when `append_row_file_name` does not name one.
pub(crate) const DEFAULT_APPEND_ROW_FILE: &str = "parallel_run_step.txt";

impl Config {
    /// What becomes of `run()`'s results (`append_row into scores.txt, …`), when the
    /// driver log shows `output_action`.
    pub fn output(&self) -> Option<String> {
        let action = self.output_action.as_deref()?;
        Some(if action.eq_ignore_ascii_case("summary_only") {
            "summary_only: run() results are only counted against the error threshold; the entry script writes its own output".to_owned()
        } else if action.eq_ignore_ascii_case("append_row") {
            let file = self
                .append_row_file_name
                .as_deref()
                .unwrap_or(DEFAULT_APPEND_ROW_FILE);
            format!(
                "append_row into {file}, rows in no guaranteed order (key each row by its input)"
            )
        } else {
            format!("{action} (neither append_row nor summary_only)")
        })
    }

    /// How many `run()` calls the job runs at once: processes per node × nodes, as
    /// the settings say (`"2 nodes × 4 processes = 8 at a time"`).
    pub fn workers(&self) -> Option<String> {
        let nodes = self.node_count.as_ref()?.value;
        let per = self.process_count_per_node.as_ref()?.value;
        let total = nodes.checked_mul(per)?;
        (nodes > 0 && per > 0).then(|| {
            let s =
                |n: i64, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
            format!(
                "{} × {} = {total} run() calls at a time",
                s(nodes, "node", "nodes"),
                s(per, "process", "processes")
            )
        })
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Counts {
    pub scheduled: Option<u64>,
    /// Distinct mini-batches with a final attempt.
    pub processed: Option<u64>,
    /// Processed mini-batches whose final attempt failed.
    pub failed: Option<u64>,
    /// Scheduled but never finished (abandoned when the job stopped).
    pub unprocessed: Option<u64>,
}

/// Every attempt, retries included (the mini-batch CSV rows).
#[derive(Debug, Clone, Default, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Attempts {
    pub total: u64,
    pub failed: u64,
    pub retries: u64,
    /// Attempts where run() raised (not counting killed workers).
    pub run_exceptions: u64,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Items {
    pub total: Option<u64>,
    pub succeeded: Option<u64>,
    pub failed: Option<u64>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, schemars::JsonSchema)]
pub struct NodeSummary {
    pub node: String,
    pub processes: u64,
    /// Attempts run on the node (retries included).
    pub mini_batches: u64,
    /// Failed attempts.
    pub failures: u64,
    /// Attempts beyond the first of their mini-batch.
    pub retries: u64,
    pub mean_run_seconds: Option<f64>,
    pub p95_run_seconds: Option<f64>,
    /// Worker processes started beyond the configured count.
    pub restarts: u64,
    /// Worker processes that exited with `returncode -9`.
    pub killed: u64,
    pub peak_memory_percent: Option<f64>,
    pub peak_cpu_percent: Option<f64>,
    /// The process that held the most memory on the node, from the process CSV or the
    /// `ps` snapshots (`process001 (pid 409): 11,140 MB at …`).
    pub largest_process: Option<String>,
    /// The highest use of any of the node's disks.
    pub peak_disk_percent: Option<f64>,
    /// That disk and reading (`/mnt 99.7 % used (0.2 GB free) at …`).
    pub fullest_disk: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, schemars::JsonSchema)]
pub struct ProcessSummary {
    pub node: String,
    pub process: String,
    pub mini_batches: u64,
    pub failures: u64,
    pub retries: u64,
    pub mean_run_seconds: Option<f64>,
    pub p95_run_seconds: Option<f64>,
    pub exit_code: Option<i32>,
}

#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct MiniBatch {
    pub id: String,
    pub node: String,
    pub process: String,
    pub attempts: u32,
    pub seconds: Option<f64>,
    pub status: String,
    pub error_category: String,
    pub error_message: String,
    pub inputs: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct ErrorGroup {
    /// `run`, `init`, or empty when the file does not say.
    pub phase: Phase,
    pub exception: String,
    pub message: String,
    pub count: u64,
    /// `path:line` of the first occurrence.
    pub first: String,
}

/// Everything the report says about one tree.
#[derive(Debug, Clone, Default, PartialEq, Serialize, schemars::JsonSchema)]
pub struct PrsSummary {
    pub root: String,
    pub layout: &'static str,
    pub outcome: JobOutcome,
    pub stop_reason: Option<&'static str>,
    pub stop_message: Option<Evidence>,
    pub leader_exit_code: Option<i32>,
    pub config: Config,
    pub mini_batches: Counts,
    pub items: Items,
    pub attempts: Attempts,
    /// How much of the error threshold the failed items used, in percent.
    pub error_threshold_used_percent: Option<f64>,
    pub duration: Option<String>,
    pub last_progress: Option<Evidence>,
    pub timeouts: u64,
    pub nodes: Vec<NodeSummary>,
    pub processes: Vec<ProcessSummary>,
    pub slowest: Vec<MiniBatch>,
    pub failing: Vec<MiniBatch>,
    pub errors: Vec<ErrorGroup>,
    /// Whether the tree holds the resource monitor's data, and why not.
    pub perf_data: PerfData,
    /// Nodes lost during the job and the nodes that replaced them.
    pub node_changes: NodeChanges,
    /// Files that could not be understood, and other things worth knowing.
    pub notes: Vec<String>,
}

impl PrsSummary {
    /// Shows every path it holds through `show`.
    pub(crate) fn relabel(&mut self, show: &dyn Fn(&str) -> String) {
        self.root = show(&self.root);
        for e in self
            .stop_message
            .iter_mut()
            .chain(self.last_progress.iter_mut())
        {
            if let crate::finding::Location::Line { path, .. } = &mut e.location {
                *path = show(path);
            }
        }
        for g in &mut self.errors {
            g.first = show(&g.first);
        }
        for n in &mut self.notes {
            *n = show(n);
        }
    }
}

/// A node whose logs stopped while the other nodes went on. ParallelRunStep survives a
/// lost node: the cluster starts a replacement and its mini-batches are picked again.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct LostNode {
    pub node: String,
    /// The time of its last log line (`YYYY-MM-DD HH:MM:SS`).
    pub last_seen: String,
    /// How long the other nodes went on writing after it (`H:MM:SS`).
    pub silent_for: String,
    /// Mini-batches with an attempt on it that ran again on another node.
    pub moved_away: u64,
}

/// How the job's set of nodes changed while it ran.
#[derive(Debug, Clone, Default, PartialEq, Serialize, schemars::JsonSchema)]
pub struct NodeChanges {
    pub lost: Vec<LostNode>,
    /// Nodes whose logs start after a node was lost: its replacements.
    pub replacements: Vec<String>,
    /// Mini-batches whose earlier attempts left no row in the mini-batch CSV (they were
    /// in flight on a worker or node that went away) and were picked again.
    pub picked_again_without_record: u64,
    /// Nodes with logs in the tree.
    pub nodes_seen: u64,
    /// The overviewer's starts and stops (`stopped on 7 at …`) when it stopped before the
    /// job ended or moved to another node.
    pub overviewer: Vec<String>,
}

impl NodeChanges {
    pub fn any(&self) -> bool {
        !self.lost.is_empty() || !self.overviewer.is_empty()
    }
}

/// What the tree holds of the resource monitor (`perf/<node>/`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum PerfData {
    /// Some perf file was read.
    Present,
    /// None, and the driver ran with `--resource_monitor_interval 0`.
    MonitorOff,
    /// None, for a reason the tree does not show (not downloaded, or an old version).
    #[default]
    Missing,
}

/// How the job ended, as far as its files tell.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum JobOutcome {
    Failed,
    Completed,
    #[default]
    Unknown,
}

impl JobOutcome {
    pub fn as_str(self) -> &'static str {
        match self {
            JobOutcome::Failed => "failed",
            JobOutcome::Completed => "completed",
            JobOutcome::Unknown => "unknown",
        }
    }
}

impl fmt::Display for JobOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workers_are_nodes_times_processes() {
        let v = |value| {
            Some(ConfigValue {
                value,
                source: ConfigSource::DriverLog,
            })
        };
        let c = Config {
            node_count: v(2),
            process_count_per_node: v(4),
            ..Config::default()
        };
        assert_eq!(
            c.workers().unwrap(),
            "2 nodes × 4 processes = 8 run() calls at a time"
        );
        assert!(Config::default().workers().is_none());
    }
}
