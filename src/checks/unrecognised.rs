//! "Unrecognised failure": an input that itself shows a failure (an uncaught traceback
//! near its end, an `az` or SDK error block, a non-zero exit) but that no rule
//! explained still gets one finding, quoting its last error, so amldoctor is never
//! silent about a visibly failing log. Healthy logs, whose errors are handled and
//! followed by normal work, stay clean: only errors near the end count.

use std::collections::BTreeMap;

use crate::evidence::DocumentKind;
use crate::finding::{Computed, Evidence};

/// The rule id, whose YAML file carries the text and fix.
pub(crate) const RULE_ID: &str = "unrecognised-failure";

/// How close to the end an error must be to count as how the input ended: a crashed
/// server prints a few shutdown lines after its exception; an `az` error block ends
/// with a long "Additional Information" dump.
fn near_end_lines(kind: DocumentKind) -> u64 {
    match kind {
        DocumentKind::Cli | DocumentKind::Generic => 80,
        _ => 8,
    }
}

/// Error lines quoted as evidence.
const EVIDENCE_LINES: usize = 5;

/// Findings that say a failure-looking line is harmless: with one of them, the input is
/// explained.
pub(crate) const EXPLAINS_NOISE: &[&str] = &["prs-internal-bookkeeping-noise"];

/// The finding for one input, if it ended in a failure. `last_errors` are its last
/// error-like lines (oldest first), `lines` its length.
pub(crate) fn check(
    kind: DocumentKind,
    lines: u64,
    last_errors: &[Evidence],
    final_line: Option<&Evidence>,
) -> Option<Computed> {
    if kind == DocumentKind::Prs {
        // A ParallelRunStep tree has its own job summary and computed findings.
        return None;
    }
    // Traceback frames are kept for where the exception was raised, not quoted.
    let near: Vec<&Evidence> = last_errors
        .iter()
        .filter(|e| lines.saturating_sub(e.location.line()) < near_end_lines(kind))
        .filter(|e| !e.text.trim_start().starts_with("File \""))
        .collect();
    let last = near
        .iter()
        .rev()
        .find_map(|e| failure_in(&e.text))
        .filter(|line| kind != DocumentKind::InferenceServer || !by_phrase_only(line))
        // In a paste this short, an exception body's message whose words name a cause
        // is the failure, wherever it stands (a terminal may have cut it over lines).
        .or_else(|| {
            (lines <= SHORT_PASTE)
                .then(|| near.iter().rev().find_map(|e| stated_message(&e.text)))
                .flatten()
        });
    let (last, evidence) = match last {
        Some(last) => (last, near),
        None => cut_traceback(kind, lines, last_errors).or_else(|| {
            final_line.and_then(|f| {
                final_exception(f)
                    .or_else(|| stalled(f))
                    .or_else(|| (lines <= SHORT_PASTE).then(|| final_sentence(f)).flatten())
                    .map(|l| (l, vec![f]))
            })
        })?,
    };
    let mut facts = BTreeMap::new();
    facts.insert("last_error".to_owned(), last);
    Some(Computed {
        rule_id: RULE_ID,
        count: 1,
        // The last few lines tell the story; the rest stay in the input.
        evidence: evidence
            .iter()
            .skip(evidence.len().saturating_sub(EVIDENCE_LINES))
            .map(|e| (*e).clone())
            .collect(),
        facts,
        names: BTreeMap::new(),
        commands: next_commands(kind).to_vec(),
        edits: Vec::new(),
    })
}

/// Whether the failure was a probe the log then answered by installing what it found
/// missing: a CI task runs `az ml -h`, is told `'ml' is not in the 'az' command group`,
/// runs `az extension add -n ml` and goes on. `after` are the lines kept right after
/// error lines.
pub(crate) fn answered(found: &Computed, after: &[Evidence]) -> bool {
    let probe = |t: &str| t.contains("is not in the 'az' command group");
    let Some(failed_at) = found
        .evidence
        .iter()
        .find(|e| probe(&e.text))
        .map(|e| e.location.line())
    else {
        return false;
    };
    after.iter().any(|e| {
        e.location.line() > failed_at
            && e.text.contains("az extension add ")
            && !is_failure(&e.text)
    })
}

/// The failure an az CLI issue report states under its `**Errors:**` heading (the form
/// `az` itself fills in: `**Command Name**`, `**Errors:**`, then `## To Reproduce:`),
/// fenced or not, whatever its wording: the section holds what failed. `after` are the
/// lines kept right after error lines, where the heading's first lines are.
pub(crate) fn template_failure(
    kind: DocumentKind,
    last_errors: &[Evidence],
    after: &[Evidence],
) -> Option<Computed> {
    if kind == DocumentKind::Prs {
        return None;
    }
    // Read without paste furniture: a reply quoting the report puts `> ` before each line.
    fn bare(e: &Evidence) -> &str {
        let t = e.text.trim();
        t[crate::evidence::normalize::prefix_len(t.as_bytes())..].trim()
    }
    let heading = last_errors
        .iter()
        .rev()
        .find(|e| bare(e).trim_matches('*').trim() == "Errors:")?;
    let at = heading.location.line();
    let said = after.iter().find(|e| {
        let t = bare(e);
        e.location.line() > at && !t.is_empty() && !t.starts_with("```") && !t.starts_with('#')
    })?;
    // A summary's empty section (`Errors:` then `None`, `0`, `-`) states no failure.
    let empty = bare(said)
        .trim_matches(['`', '*', '.', '-'])
        .to_ascii_lowercase();
    if matches!(
        empty.as_str(),
        "" | "none" | "0" | "n/a" | "no errors" | "nothing"
    ) {
        return None;
    }
    let mut facts = BTreeMap::new();
    facts.insert("last_error".to_owned(), bare(said).to_owned());
    Some(Computed {
        rule_id: RULE_ID,
        count: 1,
        // What failed first: it is the finding's quote; the heading says where it stood.
        evidence: vec![said.clone(), heading.clone()],
        facts,
        names: BTreeMap::new(),
        commands: next_commands(kind).to_vec(),
        edits: Vec::new(),
    })
}

/// The input's last line when it is an exception whose class name says neither Error
/// nor Exception (`BadInput: …`, `azure.ai.ml.exceptions.UnsupportedOperation: …`,
/// `LocalDeploymentGPUNotAvailable: …`): a CamelCase name of two words or more, or a
/// dotted one, then `: ` and a message. No literal keeps such a line; as the last line
/// of an input it is how the input ended.
fn final_exception(line: &Evidence) -> Option<String> {
    let t = line.text.trim().trim_start_matches(['>', ' ', '"', '\'']);
    let (head, said) = t.split_once(": ")?;
    let name = head.rsplit('.').next().unwrap_or(head);
    let humps = name
        .as_bytes()
        .windows(2)
        .filter(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase())
        .count();
    let named = name.starts_with(|c: char| c.is_ascii_uppercase())
        && head
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'_')
        && (humps >= 1 || head.contains('.'));
    let lower = t.to_ascii_lowercase();
    // The name opens the line, so no log level stands before it.
    (named && !said.trim().is_empty() && !noise(&lower)).then(|| t.to_owned())
}

/// A paste this short is a quote of the failure, and its last line is what the user
/// saw fail.
pub(crate) const SHORT_PASTE: u64 = 12;

/// Words that open a sentence saying what is wrong (`Unknown compute type: AmlCompute`,
/// `Invalid value for --type`, `Missing required argument`).
const FAULT_HEADS: &[&str] = &[
    "unknown",
    "invalid",
    "unsupported",
    "unrecognized",
    "unrecognised",
    "missing",
    "illegal",
    "malformed",
    "incorrect",
    "unexpected",
    "unable",
];

/// The last line of a short paste when it is a sentence that opens with a word of
/// [`FAULT_HEADS`]: no log level, no literal, only the statement of what was wrong.
fn final_sentence(line: &Evidence) -> Option<String> {
    let t = line.text.trim();
    // Without paste furniture (quote marks, a CI step's timestamp).
    let t = &t[crate::evidence::normalize::prefix_len(t.as_bytes())..];
    // An error body holding only its message (`{"message": "Unknown compute type: X"}`).
    let t = t
        .strip_prefix("{\"message\": \"")
        .and_then(|m| m.strip_suffix("\"}"))
        .unwrap_or(t);
    let t = t.trim_start_matches(['>', ' ', '\t', '"', '\'', '`']);
    let lower = t.to_ascii_lowercase();
    if lower.starts_with("message:") || lower.starts_with("message\": \"") {
        return stated_message(t);
    }
    let mut words = lower.split_whitespace();
    let head = words.next()?;
    (FAULT_HEADS.contains(&head) && words.count() >= 2 && !noise(&lower)).then(|| t.to_owned())
}

/// The message of an SDK exception's body quoted alone (`Message: Workspace not
/// found.`, `"message": "…"`): a failure when its words name a cause.
fn stated_message(text: &str) -> Option<String> {
    let t = text.trim();
    // Without paste furniture (quote marks, a CI step's timestamp).
    let t = t[crate::evidence::normalize::prefix_len(t.as_bytes())..]
        .trim_start_matches(['>', ' ', '\t', '"', '\'', '`']);
    let lower = t.to_ascii_lowercase();
    let said = lower
        .strip_prefix("message:")
        .or_else(|| lower.strip_prefix("message\": \""))?;
    let placed = super::cause_category::classify(said).is_some();
    (placed && said.split_whitespace().count() >= 2 && !noise(&lower)).then(|| t.to_owned())
}

/// The last line of an input when it is a step that never finished: conda prints
/// `Solving environment: ...working...` and adds `done` when the solve ends, so a
/// paste that stops on the bare marker shows a solve that hung or was killed.
fn stalled(line: &Evidence) -> Option<String> {
    let t = line.text.trim();
    let step = t
        .strip_suffix("...working...")?
        .trim_end()
        .trim_end_matches(':');
    (!step.is_empty()).then(|| {
        format!("the input ends while conda is still at '{step}': the step never printed done (it hung, or timed out and was killed)")
    })
}

/// A Python traceback whose exception line is not in the input (a paste cut at a
/// frame): its frames are the last error-like lines, near the end. Something raised,
/// even though the line that says what is missing; the last frame is where.
fn cut_traceback(
    kind: DocumentKind,
    lines: u64,
    last_errors: &[Evidence],
) -> Option<(String, Vec<&Evidence>)> {
    // `File "x.py", line 3, in <module>`, or pytest's `x.py:3: in <module>`.
    let is_frame = |e: &Evidence| {
        let t = e.text.trim_start();
        t.starts_with("File \"") && t.contains("\", line ")
            || t.contains(".py:") && t.contains(": in ")
    };
    let frames: Vec<&Evidence> = last_errors
        .iter()
        .rev()
        .take_while(|e| is_frame(e))
        .filter(|e| lines.saturating_sub(e.location.line()) < near_end_lines(kind))
        .collect();
    if frames.len() < 2 {
        return None;
    }
    // Every frame at module level: the failure happened while importing.
    let importing = frames
        .iter()
        .all(|e| e.text.trim_end().ends_with("in <module>"));
    let last = format!(
        "a traceback that ends {}before its exception line (the paste stops at: {})",
        if importing {
            "while importing modules, "
        } else {
            ""
        },
        frames[0].text.trim()
    );
    Some((last, frames.into_iter().rev().collect()))
}

/// The failure a line shows, read without its paste artefacts (a CI timestamp, a quote
/// mark, JSON escapes holding several lines): the last logical line that is one.
fn failure_in(text: &str) -> Option<String> {
    crate::evidence::normalize::logical_lines(text)
        .iter()
        .rev()
        .find_map(|l| failing_part(l))
        // The normal form drops an `Error: ` before `(`, `{` or `[` as a wrapper's
        // prefix; on a line that holds nothing else (`Error: {argumentName} is invalid`,
        // a message whose placeholder was never filled) the prefix is the failure.
        .or_else(|| failing_part(text.lines().next().unwrap_or("")))
}

/// The line, or the value of a JSON log record's last field (`{"time": …, "log":
/// "ValueError: …`), when it is a failure.
fn failing_part(line: &str) -> Option<String> {
    if is_failure(line) {
        return Some(line.trim().to_owned());
    }
    let (_, value) = line.rsplit_once("\": \"")?;
    let value = value.trim_end_matches(['"', '}', ',', ' ']);
    is_failure(value).then(|| value.trim().to_owned())
}

/// Whether an error-like line says something failed, rather than mentioning errors:
/// an exception line, an `az` error envelope, a traceback header, a non-zero exit.
fn is_failure(line: &str) -> bool {
    let lower = line.trim_start().to_ascii_lowercase();
    shaped_failure(line) || !noise(&lower) && (failure_phrase(&lower) || error_record(line))
}

/// A log record at level ERROR or CRITICAL (`2024-05-01 10:00:00,000 ERROR Upload
/// failed`, `[ERROR] …`): the level is one of the first words.
fn error_record(line: &str) -> bool {
    line.split(['|', ' ', '[', ']'])
        .filter(|w| !w.is_empty() && *w != "-")
        .take(5)
        .any(|w| matches!(w, "ERROR" | "CRITICAL" | "FATAL"))
}

/// Handled or expected failures that read like failures.
fn noise(lower: &str) -> bool {
    lower.contains("exit code 1 is normal")
        || lower.contains("0 failed")
        // supervisord on a program it was told may exit: `exit status 1; expected`.
        || lower.contains("; expected)")
        // azureml-core on an entry point of a package it does not need; the run goes on.
        || lower.contains("failure while loading azureml_run_type_providers")
        // pip's notice about packages it did not install; the install goes on.
        || lower.contains("pip's dependency resolver")
        // azureml-core outside a run: it logs offline and the script goes on.
        || lower.contains("could not load the run context")
}

/// A failure by the shape of the line rather than by a phrase in it.
fn shaped_failure(line: &str) -> bool {
    let t = line.trim_start();
    // A debugger's view of a raised exception (`{ProjectSystemException}ProjectSystem
    // Exception: …`): the type in braces, then the exception line.
    let t = match t.strip_prefix('{').and_then(|r| r.split_once('}')) {
        Some((name, rest))
            if !name.is_empty()
                && name
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'_') =>
        {
            rest
        }
        _ => t,
    };
    let exception = t.split([':', ' ']).next().is_some_and(|head| {
        let name = head.rsplit('.').next().unwrap_or(head);
        // `socket.gaierror:`, `socket.timeout:`: a module's lowercase exception.
        let lowercase = head.contains('.') && (name.ends_with("error") || name == "timeout");
        (lowercase
            || name.starts_with(|c: char| c.is_ascii_uppercase())
                && (name.ends_with("Error")
                    || name.ends_with("Exception")
                    || name.ends_with("Exit")))
            && t[head.len()..].starts_with(':')
    });
    let lower = t.to_ascii_lowercase();
    !noise(&lower)
        && (exception
            || t.starts_with("ERROR: ")
            || t.starts_with("Error: ")
            || t.contains("Traceback (most recent call last)")
            // A marshmallow validation body, as `az ml` prints a YAML that fails its schema.
            || t.starts_with("\"_schema\": [")
            || error_field(t)
            || error_message_key(t)
            || t.starts_with("FATAL")
            || (t.starts_with('(') && t.contains(") ") && t.contains("Error"))
            || lower.contains("non-zero exit")
            || exit_code_failed(&lower)
            || state_failed(&lower)
            || http_error_status(t)
            || subject_failed(t))
}

/// A JSON or Python-dict field named for the error holding a sentence (`"Error":
/// "Error, need to specify either --model …"`, as the v1 CLI extension prints its
/// failures; `'error': 'Workspace not found'`): the error itself, not a mention.
fn error_field(t: &str) -> bool {
    // Escaped inside another string (`{"message": "\"Error\": \"…\""}`), read as is.
    let unescaped: std::borrow::Cow<str> = if t.contains("\\\"") {
        t.replace("\\\"", "\"").into()
    } else {
        t.into()
    };
    let t = unescaped.as_ref();
    let Some(quote) = t.chars().next().filter(|c| matches!(c, '"' | '\'')) else {
        return false;
    };
    let rest = &t[1..];
    let Some((key, value)) = rest.split_once(quote) else {
        return false;
    };
    let key = key.to_ascii_lowercase();
    if !matches!(key.as_str(), "error" | "errormessage" | "error_message") {
        return false;
    }
    let value = value.trim_start().strip_prefix(':').map(str::trim_start);
    let said = value
        .and_then(|v| v.strip_prefix(quote))
        .unwrap_or_default()
        .trim_end_matches([',', quote]);
    said.split_whitespace().count() >= 3
}

/// An error report's `Error Message: …` field holding a message of two words or more
/// (the form the VS Code extension and other tools print: `Error type: 400`, `Error
/// Message: Bad Request`), unless it says there was none.
fn error_message_key(t: &str) -> bool {
    let lower = t.to_ascii_lowercase();
    ["error message:", "errormessage:", "error_message:"]
        .iter()
        .find_map(|k| lower.strip_prefix(k))
        .map(str::trim)
        .is_some_and(|said| {
            said.split_whitespace().count() >= 2
                && !["no ", "none", "null", "n/a", "not available"]
                    .iter()
                    .any(|w| said.starts_with(w))
        })
}

/// Whether the line is a failure only by a phrase of [`failure_phrase`]: in a server's
/// own log, whose requests fail and recover one by one, that is not how the input ended.
fn by_phrase_only(line: &str) -> bool {
    !shaped_failure(line) && is_failure(line)
}

/// Phrases that say something went wrong in a sentence of its own, whatever printed it
/// (`Authentication Error: …`, `cli.azure.cli.core.azclierror: Unexpected error …`,
/// `cannot import name …`, `DefaultAzureCredential failed to retrieve a token`), on a
/// line that is not an info, debug or warning record.
fn failure_phrase(lower: &str) -> bool {
    failure_words(lower) || exception_inside(lower)
}

/// A sentence of [`PHRASES`].
fn failure_words(lower: &str) -> bool {
    // urllib3's retry notice is a warning, but it says the connection broke; as the
    // last thing a paste shows, the retries did not help. A credential that could not
    // get a token is logged as a warning too, and what follows it fails or waits for a
    // login nobody will give.
    let broken = ["after connection broken by", "failed to retrieve a token"]
        .iter()
        .any(|p| lower.contains(p));
    (broken || !quiet_record(lower)) && !counted(lower) && PHRASES.iter().any(|p| lower.contains(p))
}

/// An exception named inside the line (`Gives "Microsoft.RelInfra.Common.Exceptions.
/// ErrorResponseException: User … is not allowed …"`, `… raised azure.core.exceptions.
/// ResourceNotFoundError: …`), on a line that is not an info, debug or warning record:
/// a dotted name, or a compound one (`ErrorResponseException`), followed by `: `.
fn exception_inside(lower: &str) -> bool {
    if quiet_record(lower) {
        return false;
    }
    ["exception: ", "error: "].iter().any(|end| {
        lower.match_indices(end).any(|(at, _)| {
            let name: String = lower[..at]
                .chars()
                .rev()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '.' || *c == '_')
                .collect();
            // `error: ` alone is a phrase already; a name holds more than the suffix.
            name.len() >= 3 && (name.contains('.') || name.len() >= 6)
        })
    })
}

/// The phrases of [`failure_phrase`], lowercase. The scan keeps only lines holding one of
/// `rules::ERROR_LITERALS`, so each phrase needs a literal there in every case it is
/// written in (a test checks it).
const PHRASES: &[&str] = &[
    "error: ",
    "unexpected error",
    "error raised",
    "error occurred",
    "failed to ",
    "failed with ",
    "could not ",
    "cannot ",
    "can't ",
    "unable to ",
    "not recognized",
    "misspelled",
    "does not exist",
    "was not found",
    "is not installed",
    "permission denied",
    "access denied",
    "timed out",
    "too many request",
    "throttl",
    "connection refused",
    "encountered an exception",
    "provisioning error",
    "authentication required",
    "unexpected keyword argument",
    "timeout exceeded",
    "no such file or directory",
    "doesn't exist",
    "met error",
    "insufficient",
    "not allowed to",
    "has no attribute '",
    "arguments are required",
    "already exists",
    "exceeded",
    "ran longer than",
    "was canceled",
    "was cancelled",
    "to be unique",
    "registered resource provider",
    "is not supported",
    // msrest's `Operation returned an invalid status code 'Forbidden'`.
    "invalid status code",
];

/// An info, debug or warning record: its level is one of the first words.
fn quiet_record(lower: &str) -> bool {
    const QUIET_LEVELS: &[&str] = &["info", "debug", "warning", "warn", "i", "d", "w"];
    let words = || {
        lower
            .split(['|', ' ', '[', ']', ':'])
            .filter(|w| !w.is_empty())
    };
    // A timestamp (`2024-05-01 10:00:00,000`) is four words before the level; prompt
    // flow puts a zone, a process id and a logger name there too (`2024-03-11 15:44:02
    // +0100   54475 execution          WARNING  …`), so the level may follow the
    // numbers by two words.
    let numeric = |w: &&str| {
        w.bytes()
            .all(|b| b.is_ascii_digit() || b"+-.,:".contains(&b))
    };
    words().take(5).any(|w| QUIET_LEVELS.contains(&w))
        || words()
            .skip_while(numeric)
            .take(2)
            .any(|w| QUIET_LEVELS.contains(&w))
}

/// A progress count (`2 of them failed to load earlier`) reports, it does not fail.
fn counted(lower: &str) -> bool {
    let words: Vec<&str> = lower.split_whitespace().collect();
    words
        .windows(2)
        .any(|w| w[1] == "of" && w[0].bytes().all(|b| b.is_ascii_digit()))
}

/// `"provisioningState": "Failed"`, `provisioning_state: Failed`, `state: failed`.
fn state_failed(lower: &str) -> bool {
    [
        "provisioningstate",
        "provisioning_state",
        "\"state\"",
        "state:",
        "\"status\"",
    ]
    .iter()
    .any(|key| {
        lower.match_indices(key).any(|(at, k)| {
            let rest = lower[at + k.len()..].trim_start_matches(['"', '\'', ':', ' ', '=']);
            // `"status": "RUN_TIMEOUT"`: a parallel job's mini-batch that ran out of time.
            let value = rest.split(['"', '\'', ',', ' ']).next().unwrap_or("");
            // A run's `"status": "Failed"` beside its own logs is summarised by them.
            let timed_out = value.ends_with("timeout") || value.ends_with("timed_out");
            timed_out || value == "failed" && k != "\"status\""
        })
    })
}

/// A status line or code of 400 and above: `HTTP/1.1 500 Internal Server Error`,
/// `status code 503`, `Status: 404`.
fn http_error_status(line: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    let status_after = |key: &str| {
        lower.match_indices(key).any(|(at, k)| {
            let digits: String = lower[at + k.len()..]
                .trim_start_matches([' ', ':', '='])
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            digits.len() == 3 && digits.parse::<u16>().is_ok_and(|s| (400..600).contains(&s))
        })
    };
    lower.starts_with("http/") && {
        let status: String = lower
            .split_whitespace()
            .nth(1)
            .unwrap_or_default()
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        status.len() == 3 && status.parse::<u16>().is_ok_and(|s| (400..600).contains(&s))
    } || status_after("status code")
        || status_after("statuscode")
}

/// A sentence whose subject failed: `Execution failed. …`, `Deployment failed: …`,
/// `Job failed!` (a capitalised subject of a few words, then `failed` and a stop).
fn subject_failed(line: &str) -> bool {
    let Some(at) = line.find(" failed") else {
        return false;
    };
    let subject = &line[..at];
    let after = &line[at + " failed".len()..];
    // `Login failed.`, `Upload failed: …`, `Authentication failed for registry r`.
    let stop = after.starts_with(['.', ':', '!'])
        || [" for ", " because ", " due to "]
            .iter()
            .any(|w| after.starts_with(w));
    // Not a log level (`INFO …`) and no counts (`retry 1 of 3 failed.` is a retry); an
    // acronym is a subject (`AML Kubernetes Compute job failed.`).
    const LEVELS: &[&str] = &[
        "INFO", "DEBUG", "WARNING", "WARN", "ERROR", "TRACE", "NOTICE",
    ];
    let level = subject
        .split_whitespace()
        .next()
        .is_some_and(|w| LEVELS.contains(&w));
    stop && !level
        && subject.starts_with(|c: char| c.is_ascii_uppercase())
        && subject.split_whitespace().count() <= 5
        && subject
            .chars()
            .all(|c| c.is_alphabetic() || c == ' ' || c == '-' || c == '_')
}

/// `exited with code 3`, `exit status 1`, `returned exit code 137`: a non-zero exit.
fn exit_code_failed(lower: &str) -> bool {
    [
        "exit code ",
        "exit status ",
        "exited with code ",
        "exitcode: ",
        "exit_code=",
    ]
    .iter()
    .any(|key| {
        lower.match_indices(key).any(|(at, k)| {
            let digits: String = lower[at + k.len()..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            digits.parse::<u32>().is_ok_and(|code| code != 0)
        })
    })
}

/// What to run next for this kind of input, before the rule's own commands.
fn next_commands(kind: DocumentKind) -> &'static [&'static str] {
    match kind {
        DocumentKind::InferenceServer => &[
            "az ml online-deployment get-logs -e {endpoint} -n {deployment} -g {group} -w {workspace} -l 1000",
        ],
        DocumentKind::StorageInitializer => &[
            "az ml online-deployment get-logs -e {endpoint} -n {deployment} -g {group} -w {workspace} --container storage-initializer -l 500",
        ],
        // An unknown kind is most often a pasted piece of a deployment's story.
        DocumentKind::Cli | DocumentKind::Generic => &[
            "az ml online-deployment get-logs -e {endpoint} -n {deployment} -g {group} -w {workspace} -l 500",
        ],
        DocumentKind::Kubernetes => &["kubectl get events --sort-by=.lastTimestamp -n {namespace}"],
        DocumentKind::ImageBuild => &[
            "az ml environment show --name {environment} --version {environment_version} -g {group} -w {workspace}",
        ],
        DocumentKind::Prs => &[],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_field_a_debuggers_exception_and_a_lone_message_are_failures() {
        use crate::evidence::DocumentKind::Generic;
        use crate::finding::Evidence;
        for line in [
            r#"    "Error": "Error, need to specify either --model or --model-metadata-file""#,
            r#"{"message": "\"Error\": \"Error, need to specify either --model\""}"#,
            "{ProjectSystemException}ProjectSystemException:",
            "Error Message: It seems like you are attempting to use a compute instance which is in a failed state.",
        ] {
            let e = Evidence::at_line("x", 3, line);
            assert!(check(Generic, 4, &[e], None).is_some(), "{line}");
        }
        for line in [r#""error": null"#, r#""Error": "None""#, r#""error": """#] {
            let e = Evidence::at_line("x", 3, line);
            assert!(check(Generic, 4, &[e], None).is_none(), "{line}");
        }
        // A short paste ending on an exception body's message whose words name a cause.
        let said = Evidence::at_line("x", 1, "\tMessage: Workspace not found.");
        assert!(check(Generic, 1, &[], Some(&said)).is_some());
        let body = Evidence::at_line("x", 1, r#"{"message": "Unknown compute type: AmlCompute"}"#);
        assert!(check(Generic, 1, &[], Some(&body)).is_some());
        let ci = Evidence::at_line(
            "x",
            1,
            "2026-12-01T10:00:00.1234567Z > Message: Workspace not found.",
        );
        assert!(check(Generic, 1, &[], Some(&ci)).is_some());
        let json = Evidence::at_line("x", 1, r#"    "message": "Workspace not found.""#);
        assert!(check(Generic, 1, &[], Some(&json)).is_some());
        // Wherever it stands in a short paste (a terminal cut the rest over lines).
        let first = Evidence::at_line("x", 1, "Message: Workspace not found in the");
        let last = Evidence::at_line("x", 3, "subscription you named.");
        assert!(check(Generic, 3, std::slice::from_ref(&first), Some(&last)).is_some());
        assert!(
            check(Generic, 40, &[first], Some(&last)).is_none(),
            "not in a long input"
        );
        let fine = Evidence::at_line("x", 1, "Message: Training started");
        assert!(check(Generic, 1, &[], Some(&fine)).is_none());
    }

    #[test]
    fn what_an_az_issue_report_states_under_errors_is_the_failure() {
        use crate::finding::Evidence;
        let errors = [Evidence::at_line("x", 5, "**Errors:**")];
        let after = [
            Evidence::at_line("x", 6, "```"),
            Evidence::at_line("x", 7, "Unknown compute type: AmlCompute"),
        ];
        let kind = crate::evidence::DocumentKind::Generic;
        let found = template_failure(kind, &errors, &after).unwrap();
        assert_eq!(
            found.facts["last_error"],
            "Unknown compute type: AmlCompute"
        );
        // Quoted in a reply, the same.
        let quoted_errors = [Evidence::at_line("x", 5, "> **Errors:**")];
        let quoted = [
            Evidence::at_line("x", 6, "> ```"),
            Evidence::at_line("x", 7, "> Unknown compute type: AmlCompute"),
        ];
        let found = template_failure(kind, &quoted_errors, &quoted).unwrap();
        assert_eq!(
            found.facts["last_error"],
            "Unknown compute type: AmlCompute"
        );
        // An empty section states nothing.
        let none = [Evidence::at_line("x", 6, "None")];
        assert!(template_failure(kind, &errors, &none).is_none());
        // Nothing under the heading, or no heading: nothing.
        assert!(template_failure(kind, &errors, &after[..1]).is_none());
        assert!(template_failure(kind, &[], &after).is_none());
    }

    #[test]
    fn an_error_prefix_before_a_brace_is_still_a_failure() {
        let e = crate::finding::Evidence::at_line("x", 1, "Error: {argumentName} is invalid");
        let found = check(crate::evidence::DocumentKind::Generic, 3, &[e], None);
        assert_eq!(
            found.map(|c| c.facts["last_error"].clone()).as_deref(),
            Some("Error: {argumentName} is invalid")
        );
    }

    #[test]
    fn an_exception_named_without_error_words_ends_an_input() {
        let last = ev(
            3,
            "> azure.ai.ml.exceptions.UnsupportedOperation: local GPU is not available",
        );
        let c = check(DocumentKind::Generic, 3, &[], Some(&last)).unwrap();
        assert!(c.facts["last_error"].starts_with("azure.ai.ml.exceptions.UnsupportedOperation"));
        for healthy in [
            "Listening at: http://0.0.0.0:31311 (12)",
            "2024-05-01 10:00:00,000 INFO ServerReady: all workers booted",
            "Status: Succeeded",
        ] {
            assert!(
                check(DocumentKind::Generic, 3, &[], Some(&ev(3, healthy))).is_none(),
                "{healthy}"
            );
        }
    }

    #[test]
    fn a_timed_out_status_is_a_failure_a_failed_run_status_is_its_logs_to_say() {
        let timeout = [ev(
            4,
            "\"run_method_duration\": 90.3, \"status\": \"RUN_TIMEOUT\"",
        )];
        assert!(check(DocumentKind::Generic, 4, &timeout, None).is_some());
        let run = [ev(4, "  \"status\": \"Failed\",")];
        assert!(check(DocumentKind::Generic, 4, &run, None).is_none());
    }

    #[test]
    fn a_traceback_cut_at_a_frame_is_a_failure() {
        let frames = [
            ev(1, "  File \"/app/entry.py\", line 1, in <module>"),
            ev(
                3,
                "  File \"/env/lib/python3.9/site-packages/flask/app.py\", line 26, in <module>",
            ),
        ];
        let c = check(DocumentKind::Generic, 4, &frames, None).unwrap();
        assert!(
            c.facts["last_error"].contains("while importing modules"),
            "{c:?}"
        );
        assert!(check(DocumentKind::Generic, 4, &frames[1..], None).is_none());
    }

    #[test]
    fn a_short_paste_ending_in_a_statement_of_what_is_wrong_is_a_failure() {
        let last = ev(1, "Unknown compute type: AmlCompute");
        let c = check(DocumentKind::Generic, 1, &[], Some(&last)).unwrap();
        assert_eq!(c.facts["last_error"], "Unknown compute type: AmlCompute");
        // In a long log the last line is not a quote of the failure.
        assert!(
            check(
                DocumentKind::Generic,
                400,
                &[],
                Some(&ev(400, last.text.as_str()))
            )
            .is_none()
        );
        // One word after the head is not a statement.
        assert!(check(DocumentKind::Generic, 1, &[], Some(&ev(1, "Missing: none"))).is_none());
        assert!(
            check(
                DocumentKind::Generic,
                1,
                &[],
                Some(&ev(1, "Unknowns are fine here"))
            )
            .is_none()
        );
    }

    #[test]
    fn a_conda_step_that_never_printed_done_is_a_failure() {
        let last = ev(3, "Solving environment: ...working... ");
        let c = check(DocumentKind::Generic, 3, &[], Some(&last)).unwrap();
        assert!(
            c.facts["last_error"].contains("'Solving environment'"),
            "{c:?}"
        );
        let done = ev(3, "Solving environment: ...working... done");
        assert!(check(DocumentKind::Generic, 3, &[], Some(&done)).is_none());
    }

    #[test]
    fn a_warning_level_after_a_zone_pid_and_logger_is_quiet() {
        let retry = "2024-03-11 15:44:02 +0100   54475 execution          warning  [n] stderr> exception occurs: apitimeouterror: request timed out.";
        assert!(quiet_record(retry));
        assert!(!failure_phrase(retry));
        let token = "2024-03-26 05:28:03 +0000      21 execution          warning  [n] stderr> msi: failed to retrieve a token from 'http://10.0.0.4:8911/v1/token/msi/xds'";
        assert!(failure_phrase(token));
        assert!(!quiet_record(
            "2024-03-11 15:44:02 +0100 54475 execution error boom"
        ));
    }

    fn ev(line: u64, text: &str) -> Evidence {
        Evidence::at_line("x.log", line, text)
    }

    #[test]
    fn every_failure_phrase_is_on_a_line_the_scan_keeps() {
        let kept = |line: &str| {
            crate::rules::ERROR_LITERALS
                .iter()
                .any(|l| line.contains(l))
        };
        for phrase in PHRASES {
            let mut capital = phrase.to_string();
            capital[..1].make_ascii_uppercase();
            for line in [format!("the job: {phrase} x"), format!("{capital} x")] {
                assert!(kept(&line), "no ERROR_LITERALS entry keeps {line:?}");
            }
        }
    }

    #[test]
    fn a_traceback_at_the_end_is_a_failure() {
        let errors = [
            ev(93, "Traceback (most recent call last):"),
            ev(97, "RuntimeError: CUDA error: no kernel image is available"),
        ];
        let c = check(DocumentKind::InferenceServer, 100, &errors, None).unwrap();
        assert_eq!(
            c.facts["last_error"],
            "RuntimeError: CUDA error: no kernel image is available"
        );
        assert_eq!(c.evidence.len(), 2);
        assert!(c.commands[0].contains("get-logs"));
    }

    #[test]
    fn errors_long_before_the_end_or_mere_mentions_are_not() {
        assert!(
            check(
                DocumentKind::InferenceServer,
                500,
                &[ev(20, "ValueError: x")],
                None
            )
            .is_none()
        );
        let mentions = [ev(
            99,
            "2024-01-01 10:00:00,123 E [7] azmlinfsrv - Error while fetching model IDs",
        )];
        assert!(check(DocumentKind::InferenceServer, 100, &mentions, None).is_none());
        assert!(
            check(
                DocumentKind::Generic,
                10,
                &[ev(9, "Processed 10, 0 failed")],
                None
            )
            .is_none()
        );
        assert!(check(DocumentKind::Prs, 10, &[ev(9, "ValueError: x")], None).is_none());
    }

    #[test]
    fn a_failure_behind_a_ci_prefix_counts() {
        let errors = [ev(
            9,
            "2025-03-04T10:22:31.4567890Z ##[error]ERROR: (UserError) The instance type is not supported",
        )];
        let c = check(DocumentKind::Cli, 10, &errors, None).unwrap();
        assert_eq!(
            c.facts["last_error"],
            "ERROR: (UserError) The instance type is not supported"
        );
    }

    #[test]
    fn exceptions_inside_a_sentence_and_bodies_are_failures() {
        assert!(is_failure(
            "Gives \"Microsoft.RelInfra.Common.Exceptions.ErrorResponseException: User/tenant/subscription is not allowed to access registry r.\" error"
        ));
        assert!(is_failure(
            "AML Kubernetes Compute job failed. 9: {\"Msg\":\"x\"}"
        ));
        assert!(is_failure(
            "[Errno 2] No such file or directory: '/var/azureml-app/azureml-models/m/1/m.pkl'"
        ));
        assert!(is_failure("      \"_schema\": ["));
        assert!(is_failure(
            "WARNING - Retrying (Retry(total=2)) after connection broken by 'ProtocolError('Connection aborted.', timeout('The write operation timed out'))'"
        ));
        // A record that only mentions an exception it handled, and an ordinary level.
        assert!(!is_failure(
            "2024-05-01 10:00:00,000 INFO handled azure.core.exceptions.ResourceNotFoundError: retrying"
        ));
        assert!(!is_failure("INFO Upload failed: retrying"));
    }

    #[test]
    fn az_blocks_and_exits_are_failures() {
        assert!(is_failure(
            "ERROR: (UserError) The instance type is not supported"
        ));
        assert!(is_failure("Container exited with code 137"));
        assert!(!is_failure("Container exited with code 0"));
        assert!(is_failure(
            "azure.core.exceptions.HttpResponseError: (BadRequest) nope"
        ));
        assert!(!is_failure(
            "Exit code 1 is normal. Not restarting iot-server."
        ));
        // A failed state, an HTTP error status, a subject that failed.
        assert!(is_failure(r#"    "provisioningState": "Failed","#));
        assert!(is_failure(
            "socket.gaierror: [Errno -2] Name or service not known"
        ));
        assert!(!is_failure(r#"    "provisioningState": "Succeeded","#));
        assert!(is_failure("HTTP/1.1 500 Internal Server Error"));
        assert!(!is_failure("HTTP/1.1 200 OK"));
        assert!(is_failure("Request failed with status code 503"));
        assert!(is_failure(
            "Execution failed. User process python exited with status code 1."
        ));
        assert!(is_failure(
            "Deployment failed: the container never became ready"
        ));
        assert!(!is_failure(
            "Processed 10 mini batches, 2 of them failed to load earlier."
        ));
        assert!(!is_failure("INFO retry 1 of 3 failed. retrying"));
    }
}
