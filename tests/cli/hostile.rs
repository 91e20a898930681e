//! Hostile inputs, each a bounded run that ends with a clear note or error (issue 33):
//! named pipes with and without a writer, NUL bytes, a 2 GB sparse file, one 100 MB
//! line, JSON nested past any parser's depth, a YAML alias bomb as a user's rule, and a
//! user's pattern that would backtrack catastrophically.

use std::fmt::Write as _;
use std::io::Write;
use std::time::{Duration, Instant};

use crate::Sandbox;

/// Runs `args` and fails the test if it takes longer than `limit`.
fn bounded(sb: &Sandbox, args: &[&str], limit: Duration) -> crate::Run {
    let started = Instant::now();
    let run = sb.run(args);
    assert!(
        started.elapsed() < limit,
        "{args:?} took {:?}",
        started.elapsed()
    );
    run
}

#[test]
fn a_named_pipe_nobody_writes_to_is_an_empty_input_not_a_hang() {
    let sb = Sandbox::new("hostile-fifo");
    let fifo = sb.work().join("pipe.log");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let run = bounded(
        &sb,
        &["diagnose", fifo.to_str().unwrap()],
        Duration::from_secs(20),
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("pipe.log: it is empty"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_named_pipe_with_a_writer_is_read_to_its_end() {
    let sb = Sandbox::new("hostile-fifo-writer");
    let fifo = sb.work().join("pipe.log");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let path = fifo.clone();
    // A slow writer, as `az ml online-deployment get-logs` is: the reader waits for it.
    let writer = std::thread::spawn(move || {
        let mut f = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        writeln!(f, "2024-05-01 10:00:00,000 I [1] azmlinfsrv - starting").unwrap();
        std::thread::sleep(Duration::from_millis(500));
        writeln!(f, "ModuleNotFoundError: No module named 'xgboost'").unwrap();
    });
    let doc = sb.diagnose_json(&[fifo.to_str().unwrap()]);
    writer.join().unwrap();
    let ids: Vec<&str> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f["rule_id"].as_str())
        .collect();
    assert!(!ids.is_empty(), "{doc}");
    assert!(doc.to_string().contains("xgboost"), "{doc}");
}

#[test]
fn nul_bytes_and_a_sparse_2_gb_file_are_not_analysed_with_a_note() {
    let sb = Sandbox::new("hostile-binary");
    let nul = sb.work().join("nul.log");
    std::fs::write(
        &nul,
        b"ok line\n\0\0\0ERROR: (OutOfQuota) Not enough quota\0\n",
    )
    .unwrap();
    let sparse = sb.work().join("sparse.log");
    std::fs::File::create(&sparse)
        .unwrap()
        .set_len(2 * 1024 * 1024 * 1024)
        .unwrap();
    let healthy = sb.write(
        "work/ok.log",
        "2024-05-01 10:00:00,000 I [1] azmlinfsrv - ready\n",
    );
    let run = bounded(
        &sb,
        &[
            "diagnose",
            nul.to_str().unwrap(),
            sparse.to_str().unwrap(),
            healthy.to_str().unwrap(),
            "-o",
            "json",
        ],
        Duration::from_secs(60),
    );
    let doc = run.json();
    for name in ["nul.log", "sparse.log"] {
        let noted = doc["not_analysed"].as_array().unwrap().iter().any(|n| {
            n["path"].as_str().unwrap().ends_with(name)
                && n["reason"].as_str().unwrap().contains("binary file")
        });
        assert!(noted, "{name}: {}", doc["not_analysed"]);
    }
    assert_eq!(doc["summary"]["inputs_analysed"], 1, "{}", doc["summary"]);
}

#[test]
fn one_line_of_100_mb_is_read_in_bounded_time_and_its_error_still_found() {
    let sb = Sandbox::new("hostile-long-line");
    let path = sb.work().join("long.log");
    let mut f = std::fs::File::create(&path).unwrap();
    let chunk = "x".repeat(1024 * 1024);
    for _ in 0..100 {
        f.write_all(chunk.as_bytes()).unwrap();
    }
    f.write_all(b"\nModuleNotFoundError: No module named 'xgboost'\n")
        .unwrap();
    drop(f);
    let run = bounded(
        &sb,
        &[
            "diagnose",
            path.to_str().unwrap(),
            "-o",
            "json",
            "--fail-on",
            "never",
        ],
        Duration::from_secs(120),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let doc = run.json();
    assert!(doc.to_string().contains("xgboost"), "{}", run.stdout);
    assert_eq!(doc["inputs"][0]["long_lines"], 1, "{}", doc["inputs"]);
}

#[test]
fn json_nested_past_the_parser_depth_is_one_error_naming_the_place() {
    let sb = Sandbox::new("hostile-nested");
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let path = sb.write("work/deep.json", &deep);
    let run = bounded(
        &sb,
        &["check", "all", "--from", path.to_str().unwrap()],
        Duration::from_secs(20),
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("deep.json:1:") && run.stderr.contains("recursion limit"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_yaml_alias_bomb_as_a_rule_is_refused_at_once() {
    let sb = Sandbox::new("hostile-alias");
    let mut text = String::from(
        "a0: &a0 [\"x\", \"x\", \"x\", \"x\", \"x\", \"x\", \"x\", \"x\", \"x\", \"x\"]\n",
    );
    for i in 1..10 {
        let prev = format!("*a{}", i - 1);
        let list = [prev.as_str(); 10].join(", ");
        let _ = writeln!(text, "a{i}: &a{i} [{list}]");
    }
    text.push_str("id: bomb\n");
    sb.write("work/rules/bomb.yaml", &text);
    let rules = sb.work().join("rules");
    let run = bounded(
        &sb,
        &["rules", "list", "--rules", rules.to_str().unwrap()],
        Duration::from_secs(20),
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("bomb.yaml"), "{}", run.stderr);
}

/// A user's rule whose pattern would backtrack catastrophically elsewhere (`(a+)+$`),
/// on lines built to trigger it: the regex engine is linear in the line, so the run is
/// bounded and the rule still works.
#[test]
fn a_user_rule_that_would_backtrack_catastrophically_runs_in_linear_time() {
    let sb = Sandbox::new("hostile-backtrack");
    sb.write(
        "work/rules/evil.yaml",
        r#"id: team-evil-backtracking
title: A pattern that backtracks catastrophically in a backtracking engine
severity: warning
family: inference-server
match:
  any: ['Allocation failed: (a+)+$']
remediation: Test only.
examples:
  match: ['Allocation failed: aaaa']
  no-match: ['Allocation failed: aaab']
"#,
    );
    let mut log = String::new();
    for _ in 0..2_000 {
        log.push_str("Allocation failed: ");
        log.push_str(&"a".repeat(5_000));
        log.push_str("b\n");
    }
    log.push_str("Allocation failed: aaaa\n");
    let path = sb.write("work/evil.log", &log);
    let rules = sb.work().join("rules");
    let run = bounded(
        &sb,
        &[
            "diagnose",
            path.to_str().unwrap(),
            "--rules",
            rules.to_str().unwrap(),
            "-o",
            "json",
            "--fail-on",
            "never",
        ],
        Duration::from_secs(60),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let doc = run.json();
    let hit = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule_id"] == "team-evil-backtracking")
        .unwrap_or_else(|| panic!("{doc}"));
    assert_eq!(hit["count"], 1, "{hit}");
}

/// A folder of 100,000 empty files and one failing log: bounded, the failure found, and
/// the empty ones one line of the inputs table, not 100,000.
#[test]
fn a_hundred_thousand_empty_files_are_one_line_and_the_failure_is_still_found() {
    let sb = Sandbox::new("hostile-empty-files");
    let dir = sb.work().join("many");
    std::fs::create_dir_all(&dir).unwrap();
    for i in 0..100_000 {
        std::fs::File::create(dir.join(format!("f{i:06}.log"))).unwrap();
    }
    std::fs::write(
        dir.join("z-error.log"),
        "ModuleNotFoundError: No module named 'xgboost'\n",
    )
    .unwrap();
    let run = bounded(
        &sb,
        &["diagnose", dir.to_str().unwrap()],
        Duration::from_secs(120),
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stdout.contains("xgboost"), "{}", run.stdout);
    assert!(
        run.stdout
            .contains("and 99995 more: it is empty: nothing to analyse (-v lists them)"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.lines().count() < 100,
        "{} lines",
        run.stdout.lines().count()
    );
}
