//! Azure Resource Graph: one KQL query over every resource in scope (subscriptions or
//! management groups), answered by the service's own index instead of one GET per
//! resource. Pages follow `$skipToken` and are handed on as they come; the per-user
//! quota headers pace them (a page that leaves no quota waits for the window to reset).

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::{Azure, json_of, table_rows};
use crate::error::{Error, Result};

/// The Resource Graph api-version (stable).
pub(crate) const GRAPH_API: &str = "2022-10-01";
/// Rows a page asks for (the service's maximum).
const PAGE_ROWS: u64 = 1000;
/// Pages followed at most: ten million rows.
const MAX_PAGES: usize = 10_000;

/// What the query covers.
#[derive(Debug, Clone, Default)]
pub(crate) struct GraphScope {
    pub subscriptions: Vec<String>,
    pub management_groups: Vec<String>,
}

/// How the query went, for the report.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct GraphStats {
    pub pages: u64,
    pub rows: u64,
    /// From the first request to the last page.
    pub elapsed: Duration,
    /// Of that, waiting for the user quota to reset.
    pub throttled: Duration,
    /// The service said the result was cut short (`resultTruncated`).
    pub truncated: bool,
    /// It covered only part of the scope's subscriptions
    /// (`x-ms-tenant-subscription-limit-hit`).
    pub subscription_limit_hit: bool,
}

impl Azure {
    /// Runs `query` over `scope`; `page` receives each page's rows in order.
    pub(crate) fn resource_graph(
        &mut self,
        query: &str,
        scope: &GraphScope,
        what: &str,
        page: &mut dyn FnMut(Vec<Value>) -> Result<()>,
    ) -> Result<GraphStats> {
        let url = format!(
            "{}/providers/Microsoft.ResourceGraph/resources?api-version={GRAPH_API}",
            self.options.arm_endpoint.trim_end_matches('/')
        );
        let scope_token = self.options.arm_scope.clone();
        let started = Instant::now();
        let mut stats = GraphStats::default();
        let mut skip: Option<String> = None;
        for _ in 0..MAX_PAGES {
            let mut body = json!({
                "query": query,
                "options": {"$top": PAGE_ROWS, "resultFormat": "objectArray"},
            });
            if !scope.subscriptions.is_empty() {
                body["subscriptions"] = json!(scope.subscriptions);
            }
            if !scope.management_groups.is_empty() {
                body["managementGroups"] = json!(scope.management_groups);
            }
            if let Some(token) = &skip {
                body["options"]["$skipToken"] = json!(token);
            }
            let read = |e: Error| {
                if stats.pages == 0 {
                    return e;
                }
                let more = format!(
                    "after {} pages ({} rows) had been read",
                    stats.pages, stats.rows
                );
                let hint = e
                    .hint
                    .clone()
                    .map_or(more.clone(), |h| format!("{h}; {more}"));
                e.with_hint(hint)
            };
            let reply = self
                .exchange(reqwest::Method::POST, &url, Some(&body), Some(&scope_token))
                .map_err(read)?;
            let mut answer = json_of(what, &reply).map_err(read)?;
            stats.subscription_limit_hit |= reply.subscription_limit_hit;
            stats.truncated |= matches!(&answer["resultTruncated"], Value::Bool(true))
                || answer["resultTruncated"]
                    .as_str()
                    .is_some_and(|t| t.eq_ignore_ascii_case("true"));
            let rows = match answer.get_mut("data").map(Value::take) {
                Some(Value::Array(rows)) => rows,
                // The table format: columns and rows.
                Some(Value::Object(table)) => table_rows(&table),
                _ => {
                    return Err(Error::access(format!(
                        "{what}: the answer has no data; expected Resource Graph's objectArray result"
                    )));
                }
            };
            stats.pages += 1;
            stats.rows += rows.len() as u64;
            page(rows)?;
            let next = answer["$skipToken"]
                .as_str()
                .filter(|t| !t.is_empty())
                .map(str::to_owned);
            let Some(next) = next else {
                stats.elapsed = started.elapsed();
                return Ok(stats);
            };
            if skip.as_deref() == Some(next.as_str()) {
                return Err(Error::access(format!(
                    "{what}: the service sent the same $skipToken twice; stopping so the query does not loop"
                )));
            }
            skip = Some(next);
            self.pace(reply.quota, what, &mut stats)?;
        }
        Err(Error::access(format!(
            "{what}: more than {MAX_PAGES} pages"
        )))
    }

    /// With no quota left, waits for it to reset (within the retry budget).
    fn pace(
        &mut self,
        quota: Option<super::http::Quota>,
        what: &str,
        stats: &mut GraphStats,
    ) -> Result<()> {
        let Some(q) = quota.filter(|q| q.remaining == 0) else {
            return Ok(());
        };
        let wait = q.resets_after.unwrap_or(Duration::from_secs(5));
        if stats.throttled + wait > self.options.policy.budget {
            return Err(Error::access(format!(
                "{what}: Resource Graph's quota for this user is used up and resets in {} s, past the retry budget",
                wait.as_secs()
            ))
            .with_hint("narrow the scope (--subscription, --management-group) or run again later"));
        }
        self.traces.push(format!(
            "  Resource Graph quota used up; waiting {} s for it to reset",
            wait.as_secs()
        ));
        // The timer must be made inside the runtime.
        self.runtime
            .block_on(async move { tokio::time::sleep(wait).await });
        stats.throttled += wait;
        Ok(())
    }
}
