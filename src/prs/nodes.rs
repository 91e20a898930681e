//! Nodes lost while the job ran, and the nodes that replaced them. A node failure does
//! not fail a ParallelRunStep job: the cluster starts another node and the lost node's
//! mini-batches are picked again. No log line says so; it shows as a node whose logs
//! stop while the other nodes go on, a node whose logs start after that, mini-batches
//! picked again without a recorded first attempt, and an overviewer that stopped on one
//! node (and started on another).

use std::collections::BTreeMap;

use super::mini_batches::AttemptAgg;
use super::summary::{JobOutcome, LostNode, NodeChanges, ParsedFile, PrsSummary};
use super::time::{hms, seconds_between};
use super::tree::Role;
use crate::finding::Evidence;

/// A node silent this long (or three `run_invocation_timeout`s, when longer) while
/// another node still writes is taken as lost. Busy workers write a line per
/// mini-batch, no `run()` outlasts its timeout, and at the end every node logs its
/// shutdown, so a live node is not silent that long while others work.
pub(super) const LOST_AFTER_SECONDS: i64 = 300;

/// A time and where it was written.
#[derive(Debug, Clone)]
struct Seen {
    time: String,
    path: String,
    line: u64,
}

/// The first and last line of each node's logs.
fn spans(files: &[ParsedFile]) -> BTreeMap<String, (Seen, Seen)> {
    let mut out: BTreeMap<String, (Seen, Seen)> = BTreeMap::new();
    for f in files {
        let (Role::NodeMain { node } | Role::Process { node, .. }) = &f.role else {
            continue;
        };
        let (Some((ft, fl)), Some((lt, ll))) = (&f.facts.first_sys, &f.facts.last_sys) else {
            continue;
        };
        let seen = |time: &str, line: u64| Seen {
            time: time.to_owned(),
            path: f.path.clone(),
            line,
        };
        let e = out
            .entry(node.clone())
            .or_insert_with(|| (seen(ft, *fl), seen(lt, *ll)));
        if ft < &e.0.time {
            e.0 = seen(ft, *fl);
        }
        if lt > &e.1.time {
            e.1 = seen(lt, *ll);
        }
    }
    out
}

/// The overviewer's starts and stops worth reporting, with their lines: a stop that is
/// followed by more of the job (a later start elsewhere or later overview lines), or
/// one that ends the progress files of a job that never reported its end.
fn overviewer(files: &[ParsedFile], ended: bool) -> (Vec<String>, Vec<Evidence>) {
    let mut events: Vec<(&str, bool, &str, &str, u64)> = Vec::new();
    let mut overview_end: Option<&str> = None;
    for f in files
        .iter()
        .filter(|f| matches!(f.role, Role::Overview { .. }))
    {
        for (node, started, time, line) in &f.facts.overviewer {
            events.push((node, *started, time, &f.path, line.line));
        }
        if let Some(t) = &f.facts.last_time
            && overview_end.is_none_or(|e| t.as_str() > e)
        {
            overview_end = Some(t);
        }
    }
    events.sort_by(|a, b| a.2.cmp(b.2));
    let mut shown = Vec::new();
    let mut evidence = Vec::new();
    for (i, (node, started, time, path, line)) in events.iter().enumerate() {
        if *started {
            continue;
        }
        let later_start = events[i + 1..].iter().find(|e| e.1);
        let job_went_on = overview_end
            .and_then(|end| seconds_between(time, end))
            .is_some_and(|s| s > 60);
        let last_word = later_start.is_none() && !job_went_on;
        if last_word && ended {
            continue;
        }
        let then = match later_start {
            Some((n, _, t, _, _)) => format!(", started on {n} at {t}"),
            None if last_word => {
                ", and the progress files end there without the job's result (it may have run on)"
                    .to_owned()
            }
            None => String::new(),
        };
        let text = format!("stopped on {node} at {time}{then}");
        shown.push(text);
        evidence.push(Evidence::at_line(
            (*path).to_owned(),
            *line,
            format!("the overviewer stopped on {node} before the job ended"),
        ));
    }
    (shown, evidence)
}

/// The nodes lost and replaced, for the summary, and the lines that show it.
pub(super) fn node_changes(
    s: &mut PrsSummary,
    files: &[ParsedFile],
    agg: &AttemptAgg,
) -> Vec<Evidence> {
    let spans = spans(files);
    let mut changes = NodeChanges {
        nodes_seen: spans.len() as u64,
        picked_again_without_record: agg.finals.values().filter(|f| f.min_picked > 1).count()
            as u64,
        ..NodeChanges::default()
    };
    let limit = s
        .config
        .run_invocation_timeout
        .as_ref()
        .map_or(LOST_AFTER_SECONDS, |t| {
            LOST_AFTER_SECONDS.max(t.value.saturating_mul(3))
        });
    let mut evidence = Vec::new();
    for (node, (_, last)) in &spans {
        let Some(others_last) = spans
            .iter()
            .filter(|(n, _)| *n != node)
            .map(|(_, (_, l))| &l.time)
            .max()
        else {
            continue;
        };
        let Some(gap) = seconds_between(&last.time, others_last) else {
            continue;
        };
        if gap < limit {
            continue;
        }
        changes.lost.push(LostNode {
            node: node.clone(),
            last_seen: last.time.clone(),
            silent_for: hms(gap),
            moved_away: agg.moved_from.get(node).copied().unwrap_or(0),
        });
        evidence.push(Evidence::at_line(
            last.path.clone(),
            last.line,
            format!(
                "the last line node {node} wrote, {} before the other nodes stopped",
                hms(gap)
            ),
        ));
    }
    changes.replacements = spans
        .iter()
        .filter(|(_, (first, _))| changes.lost.iter().any(|l| l.last_seen < first.time))
        .map(|(n, _)| n.clone())
        .collect();
    let (shown, more) = overviewer(files, s.outcome != JobOutcome::Unknown);
    changes.overviewer = shown;
    evidence.extend(more);
    s.node_changes = changes;
    evidence
}
