//! The Log Analytics query API: one KQL query over a workspace's tables (the online
//! endpoints' console and event logs, when their diagnostic settings send them there),
//! run by the service over the whole volume; only the rows it returns travel.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::{Azure, json_of};
use crate::error::{Error, Result};

/// The rows of a query and how long it took.
#[derive(Debug, Clone, Default)]
pub(crate) struct QueryAnswer {
    pub rows: Vec<Value>,
    pub elapsed: Duration,
    /// The service's reason when the answer is incomplete (a size or time limit).
    pub partial: Option<String>,
}

/// How long a query may run: the service answers only when it is done (ten minutes at
/// most, when asked to wait that long).
const QUERY_TIMEOUT: Duration = Duration::from_secs(600);

impl Azure {
    /// Runs `query` in Log Analytics workspace `workspace_id` (its GUID) over `timespan`
    /// (ISO 8601, `PT24H`).
    pub(crate) fn log_analytics_query(
        &mut self,
        workspace_id: &str,
        query: &str,
        timespan: &str,
        what: &str,
    ) -> Result<QueryAnswer> {
        let (base, scope) = self.options.log_analytics.clone();
        let url = format!(
            "{}/v1/workspaces/{workspace_id}/query",
            base.trim_end_matches('/')
        );
        let body = json!({"query": query, "timespan": timespan});
        let started = Instant::now();
        // The service stops a query after 3 minutes unless asked to wait (10 at most),
        // and then answers 504: that is its verdict on the query, not a passing fault.
        let long = super::Http::new(QUERY_TIMEOUT + Duration::from_secs(30), self.options.policy)?
            .with_header("prefer", &format!("wait={}", QUERY_TIMEOUT.as_secs()))
            .final_status(504);
        let reply = self.exchange_with(
            Some(&long),
            reqwest::Method::POST,
            &url,
            Some(&body),
            Some(&scope),
        )?;
        if reply.status == 504 {
            return Err(Error::access(format!(
                "{what}: the query ran longer than the {} minutes Log Analytics allows one query",
                QUERY_TIMEOUT.as_secs() / 60
            ))
            .with_hint(
                "read less at once: a shorter --since, or one endpoint and deployment (-e, -n)",
            ));
        }
        let mut answer = json_of(what, &reply)?;
        let elapsed = started.elapsed();
        // A partial answer says so in `error` beside its tables.
        let mut partial = None;
        if let Some(e) = answer.get("error").filter(|e| !e.is_null()) {
            let outer = e["message"].as_str().unwrap_or("the query failed");
            let mut said = vec![outer.to_owned()];
            said.extend(
                super::http::inner_messages(e)
                    .into_iter()
                    .filter(|m| m != outer),
            );
            let message = crate::redact::clean(&said.join(": ")).into_owned();
            if answer.get("tables").is_none() {
                return Err(Error::access(format!("{what}: {message}")));
            }
            partial = Some(message);
        }
        let tables = answer["tables"].take();
        let table = tables
            .as_array()
            .and_then(|t| t.first())
            .and_then(Value::as_object)
            .ok_or_else(|| {
                Error::access(format!(
                    "{what}: the answer has no table; expected the query API's tables"
                ))
            })?;
        Ok(QueryAnswer {
            rows: super::table_rows(table),
            elapsed,
            partial,
        })
    }
}
