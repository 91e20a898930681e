//! JUnit XML for CI test tabs (Azure DevOps, Jenkins, GitLab): one testsuite per input,
//! one testcase per rule that reads that input's kind. A finding that trips the gate is a
//! `<failure>`, one below `--fail-on` or in the baseline passes with a note, a
//! suppressed one is `<skipped>` — the same verdict the exit code gives.

use std::io::{self, Write};

use crate::finding::{BaselineState, Finding};

use super::diagnose::DiagnoseReport;

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

fn body(f: &Finding, path: &str) -> String {
    let mut s = String::new();
    for e in f.evidence.iter().filter(|e| e.path == path) {
        s.push_str(&format!("{}:{}: {}\n", e.path, e.line, e.text));
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

pub fn write(out: &mut dyn Write, report: &DiagnoseReport) -> io::Result<()> {
    let fail_on = report.summary.fail_on;
    let mut suites = String::new();
    let (mut tests, mut failures, mut skipped) = (0u64, 0u64, 0u64);
    for input in &report.inputs {
        let (mut t, mut fl, mut sk) = (0u64, 0u64, 0u64);
        let mut cases = String::new();
        for rule in report
            .rules
            .iter()
            .filter(|r| r.reads.contains(&input.kind))
        {
            t += 1;
            let open = format!(
                "    <testcase classname=\"amldoctor.{}\" name=\"{}\" file=\"{}\">",
                escape(&rule.family),
                escape(&rule.id),
                escape(&input.path)
            );
            let finding = report
                .findings
                .iter()
                .find(|f| f.rule_id == rule.id && f.paths.iter().any(|p| p == &input.path));
            let suppressed = report
                .suppressed
                .iter()
                .find(|s| s.rule_id == rule.id && s.paths.iter().any(|p| p == &input.path));
            if let Some(f) = finding {
                let in_baseline = f.baseline_state == Some(BaselineState::Unchanged);
                if fail_on.trips(f.severity) && !in_baseline {
                    fl += 1;
                    cases.push_str(&format!(
                        "{open}\n      <failure type=\"{}\" message=\"{}\">{}</failure>\n    </testcase>\n",
                        f.severity,
                        escape(&f.title),
                        escape(&body(f, &input.path))
                    ));
                } else {
                    let why = if in_baseline {
                        "in the baseline"
                    } else {
                        "below --fail-on"
                    };
                    cases.push_str(&format!(
                        "{open}\n      <system-out>{} ({why}): {}\n{}</system-out>\n    </testcase>\n",
                        f.severity,
                        escape(&f.title),
                        escape(&body(f, &input.path))
                    ));
                }
            } else if let Some(s) = suppressed {
                sk += 1;
                cases.push_str(&format!(
                    "{open}\n      <skipped message=\"suppressed: {} ({})\"/>\n    </testcase>\n",
                    escape(&s.reason),
                    escape(&s.source)
                ));
            } else {
                cases.push_str(&format!("{}\n", open.replace("\">", "\"/>")));
            }
        }
        tests += t;
        failures += fl;
        skipped += sk;
        suites.push_str(&format!(
            "  <testsuite name=\"{}\" tests=\"{t}\" failures=\"{fl}\" errors=\"0\" skipped=\"{sk}\">\n    <properties>\n      <property name=\"kind\" value=\"{}\"/>\n      <property name=\"lines\" value=\"{}\"/>\n    </properties>\n{cases}  </testsuite>\n",
            escape(&input.path),
            input.kind,
            input.lines
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
