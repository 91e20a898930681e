//! The resource monitor's readings per node, for the summary and for the findings that
//! explain a killed worker or a full disk: the largest process, the fullest disk, and
//! whether the tree holds perf data at all.

use super::perf::{DiskUse, ProcessMemory};
use super::summary::{ParsedFile, PerfData, PrsSummary};
use super::time::time_key;
use super::tree::Role;

/// Disk use at or above this is reported as a full disk.
pub(super) const DISK_FULL_PERCENT: f64 = 95.0;

/// The node a perf file is about.
pub(super) fn perf_node(role: &Role) -> Option<&str> {
    match role {
        Role::NodePerf { node }
        | Role::ProcessPerf { node }
        | Role::DiskPerf { node }
        | Role::ProcessSnapshot { node, .. } => Some(node),
        _ => None,
    }
}

/// The per-process readings of one node (CSV and snapshots) with their files.
pub(super) fn process_readings<'a>(
    files: &'a [ParsedFile],
    node: &'a str,
) -> impl Iterator<Item = (&'a ParsedFile, &'a ProcessMemory)> + 'a {
    files
        .iter()
        .filter(move |f| {
            matches!(&f.role, Role::ProcessPerf { node: n } | Role::ProcessSnapshot { node: n, .. } if n == node)
        })
        .flat_map(|f| f.facts.perf.top_memory.iter().map(move |p| (f, p)))
}

/// The reading that best explains a kill at `killed_at` (a log line's timestamp): the
/// node's largest process at the last sample at or before it, else its largest ever.
pub(super) fn before_kill<'a>(
    files: &'a [ParsedFile],
    node: &'a str,
    killed_at: Option<String>,
) -> Option<(&'a ParsedFile, &'a ProcessMemory)> {
    let readings: Vec<_> = process_readings(files, node).collect();
    let keyed = killed_at.and_then(|kill| {
        readings
            .iter()
            .filter_map(|r| Some((time_key(&r.1.time)?, *r)))
            .filter(|(k, _)| *k <= kill)
            .max_by(|a, b| a.0.cmp(&b.0).then(larger(a.1.1, b.1.1)))
            .map(|(_, r)| r)
    });
    keyed.or_else(|| readings.iter().copied().max_by(|a, b| larger(a.1, b.1)))
}

fn larger(a: &ProcessMemory, b: &ProcessMemory) -> std::cmp::Ordering {
    let w = |p: &ProcessMemory| p.mb.or(p.percent).unwrap_or(0.0);
    w(a).total_cmp(&w(b))
}

/// The fullest disk reading of a node, with its file.
pub(super) fn fullest_disk<'a>(
    files: &'a [ParsedFile],
    node: &str,
) -> Option<(&'a ParsedFile, &'a DiskUse)> {
    files
        .iter()
        .filter(|f| matches!(&f.role, Role::DiskPerf { node: n } if n == node))
        .filter_map(|f| f.facts.perf.fullest_disk.as_ref().map(|d| (f, d)))
        .max_by(|a, b| a.1.percent.total_cmp(&b.1.percent))
}

/// Fills the nodes' resource columns and says whether the tree has perf data.
pub(super) fn summarise(s: &mut PrsSummary, files: &[ParsedFile]) {
    for n in &mut s.nodes {
        n.largest_process = process_readings(files, &n.node)
            .max_by(|a, b| larger(a.1, b.1))
            .map(|(_, p)| p.describe());
        if let Some((_, d)) = fullest_disk(files, &n.node) {
            n.peak_disk_percent = Some((d.percent * 100.0).round() / 100.0);
            n.fullest_disk = Some(d.describe());
        }
    }
    let any = files.iter().any(|f| perf_node(&f.role).is_some());
    let off = s
        .config
        .resource_monitor_interval
        .as_ref()
        .is_some_and(|c| c.value == 0);
    s.perf_data = match (any, off) {
        (true, _) => PerfData::Present,
        (false, true) => PerfData::MonitorOff,
        (false, false) => PerfData::Missing,
    };
}
