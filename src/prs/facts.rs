//! What one file of a tree says, as its readers leave it for the summary: a type of its
//! own so each reader (text logs, mini-batch rows, user errors, the resource monitor)
//! writes its part without the file parser and the readers importing each other.

use std::collections::BTreeMap;

use super::line::Line;
use super::mini_batches::AttemptAgg;
use super::perf::PerfFacts;
use super::user_errors::ErrorGroups;

/// What the job's messages count: "The run() in the entry script had raised exception
/// for N times" and its siblings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Repeated {
    RunException,
    RunTimeout,
    InitException,
    InitTimeout,
}

/// The overview's final sentence when every mini-batch was processed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct FinalCounts {
    pub mini_batches: u64,
    pub items: u64,
    pub processed: u64,
    pub succeeded: u64,
    pub failed: u64,
    pub threshold: Option<i64>,
}

/// Everything one file says.
#[derive(Debug, Clone, Default)]
pub(crate) struct FileFacts {
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
    pub errors: ErrorGroups,
    pub attempts: AttemptAgg,
    /// What a `perf/<node>/` file showed.
    pub perf: PerfFacts,
    pub last_lines: Vec<Line>,
}
