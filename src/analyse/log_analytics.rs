//! The analysis side of `diagnose --log-analytics`: the rules' literals pushed down as
//! one KQL filter over the online endpoints' console and event logs (so the service
//! scans the volume and only candidate lines come back), the traffic log's query, and,
//! once the rules ran over the lines read, each finding's lines per hour.

use std::collections::BTreeMap;

use crate::error::{Error, Result};
use crate::evidence::log_analytics::{
    FindingHours, HourCount, Lines, LogAnalyticsSummary, LogGroup, MAX_ROWS,
};
use crate::evidence::{DocumentKind, KindSet};
use crate::rules::RuleSet;
use crate::rules::pushdown::{bounded_in, filter, kql_string};

/// The default look-back, in minutes.
const DEFAULT_MINUTES: u64 = 24 * 60;

/// The endpoint and deployment a query is narrowed to (`-e`, `-n`).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Scope<'a> {
    pub(crate) endpoint: Option<&'a str>,
    pub(crate) deployment: Option<&'a str>,
}

/// The queries of a `--log-analytics` run: the candidate lines of the look-back
/// (`since`, 24 hours without it) narrowed to `scope`, and the traffic log's counts.
pub(crate) fn request(
    set: &RuleSet,
    workspace_id: String,
    since: Option<crate::ratio::Ratio>,
    scope: Scope<'_>,
) -> Result<crate::source::log_analytics::Request> {
    if !crate::context::name_rules::is_guid(&workspace_id) {
        return Err(Error::input(format!(
            "--log-analytics {workspace_id}: expected the Log Analytics workspace id, a GUID (az monitor log-analytics workspace show --query customerId)"
        )));
    }
    let minutes = minutes(since)?;
    let (pushed, literals) = pushed_filter(set)?;
    Ok(crate::source::log_analytics::Request {
        workspace_id,
        lines: lines_query(&pushed, scope, minutes),
        traffic: traffic_query(scope, minutes),
        timespan: format!("PT{minutes}M"),
        literals,
    })
}

/// The filter over `Message` that every line a rule could match passes, and how many
/// literals it holds.
fn pushed_filter(set: &RuleSet) -> Result<(String, u64)> {
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
    Ok((pushed, literals.len() as u64))
}

/// `--since` in whole minutes (24 hours without it).
fn minutes(since: Option<crate::ratio::Ratio>) -> Result<u64> {
    let Some(since) = since else {
        return Ok(DEFAULT_MINUTES);
    };
    since
        .checked_div(crate::ratio::Ratio::from_int(60))
        .map(crate::ratio::Ratio::ceil)
        .ok()
        .and_then(|m| u64::try_from(m).ok())
        .filter(|m| (1..=60 * 24 * 730).contains(m))
        .ok_or_else(|| Error::input("--since: expected a duration between 1 minute and 2 years"))
}

/// The query: both endpoint log tables, the look-back, the endpoint and deployment when
/// given, the rules' filter, the columns the bundle needs.
fn lines_query(pushed: &str, scope: Scope<'_>, minutes: u64) -> String {
    let endpoint = scope.endpoint.map_or_else(String::new, |ep| {
        format!(
            "| where ResourceId endswith {}\n",
            kql_string(&format!("/onlineendpoints/{ep}"))
        )
    });
    let deployment = scope.deployment.map_or_else(String::new, |d| {
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

/// Each finding's matching lines per hour on each group it was found in: its `any`
/// patterns run again over that group's lines (only found rules, only their files).
pub(crate) fn count_findings(
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
                if patterns.iter().any(|p| {
                    p.regex
                        .get()
                        .is_some_and(|r| r.is_match(message.as_bytes()))
                }) {
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
pub(crate) fn only_names(la: &LogAnalyticsSummary) -> Vec<(&'static str, String)> {
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

/// Requests per hour, deployment and status from `AmlOnlineEndpointTrafficLog`. What
/// its `_ResourceId` holds is not documented (for the console log it is the endpoint's
/// id, which Microsoft's sample query parses); the table's documented `EndpointName`
/// column names the endpoint (Azure Monitor's table reference), so it is what the query
/// filters on.
fn traffic_query(scope: Scope<'_>, minutes: u64) -> String {
    let endpoint = scope.endpoint.map_or_else(String::new, |ep| {
        format!("| where EndpointName =~ {}\n", kql_string(ep))
    });
    let deployment = scope.deployment.map_or_else(String::new, |d| {
        format!("| where DeploymentName =~ {}\n", kql_string(d))
    });
    format!(
        "AmlOnlineEndpointTrafficLog\n\
         | where TimeGenerated > ago({minutes}m)\n\
         {endpoint}{deployment}| summarize Requests = count() by Hour = bin(TimeGenerated, 1h), DeploymentName, ResponseCode = tostring(ResponseCode)\n\
         | order by Hour asc, DeploymentName asc, ResponseCode asc"
    )
}
