//! Table output laid out for 80- and 120-column terminals (`COLUMNS`): snapshots of
//! diagnose, explain, the ParallelRunStep summary and replicas, and no line wider
//! than the terminal except one holding an unbreakable token (a URL, a path).

use std::path::PathBuf;

use super::{Run, Sandbox};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Display columns of a line (the outputs hold `…`, `×`, `─`: one column each).
fn columns(line: &str) -> usize {
    line.chars().count()
}

/// Lines wider than `width` that are not a short label and one unbreakable token.
fn too_wide(text: &str, width: usize) -> Vec<String> {
    text.lines()
        .filter(|l| {
            let longest = l.split_whitespace().map(columns).max().unwrap_or(0);
            columns(l) > width && columns(l) - longest > 12
        })
        .map(str::to_owned)
        .collect()
}

/// Runs `args` from the repository root (so paths in the output are relative and the
/// snapshot is the same on every machine) at `width` columns.
fn at_width(sb: &Sandbox, width: usize, args: &[&str]) -> Run {
    let mut cmd = sb.command_in(&root(), args);
    cmd.env("COLUMNS", width.to_string());
    Run::from(cmd.output().unwrap())
}

#[test]
fn output_fits_80_and_120_columns() {
    let sb = Sandbox::new("layout");
    let cases: &[(&str, &[&str])] = &[
        (
            "diagnose-quota",
            &[
                "diagnose",
                "tests/fixtures/pasted/gh-issue-markdown-out-of-quota.md.txt",
            ],
        ),
        (
            "diagnose-oom",
            &["diagnose", "tests/fixtures/logs/server-1.5.1-oom-kill.log"],
        ),
        (
            "diagnose-prs",
            &["diagnose", "tests/fixtures/prs/failed-job"],
        ),
        ("explain-quota", &["explain", "OutOfQuota"]),
        (
            "check-connections",
            &[
                "check",
                "all",
                "--from",
                "tests/fixtures/resources/acr-pe-connections-arm-approved.json",
            ],
        ),
        (
            "replicas-file",
            &[
                "replicas",
                "--rps",
                "5",
                "--latency",
                "2s",
                "-f",
                "tests/fixtures/deployments/blue-managed.yml",
            ],
        ),
        (
            "replicas",
            &[
                "replicas",
                "--rps",
                "120",
                "--latency",
                "350ms",
                "--max-concurrent",
                "2",
            ],
        ),
    ];
    for width in [80, 120] {
        for (name, args) in cases {
            let run = at_width(&sb, width, args);
            assert!(
                run.code <= 1 && !run.stdout.is_empty(),
                "{name}: {}",
                run.stderr
            );
            let wide = too_wide(&run.stdout, width);
            assert!(wide.is_empty(), "{name} at {width}: {wide:#?}");
            super::assert_snapshot("layout", &format!("{name}-{width}.txt"), &run.stdout);
        }
    }
}

#[test]
fn a_command_broken_over_lines_pastes_as_the_one_command() {
    let sb = Sandbox::new("layout-paste");
    let run = at_width(
        &sb,
        80,
        &[
            "diagnose",
            "tests/fixtures/pasted/gh-issue-markdown-out-of-quota.md.txt",
            "-g",
            "rg-ml-prod",
            "-w",
            "mlw-churn-prod",
        ],
    );
    let joined = super::joined(&run.stdout);
    assert!(
        joined.contains("az ml online-deployment list --endpoint-name sales-forecast-ep -g rg-ml-prod -w mlw-churn-prod -o table"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains(" \\\n"), "a long command was continued");
}

#[test]
fn info_findings_wait_for_min_severity_info_unless_they_fail_the_gate() {
    let sb = Sandbox::new("layout-min-severity");
    let healthy = "tests/fixtures/logs/server-0.6.1-healthy.log";
    let hidden = at_width(&sb, 100, &["diagnose", healthy]);
    assert!(
        hidden
            .stdout
            .contains("not shown (info): --min-severity info shows"),
        "{}",
        hidden.stdout
    );
    assert!(!hidden.stdout.contains("info["), "{}", hidden.stdout);
    // What fails the gate is shown: an exit 1 with nothing to read would be a riddle.
    let table = at_width(&sb, 100, &["diagnose", healthy, "--fail-on", "info"]);
    assert_eq!(table.code, 1, "the gate counts the info finding");
    assert!(table.stdout.contains("info["), "{}", table.stdout);
    assert!(
        !table.stdout.contains("not shown (info)"),
        "{}",
        table.stdout
    );
    // A hidden finding's commands ask for nothing.
    let noise = at_width(
        &sb,
        100,
        &[
            "diagnose",
            "tests/fixtures/pasted/prs-bookkeeping-noise-fragment.txt",
        ],
    );
    assert!(
        !noise.stdout.contains("Fill in before running"),
        "{}",
        noise.stdout
    );
    let shown = at_width(&sb, 100, &["diagnose", healthy, "--min-severity", "info"]);
    assert!(shown.stdout.contains("info["), "{}", shown.stdout);
    // Programs get every finding unless they ask for less.
    let json = at_width(&sb, 100, &["diagnose", healthy, "-o", "json"]);
    assert!(
        json.stdout.contains("\"severity\": \"info\""),
        "{}",
        json.stdout
    );
    let quiet = at_width(
        &sb,
        100,
        &["diagnose", "tests/fixtures/logs/cli-out-of-quota.txt", "-q"],
    );
    let line = quiet.stdout.lines().next().unwrap_or_default();
    assert!(
        line.starts_with("error\tout-of-quota-vm-cores\t")
            && line.contains("vm_size=Standard_DS3_v2"),
        "-q keeps the facts: {line}"
    );
}
