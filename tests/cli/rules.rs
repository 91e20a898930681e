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
        run.ok().stdout.contains("**Example that matches**"),
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
    if std::env::var_os("AMLDOCTOR_UPDATE_DOCS").is_some() {
        std::fs::write(&path, &fresh).unwrap();
    }
    let current = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        current == fresh,
        "docs/rules.md is stale; run AMLDOCTOR_UPDATE_DOCS=1 cargo test"
    );
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
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots/rule-ids.txt");
    let fresh = ids.join("\n") + "\n";
    if std::env::var_os("AMLDOCTOR_UPDATE_SNAPSHOTS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &fresh).unwrap();
    }
    assert_eq!(
        std::fs::read_to_string(&path).unwrap_or_default(),
        fresh,
        "rule ids changed; run AMLDOCTOR_UPDATE_SNAPSHOTS=1 cargo test"
    );
}

#[test]
fn builtin_literals_all_go_to_the_fast_searchers() {
    // A fully case-insensitive literal needs a slower automaton over every byte of every
    // log (measured: 8x slower scans). Built-in rules keep a case-sensitive literal in
    // each pattern.
    let set = amldoctor::commands::support::builtin_rules().unwrap();
    let (packed, automata) = set.prefilter.shape();
    assert!(packed >= 1);
    assert_eq!(
        automata, 0,
        "a built-in pattern has only case-insensitive literal text"
    );
}

#[test]
fn amldoctor_commands_of_resource_rules_parse() {
    // Every `amldoctor …` command a rule over resources prints must parse with the real
    // CLI once its placeholders are filled (with a number, which every slot accepts).
    use clap::Parser;
    let set = amldoctor::commands::support::builtin_rules().unwrap();
    let mut checked = 0;
    for rule in set.rules.iter().filter(|r| r.resource_kinds != 0) {
        for command in rule.commands.iter().filter(|c| c.starts_with("amldoctor ")) {
            let mut filled = String::new();
            let mut in_slot = false;
            for ch in command.chars() {
                match ch {
                    '{' => {
                        in_slot = true;
                        filled.push('3');
                    }
                    '}' => in_slot = false,
                    c if !in_slot => filled.push(c),
                    _ => {}
                }
            }
            let words: Vec<&str> = filled.split_whitespace().collect();
            if let Err(e) = amldoctor::cli::Cli::try_parse_from(&words) {
                panic!("{}: {command}: {e}", rule.id);
            }
            checked += 1;
        }
    }
    assert!(checked >= 1, "checked {checked}");
}
