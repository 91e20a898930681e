//! `amldoctor explain CODE|STATUS|RULE`: what an error code, an HTTP status or a rule
//! means, and what to do about it.

use std::fmt::Write as _;
use std::io::Write;

use serde::Serialize;

use crate::catalogue::{HttpStatus, http_statuses};
use crate::cli::ExplainArgs;
use crate::context::Context;
use crate::engine::fill;
use crate::error::{Error, Result};
use crate::exit_code::ExitCode;
use crate::report::rule_doc::rule_markdown;
use crate::report::{Envelope, OutputFormat, json, yaml};
use crate::rules::Rule;

use super::rules::summary;
use super::support::{closest, load_rules, placeholders};

#[derive(Debug, Serialize)]
struct Explanation<'a> {
    query: &'a str,
    statuses: Vec<HttpStatus>,
    rules: Vec<serde_json::Value>,
}

pub fn run(ctx: &Context, args: &ExplainArgs, out: &mut dyn Write) -> Result<ExitCode> {
    crate::report::require_plain(ctx.output.value, "explain")?;
    let set = load_rules(ctx, &[])?;
    let statuses = http_statuses().map_err(Error::input)?;
    let q = args.query.trim();
    let run_values = placeholders(ctx);

    let matched_statuses: Vec<HttpStatus> = match q.parse::<u16>() {
        Ok(code) => statuses
            .iter()
            .filter(|s| s.status == code)
            .cloned()
            .collect(),
        Err(_) => Vec::new(),
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

    if matched_statuses.is_empty() && matched_rules.is_empty() {
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
        return Err(if near.is_empty() {
            e.with_hint("run 'amldoctor rules list' for rule ids and codes")
        } else {
            e.with_hint(format!("did you mean {}?", near.join(", ")))
        });
    }

    match ctx.output.value {
        OutputFormat::Table => {
            let mut text = String::new();
            for s in &matched_statuses {
                text.push_str(&status_text(s, &run_values));
            }
            for r in &matched_rules {
                text.push_str(&rule_markdown(&set, r, "#", &run_values));
            }
            out.write_all(text.as_bytes()).map_err(Error::write)?;
        }
        format => {
            let body = Explanation {
                query: q,
                statuses: matched_statuses,
                rules: matched_rules
                    .iter()
                    .map(|r| serde_json::to_value(summary(r)).unwrap_or_default())
                    .collect(),
            };
            let env = Envelope::new("explain", &body);
            if format == OutputFormat::Json {
                json::write(out, &env)
            } else {
                yaml::write(out, &env)
            }
            .map_err(Error::write)?;
        }
    }
    Ok(ExitCode::Clean)
}

fn status_text(s: &HttpStatus, run: &crate::engine::Placeholders) -> String {
    let endpoint = if s.endpoint == "managed" {
        "managed online endpoints"
    } else {
        "Kubernetes online endpoints"
    };
    let mut t = format!(
        "# HTTP {} {} ({endpoint})\n\n{}\n\n",
        s.status,
        s.reason,
        s.meaning.trim_end()
    );
    if !s.causes.is_empty() {
        t.push_str("**Likely causes**\n\n");
        for c in &s.causes {
            let _ = writeln!(t, "- {c}");
        }
        t.push('\n');
    }
    if !s.checks.is_empty() {
        t.push_str("**Check**\n\n");
        for (i, c) in s.checks.iter().enumerate() {
            let _ = writeln!(t, "{}. {c}", i + 1);
        }
        t.push('\n');
    }
    if !s.commands.is_empty() {
        t.push_str("**Commands**\n\n```sh\n");
        for c in &s.commands {
            t.push_str(&fill(c, &Default::default(), run));
            t.push('\n');
        }
        t.push_str("```\n\n");
    }
    if !s.see_also.is_empty() {
        let _ = write!(t, "See also: {}\n\n", s.see_also.join(", "));
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::support::distance;

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
