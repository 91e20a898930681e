//! One file per subcommand; each turns a resolved [`Context`] and its own arguments
//! into output and an [`ExitCode`]. Orchestration only: the work lives in the modules
//! they call.

pub(crate) mod azure;
pub(crate) mod check;
mod check_sources;
pub mod completions;
pub(crate) mod diagnose;
pub(crate) mod explain;
pub(crate) mod fleet;
pub(crate) mod gate_config;
pub(crate) mod lint;
pub(crate) mod logs;
mod mcp;
pub(crate) mod pipeline;

pub mod printed;
pub(crate) mod rehearse;
mod rehearse_parallel;
pub(crate) mod replicas;
pub mod rules;
pub(crate) mod score;
pub mod support;

use std::io::Write;

use crate::cli::{Cli, Command};
use crate::context::{Context, ContextFiles};
use crate::error::Result;
use crate::exit_code::ExitCode;
use crate::report::OutputFormat;
use crate::source;

/// Runs the parsed command line, writing the report to `out` and notes to `err`.
pub fn run(cli: Cli, out: &mut dyn Write, err: &mut dyn Write) -> Result<ExitCode> {
    run_with(cli, None, out, err)
}

/// [`run`], with `stdin` (when given) read wherever the command line says `-`: how
/// the MCP server hands a tool's pasted text to the command that analyses it.
fn run_with(
    cli: Cli,
    stdin: Option<std::sync::Arc<[u8]>>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitCode> {
    let resolve_context = |global: &crate::cli::GlobalArgs, live: bool, err: &mut dyn Write| {
        resolve_context(global, live, err).map(|mut ctx| {
            ctx.stdin.clone_from(&stdin);
            ctx
        })
    };
    let fleet = matches!(&cli.command, Command::Check(a) if a.fleet);
    if cli.global.azure.subscription.len() > 1 && !fleet {
        return Err(crate::error::Error::input(format!(
            "--subscription was given {} times; only 'check --fleet' reads several subscriptions",
            cli.global.azure.subscription.len()
        )));
    }
    match cli.command {
        // Completions need no context: a broken az config must not stop a shell setup.
        Command::Completions(args) => completions::run(&args, out),
        Command::Mcp(args) => {
            let ctx = resolve_context(&cli.global, args.allow_azure, err)?;
            mcp::run(&ctx, &cli.global, &args, err)
        }
        Command::Diagnose(args) => {
            let live =
                args.endpoint.is_some() || args.run.is_some() || args.log_analytics.is_some();
            let ctx = resolve_context(&cli.global, live, err)?;
            diagnose::run(&ctx, &args, out, err)
        }
        Command::Logs(args) => {
            let mut ctx = resolve_context(&cli.global, true, err)?;
            ctx.fit_output(PLAIN);
            logs::run(&ctx, &args, out, err)
        }
        Command::Lint(args) => {
            let ctx = resolve_context(&cli.global, false, err)?;
            lint::run(&ctx, &args, out, err)
        }
        Command::Check(args) => {
            let ctx = resolve_context(&cli.global, args.from.is_empty(), err)?;
            check::run(&ctx, &args, out, err)
        }
        Command::Explain(args) => {
            let mut ctx = resolve_context(&cli.global, false, err)?;
            ctx.fit_output(&[PLAIN, &[OutputFormat::Markdown]].concat());
            explain::run(&ctx, &args, out)
        }
        Command::Rules(args) => {
            let mut ctx = resolve_context(&cli.global, false, err)?;
            ctx.fit_output(PLAIN);
            rules::run(&ctx, &args, out)
        }
        Command::Score(args) => {
            let ctx = resolve_context(&cli.global, args.from.is_empty(), err)?;
            score::run(&ctx, &args, out, err)
        }
        Command::Rehearse(args) => {
            let ctx = resolve_context(&cli.global, false, err)?;
            match &args.mode {
                crate::cli::RehearseMode::Online(a) => rehearse::online(&ctx, a, out, err),
                crate::cli::RehearseMode::Parallel(a) => rehearse_parallel::run(&ctx, a, out, err),
            }
        }
        Command::Replicas(args) => {
            let mut ctx = resolve_context(&cli.global, args.endpoint.is_some(), err)?;
            ctx.fit_output(PLAIN);
            replicas::run(&ctx, &args, out, err)
        }
    }
}

/// The formats of the commands that report no findings.
const PLAIN: &[OutputFormat] = &[OutputFormat::Table, OutputFormat::Json, OutputFormat::Yaml];

/// The resolved context. A broken az CLI file stops only a command that calls Azure
/// (`needs_azure`); for offline work it is a warning, and its defaults are not used.
fn resolve_context(
    global: &crate::cli::GlobalArgs,
    needs_azure: bool,
    err: &mut dyn Write,
) -> Result<Context> {
    let env = source::local::environment();
    let project = source::local::find_project_file(&source::local::current_dir()?)?;
    let az = source::az_cli::load(&env);
    let (az_config, az_profile) = match az {
        Ok(files) => files,
        Err(e) if !needs_azure => {
            support::warning(err, &format!("{e}; its defaults are not used"));
            (None, None)
        }
        Err(e) => return Err(e),
    };
    let files = ContextFiles {
        az_config,
        az_profile,
        project,
    };
    let ctx = match Context::resolve(&global.flags(), &env, &files) {
        Ok(ctx) => ctx,
        // The az files parse but hold something amldoctor cannot use.
        Err(e) if !needs_azure && (files.az_config.is_some() || files.az_profile.is_some()) => {
            let offline = ContextFiles {
                az_config: None,
                az_profile: None,
                project: files.project,
            };
            let ctx = Context::resolve(&global.flags(), &env, &offline)?;
            support::warning(err, &format!("{e}; the az CLI defaults are not used"));
            ctx
        }
        Err(e) => return Err(e),
    };
    if ctx.debug {
        for line in ctx.describe() {
            // Debug traces are best effort: a closed stderr must not fail the command.
            support::debug(err, &line);
        }
    }
    Ok(ctx)
}
