//! Report formats and the CI gate: snapshots, structural checks of SARIF and JUnit,
//! markdown tables, suppressions, baselines, report files, and secrets in every format.

use std::path::Path;

use crate::{Run, Sandbox};

const FLASK2: &str = "tests/fixtures/logs/server-0.4.13-old-image-flask2.log";
const FORMATS: [(&str, &str); 6] = [
    ("table", "txt"),
    ("json", "json"),
    ("yaml", "yaml"),
    ("sarif", "sarif"),
    ("junit", "xml"),
    ("markdown", "md"),
];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs diagnose from the crate root, so paths in reports are the relative ones.
fn diagnose(sb: &Sandbox, args: &[&str]) -> Run {
    let mut full = vec!["diagnose"];
    full.extend_from_slice(args);
    Run::from(
        sb.command_in(root(), &full)
            .env("AMLDOCTOR_TODAY", "2026-11-29")
            .output()
            .unwrap(),
    )
}

#[test]
fn snapshots_of_every_format_on_one_report() {
    let sb = Sandbox::new("reports-snap");
    let time = regex::Regex::new(r#"time="[0-9.]+""#).unwrap();
    for (format, ext) in FORMATS {
        let run = diagnose(&sb, &[FLASK2, "-o", format]);
        assert_eq!(run.code, 1, "{format}: {}", run.stderr);
        // SARIF names the working directory: the checkout's place is not the report's.
        let here = format!("file://{}/", root().canonicalize().unwrap().display());
        let stdout = run.stdout.replace(&here, "file:///CHECKOUT/");
        // JUnit says how long the run took.
        let stdout = time.replace_all(&stdout, r#"time="T""#).into_owned();
        super::assert_snapshot("", &format!("report-flask2.{ext}"), &stdout);
    }
}

#[test]
fn sarif_has_what_github_code_scanning_requires() {
    let sb = Sandbox::new("reports-sarif");
    let v = diagnose(&sb, &[FLASK2, "-o", "sarif"]).json();
    assert_eq!(v["version"], "2.1.0");
    assert!(v["$schema"].as_str().unwrap().contains("sarif-2.1.0"));
    let run = &v["runs"][0];
    assert_eq!(run["tool"]["driver"]["name"], "amldoctor");
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    assert!(!rules.is_empty());
    for r in rules {
        for key in ["id", "shortDescription", "fullDescription", "help"] {
            assert!(!r[key].is_null(), "rule lacks {key}: {r}");
        }
        assert!(r["shortDescription"]["text"].is_string());
        assert!(r["help"]["text"].is_string() && r["help"]["markdown"].is_string());
    }
    let flask = rules
        .iter()
        .find(|r| r["id"] == "flask2-register-typeerror")
        .unwrap();
    assert!(
        flask["help"]["markdown"]
            .as_str()
            .unwrap()
            .contains("azureml-inference-server-http"),
        "help carries the remediation"
    );
    assert!(
        flask["help"]["markdown"]
            .as_str()
            .unwrap()
            .contains("```sh"),
        "help carries the commands"
    );
    let results = run["results"].as_array().unwrap();
    assert!(!results.is_empty());
    for r in results {
        assert!(r["ruleId"].is_string());
        assert!(["error", "warning", "note"].contains(&r["level"].as_str().unwrap()));
        assert!(r["message"]["text"].is_string());
        let loc = &r["locations"][0]["physicalLocation"];
        assert!(loc["artifactLocation"]["uri"].is_string());
        assert!(loc["region"]["startLine"].as_u64().unwrap() >= 1);
        assert!(
            r["partialFingerprints"]
                .as_object()
                .is_some_and(|o| !o.is_empty())
        );
        let idx = usize::try_from(r["ruleIndex"].as_u64().unwrap()).unwrap();
        assert_eq!(rules[idx]["id"], r["ruleId"]);
    }
    let levels: Vec<(&str, &str)> = results
        .iter()
        .map(|r| (r["ruleId"].as_str().unwrap(), r["level"].as_str().unwrap()))
        .collect();
    assert!(levels.contains(&("flask2-register-typeerror", "error")));
    assert!(levels.contains(&("image-without-runtime-banner", "warning")));
    assert!(levels.contains(&("inference-server-version", "note")));
    // Stable across runs.
    let again = diagnose(&sb, &[FLASK2, "-o", "sarif"]).json();
    assert_eq!(again["runs"][0]["results"], run["results"]);
}

#[test]
fn junit_parses_with_one_testcase_per_rule_and_input() {
    let sb = Sandbox::new("reports-junit");
    let two = [FLASK2, "tests/fixtures/logs/cli-out-of-quota.txt"];
    let run = diagnose(&sb, &[two[0], two[1], "-o", "junit"]);
    let doc = roxmltree::Document::parse(&run.stdout).unwrap();
    let top = doc.root_element();
    assert_eq!(top.tag_name().name(), "testsuites");
    let suites: Vec<_> = top
        .children()
        .filter(|n| n.has_tag_name("testsuite"))
        .collect();
    assert_eq!(suites.len(), 2);
    let mut total_failures = 0;
    for s in &suites {
        let cases: Vec<_> = s
            .children()
            .filter(|n| n.has_tag_name("testcase"))
            .collect();
        assert_eq!(
            s.attribute("tests").unwrap().parse::<usize>().unwrap(),
            cases.len()
        );
        let failures = cases
            .iter()
            .filter(|c| c.children().any(|n| n.has_tag_name("failure")))
            .count();
        assert_eq!(
            s.attribute("failures").unwrap().parse::<usize>().unwrap(),
            failures
        );
        total_failures += failures;
    }
    assert_eq!(
        top.attribute("failures").unwrap().parse::<usize>().unwrap(),
        total_failures
    );
    let flask_suite = suites
        .iter()
        .find(|s| s.attribute("name") == Some(FLASK2))
        .unwrap();
    let case = |name: &str| {
        flask_suite
            .children()
            .find(|c| c.attribute("name") == Some(name))
            .unwrap()
    };
    assert!(
        case("flask2-register-typeerror")
            .children()
            .any(|n| n.has_tag_name("failure"))
    );
    assert!(
        !case("image-without-runtime-banner")
            .children()
            .any(|n| n.has_tag_name("failure")),
        "warnings pass at --fail-on error"
    );
    assert!(
        case("user-init-failed").children().next().is_none(),
        "a rule that did not fire passes"
    );
    // The same warning fails at --fail-on warning: JUnit agrees with the exit code.
    let run = diagnose(&sb, &[FLASK2, "-o", "junit", "--fail-on", "warning"]);
    let doc = roxmltree::Document::parse(&run.stdout).unwrap();
    let banner = doc
        .descendants()
        .find(|n| n.attribute("name") == Some("image-without-runtime-banner"))
        .unwrap();
    assert!(banner.children().any(|n| n.has_tag_name("failure")));
}

#[test]
fn markdown_tables_are_well_formed() {
    let sb = Sandbox::new("reports-md");
    let log = sb.write(
        "work/pipes.log",
        "Reason: Worker failed to boot. | a|b `tick`\n",
    );
    let run = diagnose(&sb, &[FLASK2, log.to_str().unwrap(), "-o", "markdown"]);
    let mut in_table: Option<usize> = None;
    for line in run.stdout.lines() {
        if line.starts_with('|') {
            let cells = count_cells(line);
            match in_table {
                None => in_table = Some(cells),
                Some(n) => assert_eq!(cells, n, "row has {cells} cells, header {n}: {line}"),
            }
        } else {
            in_table = None;
        }
    }
    assert!(
        run.stdout
            .contains("| severity | rule | finding | where | hits |")
    );
    assert!(run.stdout.contains("gate failed"));
}

fn count_cells(line: &str) -> usize {
    let mut n = 0;
    let mut escaped = false;
    let mut in_code = false;
    for c in line.chars() {
        match c {
            '\\' if !escaped => {
                escaped = true;
                continue;
            }
            '`' if !escaped => in_code = !in_code,
            '|' if !escaped && !in_code => n += 1,
            _ => {}
        }
        escaped = false;
    }
    n
}

#[test]
fn ignore_and_suppressions() {
    let sb = Sandbox::new("reports-gate");
    // --ignore drops a rule; an unknown id is a usage error with a suggestion.
    let v = diagnose(
        &sb,
        &[FLASK2, "-o", "json", "--ignore", "inference-server-version"],
    )
    .json();
    assert!(
        !v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["rule_id"] == "inference-server-version")
    );
    assert_eq!(v["suppressed"][0]["source"], "--ignore");
    diagnose(&sb, &[FLASK2, "--ignore", "flask2-register-typerror"]).usage_error(&[
        "--ignore: no rule has the id 'flask2-register-typerror'",
        "flask2-register-typeerror",
    ]);

    // Suppressions from the project file, with a reason, make the gate pass.
    let project = sb.write(
        "proj/.amldoctor.yaml",
        "suppressions:\n  - rule: flask2-register-typeerror\n    reason: migrating to the 2024 image in ML-1234\n    expires: 2026-12-31\n  - rule: gunicorn-worker-boot-failed\n    reason: symptom of the above\n  - rule: container-exit-abnormal\n    reason: symptom of the above\n",
    );
    let dir = project.parent().unwrap();
    let abs = root().join(FLASK2);
    let run = Run::from(
        sb.command_in(dir, &["diagnose", abs.to_str().unwrap(), "-o", "json"])
            .env("AMLDOCTOR_TODAY", "2026-11-29")
            .output()
            .unwrap(),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v = run.json();
    assert_eq!(v["summary"]["suppressed"], 3);
    assert_eq!(
        v["suppressed"][0]["reason"],
        "migrating to the 2024 image in ML-1234"
    );
    assert_eq!(v["suppressed"][0]["expires"], "2026-12-31");

    // Past the expiry the finding is back, and the run says why.
    let run = Run::from(
        sb.command_in(dir, &["diagnose", abs.to_str().unwrap()])
            .env("AMLDOCTOR_TODAY", "2027-01-01")
            .output()
            .unwrap(),
    );
    assert_eq!(run.code, 1);
    assert!(
        run.stderr
            .contains("warning: the suppression of flask2-register-typeerror"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("expired on 2026-12-31"),
        "{}",
        run.stderr
    );
    assert!(
        run.stdout.contains("error[flask2-register-typeerror]"),
        "{}",
        run.stdout
    );

    // Without a reason: an error naming the file and key.
    sb.write(
        "proj/.amldoctor.yaml",
        "suppressions:\n  - rule: flask2-register-typeerror\n",
    );
    let run = Run::from(
        sb.command_in(dir, &["diagnose", abs.to_str().unwrap()])
            .output()
            .unwrap(),
    );
    run.usage_error(&[".amldoctor.yaml: suppressions[0].reason is required"]);
    sb.write(
        "proj/.amldoctor.yaml",
        "suppressions:\n  - rule: flask2-register-typo\n    reason: x\n",
    );
    let run = Run::from(
        sb.command_in(dir, &["diagnose", abs.to_str().unwrap()])
            .output()
            .unwrap(),
    );
    run.usage_error(&["suppressions[0].rule: no rule has the id 'flask2-register-typo'"]);
    sb.write("proj/.amldoctor.yaml", "suppressions:\n  - rule: flask2-register-typeerror\n    reason: x\n    expires: next year\n");
    let run = Run::from(
        sb.command_in(dir, &["diagnose", abs.to_str().unwrap()])
            .output()
            .unwrap(),
    );
    run.usage_error(&["suppressions[0].expires: 'next year' is not a date like 2027-03-31"]);
}

#[test]
fn baseline_then_only_new_findings_fail() {
    let sb = Sandbox::new("reports-baseline");
    let baseline = sb.work().join("baseline.json");
    let old = sb.write("work/old.log", "2025-01-01 10:00:00,000 E [12] gunicorn.error - Worker (pid:294) was sent SIGKILL! Perhaps out of memory?\n");
    let run = sb.run(&[
        "diagnose",
        old.to_str().unwrap(),
        "--write-baseline",
        baseline.to_str().unwrap(),
    ]);
    assert_eq!(
        run.code, 0,
        "writing a baseline accepts what is there: {}",
        run.stderr
    );
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&baseline).unwrap()).unwrap();
    assert_eq!(
        written["findings"][0]["rule_id"],
        "gunicorn-worker-oom-killed"
    );

    // The same problem in a later run (other timestamps, other pid): still known.
    let later = sb.write("work/later.log", "2025-03-09 22:41:07,513 E [7] gunicorn.error - Worker (pid:81) was sent SIGKILL! Perhaps out of memory?\n");
    let run = sb.run(&[
        "diagnose",
        later.to_str().unwrap(),
        "--baseline",
        baseline.to_str().unwrap(),
        "-o",
        "json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert_eq!(run.json()["findings"][0]["baseline_state"], "unchanged");

    // A new problem fails; the known one does not count.
    let new = sb.write("work/new.log", "2025-03-09 22:41:07,513 E [7] gunicorn.error - Worker (pid:81) was sent SIGKILL! Perhaps out of memory?\nReason: Worker failed to boot.\n");
    let sarif = |extra: &[&str]| {
        let mut args = vec![
            "diagnose",
            new.to_str().unwrap(),
            "--baseline",
            baseline.to_str().unwrap(),
            "-o",
            "sarif",
        ];
        args.extend_from_slice(extra);
        let run = sb.run(&args);
        assert_eq!(run.code, 1);
        run.json()
    };
    // Code scanning ignores baselineState: the known finding is left out, and no
    // result says a state.
    let v = sarif(&[]);
    let results = v["runs"][0]["results"].as_array().unwrap();
    assert!(
        results.iter().all(
            |r| r["ruleId"] != "gunicorn-worker-oom-killed" && r.get("baselineState").is_none()
        ),
        "{results:?}"
    );
    // Kept on request, then every result says its state (§3.27.24).
    let v = sarif(&["--sarif-keep-suppressed"]);
    let states: Vec<(&str, &str)> = v["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["ruleId"].as_str().unwrap(),
                r["baselineState"].as_str().unwrap(),
            )
        })
        .collect();
    assert!(
        states.contains(&("gunicorn-worker-oom-killed", "unchanged")),
        "{states:?}"
    );
    assert!(
        states.contains(&("gunicorn-worker-boot-failed", "new")),
        "{states:?}"
    );

    sb.write("work/bad-baseline.json", "{\"not\": \"a baseline\"}");
    sb.run(&[
        "diagnose",
        new.to_str().unwrap(),
        "--baseline",
        sb.work().join("bad-baseline.json").to_str().unwrap(),
    ])
    .usage_error(&["bad-baseline.json: not a baseline written by --write-baseline"]);
    sb.run(&[
        "diagnose",
        new.to_str().unwrap(),
        "--baseline",
        "missing.json",
    ])
    .usage_error(&["missing.json: no such file"]);
}

#[test]
fn output_files_next_to_stdout() {
    let sb = Sandbox::new("reports-files");
    let sarif = sb.work().join("results.sarif");
    let md = sb.work().join("summary.md");
    let junit = sb.work().join("junit.xml");
    let run = diagnose(
        &sb,
        &[
            FLASK2,
            "-o",
            "json",
            "--output-file",
            sarif.to_str().unwrap(),
            "--output-file",
            &format!("markdown={}", md.display()),
            "--output-file",
            junit.to_str().unwrap(),
        ],
    );
    assert_eq!(run.code, 1);
    assert_eq!(run.json()["command"], "diagnose", "stdout keeps -o json");
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&sarif).unwrap()).unwrap();
    assert_eq!(s["version"], "2.1.0");
    assert!(
        std::fs::read_to_string(&md)
            .unwrap()
            .starts_with("## amldoctor:")
    );
    roxmltree::Document::parse(&std::fs::read_to_string(&junit).unwrap()).unwrap();
    diagnose(&sb, &[FLASK2, "--output-file", "report.docx"])
        .usage_error(&["--output-file", "FORMAT=PATH"]);
    // An extension's name before '=' is its format, not part of a file name.
    let short = sb.work().join("short.md");
    diagnose(
        &sb,
        &[FLASK2, "--output-file", &format!("md={}", short.display())],
    );
    assert!(
        std::fs::read_to_string(&short)
            .unwrap()
            .starts_with("## amldoctor:")
    );
    assert!(!sb.work().join("md=short.md").exists());
    diagnose(&sb, &[FLASK2, "--output-file", "docx=report.docx"])
        .usage_error(&["unknown format 'docx' before '='"]);
    diagnose(
        &sb,
        &[FLASK2, "--output-file", "sarif=/nonexistent-dir/x.sarif"],
    )
    .usage_error(&["cannot write /nonexistent-dir/x.sarif"]);
}

#[test]
fn findings_only_formats_are_refused_elsewhere() {
    let sb = Sandbox::new("reports-refuse");
    sb.run(&["replicas", "--rps", "20", "-o", "sarif"])
        .usage_error(&["'replicas' does not report findings, so -o sarif does not apply"]);
    sb.run(&["explain", "429", "-o", "junit"])
        .usage_error(&["-o junit does not apply"]);
}

#[test]
fn secrets_never_appear_in_any_format() {
    let sb = Sandbox::new("reports-secrets");
    let fixtures = [
        "tests/fixtures/logs/storage-initializer-auth-failure.log",
        "tests/fixtures/logs/cli-out-of-quota.txt",
        "tests/fixtures/logs/cli-image-build-failure.txt",
    ];
    let planted = sb.write(
        "work/planted.log",
        "This request is not authorized to perform this operation. https://acct.blob.core.windows.net/c/m.pkl?sv=2021-08-06&sig=PLANTEDsig%2Babc%3D\nERROR: (BadArgument) Startup task failed due to authorization error. Authorization: Bearer eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.eyJQTEFOVEVEIjoidG9rZW4ifQ.UExBTlRFRHNpZ25hdHVyZQ\nOutOfQuota: DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=PLANTEDaccountKEY0123456789==;EndpointSuffix=core.windows.net\nTypeError: register() takes 3 positional arguments but 4 were given client_secret=PLANTED-client-secret\n",
    );
    let mut args: Vec<&str> = fixtures.to_vec();
    let p = planted.to_str().unwrap().to_owned();
    args.push(&p);
    for (format, _) in FORMATS {
        let mut full = args.clone();
        full.extend(["-o", format, "--fail-on", "never"]);
        let run = diagnose(&sb, &full);
        assert_eq!(run.code, 0, "{format}: {}", run.stderr);
        for secret in [
            "PLANTED",
            "eyJ0eXAi",
            "Bearer eyJ",
            "sig=AbCdEf",
            "SuperSecret",
        ] {
            assert!(!run.stdout.contains(secret), "{format} leaks {secret}");
        }
        let fixture_text: String = fixtures
            .iter()
            .map(|f| std::fs::read_to_string(root().join(f)).unwrap())
            .collect();
        for token in secret_tokens(&fixture_text) {
            assert!(
                !run.stdout.contains(&token),
                "{format} leaks a fixture secret {token}"
            );
        }
    }
}

/// The values after `sig=`, `AccountKey=` and `Bearer ` in the fixtures.
fn secret_tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (marker, stop) in [
        ("sig=", &['&', ' ', '"', '\''][..]),
        ("AccountKey=", &[';', ' ', '"'][..]),
        ("Bearer ", &[' ', '"', '\''][..]),
    ] {
        for (i, _) in text.match_indices(marker) {
            let rest = &text[i + marker.len()..];
            let end = rest
                .find(|c: char| stop.contains(&c) || c == '\n')
                .unwrap_or(rest.len());
            if end >= 8 {
                out.push(rest[..end].to_owned());
            }
        }
    }
    assert!(!out.is_empty(), "the fixtures plant secrets");
    out
}

#[test]
fn markdown_of_the_whole_fixture_set_fits_a_pull_request_comment() {
    let sb = Sandbox::new("reports-md-limit");
    let all = [
        "tests/fixtures/logs",
        "tests/fixtures/prs",
        "--min-severity",
        "info",
        "--fail-on",
        "never",
        "-o",
        "markdown",
    ];
    let whole = diagnose(&sb, &[&all[..], &["--markdown-limit", "0"]].concat());
    // A finding's section heading starts with its severity's icon.
    let sections = |md: &str| {
        md.lines()
            .filter(|l| {
                ["### 🔴", "### 🟠", "### 🔵"]
                    .iter()
                    .any(|h| l.starts_with(h))
            })
            .count()
    };
    let whole_findings = sections(&whole.stdout);
    assert!(
        whole.stdout.len() > 65_536,
        "the fixture set no longer needs cutting: {} bytes",
        whole.stdout.len()
    );
    let file = sb.work().join("all.md");
    let output_file = format!("markdown={}", file.display());
    let cut = diagnose(&sb, &[&all[..], &["--output-file", &output_file]].concat());
    let n = cut.stdout.len();
    assert!(n <= 65_536, "{n} characters");
    // The summary comes first, then what was left out and how to get it.
    assert!(
        cut.stdout.starts_with("## amldoctor: "),
        "{}",
        &cut.stdout[..200]
    );
    let kept = sections(&cut.stdout);
    assert!(
        kept > 0 && kept < whole_findings,
        "{kept} of {whole_findings}"
    );
    let note = format!(
        "the sections of {} (the table above lists every one)",
        plural(whole_findings - kept)
    );
    assert!(cut.stdout.contains(&note), "no '{note}' in the cut report");
    // Every finding keeps its row in the table.
    let rows = |md: &str| -> Vec<String> {
        md.lines()
            .filter(|l| ["| 🔴", "| 🟠", "| 🔵"].iter().any(|h| l.starts_with(h)))
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(rows(&cut.stdout), rows(&whole.stdout));
    assert!(cut.stdout.contains("--markdown-limit 1048576"));
    // A report file is never cut.
    assert_eq!(std::fs::read_to_string(&file).unwrap(), whole.stdout);
    // A smaller limit keeps fewer findings, still with the note.
    let small = diagnose(&sb, &[&all[..], &["--markdown-limit", "20000"]].concat());
    assert!(small.stdout.len() <= 20_000);
    assert!(sections(&small.stdout) < kept);
    assert!(small.stdout.contains("left out"));
    // Too small even for the table: the note says the table went too, not that it lists
    // them all.
    let tiny = diagnose(&sb, &[&all[..], &["--markdown-limit", "300"]].concat());
    assert!(
        !tiny.stdout.contains("| severity | rule |"),
        "{}",
        tiny.stdout
    );
    assert!(
        !tiny.stdout.contains("the table above lists every one"),
        "{}",
        tiny.stdout
    );
    assert!(
        tiny.stdout
            .contains("the findings table and the sections of"),
        "{}",
        tiny.stdout
    );
}

fn plural(n: usize) -> String {
    if n == 1 {
        "1 finding".to_owned()
    } else {
        format!("{n} findings")
    }
}
