//! A fake of the Azure endpoints amldoctor calls, on 127.0.0.1 inside the test process:
//! a plain HTTP/1.1 server whose answers a test scripts per request, and which records
//! every request it got. It also answers the App Service managed-identity token call,
//! so the real azure_identity credential signs in against it.

use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The token the fake hands out; it must never show in amldoctor's output.
pub(crate) const TOKEN: &str = "FAKE-ACCESS-TOKEN-5f2a9c";
/// The subscription every live test names.
pub(crate) const SUB: &str = "00000000-0000-0000-0000-0000000000aa";
/// The header secret managed identity sends.
pub(crate) const IDENTITY_HEADER: &str = "fake-identity-header-77";

/// One request the fake received.
#[derive(Debug, Clone)]
pub(crate) struct Request {
    pub method: String,
    /// Path and query.
    pub target: String,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Request {
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// A scripted answer.
#[derive(Debug, Clone)]
pub(crate) struct Answer {
    pub status: u16,
    pub headers: Vec<(&'static str, String)>,
    pub body: String,
    /// Sent after the body (chunked, announced in `Trailer`), as the scoring service
    /// sends its bandwidth-delay fields.
    pub trailers: Vec<(&'static str, String)>,
    /// Wait this long before answering.
    pub delay: Duration,
}

impl Answer {
    pub(crate) fn json(status: u16, body: &str) -> Answer {
        Answer {
            status,
            headers: vec![("x-ms-request-id", "fake-request-0001".to_owned())],
            body: body.to_owned(),
            trailers: Vec::new(),
            delay: Duration::ZERO,
        }
    }

    pub(crate) fn with_trailer(mut self, name: &'static str, value: &str) -> Answer {
        self.trailers.push((name, value.to_owned()));
        self
    }

    pub(crate) fn with_header(mut self, name: &'static str, value: &str) -> Answer {
        self.headers.push((name, value.to_owned()));
        self
    }

    /// Closes the connection without answering (a reset as the client sees it).
    pub(crate) fn reset() -> Answer {
        Answer::json(0, "")
    }

    pub(crate) fn slow(mut self, delay: Duration) -> Answer {
        self.delay = delay;
        self
    }
}

type Handler = dyn Fn(&Request, usize) -> Answer + Send + Sync;

/// The server; stops when dropped.
pub(crate) struct FakeAzure {
    pub port: u16,
    pub requests: Arc<Mutex<Vec<Request>>>,
    stop: Arc<AtomicBool>,
}

impl FakeAzure {
    /// Serves `handler(request, how many ARM requests came before)` for ARM calls, and
    /// tokens for the managed-identity endpoint `/msi/token`.
    pub(crate) fn start(
        handler: impl Fn(&Request, usize) -> Answer + Send + Sync + 'static,
    ) -> FakeAzure {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let port = listener.local_addr().unwrap().port();
        let requests = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let handler: Arc<Handler> = Arc::new(handler);
        let (reqs, stopped) = (requests.clone(), stop.clone());
        std::thread::spawn(move || {
            // Bounded: it ends when the test drops the server, or after 60 s.
            let started = std::time::Instant::now();
            while !stopped.load(Ordering::Relaxed) && started.elapsed() < Duration::from_secs(60) {
                match listener.accept() {
                    Ok((stream, _)) => {
                        let (h, r) = (handler.clone(), reqs.clone());
                        std::thread::spawn(move || serve(stream, &*h, &r));
                    }
                    Err(_) => std::thread::sleep(Duration::from_millis(5)),
                }
            }
        });
        FakeAzure {
            port,
            requests,
            stop,
        }
    }

    pub(crate) fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// A sandbox whose managed identity signs in at this fake and whose Resource
    /// Manager calls go to it, with `retry_budget` seconds of waiting for retries.
    pub(crate) fn sandbox(&self, name: &str, retry_budget: &str) -> super::Sandbox {
        super::Sandbox::new(name)
            .env("IDENTITY_ENDPOINT", &format!("{}/msi/token", self.url()))
            .env("IDENTITY_HEADER", IDENTITY_HEADER)
            .env("AMLDOCTOR_ARM_ENDPOINT", &self.url())
            .env("AMLDOCTOR_RETRY_BUDGET", retry_budget)
    }

    /// The ARM requests received (token requests left out).
    pub(crate) fn arm_requests(&self) -> Vec<Request> {
        self.requests
            .lock()
            .unwrap()
            .iter()
            .filter(|r| !r.target.starts_with("/msi/"))
            .cloned()
            .collect()
    }
}

impl Drop for FakeAzure {
    /// amldoctor only reads Azure, proved on every live test: whatever a test asked, the
    /// fake was sent only reads (GET, HEAD, OPTIONS) and POSTs to the documented read
    /// operations, never PUT, PATCH, DELETE or another POST.
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if std::thread::panicking() {
            return;
        }
        let requests = self.requests.lock().unwrap();
        let writes: Vec<String> = requests
            .iter()
            .filter(|r| !reads_only(r))
            .map(|r| format!("{} {}", r.method, r.target))
            .collect();
        assert!(
            writes.is_empty(),
            "amldoctor sent requests that are not reads: {writes:#?}"
        );
    }
}

/// The POSTs that read: container logs, keys and tokens, the workspace diagnosis, a
/// Resource Graph or Log Analytics query, and a scoring request.
const READ_POSTS: &[&str] = &[
    "/getLogs?",
    "/listKeys?",
    "/token",
    "/diagnose?",
    "/providers/Microsoft.ResourceGraph/resources?",
    "/query",
    "/score",
];

fn reads_only(r: &Request) -> bool {
    match r.method.as_str() {
        "GET" | "HEAD" | "OPTIONS" => true,
        "POST" => READ_POSTS.iter().any(|p| r.target.contains(p)),
        _ => false,
    }
}

fn serve(stream: TcpStream, handler: &Handler, requests: &Mutex<Vec<Request>>) {
    stream.set_nonblocking(false).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut line = String::new();
    if reader.read_line(&mut line).unwrap_or(0) == 0 {
        return;
    }
    let mut parts = line.split_whitespace();
    let method = parts.next().unwrap_or("").to_owned();
    let target = parts.next().unwrap_or("").to_owned();
    let mut headers = Vec::new();
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h).unwrap_or(0) == 0 || h.trim().is_empty() {
            break;
        }
        if let Some((k, v)) = h.split_once(':') {
            headers.push((k.trim().to_owned(), v.trim().to_owned()));
        }
    }
    let length: usize = headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0u8; length];
    let _ = reader.read_exact(&mut body);
    let request = Request {
        method,
        target,
        headers,
        body: String::from_utf8_lossy(&body).into_owned(),
    };
    let answer = if request.target.starts_with("/msi/token") {
        token_answer(&request)
    } else if let Some(refusal) = wrong_audience(&request) {
        refusal
    } else {
        let before = requests
            .lock()
            .unwrap()
            .iter()
            .filter(|r| !r.target.starts_with("/msi/"))
            .count();
        handler(&request, before)
    };
    requests.lock().unwrap().push(request);
    std::thread::sleep(answer.delay);
    if answer.status == 0 {
        let _ = stream.shutdown(std::net::Shutdown::Both);
        return;
    }
    let mut out = stream;
    let framing = if answer.trailers.is_empty() {
        format!("content-length: {}", answer.body.len())
    } else {
        let names: Vec<&str> = answer.trailers.iter().map(|(k, _)| *k).collect();
        format!(
            "transfer-encoding: chunked\r\ntrailer: {}",
            names.join(", ")
        )
    };
    let mut head = format!(
        "HTTP/1.1 {} X\r\ncontent-type: application/json\r\n{framing}\r\nconnection: close\r\n",
        answer.status
    );
    for (k, v) in &answer.headers {
        let _ = write!(head, "{k}: {v}\r\n");
    }
    head.push_str("\r\n");
    let _ = out.write_all(head.as_bytes());
    if answer.trailers.is_empty() {
        let _ = out.write_all(answer.body.as_bytes());
        return;
    }
    let mut chunked = String::new();
    if !answer.body.is_empty() {
        let _ = write!(chunked, "{:x}\r\n{}\r\n", answer.body.len(), answer.body);
    }
    chunked.push_str("0\r\n");
    for (k, v) in &answer.trailers {
        let _ = write!(chunked, "{k}: {v}\r\n");
    }
    chunked.push_str("\r\n");
    let _ = out.write_all(chunked.as_bytes());
}

/// The token of each audience: Resource Manager's is [`TOKEN`], the AML data plane's
/// (`https://ml.azure.com` in every cloud, or the cloud's own `ml.azure.cn` /
/// `ml.azure.us`) ends `-ML`, Log Analytics' ends `-LA`, so a token asked for the wrong
/// audience is refused as the service would refuse it.
fn token_for(target: &str) -> String {
    let target = target.to_ascii_lowercase();
    if target.contains("ml.azure.") {
        format!("{TOKEN}-ML")
    } else if target.contains("loganalytics") {
        format!("{TOKEN}-LA")
    } else {
        TOKEN.to_owned()
    }
}

/// Resource Manager and Log Analytics refuse a token of another audience, as they do:
/// ARM with a 401 `InvalidAuthenticationTokenAudience` (its message as the service words
/// it), Log Analytics with a 403 `InvalidTokenError` (as users of its API quote it, e.g.
/// Azure/azure-sdk-for-js#15399 on a token without the `api.loganalytics.io` audience). The data plane (run history, artifacts)
/// takes both its own and Resource Manager's, and scoring is the test's to judge.
fn wrong_audience(request: &Request) -> Option<Answer> {
    let bearer = request.header("authorization")?.strip_prefix("Bearer ")?;
    let target = request.target.as_str();
    if target.starts_with("/subscriptions/") || target.starts_with("/providers/") {
        return (bearer != TOKEN).then(|| {
            Answer::json(
                401,
                r#"{"error":{"code":"InvalidAuthenticationTokenAudience","message":"The access token has been obtained for wrong audience or resource 'https://ml.azure.com'. It should exactly match with one of the allowed audiences 'https://management.core.windows.net/','https://management.core.windows.net','https://management.azure.com/','https://management.azure.com'."}}"#,
            )
        });
    }
    if target.starts_with("/v1/workspaces/") {
        let ok = bearer == format!("{TOKEN}-LA");
        return (!ok).then(|| {
            Answer::json(
                403,
                r#"{"error":{"message":"The provided authentication is not valid for this resource","code":"InvalidTokenError"}}"#,
            )
        });
    }
    None
}

/// The App Service managed-identity token answer (expires_on as a string of seconds).
fn token_answer(request: &Request) -> Answer {
    let header_ok = request
        .header("x-identity-header")
        .is_some_and(|v| v == IDENTITY_HEADER);
    if !header_ok {
        return Answer::json(400, r#"{"error":"invalid_request"}"#);
    }
    let expires = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
        + 3600;
    let token = token_for(&request.target);
    Answer::json(
        200,
        &format!(
            r#"{{"access_token":"{token}","expires_on":"{expires}","token_type":"Bearer","resource":"https://management.azure.com"}}"#
        ),
    )
}

/// The read-only proof fails when a write reaches the fake: a PUT sent by hand.
#[test]
fn a_write_sent_to_the_fake_fails_the_test() {
    use std::io::{Read as _, Write as _};
    let fake = FakeAzure::start(|_, _| Answer::json(200, "{}"));
    for (method, path) in [
        ("PUT", "/subscriptions/s/x"),
        ("POST", "/subscriptions/s/x/start"),
    ] {
        let mut s = TcpStream::connect(("127.0.0.1", fake.port)).unwrap();
        write!(
            s,
            "{method} {path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-length: 0\r\n\r\n"
        )
        .unwrap();
        let mut answer = String::new();
        let _ = s.read_to_string(&mut answer);
    }
    assert!(fake.requests.lock().unwrap().iter().all(|r| !reads_only(r)));
    let dropped = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| drop(fake)));
    assert!(
        dropped.is_err(),
        "a PUT and a POST that changes something were not refused"
    );
}
