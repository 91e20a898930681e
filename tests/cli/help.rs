//! `--help` lists only working commands, documents the exit codes and gives examples.

use crate::Sandbox;

#[test]
fn top_level_help() {
    let sb = Sandbox::new("help-top");
    let run = sb.run(&["--help"]);
    let out = &run.ok().stdout;
    let commands: Vec<&str> = out
        .split("Commands:\n")
        .nth(1)
        .unwrap()
        .lines()
        .take_while(|l| l.starts_with("  "))
        .filter(|l| !l.starts_with("   "))
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(
        commands,
        [
            "logs",
            "diagnose",
            "check",
            "lint",
            "explain",
            "rules",
            "replicas",
            "score",
            "completions",
            "help"
        ]
    );
    for needle in [
        "Exit codes:",
        "0  ran; no finding at or above --fail-on",
        "3  Azure or network access error",
        "--output <FORMAT>",
        "--no-color",
        "--quiet",
        "--debug",
        "--subscription <ID>",
        "--resource-group <NAME>",
        "--workspace-name <NAME>",
        "--cloud <NAME>",
        "amldoctor replicas --rps 20",
        "AZURE_DEFAULTS_GROUP",
    ] {
        assert!(out.contains(needle), "--help lacks {needle:?}:\n{out}");
    }
}

#[test]
fn every_command_has_examples_and_globals() {
    let sb = Sandbox::new("help-cmds");
    for cmd in ["diagnose", "explain", "rules", "replicas", "completions"] {
        let run = sb.run(&[cmd, "--help"]);
        let out = &run.ok().stdout;
        assert!(out.contains("Examples:"), "{cmd}:\n{out}");
        assert!(
            out.contains("--workspace-name"),
            "{cmd} shows the global options:\n{out}"
        );
    }
    let out = sb.run(&["replicas", "--help"]).ok().stdout.clone();
    for needle in [
        "--rps <RPS>",
        "--latency <DURATION>",
        "--max-concurrent <N>",
        "--utilization <UTIL>",
        "--instances <N>",
        "--deployment-file <FILE>",
        "429",
    ] {
        assert!(
            out.contains(needle),
            "replicas --help lacks {needle:?}:\n{out}"
        );
    }
}

#[test]
fn version() {
    let sb = Sandbox::new("help-version");
    let run = sb.run(&["--version"]);
    assert_eq!(
        run.ok().stdout,
        format!("amldoctor {}\n", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn closed_stdout_exits_quietly() {
    let sb = Sandbox::new("help-pipe");
    let (code, stderr) = sb.run_with_closed_stdout(&["completions", "zsh"]);
    assert_eq!(code, Some(0), "stderr: {stderr}");
    assert_eq!(stderr, "");
}

/// The `Examples:` section of a help text.
fn examples(help: &str) -> String {
    help.split("Examples:\n")
        .nth(1)
        .unwrap_or_default()
        .lines()
        .take_while(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn examples_stay_whole_on_an_80_column_terminal_and_run_outside_a_checkout() {
    let sb = Sandbox::new("help-80");
    // Run from an empty folder: no example may need the source tree.
    let empty = sb.work();
    let at = |width: &str, args: &[&str]| {
        let mut cmd = sb.command_in(&empty, args);
        cmd.env("COLUMNS", width);
        crate::Run::from(cmd.output().unwrap())
    };
    for cmd in [
        vec!["--help"],
        vec!["logs", "--help"],
        vec!["diagnose", "--help"],
        vec!["check", "--help"],
        vec!["explain", "--help"],
        vec!["rules", "--help"],
        vec!["replicas", "--help"],
        vec!["completions", "--help"],
    ] {
        let narrow = examples(&at("80", &cmd).ok().stdout);
        let wide = examples(&at("300", &cmd).ok().stdout);
        assert!(!narrow.is_empty(), "{cmd:?} has examples");
        assert_eq!(
            narrow, wide,
            "{cmd:?}: an example was wrapped at 80 columns"
        );
        assert!(
            !narrow.contains("tests/fixtures"),
            "{cmd:?}: an example needs the source tree:\n{narrow}"
        );
    }
    // The example that needs no log of the user's own runs as printed.
    let example = at("80", &["rules", "example", "flask2-register-typeerror"]);
    let mut diagnose = sb.command_in(&empty, &["diagnose", "-"]);
    diagnose
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped());
    let mut child = diagnose.spawn().unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(example.ok().stdout.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1), "errors found");
    assert!(String::from_utf8_lossy(&out.stdout).contains("error[flask2-register-typeerror]"));
}
