//! The rule catalogue as `rules list` and `rules show` print it: one line a rule in a
//! table, or each rule's summary in json and yaml.

use std::fmt::Write as _;

use serde::Serialize;

use crate::rules::Rule;

#[derive(Debug, Serialize)]
struct RuleSummary<'a> {
    id: &'a str,
    severity: crate::finding::Severity,
    family: &'a str,
    title: &'a str,
    codes: &'a [String],
    reads: Vec<&'static str>,
    caused_by: &'a [String],
    remediation: &'a str,
    commands: &'a [String],
    docs: &'a [String],
    source: &'a str,
    builtin: bool,
}

/// A rule as `rules list|show -o json` and `explain -o json` print it.
pub(crate) fn summary(r: &Rule) -> impl Serialize + '_ {
    RuleSummary {
        id: &r.id,
        severity: r.severity,
        family: &r.family,
        title: &r.title,
        codes: &r.codes,
        reads: r.kind_names(),
        caused_by: &r.caused_by,
        remediation: &r.remediation,
        commands: &r.commands,
        docs: &r.docs,
        source: &r.source.path,
        builtin: r.source.builtin,
    }
}

/// `rules list` as a table: id, severity, family and title on one line when they fit
/// `width`, else the title wrapped on the lines below, indented.
pub(crate) fn table(rules: &[&Rule], width: usize) -> String {
    let w = rules.iter().map(|r| r.id.len()).max().unwrap_or(2);
    let fw = rules.iter().map(|r| r.family.len()).max().unwrap_or(6);
    let lead = w + 2 + 7 + 2 + fw + 2;
    // A title column narrower than this reads badly: titles go below instead.
    let one_line = lead + 32 <= width;
    let mut text = String::new();
    for r in rules {
        let head = format!(
            "{:<w$}  {:<7}  {:<fw$}  ",
            r.id,
            r.severity.name(),
            r.family
        );
        if one_line {
            for line in crate::report::text::wrap(&r.title, width, &head, &" ".repeat(lead)) {
                let _ = writeln!(text, "{line}");
            }
        } else {
            let _ = writeln!(text, "{}", head.trim_end());
            for line in crate::report::text::wrap(&r.title, width, "    ", "    ") {
                let _ = writeln!(text, "{line}");
            }
        }
    }
    text
}
