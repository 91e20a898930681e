//! `amldoctor diagnose --log-analytics WORKSPACE_ID`: the online endpoints' console and
//! event logs from Log Analytics, where diagnostic settings send them. The rules'
//! literals go down as one KQL filter so the service scans the volume; the candidate
//! lines come back, are saved as a bundle (one file per endpoint, deployment, instance
//! and container) and analysed exactly as `diagnose DIR` analyses one.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write;

use serde_json::Value;

use crate::cli::DiagnoseArgs;
use crate::context::Context;
use crate::error::{Error, Result};
use crate::evidence::{DocumentKind, KindSet};
use crate::report::log_analytics::{
    FindingHours, HourCount, LogAnalyticsSummary, LogGroup, TrafficCount,
};
use crate::rules::pushdown::{bounded_in, filter, kql_string};
use crate::source::bundle::{BundleSource, BundleWriter};

use super::support::connect_azure;

/// The default look-back, in minutes.
const DEFAULT_MINUTES: u64 = 24 * 60;
/// The most rows one query returns (the query API's own limit is 500,000).
const MAX_ROWS: u64 = 500_000;

/// What a Log Analytics query read: the summary for the report, and the lines of each
/// file written to the bundle, with their times, for counting findings per hour.
#[derive(Debug)]
pub struct LogAnalyticsRead {
    pub summary: LogAnalyticsSummary,
    pub lines: Lines,
}

/// Queries the workspace for the lines the rules' literals can match (and the traffic
/// log's counts) and writes them as a bundle in `dir`.
pub fn read(
    ctx: &Context,
    set: &crate::rules::RuleSet,
    args: &DiagnoseArgs,
    dir: &std::path::Path,
    err: &mut dyn Write,
) -> Result<LogAnalyticsRead> {
    let workspace_id = args.log_analytics.clone().unwrap_or_default();
    if !crate::context::names::is_guid(&workspace_id) {
        return Err(Error::input(format!(
            "--log-analytics {workspace_id}: expected the Log Analytics workspace id, a GUID (az monitor log-analytics workspace show --query customerId)"
        )));
    }
    let minutes = minutes(args)?;
    let bits = KindSet::default()
        .with(DocumentKind::InferenceServer)
        .with(DocumentKind::StorageInitializer)
        .with(DocumentKind::Kubernetes)
        .bits();
    let literals: Vec<(&crate::rules::literal::Literal, bool)> = set
        .prefilter
        .pushdown_literals(bits)
        .into_iter()
        .map(|(i, l)| {
            let text = String::from_utf8_lossy(&l.bytes);
            let bounded = set.prefilter.patterns_of(i).iter().all(|p| {
                set.patterns
                    .get(*p as usize)
                    .is_some_and(|p| bounded_in(p.regex.as_str(), &text))
            });
            (l, bounded)
        })
        .collect();
    let pushed = filter("Message", &literals)
        .ok_or_else(|| Error::input("the rules give no literal to filter Log Analytics by"))?;
    let query = query(&pushed, args, minutes);
    let timespan = format!("PT{minutes}M");
    let mut azure = connect_azure(ctx)?;
    let what = format!("querying Log Analytics workspace {workspace_id}");
    let answer = azure.log_analytics_query(&workspace_id, &query, &timespan, &what);
    // The traffic log holds no text for the rules; its status counts per hour say what
    // callers got. A workspace that does not receive it is not an error.
    let traffic = answer.as_ref().ok().map(|_| {
        azure.log_analytics_query(
            &workspace_id,
            &traffic_query(args, minutes),
            &timespan,
            &format!("querying the traffic log of Log Analytics workspace {workspace_id}"),
        )
    });
    super::support::debug_traces(ctx, &mut azure, err);
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
    for n in &notes {
        let _ = writeln!(err, "warning: {n}");
    }
    let (groups, lines) = write_bundle(dir, &answer.rows, &workspace_id)?;
    let summary = LogAnalyticsSummary {
        workspace_id: workspace_id.clone(),
        timespan,
        rows,
        query_seconds: (answer.elapsed.as_secs_f64() * 10.0).round() / 10.0,
        literals: literals.len() as u64,
        groups,
        traffic,
        findings: Vec::new(),
        notes,
    };
    Ok(LogAnalyticsRead { summary, lines })
}

fn minutes(args: &DiagnoseArgs) -> Result<u64> {
    let Some(since) = args.since else {
        return Ok(DEFAULT_MINUTES);
    };
    since
        .checked_div(crate::capacity::Ratio::from_int(60))
        .map(crate::capacity::Ratio::ceil)
        .ok()
        .and_then(|m| u64::try_from(m).ok())
        .filter(|m| (1..=60 * 24 * 730).contains(m))
        .ok_or_else(|| Error::input("--since: expected a duration between 1 minute and 2 years"))
}

/// The query: both endpoint log tables, the look-back, the endpoint and deployment when
/// given, the rules' filter, the columns the bundle needs.
fn query(pushed: &str, args: &DiagnoseArgs, minutes: u64) -> String {
    let endpoint = args.endpoint.as_ref().map_or_else(String::new, |ep| {
        format!(
            "| where ResourceId endswith {}\n",
            kql_string(&format!("/onlineendpoints/{ep}"))
        )
    });
    let deployment = args.deployment.as_ref().map_or_else(String::new, |d| {
        format!("| where DeploymentName =~ {}\n", kql_string(d))
    });
    // isfuzzy: a table no diagnostic setting has filled yet is not an error. The tables
    // name the resource `_ResourceId`; the event log has no container, so its rows are
    // filed under the table's name. The newest lines are kept when there are too many.
    format!(
        "union isfuzzy=true withsource=SourceTable AmlOnlineEndpointConsoleLog, AmlOnlineEndpointEventLog\n\
         | where TimeGenerated > ago({minutes}m)\n\
         | extend ResourceId = _ResourceId\n\
         {endpoint}{deployment}| where {pushed}\n\
         | extend ContainerName = tostring(column_ifexists(\"ContainerName\", \"\")), InstanceId = tostring(column_ifexists(\"InstanceId\", \"\"))\n\
         | extend ContainerName = iff(isempty(ContainerName), SourceTable, ContainerName)\n\
         | project TimeGenerated, ResourceId, DeploymentName, InstanceId, ContainerName, Message\n\
         | top {MAX_ROWS} by TimeGenerated desc\n\
         | order by TimeGenerated asc"
    )
}

/// The lines of each file written, with their times, by the file's path.
pub(super) type Lines = BTreeMap<String, Vec<(String, String)>>;

/// Each finding's matching lines per hour on each group it was found in: its `any`
/// patterns run again over that group's lines (only found rules, only their files).
pub(super) fn count_findings(
    set: &crate::rules::RuleSet,
    findings: &[crate::finding::Finding],
    la: &mut LogAnalyticsSummary,
    lines: &Lines,
) {
    for f in findings {
        let Some(rule) = set.index_of(&f.rule_id) else {
            continue;
        };
        let patterns: Vec<&crate::rules::Pattern> = set
            .patterns
            .iter()
            .filter(|p| p.rule == rule && p.role == crate::rules::PatternRole::Any)
            .collect();
        if patterns.is_empty() {
            continue;
        }
        for g in la.groups.iter().filter(|g| f.paths.contains(&g.path)) {
            let Some(rows) = lines.get(&g.path) else {
                continue;
            };
            let mut per_hour: BTreeMap<String, u64> = BTreeMap::new();
            for (time, message) in rows {
                if patterns
                    .iter()
                    .any(|p| p.regex.is_match(message.as_bytes()))
                {
                    *per_hour.entry(time.chars().take(13).collect()).or_default() += 1;
                }
            }
            if per_hour.is_empty() {
                continue;
            }
            la.findings.push(FindingHours {
                rule_id: f.rule_id.clone(),
                endpoint: g.endpoint.clone(),
                deployment: g.deployment.clone(),
                instance: g.instance.clone(),
                per_hour: per_hour
                    .into_iter()
                    .map(|(hour, lines)| HourCount { hour, lines })
                    .collect(),
            });
        }
    }
}

/// `endpoint` and `deployment` when every line read is of the same one.
pub(super) fn only_names(la: &LogAnalyticsSummary) -> Vec<(&'static str, String)> {
    let one = |get: fn(&LogGroup) -> &str| {
        let mut names: Vec<&str> = la
            .groups
            .iter()
            .map(get)
            .filter(|n| !n.is_empty())
            .collect();
        names.sort_unstable();
        names.dedup();
        match names.as_slice() {
            [only] if crate::rules::template::shell_safe(only) => Some((*only).to_owned()),
            _ => None,
        }
    };
    let mut out = Vec::new();
    if let Some(e) = one(|g| &g.endpoint) {
        out.push(("endpoint", e));
    }
    if let Some(d) = one(|g| &g.deployment) {
        out.push(("deployment", d));
    }
    out
}

/// Requests per hour, deployment and status from `AmlOnlineEndpointTrafficLog`.
fn traffic_query(args: &DiagnoseArgs, minutes: u64) -> String {
    let endpoint = args.endpoint.as_ref().map_or_else(String::new, |ep| {
        format!(
            "| where _ResourceId endswith {}\n",
            kql_string(&format!("/onlineendpoints/{ep}"))
        )
    });
    let deployment = args.deployment.as_ref().map_or_else(String::new, |d| {
        format!("| where DeploymentName =~ {}\n", kql_string(d))
    });
    format!(
        "AmlOnlineEndpointTrafficLog\n\
         | where TimeGenerated > ago({minutes}m)\n\
         {endpoint}{deployment}| summarize Requests = count() by Hour = bin(TimeGenerated, 1h), DeploymentName, ResponseCode = tostring(ResponseCode)\n\
         | order by Hour asc, DeploymentName asc, ResponseCode asc"
    )
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
    let after = |key: &str| {
        lower
            .split_once(key)
            .map(|(_, rest)| rest.split('/').next().unwrap_or_default().to_owned())
            .unwrap_or_default()
    };
    (after("/workspaces/"), after("/onlineendpoints/"))
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
    let mut bundle = BundleWriter::create(dir, source, crate::source::collect::created())?;
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
        let what = format!("console log of {endpoint}/{deployment} instance {instance}");
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
