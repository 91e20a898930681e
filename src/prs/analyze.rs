//! Turns the parsed files of one ParallelRunStep tree into a job summary (outcome,
//! progress, per-node and per-process tables, slowest and failing mini-batches, grouped
//! errors) and the findings that need counting: retry budgets, timeouts against the
//! configured limit, OOM kills corroborated by memory data, nothing succeeded, fewer
//! outputs than inputs, restarts.

use std::collections::BTreeMap;

use serde::Serialize;

use super::parse::{Attempt, AttemptAgg, FileFacts, FinalState, Line, Sample};
use super::tree::Role;
use crate::finding::Evidence;

/// Defaults from the ParallelRunConfig documentation, used when the driver log does not
/// show a value (findings say so).
pub const DEFAULT_RUN_INVOCATION_TIMEOUT: u64 = 60;
pub const DEFAULT_RUN_MAX_TRY: u64 = 3;
/// GPU nodes default to one process; CPU nodes to their core count, which logs do not show.
pub const DEFAULT_PROCESS_COUNT_PER_NODE: u64 = 1;
/// Memory use at or above this on a node where a worker was killed corroborates an OOM.
pub const OOM_MEMORY_PERCENT: f64 = 90.0;
/// Failing mini-batches listed in json/yaml (the table shows fewer).
pub const MAX_FAILING_LISTED: usize = 50;

/// One parsed file of a tree.
#[derive(Debug, Clone)]
pub struct ParsedFile {
    pub path: String,
    pub role: Role,
    pub facts: FileFacts,
}

/// A configuration value and where it came from.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ConfigValue {
    pub value: i64,
    /// `driver-log`, `job-messages`, or `default` (assumed).
    pub source: &'static str,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Config {
    pub node_count: Option<ConfigValue>,
    pub process_count_per_node: Option<ConfigValue>,
    pub run_invocation_timeout: Option<ConfigValue>,
    pub run_max_try: Option<ConfigValue>,
    pub error_threshold: Option<ConfigValue>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
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
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Attempts {
    pub total: u64,
    pub failed: u64,
    pub retries: u64,
    /// Attempts where run() raised (not counting killed workers).
    pub run_exceptions: u64,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Items {
    pub total: Option<u64>,
    pub succeeded: Option<u64>,
    pub failed: Option<u64>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
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
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
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

#[derive(Debug, Clone, PartialEq, Serialize)]
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

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ErrorGroup {
    /// `run`, `init`, or empty when the file does not say.
    pub phase: String,
    pub exception: String,
    pub message: String,
    pub count: u64,
    /// `path:line` of the first occurrence.
    pub first: String,
}

/// Everything the report says about one tree.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct PrsSummary {
    pub root: String,
    pub layout: &'static str,
    pub outcome: &'static str,
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
    /// Files that could not be understood, and other things worth knowing.
    pub notes: Vec<String>,
}

/// A computed finding: the rule id, how often, the evidence and the facts.
#[derive(Debug, Clone, PartialEq)]
pub struct Computed {
    pub rule_id: &'static str,
    pub count: u64,
    pub evidence: Vec<Evidence>,
    pub facts: BTreeMap<String, String>,
}

/// Rule ids this module computes (their YAML files say `computed: true`).
pub const COMPUTED_RULES: &[&str] = &[
    "prs-job-failed",
    "prs-init-retry-budget",
    "prs-run-timeout-budget",
    "prs-oom-killed",
    "prs-error-threshold-near",
    "prs-nothing-succeeded",
    "prs-fewer-results-than-inputs",
    "prs-process-restarts",
];

fn ev(path: &str, l: &Line) -> Evidence {
    Evidence::at_line(path.to_owned(), l.line, l.text.clone())
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

fn parse_i64(v: &str) -> Option<i64> {
    v.trim().parse().ok()
}

/// The process number in `process007` (or `Process-7`).
/// The 0-based worker index of `process007`, or of the 1-based legacy `Process-7`.
fn process_number(name: &str) -> Option<u64> {
    if let Some(n) = name.strip_prefix("Process-") {
        return n.parse::<u64>().ok().map(|n| n.saturating_sub(1));
    }
    name.strip_prefix("process")?.parse().ok()
}

/// Summarises one tree from its parsed files (in any order).
pub fn analyze(root: &str, mut files: Vec<ParsedFile>) -> (PrsSummary, Vec<Computed>) {
    files.sort_by(|a, b| a.role.cmp(&b.role).then_with(|| a.path.cmp(&b.path)));
    let mut files = files;
    let mut s = PrsSummary {
        root: root.to_owned(),
        ..PrsSummary::default()
    };
    let legacy = files.iter().any(|f| {
        f.path.ends_with("overview.txt") && !f.path.contains("job_progress_overview")
            || f.path.contains("/sys/worker/")
    });
    s.layout = if legacy { "legacy" } else { "current" };

    // Garbled structured files become notes, never errors.
    for f in &files {
        let structured = matches!(
            f.role,
            Role::MiniBatchCsv { .. }
                | Role::NodePerf { .. }
                | Role::Overview { .. }
                | Role::Master
                | Role::NodeMain { .. }
        );
        if structured && f.facts.lines > 1 && f.facts.recognised == 0 {
            s.notes.push(format!(
                "{}: no line in the expected format; the file was only scanned by the rules",
                f.path
            ));
        }
        if f.facts.lines == 0
            && matches!(
                f.role,
                Role::JobResult | Role::MiniBatchCsv { .. } | Role::Overview { .. }
            )
        {
            s.notes.push(format!("{}: empty", f.path));
        }
    }

    // Configuration: the driver's arguments first, then what messages imply.
    let args: BTreeMap<String, String> = files
        .iter()
        .filter(|f| matches!(f.role, Role::DriverLog | Role::Master))
        .flat_map(|f| f.facts.args.clone())
        .collect();
    // Counts and timeouts must be positive; only the error threshold may be -1.
    let from_args = |k: &str| {
        args.get(k)
            .and_then(|v| parse_i64(v))
            .filter(|v| k.contains("error_threshold") || (1..=1_000_000_000).contains(v))
            .map(|value| ConfigValue {
                value,
                source: "driver-log",
            })
    };
    s.config.node_count = from_args("node_count");
    s.config.process_count_per_node = from_args("process_count_per_node");
    s.config.run_invocation_timeout = from_args("run_invocation_timeout");
    s.config.run_max_try = from_args("run_max_try");
    s.config.error_threshold =
        from_args("error_threshold").or_else(|| from_args("mini_batch_error_threshold"));

    // Messages (overview files in rotation order, then results and the master log).
    let mut overview: Vec<&ParsedFile> = files
        .iter()
        .filter(|f| matches!(f.role, Role::Overview { .. }))
        .collect();
    overview.sort_by(|a, b| match (&a.role, &b.role) {
        (Role::Overview { key: x }, Role::Overview { key: y }) => x.cmp(y),
        _ => std::cmp::Ordering::Equal,
    });
    let message_files: Vec<&ParsedFile> = overview
        .iter()
        .copied()
        .chain(files.iter().filter(|f| {
            matches!(
                f.role,
                Role::JobResult | Role::JobError | Role::Master | Role::SysError | Role::DriverLog
            )
        }))
        .collect();
    let mut threshold_hit: Option<(u64, i64, Evidence)> = None;
    let mut stop_reasons: Vec<String> = Vec::new();
    let mut no_progress: Option<Evidence> = None;
    let mut no_succeeded: Option<Evidence> = None;
    let mut bad_return: Option<Evidence> = None;
    let mut system_error: Option<Evidence> = None;
    let mut times: BTreeMap<&'static str, (u64, Evidence)> = BTreeMap::new();
    let mut completed = false;
    for f in &message_files {
        let x = &f.facts;
        if let Some((n, _, items)) = x.scheduled {
            s.mini_batches.scheduled = Some(n);
            if items.is_some() {
                s.items.total = items;
            }
        }
        // Progress comes from the overview; the master log repeats it.
        if let Some((done, _, duration, line)) = &x.progress
            && (matches!(f.role, Role::Overview { .. }) || overview.is_empty())
        {
            s.mini_batches.processed = Some(*done);
            s.duration = Some(duration.clone());
            s.last_progress = Some(ev(&f.path, line));
        }
        if let Some(n) = x.all_processed {
            s.mini_batches.processed = Some(n);
            completed = true;
        }
        if let Some(c) = x.final_counts {
            // The closing summary; the job completed only if every mini-batch was processed.
            if c.processed >= c.mini_batches {
                completed = true;
            }
            s.mini_batches.scheduled.get_or_insert(c.mini_batches);
            s.mini_batches.processed = Some(c.processed);
            s.items.total = Some(c.items);
            s.items.succeeded = Some(c.succeeded);
            s.items.failed = Some(c.failed);
            if let Some(t) = c.threshold
                && s.config.error_threshold.is_none()
            {
                s.config.error_threshold = Some(ConfigValue {
                    value: t,
                    source: "job-messages",
                });
            }
        }
        if let Some((n, t, line)) = &x.threshold_exceeded
            && threshold_hit.is_none()
        {
            threshold_hit = Some((*n, *t, ev(&f.path, line)));
        }
        for r in &x.stop_reasons {
            if !stop_reasons.contains(r) {
                stop_reasons.push(r.clone());
            }
        }
        if let Some((_, line)) = &x.no_progress {
            no_progress.get_or_insert_with(|| ev(&f.path, line));
        }
        if let Some(line) = &x.no_succeeded {
            no_succeeded.get_or_insert_with(|| ev(&f.path, line));
        }
        if let Some(line) = &x.bad_return {
            bad_return.get_or_insert_with(|| ev(&f.path, line));
        }
        if let Some(line) = &x.system_error
            && f.role != Role::DriverLog
        {
            system_error.get_or_insert_with(|| ev(&f.path, line));
        }
        for (k, (n, line)) in &x.times {
            times.entry(k).or_insert_with(|| (*n, ev(&f.path, line)));
        }
        if s.duration.is_none()
            && let (Some(a), Some(b)) = (&x.first_time, &x.last_time)
            && matches!(f.role, Role::Overview { .. })
        {
            s.duration = elapsed(a, b);
        }
    }
    // The overview spans several rotated files: measure from the first to the last.
    if let (Some(first), Some(last)) = (
        overview.first().and_then(|f| f.facts.first_time.clone()),
        overview
            .iter()
            .rev()
            .find_map(|f| f.facts.last_time.clone()),
    ) && let Some(d) = elapsed(&first, &last)
    {
        s.duration = Some(d);
    }
    if let Some((failed, t, _)) = &threshold_hit {
        s.items.failed = Some(s.items.failed.unwrap_or(0).max(*failed));
        if s.config.error_threshold.is_none() {
            s.config.error_threshold = Some(ConfigValue {
                value: *t,
                source: "job-messages",
            });
        }
    }

    // Leader exit code from the driver log: 42 = job failed, 0 = success; 41 = worker.
    let exits: Vec<(i32, Evidence)> = files
        .iter()
        .filter(|f| f.role == Role::DriverLog)
        .flat_map(|f| {
            f.facts
                .system_exits
                .iter()
                .map(move |(c, l)| (*c, ev(&f.path, l)))
        })
        .collect();
    let driver_present = files.iter().any(|f| f.role == Role::DriverLog);
    s.leader_exit_code = if exits.iter().any(|(c, _)| *c == 42) {
        Some(42)
    } else if driver_present && completed {
        Some(0)
    } else {
        None
    };

    // Mini-batch attempts: the CSV is the authoritative record.
    let mut agg = AttemptAgg::default();
    let mut csv_path: Option<String> = None;
    for f in files
        .iter_mut()
        .filter(|f| matches!(f.role, Role::MiniBatchCsv { .. }))
    {
        if f.facts.attempts.rows > 0 {
            csv_path.get_or_insert_with(|| f.path.clone());
        }
        agg.merge(std::mem::take(&mut f.facts.attempts));
    }
    if !agg.finals.is_empty() {
        s.mini_batches.processed = Some(
            s.mini_batches
                .processed
                .unwrap_or(0)
                .max(agg.finals.len() as u64),
        );
        s.mini_batches.failed = Some(agg.finals.values().filter(|a| a.failure).count() as u64);
        // A sum over a column the CSV does not have is unknown, not zero.
        let sum = |get: fn(&FinalState) -> Option<u64>| -> Option<u64> {
            let values: Vec<u64> = agg.finals.values().filter_map(get).collect();
            (!values.is_empty()).then(|| values.iter().sum())
        };
        if s.items.total.is_none() {
            s.items.total = sum(|a| a.total);
        }
        if s.items.succeeded.is_none() {
            s.items.succeeded = sum(|a| a.succeeded);
        }
        if s.items.failed.is_none() {
            s.items.failed = Some(
                agg.finals
                    .values()
                    .map(|a| {
                        a.failed
                            .unwrap_or(if a.failure { a.total.unwrap_or(1) } else { 0 })
                    })
                    .sum(),
            );
        }
        if s.mini_batches.scheduled.is_none() {
            s.mini_batches.scheduled = Some(agg.finals.len() as u64);
        }
    }
    s.attempts = Attempts {
        total: agg.rows,
        failed: agg.per_process.values().map(|p| p.failures).sum(),
        retries: agg.per_process.values().map(|p| p.retries).sum(),
        run_exceptions: agg.run_exceptions,
    };
    if let (Some(sch), Some(done)) = (s.mini_batches.scheduled, s.mini_batches.processed) {
        s.mini_batches.unprocessed = Some(sch.saturating_sub(done));
    }
    if let (Some(failed), Some(t)) = (
        s.items.failed,
        s.config.error_threshold.as_ref().map(|c| c.value),
    ) && t > 0
    {
        s.error_threshold_used_percent = Some(round2(failed as f64 * 100.0 / t as f64));
    }

    // Per process and per node.
    let mut per_process: BTreeMap<(String, String), (ProcessSummary, Sample)> = BTreeMap::new();
    for ((node, process), p) in &agg.per_process {
        per_process.insert(
            (node.clone(), process.clone()),
            (
                ProcessSummary {
                    node: node.clone(),
                    process: process.clone(),
                    mini_batches: p.attempts,
                    failures: p.failures,
                    retries: p.retries,
                    ..Default::default()
                },
                p.times.clone(),
            ),
        );
    }
    // Processes known from logs and exits, even without attempts.
    let mut exit_of: BTreeMap<(String, String), (i32, Evidence)> = BTreeMap::new();
    for f in &files {
        match &f.role {
            Role::Process { node, process } | Role::UserError { node, process } => {
                per_process
                    .entry((node.clone(), process.clone()))
                    .or_insert_with(|| {
                        (
                            ProcessSummary {
                                node: node.clone(),
                                process: process.clone(),
                                ..Default::default()
                            },
                            Sample::default(),
                        )
                    });
            }
            Role::NodeMain { node } => {
                for (process, code, line) in &f.facts.process_exits {
                    per_process
                        .entry((node.clone(), process.clone()))
                        .or_insert_with(|| {
                            (
                                ProcessSummary {
                                    node: node.clone(),
                                    process: process.clone(),
                                    ..Default::default()
                                },
                                Sample::default(),
                            )
                        });
                    exit_of.insert((node.clone(), process.clone()), (*code, ev(&f.path, line)));
                }
            }
            _ => {}
        }
    }
    let mut nodes: BTreeMap<String, (NodeSummary, Sample)> = BTreeMap::new();
    for ((node, process), (mut p, times)) in per_process {
        // A CSV without node information still counts: under an "unknown" node.
        let node = if node.is_empty() {
            "unknown".to_owned()
        } else {
            node
        };
        p.node = node.clone();
        p.mean_run_seconds = times.mean().map(round2);
        p.p95_run_seconds = times.percentile(0.95).map(round2);
        p.exit_code = exit_of
            .get(&(node.clone(), process.clone()))
            .map(|(c, _)| *c);
        let n = nodes.entry(node.clone()).or_insert_with(|| {
            (
                NodeSummary {
                    node: node.clone(),
                    ..Default::default()
                },
                Sample::default(),
            )
        });
        n.0.processes += 1;
        n.0.mini_batches += p.mini_batches;
        n.0.failures += p.failures;
        n.0.retries += p.retries;
        // Killed by a signal (negative return code; -9 is SIGKILL, usually OOM).
        if p.exit_code.is_some_and(|c| c < 0) {
            n.0.killed += 1;
        }
        n.1.merge(&times);
        s.processes.push(p);
    }
    let pcpn = s
        .config
        .process_count_per_node
        .as_ref()
        .map(|c| c.value.max(1) as u64);
    for f in &files {
        match &f.role {
            Role::NodePerf { node } => {
                let n = nodes.entry(node.clone()).or_insert_with(|| {
                    (
                        NodeSummary {
                            node: node.clone(),
                            ..Default::default()
                        },
                        Sample::default(),
                    )
                });
                // Several perf files for a node (logs/perf and logs/sys/perf): keep the maximum.
                if let Some((m, _, _)) = f.facts.peak_memory {
                    n.0.peak_memory_percent = Some(n.0.peak_memory_percent.map_or(m, |p| p.max(m)));
                }
                if let Some(c) = f.facts.peak_cpu {
                    n.0.peak_cpu_percent = Some(n.0.peak_cpu_percent.map_or(c, |p| p.max(c)));
                }
            }
            _ => continue,
        }
    }
    for (n, times) in nodes.values_mut() {
        n.mean_run_seconds = times.mean().map(round2);
        n.p95_run_seconds = times.percentile(0.95).map(round2);
        // Restarts: processes beyond the configured count (numbers start at 0), or, when
        // the count is unknown, one per killed process.
        let numbers: Vec<u64> = s
            .processes
            .iter()
            .filter(|p| p.node == n.node)
            .filter_map(|p| process_number(&p.process))
            .collect();
        n.restarts = match pcpn {
            Some(c) => numbers.iter().filter(|x| **x >= c).count() as u64,
            None => n.killed,
        };
    }
    s.nodes = nodes.into_values().map(|(n, _)| n).collect();

    // Slowest and failing mini-batches.
    let to_mb = |a: &Attempt| MiniBatch {
        id: a.id.clone(),
        node: a.node.clone(),
        process: a.process.clone(),
        attempts: a.picked,
        seconds: a.elapsed.or(a.run_seconds),
        status: a.status.clone(),
        error_category: a.category.clone(),
        error_message: a.message.clone(),
        inputs: a.detail.clone(),
    };
    s.slowest = agg.slowest.iter().map(to_mb).collect();
    let mut failing: Vec<&Attempt> = agg
        .failing
        .values()
        .filter(|a| {
            agg.finals
                .get(&a.id)
                .is_some_and(|f| f.failure && f.picked == a.picked)
        })
        .collect();
    // Numeric ids in numeric order.
    failing.sort_by(|a, b| match (a.id.parse::<u64>(), b.id.parse::<u64>()) {
        (Ok(x), Ok(y)) => x.cmp(&y),
        _ => a.id.cmp(&b.id),
    });
    s.failing = failing
        .into_iter()
        .take(MAX_FAILING_LISTED)
        .map(to_mb)
        .collect();

    // Errors from the user error files, grouped.
    let mut groups: BTreeMap<(String, String, String), (u64, String, String)> = BTreeMap::new();
    let add_groups = |groups: &mut BTreeMap<(String, String, String), (u64, String, String)>,
                      f: &ParsedFile| {
        for (k, (n, line, ts)) in &f.facts.errors {
            let at = format!("{}:{}", f.path, line.line);
            let e = groups
                .entry((k.phase.clone(), k.exception.clone(), k.message.clone()))
                .or_insert((0, at.clone(), ts.clone()));
            e.0 += n;
            // The earliest occurrence by time wins over path order.
            if !ts.is_empty() && (e.2.is_empty() || *ts < e.2) {
                e.1 = at;
                e.2 = ts.clone();
            }
        }
    };
    for f in files
        .iter()
        .filter(|f| matches!(f.role, Role::UserError { .. }))
    {
        add_groups(&mut groups, f);
    }
    // Without per-process error files, fall back to the summary file.
    if groups.is_empty() {
        for f in files.iter().filter(|f| f.role == Role::UserErrorSummary) {
            add_groups(&mut groups, f);
        }
    }
    let mut errors: Vec<ErrorGroup> = groups
        .into_iter()
        .map(
            |((phase, exception, message), (count, first, _))| ErrorGroup {
                phase,
                exception,
                message,
                count,
                first,
            },
        )
        .collect();
    errors.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.first.cmp(&b.first)));
    s.errors = errors;

    // The same timeout is logged in the process log and again in driver error files:
    // count the process logs, and other files only when there are none.
    let from_process = files
        .iter()
        .any(|f| matches!(f.role, Role::Process { .. }) && !f.facts.run_timeouts.is_empty());
    let run_timeouts: Vec<(u64, Evidence)> = files
        .iter()
        .filter(|f| !from_process || matches!(f.role, Role::Process { .. }))
        .flat_map(|f| {
            f.facts
                .run_timeouts
                .iter()
                .map(move |(secs, l)| (*secs, ev(&f.path, l)))
        })
        .collect();
    s.timeouts = (run_timeouts.len() as u64).max(agg.timeouts);

    // Outcome and stop reason.
    let stopped_by = |needle: &str| {
        stop_reasons
            .iter()
            .any(|r| r.to_ascii_lowercase().contains(needle))
    };
    let failed = threshold_hit.is_some()
        || stopped_by("error threshold")
        || stopped_by("no progress update") && !completed
        || exits.iter().any(|(c, _)| *c == 42)
        || no_succeeded.is_some()
        || no_progress.is_some() && !completed
        || system_error.is_some() && !completed;
    s.outcome = if failed {
        "failed"
    } else if completed {
        "completed"
    } else {
        "unknown"
    };
    let (reason, message) =
        if threshold_hit.is_some() || stop_reasons.iter().any(|r| r.contains("error threshold")) {
            (
                Some("error-threshold-exceeded"),
                threshold_hit.as_ref().map(|t| t.2.clone()),
            )
        } else if no_progress.is_some() && !completed {
            (Some("no-progress"), no_progress.clone())
        } else if no_succeeded.is_some() || bad_return.is_some() {
            (
                Some("user-error"),
                no_succeeded.clone().or_else(|| bad_return.clone()),
            )
        } else if failed {
            (
                Some("system-error"),
                system_error
                    .clone()
                    .or_else(|| exits.first().map(|e| e.1.clone())),
            )
        } else if completed {
            (Some("completed"), None)
        } else {
            (None, None)
        };
    s.stop_reason = reason;
    s.stop_message = message;

    let computed = compute(
        &s,
        &files,
        &exits,
        &times,
        &run_timeouts,
        &agg,
        csv_path.as_deref().unwrap_or(""),
    );
    (s, computed)
}

/// Seconds of a `H:MM:SS` (or `N days, H:MM:SS`) duration, as Python prints a timedelta.
fn hms_seconds(text: &str) -> Option<u64> {
    let (days, clock) = match text.split_once(", ") {
        Some((d, c)) => (d.split_whitespace().next()?.parse::<u64>().ok()?, c),
        None => (0, text),
    };
    let parts: Vec<u64> = clock
        .trim()
        .split(':')
        .map(|p| p.parse().ok())
        .collect::<Option<_>>()?;
    let [h, m, sec] = parts.as_slice() else {
        return None;
    };
    Some(days * 86_400 + h * 3600 + m * 60 + sec)
}

/// `H:MM:SS` between two ISO timestamps (`YYYY-MM-DDTHH:MM:SS[.ffffff]`).
fn elapsed(a: &str, b: &str) -> Option<String> {
    let secs = |t: &str| -> Option<i64> {
        let (date, time) = t.split_once('T')?;
        let d: Vec<i64> = date
            .split('-')
            .map(|x| x.parse().ok())
            .collect::<Option<_>>()?;
        let hms: Vec<f64> = time
            .split(':')
            .map(|x| x.parse().ok())
            .collect::<Option<_>>()?;
        let (y, m, day) = (d.first()?, d.get(1)?, d.get(2)?);
        // Days from civil, enough for differences within a run.
        let (yy, mm) = if *m <= 2 { (y - 1, m + 9) } else { (*y, m - 3) };
        let era = yy.div_euclid(400);
        let yoe = yy - era * 400;
        let doy = (153 * mm + 2) / 5 + day - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        let days = era * 146_097 + doe;
        Some(days * 86_400 + (hms.first()? * 3600.0 + hms.get(1)? * 60.0 + hms.get(2)?) as i64)
    };
    let d = secs(b)? - secs(a)?;
    (d >= 0).then(|| format!("{}:{:02}:{:02}", d / 3600, (d / 60) % 60, d % 60))
}

fn fact(map: &mut BTreeMap<String, String>, k: &str, v: impl ToString) {
    map.insert(k.to_owned(), v.to_string());
}

fn compute(
    s: &PrsSummary,
    files: &[ParsedFile],
    exits: &[(i32, Evidence)],
    times: &BTreeMap<&'static str, (u64, Evidence)>,
    run_timeouts: &[(u64, Evidence)],
    agg: &AttemptAgg,
    csv_path: &str,
) -> Vec<Computed> {
    let mut out = Vec::new();
    let pcpn = s.config.process_count_per_node.as_ref();
    let nodes = s
        .config
        .node_count
        .as_ref()
        .map(|c| c.value as u64)
        .unwrap_or_else(|| s.nodes.len().max(1) as u64);
    let timeout = s.config.run_invocation_timeout.as_ref();

    // The headline: the job failed, why, and the most frequent error.
    if s.outcome == "failed" {
        let mut f = BTreeMap::new();
        fact(&mut f, "stop_reason", s.stop_reason.unwrap_or("unknown"));
        if let Some(c) = s.leader_exit_code {
            fact(&mut f, "leader_exit_code", c);
        }
        if let Some(top) = s.errors.first() {
            fact(
                &mut f,
                "root_cause",
                format!("{}: {}", top.exception, top.message).trim_end_matches(": "),
            );
            fact(&mut f, "root_cause_count", top.count);
        }
        if let (Some(failed), Some(t)) = (s.items.failed, s.config.error_threshold.as_ref()) {
            fact(&mut f, "failed_items", failed);
            fact(&mut f, "error_threshold", t.value);
        }
        let mut evidence: Vec<Evidence> = s.stop_message.iter().cloned().collect();
        evidence.extend(
            exits
                .iter()
                .filter(|(c, _)| *c == 42)
                .map(|(_, e)| e.clone())
                .take(1),
        );
        out.push(Computed {
            rule_id: "prs-job-failed",
            count: 1,
            evidence,
            facts: f,
        });
    }

    // init() failures against the retry budget.
    let init_errors: u64 = s
        .errors
        .iter()
        .filter(|e| e.phase == "init")
        .map(|e| e.count)
        .sum();
    let init_reported = times.get("init_exception").map(|t| t.0).unwrap_or(0)
        + times.get("init_timeout").map(|t| t.0).unwrap_or(0);
    let init_failures = init_errors.max(init_reported);
    if init_failures > 0 {
        let p = pcpn.map_or(DEFAULT_PROCESS_COUNT_PER_NODE, |c| c.value.max(1) as u64);
        let t = timeout.map_or(DEFAULT_RUN_INVOCATION_TIMEOUT, |c| c.value.max(1) as u64);
        let (per_node_budget, job_budget, stuck_limit) = init_retry_limits(p, nodes, t);
        // init() failures per node, from the per-process error files.
        let mut per_node: BTreeMap<&str, u64> = BTreeMap::new();
        for f in files {
            if let Role::UserError { node, .. } = &f.role {
                let n: u64 = f
                    .facts
                    .errors
                    .iter()
                    .filter(|(k, _)| k.phase == "init")
                    .map(|(_, v)| v.0)
                    .sum();
                *per_node.entry(node.as_str()).or_default() += n;
            }
        }
        let worst_node = per_node.values().copied().max().unwrap_or(init_failures);
        let job_seconds = s.duration.as_deref().and_then(hms_seconds).unwrap_or(0);
        let (node_exhausted, job_exhausted) =
            init_retries_exhausted(worst_node, init_failures, job_seconds, p, nodes);
        let mut f = BTreeMap::new();
        fact(&mut f, "init_failures", init_failures);
        fact(&mut f, "per_node_budget", per_node_budget);
        fact(&mut f, "most_failures_on_one_node", worst_node);
        fact(
            &mut f,
            "nodes_out_of_retries",
            per_node.values().filter(|n| **n >= per_node_budget).count(),
        );
        fact(&mut f, "job_budget", job_budget);
        fact(
            &mut f,
            "job_budget_used_percent",
            init_failures.saturating_mul(100) / job_budget.max(1),
        );
        fact(&mut f, "no_progress_limit_seconds", stuck_limit);
        fact(&mut f, "process_count_per_node", p);
        let verdict = if job_exhausted {
            "the job stopped retrying init() (job-wide budget used after more than two minutes)"
        } else if node_exhausted {
            "at least one node stopped starting new workers (per-node budget used)"
        } else if s.mini_batches.processed.unwrap_or(0) == 0 && stuck_in_init_fails(job_seconds, t)
        {
            "no mini-batch finished while agents stayed in init() past the no-progress limit"
        } else {
            "still within the retry budget"
        };
        fact(&mut f, "retry_state", verdict);
        if pcpn.is_none() {
            fact(
                &mut f,
                "assumed",
                format!(
                    "process_count_per_node={DEFAULT_PROCESS_COUNT_PER_NODE} (not in the driver log; the GPU default — CPU nodes default to their core count)"
                ),
            );
        }
        if timeout.is_none() {
            fact(
                &mut f,
                "assumed_timeout",
                format!("run_invocation_timeout={DEFAULT_RUN_INVOCATION_TIMEOUT} (default)"),
            );
        }
        let evidence = times
            .get("init_exception")
            .or_else(|| times.get("init_timeout"))
            .map(|(_, e)| vec![e.clone()])
            .unwrap_or_else(|| first_error_evidence(s, "init"));
        out.push(Computed {
            rule_id: "prs-init-retry-budget",
            count: init_failures,
            evidence,
            facts: f,
        });
    }

    // run() timeouts against run_invocation_timeout, and runs close to it.
    let t = timeout.map_or(DEFAULT_RUN_INVOCATION_TIMEOUT, |c| c.value.max(1) as u64) as f64;
    let p95_all = agg.all_times.percentile(0.95).map(round2);
    let close = p95_all.is_some_and(|p| p >= 0.8 * t);
    if s.timeouts > 0 || close {
        let mut f = BTreeMap::new();
        fact(&mut f, "timeouts", s.timeouts);
        fact(&mut f, "run_invocation_timeout", t as u64);
        if timeout.is_none() {
            fact(
                &mut f,
                "assumed_timeout",
                format!(
                    "run_invocation_timeout={DEFAULT_RUN_INVOCATION_TIMEOUT} (default; not in the driver log)"
                ),
            );
        }
        if let Some(p) = p95_all {
            fact(&mut f, "p95_run_seconds", p);
        }
        if let Some(max) = run_timeouts.iter().map(|(secs, _)| *secs).max() {
            fact(&mut f, "timeout_seen_seconds", max);
        }
        let evidence = run_timeouts
            .iter()
            .take(3)
            .map(|(_, e)| e.clone())
            .collect();
        out.push(Computed {
            rule_id: "prs-run-timeout-budget",
            count: s.timeouts.max(1),
            evidence,
            facts: f,
        });
    }

    // Killed workers, corroborated by the node's memory.
    let killed: Vec<(&str, Evidence)> = files
        .iter()
        .filter_map(|f| match &f.role {
            Role::NodeMain { node } => Some((node.as_str(), f)),
            _ => None,
        })
        .flat_map(|(node, f)| {
            f.facts
                .process_exits
                .iter()
                .filter(|(_, c, _)| *c == -9)
                .map(move |(_, _, l)| (node, ev(&f.path, l)))
        })
        .collect();
    if !killed.is_empty() {
        let mut f = BTreeMap::new();
        fact(&mut f, "killed_processes", killed.len());
        let mut evidence: Vec<Evidence> = killed.iter().map(|(_, e)| e.clone()).take(3).collect();
        let mut corroborated = false;
        for (node, _) in &killed {
            if let Some(n) = s.nodes.iter().find(|n| n.node == *node)
                && let Some(m) = n.peak_memory_percent
            {
                fact(&mut f, &format!("node_{node}_peak_memory_percent"), m);
                if m >= OOM_MEMORY_PERCENT {
                    corroborated = true;
                }
            }
        }
        if let Some(perf) = files.iter().find(
            |x| matches!(&x.role, Role::NodePerf { node } if killed.iter().any(|(k, _)| k == node)),
        ) && let Some((m, at, line)) = &perf.facts.peak_memory
        {
            evidence.push(Evidence::at_line(
                perf.path.clone(),
                *line,
                format!("Memory Used Percent {m} at {at} (the node's peak)"),
            ));
        }
        fact(
            &mut f,
            "memory_evidence",
            if corroborated {
                "node memory was at or above 90 % (out of memory)"
            } else {
                "no perf data above 90 % memory: possibly OOM, or killed for another reason"
            },
        );
        evidence.retain(|e| e.line() > 0 || !e.text.is_empty());
        out.push(Computed {
            rule_id: "prs-oom-killed",
            count: killed.len() as u64,
            evidence,
            facts: f,
        });
    }

    // Close to the error threshold on a job that did not exceed it.
    if let (Some(failed), Some(th)) = (s.items.failed, s.config.error_threshold.as_ref())
        && th.value > 0
        && failed > 0
        && (failed as i64) <= th.value
        && failed as f64 >= 0.8 * th.value as f64
    {
        let mut f = BTreeMap::new();
        fact(&mut f, "failed_items", failed);
        fact(&mut f, "error_threshold", th.value);
        out.push(Computed {
            rule_id: "prs-error-threshold-near",
            count: failed,
            evidence: Vec::new(),
            facts: f,
        });
    }

    // Nothing succeeded although mini-batches were processed.
    if s.items.succeeded == Some(0) && s.mini_batches.processed.unwrap_or(0) > 0 {
        let mut f = BTreeMap::new();
        fact(
            &mut f,
            "processed_mini_batches",
            s.mini_batches.processed.unwrap_or(0),
        );
        out.push(Computed {
            rule_id: "prs-nothing-succeeded",
            count: 1,
            evidence: Vec::new(),
            facts: f,
        });
    }

    // run() returned fewer results than it got inputs, without raising.
    if agg.short > 0 {
        let mut f = BTreeMap::new();
        fact(&mut f, "mini_batches", agg.short);
        fact(&mut f, "items_without_result", agg.short_items);
        let evidence = agg
            .short_examples
            .iter()
            .map(|a| {
                Evidence::at_line(
                    csv_path.to_owned(),
                    a.line,
                    format!(
                        "mini-batch {}: {} inputs, {} results, status {}",
                        a.id,
                        a.total.unwrap_or(0),
                        a.succeeded.unwrap_or(0),
                        a.status
                    ),
                )
            })
            .collect();
        out.push(Computed {
            rule_id: "prs-fewer-results-than-inputs",
            count: agg.short,
            evidence,
            facts: f,
        });
    }

    // Worker restarts.
    let restarts: u64 = s.nodes.iter().map(|n| n.restarts).sum();
    if restarts > 0 {
        let mut f = BTreeMap::new();
        fact(&mut f, "restarts", restarts);
        let nodes_with: Vec<String> = s
            .nodes
            .iter()
            .filter(|n| n.restarts > 0)
            .map(|n| format!("{}:{}", n.node, n.restarts))
            .collect();
        fact(&mut f, "per_node", nodes_with.join(" "));
        if let Some(p) = pcpn {
            fact(&mut f, "process_count_per_node", p.value);
        }
        out.push(Computed {
            rule_id: "prs-process-restarts",
            count: restarts,
            evidence: Vec::new(),
            facts: f,
        });
    }
    out
}

fn first_error_evidence(s: &PrsSummary, phase: &str) -> Vec<Evidence> {
    s.errors
        .iter()
        .find(|e| e.phase == phase)
        .and_then(|e| {
            let (path, line) = e.first.rsplit_once(':')?;
            Some(vec![Evidence::at_line(
                path.to_owned(),
                line.parse().ok()?,
                format!("{}: {}", e.exception, e.message),
            )])
        })
        .unwrap_or_default()
}

/// The init() retry limits the ParallelRunStep documentation describes, for reasoning
/// and tests: (per-node failures before that node starts no new workers, job-wide
/// failures that stop retrying once the job has run two minutes, seconds all agents may
/// stay in init before the job fails for lack of progress).
pub fn init_retry_limits(
    process_count_per_node: u64,
    node_count: u64,
    run_invocation_timeout: u64,
) -> (u64, u64, u64) {
    (
        3u64.saturating_mul(process_count_per_node),
        2u64.saturating_mul(node_count)
            .saturating_mul(process_count_per_node),
        3u64.saturating_mul(run_invocation_timeout)
            .saturating_add(30),
    )
}

/// Whether a job whose agents have all been in init() for `seconds` fails for lack of
/// progress (more than 3 × run_invocation_timeout + 30 s).
pub fn stuck_in_init_fails(seconds: u64, run_invocation_timeout: u64) -> bool {
    seconds > init_retry_limits(0, 0, run_invocation_timeout).2
}

/// Whether init() retries stop, given failures so far and how long the job has run.
pub fn init_retries_exhausted(
    node_failures: u64,
    job_failures: u64,
    job_seconds: u64,
    process_count_per_node: u64,
    node_count: u64,
) -> (bool, bool) {
    let (per_node, job, _) = init_retry_limits(process_count_per_node, node_count, 0);
    (
        node_failures >= per_node,
        job_seconds > 120 && job_failures >= job,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_budget_arithmetic_at_and_around_each_limit() {
        assert_eq!(init_retry_limits(2, 4, 60), (6, 16, 210));
        assert_eq!(init_retry_limits(1, 1, 60), (3, 2, 210));
        // Per node: 3 × process_count_per_node failures.
        assert!(!init_retries_exhausted(5, 5, 0, 2, 4).0);
        assert!(init_retries_exhausted(6, 6, 0, 2, 4).0);
        assert!(init_retries_exhausted(7, 7, 0, 2, 4).0);
        // Job-wide: 2 × node_count × process_count_per_node, only after two minutes.
        assert!(
            !init_retries_exhausted(0, 16, 120, 2, 4).1,
            "exactly two minutes is not more than two"
        );
        assert!(init_retries_exhausted(0, 16, 121, 2, 4).1);
        assert!(!init_retries_exhausted(0, 15, 600, 2, 4).1);
        assert!(init_retries_exhausted(0, 17, 600, 2, 4).1);
    }

    #[test]
    fn stuck_in_init_limit() {
        // 3 × 60 + 30 = 210 s.
        assert!(!stuck_in_init_fails(209, 60));
        assert!(
            !stuck_in_init_fails(210, 60),
            "exactly the limit is not more than it"
        );
        assert!(stuck_in_init_fails(211, 60));
        assert!(stuck_in_init_fails(31, 0));
    }

    #[test]
    fn timedelta_text() {
        assert_eq!(hms_seconds("0:03:31"), Some(211));
        assert_eq!(hms_seconds("1 day, 2:00:00"), Some(93_600));
        assert_eq!(hms_seconds("5:02"), None);
    }

    #[test]
    fn durations() {
        assert_eq!(
            elapsed("2023-05-16T22:00:01.2", "2023-05-17T00:20:53.9").as_deref(),
            Some("2:20:52")
        );
        assert_eq!(elapsed("2023-05-16T22:00:01", "2023-05-16T21:00:00"), None);
    }
}
