//! The processed mini-batches CSV (`sys/job_report/processed_mini-batches.csv`, legacy
//! `processed_tasks.csv` and per-process `Process-N.task.csv`): one row per attempt at a
//! mini-batch, read into [`Attempt`]s and aggregated as they stream by into an
//! [`AttemptAgg`], so a job of millions of rows is held as one small entry per
//! mini-batch.

use std::collections::BTreeMap;

use super::csv::{csv_fields, learn_header};
use super::line::{float, num};
use super::run_times::RunTimes;
use super::tree::Role;

/// One attempt at one mini-batch, from the processed mini-batches CSV.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Attempt {
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
    pub(crate) fn is_failure(&self) -> bool {
        let s = self.status.to_ascii_uppercase();
        s.contains("EXCEPTION") || s.contains("TIMEOUT") || s.contains("FAIL") || s.contains("KILL")
    }
}

/// Attempts of one worker process.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct ProcessAgg {
    pub attempts: u64,
    pub failures: u64,
    pub retries: u64,
    pub times: RunTimes,
}

/// The last attempt seen for one mini-batch.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct FinalState {
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
pub(crate) struct AttemptAgg {
    pub rows: u64,
    pub finals: std::collections::HashMap<String, FinalState>,
    pub per_process: BTreeMap<(String, String), ProcessAgg>,
    pub all_times: RunTimes,
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

pub(super) const KEEP: usize = 5;
pub(super) const KEEP_FAILING: usize = 10_000;

impl AttemptAgg {
    pub(crate) fn add(&mut self, a: Attempt) {
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

    pub(crate) fn merge(&mut self, other: AttemptAgg) {
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

/// Reads the rows of one mini-batch CSV, learning its header first.
#[derive(Debug, Default)]
pub(super) struct MiniBatchRows {
    header: Option<Vec<String>>,
}

impl MiniBatchRows {
    /// Adds the attempt on one (cleaned) line to `agg`; true when the line was one.
    pub(super) fn line(
        &mut self,
        agg: &mut AttemptAgg,
        role: &Role,
        number: u64,
        text: &str,
    ) -> bool {
        if text.trim().is_empty() {
            return false;
        }
        let fields = csv_fields(text);
        let Some(header) = learn_header(&mut self.header, &fields, "status") else {
            return false;
        };
        let col = |names: &[&str]| -> Option<String> {
            let i = header.iter().position(|h| names.contains(&h.as_str()))?;
            fields
                .get(i)
                .map(|s| s.trim().to_owned())
                .filter(|s| !s.is_empty() && s != "N/A")
        };
        let Some(status) = col(&["status"]) else {
            return false;
        };
        // Rows that only mark lifecycle events (legacy ENTRY_SCRIPT_INIT_START) are not attempts.
        let id = col(&["mini-batch id", "task id", "minibatch id"]);
        let Some(id) = id else {
            return false;
        };
        let process_col = col(&["process", "process name", "agent"]).unwrap_or_default();
        let (node_from_process, process_name) = match process_col.split_once(['/', ':']) {
            Some((n, p)) => (Some(n.to_owned()), p.to_owned()),
            None => (None, process_col.clone()),
        };
        // Legacy per-process task CSVs name the node and process in their path.
        let (role_node, role_process) = match role {
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
        agg.add(Attempt {
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
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prs::parse::read;

    #[test]
    fn csv_attempts_with_quotes_and_garbage() {
        let text = "Mini-batch Id,Picked Count,Process,Start Time,Total,Succeeded,Failed,Elapsed Seconds,Process Seconds,Run Method Seconds,Status,Error Category,Error Message,Mini-batch Detail\n\
                    7,2,1/process001,2023-05-16T22:01:00.1,1,0,1,3.5,3.1,3.0,RUN_EXCEPTION,User,\"ValueError: could not convert, string\",a.csv\n\
                    garbled line\n\
                    8,1,0/process000,2023-05-16T22:01:02.1,1,1,0,2.0,1.9,1.8,RUN_DONE,,,b.csv\n";
        let f = read(
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
}
