//! The user error files (`user/error.txt`, `user/error/<node>/<process>.txt`): each
//! failure is an `Entry script run() failed for …` header, often followed by its
//! traceback. Failures are grouped by method, exception and message, the exception
//! taken from the traceback's last line when there is one.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use regex::Regex;
use serde::Serialize;

use super::line::{Line, evidence};
use super::message::{self, Shape};

/// The entry-script method an error was raised in. The order (unknown, init, run)
/// matches the text order, which groups are sorted by.
#[derive(
    Debug,
    Clone,
    Copy,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    schemars::JsonSchema,
)]
pub enum Phase {
    /// The file does not say.
    #[default]
    #[serde(rename = "")]
    Unknown,
    #[serde(rename = "init")]
    Init,
    #[serde(rename = "run")]
    Run,
}

impl Phase {
    fn parse(text: &str) -> Phase {
        match text {
            "init" => Phase::Init,
            "run" => Phase::Run,
            _ => Phase::Unknown,
        }
    }

    /// `init`, `run`, or empty.
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Unknown => "",
            Phase::Init => "init",
            Phase::Run => "run",
        }
    }
}

/// An error message from the user error files, grouped by exception and message.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct ErrorKey {
    pub phase: Phase,
    pub exception: String,
    pub message: String,
}

/// The failures of one file: count, first occurrence and its timestamp, per group.
pub(super) type ErrorGroups = BTreeMap<ErrorKey, (u64, Line, String)>;

struct Patterns {
    entry_failed: Regex,
    exception_line: Regex,
}

fn patterns() -> &'static Patterns {
    static P: OnceLock<Patterns> = OnceLock::new();
    P.get_or_init(|| {
        let r = |p: &str| Regex::new(p).unwrap_or_else(|e| unreachable!("PRS pattern {p}: {e}"));
        Patterns {
            entry_failed: r(r"Entry script (run|init)\(\) failed for (?:((?:[A-Za-z_]\w*\.)*[A-Z]\w*): )?(.*?)(?:\. Details|$)"),
            exception_line: r(r"^((?:[A-Za-z_]\w*\.)*[A-Z]\w*): (.+)$"),
        }
    })
}

#[derive(Debug, Clone)]
struct Pending {
    phase: Phase,
    exception: String,
    message: String,
    line: Line,
    ts: String,
    /// An exception line was seen after the header.
    closed: bool,
}

/// Reads the lines of one user error file; a header waits for its traceback.
#[derive(Debug, Default)]
pub(super) struct UserErrors {
    /// A user error header waiting for its traceback's last line.
    pending: Option<Pending>,
}

impl UserErrors {
    /// Reads one (cleaned) line into `errors`; true when it was a header or an
    /// exception line outside a traceback.
    pub(super) fn line(&mut self, errors: &mut ErrorGroups, number: u64, text: &str) -> bool {
        let p = patterns();
        // Headers may carry the `TS|[Name|]LEVEL|PID|` prefix.
        let (ts, body) = match message::shape(text.as_bytes()) {
            Shape::Sys { message } => (text[..23].to_owned(), text[message..].to_owned()),
            _ => (String::new(), text.to_owned()),
        };
        if let Some(c) = p.entry_failed.captures(&body) {
            self.finish(errors);
            let header_exception = c.get(2).map_or("", |m| m.as_str()).to_owned();
            let header_message = c.get(3).map_or("", |m| m.as_str()).trim().to_owned();
            // The class is taken from the traceback's last line when it follows; the
            // header is the fallback (2020 headers carry only the message).
            self.pending = Some(Pending {
                phase: Phase::parse(&c[1]),
                exception: header_exception,
                message: header_message,
                line: evidence(number, text),
                ts,
                closed: false,
            });
            return true;
        }
        if text.starts_with("Traceback (most recent call last)") || text.starts_with(' ') {
            return false;
        }
        let Some(c) = p.exception_line.captures(text) else {
            return false;
        };
        let class = c[1].rsplit('.').next().unwrap_or(&c[1]).to_owned();
        let message = c[2].trim().to_owned();
        match self.pending.as_mut() {
            // In a chained traceback the last exception line is the one raised; keep
            // updating until the next header (or the end of the file) closes it.
            Some(pending) => {
                pending.exception = class;
                pending.message = message;
                pending.closed = true;
                false
            }
            None => {
                record(
                    errors,
                    Pending {
                        phase: Phase::Unknown,
                        exception: class,
                        message,
                        line: evidence(number, text),
                        ts,
                        closed: true,
                    },
                );
                true
            }
        }
    }

    /// Closes the header still waiting (the file ended or another header began).
    pub(super) fn finish(&mut self, errors: &mut ErrorGroups) {
        if let Some(p) = self.pending.take() {
            // A header without a traceback: split "Type: message" from the header.
            let mut p = p;
            if let Some((class, rest)) = p
                .message
                .split_once(": ")
                .filter(|_| p.exception.is_empty() && !p.closed)
            {
                p.exception = class.to_owned();
                p.message = rest.to_owned();
            }
            record(errors, p);
        }
    }
}

/// Counts one failure in its group, keeping the earliest occurrence.
fn record(errors: &mut ErrorGroups, p: Pending) {
    let key = ErrorKey {
        phase: p.phase,
        exception: p.exception,
        message: p.message,
    };
    let entry = errors
        .entry(key)
        .or_insert((0, p.line.clone(), p.ts.clone()));
    entry.0 += 1;
    // The first occurrence is the earliest by time, not by position.
    if !p.ts.is_empty() && (entry.2.is_empty() || p.ts < entry.2) {
        entry.1 = p.line;
        entry.2 = p.ts;
    }
}

#[cfg(test)]
mod tests {
    use crate::prs::parse::read;
    use crate::prs::tree::Role;

    #[test]
    fn user_errors_group_by_the_exception_finally_raised() {
        let text = "Entry script run() failed for ValueError: could not convert string to float: 'N/A'. Details Traceback (most recent call last):\n  File \"score.py\", line 9, in run\nValueError: could not convert string to float: 'N/A'\nEntry script run() failed for ValueError: could not convert string to float: 'N/A'. Details Traceback\nValueError: could not convert string to float: 'N/A'\n2023-05-16 22:56:23,297|ERROR|409|Entry script run() failed for RuntimeError: scoring failed. Details Traceback (most recent call last):\nKeyError: 'id'\n\nDuring handling of the above exception, another exception occurred:\n\nTraceback (most recent call last):\nRuntimeError: scoring failed\n";
        let f = read(
            Role::UserError {
                node: "0".into(),
                process: "process000".into(),
            },
            text,
        );
        let groups: Vec<(String, u64)> = f
            .errors
            .iter()
            .map(|(k, v)| (format!("{}: {}", k.exception, k.message), v.0))
            .collect();
        assert_eq!(
            groups,
            [
                ("RuntimeError: scoring failed".to_string(), 1),
                (
                    "ValueError: could not convert string to float: 'N/A'".to_string(),
                    2
                )
            ],
            "a chained traceback counts once, as the exception finally raised"
        );
    }
}
