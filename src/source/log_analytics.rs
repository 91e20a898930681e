//! Log Analytics as a source: the query the analysis built runs in the workspace, and
//! the candidate lines it returns are written as a bundle (one file per endpoint,
//! deployment, instance and container) that `diagnose` then reads like any other, with
//! the traffic log's status counts per hour beside them.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::Value;

use crate::error::Result;
use crate::evidence::log_analytics::{
    HourCount, Lines, LogAnalyticsRead, LogAnalyticsSummary, LogGroup, MAX_ROWS, TrafficCount,
};
use crate::source::azure::Azure;
use crate::source::bundle::{BundleSource, BundleWriter};

/// The queries to run, as the analysis built them.
#[derive(Debug, Clone)]
pub(crate) struct Request {
    /// The Log Analytics workspace id (a GUID).
    pub workspace_id: String,
    /// The candidate lines of the online endpoints' console and event logs.
    pub lines: String,
    /// Requests per hour, deployment and status from the traffic log.
    pub traffic: String,
    /// The look-back, ISO 8601 (`PT1440M`).
    pub timespan: String,
    /// How many of the rules' literals the filter holds.
    pub literals: u64,
}

/// Runs `request` and writes what it read as a bundle in `dir`. Anything the user
/// should know (a cut answer, no traffic counts) is in the summary's notes.
pub(crate) fn read(
    azure: &mut Azure,
    request: &Request,
    dir: &std::path::Path,
) -> Result<LogAnalyticsRead> {
    let id = &request.workspace_id;
    let what = format!("querying Log Analytics workspace {id}");
    let answer = azure.log_analytics_query(id, &request.lines, &request.timespan, &what);
    // The traffic log holds no text for the rules; its status counts per hour say what
    // callers got. A workspace that does not receive it is not an error.
    let traffic = answer.as_ref().ok().map(|_| {
        azure.log_analytics_query(
            id,
            &request.traffic,
            &request.timespan,
            &format!("querying the traffic log of Log Analytics workspace {id}"),
        )
    });
    let answer = answer?;
    let (traffic, traffic_note) = match traffic {
        Some(Ok(t)) => (traffic_counts(&t.rows), None),
        Some(Err(e)) => (
            Vec::new(),
            Some(format!("no traffic counts: {}", e.message)),
        ),
        None => (Vec::new(), None),
    };
    let rows = answer.rows.len() as u64;
    let mut notes = Vec::new();
    if rows >= MAX_ROWS {
        notes.push(format!(
            "the query returned {rows} rows, its limit: these are the newest; narrow it with -e, -n or --since to see the rest"
        ));
    }
    if let Some(p) = &answer.partial {
        notes.push(format!(
            "Log Analytics returned part of the answer only: {p}"
        ));
    }
    notes.extend(traffic_note);
    let (groups, lines) = write_bundle(dir, &answer.rows, id)?;
    let summary = LogAnalyticsSummary {
        workspace_id: id.clone(),
        timespan: request.timespan.clone(),
        rows,
        query_seconds: (answer.elapsed.as_secs_f64() * 10.0).round() / 10.0,
        literals: request.literals,
        groups,
        traffic,
        findings: Vec::new(),
        notes,
    };
    Ok(LogAnalyticsRead { summary, lines })
}

fn traffic_counts(rows: &[Value]) -> Vec<TrafficCount> {
    rows.iter()
        .map(|r| TrafficCount {
            hour: field(r, "Hour").chars().take(13).collect(),
            deployment: field(r, "DeploymentName").to_owned(),
            status: match &r["ResponseCode"] {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            },
            requests: r["Requests"].as_u64().unwrap_or(0),
        })
        .collect()
}

/// A path segment from a name the service returned: letters, digits, `-` and `_` as
/// they are, every other byte as `%XX`, so two names never share a file and none climbs
/// out of the bundle.
fn segment(text: &str) -> String {
    if text.is_empty() {
        return "%00".to_owned();
    }
    let mut out = String::new();
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_') {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// `(workspace, endpoint)` of an endpoint's resource id, lower case.
fn names_of(resource_id: &str) -> (String, String) {
    let lower = resource_id.to_ascii_lowercase();
    let id = crate::evidence::resource_id::ResourceId::new(&lower);
    let value = |segment: &str| id.value_of(segment).unwrap_or_default().to_owned();
    (value("workspaces"), value("onlineendpoints"))
}

fn field<'v>(row: &'v Value, name: &str) -> &'v str {
    row[name].as_str().unwrap_or_default()
}

/// Writes the rows as one file per endpoint, deployment, instance and container.
fn write_bundle(
    dir: &std::path::Path,
    rows: &[Value],
    workspace_id: &str,
) -> Result<(Vec<LogGroup>, Lines)> {
    // By the whole resource id: two workspaces' endpoints of one name stay apart.
    type Key = (String, String, String, String, String);
    let mut groups: BTreeMap<Key, Vec<&Value>> = BTreeMap::new();
    for r in rows {
        let (workspace, endpoint) = names_of(field(r, "ResourceId"));
        let key = (
            workspace,
            endpoint,
            field(r, "DeploymentName").to_owned(),
            field(r, "InstanceId").to_owned(),
            field(r, "ContainerName").to_owned(),
        );
        groups.entry(key).or_default().push(r);
    }
    let source = BundleSource {
        workspace: Some(format!("Log Analytics {workspace_id}")),
        ..BundleSource::default()
    };
    let mut bundle = BundleWriter::create(dir, source, super::collect::created())?;
    let mut out = Vec::new();
    let mut kept = Lines::new();
    for ((workspace, endpoint, deployment, instance, container), lines) in groups {
        let relative = format!(
            "log-analytics/{}/{}/{}/{}/{}.log",
            segment(&workspace),
            segment(&endpoint),
            segment(&deployment),
            segment(&instance),
            segment(&container)
        );
        let mut text = String::new();
        let mut per_hour: BTreeMap<String, u64> = BTreeMap::new();
        for l in &lines {
            text.push_str(field(l, "Message").trim_end_matches(['\r', '\n']));
            text.push('\n');
            let t = field(l, "TimeGenerated");
            *per_hour.entry(t.chars().take(13).collect()).or_default() += 1;
        }
        let what = format!("{container} log of {endpoint}/{deployment} instance {instance}");
        bundle.write_text(&relative, &what, &text)?;
        let path = dir.join(&relative).display().to_string();
        kept.insert(
            path.clone(),
            lines
                .iter()
                .map(|l| {
                    (
                        field(l, "TimeGenerated").to_owned(),
                        field(l, "Message").to_owned(),
                    )
                })
                .collect(),
        );
        out.push(LogGroup {
            first: field(lines[0], "TimeGenerated").to_owned(),
            last: field(lines[lines.len() - 1], "TimeGenerated").to_owned(),
            lines: lines.len() as u64,
            per_hour: per_hour
                .into_iter()
                .map(|(hour, lines)| HourCount { hour, lines })
                .collect(),
            path,
            endpoint,
            deployment,
            instance,
            container,
        });
    }
    bundle.finish()?;
    Ok((out, kept))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workspace_ids_and_segments() {
        assert_eq!(segment("blue/../x"), "blue%2F%2E%2E%2Fx");
        assert_eq!(segment("a_b"), "a_b");
        assert_ne!(segment("a/b"), segment("a_b"));
        assert_eq!(segment(""), "%00");
        assert_eq!(
            names_of(
                "/SUBSCRIPTIONS/S/RESOURCEGROUPS/RG/PROVIDERS/MICROSOFT.MACHINELEARNINGSERVICES/WORKSPACES/WS1/ONLINEENDPOINTS/CHURN-EP"
            ),
            ("ws1".to_owned(), "churn-ep".to_owned())
        );
    }
}
