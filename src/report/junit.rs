//! JUnit XML for CI test tabs (Azure DevOps, Jenkins, GitLab): one testsuite per input,
//! one testcase per rule that reads that input's kind. A finding that trips the gate is a
//! `<failure>`, one below `--fail-on` or in the baseline passes with a note, a
//! suppressed one is `<skipped>` — the same verdict the exit code gives.

use std::fmt::Write as _;
use std::io::{self, Write};

use crate::finding::{BaselineState, Finding};

use super::findings::Report;

/// Escapes text for XML 1.0 attributes and content, dropping characters XML forbids.
pub(crate) fn escape(text: &str) -> String {
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
        let _ = writeln!(s, "{}: {}", e.location, e.text);
    }
    if !f.facts.is_empty() {
        let facts: Vec<String> = f.facts.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let _ = writeln!(s, "facts: {}", facts.join(", "));
    }
    let _ = writeln!(s, "found by: {}", f.layer.name());
    if !f.caused_by.is_empty() {
        let _ = writeln!(s, "symptom of: {}", f.caused_by.join(", "));
    }
    s.push_str("\nfix:\n");
    s.push_str(&f.remediation);
    s.push('\n');
    if !f.commands.is_empty() {
        s.push_str("\nrun:\n");
        for c in &f.commands {
            let _ = writeln!(s, "  {c}");
        }
    }
    s
}

/// One testsuite: a log file, a resource file, or a whole ParallelRunStep tree (whose
/// thousands of files would otherwise become hundreds of thousands of testcases).
struct Suite<'r> {
    name: String,
    /// Inputs that belong to the suite.
    paths: Vec<&'r str>,
    kinds: Vec<crate::evidence::DocumentKind>,
    resource_kinds: Vec<crate::evidence::resource::ResourceKind>,
    /// A host whose DNS answers the DNS rules judge.
    dns: bool,
    properties: Vec<(&'static str, String)>,
}

/// Tests, failures and skipped cases, as JUnit counts them.
#[derive(Debug, Default, Clone, Copy)]
struct Counts {
    tests: u64,
    failures: u64,
    errors: u64,
    skipped: u64,
}

impl Counts {
    fn add(&mut self, other: Counts) {
        self.tests += other.tests;
        self.failures += other.failures;
        self.errors += other.errors;
        self.skipped += other.skipped;
    }
}

/// The suites of a report: ParallelRunStep trees, then each log input, then each
/// resource file.
fn suites_of(report: &Report) -> Vec<Suite<'_>> {
    let roots: Vec<&str> = report.sections.prs().map(|p| p.root.as_str()).collect();
    let mut suites: Vec<Suite> = roots
        .iter()
        .map(|r| Suite {
            name: (*r).to_owned(),
            paths: Vec::new(),
            kinds: vec![crate::evidence::DocumentKind::Prs],
            resource_kinds: Vec::new(),
            dns: false,
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
                suites[t].paths.push(&input.path);
                if !suites[t].kinds.contains(&input.kind) {
                    suites[t].kinds.push(input.kind);
                }
            }
            None => suites.push(Suite {
                name: input.path.clone(),
                paths: vec![&input.path],
                kinds: vec![input.kind],
                resource_kinds: Vec::new(),
                dns: false,
                properties: vec![
                    ("kind", input.kind.to_string()),
                    ("lines", input.lines.to_string()),
                ],
            }),
        }
    }
    for res in &report.resources {
        match suites.iter_mut().find(|s| s.name == res.path) {
            Some(s) => {
                if !s.resource_kinds.contains(&res.kind) {
                    s.resource_kinds.push(res.kind);
                }
            }
            None => suites.push(Suite {
                name: res.path.clone(),
                paths: vec![&res.path],
                kinds: Vec::new(),
                resource_kinds: vec![res.kind],
                dns: false,
                properties: vec![("kind", res.kind.to_string())],
            }),
        }
    }
    // One suite per host resolved, its answers as properties.
    for o in report.sections.dns() {
        match suites.iter_mut().find(|s| s.dns && s.name == o.host) {
            Some(s) => s
                .properties
                .push(("answer", format!("{}: {}", o.server, o.answer_text()))),
            None => suites.push(Suite {
                name: o.host.clone(),
                paths: vec![&o.host],
                kinds: Vec::new(),
                resource_kinds: Vec::new(),
                dns: true,
                properties: vec![
                    ("kind", "dns".to_owned()),
                    ("answer", format!("{}: {}", o.server, o.answer_text())),
                ],
            }),
        }
    }
    suites
}

/// How the JUnit writer writes (`--junit-file-attribute`) and how long the run took.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct JunitOptions {
    /// A `file` attribute on every testcase, as GitLab reads it (outside junit-10.xsd).
    pub file_attribute: bool,
    /// Seconds the run took, for the suites' `time`.
    pub elapsed_seconds: f64,
}

impl JunitOptions {
    /// The run's time (the SUREFIRE_TIME form: digits, a point, digits).
    fn time(&self) -> String {
        seconds(self.elapsed_seconds)
    }
}

fn seconds(s: f64) -> String {
    format!("{:.3}", s.max(0.0))
}

pub(crate) fn write(
    out: &mut dyn Write,
    report: &Report,
    options: &JunitOptions,
) -> io::Result<()> {
    let mut suites = String::new();
    let mut total = Counts::default();
    let mut reported: Vec<&str> = Vec::new();
    let all = suites_of(report);
    // The run judged every suite at once: each gets an equal share of its time, so the
    // suites add up to the total consumers show (GitLab and Azure DevOps sum them).
    let count = all.len() + report.not_analysed.len() + 1;
    let count = f64::from(u32::try_from(count).unwrap_or(u32::MAX));
    let share = seconds(options.elapsed_seconds / count);
    for suite in &all {
        let (text, counts) =
            write_suite(report, options.file_attribute, suite, &mut reported, &share);
        suites.push_str(&text);
        total.add(counts);
    }
    total.add(write_orphans(
        report,
        options.file_attribute,
        &reported,
        &mut suites,
        &share,
    ));
    for n in &report.not_analysed {
        // An input the user named and the run could not use is an error (exit 2);
        // one skipped inside a folder (binary, unknown JSON) is skipped.
        let (errors, skipped, case) = if n.error {
            (
                1,
                0,
                format!("<error message=\"cannot analyse: {}\"/>", escape(&n.reason)),
            )
        } else {
            (
                0,
                1,
                format!("<skipped message=\"not analysed: {}\"/>", escape(&n.reason)),
            )
        };
        total.add(Counts {
            tests: 1,
            failures: 0,
            errors,
            skipped,
        });
        let file = file_attribute(options.file_attribute, &n.path);
        let _ = writeln!(
            suites,
            "  <testsuite name=\"{}\" tests=\"1\" failures=\"0\" errors=\"{errors}\" skipped=\"{skipped}\" time=\"{share}\">\n    <testcase classname=\"amldoctor.input\" name=\"analysed\"{file}>\n      {case}\n    </testcase>\n  </testsuite>",
            escape(&n.path),
        );
    }
    write!(
        out,
        // No `skipped` here: junit-10.xsd allows it on suites only.
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"amldoctor\" tests=\"{}\" failures=\"{}\" errors=\"{}\" time=\"{}\">\n{suites}</testsuites>\n",
        total.tests,
        total.failures,
        total.errors,
        options.time()
    )
}

/// One suite: a testcase for every rule that reads what the suite holds.
fn write_suite<'r>(
    report: &'r Report,
    file_attr: bool,
    suite: &Suite<'_>,
    reported: &mut Vec<&'r str>,
    share: &str,
) -> (String, Counts) {
    let mut counts = Counts::default();
    let mut cases = String::new();
    let single = (suite.paths.len() == 1).then(|| suite.paths[0]);
    let reads = |r: &&super::findings::RuleRef| {
        r.reads.iter().any(|k| suite.kinds.contains(k))
            || r.resources.iter().any(|k| suite.resource_kinds.contains(k))
            || (suite.dns && r.dns)
    };
    for rule in report.rules.iter().filter(reads) {
        counts.tests += 1;
        // Jenkins xUnit's junit-10.xsd has no `file` on a testcase (the suite names
        // it); GitLab shows one when asked for.
        let file = file_attribute(file_attr, single.unwrap_or(&suite.name));
        let open = format!(
            "    <testcase classname=\"amldoctor.{}\" name=\"{}\"{file}>",
            escape(&rule.family),
            escape(&rule.id),
        );
        let in_suite = |paths: &[String]| paths.iter().any(|p| suite.paths.contains(&p.as_str()));
        let finding = report
            .findings
            .iter()
            .find(|f| f.rule_id == rule.id && in_suite(&f.paths));
        let suppressed = report
            .suppressed
            .iter()
            .find(|x| x.rule_id == rule.id && in_suite(&x.paths));
        if let Some(f) = finding {
            if f.failing {
                counts.failures += 1;
                reported.push(&f.rule_id);
            }
            cases.push_str(&finding_case(&open, f, single));
        } else if let Some(x) = suppressed {
            counts.skipped += 1;
            let _ = writeln!(
                cases,
                "{open}\n      <skipped message=\"suppressed: {} ({})\"/>\n    </testcase>",
                escape(&x.reason),
                escape(&x.source)
            );
        } else {
            let _ = writeln!(cases, "{}", open.replace("\">", "\"/>"));
        }
    }
    let props: String = suite
        .properties
        .iter()
        .map(|(k, v)| format!("      <property name=\"{k}\" value=\"{}\"/>\n", escape(v)))
        .collect();
    let file = single.map_or(String::new(), |p| format!(" file=\"{}\"", escape(p)));
    let text = format!(
        "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\" time=\"{}\"{file}>\n    <properties>\n{props}    </properties>\n{cases}  </testsuite>\n",
        escape(&suite.name),
        counts.tests,
        counts.failures,
        counts.skipped,
        share,
    );
    (text, counts)
}

/// ` file="PATH"` for a testcase when `--junit-file-attribute` asks for it.
fn file_attribute(on: bool, path: &str) -> String {
    if on {
        format!(" file=\"{}\"", escape(path))
    } else {
        String::new()
    }
}

/// A finding's testcase: a failure when the gate says so, otherwise a passing case
/// with the finding in its output.
fn finding_case(open: &str, f: &Finding, single: Option<&str>) -> String {
    if f.failing {
        return format!(
            "{open}\n      <failure type=\"{}\" message=\"{}\">{}</failure>\n    </testcase>\n",
            f.severity,
            escape(&f.title),
            escape(&body(f, single))
        );
    }
    let why = if f.baseline_state == Some(BaselineState::Unchanged) {
        "in the baseline"
    } else {
        "below --fail-on"
    };
    format!(
        "{open}\n      <system-out>{} ({why}): {}\n{}</system-out>\n    </testcase>\n",
        f.severity,
        escape(&f.title),
        escape(&body(f, single))
    )
}

/// Findings that fail the gate but belong to no suite above (no input of a kind the
/// rule reads): the verdict must match the exit code, so they fail here.
fn write_orphans(
    report: &Report,
    file_attr: bool,
    reported: &[&str],
    suites: &mut String,
    share: &str,
) -> Counts {
    let orphans: Vec<&Finding> = report
        .findings
        .iter()
        .filter(|f| f.failing && !reported.contains(&f.rule_id.as_str()))
        .collect();
    if orphans.is_empty() {
        return Counts::default();
    }
    let mut cases = String::new();
    for f in &orphans {
        let _ = writeln!(
            cases,
            "    <testcase classname=\"amldoctor.{}\" name=\"{}\"{}>\n      <failure type=\"{}\" message=\"{}\">{}</failure>\n    </testcase>",
            escape(&f.family),
            escape(&f.rule_id),
            f.paths
                .first()
                .map_or(String::new(), |p| file_attribute(file_attr, p)),
            f.severity,
            escape(&f.title),
            escape(&body(f, None))
        );
    }
    let n = orphans.len() as u64;
    let _ = writeln!(
        suites,
        "  <testsuite name=\"amldoctor findings\" tests=\"{n}\" failures=\"{n}\" errors=\"0\" skipped=\"0\" time=\"{share}\">\n{cases}  </testsuite>"
    );
    Counts {
        tests: n,
        failures: n,
        errors: 0,
        skipped: 0,
    }
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
