//! Builds the job summary from the parsed files of one tree. Each step reads one
//! concern from the files (configuration, job messages, attempts, processes and nodes,
//! errors, outcome); the order of the steps matters where a later source overrides an
//! earlier one, and `analyze` keeps that order in one place.

use std::collections::BTreeMap;

use super::computed::{self, Computed, Inputs};
use super::facts::Repeated;
use super::line::ev;
use super::mini_batches::{Attempt, AttemptAgg, FinalState};
use super::run_times::RunTimes;
use super::summary::{
    Attempts, ConfigSource, ConfigValue, ErrorGroup, JobOutcome, MAX_FAILING_LISTED, MiniBatch,
    NodeSummary, ParsedFile, ProcessSummary, PrsSummary, round2,
};
use super::time::elapsed;
use super::tree::Role;
use crate::finding::Evidence;

fn parse_i64(v: &str) -> Option<i64> {
    v.trim().parse().ok()
}

/// The 0-based worker index of `process007`, or of the 1-based legacy `Process-7`.
fn process_number(name: &str) -> Option<u64> {
    if let Some(n) = name.strip_prefix("Process-") {
        return n.parse::<u64>().ok().map(|n| n.saturating_sub(1));
    }
    name.strip_prefix("process")?.parse().ok()
}

/// What the job's messages say beyond the counts they set directly.
#[derive(Debug, Default)]
struct Messages {
    threshold_hit: Option<(u64, i64, Evidence)>,
    stop_reasons: Vec<String>,
    no_progress: Option<Evidence>,
    no_succeeded: Option<Evidence>,
    bad_return: Option<Evidence>,
    system_error: Option<Evidence>,
    times: BTreeMap<Repeated, (u64, Evidence)>,
    completed: bool,
}

/// Summarises one tree from its parsed files (in any order).
pub(crate) fn analyze(root: &str, mut files: Vec<ParsedFile>) -> (PrsSummary, Vec<Computed>) {
    files.sort_by(|a, b| a.role.cmp(&b.role).then_with(|| a.path.cmp(&b.path)));
    let mut s = PrsSummary {
        root: root.to_owned(),
        layout: layout(&files),
        notes: notes(&files),
        ..PrsSummary::default()
    };
    config_from_args(&mut s, &files);
    let m = read_messages(&mut s, &files);

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
    } else if driver_present && m.completed {
        Some(0)
    } else {
        None
    };

    let (agg, csv_path) = merge_attempts(&mut files);
    apply_attempts(&mut s, &agg);
    processes_and_nodes(&mut s, &files, &agg);
    super::resources::summarise(&mut s, &files);
    mini_batches(&mut s, &agg);
    s.errors = error_groups(&files);
    let run_timeouts = run_timeouts(&files);
    s.timeouts = (run_timeouts.len() as u64).max(agg.timeouts);
    decide_outcome(&mut s, &m, &exits);
    let node_evidence = super::nodes::node_changes(&mut s, &files, &agg);

    let computed = computed::compute(&Inputs {
        summary: &s,
        files: &files,
        exits: &exits,
        times: &m.times,
        run_timeouts: &run_timeouts,
        agg: &agg,
        csv_path: csv_path.as_deref().unwrap_or(""),
        node_evidence: &node_evidence,
    });
    (s, computed)
}

fn layout(files: &[ParsedFile]) -> &'static str {
    let legacy = files.iter().any(|f| {
        f.path.ends_with("overview.txt") && !f.path.contains("job_progress_overview")
            || f.path.contains("/sys/worker/")
    });
    if legacy { "legacy" } else { "current" }
}

/// Garbled structured files become notes, never errors.
fn notes(files: &[ParsedFile]) -> Vec<String> {
    let mut notes = Vec::new();
    for f in files {
        let structured = matches!(
            f.role,
            Role::MiniBatchCsv { .. }
                | Role::NodePerf { .. }
                | Role::Overview { .. }
                | Role::Master
                | Role::NodeMain { .. }
        );
        if structured && f.facts.lines > 1 && f.facts.recognised == 0 {
            notes.push(format!(
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
            notes.push(format!("{}: empty", f.path));
        }
    }
    notes
}

/// Configuration from the driver's arguments (messages may add the threshold later).
fn config_from_args(s: &mut PrsSummary, files: &[ParsedFile]) {
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
                source: ConfigSource::DriverLog,
            })
    };
    s.config.node_count = from_args("node_count");
    s.config.process_count_per_node = from_args("process_count_per_node");
    s.config.run_invocation_timeout = from_args("run_invocation_timeout");
    s.config.run_max_try = from_args("run_max_try");
    s.config.error_threshold =
        from_args("error_threshold").or_else(|| from_args("mini_batch_error_threshold"));
    let text = |k: &str| args.get(k).filter(|v| !v.is_empty()).cloned();
    s.config.output_action = text("output_action");
    s.config.append_row_file_name = text("append_row_file_name");
    s.config.logging_level = text("logging_level");
    s.config.entry_script = text("scoring_module_name");
    // 0 is meaningful here: it turns the resource monitor off.
    s.config.resource_monitor_interval = args
        .get("resource_monitor_interval")
        .and_then(|v| parse_i64(v))
        .filter(|v| *v >= 0)
        .map(|value| ConfigValue {
            value,
            source: ConfigSource::DriverLog,
        });
}

/// The overview files in rotation order.
fn overview_files(files: &[ParsedFile]) -> Vec<&ParsedFile> {
    let mut overview: Vec<&ParsedFile> = files
        .iter()
        .filter(|f| matches!(f.role, Role::Overview { .. }))
        .collect();
    overview.sort_by(|a, b| match (&a.role, &b.role) {
        (Role::Overview { key: x }, Role::Overview { key: y }) => x.cmp(y),
        _ => std::cmp::Ordering::Equal,
    });
    overview
}

/// Messages (overview files in rotation order, then results and the master log): the
/// counts go into the summary, the signals into [`Messages`].
fn read_messages(s: &mut PrsSummary, files: &[ParsedFile]) -> Messages {
    let overview = overview_files(files);
    let message_files = overview.iter().copied().chain(files.iter().filter(|f| {
        matches!(
            f.role,
            Role::JobResult | Role::JobError | Role::Master | Role::SysError | Role::DriverLog
        )
    }));
    let mut m = Messages::default();
    for f in message_files {
        count_messages(s, &mut m, f, overview.is_empty());
        signal_messages(&mut m, f);
        if s.duration.is_none()
            && let (Some(a), Some(b)) = (&f.facts.first_time, &f.facts.last_time)
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
    if let Some((failed, t, _)) = &m.threshold_hit {
        s.items.failed = Some(s.items.failed.unwrap_or(0).max(*failed));
        if s.config.error_threshold.is_none() {
            s.config.error_threshold = Some(ConfigValue {
                value: *t,
                source: ConfigSource::JobMessages,
            });
        }
    }
    m
}

/// The counts one message file states: scheduled, progress, the closing summary.
fn count_messages(s: &mut PrsSummary, m: &mut Messages, f: &ParsedFile, no_overview: bool) {
    let x = &f.facts;
    if let Some((n, _, items)) = x.scheduled {
        s.mini_batches.scheduled = Some(n);
        if items.is_some() {
            s.items.total = items;
        }
    }
    // Progress comes from the overview; the master log repeats it.
    if let Some((done, _, duration, line)) = &x.progress
        && (matches!(f.role, Role::Overview { .. }) || no_overview)
    {
        s.mini_batches.processed = Some(*done);
        s.duration = Some(duration.clone());
        s.last_progress = Some(ev(&f.path, line));
    }
    if let Some(n) = x.all_processed {
        s.mini_batches.processed = Some(n);
        m.completed = true;
    }
    if let Some(c) = x.final_counts {
        // The closing summary; the job completed only if every mini-batch was processed.
        if c.processed >= c.mini_batches {
            m.completed = true;
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
                source: ConfigSource::JobMessages,
            });
        }
    }
}

/// The signals one message file gives: why the job stopped, and what was repeated.
fn signal_messages(m: &mut Messages, f: &ParsedFile) {
    let x = &f.facts;
    if let Some((n, t, line)) = &x.threshold_exceeded
        && m.threshold_hit.is_none()
    {
        m.threshold_hit = Some((*n, *t, ev(&f.path, line)));
    }
    for r in &x.stop_reasons {
        if !m.stop_reasons.contains(r) {
            m.stop_reasons.push(r.clone());
        }
    }
    if let Some((_, line)) = &x.no_progress {
        m.no_progress.get_or_insert_with(|| ev(&f.path, line));
    }
    if let Some(line) = &x.no_succeeded {
        m.no_succeeded.get_or_insert_with(|| ev(&f.path, line));
    }
    if let Some(line) = &x.bad_return {
        m.bad_return.get_or_insert_with(|| ev(&f.path, line));
    }
    if let Some(line) = &x.system_error
        && f.role != Role::DriverLog
    {
        m.system_error.get_or_insert_with(|| ev(&f.path, line));
    }
    for (k, (n, line)) in &x.times {
        m.times.entry(*k).or_insert_with(|| (*n, ev(&f.path, line)));
    }
}

/// Mini-batch attempts of every CSV, merged (the CSV is the authoritative record), and
/// the path of the first CSV with rows.
fn merge_attempts(files: &mut [ParsedFile]) -> (AttemptAgg, Option<String>) {
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
    (agg, csv_path)
}

/// Counts from the attempts, where the messages left them unknown.
fn apply_attempts(s: &mut PrsSummary, agg: &AttemptAgg) {
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
        // A percentage for people: counts far below 2^52.
        #[allow(clippy::cast_precision_loss)]
        let used = failed as f64 * 100.0 / t as f64;
        s.error_threshold_used_percent = Some(round2(used));
    }
}

type ProcessKey = (String, String);

/// Every process known from attempts, logs or exits, with its run times, and the exit
/// code of each process that logged one.
fn known_processes(
    files: &[ParsedFile],
    agg: &AttemptAgg,
) -> (
    BTreeMap<ProcessKey, (ProcessSummary, RunTimes)>,
    BTreeMap<ProcessKey, i32>,
) {
    let blank = |node: &str, process: &str| {
        (
            ProcessSummary {
                node: node.to_owned(),
                process: process.to_owned(),
                ..Default::default()
            },
            RunTimes::default(),
        )
    };
    let mut per_process: BTreeMap<ProcessKey, (ProcessSummary, RunTimes)> = BTreeMap::new();
    let node_of = NodeOf::of(files);
    for ((node, process), p) in &agg.per_process {
        let node = if node.is_empty() {
            node_of.process(process)
        } else {
            node.clone()
        };
        let (summary, times) = per_process
            .entry((node.clone(), process.clone()))
            .or_insert_with(|| blank(&node, process));
        summary.mini_batches += p.attempts;
        summary.failures += p.failures;
        summary.retries += p.retries;
        times.merge(&p.times);
    }
    // Processes known from logs and exits, even without attempts.
    let mut exit_of: BTreeMap<ProcessKey, i32> = BTreeMap::new();
    for f in files {
        match &f.role {
            Role::Process { node, process } | Role::UserError { node, process } => {
                per_process
                    .entry((node.clone(), process.clone()))
                    .or_insert_with(|| blank(node, process));
            }
            Role::NodeMain { node } => {
                for (process, code, _) in &f.facts.process_exits {
                    per_process
                        .entry((node.clone(), process.clone()))
                        .or_insert_with(|| blank(node, process));
                    exit_of.insert((node.clone(), process.clone()), *code);
                }
            }
            _ => {}
        }
    }
    (per_process, exit_of)
}

/// The node of a process the mini-batch CSV names without one (its `Process` column
/// is `process001`): the one node whose folder has that process's log, or the tree's
/// only node; empty when the tree cannot say.
struct NodeOf {
    nodes: std::collections::BTreeSet<String>,
    by_process: BTreeMap<String, std::collections::BTreeSet<String>>,
}

impl NodeOf {
    fn of(files: &[ParsedFile]) -> NodeOf {
        let mut nodes = std::collections::BTreeSet::new();
        let mut by_process: BTreeMap<String, std::collections::BTreeSet<String>> = BTreeMap::new();
        for f in files {
            match &f.role {
                Role::Process { node, process } | Role::UserError { node, process } => {
                    nodes.insert(node.clone());
                    by_process
                        .entry(process.clone())
                        .or_default()
                        .insert(node.clone());
                }
                Role::NodeMain { node } => {
                    nodes.insert(node.clone());
                }
                _ => {}
            }
        }
        nodes.remove("");
        NodeOf { nodes, by_process }
    }

    fn process(&self, process: &str) -> String {
        let only = |set: &std::collections::BTreeSet<String>| {
            (set.len() == 1)
                .then(|| set.iter().next().cloned())
                .flatten()
        };
        self.by_process
            .get(process)
            .and_then(only)
            .filter(|n| !n.is_empty())
            .or_else(|| only(&self.nodes))
            .unwrap_or_default()
    }
}

/// The per-process and per-node tables.
fn processes_and_nodes(s: &mut PrsSummary, files: &[ParsedFile], agg: &AttemptAgg) {
    let (per_process, exit_of) = known_processes(files, agg);
    let blank_node = |node: &str| {
        (
            NodeSummary {
                node: node.to_owned(),
                ..Default::default()
            },
            RunTimes::default(),
        )
    };
    let mut nodes: BTreeMap<String, (NodeSummary, RunTimes)> = BTreeMap::new();
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
        p.exit_code = exit_of.get(&(node.clone(), process)).copied();
        let n = nodes
            .entry(node.clone())
            .or_insert_with(|| blank_node(&node));
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
    for f in files {
        // A node known only from its resource monitor still gets a row.
        if let Some(node) = super::resources::perf_node(&f.role) {
            nodes
                .entry(node.to_owned())
                .or_insert_with(|| blank_node(node));
        }
        if let Role::NodePerf { node } = &f.role {
            let n = nodes
                .entry(node.clone())
                .or_insert_with(|| blank_node(node));
            // Several perf files for a node (logs/perf and logs/sys/perf): keep the maximum.
            if let Some((m, _, _)) = f.facts.perf.peak_memory {
                n.0.peak_memory_percent = Some(n.0.peak_memory_percent.map_or(m, |p| p.max(m)));
            }
            if let Some(c) = f.facts.perf.peak_cpu {
                n.0.peak_cpu_percent = Some(n.0.peak_cpu_percent.map_or(c, |p| p.max(c)));
            }
        }
    }
    let pcpn = s
        .config
        .process_count_per_node
        .as_ref()
        .map(|c| u64::try_from(c.value.max(1)).unwrap_or(1));
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
    // 0, 1, 2 … 10, as a person counts, not 0, 1, 10, 2.
    s.nodes.sort_by(|a, b| natural_cmp(&a.node, &b.node));
    s.processes.sort_by(|a, b| {
        natural_cmp(&a.node, &b.node).then_with(|| natural_cmp(&a.process, &b.process))
    });
}

/// Compares names with their runs of digits taken as numbers (`node 2` < `node 10`,
/// `10.0.0.4` < `10.0.0.12`).
pub(super) fn natural_cmp(a: &str, b: &str) -> std::cmp::Ordering {
    fn chunks(s: &str) -> Vec<(bool, &str)> {
        let mut out = Vec::new();
        let mut start = 0;
        let bytes = s.as_bytes();
        for i in 1..=bytes.len() {
            if i == bytes.len() || bytes[i].is_ascii_digit() != bytes[start].is_ascii_digit() {
                out.push((bytes[start].is_ascii_digit(), &s[start..i]));
                start = i;
            }
        }
        out
    }
    let (x, y) = (chunks(a), chunks(b));
    for (p, q) in x.iter().zip(&y) {
        let o = match (p, q) {
            ((true, m), (true, n)) => {
                let (m, n) = (m.trim_start_matches('0'), n.trim_start_matches('0'));
                m.len().cmp(&n.len()).then_with(|| m.cmp(n))
            }
            ((_, m), (_, n)) => m.cmp(n),
        };
        if o != std::cmp::Ordering::Equal {
            return o;
        }
    }
    x.len().cmp(&y.len()).then_with(|| a.cmp(b))
}

/// Slowest and failing mini-batches.
fn mini_batches(s: &mut PrsSummary, agg: &AttemptAgg) {
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
}

type Groups = BTreeMap<super::user_errors::ErrorKey, (u64, String, String)>;

fn add_groups(groups: &mut Groups, f: &ParsedFile) {
    for (k, (n, line, ts)) in &f.facts.errors {
        let at = format!("{}:{}", f.path, line.line);
        let e = groups
            .entry(k.clone())
            .or_insert((0, at.clone(), ts.clone()));
        e.0 += n;
        // The earliest occurrence by time wins over path order.
        if !ts.is_empty() && (e.2.is_empty() || *ts < e.2) {
            e.1 = at;
            e.2 = ts.clone();
        }
    }
}

/// Errors from the user error files, grouped, most frequent first.
fn error_groups(files: &[ParsedFile]) -> Vec<ErrorGroup> {
    let mut groups = Groups::new();
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
        .map(|(k, (count, first, _))| ErrorGroup {
            phase: k.phase,
            exception: k.exception,
            message: k.message,
            count,
            first,
        })
        .collect();
    errors.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.first.cmp(&b.first)));
    errors
}

/// The same timeout is logged in the process log and again in driver error files:
/// count the process logs, and other files only when there are none.
fn run_timeouts(files: &[ParsedFile]) -> Vec<(u64, Evidence)> {
    let from_process = files
        .iter()
        .any(|f| matches!(f.role, Role::Process { .. }) && !f.facts.run_timeouts.is_empty());
    files
        .iter()
        .filter(|f| !from_process || matches!(f.role, Role::Process { .. }))
        .flat_map(|f| {
            f.facts
                .run_timeouts
                .iter()
                .map(move |(secs, l)| (*secs, ev(&f.path, l)))
        })
        .collect()
}

/// Outcome and stop reason.
fn decide_outcome(s: &mut PrsSummary, m: &Messages, exits: &[(i32, Evidence)]) {
    let completed = m.completed;
    let stopped_by = |needle: &str| {
        m.stop_reasons
            .iter()
            .any(|r| r.to_ascii_lowercase().contains(needle))
    };
    let failed = m.threshold_hit.is_some()
        || stopped_by("error threshold")
        || stopped_by("no progress update") && !completed
        || exits.iter().any(|(c, _)| *c == 42)
        || m.no_succeeded.is_some()
        || m.no_progress.is_some() && !completed
        || m.system_error.is_some() && !completed;
    s.outcome = if failed {
        JobOutcome::Failed
    } else if completed {
        JobOutcome::Completed
    } else {
        JobOutcome::Unknown
    };
    let threshold =
        m.threshold_hit.is_some() || m.stop_reasons.iter().any(|r| r.contains("error threshold"));
    let (reason, message) = if threshold {
        (
            Some("error-threshold-exceeded"),
            m.threshold_hit.as_ref().map(|t| t.2.clone()),
        )
    } else if m.no_progress.is_some() && !completed {
        (Some("no-progress"), m.no_progress.clone())
    } else if m.no_succeeded.is_some() || m.bad_return.is_some() {
        (
            Some("user-error"),
            m.no_succeeded.clone().or_else(|| m.bad_return.clone()),
        )
    } else if failed {
        (
            Some("system-error"),
            m.system_error
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
}

#[cfg(test)]
mod tests {
    #[test]
    fn names_sort_as_people_count() {
        let mut v = vec!["10", "2", "unknown", "1", "0", "10.0.0.12", "10.0.0.4", ""];
        v.sort_by(|a, b| super::natural_cmp(a, b));
        assert_eq!(
            v,
            ["", "0", "1", "2", "10", "10.0.0.4", "10.0.0.12", "unknown"]
        );
        let mut p = vec!["process10", "process002", "process1"];
        p.sort_by(|a, b| super::natural_cmp(a, b));
        assert_eq!(p, ["process1", "process002", "process10"]);
    }
}
