//! ParallelRunStep trees: the three fixture trees under tests/fixtures/prs are analysed
//! with the binary and compared with their EXPECT.yaml (outcome, numbers, per-node
//! table, grouped errors, root cause, findings that must and must not appear).

use std::path::Path;

use serde_json::Value;

use crate::{Run, Sandbox};

fn analyse(tree: &str) -> (Value, Value) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let expect: Value = serde_saphyr::from_str(
        &std::fs::read_to_string(root.join(format!("tests/fixtures/prs/{tree}/EXPECT.yaml")))
            .unwrap(),
    )
    .unwrap();
    let sb = Sandbox::new(&format!("prs-{tree}"));
    // EXPECT.yaml sits in the tree folder but is not part of the log tree: analyse logs/
    // (and azureml-logs/ when present) from the tree root.
    let dir = root.join(format!("tests/fixtures/prs/{tree}"));
    let mut args = vec!["diagnose".to_owned(), "logs".to_owned()];
    if dir.join("azureml-logs").exists() {
        args.push("azureml-logs".to_owned());
    }
    args.extend([
        "-o".into(),
        "json".into(),
        "--fail-on".into(),
        "never".into(),
    ]);
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let run = Run::from(sb.command_in(&dir, &refs).output().unwrap());
    assert_eq!(run.code, 0, "{tree}: {}", run.stderr);
    (run.json(), expect)
}

fn num(v: &Value) -> Value {
    // Compare 88 and 88.0 alike.
    match v.as_f64() {
        Some(f) => serde_json::json!(f),
        None => v.clone(),
    }
}

pub(crate) fn check(tree: &str) {
    let (v, e) = analyse(tree);
    let prs = v["prs"].as_array().unwrap();
    assert_eq!(prs.len(), 1, "{tree}: one tree found");
    let p = &prs[0];
    for key in ["layout", "outcome", "stop_reason", "leader_exit_code"] {
        assert_eq!(p[key], e[key], "{tree}: {key}");
    }
    assert_eq!(
        p["config"]["error_threshold"]["value"], e["error_threshold"],
        "{tree}: error threshold"
    );
    for (k, want) in e["config"].as_object().unwrap() {
        let got = &p["config"][k]["value"];
        assert_eq!(got, want, "{tree}: config.{k}");
    }
    for k in ["scheduled", "processed", "failed", "unprocessed"] {
        assert_eq!(
            p["mini_batches"][k], e["mini_batches"][k],
            "{tree}: mini_batches.{k}"
        );
    }
    for k in ["total", "succeeded", "failed"] {
        assert_eq!(p["items"][k], e["items"][k], "{tree}: items.{k}");
        assert_eq!(p["attempts"][k], e["attempts"][k], "{tree}: attempts.{k}");
    }
    assert_eq!(
        p["attempts"]["retries"], e["attempts"]["retries"],
        "{tree}: attempts.retries"
    );
    assert_eq!(
        p["attempts"]["run_exceptions"], e["run_exceptions"],
        "{tree}: run_exceptions"
    );
    assert_eq!(p["timeouts"], e["timeouts"], "{tree}: timeouts");
    let nodes = p["nodes"].as_array().unwrap();
    assert_eq!(
        nodes.len(),
        e["nodes"].as_array().unwrap().len(),
        "{tree}: node count"
    );
    for want in e["nodes"].as_array().unwrap() {
        let got = nodes
            .iter()
            .find(|n| n["node"] == want["node"])
            .unwrap_or_else(|| panic!("{tree}: node {}", want["node"]));
        for (k, w) in want.as_object().unwrap() {
            assert_eq!(num(&got[k]), num(w), "{tree}: node {} {k}", want["node"]);
        }
    }
    let groups = p["errors"].as_array().unwrap();
    for (i, want) in e["error_groups"].as_array().unwrap().iter().enumerate() {
        let got = &groups[i];
        assert_eq!(
            got["exception"], want["exception"],
            "{tree}: error group {i}"
        );
        assert_eq!(got["message"], want["message"], "{tree}: error group {i}");
        assert_eq!(got["count"], want["count"], "{tree}: error group {i}");
        if let Some(first) = want["first"].as_str() {
            assert!(
                got["first"].as_str().unwrap().ends_with(first),
                "{tree}: first at {} not {first}",
                got["first"]
            );
        }
    }
    let ids: Vec<&str> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["rule_id"].as_str().unwrap())
        .collect();
    for m in e["findings_must"].as_array().unwrap() {
        assert!(
            ids.contains(&m.as_str().unwrap()),
            "{tree}: missing {m} in {ids:?}"
        );
    }
    check_node_changes(tree, p, &e);
    for m in e["findings_must_not"].as_array().unwrap() {
        assert!(
            !ids.contains(&m.as_str().unwrap()),
            "{tree}: false positive {m}"
        );
    }
    if let Some(root_cause) = e["root_cause"].as_str() {
        let job = v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["rule_id"] == "prs-job-failed")
            .unwrap();
        assert_eq!(job["facts"]["root_cause"], root_cause, "{tree}: root cause");
    }
    if e["no_error_findings"] == Value::Bool(true) {
        for f in v["findings"].as_array().unwrap() {
            assert_ne!(f["severity"], "error", "{tree}: {}", f["rule_id"]);
        }
    }
    for i in v["inputs"].as_array().unwrap() {
        let path = i["path"].as_str().unwrap();
        // Files with a role in the tree are PRS files; readme.txt and the like are
        // detected by content.
        if path.contains("/sys/")
            || path.contains("/user/")
            || path.contains("job_")
            || path.contains("70_driver")
        {
            assert_eq!(i["kind"], "prs", "{tree}: {path} read as prs");
            assert_eq!(i["kind_source"], "prs-tree", "{tree}: {path}");
        }
    }
}

#[test]
fn failed_job() {
    check("failed-job");
}

#[test]
fn healthy_job() {
    check("healthy-job");
}

#[test]
fn legacy_layout() {
    check("legacy-layout");
}

#[test]
fn table_shows_the_summary_above_the_findings() {
    let sb = Sandbox::new("prs-table");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/prs/failed-job");
    let run = Run::from(
        sb.command_in(&dir, &["diagnose", "logs", "azureml-logs"])
            .output()
            .unwrap(),
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    let out = &run.stdout;
    let summary = out.find("── ParallelRunStep job:").unwrap();
    let findings = out.find("── Errors ──").unwrap();
    assert!(summary < findings, "{out}");
    for needle in [
        "outcome: failed (error threshold exceeded), leader exit code 42",
        "mini-batches: 40 scheduled, 35 processed, 12 failed",
        "per node:",
        "errors in the entry script, grouped:",
        "9 × run(): ValueError: could not convert string to float: 'N/A'",
        "error[prs-job-failed]",
    ] {
        assert!(out.contains(needle), "lacks {needle:?}:\n{out}");
    }
}

#[test]
fn a_garbled_file_is_a_note_not_an_abort() {
    let sb = Sandbox::new("prs-garbled");
    sb.write("work/run/logs/job_progress_overview.2024010100.txt", "2024-01-01T00:00:00.000000 Scheduling finished. Scheduled 2 mini batches in 1 seconds. There are 2 tasks with 2 items.\n");
    sb.write(
        "work/run/logs/sys/job_report/processed_mini-batches.csv",
        "\u{1}\u{2} not a csv at all\n%%%%\n",
    );
    sb.write(
        "work/run/logs/sys/node/0/_main.txt",
        "garbage ~~~\nmore garbage\n",
    );
    sb.write("work/run/logs/perf/0/node_resource_usage.csv", "");
    let v = sb.diagnose_json(&["run"]);
    let notes = v["prs"][0]["notes"].to_string();
    assert!(
        notes.contains("processed_mini-batches.csv: no line in the expected format"),
        "{notes}"
    );
    assert!(
        notes.contains("_main.txt: no line in the expected format"),
        "{notes}"
    );
    assert_eq!(v["prs"][0]["mini_batches"]["scheduled"], 2);
}

/// Lost nodes are compared whole where the tree has them, and must be absent elsewhere.
fn check_node_changes(tree: &str, p: &Value, e: &Value) {
    if e["node_changes"].is_object() {
        assert_eq!(p["node_changes"], e["node_changes"], "{tree}: node_changes");
    } else {
        assert_eq!(
            p["node_changes"]["lost"],
            serde_json::json!([]),
            "{tree}: lost nodes"
        );
        assert_eq!(
            p["node_changes"]["overviewer"],
            serde_json::json!([]),
            "{tree}"
        );
    }
}

/// Copies a fixture tree into the sandbox (without EXPECT.yaml) for variations.
pub(crate) fn copy_tree(sb: &Sandbox, tree: &str) -> std::path::PathBuf {
    fn copy(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).unwrap();
        for e in std::fs::read_dir(from).unwrap() {
            let e = e.unwrap();
            let target = to.join(e.file_name());
            if e.path().is_dir() {
                copy(&e.path(), &target);
            } else if e.file_name() != "EXPECT.yaml" {
                std::fs::copy(e.path(), target).unwrap();
            }
        }
    }
    let from = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/prs")
        .join(tree);
    let to = sb.work().join(tree);
    copy(&from, &to);
    to
}

#[test]
fn review_regressions() {
    let sb = Sandbox::new("prs-review");
    let job = copy_tree(&sb, "failed-job");
    // Secrets and HTML in an exception message never reach any format.
    let err = job.join("logs/user/error/1/process001.txt");
    let text = std::fs::read_to_string(&err).unwrap().replacen(
        "ValueError: could not convert string to float: 'N/A'\n",
        "ValueError: bad https://a.blob.core.windows.net/c?sv=1&sig=SECRETSIG123abc AccountKey=SECRETKEY999== <details><summary>x</summary> \u{1b}]0;pwned\u{7}\n",
        1,
    );
    std::fs::write(&err, text).unwrap();
    for format in ["json", "yaml", "table", "markdown", "sarif", "junit"] {
        let run = Run::from(
            sb.command_in(&job, &["diagnose", ".", "-o", format, "--fail-on", "never"])
                .output()
                .unwrap(),
        );
        assert_eq!(run.code, 0, "{format}: {}", run.stderr);
        for leak in ["SECRETSIG123abc", "SECRETKEY999", "\u{1b}"] {
            assert!(!run.stdout.contains(leak), "{format} leaks {leak:?}");
        }
        if format == "markdown" {
            assert!(
                !run.stdout.contains("<details><summary>x"),
                "raw HTML from logs in markdown"
            );
        }
    }

    // The tree is found from inside its logs folder too, and as `.` from the job folder.
    let inside = Run::from(
        sb.command_in(
            &job.join("logs"),
            &["diagnose", ".", "-o", "json", "--fail-on", "never"],
        )
        .output()
        .unwrap(),
    );
    assert_eq!(inside.json()["prs"][0]["outcome"], "failed");

    // Every SARIF result has a location; JUnit fails exactly when the gate does.
    let sarif = Run::from(
        sb.command_in(&job, &["diagnose", ".", "-o", "sarif"])
            .output()
            .unwrap(),
    );
    assert_eq!(sarif.code, 1);
    for r in sarif.json()["runs"][0]["results"].as_array().unwrap() {
        assert!(
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].is_string(),
            "{r}"
        );
    }
    let junit = Run::from(
        sb.command_in(&job, &["diagnose", ".", "-o", "junit"])
            .output()
            .unwrap(),
    );
    let doc = roxmltree::Document::parse(&junit.stdout).unwrap();
    let top = doc.root_element();
    assert!(top.attribute("failures").unwrap().parse::<u32>().unwrap() > 0);
    let suites = top
        .children()
        .filter(|n| n.has_tag_name("testsuite"))
        .count();
    assert!(
        suites <= 3,
        "the tree is one suite, not one per file ({suites})"
    );

    // Absurd settings in the driver log do not crash the arithmetic.
    let driver = job.join("azureml-logs/70_driver_log.txt");
    let text = std::fs::read_to_string(&driver).unwrap().replace(
        "'--node_count', '2'",
        "'--node_count', '9223372036854775807'",
    );
    std::fs::write(&driver, text).unwrap();
    let run = Run::from(
        sb.command_in(&job, &["diagnose", ".", "-o", "json", "--fail-on", "never"])
            .output()
            .unwrap(),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
}

#[test]
fn init_failures_against_the_retry_budget() {
    let sb = Sandbox::new("prs-init");
    let job = copy_tree(&sb, "healthy-job");
    let header = |i: u32| {
        format!(
            "2023-05-17 08:12:{i:02},000|ERROR|412|Entry script init() failed for FileNotFoundError: [Errno 2] No such file or directory: 'model.pkl'. Details Traceback (most recent call last):\n  File \"score.py\", line 8, in init\nFileNotFoundError: [Errno 2] No such file or directory: 'model.pkl'\n"
        )
    };
    std::fs::create_dir_all(job.join("logs/user/error/0")).unwrap();
    std::fs::write(
        job.join("logs/user/error/0/process000.txt"),
        (0..4).map(header).collect::<String>(),
    )
    .unwrap();
    std::fs::write(
        job.join("logs/user/error/0/process001.txt"),
        (4..6).map(header).collect::<String>(),
    )
    .unwrap();
    let v = Run::from(
        sb.command_in(&job, &["diagnose", ".", "-o", "json", "--fail-on", "never"])
            .output()
            .unwrap(),
    )
    .json();
    let f = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule_id"] == "prs-init-retry-budget")
        .expect("init budget finding");
    // One node, process_count_per_node 2, run_invocation_timeout 60 (driver log).
    assert_eq!(f["facts"]["init_failures"], "6");
    assert_eq!(f["facts"]["per_node_budget"], "6");
    assert_eq!(f["facts"]["most_failures_on_one_node"], "6");
    assert_eq!(f["facts"]["nodes_out_of_retries"], "1");
    assert_eq!(f["facts"]["job_budget"], "4");
    assert_eq!(f["facts"]["job_budget_used_percent"], "150");
    assert_eq!(f["facts"]["no_progress_limit_seconds"], "210");
    assert!(
        f["facts"]["retry_state"]
            .as_str()
            .unwrap()
            .starts_with("the job stopped retrying"),
        "{}",
        f["facts"]
    );
    assert!(
        f["facts"].get("assumed").is_none(),
        "settings came from the driver log"
    );
    let groups = &v["prs"][0]["errors"];
    assert_eq!(groups[0]["phase"], "init");
    assert_eq!(groups[0]["count"], 6);
}

#[test]
fn the_summary_reads_cause_first_in_natural_order_with_counted_inputs() {
    let sb = Sandbox::new("prs-presentation");
    let tree = copy_tree(&sb, "failed-job");
    // Nodes 2 and 10: sorted as numbers, not as text ("10" < "2").
    for folder in ["sys/node", "perf", "user/error"] {
        let base = tree.join("logs").join(folder);
        for (from, to) in [("0", "10"), ("1", "2")] {
            if base.join(from).is_dir() {
                std::fs::rename(base.join(from), base.join(to)).unwrap();
            }
        }
    }
    let mut cmd = sb.command(&["diagnose", tree.to_str().unwrap()]);
    cmd.env("COLUMNS", "100");
    let run = Run::from(cmd.output().unwrap());
    assert_eq!(run.code, 1, "{}", run.stderr);
    let out = &run.stdout;
    let at = |needle: &str| {
        out.find(needle)
            .unwrap_or_else(|| panic!("lacks {needle:?}:\n{out}"))
    };
    // The user's exceptions come before the counts they explain.
    assert!(at("errors in the entry script, grouped:") < at("mini-batches: 40 scheduled"));
    // …and the run() exceptions before the threshold and the failure they caused.
    assert!(at("error[prs-run-exception]") < at("error[prs-error-threshold-exceeded]"));
    assert!(at("error[prs-error-threshold-exceeded]") < at("error[prs-job-failed]"));
    let table = &out[at("per node:")..at("per process:")];
    let rows: Vec<&str> = table
        .lines()
        .skip(2)
        .map(|l| l.split_whitespace().next().unwrap_or(""))
        .take_while(|n| n.chars().all(|c| c.is_ascii_digit()) && !n.is_empty())
        .collect();
    let two = rows.iter().position(|n| *n == "2").expect("node 2");
    let ten = rows.iter().position(|n| *n == "10").expect("node 10");
    assert!(two < ten, "{rows:?}");
    // Plurals, no empty parentheses, computed findings not shown as a file's line.
    assert!(
        out.contains("after 1 attempt:") && !out.contains("after 1 attempts"),
        "{out}"
    );
    assert!(!out.contains(" ()"), "{out}");
    assert!(!out.contains("| computed from"), "{out}");
    // The tree's files are counted per folder; -v lists each.
    let flat = out.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("ParallelRunStep tree, 32 files"), "{out}");
    assert!(flat.contains("../azureml-logs 1, top level 5"), "{out}");
    assert!(flat.contains("(-v lists each file)"), "{out}");
    let verbose = sb.run(&["diagnose", tree.to_str().unwrap(), "-v"]);
    let listed = verbose
        .stdout
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        listed.contains("logs/sys/node/2/_main.txt prs (ParallelRunStep tree)"),
        "{}",
        verbose.stdout
    );
}

#[test]
fn a_yaml_file_in_the_job_folder_is_not_read_as_a_log() {
    let sb = Sandbox::new("prs-side-yaml");
    let job = copy_tree(&sb, "healthy-job");
    // A job definition kept beside the downloaded logs, quoting a progress line.
    std::fs::write(
        job.join("job.yaml"),
        "# watch for: No task has been processed yet.\ntype: parallel\nmini_batch_size: 10\n",
    )
    .unwrap();
    let run = Run::from(
        sb.command_in(&job, &["diagnose", ".", "-o", "json", "--fail-on", "never"])
            .output()
            .unwrap(),
    );
    let v = run.ok().json();
    let ids: Vec<&str> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["rule_id"].as_str().unwrap())
        .collect();
    assert!(!ids.contains(&"prs-no-task-processed"), "{ids:?}");
    let skipped = v["not_analysed"].to_string();
    assert!(
        skipped.contains("job.yaml") && skipped.contains("not one of its logs"),
        "{skipped}"
    );
    // Named, it is read.
    let run = Run::from(
        sb.command_in(
            &job,
            &["diagnose", "job.yaml", "-o", "json", "--fail-on", "never"],
        )
        .output()
        .unwrap(),
    );
    assert!(
        !run.ok().json()["not_analysed"]
            .to_string()
            .contains("job.yaml")
    );
}

#[test]
fn every_file_a_command_names_is_in_the_tree() {
    let sb = Sandbox::new("prs-command-files");
    for tree in ["legacy-layout", "failed-job", "healthy-job"] {
        let dir = format!("{}/tests/fixtures/prs/{tree}", env!("CARGO_MANIFEST_DIR"));
        let run = sb.run(&["diagnose", &dir, "-o", "json", "--fail-on", "never"]);
        let v = run.ok().json();
        for f in v["findings"].as_array().unwrap() {
            for c in f["commands"].as_array().unwrap() {
                let c = c.as_str().unwrap();
                for word in c
                    .split(' ')
                    .filter(|w| w.starts_with(&dir) && !w.contains('*'))
                {
                    let word = word.trim_matches('"');
                    assert!(Path::new(word).exists(), "{tree}: {c}");
                    assert!(!word.contains('<'), "{tree}: {c}");
                }
            }
        }
    }
}

/// `run()` that returns fewer results than it got items (three for five) without
/// raising, and one that returns an empty list every time: the job completes, and
/// the report says which mini-batches came back short, or that nothing succeeded.
#[test]
fn run_that_returns_too_few_results_or_none() {
    let ids = crate::rule_ids;
    let sb = Sandbox::new("prs-short-results");
    let job = copy_tree(&sb, "healthy-job");
    let csv = job.join("logs/sys/job_report/processed_mini-batches.csv");
    let text = std::fs::read_to_string(&csv).unwrap();
    let short: String = text
        .lines()
        .map(|l| {
            if l.starts_with("0,1,") || l.starts_with("1,1,") {
                l.replacen(",5,5,0,", ",5,3,0,", 1)
            } else {
                l.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    std::fs::write(&csv, short + "\n").unwrap();
    let v = sb.diagnose_json(&[job.to_str().unwrap()]);
    let f = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule_id"] == "prs-fewer-results-than-inputs")
        .unwrap_or_else(|| panic!("no short results in {:?}", ids(&v)));
    assert_eq!(f["facts"]["mini_batches"], "2", "{f}");
    assert_eq!(f["facts"]["items_without_result"], "4", "{f}");
    assert!(!ids(&v).contains(&"prs-nothing-succeeded".to_owned()));

    // Nothing succeeded: every row, the summaries and the job's last message say 0.
    let sb = Sandbox::new("prs-nothing-succeeded");
    let job = copy_tree(&sb, "healthy-job");
    let report = job.join("logs/sys/job_report");
    let rows = std::fs::read_to_string(report.join("processed_mini-batches.csv"))
        .unwrap()
        .replace(",5,5,0,", ",5,0,0,");
    std::fs::write(report.join("processed_mini-batches.csv"), rows).unwrap();
    for (file, from, to) in [
        ("node_summary.csv", ",100,100,0", ",100,0,0"),
        ("process_summary.csv", ",50,50,0,", ",50,0,0,"),
    ] {
        let t = std::fs::read_to_string(report.join(file))
            .unwrap()
            .replace(from, to);
        std::fs::write(report.join(file), t).unwrap();
    }
    for file in [
        "job_result.txt",
        "job_progress_overview.2023051708.txt",
        "sys/master_role.txt",
        "sys/node/0/process000.txt",
        "sys/node/0/process001.txt",
    ] {
        let t = std::fs::read_to_string(job.join("logs").join(file))
            .unwrap()
            .replace("100 succeeded", "0 succeeded")
            .replace("5 items succeeded", "0 items succeeded");
        std::fs::write(job.join("logs").join(file), t).unwrap();
    }
    let v = sb.diagnose_json(&[job.to_str().unwrap()]);
    assert!(
        ids(&v).contains(&"prs-nothing-succeeded".to_owned()),
        "{:?}",
        ids(&v)
    );
    // The healthy job itself has neither.
    let sb = Sandbox::new("prs-healthy-results");
    let job = copy_tree(&sb, "healthy-job");
    let v = sb.diagnose_json(&[job.to_str().unwrap()]);
    for id in ["prs-nothing-succeeded", "prs-fewer-results-than-inputs"] {
        assert!(!ids(&v).contains(&id.to_owned()), "{id} on the healthy job");
    }
}

/// A job that completes with 8 failed items against an error threshold of 10 is
/// warned about: one more bad mini-batch and it would have stopped. With 7 (under 80 %)
/// it is not.
#[test]
fn a_job_close_to_its_error_threshold() {
    let near = |failed: u64| -> Vec<String> {
        let sb = Sandbox::new(&format!("prs-threshold-{failed}"));
        let job = copy_tree(&sb, "healthy-job");
        let done = format!(
            "Processed 20 mini batches containing 100 items, {} succeeded, {failed} failed.",
            100 - failed
        );
        for file in [
            "job_result.txt",
            "job_progress_overview.2023051708.txt",
            "sys/master_role.txt",
        ] {
            let path = job.join("logs").join(file);
            let t = std::fs::read_to_string(&path).unwrap().replace(
                "Processed 20 mini batches containing 100 items, 100 succeeded, 0 failed.",
                &done,
            );
            std::fs::write(&path, t).unwrap();
        }
        let v = sb.diagnose_json(&[job.to_str().unwrap()]);
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["rule_id"] == "prs-error-threshold-near")
            .map(|f| {
                format!(
                    "{}/{}",
                    f["facts"]["failed_items"], f["facts"]["error_threshold"]
                )
            })
            .collect()
    };
    assert_eq!(near(8), ["\"8\"/\"10\""]);
    assert!(near(7).is_empty());
}

#[test]
fn run_exception_commands_are_filled_from_the_job_and_group_the_errors() {
    // `logs azureml-logs` side by side, as the other tests pass them: one job.
    let (v, _) = analyse("failed-job");
    let f = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule_id"] == "prs-run-exception")
        .expect("prs-run-exception");
    let commands: Vec<&str> = f["commands"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(
        commands.contains(
            &r#"python -c "import score as s; s.init(); print(s.run(['readings_003.csv']))""#
        ),
        "{commands:#?}"
    );
    assert!(!commands.iter().any(|c| c.contains('<')), "{commands:#?}");
    // The grouping command groups: every line starts with its own timestamp.
    let grep = commands.iter().find(|c| c.starts_with("grep ")).unwrap();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/prs/failed-job");
    let out = std::process::Command::new("sh")
        .args(["-c", grep])
        .current_dir(&dir)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let first = text.lines().next().unwrap_or_default();
    assert!(
        first
            .trim_start()
            .starts_with("9 Entry script run() failed for ValueError"),
        "{text}"
    );
}
