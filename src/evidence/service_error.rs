//! The service's own error, read from the lines a user pasted: whatever shape it came
//! in (the az CLI's `(Code) Message`, `Code:` / `Message:` blocks, `Exception Details:`
//! with its inner code, REST JSON `{"error": {"code": …, "message": …}}` at any depth,
//! lists of `ErrorCode` / `ErrorMessage`), one [`ServiceError`]: its code chain from
//! the outer code to the innermost, and the message that goes with the innermost.
//! Pure text in, data out; the analyser decides what to report.

use std::sync::OnceLock;

use regex::Regex;

/// Codes that only wrap another: the inner code (or the message) says what happened.
pub(crate) const WRAPPERS: &[&str] = &[
    "BadRequest",
    "BadArgument",
    "UserError",
    "SystemError",
    "ServiceError",
    "DeploymentFailed",
    "InternalServerError",
    "InferencingClientCallFailed",
    "InferencingClientCreateDeploymentFailed",
    "ValidationError",
    "Conflict",
    "Failed",
    "Error",
];

/// Values of a `code` key that say nothing failed (an app's own structured logging).
const NOT_ERRORS: &[&str] = &[
    "Success",
    "Succeeded",
    "OK",
    "Ok",
    "None",
    "Null",
    "True",
    "False",
    "Healthy",
    "Running",
];

/// One error the service reported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ServiceError {
    /// Outer first; the last is the most specific.
    pub codes: Vec<String>,
    /// The message of the innermost code that has one.
    pub message: String,
    /// The 1-based line the innermost code is on.
    pub line: u64,
    /// The line its message is on (a pretty-printed body puts it on a line of its own).
    pub message_line: u64,
    /// The `Reason:` and `err:` lines of an `AzureMLCompute job failed.` block: the
    /// chain under the code (`err: … lookup x.azurecr.io … no such host`).
    pub details: Vec<String>,
}

impl ServiceError {
    /// The code that says what happened: the innermost that is not a wrapper, else the
    /// innermost.
    pub(crate) fn specific(&self) -> &str {
        self.codes
            .iter()
            .rev()
            .find(|c| !WRAPPERS.contains(&c.as_str()))
            .or(self.codes.last())
            .map_or("", String::as_str)
    }
}

fn regexes() -> &'static [Regex; 5] {
    static R: OnceLock<[Regex; 5]> = OnceLock::new();
    R.get_or_init(|| {
        [
            // `ERROR: (Code) Message`, `Exception Details:	(Code) Message`, `(Code) Message`,
            // `HttpResponseError: (Code) Message`, any of them quoted (`> `), or as a
            // string a client stored (`'error_type_and_message': "(Code) Message"`).
            Regex::new(r#"(?:^|ERROR:\s*|Error:\s*|Exception:\s*|Details:\s*|Code:\s*|':\s*|["']|^[\s>]*)\(([A-Z][A-Za-z0-9]+(?:\.[A-Za-z0-9]+)*)\)\s*(.*)$"#)
                .expect("valid"),
            // `Code: QuotaExceeded`, `"code": "QuotaExceeded"`, `ErrorCode: X`, `'code': 'X'`.
            Regex::new(r#"(?:^|[^A-Za-z]|\\[nrt])["']?(?i:(?:error_?)?code)["']?\s*[:=]\s*["']?([A-Z][A-Za-z0-9]+(?:\.[A-Za-z0-9]+)*)\b"#)
                .expect("valid"),
            // `Message: …`, `"message": "…"`, `ErrorMessage: …`.
            Regex::new(r#"(?:^|[^A-Za-z]|\\[nrt])["']?(?i:(?:error_?)?message)["']?\s*[:=]\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|(.+))"#)
                .expect("valid"),
            // `…, Reason:RefreshExtensionIdentityNotSet Details:Managed identity of …`: the
            // Kubernetes extension's code (CamelCase, two words at least) and its message.
            Regex::new(r"\bReason:\s*([A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+)\b[\s,.;]*(?:Details?:\s*)?(.*)$")
                .expect("valid"),
            // `Error with code: (AuthorizationFailed) The client …`: at the start, or after
            // a blank, a colon, a quote or `>`, a CamelCase code of two words at least,
            // then a sentence (see [`holds_paren_code`]).
            Regex::new(r#"(?:^|[\s:"'>])\(([A-Z][A-Za-z0-9]*[a-z][A-Z][A-Za-z0-9]*)\)\s+([A-Za-z].*)$"#)
                .expect("valid"),
        ]
    })
}

/// The service errors among `lines` (`(line number, text)`, in order). Error lines at
/// most [`BLOCK_GAP`] apart form one block; each block gives at most one error.
pub(crate) fn read(lines: &[(u64, &str)]) -> Vec<ServiceError> {
    let mut out = Vec::new();
    let mut block: Vec<(u64, &str)> = Vec::new();
    for &(n, text) in lines {
        if block.last().is_some_and(|(last, _)| n > last + BLOCK_GAP) {
            out.extend(of_block(&block));
            block.clear();
        }
        block.push((n, text));
    }
    out.extend(of_block(&block));
    out
}

/// How far apart two error lines of one error may be: a pretty-printed body puts a
/// dozen keys (`severity`, `messageFormat`, `target`, …) between its message and the
/// inner code.
const BLOCK_GAP: u64 = 12;

enum Event {
    Code(String, Option<String>),
    Message(String),
}

/// A code met in a block: its line, the code, and its message with the message's line.
type Met = (u64, String, Option<(u64, String)>);

/// The error one block shows: every code in order, and the message nearest after the
/// innermost code (or on its line).
fn of_block(block: &[(u64, &str)]) -> Option<ServiceError> {
    let [paren, code, message, reason, inner] = regexes();
    let mut codes: Vec<Met> = Vec::new();
    let mut details = Vec::new();
    let mut compute = false;
    // A message met before any code that could take it, and the first such.
    let mut ahead: Option<(u64, String)> = None;
    let mut first_ahead: Option<(u64, String)> = None;
    for &(n, text) in block {
        // `Error: AzureMLCompute job failed.` then `AcrRefreshTokenRetrievalError: …` and
        // its `Reason:` / `err:` lines: the compute's code and its chain.
        if compute {
            let t = text.trim_start_matches([' ', '\t', '*', '>']);
            if let Some((name, said)) = compute_code(t) {
                codes.push((n, name.to_owned(), Some((n, said.trim().to_owned()))));
                continue;
            }
            if t.starts_with("Reason:") || t.starts_with("err:") {
                details.push(t.to_owned());
            }
        }
        compute |= text.contains("AzureMLCompute job failed");
        // Codes and messages in the order they stand on the line, so a message goes to
        // the code just before it (`{"code": A, "message": …, "details": [{"code": B …`).
        let mut events: Vec<(usize, Event)> = Vec::new();
        let parens = paren.captures_iter(text).chain(inner.captures_iter(text));
        for c in parens.chain(reason.captures_iter(text)) {
            // A string's closing quote and the object's closing brace are not the message's.
            let msg = c[2].trim().trim_end_matches([',', '}']);
            // `(Code) "Message"`: the quotes around a message are not part of it.
            let quoted = msg.len() > 1 && msg.starts_with('"') && msg.ends_with('"');
            let msg = if quoted { &msg[1..msg.len() - 1] } else { msg };
            let msg = msg.trim_end_matches(['"', '\'']).to_owned();
            let at = c.get(1).map_or(0, |m| m.start());
            events.push((
                at,
                Event::Code(c[1].to_owned(), (!msg.is_empty()).then_some(msg)),
            ));
        }
        for c in code.captures_iter(text) {
            // `Error with code: Can't connect…` is prose: a code is a word of its own.
            let after = &text[c.get(1).map_or(0, |m| m.end())..];
            let prose = after.starts_with('\'') && after[1..].starts_with(char::is_alphabetic);
            if prose || NOT_ERRORS.contains(&&c[1]) {
                continue;
            }
            let at = c.get(1).map_or(0, |m| m.start());
            if !events
                .iter()
                .any(|(_, e)| matches!(e, Event::Code(known, _) if *known == c[1]))
            {
                events.push((at, Event::Code(c[1].to_owned(), None)));
            }
        }
        for c in message.captures_iter(text) {
            if let Some(m) = c.get(1).or(c.get(2)).or(c.get(3)) {
                // An unquoted value may still open a string the paste cut across lines.
                let said = m.as_str().trim();
                let said = if c.get(3).is_some() {
                    said.trim_start_matches(['"', '\''])
                } else {
                    said
                };
                events.push((m.start(), Event::Message(said.to_owned())));
            }
        }
        events.sort_by_key(|(at, _)| *at);
        for (_, e) in events {
            match e {
                Event::Code(c, m) => {
                    let m = m.map(|m| (n, m)).or_else(|| ahead.take());
                    codes.push((n, c, m));
                }
                Event::Message(m) if m.len() >= 3 => {
                    match codes.last_mut().filter(|(_, _, have)| have.is_none()) {
                        Some(last) => last.2 = Some((n, m)),
                        // An object whose message key comes before its code
                        // (`"ErrorMessage": …, "ErrorCode": …`).
                        None => {
                            first_ahead.get_or_insert_with(|| (n, m.clone()));
                            ahead = Some((n, m));
                        }
                    }
                }
                Event::Message(_) => {}
            }
        }
    }
    if codes.is_empty() {
        codes.extend(raised_without_code(block, first_ahead));
    }
    codes.dedup_by(|b, a| a.1 == b.1);
    let innermost = codes
        .iter()
        .rposition(|(_, c, _)| !WRAPPERS.contains(&c.as_str()));
    let at = innermost.unwrap_or(codes.len().checked_sub(1)?);
    let (message_line, message) = codes[at..]
        .iter()
        .chain(codes[..at].iter().rev())
        .find_map(|(_, _, m)| m.clone())
        .unwrap_or_else(|| (codes[at].0, said_around(block, codes[at].0, &codes[at].1)));
    Some(ServiceError {
        line: codes[at].0,
        message_line,
        details,
        codes: codes.into_iter().map(|(_, c, _)| c).collect(),
        message,
    })
}

/// An SDK exception whose body has a message and no code (`ProjectSystemException:` then
/// `Message: Workspace not found.`): the exception's class stands for the code.
fn raised_without_code(block: &[(u64, &str)], message: Option<(u64, String)>) -> Option<Met> {
    let (n, class) = block
        .iter()
        .find_map(|&(n, t)| exception_class(t).map(|c| (n, c)))?;
    Some((n, class.to_owned(), Some(message?)))
}

/// The class of the exception a line raises (`ProjectSystemException:`,
/// `azureml.exceptions.WebserviceException:`, a debugger's `{X}X: …`), its last name.
fn exception_class(line: &str) -> Option<&str> {
    static R: OnceLock<Regex> = OnceLock::new();
    let r = R.get_or_init(|| {
        Regex::new(r"^[\s>]*(?:\{[\w.]+\})?(?:[A-Za-z_]\w*\.)*([A-Z][A-Za-z0-9]*(?:Exception|Error)):(?:\s|$)")
            .expect("valid")
    });
    r.captures(line).and_then(|c| c.get(1)).map(|m| m.as_str())
}

/// Whether `line` holds a service's `(Code) Message` (`(EmptyLLMApiMapping) LLM api
/// mapping is empty`, the az CLI's and the SDK's way of printing an error, at the start
/// of a line or as a string a client stored): a CamelCase code of two words at least in
/// parentheses, then a sentence. No error literal keeps such a line when its code is
/// not an `…Error`; as the line a paste ends on, it is how the paste failed.
pub(crate) fn holds_paren_code(line: &str) -> bool {
    regexes()[4].is_match(line)
}

/// Whether `line` names an error code by key (`"code": "ScoreRequestUnauthorized"`,
/// `ErrorCode: X`) whose value is not one that says all went well.
pub(crate) fn holds_code_key(line: &str) -> bool {
    regexes()[1]
        .captures_iter(line)
        .any(|c| !NOT_ERRORS.contains(&&c[1]))
}

/// `FailedStartingContainerUserError: Unable to start …`: a compute error's code (a
/// CamelCase name ending in Error, Exception, Failure or Failed) and its message.
fn compute_code(line: &str) -> Option<(&str, &str)> {
    let (name, said) = line.split_once(": ")?;
    let named = name.starts_with(|c: char| c.is_ascii_uppercase())
        && name.bytes().all(|b| b.is_ascii_alphanumeric())
        && ["Error", "Exception", "Failure", "Failed"]
            .iter()
            .any(|s| name.ends_with(s));
    named.then_some((name, said))
}

/// A code that came with no message key (`Authentication failed for registry r. Code:
/// UserError`, `AzureHttpError('Operation could not be completed…'. ErrorCode: X`): the
/// sentence is the rest of its line, when there is one.
fn said_around(block: &[(u64, &str)], line: u64, code: &str) -> String {
    let text = block
        .iter()
        .find(|(n, _)| *n == line)
        .map_or("", |(_, t)| t.trim());
    let rest = text.replacen(code, "", 1);
    let words = rest
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.len() > 2)
        .count();
    if words >= 3 {
        text.trim_matches(['`', '"', '\'', ' ']).to_owned()
    } else {
        String::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_in_parentheses_is_a_service_error_line() {
        for line in [
            "(EmptyLLMApiMapping) LLM api mapping is empty.",
            "> (ResourceNotReady) User container has crashed or terminated.",
            "{'node': 'chat', 'message': \"(ToolLoadError) Failed to load tool.\"}",
        ] {
            assert!(holds_paren_code(line), "{line}");
        }
        for line in [
            "(Optional) Set the number of workers.",
            "print(GetModel) ",
            "Loaded model f(ModelName) in 3s",
            "(ModelName)",
            "(NotFound)) 404",
        ] {
            assert!(!holds_paren_code(line), "{line}");
        }
    }

    fn one(text: &str) -> ServiceError {
        let lines: Vec<(u64, &str)> = text.lines().zip(1..).map(|(l, n)| (n, l)).collect();
        let mut all = read(&lines);
        assert_eq!(all.len(), 1, "{all:?}");
        all.remove(0)
    }

    #[test]
    fn az_cli_codes_with_their_inner_details() {
        let e = one(
            "ERROR: (BadRequest) The request is invalid.\nCode: BadRequest\nMessage: The request is invalid.\nException Details:\t(QuotaExceeded) Not enough quota for Standard_F4s_v2 in region westeurope.\n\tCode: QuotaExceeded\n\tMessage: Not enough quota for Standard_F4s_v2 in region westeurope.",
        );
        assert_eq!(e.specific(), "QuotaExceeded");
        assert_eq!(e.codes, ["BadRequest", "QuotaExceeded"]);
        assert!(e.message.starts_with("Not enough quota"), "{e:?}");
        assert_eq!(e.line, 4);
    }

    #[test]
    fn rest_json_at_any_depth_and_error_code_lists() {
        let e = one(
            r#"{"error": {"code": "UserError", "message": "Bad input", "details": [{"code": "ModelNotFound", "message": "Model churn:7 was not found."}]}}"#,
        );
        assert_eq!(e.specific(), "ModelNotFound");
        assert_eq!(e.message, "Model churn:7 was not found.");
        let e = one(
            r#"[{"ErrorCode": "InvalidVmSize", "ErrorMessage": "Standard_X is not a supported SKU", "PropertyName": "instance_type"}]"#,
        );
        assert_eq!(e.specific(), "InvalidVmSize");
        assert!(e.message.contains("not a supported SKU"), "{e:?}");
    }

    #[test]
    fn a_message_key_before_its_code_key_is_that_codes_message() {
        let e = one(
            "[\n  {\n    \"PropertyName\": \"OutputData.Values[0].JobOutputType\",\n    \"ErrorMessage\": \"Job output type must be 'uri_file'.\",\n    \"AttemptedValue\": \"uri_folder\",\n    \"ErrorCode\": \"PredicateValidator\"\n  }\n]",
        );
        assert_eq!(e.specific(), "PredicateValidator");
        assert_eq!(e.message, "Job output type must be 'uri_file'.");
    }

    #[test]
    fn an_sdk_exception_line_carries_its_code_and_message() {
        let e = one(
            "> HttpResponseError: (InferencingClientCallFailed) \"Endpoint Quota reached for subscription x. Current usage/limit: 300/300.\"\n> Code: InferencingClientCallFailed",
        );
        assert_eq!(e.specific(), "InferencingClientCallFailed");
        assert!(e.message.starts_with("Endpoint Quota reached"), "{e:?}");
    }

    #[test]
    fn a_compute_block_gives_its_code_and_its_reason_chain() {
        let e = one(
            "Error: AzureMLCompute job failed.\nAcrRefreshTokenRetrievalError: Unable to retrieve ACR refresh token using Compute Identity x.\n\tReason: Retrieving ACR refresh token using identity failed\n\terr: dial tcp: lookup r.azurecr.io on 168.63.129.16:53: no such host",
        );
        assert_eq!(e.specific(), "AcrRefreshTokenRetrievalError");
        assert!(e.message.starts_with("Unable to retrieve ACR"), "{e:?}");
        assert_eq!(e.details.len(), 2, "{e:?}");
        assert!(e.details[1].contains("no such host"));
    }

    #[test]
    fn pretty_bodies_split_over_lines_and_escaped_bodies() {
        let e = one(
            "\"error\": {\n  \"code\": \"UserError\",\n  \"severity\": null,\n  \"message\": \"Datastore's secret is not found.\",\n  \"messageFormat\": null,\n  \"target\": null,\n  \"details\": [],\n  \"innerError\": {\n    \"code\": \"NotFoundError\"",
        );
        assert_eq!(e.codes, ["UserError", "NotFoundError"]);
        assert_eq!(e.message, "Datastore's secret is not found.");
        assert_eq!(e.message_line, 4);
        let e = one(r#"{"message": "Message: Environment is missing.\nCode: UserError"}"#);
        assert_eq!(e.specific(), "UserError");
    }

    #[test]
    fn a_wrapper_alone_is_still_read_and_plain_prose_is_no_error() {
        let e = one(
            "Code: DeploymentFailed\nMessage: At least one resource deployment operation failed.",
        );
        assert_eq!(e.specific(), "DeploymentFailed");
        let lines = [
            (1, "The model loaded; error rate is 0"),
            (2, "INFO all good"),
        ];
        assert!(read(&lines).is_empty());
        let ok = [(
            1,
            r#"{"status": "done", "code": "Success", "message": "scored 3 rows"}"#,
        )];
        assert!(read(&ok).is_empty());
    }

    #[test]
    fn an_sdk_exception_with_a_message_and_no_code_is_named_by_its_class() {
        let e = one(
            "{ProjectSystemException}ProjectSystemException:\n\tMessage: Workspace not found.\n\tInnerException None\n{\n  \"error\": {\n    \"message\": \"Workspace not found.\"",
        );
        assert_eq!(e.codes, ["ProjectSystemException"]);
        assert_eq!(e.message, "Workspace not found.");
        assert_eq!(
            e.message_line, 2,
            "the body's own message, not a later copy"
        );
        // An exception line alone, without a message, is not a service's error.
        assert!(read(&[(1, "ValueError: shapes not aligned")]).is_empty());
    }
}
