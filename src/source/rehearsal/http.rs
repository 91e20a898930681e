//! A plain HTTP/1.1 client for the inference server on 127.0.0.1: one request per
//! connection (`Connection: close`), a deadline on the whole exchange, and the body read
//! up to a bound. The Azure client (reqwest on tokio) is built for TLS and retries; a
//! rehearsal needs neither, and must time exactly one request.

use std::fmt::Write as _;
use std::io::{Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::time::{Duration, Instant};

/// The most body bytes kept.
const BODY_LIMIT: u64 = 1 << 20;

/// What the server answered.
#[derive(Debug, Clone)]
pub(crate) struct Answer {
    pub(crate) status: u16,
    /// Header names in lower case.
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) body: Vec<u8>,
    pub(crate) latency: Duration,
}

impl Answer {
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Sends one request to `127.0.0.1:port`; an error says what went wrong in words.
pub(crate) fn request(
    port: u16,
    method: &str,
    path: &str,
    body: Option<(&[u8], &str)>,
    timeout: Duration,
) -> Result<Answer, String> {
    let start = Instant::now();
    let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
    let mut stream = TcpStream::connect_timeout(&addr, timeout).map_err(|e| e.to_string())?;
    let left = |start: Instant| {
        timeout
            .checked_sub(start.elapsed())
            .filter(|d| !d.is_zero())
            .unwrap_or(Duration::from_millis(1))
    };
    stream.set_write_timeout(Some(left(start))).ok();
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\nUser-Agent: amldoctor-rehearse\r\n"
    );
    if let Some((bytes, content_type)) = body {
        let _ = write!(
            head,
            "Content-Type: {content_type}\r\nContent-Length: {}\r\n",
            bytes.len()
        );
    }
    head.push_str("\r\n");
    stream
        .write_all(head.as_bytes())
        .and_then(|()| stream.write_all(body.map_or(&[][..], |b| b.0)))
        .map_err(|e| e.to_string())?;
    let mut raw = Vec::new();
    let mut buf = [0u8; 16 * 1024];
    loop {
        stream.set_read_timeout(Some(left(start))).ok();
        match stream.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                raw.extend_from_slice(&buf[..n]);
                if raw.len() as u64 > BODY_LIMIT + 64 * 1024 {
                    break;
                }
            }
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                return Err(format!("no answer within {} ms", timeout.as_millis()));
            }
            Err(e) => return Err(e.to_string()),
        }
    }
    let mut answer = parse(&raw).ok_or_else(|| {
        if raw.is_empty() {
            "the server closed the connection without answering".to_owned()
        } else {
            "the server's answer is not HTTP".to_owned()
        }
    })?;
    answer.latency = start.elapsed();
    Ok(answer)
}

/// The status, headers and body of a complete response.
fn parse(raw: &[u8]) -> Option<Answer> {
    let end = memchr::memmem::find(raw, b"\r\n\r\n")?;
    let head = String::from_utf8_lossy(&raw[..end]);
    let mut lines = head.split("\r\n");
    let status = lines.next()?.split_whitespace().nth(1)?.parse().ok()?;
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let rest = &raw[end + 4..];
    let chunked = headers
        .iter()
        .any(|(n, v)| n == "transfer-encoding" && v.eq_ignore_ascii_case("chunked"));
    let mut body = if chunked {
        dechunk(rest)
    } else {
        rest.to_vec()
    };
    body.truncate(usize::try_from(BODY_LIMIT).unwrap_or(usize::MAX));
    Some(Answer {
        status,
        headers,
        body,
        latency: Duration::ZERO,
    })
}

fn dechunk(mut rest: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(eol) = memchr::memmem::find(rest, b"\r\n") {
        let size_text = String::from_utf8_lossy(&rest[..eol]);
        let size_hex = size_text.split(';').next().unwrap_or("").trim();
        let Ok(size) = usize::from_str_radix(size_hex, 16) else {
            break;
        };
        rest = &rest[eol + 2..];
        if size == 0 || rest.len() < size {
            out.extend_from_slice(&rest[..size.min(rest.len())]);
            break;
        }
        out.extend_from_slice(&rest[..size]);
        rest = rest.get(size + 2..).unwrap_or_default();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_plain_and_a_chunked_answer() {
        let a = parse(
            b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nX-Ms-Run-Function-Failed: False\r\n\r\n[4.1]",
        )
        .unwrap();
        assert_eq!(a.status, 200);
        assert_eq!(a.header("x-ms-run-function-failed"), Some("False"));
        assert_eq!(a.body, b"[4.1]");
        let c = parse(b"HTTP/1.1 500 INTERNAL SERVER ERROR\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nabcd\r\n2\r\nef\r\n0\r\n\r\n")
            .unwrap();
        assert_eq!(c.status, 500);
        assert_eq!(c.body, b"abcdef");
        assert!(parse(b"garbage").is_none());
    }
}
