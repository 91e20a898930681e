//! The scoring probe of `amldoctor score`: POSTs the request body to a scoring URI a
//! bounded number of times, a bounded number at once, and records how each request
//! ended as the caller sees it. Unlike the Azure client it never retries (a retry would
//! hide what the caller gets) and it follows no redirect. The credential goes only into
//! the `Authorization` header of these requests: it is never traced, printed or kept.

use std::fmt::Write as _;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use http_body_util::BodyExt as _;
use reqwest::header::HeaderMap;

use crate::error::Error;
use crate::scoring::sample::{Headers, Outcome, Sample};

/// The most of an answer's body read; the rest is counted, not kept.
const BODY_KEPT: usize = 300;

/// What to send.
#[derive(Clone)]
pub(crate) struct Probe {
    pub url: String,
    /// The key or token sent as `Authorization: Bearer …`.
    pub credential: Option<String>,
    /// Sent as `azureml-model-deployment`, to reach one deployment whatever the traffic.
    pub deployment: Option<String>,
    pub body: Arc<Vec<u8>>,
    pub content_type: String,
    pub count: u64,
    pub concurrency: u64,
    pub timeout: Duration,
    /// The start of every `x-ms-client-request-id` (`amldoctor-1a2b3c4d`).
    pub id_prefix: String,
}

impl std::fmt::Debug for Probe {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Probe")
            .field("url", &crate::redact::redact(&self.url))
            .field(
                "credential",
                &self.credential.as_ref().map(|_| "<redacted>"),
            )
            .field("deployment", &self.deployment)
            .field("count", &self.count)
            .field("concurrency", &self.concurrency)
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

impl Probe {
    /// `--debug`'s line for one request: what was sent (the credential only as
    /// `<redacted>`) and how it ended, with the ids a support request needs.
    pub(crate) fn trace(&self, sample: &Sample) -> String {
        let mut sent = vec![
            format!("content-type {}", self.content_type),
            format!("x-ms-client-request-id {}", sample.client_request_id),
        ];
        if let Some(d) = &self.deployment {
            sent.push(format!("azureml-model-deployment {d}"));
        }
        if self.credential.is_some() {
            sent.push("authorization Bearer <redacted>".to_owned());
        }
        let ended = match &sample.outcome {
            Outcome::Status(s) => format!("HTTP {s}"),
            other => other.label(),
        };
        let mut line = format!(
            "score request {}: POST {} ({}; {} bytes) -> {ended} after {} ms, {} bytes received",
            sample.index + 1,
            crate::redact::redact(&self.url),
            sent.join(", "),
            sample.bytes_sent,
            sample.latency.as_millis(),
            sample.bytes_received
        );
        if let Some(id) = &sample.headers.request_id {
            let _ = write!(line, "; x-request-id {id}");
        }
        if let Some(e) = &sample.error {
            let _ = write!(line, "; {}", crate::redact::redact(e));
        }
        line
    }
}

/// A client request id the service accepts: letters, digits, `-` and `_`, at most 40.
pub(crate) fn client_request_id(prefix: &str, index: u64) -> String {
    let mut id: String = format!("{prefix}-{}", index + 1)
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .collect();
    id.truncate(40);
    id
}

/// A prefix unique enough to find this run's requests in the service's logs.
pub(crate) fn id_prefix() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let low = u64::try_from(nanos % (1u128 << 64)).unwrap_or(0);
    let mixed = low ^ u64::from(std::process::id()).rotate_left(32);
    format!("amldoctor-{:08x}", mixed & 0xffff_ffff)
}

/// Sends the requests; `done` is called after each one (for a progress bar).
pub(crate) fn run(probe: &Probe, done: Arc<dyn Fn() + Send + Sync>) -> Result<Vec<Sample>, Error> {
    let url = super::azure::http::checked_url(&probe.url).map_err(|e| {
        e.with_hint("amldoctor sends a scoring credential only over https (or to this machine); a Kubernetes endpoint that allows plain http must be scored with another client")
    })?;
    let client = reqwest::Client::builder()
        .timeout(probe.timeout)
        .redirect(reqwest::redirect::Policy::none())
        // Bytes as they travel: the bandwidth limit counts the wire, not the decoded body.
        .no_gzip()
        .no_deflate()
        .user_agent(concat!("amldoctor/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(|e| Error::access(format!("cannot set up the HTTP client: {e}")))?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Error::access(format!("cannot start the async runtime: {e}")))?;
    let next = Arc::new(AtomicU64::new(0));
    let probe = Arc::new(probe.clone());
    let samples = runtime.block_on(async move {
        let mut workers = tokio::task::JoinSet::new();
        for _ in 0..probe.concurrency.clamp(1, probe.count.max(1)) {
            let (client, url, probe, next, done) = (
                client.clone(),
                url.clone(),
                probe.clone(),
                next.clone(),
                done.clone(),
            );
            workers.spawn(async move {
                let mut mine = Vec::new();
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= probe.count {
                        break;
                    }
                    mine.push(one(&client, &url, &probe, index).await);
                    done();
                }
                mine
            });
        }
        let mut all = Vec::new();
        while let Some(batch) = workers.join_next().await {
            all.extend(batch.unwrap_or_default());
        }
        all
    });
    let mut samples = samples;
    samples.sort_by_key(|s| s.index);
    Ok(samples)
}

/// One request.
async fn one(client: &reqwest::Client, url: &reqwest::Url, probe: &Probe, index: u64) -> Sample {
    let id = client_request_id(&probe.id_prefix, index);
    let mut request = client
        .post(url.clone())
        .header("content-type", &probe.content_type)
        .header("x-ms-client-request-id", &id)
        // Says the client reads trailers, where the bandwidth-delay fields may come.
        .header("te", "trailers")
        .body(probe.body.as_ref().clone());
    if let Some(c) = &probe.credential {
        request = request.bearer_auth(c);
    }
    if let Some(d) = &probe.deployment {
        request = request.header("azureml-model-deployment", d);
    }
    let started = Instant::now();
    let mut sample = Sample {
        index,
        client_request_id: id,
        outcome: Outcome::Timeout,
        latency: Duration::ZERO,
        bytes_sent: probe.body.len() as u64,
        bytes_received: 0,
        headers: Headers::default(),
        body_start: String::new(),
        error: None,
    };
    match request.send().await {
        Ok(response) => {
            sample.outcome = Outcome::Status(response.status().as_u16());
            sample.headers = headers(response.headers());
            // Read frame by frame: the body's data, then the trailers, where the service
            // may send its bandwidth-delay fields instead of in the headers.
            let mut body = http::Response::from(response).into_body();
            let mut kept = Vec::new();
            loop {
                match body.frame().await {
                    Some(Ok(frame)) => match frame.into_data() {
                        Ok(chunk) => {
                            sample.bytes_received += chunk.len() as u64;
                            let room = BODY_KEPT.saturating_sub(kept.len());
                            kept.extend_from_slice(&chunk[..chunk.len().min(room)]);
                        }
                        Err(frame) => {
                            if let Some(t) = frame.trailers_ref() {
                                bandwidth_trailers(&mut sample.headers, t);
                            }
                        }
                    },
                    None => break,
                    Some(Err(e)) => {
                        // The status came but the whole body did not: the caller got no
                        // usable answer, whatever the status said.
                        sample.outcome = if e.is_timeout() {
                            Outcome::Timeout
                        } else {
                            Outcome::Reset
                        };
                        sample.error = Some(format!(
                            "the answer broke off after its status line: {}",
                            failure_text(&e)
                        ));
                        break;
                    }
                }
            }
            let text = String::from_utf8_lossy(&kept);
            sample.body_start = crate::redact::clean(text.trim()).into_owned();
        }
        Err(e) => {
            sample.outcome = classify(&e);
            sample.error = Some(failure_text(&e));
        }
    }
    sample.latency = started.elapsed();
    if let Some(secret) = probe.credential.as_deref() {
        hide(&mut sample, secret);
    }
    sample
}

/// The credential wherever an answer could echo it back (a body that quotes the
/// rejected key, a header, the client's error text).
fn hide(sample: &mut Sample, secret: &str) {
    if secret.len() < 4 {
        return;
    }
    let scrub = |text: &mut String| {
        if text.contains(secret) {
            *text = text.replace(secret, "***");
        }
    };
    scrub(&mut sample.body_start);
    if let Some(e) = sample.error.as_mut() {
        scrub(e);
    }
    let h = &mut sample.headers;
    for value in [
        &mut h.request_id,
        &mut h.model_error_status,
        &mut h.model_error_reason,
        &mut h.retry_after,
        &mut h.deployment,
        &mut h.location,
    ]
    .into_iter()
    .flatten()
    {
        scrub(value);
    }
}

fn header(h: &HeaderMap, name: &str) -> Option<String> {
    h.get(name)
        .and_then(|v| v.to_str().ok())
        .map(|v| crate::redact::clean(v.trim()).into_owned())
        .filter(|v| !v.is_empty())
}

/// The bandwidth-delay fields of the trailers, where the headers had none: the trailers
/// are read as the headers are.
fn bandwidth_trailers(into: &mut Headers, trailers: &HeaderMap) {
    let sent = headers(trailers);
    into.bandwidth_request_delay_ms = into
        .bandwidth_request_delay_ms
        .or(sent.bandwidth_request_delay_ms);
    into.bandwidth_response_delay_ms = into
        .bandwidth_response_delay_ms
        .or(sent.bandwidth_response_delay_ms);
}

fn headers(h: &HeaderMap) -> Headers {
    let millis = |name: &str| header(h, name).and_then(|v| v.parse::<u64>().ok());
    Headers {
        request_id: header(h, "x-request-id"),
        model_error_status: header(h, "ms-azureml-model-error-statuscode"),
        model_error_reason: header(h, "ms-azureml-model-error-reason"),
        bandwidth_request_delay_ms: millis("ms-azureml-bandwidth-request-delay-ms"),
        bandwidth_response_delay_ms: millis("ms-azureml-bandwidth-response-delay-ms"),
        retry_after: header(h, "retry-after"),
        deployment: header(h, "azureml-model-deployment"),
        // Where a redirect points, without its query.
        location: header(h, "location")
            .map(|l| l.split(['?', '#']).next().unwrap_or("").to_owned()),
    }
}

/// The error and its causes, one line, secrets redacted.
fn failure_text(e: &reqwest::Error) -> String {
    let mut text = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        let more = s.to_string();
        if !text.contains(&more) {
            text.push_str(": ");
            text.push_str(&more);
        }
        source = s.source();
    }
    crate::redact::clean(&crate::redact::redact(&text)).into_owned()
}

fn classify(e: &reqwest::Error) -> Outcome {
    let text = failure_text(e).to_ascii_lowercase();
    if e.is_timeout() {
        Outcome::Timeout
    } else if text.contains("certificate") || text.contains("tls") || text.contains("ssl") {
        Outcome::Tls
    } else if e.is_connect() {
        Outcome::Connect
    } else {
        Outcome::Reset
    }
}

/// Requests done of all, on a terminal's stderr, for more than a few requests.
pub(crate) fn progress_bar(count: u64) -> indicatif::ProgressBar {
    if count <= 5 || !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(count);
    if let Ok(style) =
        indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} requests ({elapsed})")
    {
        bar.set_style(style);
    }
    bar
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_request_ids_are_what_the_service_accepts() {
        let id = client_request_id("amldoctor-1a2b3c4d", 41);
        assert_eq!(id, "amldoctor-1a2b3c4d-42");
        let long = client_request_id(&"x".repeat(60), 0);
        assert_eq!(long.len(), 40);
        let odd = client_request_id("a b/c", 0);
        assert_eq!(odd, "abc-1");
        assert!(id_prefix().starts_with("amldoctor-") && id_prefix().len() == 18);
    }
}
