//! `amldoctor rules …` and the generated docs/rules.md.

use std::path::Path;

use crate::Sandbox;

#[test]
fn list_show_and_test() {
    let sb = Sandbox::new("rules-cmds");
    let run = sb.run(&["rules", "list"]);
    let out = &run.ok().stdout;
    assert!(out.lines().count() >= 60, "{out}");
    assert!(
        out.lines()
            .any(|l| l.starts_with("flask2-register-typeerror ")),
        "{out}"
    );
    let v = sb.run(&["rules", "list", "-o", "json"]).ok().json();
    assert!(v["rules"].as_array().unwrap().len() >= 60);
    let run = sb.run(&["rules", "show", "user-init-failed"]);
    assert!(
        run.ok().stdout.contains("\nExample that matches\n"),
        "{}",
        run.stdout
    );
    sb.run(&["rules", "show", "user-init-faild"])
        .usage_error(&["no rule has the id 'user-init-faild'", "user-init-failed"]);
    let run = sb.run(&["rules", "test"]);
    assert!(run.ok().stdout.contains(" 0 failed"), "{}", run.stdout);
}

#[test]
fn rules_test_reports_failing_user_examples() {
    let sb = Sandbox::new("rules-test-user");
    sb.write(
        "work/r/wrong.yaml",
        "id: team-wrong\ntitle: Wrong example\nseverity: info\nfamily: inference-server\nmatch:\n  any: ['needle here']\nremediation: x\nexamples:\n  match: ['no needle']\n  no-match: ['needle here']\n",
    );
    let run = sb.run(&["rules", "test", sb.work().join("r").to_str().unwrap()]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(
        run.stdout.contains("FAIL ")
            && run
                .stdout
                .contains("rule 'team-wrong': examples.match[0]: the rule did not fire"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("examples.no-match[0]: the rule fired"),
        "{}",
        run.stdout
    );
}

#[test]
fn rules_md_is_current() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/rules.md");
    let set = amldoctor::commands::support::builtin_rules().unwrap();
    let fresh = amldoctor::report::rule_doc::catalogue_markdown(&set);
    crate::assert_generated(&path, fresh.as_bytes());
}

#[test]
fn every_builtin_rule_passes_its_examples() {
    let set = amldoctor::commands::support::builtin_rules().unwrap();
    let failures = amldoctor::engine::examples::check(&set, |_| true);
    let text: Vec<String> = failures.iter().map(|f| f.to_string()).collect();
    assert!(failures.is_empty(), "{}", text.join("\n"));
}

#[test]
fn rule_code_snapshot() {
    // A new or renamed rule id shows up in review here.
    let set = amldoctor::commands::support::builtin_rules().unwrap();
    let mut ids: Vec<&str> = set.rules.iter().map(|r| r.id.as_str()).collect();
    ids.sort();
    crate::assert_snapshot("", "rule-ids.txt", &(ids.join("\n") + "\n"));
}

#[test]
fn builtin_literals_all_go_to_the_fast_searchers() {
    // A fully case-insensitive literal needs a slower automaton over every byte of every
    // log (measured: 8x slower scans). Built-in rules keep a case-sensitive literal in
    // each pattern.
    let set = amldoctor::commands::support::builtin_rules().unwrap();
    let (packed, automata) = set.prefilter.all().shape();
    assert!(packed >= 1);
    assert_eq!(
        automata, 0,
        "a built-in pattern has only case-insensitive literal text"
    );
}

#[test]
fn every_amldoctor_command_amldoctor_prints_exists() {
    // Rules (commands and fixes), every --help example, and every hint or message in the
    // source: each `amldoctor …` command parses with the real command line.
    use amldoctor::commands::printed::{amldoctor_commands, check};
    use clap::CommandFactory;
    let set = amldoctor::commands::support::builtin_rules().unwrap();
    let mut problems = amldoctor::commands::rules::command_failures(&set);
    let mut checked = 0;
    let mut texts: Vec<(String, String)> = Vec::new();
    let cli = amldoctor::cli::Cli::command();
    for sub in std::iter::once(&cli).chain(cli.get_subcommands()) {
        for help in [sub.get_after_help(), sub.get_after_long_help()]
            .into_iter()
            .flatten()
        {
            texts.push((format!("{} --help", sub.get_name()), help.to_string()));
        }
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut stack = vec![root];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") && !path.ends_with("printed.rs") {
                // printed.rs holds the checker's own examples of commands that must fail.
                texts.push((
                    path.display().to_string(),
                    std::fs::read_to_string(&path).unwrap(),
                ));
            }
        }
    }
    for (origin, text) in &texts {
        // In source, commands sit inside string literals: read each literal's lines.
        let lines: String = if std::path::Path::new(origin)
            .extension()
            .is_some_and(|e| e == "rs")
        {
            text.split('"')
                .skip(1)
                .step_by(2)
                .filter(|l| l.contains("amldoctor "))
                .map(|l| l.replace("\\n", "\n"))
                .collect::<Vec<_>>()
                .join("\n")
        } else {
            text.clone()
        };
        for command in amldoctor_commands(&lines) {
            // Doc comments about the tool's own behaviour are prose, not commands.
            if let Err(e) = check(&command) {
                problems.push(format!("{origin}: `{command}`: {e}"));
            }
            checked += 1;
        }
    }
    for rule in &set.rules {
        checked += rule
            .commands
            .iter()
            .filter(|c| c.starts_with("amldoctor "))
            .count();
    }
    assert!(checked >= 20, "only {checked} commands found");
    assert!(
        problems.is_empty(),
        "{} commands do not exist:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn rules_test_rejects_a_user_rule_that_prints_a_command_amldoctor_lacks() {
    let sb = Sandbox::new("rules-bad-command");
    sb.write(
        "work/team/bad.yaml",
        "id: team-bad-command\ntitle: A rule that prints a command that does not exist\nseverity: warning\nfamily: deployment\nmatch:\n  any:\n    - 'TeamSpecificFailure'\nremediation: Run `amldoctor fix deployment.yml` first.\ncommands:\n  - 'amldoctor diagnose --no-such-flag {endpoint}'\nexamples:\n  match: ['TeamSpecificFailure here']\n  no-match: ['all good']\n",
    );
    let dir = sb.work().join("team");
    let run = sb.run(&["rules", "test", dir.to_str().unwrap()]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(run.stdout.contains("rule 'team-bad-command': commands: `amldoctor diagnose --no-such-flag {endpoint}` is not a command amldoctor has"), "{}", run.stdout);
    assert!(
        run.stdout
            .contains("`amldoctor fix deployment.yml` is not a command amldoctor has"),
        "{}",
        run.stdout
    );
}

/// `rules show` on an 80-column terminal: prose and commands fit, only URLs, patterns
/// and the example log lines (verbatim, never broken) may run longer; no markdown
/// markup.
#[test]
fn show_fits_an_80_column_terminal() {
    let sb = Sandbox::new("rules-show-80");
    for id in [
        "user-init-failed",
        "image-build-failure",
        "keyvault-firewall-blocks-azure-services",
        "parallel-job-error-threshold-invalid",
    ] {
        let mut cmd = sb.command(&["rules", "show", id]);
        cmd.env("COLUMNS", "80");
        let out = crate::Run::from(cmd.output().unwrap()).ok().stdout.clone();
        assert!(out.starts_with(&format!("{id}\n")), "{out}");
        let mut in_example = false;
        for line in out.lines() {
            if line.starts_with("Example that") {
                in_example = true;
            }
            assert!(
                line.chars().count() <= 80
                    || line.contains("https://")
                    || (line.starts_with("- `") && line.ends_with('`'))
                    || in_example,
                "{id}: a line over 80 columns:\n{line}"
            );
            assert!(
                !line.contains("**") && !line.starts_with("```"),
                "{id}: markdown shown: {line}"
            );
        }
    }
}

#[test]
fn docs_documents_a_teams_rules_with_the_built_in_ones() {
    let sb = Sandbox::new("rules-docs-team");
    sb.write(
        "work/team-rules/oom.yaml",
        "id: team-gpu-oom\ntitle: CUDA out of memory\nseverity: error\nfamily: inference-server\nmatch:\n  any: ['CUDA out of memory\\. Tried to allocate']\nremediation: Use a larger GPU SKU.\nexamples:\n  match: ['torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB']\n  no-match: ['CUDA available: True']\n",
    );
    let dir = sb.work().join("team-rules");
    let plain = sb.run(&["rules", "docs"]).ok().stdout.clone();
    assert!(!plain.contains("team-gpu-oom"));
    let docs = sb
        .run(&["rules", "docs", "--rules", dir.to_str().unwrap()])
        .ok()
        .stdout
        .clone();
    assert!(docs.contains("team-gpu-oom"), "{docs}");
    assert!(docs.contains("user-init-failed"), "built-in rules stay");
}

#[test]
fn list_quiet_prints_the_ids_alone() {
    let sb = Sandbox::new("rules-list-q");
    let full = sb.run(&["rules", "list", "-o", "json"]).ok().json();
    let ids: Vec<&str> = full["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    let quiet = sb.run(&["rules", "list", "-q"]).ok().stdout.clone();
    let mut listed: Vec<&str> = quiet.lines().collect();
    listed.sort_unstable();
    let mut expected = ids.clone();
    expected.sort_unstable();
    assert_eq!(listed, expected);
}

#[test]
fn rules_list_searches_and_filters_by_family_and_names_a_family_that_is_not_there() {
    let sb = Sandbox::new("rules-search");
    let quota = sb
        .run(&["rules", "list", "--search", "QUOTA", "-q"])
        .ok()
        .stdout
        .clone();
    let ids: Vec<&str> = quota.lines().collect();
    assert!(ids.contains(&"out-of-quota"), "{quota}");
    assert!(!ids.contains(&"user-init-failed"), "{quota}");
    let http = sb
        .run(&["rules", "list", "--family", "http", "-o", "json"])
        .ok()
        .json();
    let families: Vec<&str> = http["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["family"].as_str().unwrap())
        .collect();
    assert!(
        !families.is_empty() && families.iter().all(|f| *f == "http"),
        "{families:?}"
    );
    let run = sb.run(&["rules", "list", "--family", "htpp"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("error: --family htpp: no rule is of that family; the families are build,"),
        "{}",
        run.stderr
    );
}
