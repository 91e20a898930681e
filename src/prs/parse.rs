//! Line parsers for the files of a ParallelRunStep tree. Each file's lines go through a
//! [`FileParser`] as the scanner streams them (the engine's line-observer hook), so a
//! tree is read once.
//! Formats marked UNCONFIRMED in the reference are keyed on substrings; a line that
//! fits nothing is ignored, and a file that fits nothing is noted, never fatal.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use regex::Regex;
use serde::Serialize;

use super::message::{self, Shape, Wanted};
use super::perf::{PerfFacts, PerfParser};
use super::tree::Role;
use crate::engine::observe::{LineObserver, Observers, Placement};
use crate::evidence::{DocumentKind, KindSource};

/// A line that supports a conclusion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    pub line: u64,
    pub text: String,
}

/// One attempt at one mini-batch, from the processed mini-batches CSV.
#[derive(Debug, Clone, PartialEq)]
pub struct Attempt {
    pub id: String,
    pub picked: u32,
    pub node: String,
    pub process: String,
    pub elapsed: Option<f64>,
    pub run_seconds: Option<f64>,
    pub total: Option<u64>,
    pub succeeded: Option<u64>,
    pub failed: Option<u64>,
    pub status: String,
    pub category: String,
    pub message: String,
    pub detail: String,
    pub line: u64,
}

impl Attempt {
    pub fn is_failure(&self) -> bool {
        let s = self.status.to_ascii_uppercase();
        s.contains("EXCEPTION") || s.contains("TIMEOUT") || s.contains("FAIL") || s.contains("KILL")
    }
}

/// Run times kept exactly while few, then as a logarithmic histogram, so a tree with
/// millions of mini-batches still takes bounded memory.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Sample {
    values: Vec<f64>,
    hist: Vec<u64>,
    count: u64,
    sum: f64,
}

/// Exact values kept per sample; beyond that, buckets.
const EXACT: usize = 4096;
/// Histogram buckets: 20 per decade from 1 ms to 10^6 s.
const PER_DECADE: f64 = 20.0;
const DECADES: f64 = 9.0;

// A log-scale histogram of run times: floats in, bucket indexes out. Counts stay far
// below 2^52 and bucket indexes below 200, so these casts lose nothing that matters.
#[allow(
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss
)]
impl Sample {
    fn bucket(v: f64) -> usize {
        let x = (v.max(0.001).log10() + 3.0) * PER_DECADE;
        (x.max(0.0) as usize).min((PER_DECADE * DECADES) as usize)
    }

    pub fn add(&mut self, v: f64) {
        self.count += 1;
        self.sum += v;
        if self.hist.is_empty() {
            self.values.push(v);
            if self.values.len() > EXACT {
                self.hist = vec![0; (PER_DECADE * DECADES) as usize + 1];
                for x in std::mem::take(&mut self.values) {
                    self.hist[Sample::bucket(x)] += 1;
                }
            }
        } else {
            self.hist[Sample::bucket(v)] += 1;
        }
    }

    pub fn merge(&mut self, other: &Sample) {
        if other.hist.is_empty() {
            for v in &other.values {
                self.add(*v);
            }
        } else {
            for v in std::mem::take(&mut self.values) {
                self.add_to_hist(v);
            }
            if self.hist.is_empty() {
                self.hist = vec![0; other.hist.len()];
            }
            for (a, b) in self.hist.iter_mut().zip(&other.hist) {
                *a += b;
            }
            self.count += other.count;
            self.sum += other.sum;
        }
    }

    fn add_to_hist(&mut self, v: f64) {
        if self.hist.is_empty() {
            self.hist = vec![0; (PER_DECADE * DECADES) as usize + 1];
        }
        self.hist[Sample::bucket(v)] += 1;
    }

    pub fn mean(&self) -> Option<f64> {
        (self.count > 0).then(|| self.sum / self.count as f64)
    }

    /// Nearest-rank percentile: exact while values are kept, else the bucket's upper edge.
    pub fn percentile(&self, p: f64) -> Option<f64> {
        if self.count == 0 {
            return None;
        }
        let rank = ((p * self.count as f64).ceil() as u64).clamp(1, self.count);
        if self.hist.is_empty() {
            let mut v = self.values.clone();
            v.sort_by(f64::total_cmp);
            return v.get(rank as usize - 1).copied();
        }
        let mut seen = 0;
        for (i, n) in self.hist.iter().enumerate() {
            seen += n;
            if seen >= rank {
                return Some(10f64.powf((i as f64 + 1.0) / PER_DECADE - 3.0));
            }
        }
        None
    }
}

/// Attempts of one worker process.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ProcessAgg {
    pub attempts: u64,
    pub failures: u64,
    pub retries: u64,
    pub times: Sample,
}

/// The last attempt seen for one mini-batch.
#[derive(Debug, Clone, PartialEq)]
pub struct FinalState {
    pub picked: u32,
    /// The node of the attempt kept.
    pub node: String,
    /// The lowest Picked Count among the mini-batch's rows: above 1, its first attempts
    /// left no row (they were in flight on a worker or node that went away).
    pub min_picked: u32,
    pub failure: bool,
    pub total: Option<u64>,
    pub succeeded: Option<u64>,
    pub failed: Option<u64>,
}

/// Mini-batch rows aggregated as they stream by; memory grows with the number of
/// distinct mini-batches (one small entry each), not with rows or text.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AttemptAgg {
    pub rows: u64,
    pub finals: std::collections::HashMap<String, FinalState>,
    pub per_process: BTreeMap<(String, String), ProcessAgg>,
    pub all_times: Sample,
    /// The slowest attempt of each of the slowest mini-batches (at most [`KEEP`]).
    pub slowest: Vec<Attempt>,
    /// The failing latest attempt of each mini-batch (at most [`KEEP_FAILING`]).
    pub failing: std::collections::HashMap<String, Attempt>,
    pub timeouts: u64,
    /// Attempts where run() raised (status `…EXCEPTION`, category not `Driver`).
    pub run_exceptions: u64,
    /// Attempts that finished with fewer results than inputs.
    pub short: u64,
    pub short_items: u64,
    pub short_examples: Vec<Attempt>,
    /// Mini-batches picked again on another node, by the node of the earlier attempt.
    pub moved_from: BTreeMap<String, u64>,
}

pub const KEEP: usize = 5;
pub const KEEP_FAILING: usize = 10_000;

impl AttemptAgg {
    pub fn add(&mut self, a: Attempt) {
        self.rows += 1;
        let failure = a.is_failure();
        let p = self
            .per_process
            .entry((a.node.clone(), a.process.clone()))
            .or_default();
        p.attempts += 1;
        if failure {
            p.failures += 1;
        }
        if a.picked > 1 {
            p.retries += 1;
        }
        if let Some(t) = a.run_seconds.or(a.elapsed) {
            p.times.add(t);
            self.all_times.add(t);
        }
        if a.status.to_ascii_uppercase().contains("RUN_TIMEOUT") {
            self.timeouts += 1;
        }
        if a.status.to_ascii_uppercase().contains("EXCEPTION")
            && !a.category.eq_ignore_ascii_case("driver")
        {
            self.run_exceptions += 1;
        }
        if !failure
            && let (Some(t), Some(s)) = (a.total, a.succeeded)
            && s < t
        {
            self.short += 1;
            self.short_items += t - s;
            if self.short_examples.len() < 3 {
                self.short_examples.push(a.clone());
            }
        }
        let state = FinalState {
            picked: a.picked,
            node: a.node.clone(),
            min_picked: a.picked,
            failure,
            total: a.total,
            succeeded: a.succeeded,
            failed: a.failed,
        };
        self.keep_final(a.id.clone(), state);
        self.keep_slowest(&a);
        self.track_failing(a);
    }

    /// Keeps the later attempt of a mini-batch, counting a move to another node against
    /// the node of the earlier one.
    fn keep_final(&mut self, id: String, state: FinalState) {
        match self.finals.get_mut(&id) {
            Some(f) => {
                if f.node != state.node && !f.node.is_empty() && !state.node.is_empty() {
                    let earlier = if f.picked > state.picked {
                        &state.node
                    } else {
                        &f.node
                    };
                    *self.moved_from.entry(earlier.clone()).or_default() += 1;
                }
                let min_picked = f.min_picked.min(state.min_picked);
                if f.picked <= state.picked {
                    *f = state;
                }
                f.min_picked = min_picked;
            }
            None => {
                self.finals.insert(id, state);
            }
        }
    }

    /// Keeps the latest attempt of each mini-batch whose latest attempt failed: a later
    /// success removes it. Bounded: beyond [`KEEP_FAILING`] new ids are only counted.
    fn track_failing(&mut self, a: Attempt) {
        let newer = self.failing.get(&a.id).is_none_or(|x| a.picked >= x.picked);
        if !newer {
            return;
        }
        if a.is_failure() {
            if self.failing.len() < KEEP_FAILING || self.failing.contains_key(&a.id) {
                self.failing.insert(a.id.clone(), a);
            }
        } else {
            self.failing.remove(&a.id);
        }
    }

    fn keep_slowest(&mut self, a: &Attempt) {
        let secs = |x: &Attempt| x.elapsed.or(x.run_seconds);
        let Some(t) = secs(a) else { return };
        if let Some(same) = self.slowest.iter_mut().find(|x| x.id == a.id) {
            if secs(same).unwrap_or(0.0) < t {
                *same = a.clone();
            }
        } else {
            self.slowest.push(a.clone());
        }
        self.slowest.sort_by(|x, y| {
            secs(y)
                .unwrap_or(0.0)
                .total_cmp(&secs(x).unwrap_or(0.0))
                .then_with(|| x.id.cmp(&y.id))
        });
        self.slowest.truncate(KEEP);
    }

    pub fn merge(&mut self, other: AttemptAgg) {
        self.rows += other.rows;
        for (id, f) in other.finals {
            self.keep_final(id, f);
        }
        for (node, n) in other.moved_from {
            *self.moved_from.entry(node).or_default() += n;
        }
        for (k, p) in other.per_process {
            let e = self.per_process.entry(k).or_default();
            e.attempts += p.attempts;
            e.failures += p.failures;
            e.retries += p.retries;
            e.times.merge(&p.times);
        }
        self.all_times.merge(&other.all_times);
        for a in other.slowest {
            self.keep_slowest(&a);
        }
        for (_, a) in other.failing {
            self.track_failing(a);
        }
        self.timeouts += other.timeouts;
        self.run_exceptions += other.run_exceptions;
        self.short += other.short;
        self.short_items += other.short_items;
        for a in other.short_examples {
            if self.short_examples.len() < 3 {
                self.short_examples.push(a);
            }
        }
    }
}

/// The entry-script method an error was raised in. The order (unknown, init, run)
/// matches the text order, which groups are sorted by.
#[derive(
    Debug,
    Clone,
    Copy,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    schemars::JsonSchema,
)]
pub enum Phase {
    /// The file does not say.
    #[default]
    #[serde(rename = "")]
    Unknown,
    #[serde(rename = "init")]
    Init,
    #[serde(rename = "run")]
    Run,
}

impl Phase {
    fn parse(text: &str) -> Phase {
        match text {
            "init" => Phase::Init,
            "run" => Phase::Run,
            _ => Phase::Unknown,
        }
    }

    /// `init`, `run`, or empty.
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Unknown => "",
            Phase::Init => "init",
            Phase::Run => "run",
        }
    }
}

/// What the job's messages count: "The run() in the entry script had raised exception
/// for N times" and its siblings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Repeated {
    RunException,
    RunTimeout,
    InitException,
    InitTimeout,
}

/// An error message from the user error files, grouped by exception and message.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct ErrorKey {
    pub phase: Phase,
    pub exception: String,
    pub message: String,
}

/// The overview's final sentence when every mini-batch was processed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FinalCounts {
    pub mini_batches: u64,
    pub items: u64,
    pub processed: u64,
    pub succeeded: u64,
    pub failed: u64,
    pub threshold: Option<i64>,
}

/// Everything one file says.
#[derive(Debug, Clone, Default)]
pub struct FileFacts {
    pub lines: u64,
    /// Lines that fit the file's grammar (0 for a structured file means garbled).
    pub recognised: u64,
    pub scheduled: Option<(u64, Option<u64>, Option<u64>)>,
    /// The line of the last `Scheduled …` message.
    pub scheduled_line: Option<Line>,
    pub progress: Option<(u64, u64, String, Line)>,
    pub all_processed: Option<u64>,
    pub final_counts: Option<FinalCounts>,
    pub threshold_exceeded: Option<(u64, i64, Line)>,
    pub stop_reasons: Vec<String>,
    pub no_progress: Option<(u64, Line)>,
    pub times: BTreeMap<Repeated, (u64, Line)>,
    pub no_succeeded: Option<Line>,
    pub bad_return: Option<Line>,
    pub system_error: Option<Line>,
    pub slow_tasks: Option<(u64, Line)>,
    pub first_time: Option<String>,
    pub last_time: Option<String>,
    pub args: BTreeMap<String, String>,
    /// The line the arguments were first read from.
    pub args_line: Option<Line>,
    pub system_exits: Vec<(i32, Line)>,
    pub process_exits: Vec<(String, i32, Line)>,
    /// `The overviewer on <node> started.` (true) or `stopped.` (false), with the time.
    pub overviewer: Vec<(String, bool, String, Line)>,
    /// The first and last timestamped sys line of a node's file: its time
    /// (`YYYY-MM-DD HH:MM:SS`) and line.
    pub first_sys: Option<(String, u64)>,
    pub last_sys: Option<(String, u64)>,
    pub run_timeouts: Vec<(u64, Line)>,
    /// Count, first occurrence and its timestamp.
    pub errors: BTreeMap<ErrorKey, (u64, Line, String)>,
    pub attempts: AttemptAgg,
    /// What a `perf/<node>/` file showed.
    pub perf: PerfFacts,
    pub last_lines: Vec<Line>,
}

struct Patterns {
    scheduled: Regex,
    progress: Regex,
    all_processed: Regex,
    final_counts: Regex,
    threshold: Regex,
    stopped: Regex,
    no_progress: Regex,
    times: Regex,
    no_succeeded: Regex,
    bad_return: Regex,
    system_error: Regex,
    slow_tasks: Regex,
    arg: Regex,
    dict_arg: Regex,
    system_exit: Regex,
    process_exit: Regex,
    run_timeout: Regex,
    overviewer: Regex,
    entry_failed: Regex,
    exception_line: Regex,
}

fn patterns() -> &'static Patterns {
    static P: OnceLock<Patterns> = OnceLock::new();
    P.get_or_init(|| {
        let r = |p: &str| Regex::new(p).unwrap_or_else(|e| unreachable!("PRS pattern {p}: {e}"));
        Patterns {
            scheduled: r(r"Scheduled (\d+) mini batches in (\d+) seconds\.(?: There are (\d+) tasks with (\d+) items\.)?"),
            progress: r(r"Processed (\d+) of (\d+) mini batches in ([\d:]+(?: days?, [\d:]+)?)\."),
            all_processed: r(r"All (\d+) mini batches have been processed\."),
            final_counts: r(r"There are (\d+) mini batches with (\d+) items\. Processed (\d+) mini batches containing \d+ items, (\d+) succeeded, (\d+) failed\.(?: The error threshold is (-?\d+)\.)?"),
            threshold: r(r"The number of failed items is (\d+), which exceeds error threshold (-?\d+)"),
            stopped: r(r"Progress update stopped for reasons: \[(.*)\]"),
            no_progress: r(r"No progress update in (\d+) seconds"),
            times: r(r"The (run|init)\(\) in the entry scipt had (raised exception|timeout) for (\d+) times"),
            no_succeeded: r(r"There is no succeeded mini batch item returned from run\(\)"),
            bad_return: r(r"The run\(\) method in the entry script should return a list or a pandas DataFrame"),
            system_error: r(r"(?:DriverException: Job failed with|The master role failed with error:|SystemExit: 42)"),
            slow_tasks: r(r"(?:Unable to create any task within|First task creation is taking longer than) (\d+) seconds"),
            // `--name 2`, `--name=2`, and the list form `'--name', '2'`.
            arg: r(r#"--(node_count|process_count_per_node|run_invocation_timeout|run_max_try|error_threshold|mini_batch_size|mini_batch_error_threshold|output_action|append_row_file_name|logging_level|scoring_module_name|resource_monitor_interval|progress_update_timeout)(?:[= ]|['"],\s*['"])['"]?([\w.-]+)"#),
            // A dict (`'name': 2`) or an argparse Namespace (`name=2`).
            dict_arg: r(r#"(?:['"]|\b)(node_count|process_count_per_node|run_invocation_timeout|run_max_try|error_threshold|mini_batch_size|output_action|append_row_file_name|logging_level|resource_monitor_interval)(?:['"]\s*:|=)\s*['"]?(-?[\w.]+)"#),
            system_exit: r(r"^SystemExit: (-?\d+)"),
            process_exit: r(r"(process\d{3}|Process-\d+) exits with returncode (-?\d+)"),
            run_timeout: r(r"(?:Stop for run\(\) unable to finish within|did not finish in) (\d+) seconds"),
            overviewer: r(r"The overviewer on (\S+) (started|stopped)\."),
            entry_failed: r(r"Entry script (run|init)\(\) failed for (?:((?:[A-Za-z_]\w*\.)*[A-Z]\w*): )?(.*?)(?:\. Details|$)"),
            exception_line: r(r"^((?:[A-Za-z_]\w*\.)*[A-Z]\w*): (.+)$"),
        }
    })
}

/// Parses the lines of one file according to its role.
#[derive(Debug)]
pub struct FileParser {
    role: Role,
    facts: FileFacts,
    header: Option<Vec<String>>,
    perf: PerfParser,
    /// The time of the last sys line of a node's file (see `note_sys_time`).
    last_sys_time: [u8; 19],
    last_sys_line: u64,
    /// A user error header waiting for its traceback's last line.
    pending: Option<Pending>,
    /// The last lines of a file that shows them, as read (cleaned at the end).
    last_raw: Vec<(u64, Vec<u8>)>,
}

#[derive(Debug, Clone)]
struct Pending {
    phase: Phase,
    exception: String,
    message: String,
    line: Line,
    ts: String,
    /// An exception line was seen after the header.
    closed: bool,
}

fn evidence(number: u64, text: &str) -> Line {
    let mut t = text.trim_end().to_owned();
    if t.len() > 400 {
        t.truncate(crate::engine::scan::floor_char_boundary(&t, 400));
    }
    Line {
        line: number,
        text: t,
    }
}

/// A message with nothing but whitespace.
fn is_blank(message: &[u8]) -> bool {
    if message.is_ascii() {
        message.trim_ascii().is_empty()
    } else {
        String::from_utf8_lossy(message).trim().is_empty()
    }
}

fn num(s: &str) -> Option<u64> {
    s.trim().parse().ok()
}

fn float(s: &str) -> Option<f64> {
    s.trim().parse::<f64>().ok().filter(|f| f.is_finite())
}

/// Splits one CSV line (RFC 4180 quoting on a single line).
pub fn csv_fields(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => out.push(std::mem::take(&mut field)),
            (c, _) => field.push(c),
        }
    }
    out.push(field);
    out
}

impl FileParser {
    pub fn new(role: Role) -> FileParser {
        FileParser {
            role,
            facts: FileFacts::default(),
            header: None,
            perf: PerfParser::default(),
            last_sys_time: [0; 19],
            last_sys_line: 0,
            pending: None,
            last_raw: Vec::new(),
        }
    }

    pub fn finish(mut self) -> FileFacts {
        self.flush_pending();
        self.perf.finish(&mut self.facts.perf);
        if self.last_sys_line > 0 {
            self.facts.last_sys = Some((
                String::from_utf8_lossy(&self.last_sys_time).into_owned(),
                self.last_sys_line,
            ));
        }
        self.facts.last_lines = std::mem::take(&mut self.last_raw)
            .into_iter()
            .map(|(number, raw)| {
                let text = crate::redact::clean(&String::from_utf8_lossy(&raw)).into_owned();
                evidence(number, &text)
            })
            .collect();
        self.facts
    }

    /// Feeds one line (without its terminator); `number` is 1-based.
    pub fn line(&mut self, number: u64, raw: &[u8]) {
        self.facts.lines = number;
        let mut raw = raw;
        while let Some(r) = raw.strip_suffix(b"\r") {
            raw = r;
        }
        let whole_lines = matches!(
            self.role,
            Role::MiniBatchCsv { .. }
                | Role::NodePerf { .. }
                | Role::ProcessPerf { .. }
                | Role::DiskPerf { .. }
                | Role::ProcessSnapshot { .. }
                | Role::SummaryCsv
                | Role::UserError { .. }
                | Role::UserErrorSummary
        );
        if !whole_lines {
            self.message_line(number, raw);
            return;
        }
        // Everything the summary shows comes from here: redact secrets and neutralise
        // terminal control characters once, at the source.
        let lossy = String::from_utf8_lossy(raw);
        let cleaned = crate::redact::clean(&lossy);
        let text: &str = &cleaned;
        match &self.role {
            Role::MiniBatchCsv { .. } => self.csv_attempt(number, text),
            Role::NodePerf { .. } => {
                let read = self.perf.node_line(&mut self.facts.perf, number, text);
                self.facts.recognised += u64::from(read);
            }
            Role::ProcessPerf { .. } => {
                let read = self.perf.process_line(&mut self.facts.perf, number, text);
                self.facts.recognised += u64::from(read);
            }
            Role::DiskPerf { .. } => {
                let read = self.perf.disk_line(&mut self.facts.perf, number, text);
                self.facts.recognised += u64::from(read);
            }
            Role::ProcessSnapshot { time, .. } => {
                let read = self
                    .perf
                    .snapshot_line(&mut self.facts.perf, number, text, time);
                self.facts.recognised += u64::from(read);
            }
            Role::UserError { .. } | Role::UserErrorSummary => self.user_error(number, text),
            _ => {
                if text.contains(',') {
                    self.facts.recognised += 1;
                }
            }
        }
    }

    /// A line of a log whose facts are in its messages. Its shape and the literals of
    /// its message are read from the bytes; only a line whose literals select a
    /// message pattern is cleaned and matched, and only the last lines of the files
    /// that show them are kept (raw, cleaned when the file ends).
    fn message_line(&mut self, number: u64, raw: &[u8]) {
        // The whole line is searched for the literals (a superset of its message's): a
        // line with none, in a file whose other lines are not kept, is only counted.
        let mut wanted = message::wanted(raw);
        let args = match self.role {
            Role::DriverLog => true,
            Role::Master => memchr::memmem::find(raw, b"Namespace(").is_some(),
            _ => false,
        };
        let keeps_last = matches!(
            self.role,
            Role::JobResult | Role::JobError | Role::Overview { .. } | Role::Master
        );
        if !wanted.any() && !args && !keeps_last {
            if message::is_sys(raw) {
                self.facts.recognised += 1;
                self.note_sys_time(number, raw);
            } else if let Some(time_end) = message::overview_time_end(raw) {
                self.note_time(number, raw, Shape::Overview { time_end });
            }
            return;
        }
        let shape = message::shape(raw);
        self.note_time(number, raw, shape);
        let message = &raw[shape.message_start()..];
        if is_blank(message) {
            return;
        }
        if keeps_last {
            if self.last_raw.len() == 3 {
                self.last_raw.remove(0);
            }
            // Whole (the tap bounds it): redaction must see a secret whole before the
            // evidence is cut.
            self.last_raw.push((number, raw.to_vec()));
        }
        // The driver's arguments: every line of its log, the `Namespace(…)` line of the
        // master's.
        if args {
            wanted = wanted | message::wanted_args(message);
        }
        if !matches!(self.role, Role::DriverLog) {
            wanted = wanted.without(Wanted::SYSTEM_EXIT);
        }
        if !wanted.any() {
            return;
        }
        let lossy = String::from_utf8_lossy(raw);
        let cleaned = crate::redact::clean(&lossy);
        let text: &str = &cleaned;
        // Cleaning leaves the time and level fields as they were; the message is found
        // again in the cleaned text.
        let message = &text[message::shape(text.as_bytes()).message_start()..];
        self.progress_messages(number, text, message, wanted);
        self.stop_messages(number, text, message, wanted);
        self.process_messages(number, text, message, wanted);
    }

    /// Counts a structured line as recognised and keeps the overview's times for the
    /// duration (the 2020 overview writes sys lines).
    fn note_time(&mut self, number: u64, raw: &[u8], shape: Shape) {
        let time = match shape {
            Shape::Plain => return,
            Shape::Sys { .. } => {
                self.facts.recognised += 1;
                self.note_sys_time(number, raw);
                if !matches!(self.role, Role::Overview { .. }) {
                    return;
                }
                String::from_utf8_lossy(&raw[..23])
                    .replacen(' ', "T", 1)
                    .replacen(',', ".", 1)
            }
            Shape::Overview { time_end } => {
                self.facts.recognised += 1;
                String::from_utf8_lossy(&raw[..time_end]).into_owned()
            }
        };
        let f = &mut self.facts;
        if f.first_time.is_none() {
            f.first_time = Some(time.clone());
        }
        f.last_time = Some(time);
    }

    /// The first and last times of a node's logs, which show a node that stopped while
    /// the others went on. Only the bytes of the last line's time are kept per line.
    fn note_sys_time(&mut self, number: u64, raw: &[u8]) {
        if !matches!(self.role, Role::NodeMain { .. } | Role::Process { .. }) {
            return;
        }
        self.last_sys_time.copy_from_slice(&raw[..19]);
        self.last_sys_line = number;
        if self.facts.first_sys.is_none() {
            self.facts.first_sys = Some((String::from_utf8_lossy(&raw[..19]).into_owned(), number));
        }
    }

    /// Scheduling, progress and the closing counts.
    fn progress_messages(&mut self, number: u64, text: &str, message: &str, wanted: Wanted) {
        let p = patterns();
        let f = &mut self.facts;
        if wanted.has(Wanted::SCHEDULED)
            && let Some(c) = p.scheduled.captures(message)
        {
            f.recognised += 1;
            f.scheduled = Some((
                num(&c[1]).unwrap_or(0),
                c.get(3).and_then(|m| num(m.as_str())),
                c.get(4).and_then(|m| num(m.as_str())),
            ));
            f.scheduled_line = Some(evidence(number, text));
        }
        if wanted.has(Wanted::PROGRESS)
            && let Some(c) = p.progress.captures(message)
        {
            f.progress = Some((
                num(&c[1]).unwrap_or(0),
                num(&c[2]).unwrap_or(0),
                c[3].to_owned(),
                evidence(number, text),
            ));
        }
        if wanted.has(Wanted::ALL_PROCESSED)
            && let Some(c) = p.all_processed.captures(message)
        {
            f.all_processed = num(&c[1]);
        }
        if wanted.has(Wanted::FINAL_COUNTS)
            && let Some(c) = p.final_counts.captures(message)
        {
            f.final_counts = Some(FinalCounts {
                mini_batches: num(&c[1]).unwrap_or(0),
                items: num(&c[2]).unwrap_or(0),
                processed: num(&c[3]).unwrap_or(0),
                succeeded: num(&c[4]).unwrap_or(0),
                failed: num(&c[5]).unwrap_or(0),
                threshold: c.get(6).and_then(|m| m.as_str().parse().ok()),
            });
        }
        if wanted.has(Wanted::THRESHOLD)
            && let Some(c) = p.threshold.captures(message)
            && f.threshold_exceeded.is_none()
        {
            f.threshold_exceeded = Some((
                num(&c[1]).unwrap_or(0),
                c[2].parse().unwrap_or(0),
                evidence(number, text),
            ));
        }
    }

    /// Why the job stopped, and what its messages say was repeated or slow.
    fn stop_messages(&mut self, number: u64, text: &str, message: &str, wanted: Wanted) {
        let p = patterns();
        let f = &mut self.facts;
        if wanted.has(Wanted::STOPPED)
            && let Some(c) = p.stopped.captures(message)
        {
            for reason in c[1].split(',') {
                let r = reason.trim().trim_matches(['\'', '"']).trim().to_owned();
                if !r.is_empty() && !f.stop_reasons.contains(&r) {
                    f.stop_reasons.push(r);
                }
            }
        }
        if wanted.has(Wanted::OVERVIEWER)
            && let Some(c) = p.overviewer.captures(message)
        {
            let prefix = &text[..text.len() - message.len()];
            let time = prefix.split('|').next().unwrap_or(prefix).trim().to_owned();
            f.overviewer.push((
                c[1].to_owned(),
                &c[2] == "started",
                time,
                evidence(number, text),
            ));
        }
        if wanted.has(Wanted::NO_PROGRESS)
            && let Some(c) = p.no_progress.captures(message)
            && f.no_progress.is_none()
        {
            f.no_progress = Some((num(&c[1]).unwrap_or(0), evidence(number, text)));
        }
        if wanted.has(Wanted::TIMES)
            && let Some(c) = p.times.captures(message)
        {
            let key = match (&c[1], &c[2]) {
                ("run", "raised exception") => Repeated::RunException,
                ("run", _) => Repeated::RunTimeout,
                ("init", "raised exception") => Repeated::InitException,
                _ => Repeated::InitTimeout,
            };
            f.times
                .entry(key)
                .or_insert((num(&c[3]).unwrap_or(0), evidence(number, text)));
        }
        if wanted.has(Wanted::NO_SUCCEEDED)
            && p.no_succeeded.is_match(message)
            && f.no_succeeded.is_none()
        {
            f.no_succeeded = Some(evidence(number, text));
        }
        if wanted.has(Wanted::BAD_RETURN)
            && p.bad_return.is_match(message)
            && f.bad_return.is_none()
        {
            f.bad_return = Some(evidence(number, text));
        }
        if wanted.has(Wanted::SYSTEM_ERROR)
            && p.system_error.is_match(message)
            && f.system_error.is_none()
        {
            f.system_error = Some(evidence(number, text));
        }
        if wanted.has(Wanted::SLOW_TASKS)
            && let Some(c) = p.slow_tasks.captures(message)
            && f.slow_tasks.is_none()
        {
            f.slow_tasks = Some((num(&c[1]).unwrap_or(0), evidence(number, text)));
        }
    }

    /// The driver's arguments and exit, and what happened to worker processes.
    fn process_messages(&mut self, number: u64, text: &str, message: &str, wanted: Wanted) {
        let p = patterns();
        let f = &mut self.facts;
        // The role decided whether the arguments are read (`FileParser::message_line`).
        if wanted.has(Wanted::ARGS) {
            for c in p
                .arg
                .captures_iter(message)
                .chain(p.dict_arg.captures_iter(message))
            {
                f.args
                    .entry(c[1].to_owned())
                    .or_insert_with(|| c[2].to_owned());
                f.args_line.get_or_insert_with(|| evidence(number, text));
            }
        }
        if wanted.has(Wanted::SYSTEM_EXIT)
            && let Some(c) = p.system_exit.captures(text.trim())
        {
            f.system_exits
                .push((c[1].parse().unwrap_or(0), evidence(number, text)));
        }
        if wanted.has(Wanted::PROCESS_EXIT)
            && let Some(c) = p.process_exit.captures(message)
        {
            f.process_exits.push((
                c[1].to_owned(),
                c[2].parse().unwrap_or(0),
                evidence(number, text),
            ));
        }
        if wanted.has(Wanted::RUN_TIMEOUT)
            && let Some(c) = p.run_timeout.captures(message)
        {
            f.run_timeouts
                .push((num(&c[1]).unwrap_or(0), evidence(number, text)));
        }
    }

    fn user_error(&mut self, number: u64, text: &str) {
        let p = patterns();
        // Headers may carry the `TS|[Name|]LEVEL|PID|` prefix.
        let (ts, body) = match message::shape(text.as_bytes()) {
            Shape::Sys { message } => (text[..23].to_owned(), text[message..].to_owned()),
            _ => (String::new(), text.to_owned()),
        };
        if let Some(c) = p.entry_failed.captures(&body) {
            self.flush_pending();
            self.facts.recognised += 1;
            let header_exception = c.get(2).map_or("", |m| m.as_str()).to_owned();
            let header_message = c.get(3).map_or("", |m| m.as_str()).trim().to_owned();
            // The class is taken from the traceback's last line when it follows; the
            // header is the fallback (2020 headers carry only the message).
            self.pending = Some(Pending {
                phase: Phase::parse(&c[1]),
                exception: header_exception,
                message: header_message,
                line: evidence(number, text),
                ts,
                closed: false,
            });
            return;
        }
        if text.starts_with("Traceback (most recent call last)") || text.starts_with(' ') {
            return;
        }
        if let Some(c) = p.exception_line.captures(text) {
            let class = c[1].rsplit('.').next().unwrap_or(&c[1]).to_owned();
            let message = c[2].trim().to_owned();
            match self.pending.as_mut() {
                // In a chained traceback the last exception line is the one raised; keep
                // updating until the next header (or the end of the file) closes it.
                Some(pending) => {
                    pending.exception = class;
                    pending.message = message;
                    pending.closed = true;
                }
                None => {
                    self.facts.recognised += 1;
                    self.record(Pending {
                        phase: Phase::Unknown,
                        exception: class,
                        message,
                        line: evidence(number, text),
                        ts,
                        closed: true,
                    });
                }
            }
        }
    }

    fn record(&mut self, p: Pending) {
        let key = ErrorKey {
            phase: p.phase,
            exception: p.exception,
            message: p.message,
        };
        let entry = self
            .facts
            .errors
            .entry(key)
            .or_insert((0, p.line.clone(), p.ts.clone()));
        entry.0 += 1;
        // The first occurrence is the earliest by time, not by position.
        if !p.ts.is_empty() && (entry.2.is_empty() || p.ts < entry.2) {
            entry.1 = p.line;
            entry.2 = p.ts;
        }
    }

    fn flush_pending(&mut self) {
        if let Some(p) = self.pending.take() {
            // A header without a traceback: split "Type: message" from the header.
            let mut p = p;
            if let Some((class, rest)) = p
                .message
                .split_once(": ")
                .filter(|_| p.exception.is_empty() && !p.closed)
            {
                p.exception = class.to_owned();
                p.message = rest.to_owned();
            }
            self.record(p);
        }
    }

    fn csv_attempt(&mut self, number: u64, text: &str) {
        if text.trim().is_empty() {
            return;
        }
        let fields = csv_fields(text);
        let Some(header) = learn_header(&mut self.header, &fields, "status") else {
            return;
        };
        let col = |names: &[&str]| -> Option<String> {
            let i = header.iter().position(|h| names.contains(&h.as_str()))?;
            fields
                .get(i)
                .map(|s| s.trim().to_owned())
                .filter(|s| !s.is_empty() && s != "N/A")
        };
        let Some(status) = col(&["status"]) else {
            return;
        };
        // Rows that only mark lifecycle events (legacy ENTRY_SCRIPT_INIT_START) are not attempts.
        let id = col(&["mini-batch id", "task id", "minibatch id"]);
        let Some(id) = id else {
            return;
        };
        self.facts.recognised += 1;
        let process_col = col(&["process", "process name", "agent"]).unwrap_or_default();
        let (node_from_process, process_name) = match process_col.split_once(['/', ':']) {
            Some((n, p)) => (Some(n.to_owned()), p.to_owned()),
            None => (None, process_col.clone()),
        };
        // Legacy per-process task CSVs name the node and process in their path.
        let (role_node, role_process) = match &self.role {
            Role::MiniBatchCsv { node, process } => (node.as_deref(), process.as_deref()),
            _ => (None, None),
        };
        let node = col(&["node id", "node", "ip address", "node ip"])
            .or(node_from_process)
            .or_else(|| role_node.map(str::to_owned))
            .unwrap_or_default();
        let process = if process_name.is_empty() {
            role_process.unwrap_or_default().to_owned()
        } else {
            process_name
        };
        self.facts.attempts.add(Attempt {
            id,
            picked: col(&["picked count", "dequeue count"])
                .and_then(|s| s.parse().ok())
                .unwrap_or(1),
            node,
            process,
            elapsed: col(&["elapsed seconds"]).and_then(|s| float(&s)),
            run_seconds: col(&["run method seconds"]).and_then(|s| float(&s)),
            total: col(&["total"]).and_then(|s| num(&s)),
            succeeded: col(&["succeeded"]).and_then(|s| num(&s)),
            failed: col(&["failed"]).and_then(|s| num(&s)),
            status,
            category: col(&["error category"]).unwrap_or_default(),
            message: col(&["error message", "error"]).unwrap_or_default(),
            detail: col(&["mini-batch detail", "minibatch detail"]).unwrap_or_default(),
            line: number,
        });
    }
}

/// The CSV header once known; until then, takes `fields` as the header when a column
/// name contains `marker` (lines before the header are skipped).
fn learn_header<'h>(
    slot: &'h mut Option<Vec<String>>,
    fields: &[String],
    marker: &str,
) -> Option<&'h Vec<String>> {
    if slot.is_none() {
        let h: Vec<String> = fields
            .iter()
            .map(|s| s.trim().to_ascii_lowercase())
            .collect();
        if h.iter().any(|c| c.contains(marker)) {
            *slot = Some(h);
        }
        return None;
    }
    slot.as_ref()
}

impl LineObserver for FileParser {
    type Output = FileFacts;

    fn line(&mut self, number: u64, text: &[u8]) {
        FileParser::line(self, number, text);
    }

    fn finish(self) -> FileFacts {
        FileParser::finish(self)
    }
}

/// The placement of every input for the scan: files of a tree with a known role are
/// PRS documents, and those the parser reads get a [`FileParser`].
#[derive(Debug)]
pub struct PrsObservers<'a>(pub &'a [Option<Role>]);

impl Observers for PrsObservers<'_> {
    type Observer = FileParser;

    fn place(&self, index: usize) -> Placement<FileParser> {
        let role = self.0.get(index).cloned().flatten();
        Placement {
            // Anything else in the tree (a container log someone copied in) is
            // detected by content.
            kind: role
                .as_ref()
                .filter(|r| **r != Role::Other)
                .map(|_| (DocumentKind::Prs, KindSource::PrsTree)),
            observer: role.filter(Role::parsed).map(FileParser::new),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::observe::Tap;
    use std::io::Read;

    fn parse(role: Role, text: &str) -> FileFacts {
        let mut p = FileParser::new(role);
        let mut tap = Tap::new(text.as_bytes(), &mut p);
        let mut sink = Vec::new();
        tap.read_to_end(&mut sink).unwrap();
        p.finish()
    }

    #[test]
    fn each_pattern_is_dispatched_by_a_literal_of_its_lines() {
        let p = patterns();
        let cases: [(&Regex, Wanted, &str); 18] = [
            (
                &p.scheduled,
                Wanted::SCHEDULED,
                "Scheduling finished. Scheduled 276 mini batches in 22 seconds.",
            ),
            (
                &p.progress,
                Wanted::PROGRESS,
                "Processed 31 of 40 mini batches in 0:20:48.",
            ),
            (
                &p.all_processed,
                Wanted::ALL_PROCESSED,
                "All 40 mini batches have been processed.",
            ),
            (
                &p.final_counts,
                Wanted::FINAL_COUNTS,
                "There are 4 mini batches with 4 items. Processed 4 mini batches containing 4 items, 4 succeeded, 0 failed. The error threshold is 1.",
            ),
            (
                &p.threshold,
                Wanted::THRESHOLD,
                "The number of failed items is 12, which exceeds error threshold 10.",
            ),
            (
                &p.stopped,
                Wanted::STOPPED,
                "Progress update stopped for reasons: [Exceeded error threshold.]",
            ),
            (
                &p.no_progress,
                Wanted::NO_PROGRESS,
                "No progress update in 3600 seconds.",
            ),
            (
                &p.times,
                Wanted::TIMES,
                "The run() in the entry scipt had raised exception for 3 times.",
            ),
            (
                &p.no_succeeded,
                Wanted::NO_SUCCEEDED,
                "There is no succeeded mini batch item returned from run().",
            ),
            (
                &p.bad_return,
                Wanted::BAD_RETURN,
                "The run() method in the entry script should return a list or a pandas DataFrame.",
            ),
            (
                &p.system_error,
                Wanted::SYSTEM_ERROR,
                "The master role failed with error: boom",
            ),
            (
                &p.slow_tasks,
                Wanted::SLOW_TASKS,
                "First task creation is taking longer than 600 seconds.",
            ),
            (
                &p.process_exit,
                Wanted::PROCESS_EXIT,
                "process001 exits with returncode -9.",
            ),
            (
                &p.run_timeout,
                Wanted::RUN_TIMEOUT,
                "mini batch 7 did not finish in 60 seconds",
            ),
            (
                &p.arg,
                Wanted::ARGS,
                "Script args: ['driver/amlbi_main.py', '--node_count', '2']",
            ),
            (
                &p.dict_arg,
                Wanted::ARGS,
                "Namespace(error_threshold=5, mini_batch_size='10')",
            ),
            (&p.system_exit, Wanted::SYSTEM_EXIT, "SystemExit: 42"),
            (
                &p.overviewer,
                Wanted::OVERVIEWER,
                "The overviewer on 7 stopped.",
            ),
        ];
        for (regex, bit, message) in cases {
            assert!(regex.is_match(message), "{message}");
            let found =
                message::wanted(message.as_bytes()) | message::wanted_args(message.as_bytes());
            assert!(found.has(bit), "{message}");
        }
        let busy = "10.0.0.4|process000|1390|heartbeat.py:beat:41|Heartbeat: process000 alive, pid=1000, memory_rss=900MB";
        assert!(!message::wanted(busy.as_bytes()).any());
        let done = "Mini batch 7 processed in 3.10 seconds, 8 items succeeded, 0 failed.";
        assert!(!message::wanted(done.as_bytes()).any());
    }

    #[test]
    fn only_dispatched_lines_are_cleaned_and_their_secrets_stay_out() {
        let f = parse(
            Role::Master,
            "2024-03-05T14:54:18.041 Uploading to https://acct.blob.core.windows.net/c/x?sv=2021&sig=SECRETSIG\n2024-03-05T14:54:19.000 The master role failed with error: https://acct.blob.core.windows.net/c?sig=SECRETSIG2\n",
        );
        let shown: Vec<&str> = f
            .last_lines
            .iter()
            .map(|l| l.text.as_str())
            .chain(f.system_error.iter().map(|l| l.text.as_str()))
            .collect();
        assert_eq!(shown.len(), 3, "{shown:?}");
        for text in shown {
            assert!(!text.contains("SECRETSIG"), "{text}");
        }
    }

    #[test]
    fn overview_lines() {
        let f = parse(
            Role::Overview { key: String::new() },
            "2023-05-16T22:00:01.226929 Start the simulator.\n2023-05-16T22:00:05.767763 Scheduling finished. Scheduled 40 mini batches in 3 seconds. There are 40 tasks with 40 items.\n2023-05-16T22:20:53.233813 Processed 31 of 40 mini batches in 0:20:48. Estimated remaining time 0:06:10.\n2023-05-16T22:22:08.962071 The number of failed items is 12, which exceeds error threshold 10.\n2023-05-16T22:22:09.000000 Progress update stopped for reasons: [Exceeded error threshold.]\n",
        );
        assert_eq!(f.scheduled, Some((40, Some(40), Some(40))));
        assert_eq!(
            f.progress.as_ref().map(|p| (p.0, p.1, p.2.as_str())),
            Some((31, 40, "0:20:48"))
        );
        assert_eq!(
            f.threshold_exceeded.as_ref().map(|t| (t.0, t.1, t.2.line)),
            Some((12, 10, 4))
        );
        assert_eq!(f.stop_reasons, ["Exceeded error threshold."]);
        assert_eq!(f.first_time.as_deref(), Some("2023-05-16T22:00:01.226929"));
        assert_eq!(f.recognised, 6);
    }

    #[test]
    fn sys_lines_current_and_legacy() {
        let f = parse(
            Role::NodeMain { node: "1".into() },
            "2021-04-15 22:05:26,715|ERROR|255|139773019682560|stderr: terminate called without an active exception\n2021-04-15 22:06:00,000|INFO|255|process001 exits with returncode -9.\n2020-09-17 09:43:39,318|ParallelRunStep.TaskManager|ERROR|230|Failed to process\n",
        );
        assert_eq!(f.recognised, 3);
        assert_eq!(
            f.process_exits
                .iter()
                .map(|(p, c, _)| (p.as_str(), *c))
                .collect::<Vec<_>>(),
            [("process001", -9)]
        );
    }

    #[test]
    fn driver_arguments_and_exit() {
        let f = parse(
            Role::DriverLog,
            "Script args: ['driver/amlbi_main.py', '--process_count_per_node', '2', '--run_invocation_timeout', '60', '--error_threshold', '-1']\n  File \"driver/amlbi_main.py\", line 226, in main\n    sys.exit(exitcode_candidate)\nSystemExit: 42\n",
        );
        assert_eq!(f.system_exits.iter().map(|e| e.0).collect::<Vec<_>>(), [42]);
        let f = parse(
            Role::DriverLog,
            "argv --process_count_per_node 2 --run_invocation_timeout=60 --error_threshold -1 --node_count 3\n",
        );
        assert_eq!(
            f.args.get("process_count_per_node").map(String::as_str),
            Some("2")
        );
        assert_eq!(
            f.args.get("run_invocation_timeout").map(String::as_str),
            Some("60")
        );
        assert_eq!(
            f.args.get("error_threshold").map(String::as_str),
            Some("-1")
        );
        assert_eq!(f.args.get("node_count").map(String::as_str), Some("3"));
    }

    #[test]
    fn csv_attempts_with_quotes_and_garbage() {
        let text = "Mini-batch Id,Picked Count,Process,Start Time,Total,Succeeded,Failed,Elapsed Seconds,Process Seconds,Run Method Seconds,Status,Error Category,Error Message,Mini-batch Detail\n\
                    7,2,1/process001,2023-05-16T22:01:00.1,1,0,1,3.5,3.1,3.0,RUN_EXCEPTION,User,\"ValueError: could not convert, string\",a.csv\n\
                    garbled line\n\
                    8,1,0/process000,2023-05-16T22:01:02.1,1,1,0,2.0,1.9,1.8,RUN_DONE,,,b.csv\n";
        let f = parse(
            Role::MiniBatchCsv {
                node: None,
                process: None,
            },
            text,
        );
        assert_eq!(f.attempts.rows, 2);
        let a = &f.attempts.failing["7"];
        assert_eq!(
            (a.id.as_str(), a.picked, a.node.as_str(), a.process.as_str()),
            ("7", 2, "1", "process001")
        );
        assert_eq!(a.message, "ValueError: could not convert, string");
        assert_eq!(a.line, 2);
        assert!(f.attempts.finals["7"].failure);
        assert!(!f.attempts.finals["8"].failure);
        let p = &f.attempts.per_process[&("1".to_string(), "process001".to_string())];
        assert_eq!((p.attempts, p.failures, p.retries), (1, 1, 1));
    }

    #[test]
    fn user_errors_group_and_truncated_or_empty_files() {
        let text = "Entry script run() failed for ValueError: could not convert string to float: 'N/A'. Details Traceback (most recent call last):\n  File \"score.py\", line 9, in run\nValueError: could not convert string to float: 'N/A'\nEntry script run() failed for ValueError: could not convert string to float: 'N/A'. Details Traceback\nValueError: could not convert string to float: 'N/A'\n2023-05-16 22:56:23,297|ERROR|409|Entry script run() failed for RuntimeError: scoring failed. Details Traceback (most recent call last):\nKeyError: 'id'\n\nDuring handling of the above exception, another exception occurred:\n\nTraceback (most recent call last):\nRuntimeError: scoring failed\n";
        let f = parse(
            Role::UserError {
                node: "0".into(),
                process: "process000".into(),
            },
            text,
        );
        let groups: Vec<(String, u64)> = f
            .errors
            .iter()
            .map(|(k, v)| (format!("{}: {}", k.exception, k.message), v.0))
            .collect();
        assert_eq!(
            groups,
            [
                ("RuntimeError: scoring failed".to_string(), 1),
                (
                    "ValueError: could not convert string to float: 'N/A'".to_string(),
                    2
                )
            ],
            "a chained traceback counts once, as the exception finally raised"
        );
        let empty = parse(Role::JobResult, "");
        assert_eq!((empty.lines, empty.recognised), (0, 0));
        let truncated = parse(
            Role::MiniBatchCsv {
                node: None,
                process: None,
            },
            "Mini-batch Id,Status\n3,RUN_DO",
        );
        assert_eq!(
            truncated.attempts.rows, 1,
            "a cut-off last row still counts"
        );
        let garbled = parse(
            Role::NodePerf { node: "0".into() },
            "\u{0}\u{1}binary junk\nmore junk",
        );
        assert_eq!(garbled.recognised, 0);
    }

    #[test]
    fn samples_stay_exact_when_small_and_bounded_when_large() {
        let mut s = Sample::default();
        for v in 1..=20 {
            s.add(f64::from(v));
        }
        assert_eq!(s.percentile(0.95), Some(19.0));
        assert_eq!(s.mean(), Some(10.5));
        let mut big = Sample::default();
        for v in 0..100_000 {
            big.add(1.0 + f64::from(v % 100));
        }
        assert!(big.values.is_empty() && big.hist.len() < 200, "bounded");
        let p = big.percentile(0.95).unwrap();
        assert!((90.0..=112.0).contains(&p), "{p}");
        let mut merged = Sample::default();
        merged.merge(&s);
        merged.merge(&big);
        assert_eq!(merged.count, 100_020);
    }

    #[test]
    fn perf_peaks() {
        let f = parse(
            Role::NodePerf { node: "1".into() },
            "Utc Time,Cpu Percent,Memory Total (MB),Memory Available (MB),Memory Used (MB),Memory Used Percent\n2023-05-16 22:00:00,50.0,16000,8000,8000,50.0\n2023-05-16 22:10:00,99.5,16000,500,15500,96.9\n2023-05-16 22:20:00,20.0,16000,12000,4000,25.0\n",
        );
        assert_eq!(
            f.perf.peak_memory,
            Some((96.9, "2023-05-16 22:10:00".to_owned(), 3))
        );
        assert_eq!(f.perf.peak_cpu, Some(99.5));
    }
}
