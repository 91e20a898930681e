//! The scripts under completions/ are generated; this test regenerates them and fails
//! when they are stale. `AMLDOCTOR_UPDATE_GENERATED=1 cargo test` rewrites them.

use std::path::Path;

use amldoctor::commands::completions::{file_name, script};
use clap::ValueEnum;
use clap_complete::Shell;

use crate::Sandbox;

#[test]
fn checked_in_scripts_are_current() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("completions");
    for shell in Shell::value_variants() {
        crate::assert_generated(&dir.join(file_name(*shell)), &script(*shell));
    }
}

#[test]
fn binary_prints_the_same_scripts() {
    let sb = Sandbox::new("completions");
    for (name, shell) in [
        ("bash", Shell::Bash),
        ("zsh", Shell::Zsh),
        ("fish", Shell::Fish),
        ("powershell", Shell::PowerShell),
        ("elvish", Shell::Elvish),
    ] {
        let run = sb.run(&["completions", name]);
        assert_eq!(
            run.ok().stdout.as_bytes(),
            script(shell).as_slice(),
            "{name}"
        );
        assert!(run.stdout.contains("replicas"), "{name}");
    }
    sb.run(&["completions", "tcsh"]).usage_error(&["tcsh"]);
}

#[test]
fn completions_ignore_a_broken_az_config() {
    let sb = Sandbox::new("completions-azbroken");
    sb.write("home/.azure/config", "[defaults\n");
    sb.run(&["completions", "bash"]).ok();
}

/// `completions --help` and the README's install table give the same command for
/// every shell.
#[test]
fn help_and_readme_install_to_the_same_places() {
    let sb = crate::Sandbox::new("completions-where");
    // A long example is continued with ` \` so it still pastes as one command.
    let help = sb
        .run(&["completions", "--help"])
        .ok()
        .stdout
        .replace(" \\\n      ", " ");
    let from_help: Vec<&str> = help
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("amldoctor completions "))
        .collect();
    let readme =
        std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
            .unwrap();
    let from_readme: Vec<&str> = readme
        .lines()
        .filter_map(|l| l.split('`').nth(1))
        .filter(|c| c.starts_with("amldoctor completions ") && c.contains('>'))
        .collect();
    assert_eq!(from_help.len(), 5, "{help}");
    assert_eq!(from_help, from_readme);
}
