//! `amldoctor completions SHELL`.

use std::io::Write;

use clap::CommandFactory;
use clap_complete::Shell;

use crate::cli::{Cli, CompletionsArgs};
use crate::error::{Error, Result};
use crate::exit_code::ExitCode;

pub fn run(args: &CompletionsArgs, out: &mut dyn Write) -> Result<ExitCode> {
    out.write_all(&script(args.shell)).map_err(Error::write)?;
    Ok(ExitCode::Clean)
}

/// The completion script for `shell`, as checked in under `completions/`.
pub fn script(shell: Shell) -> Vec<u8> {
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "amldoctor", &mut buf);
    buf
}

/// The file name each script is checked in under, as each shell expects it.
pub fn file_name(shell: Shell) -> String {
    match shell {
        Shell::Bash => "amldoctor.bash".to_owned(),
        Shell::Zsh => "_amldoctor".to_owned(),
        Shell::Fish => "amldoctor.fish".to_owned(),
        Shell::PowerShell => "_amldoctor.ps1".to_owned(),
        Shell::Elvish => "amldoctor.elv".to_owned(),
        other => format!("amldoctor.{other}"),
    }
}
