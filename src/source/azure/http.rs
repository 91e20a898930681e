//! The one HTTP client for Azure: timeouts, retries with exponential backoff and jitter
//! on throttling and transient failures (honouring `Retry-After` and
//! `x-ms-retry-after-ms`) within a bounded budget, a fresh `x-ms-client-request-id` on
//! every call, plain http only to loopback, no redirects (a token never follows one to
//! another host), and traces with secrets redacted.

use std::time::Duration;

use reqwest::header::{HeaderMap, HeaderValue};

use crate::error::{Error, ServiceAnswer};

/// How hard to try.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RetryPolicy {
    /// Retries after the first attempt.
    pub max_retries: u32,
    /// The first backoff; each retry doubles it.
    pub base_delay: Duration,
    /// No backoff of ours is longer than this (a wait the service asks for may be, up
    /// to the budget).
    pub max_delay: Duration,
    /// All waits together stay under this; a `Retry-After` beyond it ends the retries.
    pub budget: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_retries: 4,
            base_delay: Duration::from_millis(800),
            max_delay: Duration::from_secs(30),
            budget: Duration::from_secs(90),
        }
    }
}

/// A finished exchange: status, the headers that matter, the body.
#[derive(Debug, Clone)]
pub(crate) struct Reply {
    /// What was called (secrets redacted), for messages.
    pub url: String,
    pub status: u16,
    pub request_id: Option<String>,
    /// `Location`, for a long-running operation's result.
    pub location: Option<String>,
    /// `Azure-AsyncOperation` (or `Operation-Location`), its status monitor.
    pub async_operation: Option<String>,
    /// How long the service asked to wait before polling again.
    pub retry_after: Option<Duration>,
    /// Resource Graph's `x-ms-user-quota-remaining` and `x-ms-user-quota-resets-after`.
    pub quota: Option<Quota>,
    /// Resource Graph's `x-ms-tenant-subscription-limit-hit: true`: a query over a
    /// tenant or management group covered only part of its subscriptions.
    pub subscription_limit_hit: bool,
    /// The `claims` of a `WWW-Authenticate` claims challenge (Continuous Access
    /// Evaluation, a Conditional Access policy asking for more, e.g. MFA): base64 JSON.
    pub claims: Option<String>,
    pub body: Vec<u8>,
}

impl Reply {
    fn new(url: String, status: u16, headers: &HeaderMap, body: Vec<u8>) -> Reply {
        Reply {
            url,
            status,
            request_id: service_request_id(headers),
            location: header(headers, "location"),
            async_operation: header(headers, "azure-asyncoperation")
                .or_else(|| header(headers, "operation-location")),
            retry_after: retry_after(headers),
            quota: quota(headers),
            subscription_limit_hit: header(headers, "x-ms-tenant-subscription-limit-hit")
                .is_some_and(|v| v.trim().eq_ignore_ascii_case("true")),
            claims: header(headers, "www-authenticate").and_then(|v| claims_challenge(&v)),
            body,
        }
    }
}

/// How many queries the caller may still send in the current window, and when it
/// starts again (Resource Graph throttles per user).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Quota {
    pub remaining: u64,
    pub resets_after: Option<Duration>,
}

/// `x-ms-user-quota-remaining: 14` with `x-ms-user-quota-resets-after: 00:00:04`.
pub(crate) fn quota(headers: &HeaderMap) -> Option<Quota> {
    let remaining = header(headers, "x-ms-user-quota-remaining")?
        .trim()
        .parse()
        .ok()?;
    let resets_after = header(headers, "x-ms-user-quota-resets-after").and_then(|v| {
        let parts: Vec<u64> = v
            .trim()
            .split(':')
            .map(|p| p.trim().parse().ok())
            .collect::<Option<_>>()?;
        let [h, m, s] = parts.as_slice() else {
            return None;
        };
        Some(Duration::from_secs(h * 3600 + m * 60 + s))
    });
    Some(Quota {
        remaining,
        resets_after,
    })
}

/// The client.
#[derive(Debug, Clone)]
pub(crate) struct Http {
    client: reqwest::Client,
    policy: RetryPolicy,
    /// Headers every request of this client carries (`Prefer: wait=600`).
    headers: Vec<(&'static str, String)>,
    /// Statuses that are this service's final answer, not a transient failure (the
    /// Log Analytics query API's 504: the query ran out of its time limit).
    final_statuses: Vec<u16>,
}

/// Whether `url` may be called: https anywhere, plain http only on loopback.
pub(crate) fn allowed(url: &reqwest::Url) -> bool {
    match url.scheme() {
        "https" => true,
        "http" => matches!(
            url.host_str(),
            Some("127.0.0.1" | "localhost" | "[::1]" | "::1")
        ),
        _ => false,
    }
}

/// `url` parsed, if it may be called at all.
pub(crate) fn checked_url(url: &str) -> Result<reqwest::Url, Error> {
    let parsed = reqwest::Url::parse(url)
        .map_err(|_| Error::access(format!("'{}' is not a URL", crate::redact::redact(url))))?;
    if !allowed(&parsed) {
        return Err(Error::access(format!(
            "refusing to call {}: only https, or http to this machine (loopback), is allowed",
            crate::redact::redact(url)
        )));
    }
    Ok(parsed)
}

fn header(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
}

/// How one download attempt ended.
enum Attempt {
    Done(u64),
    /// The service answered something other than 200.
    Refused(u16, HeaderMap),
    /// The connection failed or broke off.
    Broken(String),
    /// This machine could not write the file: not worth a retry.
    Local(Error),
}

/// Where a download is written until it is complete.
pub(crate) fn part_path(dest: &std::path::Path) -> std::path::PathBuf {
    let mut name = dest.as_os_str().to_owned();
    name.push(".part");
    std::path::PathBuf::from(name)
}

/// A transport failure in a few words, secrets redacted.
fn transport_failure(e: &reqwest::Error) -> String {
    if e.is_timeout() {
        "timed out".to_owned()
    } else if e.is_connect() {
        "could not connect".to_owned()
    } else {
        format!("failed ({})", crate::redact::redact(&e.to_string()))
    }
}

/// Statuses worth another try.
fn transient(status: u16) -> bool {
    matches!(status, 408 | 429 | 500 | 502 | 503 | 504)
}

impl Http {
    /// A client with `timeout` per request (connect and read).
    pub(crate) fn new(timeout: Duration, policy: RetryPolicy) -> Result<Http, Error> {
        let client = reqwest::Client::builder()
            .connect_timeout(timeout.min(Duration::from_secs(10)))
            // A read that waits this long fails; a large download that keeps arriving
            // does not (a whole-request deadline would cut it off).
            .read_timeout(timeout)
            .redirect(reqwest::redirect::Policy::none())
            .user_agent(concat!("amldoctor/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| Error::access(format!("cannot set up the HTTP client: {e}")))?;
        Ok(Http {
            client,
            policy,
            headers: Vec::new(),
            final_statuses: Vec::new(),
        })
    }

    /// The same client, sending `name: value` with every request.
    pub(crate) fn with_header(mut self, name: &'static str, value: &str) -> Http {
        self.headers.push((name, value.to_owned()));
        self
    }

    /// The same client, taking `status` as the final answer instead of retrying it.
    pub(crate) fn final_status(mut self, status: u16) -> Http {
        self.final_statuses.push(status);
        self
    }

    /// Sends `method url` with the bearer `token` (none for discovery documents and
    /// storage SAS URLs, which must never see it) and an optional JSON `body`, retrying
    /// what is worth retrying. `trace` receives one redacted line per attempt.
    pub(crate) async fn send(
        &self,
        method: reqwest::Method,
        url: &str,
        token: Option<&str>,
        body: Option<&serde_json::Value>,
        trace: &mut dyn FnMut(String),
    ) -> Result<Reply, Error> {
        let parsed = checked_url(url)?;
        let mut waited = Duration::ZERO;
        let mut attempt = 0u32;
        loop {
            let request_id = client_request_id();
            let mut req = self
                .client
                .request(method.clone(), parsed.clone())
                .header("x-ms-client-request-id", &request_id);
            if let Some(token) = token {
                req = req.bearer_auth(token);
            }
            for (name, value) in &self.headers {
                req = req.header(*name, value);
            }
            if let Some(b) = body {
                req = req
                    .header("content-type", "application/json")
                    .body(serde_json::to_vec(b).unwrap_or_default());
            }
            let shown = crate::redact::redact(url).into_owned();
            let outcome = req.send().await;
            let (status, headers, failure) = match outcome {
                Ok(resp) => {
                    let status = resp.status().as_u16();
                    let headers = resp.headers().clone();
                    let sent: String = self
                        .headers
                        .iter()
                        .map(|(n, v)| format!(", {n}: {v}"))
                        .collect();
                    trace(format!(
                        "{method} {shown} -> {status} (client request id {request_id}{sent})"
                    ));
                    let last =
                        self.final_statuses.contains(&status) || attempt >= self.policy.max_retries;
                    if !transient(status) || last {
                        let body = resp.bytes().await.map_err(|e| {
                            Error::access(format!("{method} {shown}: the answer broke off: {e}"))
                        })?;
                        return Ok(Reply::new(shown.clone(), status, &headers, body.to_vec()));
                    }
                    (Some(status), headers, None)
                }
                Err(e) => {
                    let what = transport_failure(&e);
                    trace(format!(
                        "{method} {shown} -> {what} (client request id {request_id})"
                    ));
                    if attempt >= self.policy.max_retries {
                        return Err(Error::access(format!(
                            "{method} {shown} {what} after {} attempts",
                            attempt + 1
                        ))
                        .with_hint("check the network path to Azure (proxy, firewall, DNS)"));
                    }
                    (None, HeaderMap::new(), Some(what))
                }
            };
            let delay = self.delay(attempt, &headers);
            if waited.saturating_add(delay) > self.policy.budget {
                let why = status.map_or_else(
                    || failure.unwrap_or_default(),
                    |s| format!("kept answering {s}"),
                );
                // A connection that never got an answer is the network's, not the service's.
                let hint = if status.is_some() {
                    "the service is throttling or failing; try again later"
                } else {
                    "no answer came back: check the network path to Azure (proxy, firewall, DNS) and the endpoint's address"
                };
                return Err(Error::access(format!(
                    "{method} {shown} {why}; gave up after {} attempts and {} s of waiting (the next wait would be {} s)",
                    attempt + 1,
                    waited.as_secs(),
                    delay.as_secs()
                ))
                .with_hint(hint));
            }
            trace(format!("  retrying in {} ms", delay.as_millis()));
            tokio::time::sleep(delay).await;
            waited = waited.saturating_add(delay);
            attempt += 1;
        }
    }

    /// Streams `url` (a storage SAS URL: sent without any token) into `dest`, secrets
    /// redacted line by line, through
    /// `dest` + `.part` renamed on completion, so a file that exists is complete and an
    /// interrupted run leaves no half file under the final name. Retries like
    /// [`Http::send`]. Returns the bytes written.
    pub(crate) async fn download(
        &self,
        url: &str,
        dest: &std::path::Path,
        trace: &mut (dyn FnMut(String) + Send),
    ) -> Result<u64, Error> {
        let parsed = checked_url(url)?;
        let shown = crate::redact::redact(url).into_owned();
        let part = part_path(dest);
        let mut waited = Duration::ZERO;
        let mut attempt = 0u32;
        loop {
            let (failure, headers) = match self.download_once(&parsed, &part).await {
                Attempt::Done(bytes) => {
                    std::fs::rename(&part, dest).map_err(|e| Error::io("save", dest, &e))?;
                    trace(format!("GET {shown} -> 200 ({bytes} bytes)"));
                    return Ok(bytes);
                }
                Attempt::Local(e) => return Err(e),
                Attempt::Refused(status, headers) if !transient(status) => {
                    trace(format!("GET {shown} -> {status}"));
                    // Storage names its error in `x-ms-error-code` (AuthenticationFailed
                    // for an expired SAS), which the caller reads to list again.
                    return Err(Error::access(format!(
                        "downloading {shown}: the storage service answered with an error"
                    ))
                    .with_service(ServiceAnswer {
                        status,
                        code: header(&headers, "x-ms-error-code"),
                        request_id: service_request_id(&headers),
                    }));
                }
                Attempt::Refused(status, headers) => (format!("answered {status}"), headers),
                Attempt::Broken(why) => (why, HeaderMap::new()),
            };
            trace(format!("GET {shown} -> {failure}"));
            let delay = self.delay(attempt, &headers);
            if attempt >= self.policy.max_retries
                || waited.saturating_add(delay) > self.policy.budget
            {
                let _ = std::fs::remove_file(&part);
                return Err(Error::access(format!(
                    "downloading {shown}: {failure}, {} attempts",
                    attempt + 1
                )));
            }
            tokio::time::sleep(delay).await;
            waited = waited.saturating_add(delay);
            attempt += 1;
        }
    }

    /// One attempt at a download.
    async fn download_once(&self, url: &reqwest::Url, part: &std::path::Path) -> Attempt {
        use std::io::Write as _;
        let mut resp = match self
            .client
            .get(url.clone())
            .header("x-ms-client-request-id", client_request_id())
            .send()
            .await
        {
            Ok(resp) => resp,
            Err(e) => return Attempt::Broken(transport_failure(&e)),
        };
        let status = resp.status().as_u16();
        if status != 200 {
            return Attempt::Refused(status, resp.headers().clone());
        }
        // Saved files never hold secrets: every line is redacted as it streams.
        let mut file = match std::fs::File::create(part) {
            Ok(f) => crate::redact::LineRedactor::new(std::io::BufWriter::new(f)),
            Err(e) => return Attempt::Local(Error::io("create", part, &e)),
        };
        let mut bytes = 0u64;
        loop {
            match resp.chunk().await {
                Ok(Some(chunk)) => {
                    if let Err(e) = file.write_all(&chunk) {
                        return Attempt::Local(Error::io("write", part, &e));
                    }
                    bytes += chunk.len() as u64;
                }
                Ok(None) => break,
                Err(e) => return Attempt::Broken(transport_failure(&e)),
            }
        }
        match file.finish() {
            Ok(_) => Attempt::Done(bytes),
            Err(e) => Attempt::Local(Error::io("write", part, &e)),
        }
    }

    /// The wait before retry `attempt + 1`: what the service asked for, else exponential
    /// backoff with jitter.
    fn delay(&self, attempt: u32, headers: &HeaderMap) -> Duration {
        if let Some(asked) = retry_after(headers) {
            return asked;
        }
        // Resource Graph paces its 429 by the user quota's reset, not Retry-After
        // (its throttling guidance: `x-ms-user-quota-resets-after: hh:mm:ss`).
        if let Some(reset) = quota(headers)
            .filter(|q| q.remaining == 0)
            .and_then(|q| q.resets_after)
        {
            return reset.min(Duration::from_secs(60));
        }
        let exp = self
            .policy
            .base_delay
            .saturating_mul(2u32.saturating_pow(attempt))
            .min(self.policy.max_delay);
        // Up to a quarter more, so many clients do not retry in step.
        let jitter = exp.mul_f64(f64::from(pseudo_random() % 250) / 1000.0);
        exp + jitter
    }
}

/// `x-ms-retry-after-ms`, `retry-after-ms`, then `Retry-After` (seconds or an HTTP date).
pub(crate) fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    let text = |name: &str| {
        headers
            .get(name)
            .and_then(|v: &HeaderValue| v.to_str().ok())
    };
    for name in ["x-ms-retry-after-ms", "retry-after-ms"] {
        if let Some(ms) = text(name).and_then(|v| v.trim().parse::<u64>().ok()) {
            return Some(Duration::from_millis(ms));
        }
    }
    let value = text("retry-after")?.trim();
    if let Ok(secs) = value.parse::<u64>() {
        return Some(Duration::from_secs(secs));
    }
    let when = jiff::fmt::rfc2822::parse(value).ok()?.timestamp();
    let now = jiff::Timestamp::now();
    Some(Duration::from_secs(
        u64::try_from(when.as_second() - now.as_second()).unwrap_or(0),
    ))
}

/// The service's id of the request, for support: `x-ms-request-id`, else the
/// correlation id.
fn service_request_id(headers: &HeaderMap) -> Option<String> {
    ["x-ms-request-id", "x-ms-correlation-request-id"]
        .iter()
        .find_map(|h| headers.get(*h).and_then(|v| v.to_str().ok()))
        .map(str::to_owned)
}

/// A UUID-shaped id (version 4 layout) from the clock and a counter: unique enough to
/// find one request in the service's logs, without a random-number crate.
fn client_request_id() -> String {
    let a = pseudo_random();
    let b = pseudo_random();
    let c = pseudo_random();
    let d = pseudo_random();
    format!(
        "{:08x}-{:04x}-4{:03x}-{:04x}-{:08x}{:04x}",
        a,
        b & 0xffff,
        (b >> 16) & 0x0fff,
        (c & 0x3fff) | 0x8000,
        d,
        c >> 16
    )
}

// Truncation is the point: the low bits of the clock and of the mixed state.
#[allow(clippy::cast_possible_truncation)]
fn pseudo_random() -> u32 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static STATE: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let mut x = STATE.fetch_add(0x9E37_79B9_7F4A_7C15, Ordering::Relaxed) ^ (nanos as u64);
    // splitmix64
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (x ^ (x >> 31)) as u32
}

/// A 404: the service's sentence names what is missing; the hint lists the right
/// names with the group and workspace of the call filled in.
fn not_found(what: &str, reply: &Reply, code: Option<String>, message: String) -> Error {
    let segment = |name: &str| {
        let parts: Vec<&str> = reply.url.split(['/', '?']).collect();
        parts
            .windows(2)
            .find(|w| w[0].eq_ignore_ascii_case(name))
            .map(|w| w[1].to_owned())
    };
    let group = segment("resourceGroups").unwrap_or_else(|| "<group>".into());
    let hint = match (segment("workspaces"), segment("onlineEndpoints")) {
        (Some(ws), Some(ep)) => format!(
            "list the endpoints with 'az ml online-endpoint list -g {group} -w {ws} -o table' and the deployments of '{ep}' with 'az ml online-deployment list -e {ep} -g {group} -w {ws} -o table'"
        ),
        (Some(ws), None) => format!(
            "no workspace '{ws}' in group '{group}'? 'az ml workspace list -g {group} -o table' lists them"
        ),
        _ => "check the subscription, group and resource names".to_owned(),
    };
    Error::access(format!("{what}: {message}"))
        .with_service(ServiceAnswer {
            status: reply.status,
            code,
            request_id: reply.request_id.clone(),
        })
        .with_hint(hint)
}

/// An ARM error answer as one sentence: the service's message, its code and request id
/// kept for support, and the next step for the status.
pub(crate) fn arm_error(what: &str, reply: &Reply) -> Error {
    let body: serde_json::Value = serde_json::from_slice(&reply.body).unwrap_or_default();
    let err = &body["error"];
    let code = err["code"].as_str().map(str::to_owned);
    let message = err["message"]
        .as_str()
        .map(|m| {
            let mut said = vec![m.to_owned()];
            said.extend(inner_messages(err).into_iter().filter(|i| i != m));
            crate::redact::clean(&said.join(": ")).into_owned()
        })
        .unwrap_or_else(|| format!("the service answered {}", reply.status));
    let wrong_tenant = (reply.status == 401)
        .then(|| subscription_tenant(&message))
        .flatten();
    let hint = match (reply.status, wrong_tenant, &reply.claims) {
        (401, _, Some(claims)) => format!(
            "Conditional Access asks for a new sign-in that meets its claims challenge (the token was revoked, or the policy wants more, such as MFA): run az login --claims-challenge \"{claims}\" and try again; a service principal or managed identity cannot meet it, so ask the tenant's admins about the policy"
        ),
        (401, Some(tenant), None) => format!(
            "the token is from another tenant than the subscription's: run again with --tenant {tenant}"
        ),
        (status, _, _) => plain_hint(status).to_owned(),
    };
    if reply.status == 404 {
        return not_found(what, reply, code, message);
    }
    Error::access(format!("{what}: {message}"))
        .with_service(ServiceAnswer {
            status: reply.status,
            code,
            request_id: reply.request_id.clone(),
        })
        .with_hint(hint)
}

/// The `claims` of a claims challenge (`WWW-Authenticate: Bearer authorization_uri="…",
/// error="insufficient_claims", claims="eyJ…"`, as Resource Manager sends it under
/// Continuous Access Evaluation). Only base64 text is taken: it is printed in a command.
fn claims_challenge(www_authenticate: &str) -> Option<String> {
    let (_, rest) = www_authenticate.split_once("claims=\"")?;
    let value = rest.split('"').next()?;
    let ok = !value.is_empty()
        && value.len() <= 4096
        && value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=' | b'-' | b'_'));
    ok.then(|| value.to_owned())
}

/// What to do about a refused request, by its status.
fn plain_hint(status: u16) -> &'static str {
    match status {
        401 => {
            "the credential was refused: sign in again (az login) or check AZURE_CLIENT_ID, AZURE_TENANT_ID and AZURE_CLIENT_SECRET"
        }
        403 => {
            "the identity needs a role that can read the workspace and its endpoints, such as Reader or AzureML Data Scientist on the workspace"
        }
        _ => "try again later; if it persists, quote the request id to Azure support",
    }
}

/// The subscription's own tenant, as Resource Manager names it when a token of another
/// tenant was sent (`InvalidAuthenticationTokenTenant`: "It must match the tenant
/// 'https://sts.windows.net/{tenant}/' associated with this subscription").
fn subscription_tenant(message: &str) -> Option<String> {
    let (_, rest) = message.split_once("must match the tenant 'https://sts.windows.net/")?;
    let tenant = rest.split(['/', '\'']).next()?;
    let ok = !tenant.is_empty()
        && tenant
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.');
    ok.then(|| tenant.to_owned())
}

/// The messages under an error object, outer first: its `innererror` chain and each of
/// its `details` with theirs, where services put the real cause (Log Analytics: "The
/// request had some invalid properties", then "Query could not be parsed at 'x' on line
/// [1,5]"). Each message once.
pub(crate) fn inner_messages(err: &serde_json::Value) -> Vec<String> {
    fn walk(v: &serde_json::Value, depth: usize, out: &mut Vec<String>) {
        if depth > 8 {
            return;
        }
        for key in ["innererror", "innerError"] {
            let inner = &v[key];
            if let Some(m) = inner["message"].as_str()
                && !out.iter().any(|o| o == m)
            {
                out.push(m.to_owned());
            }
            if inner.is_object() {
                walk(inner, depth + 1, out);
            }
        }
        for d in v["details"].as_array().into_iter().flatten() {
            if let Some(m) = d["message"].as_str()
                && !out.iter().any(|o| o == m)
            {
                out.push(m.to_owned());
            }
            walk(d, depth + 1, out);
        }
    }
    let mut out = Vec::new();
    walk(err, 0, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_of_the_wrong_tenant_names_the_right_one() {
        // Resource Manager's InvalidAuthenticationTokenTenant message, as users paste it.
        let message = "The access token is from the wrong issuer 'https://sts.windows.net/11111111-aaaa-4aaa-8aaa-111111111111/'. It must match the tenant 'https://sts.windows.net/22222222-bbbb-4bbb-8bbb-222222222222/' associated with this subscription. Please use the authority (URL) 'https://login.windows.net/22222222-bbbb-4bbb-8bbb-222222222222' to get the token.";
        assert_eq!(
            subscription_tenant(message).as_deref(),
            Some("22222222-bbbb-4bbb-8bbb-222222222222")
        );
        assert_eq!(subscription_tenant("The credential was refused."), None);
    }

    #[test]
    fn a_used_up_graph_quota_paces_the_retry() {
        let http = Http::new(Duration::from_secs(5), RetryPolicy::default()).unwrap();
        let mut h = HeaderMap::new();
        h.insert("x-ms-user-quota-remaining", HeaderValue::from_static("0"));
        h.insert(
            "x-ms-user-quota-resets-after",
            HeaderValue::from_static("00:00:07"),
        );
        assert_eq!(http.delay(0, &h), Duration::from_secs(7));
        // Retry-After, when sent, still decides.
        h.insert("retry-after", HeaderValue::from_static("2"));
        assert_eq!(http.delay(0, &h), Duration::from_secs(2));
    }

    #[test]
    fn inner_errors_give_their_messages_outer_first() {
        // The syntax-error answer of the Log Analytics query API (Azure Monitor docs,
        // "Timeouts" page, common API errors).
        let err = serde_json::json!({
            "message": "The request had some invalid properties",
            "code": "BadArgumentError",
            "innererror": {
                "code": "SyntaxError",
                "message": "A recognition error occurred in the query.",
                "innererror": {
                    "code": "SYN0002",
                    "message": "Query could not be parsed at 'foo' on line [1,4]"
                }
            },
            "details": [{"code": "EngineError", "message": "A recognition error occurred in the query."}]
        });
        assert_eq!(
            inner_messages(&err),
            [
                "A recognition error occurred in the query.",
                "Query could not be parsed at 'foo' on line [1,4]"
            ]
        );
        assert!(inner_messages(&serde_json::json!({"message": "x"})).is_empty());
    }

    #[test]
    fn only_https_or_loopback_http() {
        let ok = |u: &str| allowed(&reqwest::Url::parse(u).unwrap());
        assert!(ok("https://management.azure.com/x"));
        assert!(
            ok("http://127.0.0.1:8080/x") && ok("http://localhost/x") && ok("http://[::1]:1/x")
        );
        assert!(!ok("http://management.azure.com/x"));
        assert!(!ok("http://169.254.169.254/metadata"));
        assert!(!ok("ftp://127.0.0.1/x"));
    }

    #[test]
    fn retry_after_headers_in_their_order() {
        let mut h = HeaderMap::new();
        h.insert("retry-after", HeaderValue::from_static("7"));
        assert_eq!(retry_after(&h), Some(Duration::from_secs(7)));
        h.insert("x-ms-retry-after-ms", HeaderValue::from_static("250"));
        assert_eq!(retry_after(&h), Some(Duration::from_millis(250)));
        assert_eq!(retry_after(&HeaderMap::new()), None);
    }

    #[test]
    fn request_ids_look_like_uuids_and_differ() {
        let a = client_request_id();
        let b = client_request_id();
        assert_ne!(a, b);
        assert_eq!(a.len(), 36);
        assert_eq!(&a[14..15], "4");
    }

    #[test]
    fn resource_graph_quota_headers() {
        let mut h = HeaderMap::new();
        h.insert("x-ms-user-quota-remaining", HeaderValue::from_static("0"));
        h.insert(
            "x-ms-user-quota-resets-after",
            HeaderValue::from_static("00:01:05"),
        );
        assert_eq!(
            quota(&h),
            Some(Quota {
                remaining: 0,
                resets_after: Some(Duration::from_secs(65))
            })
        );
        h.insert(
            "x-ms-user-quota-resets-after",
            HeaderValue::from_static("soon"),
        );
        assert_eq!(quota(&h).unwrap().resets_after, None);
        assert_eq!(quota(&HeaderMap::new()), None);
    }

    #[test]
    fn a_claims_challenge_is_read_from_www_authenticate() {
        let header = r#"Bearer authorization_uri="https://login.microsoftonline.com/common/oauth2/authorize", error="insufficient_claims", claims="eyJhY2Nlc3NfdG9rZW4iOnsibmJmIjp7ImVzc2VudGlhbCI6dHJ1ZSwidmFsdWUiOiIxNzAwMDAwMDAwIn19fQ==""#;
        assert_eq!(
            claims_challenge(header).as_deref(),
            Some(
                "eyJhY2Nlc3NfdG9rZW4iOnsibmJmIjp7ImVzc2VudGlhbCI6dHJ1ZSwidmFsdWUiOiIxNzAwMDAwMDAwIn19fQ=="
            )
        );
        assert_eq!(
            claims_challenge(r#"Bearer authorization_uri="https://x""#),
            None
        );
        // Anything but base64 is not put in a printed command.
        assert_eq!(claims_challenge(r#"Bearer claims="a; rm -rf ~""#), None);
    }

    #[test]
    fn arm_errors_keep_code_and_request_id() {
        let reply = Reply {
            url: "https://management.azure.com/subscriptions/s/resourceGroups/rg1/providers/Microsoft.MachineLearningServices/workspaces/ws1/onlineEndpoints/ep9/deployments/blue/getLogs?api-version=1".into(),
            status: 404,
            request_id: Some("req-1".into()),
            location: None,
            async_operation: None,
            retry_after: None,
            quota: None,
            subscription_limit_hit: false,
            claims: None,
            body: br#"{"error":{"code":"ResourceNotFound","message":"The Resource 'ep9' was not found."}}"#.to_vec(),
        };
        let e = arm_error("reading the logs of ep9/blue", &reply);
        assert_eq!(
            e.to_string(),
            "reading the logs of ep9/blue: The Resource 'ep9' was not found. (HTTP 404 ResourceNotFound, request id req-1)"
        );
        assert!(
            e.hint
                .unwrap()
                .contains("'az ml online-endpoint list -g rg1 -w ws1 -o table'")
        );
    }
}
