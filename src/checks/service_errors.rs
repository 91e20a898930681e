//! "The service said so": an input whose error block carries the service's own code
//! and message, but on which no rule fired, gets a finding naming the innermost
//! specific code and quoting the message ([`crate::evidence::service_error`] reads
//! them), instead of the vaguer unrecognised-failure one, or nothing.

use std::collections::BTreeMap;

use crate::evidence::service_error::{self, ServiceError};
use crate::finding::{Computed, Evidence, Finding, Layer};
use crate::rules::Rule;

/// The rule id, whose YAML file carries the text.
pub(crate) const RULE_ID: &str = "service-error";

/// The longest message quoted; a service's message is a sentence or two.
const MESSAGE_CHARS: usize = 400;

/// One finding per distinct code among a document's error lines; `known` says whether
/// `amldoctor explain` knows a code (only then is that command printed).
pub(crate) fn check(error_lines: &[Evidence], known: &dyn Fn(&str) -> bool) -> Vec<Computed> {
    let lines: Vec<(u64, &str)> = error_lines
        .iter()
        .map(|e| (e.location.line(), e.text.as_str()))
        .collect();
    let mut seen: Vec<String> = Vec::new();
    let mut out = Vec::new();
    for error in service_error::read(&lines) {
        let code = error.specific().to_owned();
        if code.is_empty() || seen.contains(&code) {
            continue;
        }
        seen.push(code.clone());
        let mut found = finding(&error, code.clone(), error_lines);
        if known(&code) {
            found.commands.push("amldoctor explain {code}");
        }
        out.push(found);
    }
    out
}

/// One finding per service error, under the rule's text: two inputs with different
/// codes are two findings (a computed rule would fold them into one).
pub(crate) fn as_finding(rule: &Rule, c: Computed) -> Finding {
    let text = c.evidence.first().map_or("", |e| e.text.as_str());
    let code = c.facts.get("code").cloned().unwrap_or_default();
    let mut commands: Vec<String> = c.commands.iter().map(|s| (*s).to_owned()).collect();
    commands.extend(rule.commands.iter().cloned());
    Finding {
        fingerprint: crate::finding::fingerprint(&rule.id, &format!("{code} {text}")),
        rule_id: rule.id.clone(),
        severity: rule.severity,
        layer: if rule.id == RULE_ID {
            Layer::ServiceError
        } else if rule.id == crate::checks::unrecognised::RULE_ID {
            Layer::Unrecognised
        } else {
            Layer::Category
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
        remediation: rule.remediation.clone(),
        commands,
        docs: rule.docs.clone(),
        caused_by: Vec::new(),
        symptoms: Vec::new(),
        edits: Vec::new(),
        failing: false,
        baseline_state: None,
    }
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
    let evidence = error_lines
        .iter()
        .filter(|e| e.location.line() == error.line)
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
        let found = check(&lines, &|c| c == "VmSizeNotSupported");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].facts["code"], "VmSizeNotSupported");
        assert_eq!(found[0].facts["codes"], "BadRequest → VmSizeNotSupported");
        assert_eq!(found[0].facts["message"], "Standard_X is not offered here.");
        assert_eq!(found[0].evidence[0].location.line(), 9);
        assert_eq!(found[0].commands, ["amldoctor explain {code}"]);
        let unknown = check(&lines, &|_| false);
        assert!(unknown[0].commands.is_empty(), "explain would not know it");
        let plain = [Evidence::at_line("x.log", 1, "ERROR: something broke")];
        assert!(check(&plain, &|_| true).is_empty());
    }
}
