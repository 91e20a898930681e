//! What a Log Analytics query read, as plain data: the candidate lines per endpoint,
//! deployment, instance and container, the traffic log's counts, and (once the rules
//! ran) each finding's lines per hour. The source fills it, the analysis counts, the
//! report prints it.

use std::collections::BTreeMap;

use serde::Serialize;

/// The most rows one query returns (the query API's own limit is 500,000).
pub(crate) const MAX_ROWS: u64 = 500_000;

/// The lines read for one endpoint, deployment, instance and container.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct LogGroup {
    pub endpoint: String,
    pub deployment: String,
    pub instance: String,
    pub container: String,
    /// Candidate lines the query returned.
    pub lines: u64,
    pub first: String,
    pub last: String,
    /// Lines per hour (`2024-05-01T10`), in time order.
    pub per_hour: Vec<HourCount>,
    /// The file of the bundle the lines were written to (findings point there).
    pub path: String,
}

/// One finding on one endpoint, deployment and instance, by hour.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct FindingHours {
    pub rule_id: String,
    pub endpoint: String,
    pub deployment: String,
    pub instance: String,
    pub per_hour: Vec<HourCount>,
}

/// Requests one deployment answered with one status in one hour.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct TrafficCount {
    /// `2024-05-01T10`.
    pub hour: String,
    pub deployment: String,
    pub status: String,
    pub requests: u64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct HourCount {
    pub hour: String,
    pub lines: u64,
}

/// What the query read.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct LogAnalyticsSummary {
    pub workspace_id: String,
    /// The time span read (ISO 8601, `PT24H`).
    pub timespan: String,
    pub rows: u64,
    pub query_seconds: f64,
    /// The rules' literals pushed down (`has_any` terms and `contains` strings).
    pub literals: u64,
    pub groups: Vec<LogGroup>,
    /// Requests per hour, deployment and status, from the traffic log.
    pub traffic: Vec<TrafficCount>,
    /// Each finding's matching lines per hour, for each endpoint, deployment and
    /// instance it was found on.
    pub findings: Vec<FindingHours>,
    /// The answer is incomplete: what the service or the row limit cut.
    pub notes: Vec<String>,
}

/// The lines of each file written, with their times, by the file's path.
pub(crate) type Lines = BTreeMap<String, Vec<(String, String)>>;

/// What a Log Analytics query read: the summary for the report, and the lines of each
/// file written to the bundle, with their times, for counting findings per hour.
#[derive(Debug)]
pub(crate) struct LogAnalyticsRead {
    pub summary: LogAnalyticsSummary,
    pub lines: Lines,
}
