//! Findings that need counting rather than matching: retry budgets, timeouts against
//! the configured limit, OOM kills corroborated by memory data, nothing succeeded, fewer
//! outputs than inputs, restarts. One registry ([`RULES`]) names each rule once, so the
//! list of computed rule ids the rule loader checks cannot drift from the code.

use std::collections::BTreeMap;

use super::facts::Repeated;
use super::line::ev;
use super::mini_batches::AttemptAgg;
use super::resources::{self, DISK_FULL_PERCENT};
use super::retry_budget::{init_retries_exhausted, init_retry_limits, stuck_in_init_fails};
use super::summary::{
    DEFAULT_PROCESS_COUNT_PER_NODE, DEFAULT_RUN_INVOCATION_TIMEOUT, JobOutcome, OOM_MEMORY_PERCENT,
    ParsedFile, PerfData, PrsSummary, round2,
};
use super::time::hms_seconds;
use super::time::time_key;
use super::tree::Role;
use super::user_errors::Phase;
use crate::finding::Evidence;

pub(super) use crate::finding::Computed;

/// What a rule found, before the registry puts its id on it.
#[derive(Debug, Default)]
struct Tally {
    count: u64,
    evidence: Vec<Evidence>,
    facts: BTreeMap<String, String>,
}

impl Tally {
    fn fact(&mut self, k: &str, v: impl ToString) {
        self.facts.insert(k.to_owned(), v.to_string());
    }
}

/// Everything a computed rule may look at.
#[derive(Debug)]
pub(super) struct Inputs<'a> {
    pub summary: &'a PrsSummary,
    pub files: &'a [ParsedFile],
    /// `SystemExit` codes from the driver log.
    pub exits: &'a [(i32, Evidence)],
    pub times: &'a BTreeMap<Repeated, (u64, Evidence)>,
    pub run_timeouts: &'a [(u64, Evidence)],
    pub agg: &'a AttemptAgg,
    /// The mini-batch CSV the attempts came from.
    pub csv_path: &'a str,
    /// The lines that show lost nodes and overviewer moves.
    pub node_evidence: &'a [Evidence],
}

type Rule = fn(&Inputs<'_>) -> Option<Tally>;

/// The computed rules, in the order their findings are produced. Their YAML files say
/// `computed: true`.
const RULES: &[(&str, Rule)] = &[
    ("prs-job-failed", job_failed),
    ("prs-init-retry-budget", init_retry_budget),
    ("prs-run-timeout-budget", run_timeout_budget),
    ("prs-oom-killed", oom_killed),
    ("prs-node-disk-full", node_disk_full),
    ("prs-resource-monitor-off", resource_monitor_off),
    ("prs-error-threshold-near", error_threshold_near),
    ("prs-nothing-succeeded", nothing_succeeded),
    ("prs-fewer-results-than-inputs", fewer_results_than_inputs),
    ("prs-process-restarts", process_restarts),
    ("prs-node-lost", node_lost),
    ("prs-single-mini-batch", single_mini_batch),
];

const fn rule_ids() -> [&'static str; RULES.len()] {
    let mut ids = [""; RULES.len()];
    let mut i = 0;
    while i < RULES.len() {
        ids[i] = RULES[i].0;
        i += 1;
    }
    ids
}

const RULE_IDS: [&str; RULES.len()] = rule_ids();

/// Rule ids this module computes.
pub(crate) const COMPUTED_RULES: &[&str] = &RULE_IDS;

/// Runs every computed rule over one tree.
pub(super) fn compute(inputs: &Inputs<'_>) -> Vec<Computed> {
    RULES
        .iter()
        .filter_map(|(id, rule)| {
            rule(inputs).map(|t| Computed {
                rule_id: id,
                count: t.count,
                evidence: t.evidence,
                facts: t.facts,
                names: BTreeMap::new(),
                commands: Vec::new(),
                edits: Vec::new(),
            })
        })
        .collect()
}

/// A setting read from the driver log, at least 1, or `default` when not shown.
fn positive(value: Option<&super::summary::ConfigValue>, default: u64) -> u64 {
    value.map_or(default, |c| u64::try_from(c.value.max(1)).unwrap_or(1))
}

fn process_count_per_node(s: &PrsSummary) -> u64 {
    positive(
        s.config.process_count_per_node.as_ref(),
        DEFAULT_PROCESS_COUNT_PER_NODE,
    )
}

fn run_invocation_timeout(s: &PrsSummary) -> u64 {
    positive(
        s.config.run_invocation_timeout.as_ref(),
        DEFAULT_RUN_INVOCATION_TIMEOUT,
    )
}

/// The headline: the job failed, why, and the most frequent error.
fn job_failed(x: &Inputs<'_>) -> Option<Tally> {
    let s = x.summary;
    if s.outcome != JobOutcome::Failed {
        return None;
    }
    let mut t = Tally {
        count: 1,
        ..Tally::default()
    };
    t.fact("stop_reason", s.stop_reason.unwrap_or("unknown"));
    if let Some(c) = s.leader_exit_code {
        t.fact("leader_exit_code", c);
    }
    if let Some(top) = s.errors.first() {
        t.fact(
            "root_cause",
            format!("{}: {}", top.exception, top.message).trim_end_matches(": "),
        );
        t.fact("root_cause_count", top.count);
    }
    if let (Some(failed), Some(th)) = (s.items.failed, s.config.error_threshold.as_ref()) {
        t.fact("failed_items", failed);
        t.fact("error_threshold", th.value);
    }
    // For the local test the fix text gives: the entry script as a module, and one
    // input of a failing mini-batch.
    if let Some(module) = s
        .config
        .entry_script
        .as_deref()
        .map(|e| e.trim_end_matches(".py"))
        .filter(|m| !m.is_empty() && m.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
    {
        t.fact("entry_module", module);
    }
    if let Some(input) = s.failing.iter().find_map(|m| file_input(&m.inputs)) {
        t.fact("failing_input", input);
    }
    t.evidence = s.stop_message.iter().cloned().collect();
    t.evidence.extend(
        x.exits
            .iter()
            .filter(|(c, _)| *c == 42)
            .map(|(_, e)| e.clone())
            .take(1),
    );
    Some(t)
}

/// init() failures per node, from the per-process error files.
fn init_failures_per_node(files: &[ParsedFile]) -> BTreeMap<&str, u64> {
    let mut per_node: BTreeMap<&str, u64> = BTreeMap::new();
    for f in files {
        if let Role::UserError { node, .. } = &f.role {
            let n: u64 = f
                .facts
                .errors
                .iter()
                .filter(|(k, _)| k.phase == Phase::Init)
                .map(|(_, v)| v.0)
                .sum();
            *per_node.entry(node.as_str()).or_default() += n;
        }
    }
    per_node
}

/// init() failures against the retry budget.
fn init_retry_budget(x: &Inputs<'_>) -> Option<Tally> {
    let s = x.summary;
    let init_errors: u64 = s
        .errors
        .iter()
        .filter(|e| e.phase == Phase::Init)
        .map(|e| e.count)
        .sum();
    let reported = |k: Repeated| x.times.get(&k).map_or(0, |t| t.0);
    let init_failures =
        init_errors.max(reported(Repeated::InitException) + reported(Repeated::InitTimeout));
    if init_failures == 0 {
        return None;
    }
    let nodes = s
        .config
        .node_count
        .as_ref()
        .and_then(|c| u64::try_from(c.value).ok())
        .unwrap_or_else(|| s.nodes.len().max(1) as u64);
    let p = process_count_per_node(s);
    let timeout = run_invocation_timeout(s);
    let (per_node_budget, job_budget, stuck_limit) = init_retry_limits(p, nodes, timeout);
    let per_node = init_failures_per_node(x.files);
    let worst_node = per_node.values().copied().max().unwrap_or(init_failures);
    let job_seconds = s.duration.as_deref().and_then(hms_seconds).unwrap_or(0);
    let (node_exhausted, job_exhausted) =
        init_retries_exhausted(worst_node, init_failures, job_seconds, p, nodes);
    let mut t = Tally {
        count: init_failures,
        ..Tally::default()
    };
    t.fact("init_failures", init_failures);
    t.fact("per_node_budget", per_node_budget);
    t.fact("most_failures_on_one_node", worst_node);
    t.fact(
        "nodes_out_of_retries",
        per_node.values().filter(|n| **n >= per_node_budget).count(),
    );
    t.fact("job_budget", job_budget);
    t.fact(
        "job_budget_used_percent",
        init_failures.saturating_mul(100) / job_budget.max(1),
    );
    t.fact("no_progress_limit_seconds", stuck_limit);
    t.fact("process_count_per_node", p);
    let verdict = if job_exhausted {
        "the job stopped retrying init() (job-wide budget used after more than two minutes)"
    } else if node_exhausted {
        "at least one node stopped starting new workers (per-node budget used)"
    } else if s.mini_batches.processed.unwrap_or(0) == 0
        && stuck_in_init_fails(job_seconds, timeout)
    {
        "no mini-batch finished while agents stayed in init() past the no-progress limit"
    } else {
        "still within the retry budget"
    };
    t.fact("retry_state", verdict);
    if s.config.process_count_per_node.is_none() {
        t.fact(
            "assumed",
            format!(
                "process_count_per_node={DEFAULT_PROCESS_COUNT_PER_NODE} (not in the driver log; the GPU default — CPU nodes default to their core count)"
            ),
        );
    }
    if s.config.run_invocation_timeout.is_none() {
        t.fact(
            "assumed_timeout",
            format!("run_invocation_timeout={DEFAULT_RUN_INVOCATION_TIMEOUT} (default)"),
        );
    }
    t.evidence = x
        .times
        .get(&Repeated::InitException)
        .or_else(|| x.times.get(&Repeated::InitTimeout))
        .map(|(_, e)| vec![e.clone()])
        .unwrap_or_else(|| first_error_evidence(s, Phase::Init));
    Some(t)
}

/// run() timeouts against run_invocation_timeout, and runs close to it.
fn run_timeout_budget(x: &Inputs<'_>) -> Option<Tally> {
    let s = x.summary;
    let timeout_s = run_invocation_timeout(s);
    // Seconds, far below 2^52.
    #[allow(clippy::cast_precision_loss)]
    let timeout = timeout_s as f64;
    let p95_all = x.agg.all_times.percentile(0.95).map(round2);
    let close = p95_all.is_some_and(|p| p >= 0.8 * timeout);
    if s.timeouts == 0 && !close {
        return None;
    }
    let mut t = Tally {
        count: s.timeouts.max(1),
        ..Tally::default()
    };
    t.fact("timeouts", s.timeouts);
    t.fact("run_invocation_timeout", timeout_s);
    if s.config.run_invocation_timeout.is_none() {
        t.fact(
            "assumed_timeout",
            format!(
                "run_invocation_timeout={DEFAULT_RUN_INVOCATION_TIMEOUT} (default; not in the driver log)"
            ),
        );
    }
    if let Some(p) = p95_all {
        t.fact("p95_run_seconds", p);
    }
    if let Some(max) = x.run_timeouts.iter().map(|(secs, _)| *secs).max() {
        t.fact("timeout_seen_seconds", max);
    }
    t.evidence = x
        .run_timeouts
        .iter()
        .take(3)
        .map(|(_, e)| e.clone())
        .collect();
    Some(t)
}

/// Killed workers, corroborated by the node's memory.
fn oom_killed(x: &Inputs<'_>) -> Option<Tally> {
    let s = x.summary;
    let killed: Vec<(&str, Evidence)> = x
        .files
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
    if killed.is_empty() {
        return None;
    }
    let mut t = Tally {
        count: killed.len() as u64,
        ..Tally::default()
    };
    t.fact("killed_processes", killed.len());
    t.evidence = killed.iter().map(|(_, e)| e.clone()).take(3).collect();
    let mut corroborated = false;
    for (node, _) in &killed {
        if let Some(n) = s.nodes.iter().find(|n| n.node == *node)
            && let Some(m) = n.peak_memory_percent
        {
            t.fact(&format!("node_{node}_peak_memory_percent"), m);
            if m >= OOM_MEMORY_PERCENT {
                corroborated = true;
            }
        }
    }
    if let Some(perf) = x.files.iter().find(
        |f| matches!(&f.role, Role::NodePerf { node } if killed.iter().any(|(k, _)| k == node)),
    ) && let Some((m, at, line)) = &perf.facts.perf.peak_memory
    {
        t.evidence.push(Evidence::at_line(
            perf.path.clone(),
            *line,
            format!("Memory Used Percent {m} at {at} (the node's peak)"),
        ));
    }
    let largest = largest_before_kills(x, &killed, &mut t.evidence);
    t.fact("top_memory_process", largest);
    t.fact(
        "memory_evidence",
        if corroborated {
            "node memory was at or above 90 % (out of memory)"
        } else if s.perf_data == PerfData::MonitorOff {
            "no perf data: the resource monitor was off (--resource_monitor_interval 0)"
        } else {
            "no perf data above 90 % memory: possibly OOM, or killed for another reason"
        },
    );
    t.evidence.retain(|e| e.line() > 0 || !e.text.is_empty());
    Some(t)
}

/// The process that held the most memory on each killed worker's node just before the
/// kill, as evidence, and the first one described.
fn largest_before_kills(
    x: &Inputs<'_>,
    killed: &[(&str, Evidence)],
    evidence: &mut Vec<Evidence>,
) -> String {
    let mut first = None;
    let mut seen = Vec::new();
    for (node, kill) in killed {
        if seen.contains(node) {
            continue;
        }
        seen.push(*node);
        let Some((file, p)) = resources::before_kill(x.files, node, time_key(&kill.text)) else {
            continue;
        };
        let text = format!(
            "{}, the most memory of any process on node {node} before the kill",
            p.describe()
        );
        evidence.push(Evidence::at_line(file.path.clone(), p.line, text));
        first.get_or_insert_with(|| format!("{} on node {node}", p.describe()));
    }
    first.unwrap_or_else(|| match x.summary.perf_data {
        PerfData::MonitorOff => {
            "not recorded (the resource monitor was off: --resource_monitor_interval 0)".to_owned()
        }
        _ => "not recorded (no process readings under logs/perf/<node>/)".to_owned(),
    })
}

/// A node's disk at or above [`DISK_FULL_PERCENT`].
fn node_disk_full(x: &Inputs<'_>) -> Option<Tally> {
    let full: Vec<_> = x
        .summary
        .nodes
        .iter()
        .filter_map(|n| resources::fullest_disk(x.files, &n.node).map(|d| (&n.node, d)))
        .filter(|(_, (_, d))| d.percent >= DISK_FULL_PERCENT)
        .collect();
    let ((node, (_, worst)), _) = full
        .iter()
        .map(|r| (r, r.1.1.percent))
        .max_by(|a, b| a.1.total_cmp(&b.1))?;
    let mut t = Tally {
        count: full.len() as u64,
        ..Tally::default()
    };
    t.fact("node", node);
    t.fact(
        "disk",
        if worst.disk.is_empty() {
            "a disk"
        } else {
            &worst.disk
        },
    );
    t.fact("disk_reading", worst.describe());
    t.fact("full_nodes", full.len());
    t.evidence = full
        .iter()
        .map(|(node, (f, d))| {
            Evidence::at_line(
                f.path.clone(),
                d.line,
                format!("node {node}: {}", d.describe()),
            )
        })
        .collect();
    Some(t)
}

/// The driver ran with the resource monitor off, so nothing under `perf/` explains a
/// kill, a slow node or a full disk.
fn resource_monitor_off(x: &Inputs<'_>) -> Option<Tally> {
    let s = x.summary;
    if s.perf_data != PerfData::MonitorOff {
        return None;
    }
    let mut t = Tally {
        count: 1,
        ..Tally::default()
    };
    t.fact("resource_monitor_interval", 0);
    if let Some(f) = x.files.iter().find(|f| {
        matches!(f.role, Role::DriverLog | Role::Master)
            && f.facts.args.contains_key("resource_monitor_interval")
    }) && let Some(l) = &f.facts.args_line
    {
        t.evidence.push(ev(&f.path, l));
    }
    Some(t)
}

/// Close to the error threshold on a job that did not exceed it.
fn error_threshold_near(x: &Inputs<'_>) -> Option<Tally> {
    let s = x.summary;
    let (Some(failed), Some(th)) = (s.items.failed, s.config.error_threshold.as_ref()) else {
        return None;
    };
    let near = th.value > 0
        && failed > 0
        && i64::try_from(failed).is_ok_and(|f| f <= th.value)
        // 80 % of the threshold, in whole items: failed × 5 ≥ threshold × 4.
        && u128::from(failed) * 5 >= u128::try_from(th.value).unwrap_or(0) * 4;
    if !near {
        return None;
    }
    let mut t = Tally {
        count: failed,
        ..Tally::default()
    };
    t.fact("failed_items", failed);
    t.fact("error_threshold", th.value);
    Some(t)
}

/// Nothing succeeded although mini-batches were processed.
fn nothing_succeeded(x: &Inputs<'_>) -> Option<Tally> {
    let s = x.summary;
    let processed = s.mini_batches.processed.unwrap_or(0);
    if s.items.succeeded != Some(0) || processed == 0 {
        return None;
    }
    let mut t = Tally {
        count: 1,
        ..Tally::default()
    };
    t.fact("processed_mini_batches", processed);
    Some(t)
}

/// run() returned fewer results than it got inputs, without raising.
fn fewer_results_than_inputs(x: &Inputs<'_>) -> Option<Tally> {
    let agg = x.agg;
    if agg.short == 0 {
        return None;
    }
    let mut t = Tally {
        count: agg.short,
        ..Tally::default()
    };
    t.fact("mini_batches", agg.short);
    t.fact("items_without_result", agg.short_items);
    t.evidence = agg
        .short_examples
        .iter()
        .map(|a| {
            Evidence::at_line(
                x.csv_path.to_owned(),
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
    Some(t)
}

/// Worker restarts.
fn process_restarts(x: &Inputs<'_>) -> Option<Tally> {
    let s = x.summary;
    let restarts: u64 = s.nodes.iter().map(|n| n.restarts).sum();
    if restarts == 0 {
        return None;
    }
    let mut t = Tally {
        count: restarts,
        ..Tally::default()
    };
    t.fact("restarts", restarts);
    let nodes_with: Vec<String> = s
        .nodes
        .iter()
        .filter(|n| n.restarts > 0)
        .map(|n| format!("{} on node {}", n.restarts, n.node))
        .collect();
    t.fact("per_node", nodes_with.join(", "));
    if let Some(p) = &s.config.process_count_per_node {
        t.fact("process_count_per_node", p.value);
    }
    Some(t)
}

/// The first input of a mini-batch when it is a file (`readings_003.csv`): what the
/// local `run([...])` test takes. A tabular mini-batch's rows (`{"id": 5, …}`) are no
/// file, and a piece of one would read as nonsense.
fn file_input(inputs: &str) -> Option<&str> {
    let first = inputs.split(", ").next()?.trim();
    let file_like = !first.is_empty()
        && !first.starts_with(['{', '[', '(', '<'])
        && !first.contains(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '`' | '$'));
    file_like.then_some(first)
}

fn first_error_evidence(s: &PrsSummary, phase: Phase) -> Vec<Evidence> {
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

/// Nodes lost while the job ran (their logs stopped while others went on), and what
/// happened to their work.
fn node_lost(x: &Inputs<'_>) -> Option<Tally> {
    let c = &x.summary.node_changes;
    if !c.any() {
        return None;
    }
    let mut t = Tally {
        count: c.lost.len().max(1) as u64,
        evidence: x.node_evidence.to_vec(),
        ..Tally::default()
    };
    let lost: Vec<String> = c
        .lost
        .iter()
        .map(|l| {
            format!(
                "node {} (last seen {}, {} before the others)",
                l.node, l.last_seen, l.silent_for
            )
        })
        .collect();
    t.fact(
        "lost_nodes",
        if lost.is_empty() {
            "none seen in the node logs".to_owned()
        } else {
            lost.join(", ")
        },
    );
    t.fact(
        "replacements",
        if c.replacements.is_empty() {
            "none: no node's logs start after the loss".to_owned()
        } else {
            format!("node {}", c.replacements.join(", node "))
        },
    );
    t.fact(
        "moved_away",
        c.lost.iter().map(|l| l.moved_away).sum::<u64>(),
    );
    t.fact("picked_again_without_record", c.picked_again_without_record);
    t.fact(
        "overviewer",
        if c.overviewer.is_empty() {
            "it did not".to_owned()
        } else {
            c.overviewer.join("; ")
        },
    );
    Some(t)
}

/// The whole input became one mini-batch, so one `run()` call did all the work.
fn single_mini_batch(x: &Inputs<'_>) -> Option<Tally> {
    let s = x.summary;
    if s.mini_batches.scheduled != Some(1) {
        return None;
    }
    let workers = match (&s.config.node_count, &s.config.process_count_per_node) {
        (Some(n), Some(p)) => Some(n.value.saturating_mul(p.value)),
        _ => None,
    };
    // One worker in all: one mini-batch costs nothing in parallelism.
    if workers == Some(1) {
        return None;
    }
    let mut t = Tally {
        count: 1,
        ..Tally::default()
    };
    t.fact(
        "items",
        s.items
            .total
            .map_or_else(|| "an unknown number of".to_owned(), |n| n.to_string()),
    );
    t.fact(
        "workers",
        workers.map_or_else(|| "the other".to_owned(), |w| w.to_string()),
    );
    if let Some((f, l)) = x.files.iter().find_map(|f| {
        let l = f.facts.scheduled_line.as_ref()?;
        matches!(f.role, Role::Overview { .. } | Role::Master).then_some((f, l))
    }) {
        t.evidence.push(ev(&f.path, l));
    }
    Some(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_file_is_a_failing_input() {
        assert_eq!(
            file_input("readings_003.csv, readings_004.csv"),
            Some("readings_003.csv")
        );
        assert_eq!(file_input("/mnt/in/a b.csv"), None);
        assert_eq!(file_input(r#"{"id": 5, "x": 1}"#), None);
        assert_eq!(file_input(""), None);
    }

    #[test]
    fn every_rule_id_is_listed_once() {
        let mut ids = COMPUTED_RULES.to_vec();
        assert_eq!(ids.len(), RULES.len());
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), RULES.len());
    }
}
