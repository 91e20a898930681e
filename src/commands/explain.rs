//! `amldoctor explain CODE|STATUS|RULE`: what an error code, an HTTP status or a rule
//! means, and what to do about it.

use std::io::Write;

use serde::Serialize;

use crate::catalogue::{HttpStatus, http_statuses};
use crate::cli::ExplainArgs;
use crate::context::Context;
use crate::error::{Error, Result};
use crate::exit_code::ExitCode;
use crate::report::explain::{self, Answer};
use crate::report::style::Style;
use crate::report::{Detail, OutputFormat};
use crate::rules::{Rule, RuleSet};

use super::support::load_rules;
use crate::analyse::placeholders::of_context as placeholders;
use crate::report::rule_list::summary;
use crate::suggest::closest;

#[derive(Debug, Serialize)]
struct Explanation<'a> {
    query: &'a str,
    statuses: Vec<HttpStatus>,
    rules: Vec<serde_json::Value>,
    /// Values the commands still need, and where to get each.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    missing_names: Vec<crate::rules::template::MissingName>,
}

pub(crate) fn run(ctx: &Context, args: &ExplainArgs, out: &mut dyn Write) -> Result<ExitCode> {
    if !matches!(
        ctx.output.value,
        OutputFormat::Table | OutputFormat::Json | OutputFormat::Yaml | OutputFormat::Markdown
    ) {
        return Err(Error::input(format!(
            "'explain' does not report findings, so -o {} does not apply; use table, markdown, json or yaml",
            ctx.output.value
        )));
    }
    let set = load_rules(ctx, &[])?;
    let statuses = http_statuses().map_err(Error::input)?;
    let q = args.query.trim();
    let run_values = placeholders(ctx);
    let (matched_statuses, mut matched_rules) = matching(&set, &statuses, q);
    if matched_statuses.is_empty() && matched_rules.is_empty() {
        return Err(unknown(&set, &statuses, q));
    }
    // The usual case first, managed endpoints before Kubernetes ones, then by id.
    matched_rules.sort_by_key(|r| (!r.usual, r.family == "kubernetes", r.id.clone()));
    // The code or rule id as the catalogue spells it, whatever case was typed.
    let spelled = matched_rules
        .iter()
        .flat_map(|r| r.codes.iter().chain(std::iter::once(&r.id)))
        .find(|c| c.eq_ignore_ascii_case(q))
        .map_or(q, String::as_str);
    let answer = Answer {
        query: spelled,
        statuses: &matched_statuses,
        rules: matched_rules,
        names: &run_values,
    };
    match ctx.output.value {
        OutputFormat::Table => explain::write_table(
            out,
            &answer,
            Style::new(ctx.color).with_width(ctx.width),
            Detail::of(ctx.quiet, ctx.verbose),
        ),
        OutputFormat::Markdown => explain::write_markdown(out, &answer),
        format => crate::report::emit(format, "explain", &document(q, &answer), out),
    }
    .map_err(Error::write)?;
    Ok(ExitCode::Clean)
}

/// The HTTP statuses and rules `q` names (a status, an error code, a rule id).
fn matching<'s>(
    set: &'s RuleSet,
    statuses: &[HttpStatus],
    q: &str,
) -> (Vec<HttpStatus>, Vec<&'s Rule>) {
    let matched_statuses: Vec<HttpStatus> = match status_of(q) {
        Some(code) => statuses
            .iter()
            .filter(|s| s.status == code)
            .cloned()
            .collect(),
        None => Vec::new(),
    };
    let mut matched_rules: Vec<&Rule> = set
        .rules
        .iter()
        .filter(|r| r.codes.iter().any(|c| c.eq_ignore_ascii_case(q)))
        .collect();
    if let Some(r) = set.rules.iter().find(|r| r.id.eq_ignore_ascii_case(q))
        && !matched_rules.iter().any(|m| m.id == r.id)
    {
        matched_rules.push(r);
    }
    (matched_statuses, matched_rules)
}

/// The HTTP status a query names, as people paste one: `429`, `HTTP 429`, `HTTP/1.1 429`,
/// `429 Too Many Requests`, `status 429`, `(429)`.
fn status_of(q: &str) -> Option<u16> {
    let lower = q.trim().to_ascii_lowercase();
    let rest = ["http/1.1", "http/2", "http", "status code", "status"]
        .iter()
        .find_map(|p| lower.strip_prefix(p))
        .unwrap_or(&lower);
    let rest = rest.trim_start_matches([' ', ':', '(']);
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let after = &rest[digits.len()..];
    // The reason phrase may follow, nothing else that starts with a digit.
    let ends = after.is_empty() || after.starts_with([' ', ')', ':']);
    (digits.len() == 3 && ends)
        .then(|| digits.parse().ok())
        .flatten()
}

/// `q` names nothing: the error, with the closest names.
fn unknown(set: &RuleSet, statuses: &[HttpStatus], q: &str) -> Error {
    let mut names: Vec<String> = set.rules.iter().map(|r| r.id.clone()).collect();
    names.extend(set.rules.iter().flat_map(|r| r.codes.iter().cloned()));
    names.extend(statuses.iter().map(|s| s.status.to_string()));
    names.sort();
    names.dedup();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let near = closest(q, &refs);
    let e = Error::input(format!(
        "'{q}' is not a known error code, HTTP status or rule id"
    ));
    if near.is_empty() {
        e.with_hint("run 'amldoctor rules list' for rule ids and codes")
    } else {
        e.with_hint(format!("did you mean {}?", near.join(", ")))
    }
}

/// The answer as `-o json` and `-o yaml` print it: names filled, the rest `<name>`,
/// as the table shows them.
fn document<'a>(q: &'a str, answer: &Answer<'_>) -> Explanation<'a> {
    Explanation {
        query: q,
        statuses: answer
            .statuses
            .iter()
            .map(|st| {
                let mut st = st.clone();
                st.meaning = answer.filled(&st.meaning);
                st.commands = st.commands.iter().map(|c| answer.filled(c)).collect();
                st
            })
            .collect(),
        rules: answer
            .rules
            .iter()
            .map(|r| {
                let mut v = serde_json::to_value(summary(r)).unwrap_or_default();
                v["remediation"] = answer.filled(&r.remediation).into();
                let commands: Vec<String> = r.commands.iter().map(|c| answer.filled(c)).collect();
                v["commands"] = commands.into();
                v
            })
            .collect(),
        missing_names: answer.missing(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_status_is_found_however_it_is_pasted() {
        for q in [
            "429",
            "HTTP 429",
            "http/1.1 429",
            "429 Too Many Requests",
            "status 429",
            "(429)",
        ] {
            assert_eq!(status_of(q), Some(429), "{q}");
        }
        for q in ["4290", "OutOfQuota", "HTTP", "42"] {
            assert_eq!(status_of(q), None, "{q}");
        }
    }
    use crate::suggest::distance;

    #[test]
    fn edit_distance() {
        assert_eq!(distance("OutOfQuota", "outofquota"), 0);
        assert_eq!(distance("OutOfQuta", "OutOfQuota"), 1);
        assert_eq!(distance("", "abc"), 3);
    }

    #[test]
    fn closest_names() {
        let names = [
            "OutOfQuota",
            "out-of-quota-disk",
            "ResourceNotReady",
            "429",
            "424",
        ];
        assert_eq!(closest("OutOfQuta", &names)[0], "OutOfQuota");
        assert_eq!(closest("428", &names), ["424", "429"]);
        assert!(closest("zzzzzzzzzz", &names).is_empty());
    }
}
