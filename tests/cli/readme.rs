//! The README's example commands are real: every `amldoctor …` line of its shell
//! blocks parses with the real command line, and each one that needs no Azure account
//! (bundled fixtures, `replicas`, `rules`) runs from the repository root and ends as a
//! run ends (0 clean, 1 findings), never with a usage or access error.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::Stdio;

use crate::{Run, Sandbox};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every pipeline stage of the README's `sh` blocks that runs amldoctor, by line:
/// `(line, [stage, …])`, each stage the words after `amldoctor`.
fn examples() -> Vec<(String, Vec<String>)> {
    let text = std::fs::read_to_string(root().join("README.md")).unwrap();
    let mut out = Vec::new();
    let mut in_sh = false;
    for line in text.lines() {
        if line.starts_with("```") {
            in_sh = line.trim() == "```sh";
            continue;
        }
        if !in_sh || !line.contains("amldoctor ") {
            continue;
        }
        let code = line.split(" # ").next().unwrap_or(line).trim();
        let parts: Vec<&str> = code
            .split(" | ")
            .flat_map(|s| s.split(" && "))
            .map(str::trim)
            .filter(|s| !s.starts_with("cargo install "))
            .collect();
        let stages: Vec<String> = parts
            .iter()
            .filter_map(|s| s.strip_prefix("amldoctor "))
            .map(str::to_owned)
            .collect();
        // A stage of another program (az) is marked, so the line is parsed, not run.
        let foreign = parts.len() != stages.len();
        if !stages.is_empty() {
            let mut stages = stages;
            if foreign {
                stages.insert(0, FOREIGN.to_owned());
            }
            out.push((line.to_owned(), stages));
        }
    }
    out
}

/// Stands for a stage of another program (`az …`) in a pipeline.
const FOREIGN: &str = "(another program)";

/// Needs nothing but the repository: no Azure read, no file the README only imagines.
fn runs_offline(stage: &str) -> bool {
    if stage == FOREIGN {
        return false;
    }
    let words: Vec<&str> = stage.split_whitespace().collect();
    let live = [
        "-e",
        "--run",
        "--fleet",
        "--log-analytics",
        "--host",
        "--out",
    ];
    if words.iter().any(|w| live.contains(w)) || words[0] == "score" || words[0] == "logs" {
        return false;
    }
    let paths_exist = words
        .iter()
        .skip(1)
        .filter(|w| {
            let ext = std::path::Path::new(w).extension();
            w.contains('/')
                || ext.is_some_and(|e| {
                    e.eq_ignore_ascii_case("json") || e.eq_ignore_ascii_case("yml")
                })
        })
        .all(|w| root().join(w).exists());
    let reads_files = matches!(words[0], "diagnose" | "check" | "lint");
    paths_exist && (!reads_files || stage.contains("tests/fixtures/") || words.ends_with(&["-"]))
}

#[test]
fn every_example_command_parses() {
    let all = examples();
    assert!(
        all.len() > 20,
        "the README's examples were not found: {all:?}"
    );
    for (line, stages) in &all {
        for stage in stages.iter().filter(|s| *s != FOREIGN) {
            let command = format!("amldoctor {stage}");
            if let Err(e) = amldoctor::commands::printed::check(&command) {
                panic!("README line `{line}`: `{command}` does not parse: {e}");
            }
        }
    }
}

#[test]
fn every_offline_example_runs_as_printed() {
    let sb = Sandbox::new("readme");
    let mut ran = 0;
    for (line, stages) in examples() {
        if !stages.iter().all(|s| runs_offline(s)) {
            continue;
        }
        let mut input: Option<Vec<u8>> = None;
        let mut last = None;
        for stage in &stages {
            let words: Vec<&str> = stage.split_whitespace().collect();
            let mut cmd = sb.command_in(&root(), &words);
            cmd.stdin(if input.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            });
            cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
            let mut child = cmd.spawn().unwrap();
            if let (Some(bytes), Some(mut stdin)) = (&input, child.stdin.take()) {
                stdin.write_all(bytes).unwrap();
            }
            let run = Run::from(child.wait_with_output().unwrap());
            input = Some(run.stdout.clone().into_bytes());
            last = Some(run);
        }
        let run = last.unwrap();
        // The README says the malformed `truncated.json` among the bundled resources
        // is reported as an input error (exit 2) beside the report of the others.
        let documented = run.code == 2 && run.stderr.contains("truncated.json");
        assert!(
            (matches!(run.code, 0 | 1) || documented) && !run.stdout.is_empty(),
            "README line `{line}` exited {} with: {}",
            run.code,
            run.stderr
        );
        ran += 1;
    }
    assert!(ran >= 8, "only {ran} README examples ran offline");
}

/// The README's table of gate and report options names each value as `diagnose
/// --help` does (`--markdown-limit BYTES`, `<BYTES>`).
#[test]
fn option_table_names_values_as_the_help_does() {
    let text = std::fs::read_to_string(root().join("README.md")).unwrap();
    let sb = Sandbox::new("readme-options");
    let help = sb.run(&["diagnose", "--help"]).ok().stdout.clone();
    let mut rows = 0;
    for line in text.lines() {
        let Some(cell) = line.strip_prefix("| `--") else {
            continue;
        };
        let option = cell.split('`').next().unwrap();
        let Some((flag, value)) = option.split_once(' ') else {
            continue;
        };
        if value.contains('|') {
            continue;
        }
        rows += 1;
        let shown = format!("--{flag} <{value}>");
        assert!(
            help.contains(&shown),
            "README has `--{option}`, help lacks {shown:?}"
        );
    }
    assert!(rows >= 5, "the README's option table was found");
}
