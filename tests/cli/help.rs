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
            "rehearse",
            "mcp",
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
        vec!["check", "deployment", "--help"],
        vec!["lint", "--help"],
        vec!["explain", "--help"],
        vec!["rules", "--help"],
        vec!["replicas", "--help"],
        vec!["score", "--help"],
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

#[test]
fn score_examples_stay_within_the_probe_bounds() {
    let sb = Sandbox::new("help-score-bounds");
    let dir = sb.work();
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("req.json"), "{}").unwrap();
    let help = sb.run(&["score", "--help"]).ok().stdout.clone();
    let examples: Vec<&str> = help
        .lines()
        .filter_map(|l| l.trim().strip_prefix("amldoctor score "))
        .collect();
    assert_eq!(examples.len(), 4, "{help}");
    for example in examples {
        let mut args = vec!["score"];
        args.extend(example.split_whitespace());
        let run = crate::Run::from(sb.command_in(&dir, &args).output().unwrap());
        assert!(
            !run.stderr.contains("--force"),
            "`amldoctor score {example}` needs --force:\n{}",
            run.stderr
        );
    }
}

/// Every command path whose `--help` a user may read.
const HELP_PATHS: &[&[&str]] = &[
    &[],
    &["logs"],
    &["diagnose"],
    &["check"],
    &["check", "all"],
    &["check", "deployment"],
    &["check", "dns"],
    &["check", "workspace"],
    &["check", "keyvault"],
    &["check", "private-endpoint"],
    &["lint"],
    &["score"],
    &["replicas"],
    &["explain"],
    &["rules"],
    &["rules", "list"],
    &["rules", "show"],
    &["rules", "example"],
    &["rules", "test"],
    &["rules", "docs"],
    &["completions"],
];

#[test]
fn no_option_states_its_default_twice() {
    let sb = Sandbox::new("help-defaults");
    for path in HELP_PATHS {
        let mut args = path.to_vec();
        args.push("--help");
        let help = sb.run(&args).ok().stdout.clone();
        for option in help.split("\n\n") {
            assert!(
                option.matches("[default:").count() < 2,
                "{path:?} states a default twice:\n{option}"
            );
        }
    }
}

#[test]
fn help_fits_an_80_column_terminal_without_ragged_paragraphs() {
    let sb = Sandbox::new("help-ragged");
    for path in HELP_PATHS {
        let mut args = path.to_vec();
        args.push("--help");
        let mut cmd = sb.command(&args);
        cmd.env("COLUMNS", "80");
        let help = crate::Run::from(cmd.output().unwrap()).ok().stdout.clone();
        for line in help.lines() {
            assert!(
                line.chars().count() <= 80,
                "{path:?}: a line over 80 columns:\n{line}"
            );
        }
        // A paragraph hard-wrapped in the source and re-wrapped by clap leaves a
        // line of one or two words between two long ones.
        let lines: Vec<&str> = help.lines().collect();
        for w in lines.windows(3) {
            let short = w[1].trim().split(' ').count() <= 2 && !w[1].trim().is_empty();
            assert!(
                !(w[0].len() > 70 && short && w[2].len() > 60 && !w[1].starts_with("  ")),
                "{path:?}: a ragged paragraph:\n{}\n{}\n{}",
                w[0],
                w[1],
                w[2]
            );
        }
    }
    let mut cmd = sb.command(&["--help"]);
    cmd.env("COLUMNS", "80");
    let help = crate::Run::from(cmd.output().unwrap()).ok().stdout.clone();
    let codes = help.split("Exit codes:\n").nth(1).unwrap();
    for line in codes.lines() {
        assert!(
            line.starts_with("  0  ")
                || line.starts_with("  1  ")
                || line.starts_with("  2  ")
                || line.starts_with("  3  ")
                || line.starts_with("     "),
            "an exit-code line not indented under its code: {line:?}\n{codes}"
        );
    }
}

#[test]
fn a_format_the_help_offers_is_taken_or_marked_as_for_other_commands() {
    let sb = Sandbox::new("help-formats");
    let cases: &[&[&str]] = &[
        &["explain", "429"],
        &["rules", "list"],
        &["replicas", "--rps", "3"],
    ];
    for args in cases {
        let mut help_args = vec![args[0], "--help"];
        if args[0] == "rules" {
            help_args.insert(1, "list");
        }
        let help = sb.run(&help_args).ok().stdout.clone();
        let formats = help.split("--output <FORMAT>").nth(1).unwrap();
        let values: Vec<&str> = formats
            .lines()
            .take_while(|l| !l.trim_start().starts_with("--"))
            .filter_map(|l| l.trim().strip_prefix("- "))
            .collect();
        assert_eq!(values.len(), 6, "{args:?}:\n{formats}");
        for value in values {
            let (name, text) = value.split_once(':').unwrap();
            let mut run_args = args.to_vec();
            run_args.extend(["-o", name]);
            let run = sb.run(&run_args);
            let taken = run.code == 0;
            let marked =
                text.contains("findings") && !(args[0] == "explain" && text.contains("explain"));
            assert!(
                taken != marked,
                "{args:?} -o {name}: exit {} but the help says {text:?}\n{}",
                run.code,
                run.stderr
            );
        }
    }
}
