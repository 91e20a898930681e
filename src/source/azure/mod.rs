//! Azure access, read-only: an async client behind a small synchronous facade that owns
//! a current-thread runtime, so everything after collection stays synchronous and pure.
//! Only GET and the documented read-only POSTs (getLogs, list, diagnose, and an
//! endpoint's listKeys and token for `score`) are sent.

pub(crate) mod arm;
pub(crate) mod auth;
pub(crate) mod http;
pub(crate) mod log_analytics;
pub(crate) mod resource_graph;
pub(crate) mod run_history;

use std::path::PathBuf;
use std::time::Duration;

use serde_json::Value;

use crate::error::Error;
use crate::source::Environment;

pub(crate) use auth::{Auth, AuthChoice, SignIn};
pub(crate) use http::{Http, RetryPolicy};

/// The token scope an `aad_token` online endpoint's scoring URI accepts, in every cloud.
const SCORING_SCOPE: &str = "https://ml.azure.com/.default";

/// What the facade needs to know.
#[derive(Debug, Clone)]
pub(crate) struct AzureOptions {
    /// The Resource Manager base URL (`https://management.azure.com`).
    pub arm_endpoint: String,
    /// Its token scope (`https://management.azure.com/.default`).
    pub arm_scope: String,
    /// The AML data plane's token scope (`https://ml.azure.com/.default`).
    pub ml_scope: String,
    /// The Log Analytics query API (`https://api.loganalytics.io`) and its token scope.
    pub log_analytics: (String, String),
    /// How long a long-running operation (workspace diagnose) may take in all.
    pub operation_timeout: Duration,
    pub auth: AuthChoice,
    /// Where and as whom to sign in.
    pub sign_in: SignIn,
    pub timeout: Duration,
    pub policy: RetryPolicy,
}

/// One file to fetch: its storage URL (with its SAS) and where it goes.
#[derive(Debug, Clone)]
pub(crate) struct Download {
    pub url: String,
    pub dest: PathBuf,
}

/// The JSON of a successful answer, or the service's error as one sentence.
fn json_of(what: &str, reply: &http::Reply) -> Result<Value, Error> {
    if !(200..300).contains(&reply.status) {
        return Err(http::arm_error(what, reply));
    }
    if reply.body.is_empty() {
        return Ok(Value::Null);
    }
    serde_json::from_slice(&reply.body).map_err(|e| {
        Error::access(format!(
            "{what}: the service's answer is not the JSON expected ({e})"
        ))
    })
}

/// `{"columns": [{"name": …}], "rows": [[…]]}` as objects.
pub(crate) fn table_rows(table: &serde_json::Map<String, Value>) -> Vec<Value> {
    let names: Vec<&str> = table
        .get("columns")
        .and_then(Value::as_array)
        .map(|c| c.iter().filter_map(|c| c["name"].as_str()).collect())
        .unwrap_or_default();
    table
        .get("rows")
        .and_then(Value::as_array)
        .map(|rows| {
            rows.iter()
                .filter_map(Value::as_array)
                .map(|row| {
                    Value::Object(
                        names
                            .iter()
                            .zip(row)
                            .map(|(n, v)| ((*n).to_owned(), v.clone()))
                            .collect(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Whether `url` has the scheme, host and port of `base`.
fn same_origin(url: &str, base: &str) -> bool {
    match (reqwest::Url::parse(url), reqwest::Url::parse(base)) {
        (Ok(a), Ok(b)) => a.origin() == b.origin(),
        _ => false,
    }
}

/// Hosts the AML data plane is served from (any region, any cloud), and this machine
/// for tests: a discovery document naming anything else gets no token.
fn data_plane_host(url: &str) -> bool {
    let Ok(u) = reqwest::Url::parse(url) else {
        return false;
    };
    let Some(host) = u.host_str() else {
        return false;
    };
    let host = host.to_ascii_lowercase();
    matches!(host.as_str(), "127.0.0.1" | "localhost" | "[::1]")
        || [
            ".api.azureml.ms",
            ".experiments.azureml.net",
            ".api.ml.azure.cn",
            ".experiments.ml.azure.cn",
            ".api.ml.azure.us",
            ".experiments.ml.azure.us",
        ]
        .iter()
        .any(|suffix| host.ends_with(suffix))
}

/// A token for `scope`, bounded like any request: a credential retrying an unreachable
/// authority must not hang the run.
async fn bounded_token(auth: &Auth, scope: &str, timeout: Duration) -> Result<String, Error> {
    tokio::time::timeout(timeout, auth.token(scope))
        .await
        .map_err(|_| {
            Error::access(format!(
                "signing in with {} took over {} s",
                auth.describe,
                timeout.as_secs()
            ))
            .with_hint(
                "check the network path to the sign-in service (proxy, firewall, AZURE_AUTHORITY_HOST)",
            )
        })?
}

/// A long-running operation that ended badly, with the service's reason.
fn operation_failed(what: &str, status: &Value) -> Error {
    let reason = status["error"]["message"]
        .as_str()
        .map(|m| crate::redact::clean(m).into_owned())
        .unwrap_or_else(|| format!("it ended {}", status["status"].as_str().unwrap_or("badly")));
    Error::access(format!("{what}: {reason}"))
}

/// A connection to Azure for one run.
#[derive(Debug)]
pub(crate) struct Azure {
    runtime: tokio::runtime::Runtime,
    http: Http,
    auth: Auth,
    options: AzureOptions,
    /// One line per request and retry, secrets redacted (`--debug`).
    traces: Vec<String>,
    /// The data plane refused a token for its own scope: use the Resource Manager one.
    data_plane_wants_arm: bool,
}

impl Azure {
    /// Sets up the runtime, the client and the credential; no request is sent yet.
    pub(crate) fn connect(options: AzureOptions, env: &Environment) -> Result<Azure, Error> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| Error::access(format!("cannot start the async runtime: {e}")))?;
        let http = Http::new(options.timeout, options.policy)?;
        let auth = Auth::new(options.auth, env, &options.sign_in)?;
        let s = &options.sign_in;
        let signing_in = format!(
            "signing in with {}; authority {}; tenant {}",
            auth.describe,
            s.authority,
            s.tenant.as_deref().unwrap_or("the credential's own")
        );
        Ok(Azure {
            runtime,
            http,
            auth,
            options,
            traces: vec![signing_in],
            data_plane_wants_arm: false,
        })
    }

    /// `POST {arm}{path}?api-version=…` with a JSON body (a read-only action such as
    /// getLogs); the JSON answer, or the service's error as one sentence. `what` says
    /// what was being done, for that sentence.
    pub(crate) fn arm_post(
        &mut self,
        path: &str,
        api_version: &str,
        body: &Value,
        what: &str,
    ) -> Result<Value, Error> {
        self.arm(reqwest::Method::POST, path, api_version, Some(body), what)
    }

    /// `GET {arm}{path}?api-version=…`.
    pub(crate) fn arm_get(
        &mut self,
        path: &str,
        api_version: &str,
        what: &str,
    ) -> Result<Value, Error> {
        self.arm(reqwest::Method::GET, path, api_version, None, what)
    }

    /// Every item of an ARM list: `value` of each page, following `nextLink` verbatim
    /// (only on the same Resource Manager host, so the token goes nowhere else; at most
    /// 1,000 pages).
    pub(crate) fn arm_list(
        &mut self,
        path: &str,
        api_version: &str,
        what: &str,
    ) -> Result<Vec<Value>, Error> {
        let base = self.options.arm_endpoint.trim_end_matches('/').to_owned();
        let mut url = format!("{base}{path}?api-version={api_version}");
        let mut items = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for _ in 0..1000 {
            let page = self.fetch(reqwest::Method::GET, &url, None, what)?;
            if let Some(list) = page["value"].as_array() {
                items.extend(list.iter().cloned());
            }
            match page["nextLink"].as_str().filter(|l| !l.is_empty()) {
                Some(next) if !seen.insert(next.to_owned()) => return Ok(items),
                Some(next) if same_origin(next, &base) => url = next.to_owned(),
                Some(next) => {
                    return Err(Error::access(format!(
                        "{what}: the next page is on another host ({}); not following it with the token",
                        crate::redact::redact(next)
                    )));
                }
                None => return Ok(items),
            }
        }
        Err(Error::access(format!("{what}: more than 1,000 pages")))
    }

    fn arm(
        &mut self,
        method: reqwest::Method,
        path: &str,
        api_version: &str,
        body: Option<&Value>,
        what: &str,
    ) -> Result<Value, Error> {
        let url = format!(
            "{}{path}?api-version={api_version}",
            self.options.arm_endpoint.trim_end_matches('/')
        );
        self.fetch(method, &url, body, what)
    }

    /// One ARM call to a full URL.
    fn fetch(
        &mut self,
        method: reqwest::Method,
        url: &str,
        body: Option<&Value>,
        what: &str,
    ) -> Result<Value, Error> {
        let scope = self.options.arm_scope.clone();
        let reply = self.exchange(method, url, body, Some(&scope))?;
        json_of(what, &reply)
    }

    /// One exchange with a token for `scope` (none: no Authorization header at all),
    /// whatever the status.
    fn exchange(
        &mut self,
        method: reqwest::Method,
        url: &str,
        body: Option<&Value>,
        scope: Option<&str>,
    ) -> Result<http::Reply, Error> {
        self.exchange_with(None, method, url, body, scope)
    }

    /// [`Azure::exchange`] through another client (one with a longer read timeout, for
    /// a query the service answers only when it is done).
    fn exchange_with(
        &mut self,
        client: Option<&Http>,
        method: reqwest::Method,
        url: &str,
        body: Option<&Value>,
        scope: Option<&str>,
    ) -> Result<http::Reply, Error> {
        let traces = &mut self.traces;
        let http = client.unwrap_or(&self.http);
        let auth = &self.auth;
        let timeout = self.options.timeout;
        self.runtime.block_on(async {
            let token = match scope {
                Some(scope) => Some(bounded_token(auth, scope, timeout).await?),
                None => None,
            };
            http.send(method, url, token.as_deref(), body, &mut |line| {
                traces.push(line);
            })
            .await
        })
    }

    /// `POST {arm}{path}` for a long-running read-only action (workspace diagnose):
    /// a `200` answer is the result; a `201`/`202` is polled through
    /// `Azure-AsyncOperation` (until it says the operation ended) and then `Location`
    /// (until it stops answering 202), on the Resource Manager host only, waiting as
    /// `Retry-After` asks (at least a second), until the operation timeout passes.
    pub(crate) fn arm_post_operation(
        &mut self,
        path: &str,
        api_version: &str,
        body: &Value,
        what: &str,
    ) -> Result<Value, Error> {
        let base = self.options.arm_endpoint.trim_end_matches('/').to_owned();
        let url = format!("{base}{path}?api-version={api_version}");
        let scope = self.options.arm_scope.clone();
        let first = self.exchange(reqwest::Method::POST, &url, Some(body), Some(&scope))?;
        if !matches!(first.status, 201 | 202) {
            return json_of(what, &first);
        }
        let started = std::time::Instant::now();
        let mut monitor = first
            .async_operation
            .clone()
            .filter(|u| same_origin(u, &base));
        let location = first.location.clone().filter(|u| same_origin(u, &base));
        if monitor.is_none() && location.is_none() {
            return Err(Error::access(format!(
                "{what}: the service accepted the request but named no Resource Manager URL to follow it"
            )));
        }
        let mut wait = first.retry_after;
        loop {
            let pause = match wait {
                // Straight on to the result once the monitor said it is ready.
                Some(d) if d.is_zero() && monitor.is_none() => Duration::ZERO,
                w => w
                    .unwrap_or(Duration::from_secs(5))
                    .clamp(Duration::from_secs(1), Duration::from_secs(60)),
            };
            if started.elapsed() + pause > self.options.operation_timeout {
                return Err(Error::access(format!(
                    "{what}: still running after {} s; gave up waiting",
                    started.elapsed().as_secs()
                ))
                .with_hint(
                    "run the command again later, or raise AMLDOCTOR_OPERATION_TIMEOUT (seconds)",
                ));
            }
            std::thread::sleep(pause);
            if let Some(url) = &monitor {
                let reply = self.exchange(reqwest::Method::GET, url, None, Some(&scope))?;
                let status = json_of(what, &reply)?;
                wait = reply.retry_after;
                match status["status"]
                    .as_str()
                    .map(str::to_ascii_lowercase)
                    .as_deref()
                {
                    Some("succeeded") if location.is_none() => return Ok(status),
                    // The result is at Location: read it next, without waiting again.
                    Some("succeeded") => {
                        monitor = None;
                        wait = Some(Duration::ZERO);
                    }
                    Some("failed" | "canceled" | "cancelled") => {
                        return Err(operation_failed(what, &status));
                    }
                    _ => {}
                }
                continue;
            }
            let location = location.as_deref().unwrap_or_default();
            let reply = self.exchange(reqwest::Method::GET, location, None, Some(&scope))?;
            if reply.status == 202 {
                wait = reply.retry_after;
                continue;
            }
            return json_of(what, &reply);
        }
    }

    /// A JSON document fetched without any token: the workspace's discovery document.
    pub(crate) fn anonymous_get(&mut self, url: &str, what: &str) -> Result<Value, Error> {
        let reply = self.exchange(reqwest::Method::GET, url, None, None)?;
        json_of(what, &reply)
    }

    /// `GET url` on the AML data plane (run history, artifacts) with a token for its own
    /// scope; when that token is refused, with the Resource Manager token (which these
    /// services also accept) from then on.
    pub(crate) fn data_get(&mut self, url: &str, what: &str) -> Result<Value, Error> {
        if !data_plane_host(url) {
            return Err(Error::access(format!(
                "{what}: {} is not an Azure Machine Learning host; not sending it a token",
                crate::redact::redact(url)
            )));
        }
        let arm = self.options.arm_scope.clone();
        if !self.data_plane_wants_arm {
            let ml = self.options.ml_scope.clone();
            let reply = self.exchange(reqwest::Method::GET, url, None, Some(&ml))?;
            if reply.status != 401 {
                return json_of(what, &reply);
            }
            self.traces.push(
                "  the data-plane token was refused; trying the Resource Manager token from now on"
                    .into(),
            );
            self.data_plane_wants_arm = true;
        }
        let reply = self.exchange(reqwest::Method::GET, url, None, Some(&arm))?;
        json_of(what, &reply)
    }

    /// Downloads every file (storage SAS URLs: no token is sent), at most `jobs` at a
    /// time. `done(index, result)` is called as each ends, in completion order.
    pub(crate) fn download_all(
        &mut self,
        files: &[Download],
        jobs: usize,
        done: &mut dyn FnMut(usize, Result<u64, Error>),
    ) {
        let traces = &mut self.traces;
        let http = &self.http;
        self.runtime.block_on(async {
            let mut running = tokio::task::JoinSet::new();
            let mut next = 0;
            loop {
                while next < files.len() && running.len() < jobs.max(1) {
                    let (http, file, index) = (http.clone(), files[next].clone(), next);
                    running.spawn(async move {
                        let mut lines = Vec::new();
                        let result = http
                            .download(&file.url, &file.dest, &mut |l| lines.push(l))
                            .await;
                        (index, result, lines)
                    });
                    next += 1;
                }
                let Some(joined) = running.join_next().await else {
                    break;
                };
                match joined {
                    Ok((index, result, lines)) => {
                        traces.extend(lines);
                        done(index, result);
                    }
                    Err(e) => traces.push(format!("a download task ended abnormally: {e}")),
                }
            }
        });
    }

    /// An Entra token for scoring an `aad_token` online endpoint; bounded like any
    /// sign-in. Never traced or saved. Its audience is `https://ml.azure.com` in every
    /// cloud, not the cloud's data-plane one: azure-ai-ml 1.35 asks for that scope
    /// (`AAD_TOKEN_RESOURCE_ENDPOINT` in `constants/_common.py`, used by
    /// `OnlineEndpointOperations._get_online_credentials`) whatever the cloud.
    pub(crate) fn scoring_token(&mut self) -> Result<String, Error> {
        let timeout = self.options.timeout;
        let auth = &self.auth;
        self.runtime
            .block_on(bounded_token(auth, SCORING_SCOPE, timeout))
    }

    /// The trace lines gathered so far (`--debug`).
    pub(crate) fn take_traces(&mut self) -> Vec<String> {
        let mut traces = self.auth.take_traces();
        traces.append(&mut self.traces);
        traces
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    #[test]
    fn table_results_become_objects() {
        let t = json!({"columns": [{"name": "id", "type": "string"}, {"name": "type", "type": "string"}], "rows": [["/a", "x"], ["/b", "y"]]});
        let rows = super::table_rows(t.as_object().unwrap());
        assert_eq!(
            rows,
            [
                json!({"id": "/a", "type": "x"}),
                json!({"id": "/b", "type": "y"})
            ]
        );
    }

    #[test]
    fn tokens_go_only_to_azure_ml_hosts() {
        assert!(super::data_plane_host(
            "https://westeurope.api.azureml.ms/history/v1.0/x"
        ));
        assert!(super::data_plane_host(
            "https://0c2b6b5e-1111.workspace.eastus.api.azureml.ms/x"
        ));
        assert!(super::data_plane_host(
            "https://chinaeast2.api.ml.azure.cn/x"
        ));
        assert!(super::data_plane_host("http://127.0.0.1:8080/x"));
        assert!(!super::data_plane_host(
            "https://evil.example/api.azureml.ms"
        ));
        assert!(!super::data_plane_host(
            "https://api.azureml.ms.evil.example/x"
        ));
    }

    #[test]
    fn origins_compare_as_urls() {
        assert!(super::same_origin(
            "https://management.azure.com:443/x?a=1",
            "https://MANAGEMENT.azure.com"
        ));
        assert!(!super::same_origin(
            "https://management.azure.com.evil/x",
            "https://management.azure.com"
        ));
    }
}
