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
            "explain",
            "rules",
            "replicas",
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
