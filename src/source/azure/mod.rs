//! Azure access, read-only: an async client behind a small synchronous facade that owns
//! a current-thread runtime, so everything after collection stays synchronous and pure.
//! Only GET and the documented read-only POSTs (getLogs, list, diagnose) are sent.

pub mod auth;
pub mod http;

use std::time::Duration;

use serde_json::Value;

use crate::error::Error;
use crate::source::Environment;

pub use auth::{Auth, AuthChoice};
pub use http::{Http, RetryPolicy};

/// What the facade needs to know.
#[derive(Debug, Clone)]
pub struct AzureOptions {
    /// The Resource Manager base URL (`https://management.azure.com`).
    pub arm_endpoint: String,
    /// Its token scope (`https://management.azure.com/.default`).
    pub arm_scope: String,
    pub auth: AuthChoice,
    pub timeout: Duration,
    pub policy: RetryPolicy,
}

/// A connection to Azure for one run.
#[derive(Debug)]
pub struct Azure {
    runtime: tokio::runtime::Runtime,
    http: Http,
    auth: Auth,
    options: AzureOptions,
    /// One line per request and retry, secrets redacted (`--debug`).
    traces: Vec<String>,
}

impl Azure {
    /// Sets up the runtime, the client and the credential; no request is sent yet.
    pub fn connect(options: AzureOptions, env: &Environment) -> Result<Azure, Error> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| Error::access(format!("cannot start the async runtime: {e}")))?;
        let http = Http::new(options.timeout, options.policy)?;
        let auth = Auth::new(options.auth, env)?;
        Ok(Azure {
            runtime,
            http,
            auth,
            options,
            traces: Vec::new(),
        })
    }

    /// `POST {arm}{path}?api-version=…` with a JSON body (a read-only action such as
    /// getLogs); the JSON answer, or the service's error as one sentence. `what` says
    /// what was being done, for that sentence.
    pub fn arm_post(
        &mut self,
        path: &str,
        api_version: &str,
        body: &Value,
        what: &str,
    ) -> Result<Value, Error> {
        self.arm(reqwest::Method::POST, path, api_version, Some(body), what)
    }

    /// `GET {arm}{path}?api-version=…`.
    pub fn arm_get(&mut self, path: &str, api_version: &str, what: &str) -> Result<Value, Error> {
        self.arm(reqwest::Method::GET, path, api_version, None, what)
    }

    /// Every item of an ARM list: `value` of each page, following `nextLink` verbatim
    /// (only on the same Resource Manager host, so the token goes nowhere else; at most
    /// 1,000 pages).
    pub fn arm_list(
        &mut self,
        path: &str,
        api_version: &str,
        what: &str,
    ) -> Result<Vec<Value>, Error> {
        let base = self.options.arm_endpoint.trim_end_matches('/').to_owned();
        let mut url = format!("{base}{path}?api-version={api_version}");
        let mut items = Vec::new();
        for _ in 0..1000 {
            let page = self.fetch(reqwest::Method::GET, &url, None, what)?;
            if let Some(list) = page["value"].as_array() {
                items.extend(list.iter().cloned());
            }
            match page["nextLink"].as_str().filter(|l| !l.is_empty()) {
                Some(next) if next.starts_with(&format!("{base}/")) => url = next.to_owned(),
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
        let traces = &mut self.traces;
        let http = &self.http;
        let auth = &self.auth;
        let scope = self.options.arm_scope.clone();
        let reply = self.runtime.block_on(async {
            let token = auth.token(&scope).await?;
            http.send(method, url, &token, body, &mut |line| traces.push(line))
                .await
        })?;
        if !(200..300).contains(&reply.status) {
            return Err(http::arm_error(what, &reply));
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

    /// The trace lines gathered so far.
    pub fn take_traces(&mut self) -> Vec<String> {
        std::mem::take(&mut self.traces)
    }
}
