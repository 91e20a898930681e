//! "The service said so": an input whose error block carries the service's own code
//! and message, but on which no rule fired, gets a finding naming the innermost
//! specific code and quoting the message ([`crate::evidence::service_error`] reads
//! them), instead of the vaguer unrecognised-failure one, or nothing.

use std::collections::BTreeMap;

use crate::evidence::service_error::{self, ServiceError};
use crate::evidence::surface::Surface;
use crate::finding::{Computed, Evidence, Finding, Layer};
use crate::rules::Rule;

/// The rule id, whose YAML file carries the text.
pub(crate) const RULE_ID: &str = "service-error";

/// The command that explains a code `amldoctor explain` knows.
pub(crate) const EXPLAIN: &str = "amldoctor explain {code}";

/// The longest message quoted; a service's message is a sentence or two.
const MESSAGE_CHARS: usize = 400;

/// One finding per distinct code among a document's error lines; `known` says whether
/// `amldoctor explain` knows a code (only then is that command printed).
pub(crate) fn check(
    error_lines: &[Evidence],
    known: &dyn Fn(&str) -> bool,
) -> Vec<(ServiceError, Computed)> {
    let lines: Vec<(u64, &str)> = error_lines
        .iter()
        .map(|e| (e.location.line(), e.text.as_str()))
        .collect();
    let mut errors = service_error::read(&lines);
    let escaped = |e: &Evidence| e.text.contains("\\\"") || e.text.contains("\\n");
    if errors.is_empty() && error_lines.iter().any(escaped) {
        // A JSON-escaped body (`{\"code\": \"X\"}`) reads once unescaped. Only then: an
        // escaped body inside a message would end the message at its first quote.
        let clean = unescaped(error_lines);
        errors = service_error::read(
            &clean
                .iter()
                .map(|(n, t)| (*n, t.as_str()))
                .collect::<Vec<_>>(),
        );
    }
    let mut seen: Vec<String> = Vec::new();
    let mut out = Vec::new();
    for error in errors {
        let code = error.specific().to_owned();
        if code.is_empty() || seen.contains(&code) {
            continue;
        }
        seen.push(code.clone());
        let mut found = finding(&error, code.clone(), error_lines);
        if known(&code) {
            found.commands.push(EXPLAIN);
        }
        out.push((error, found));
    }
    out
}

/// Each error line without its paste artefacts, one entry per logical line.
fn unescaped(error_lines: &[Evidence]) -> Vec<(u64, String)> {
    error_lines
        .iter()
        .flat_map(|e| {
            let n = e.location.line();
            crate::evidence::normalize::logical_lines(&e.text)
                .into_iter()
                .map(move |l| (n, l))
        })
        .collect()
}

/// One finding per service error, under the rule's text: two inputs with different
/// codes are two findings (a computed rule would fold them into one).
pub(crate) fn as_finding(rule: &Rule, mut c: Computed, surface: Option<Surface>) -> Finding {
    let text = c.evidence.first().map_or("", |e| e.text.as_str());
    let code = c.facts.get("code").cloned().unwrap_or_default();
    let (remediation, rule_commands) = match rule.fix_on(surface) {
        Some((s, fix)) => {
            // Said, so a reader knows which of the rule's fixes this is.
            c.facts
                .insert("seen_on".to_owned(), s.describe().to_owned());
            (&fix.remediation, &fix.commands)
        }
        None => (&rule.remediation, &rule.commands),
    };
    let mut commands: Vec<String> = c.commands.iter().map(|s| (*s).to_owned()).collect();
    commands.extend(rule_commands.iter().cloned());
    Finding {
        fingerprint: crate::finding::fingerprint(&rule.id, &format!("{code} {text}")),
        rule_id: rule.id.clone(),
        severity: rule.severity,
        layer: if rule.id == crate::checks::unrecognised::RULE_ID {
            Layer::Unrecognised
        } else if crate::checks::cause_category::rule_ids().contains(&rule.id.as_str()) {
            Layer::Category
        } else {
            // The service-error rule, or the catalogue rule that claims the code.
            Layer::ServiceError
        },
        family: rule.family.clone(),
        title: if code.is_empty() {
            rule.title.clone()
        } else {
            format!("{}: {code}", rule.title)
        },
        count: c.count,
        inputs: 1,
        paths: c
            .evidence
            .first()
            .map(|e| vec![e.location.path().to_owned()])
            .unwrap_or_default(),
        evidence: c.evidence,
        facts: c.facts,
        names: c.names,
        remediation: remediation.clone(),
        commands,
        docs: docs_on(rule, surface),
        caused_by: Vec::new(),
        symptoms: Vec::new(),
        edits: Vec::new(),
        failing: false,
        baseline_state: None,
    }
}

/// A computed rule's links on `surface`: that surface's troubleshooting page first, then
/// the rule's own without the pages of other surfaces (a category's entry lists the
/// online page for when nothing says where the failure was seen). A catalogue rule
/// that claimed the code keeps its own links.
fn docs_on(rule: &Rule, surface: Option<Surface>) -> Vec<String> {
    let Some(surface) = surface.filter(|_| rule.computed) else {
        return rule.docs.clone();
    };
    let page = surface.troubleshooting();
    let other = |d: &str| Surface::ALL.iter().any(|s| s.troubleshooting() == d);
    std::iter::once(page.to_owned())
        .chain(rule.docs.iter().filter(|d| !other(d)).cloned())
        .collect()
}

fn finding(error: &ServiceError, code: String, error_lines: &[Evidence]) -> Computed {
    let mut message: String = crate::redact::redact(&error.message).into_owned();
    if message.chars().count() > MESSAGE_CHARS {
        message = message.chars().take(MESSAGE_CHARS).collect::<String>() + "…";
    }
    if message.is_empty() {
        message = "(the error carried no message)".to_owned();
    }
    let mut facts = BTreeMap::new();
    facts.insert("code".to_owned(), code);
    facts.insert("codes".to_owned(), error.codes.join(" → "));
    facts.insert("message".to_owned(), message);
    // The message's line first: it says what failed; the code's line says which code.
    let evidence = [error.message_line, error.line]
        .iter()
        .enumerate()
        .filter(|(i, n)| *i == 0 || **n != error.message_line)
        .filter_map(|(_, n)| error_lines.iter().find(|e| e.location.line() == *n))
        .cloned()
        .collect();
    Computed {
        rule_id: RULE_ID,
        count: 1,
        evidence,
        facts,
        names: BTreeMap::new(),
        commands: Vec::new(),
        edits: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_innermost_code_and_its_message_are_the_finding() {
        let lines = [
            Evidence::at_line("x.log", 7, "ERROR: (BadRequest) The request is invalid."),
            Evidence::at_line(
                "x.log",
                9,
                "Exception Details:\t(VmSizeNotSupported) Standard_X is not offered here.",
            ),
        ];
        let found: Vec<Computed> = check(&lines, &|c| c == "VmSizeNotSupported")
            .into_iter()
            .map(|(_, c)| c)
            .collect();
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].facts["code"], "VmSizeNotSupported");
        assert_eq!(found[0].facts["codes"], "BadRequest → VmSizeNotSupported");
        assert_eq!(found[0].facts["message"], "Standard_X is not offered here.");
        assert_eq!(found[0].evidence[0].location.line(), 9);
        assert_eq!(found[0].commands, ["amldoctor explain {code}"]);
        let unknown = check(&lines, &|_| false);
        assert!(
            unknown[0].1.commands.is_empty(),
            "explain would not know it"
        );
        let plain = [Evidence::at_line("x.log", 1, "ERROR: something broke")];
        assert!(check(&plain, &|_| true).is_empty());
    }
}
