//! JUnit XML for CI test tabs (Azure DevOps, Jenkins, GitLab): one testsuite per input,
//! one testcase per rule that reads that input's kind. A finding that trips the gate is a
//! `<failure>`, one below `--fail-on` or in the baseline passes with a note, a
//! suppressed one is `<skipped>` — the same verdict the exit code gives.

use std::io::{self, Write};

use crate::finding::{BaselineState, Finding};

use super::findings::Report;

/// Escapes text for XML 1.0 attributes and content, dropping characters XML forbids.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

fn body(f: &Finding, path: Option<&str>) -> String {
    let mut s = String::new();
    for e in f
        .evidence
        .iter()
        .filter(|e| path.is_none_or(|p| e.path() == p))
    {
        s.push_str(&format!("{}: {}\n", e.location, e.text));
    }
    if !f.facts.is_empty() {
        let facts: Vec<String> = f.facts.iter().map(|(k, v)| format!("{k}={v}")).collect();
        s.push_str(&format!("facts: {}\n", facts.join(", ")));
    }
    if !f.caused_by.is_empty() {
        s.push_str(&format!("symptom of: {}\n", f.caused_by.join(", ")));
    }
    s.push_str("\nfix:\n");
    s.push_str(&f.remediation);
    s.push('\n');
    if !f.commands.is_empty() {
        s.push_str("\nrun:\n");
        for c in &f.commands {
            s.push_str(&format!("  {c}\n"));
        }
    }
    s
}

/// One testsuite: a log file, or a whole ParallelRunStep tree (whose thousands of files
/// would otherwise become hundreds of thousands of testcases).
struct Suite<'r> {
    name: String,
    /// Inputs that belong to the suite.
    paths: Vec<&'r str>,
    kinds: Vec<crate::evidence::DocumentKind>,
    properties: Vec<(&'static str, String)>,
}

pub fn write(out: &mut dyn Write, report: &Report) -> io::Result<()> {
    let trips = |f: &Finding| f.failing;
    let roots: Vec<&str> = report.prs.iter().map(|p| p.root.as_str()).collect();
    let mut suites_in: Vec<Suite> = roots
        .iter()
        .map(|r| Suite {
            name: (*r).to_owned(),
            paths: Vec::new(),
            kinds: vec![crate::evidence::DocumentKind::Prs],
            properties: vec![("kind", "prs-tree".to_owned())],
        })
        .collect();
    for input in &report.inputs {
        let tree = input
            .prs_tree
            .as_deref()
            .and_then(|t| roots.iter().position(|r| *r == t));
        match tree {
            Some(t) => {
                suites_in[t].paths.push(&input.path);
                if !suites_in[t].kinds.contains(&input.kind) {
                    suites_in[t].kinds.push(input.kind);
                }
            }
            None => suites_in.push(Suite {
                name: input.path.clone(),
                paths: vec![&input.path],
                kinds: vec![input.kind],
                properties: vec![
                    ("kind", input.kind.to_string()),
                    ("lines", input.lines.to_string()),
                ],
            }),
        }
    }

    let mut suites = String::new();
    let (mut tests, mut failures, mut skipped) = (0u64, 0u64, 0u64);
    let mut reported: Vec<&str> = Vec::new();
    for suite in &suites_in {
        let (mut t, mut fl, mut sk) = (0u64, 0u64, 0u64);
        let mut cases = String::new();
        let single = (suite.paths.len() == 1).then(|| suite.paths[0]);
        for rule in report
            .rules
            .iter()
            .filter(|r| r.reads.iter().any(|k| suite.kinds.contains(k)))
        {
            t += 1;
            let open = format!(
                "    <testcase classname=\"amldoctor.{}\" name=\"{}\" file=\"{}\">",
                escape(&rule.family),
                escape(&rule.id),
                escape(single.unwrap_or(&suite.name))
            );
            let in_suite =
                |paths: &[String]| paths.iter().any(|p| suite.paths.contains(&p.as_str()));
            let finding = report
                .findings
                .iter()
                .find(|f| f.rule_id == rule.id && in_suite(&f.paths));
            let suppressed = report
                .suppressed
                .iter()
                .find(|x| x.rule_id == rule.id && in_suite(&x.paths));
            if let Some(f) = finding {
                if trips(f) {
                    fl += 1;
                    reported.push(&f.rule_id);
                    cases.push_str(&format!(
                        "{open}\n      <failure type=\"{}\" message=\"{}\">{}</failure>\n    </testcase>\n",
                        f.severity,
                        escape(&f.title),
                        escape(&body(f, single))
                    ));
                } else {
                    let why = if f.baseline_state == Some(BaselineState::Unchanged) {
                        "in the baseline"
                    } else {
                        "below --fail-on"
                    };
                    cases.push_str(&format!(
                        "{open}\n      <system-out>{} ({why}): {}\n{}</system-out>\n    </testcase>\n",
                        f.severity,
                        escape(&f.title),
                        escape(&body(f, single))
                    ));
                }
            } else if let Some(x) = suppressed {
                sk += 1;
                cases.push_str(&format!(
                    "{open}\n      <skipped message=\"suppressed: {} ({})\"/>\n    </testcase>\n",
                    escape(&x.reason),
                    escape(&x.source)
                ));
            } else {
                cases.push_str(&format!("{}\n", open.replace("\">", "\"/>")));
            }
        }
        tests += t;
        failures += fl;
        skipped += sk;
        let props: String = suite
            .properties
            .iter()
            .map(|(k, v)| format!("      <property name=\"{k}\" value=\"{}\"/>\n", escape(v)))
            .collect();
        suites.push_str(&format!(
            "  <testsuite name=\"{}\" tests=\"{t}\" failures=\"{fl}\" errors=\"0\" skipped=\"{sk}\">\n    <properties>\n{props}    </properties>\n{cases}  </testsuite>\n",
            escape(&suite.name)
        ));
    }
    // Findings that trip the gate but belong to no suite above (no input of a kind the
    // rule reads): the verdict must match the exit code, so they fail here.
    let orphans: Vec<&Finding> = report
        .findings
        .iter()
        .filter(|f| trips(f) && !reported.contains(&f.rule_id.as_str()))
        .collect();
    if !orphans.is_empty() {
        let mut cases = String::new();
        for f in &orphans {
            cases.push_str(&format!(
                "    <testcase classname=\"amldoctor.{}\" name=\"{}\">\n      <failure type=\"{}\" message=\"{}\">{}</failure>\n    </testcase>\n",
                escape(&f.family),
                escape(&f.rule_id),
                f.severity,
                escape(&f.title),
                escape(&body(f, None))
            ));
        }
        tests += orphans.len() as u64;
        failures += orphans.len() as u64;
        suites.push_str(&format!(
            "  <testsuite name=\"amldoctor findings\" tests=\"{n}\" failures=\"{n}\" errors=\"0\" skipped=\"0\">\n{cases}  </testsuite>\n",
            n = orphans.len()
        ));
    }
    for n in &report.not_analysed {
        tests += 1;
        skipped += 1;
        suites.push_str(&format!(
            "  <testsuite name=\"{}\" tests=\"1\" failures=\"0\" errors=\"0\" skipped=\"1\">\n    <testcase classname=\"amldoctor.input\" name=\"analysed\">\n      <skipped message=\"not analysed: {}\"/>\n    </testcase>\n  </testsuite>\n",
            escape(&n.path),
            escape(&n.reason)
        ));
    }
    write!(
        out,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"amldoctor\" tests=\"{tests}\" failures=\"{failures}\" errors=\"0\" skipped=\"{skipped}\">\n{suites}</testsuites>\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping() {
        assert_eq!(
            escape("a<b & \"c\" 'd'>"),
            "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;"
        );
        assert_eq!(escape("bell\u{7}"), "bell\u{FFFD}");
        assert_eq!(escape("tab\tnl\n"), "tab\tnl\n");
    }
}
