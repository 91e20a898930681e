//! One file per subcommand; each turns a resolved [`Context`] and its own arguments
//! into output and an [`ExitCode`]. Orchestration only: the work lives in the modules
//! they call.

pub mod check;
pub mod collect;
pub mod completions;
pub mod diagnose;
pub mod explain;
pub mod logs;
pub mod pipeline;
pub mod printed;
pub mod replicas;
pub mod rules;
pub mod run_logs;
pub mod support;

use std::io::Write;

use crate::cli::{Cli, Command};
use crate::context::{Context, ContextFiles};
use crate::error::Result;
use crate::exit_code::ExitCode;
use crate::source;

/// Runs the parsed command line, writing the report to `out` and notes to `err`.
pub fn run(cli: Cli, out: &mut dyn Write, err: &mut dyn Write) -> Result<ExitCode> {
    match cli.command {
        // Completions need no context: a broken az config must not stop a shell setup.
        Command::Completions(args) => completions::run(&args, out),
        Command::Diagnose(args) => {
            let ctx = resolve_context(&cli.global, err)?;
            diagnose::run(&ctx, &args, out, err)
        }
        Command::Logs(args) => {
            let ctx = resolve_context(&cli.global, err)?;
            logs::run(&ctx, &args, out, err)
        }
        Command::Check(args) => {
            let ctx = resolve_context(&cli.global, err)?;
            check::run(&ctx, &args, out, err)
        }
        Command::Explain(args) => {
            let ctx = resolve_context(&cli.global, err)?;
            explain::run(&ctx, &args, out)
        }
        Command::Rules(args) => {
            let ctx = resolve_context(&cli.global, err)?;
            rules::run(&ctx, &args, out)
        }
        Command::Replicas(args) => {
            let ctx = resolve_context(&cli.global, err)?;
            replicas::run(&ctx, &args, out, err)
        }
    }
}

fn resolve_context(global: &crate::cli::GlobalArgs, err: &mut dyn Write) -> Result<Context> {
    let env = source::local::environment();
    let (az_config, az_profile) = source::az_cli::load(&env)?;
    let project = source::local::find_project_file(&source::local::current_dir()?)?;
    let files = ContextFiles {
        az_config,
        az_profile,
        project,
    };
    let ctx = Context::resolve(&global.flags(), &env, &files)?;
    if ctx.debug {
        for line in ctx.describe() {
            // Debug traces are best effort: a closed stderr must not fail the command.
            let _ = writeln!(err, "debug: {line}");
        }
    }
    Ok(ctx)
}
