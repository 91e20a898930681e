//! Every realistic log under tests/fixtures/logs (clean, one kind a file) and
//! tests/fixtures/pasted (as users paste them: markdown, CI prefixes, escapes, cut
//! lines, mixed sections) has a `NAME.expect.yaml` saying which kind it must be read as,
//! which findings must be reported and which must not. This runs the binary on each and
//! checks all three, so both misses and false positives fail. A pasted fixture may name
//! the `clean` fixture of the same signature: both must give its findings.

use std::path::Path;

use serde::Deserialize;

use crate::Sandbox;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct Expect {
    kind: String,
    #[serde(default)]
    must: Vec<String>,
    #[serde(default)]
    must_not: Vec<String>,
    #[serde(default)]
    no_error_findings: bool,
    /// The clean form of the same signature, relative to this file's folder.
    #[serde(default)]
    clean: Option<String>,
}

fn expectations() -> Vec<(std::path::PathBuf, std::path::PathBuf, Expect)> {
    let mut out = expectations_in("tests/fixtures/logs");
    out.extend(expectations_in("tests/fixtures/pasted"));
    out
}

fn expectations_in(folder: &str) -> Vec<(std::path::PathBuf, std::path::PathBuf, Expect)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(folder);
    let mut out = Vec::new();
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let Some(stem) = name.strip_suffix(".expect.yaml") else {
            continue;
        };
        let log = entries_with_stem(&dir, stem);
        let expect: Expect = serde_saphyr::from_str(&std::fs::read_to_string(&path).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        out.push((log, path, expect));
    }
    out
}

fn entries_with_stem(dir: &Path, stem: &str) -> std::path::PathBuf {
    for ext in ["log", "txt", "md"] {
        let p = dir.join(format!("{stem}.{ext}"));
        if p.exists() {
            return p;
        }
    }
    panic!("no log for {stem}.expect.yaml in {}", dir.display());
}

#[test]
fn every_fixture_reports_what_it_must_and_nothing_it_must_not() {
    let sb = Sandbox::new("fixtures");
    let all = expectations();
    assert!(
        all.len() >= 20,
        "expected the full fixture set, found {}",
        all.len()
    );
    let mut problems = Vec::new();
    for (log, expect_path, expect) in all {
        let run = sb.run(&[
            "diagnose",
            log.to_str().unwrap(),
            "-o",
            "json",
            "--fail-on",
            "never",
        ]);
        if run.code != 0 {
            problems.push(format!(
                "{}: exit {}: {}",
                log.display(),
                run.code,
                run.stderr
            ));
            continue;
        }
        let v = run.json();
        let kind = v["inputs"][0]["kind"].as_str().unwrap_or("?");
        if kind != expect.kind {
            problems.push(format!(
                "{}: read as {kind}, expected {}",
                log.display(),
                expect.kind
            ));
        }
        let ids = rule_ids(&v);
        for m in &expect.must {
            if !ids.contains(&m.as_str()) {
                problems.push(format!("{}: missing {m} (found {ids:?})", log.display()));
            }
        }
        for m in &expect.must_not {
            if ids.contains(&m.as_str()) {
                problems.push(format!("{}: false positive {m}", log.display()));
            }
        }
        if expect.no_error_findings {
            for f in v["findings"].as_array().unwrap() {
                if f["severity"] == "error" {
                    problems.push(format!(
                        "{}: healthy log has error finding {}",
                        log.display(),
                        f["rule_id"]
                    ));
                }
            }
        }
        if let Some(clean) = &expect.clean {
            let clean = expect_path.parent().unwrap().join(clean);
            let run = sb.run(&[
                "diagnose",
                clean.to_str().unwrap(),
                "-o",
                "json",
                "--fail-on",
                "never",
            ]);
            let v = run.json();
            let clean_ids = rule_ids(&v);
            for m in &expect.must {
                if !clean_ids.contains(&m.as_str()) {
                    problems.push(format!(
                        "{}: its clean form {} lacks {m}",
                        log.display(),
                        clean.display()
                    ));
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// The ways a log reaches amldoctor besides as a clean file: each turns a clean fixture
/// into what a user would paste.
fn pasted_variants(text: &str) -> Vec<(&'static str, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let each = |f: &dyn Fn(&str) -> String| {
        lines.iter().map(|l| f(l)).collect::<Vec<_>>().join("\n") + "\n"
    };
    let wrap = |width: usize| {
        let mut out = String::new();
        for l in &lines {
            let chars: Vec<char> = l.chars().collect();
            if chars.is_empty() {
                out.push('\n');
            }
            for piece in chars.chunks(width) {
                out.extend(piece);
                out.push('\n');
            }
        }
        out
    };
    vec![
        ("ci", each(&|l| format!("2025-03-04T10:22:31.4567890Z {l}"))),
        ("crlf", each(&|l| format!("{l}\r"))),
        ("quote", each(&|l| format!("> {l}"))),
        (
            "markdown",
            format!(
                "Deploying fails, log below:\n\n```text\n{}```\n\nAny idea?\n",
                each(&|l| l.to_owned())
            ),
        ),
        (
            "html",
            each(&|l| {
                l.replace('&', "&amp;")
                    .replace('"', "&quot;")
                    .replace('\'', "&#39;")
                    .replace('<', "&lt;")
                    .replace('>', "&gt;")
            }),
        ),
        ("nbsp", each(&|l| l.replace(' ', "\u{a0}"))),
        (
            "json",
            format!(
                "{{\"error\": {{\"code\": \"UserError\", \"message\": {}}}}}\n",
                serde_json::to_string(text)
                    .unwrap()
                    .replace('\'', "\\u0027")
            ),
        ),
        ("wrap80", wrap(80)),
        ("wrap100", wrap(100)),
    ]
}

#[test]
fn every_clean_fixture_pasted_every_way_gives_the_same_findings() {
    let sb = Sandbox::new("fixtures-pasted");
    let mut problems = Vec::new();
    let mut checked = 0;
    for (log, _, expect) in expectations_in("tests/fixtures/logs") {
        let text = String::from_utf8_lossy(&std::fs::read(&log).unwrap()).into_owned();
        let stem = log.file_name().unwrap().to_string_lossy().into_owned();
        for (how, pasted) in pasted_variants(&text) {
            let path = sb.write(&format!("work/{how}/{stem}"), &pasted);
            let run = sb.run(&[
                "diagnose",
                path.to_str().unwrap(),
                "-o",
                "json",
                "--fail-on",
                "never",
            ]);
            let v = run.json();
            let ids = rule_ids(&v);
            for m in &expect.must {
                if !ids.contains(&m.as_str()) {
                    problems.push(format!("{how} {stem}: missing {m}"));
                }
            }
            for m in &expect.must_not {
                if ids.contains(&m.as_str()) {
                    problems.push(format!("{how} {stem}: false positive {m}"));
                }
            }
            checked += 1;
        }
    }
    assert!(checked >= 200, "only {checked} variants checked");
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// The rule ids of a JSON report's findings.
fn rule_ids(v: &serde_json::Value) -> Vec<&str> {
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["rule_id"].as_str().unwrap())
        .collect()
}
