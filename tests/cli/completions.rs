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
