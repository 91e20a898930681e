//! `amldoctor mcp`: the diagnosis served over the Model Context Protocol on stdio, on
//! the official Rust SDK (rmcp), so an agent asks amldoctor instead of guessing from a
//! log. Each tool is a command line run in-process (`tools.rs`), its JSON result cut
//! to a size an agent can read (`bound.rs`); the rule catalogue and explain entries
//! are resources, with one triage prompt (`catalog.rs`); `server.rs` answers the
//! protocol. Nothing is analysed here.

mod bound;
mod catalog;
mod server;
mod tools;

use std::io::Write;

use crate::cli::{GlobalArgs, McpArgs};
use crate::context::Context;
use crate::error::{Error, Result};
use crate::exit_code::ExitCode;
use crate::source::roots::Roots;

/// Serves until the client closes standard input.
pub(crate) fn run(
    ctx: &Context,
    global: &GlobalArgs,
    args: &McpArgs,
    err: &mut dyn Write,
) -> Result<ExitCode> {
    let roots = Roots::new(&args.roots).map_err(Error::input)?;
    let set = super::support::load_rules(ctx, &[])?;
    let known = crate::analyse::placeholders::of_context(ctx);
    let env = tools::ToolEnv {
        roots,
        azure_flags: azure_flags(global),
    };
    let server = server::Server::new(env, args.allow_azure, catalog::Catalog::new(set, known));
    let roots_named = if args.roots.is_empty() {
        "the working directory".to_owned()
    } else {
        let named: Vec<String> = args.roots.iter().map(|r| r.display().to_string()).collect();
        named.join(", ")
    };
    let azure = if args.allow_azure {
        "; the Azure tools read Azure"
    } else {
        ""
    };
    super::support::note(
        err,
        &format!(
            "amldoctor mcp {} serving on stdio; files under {roots_named}{azure}",
            env!("CARGO_PKG_VERSION")
        ),
    );
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| Error::input(format!("cannot start the MCP server: {e}")))?;
    runtime.block_on(async move {
        use rmcp::ServiceExt;
        let service = server
            .serve(rmcp::transport::stdio())
            .await
            .map_err(|e| Error::input(format!("the MCP client did not initialise: {e}")))?;
        service
            .waiting()
            .await
            .map_err(|e| Error::input(format!("the MCP session ended with an error: {e}")))?;
        Ok::<(), Error>(())
    })?;
    Ok(ExitCode::Clean)
}

/// The server's own Azure flags, passed on to every Azure tool as its defaults.
fn azure_flags(global: &GlobalArgs) -> Vec<String> {
    let a = &global.azure;
    let mut flags = Vec::new();
    for s in &a.subscription {
        flags.extend(["--subscription".to_owned(), s.clone()]);
    }
    let pairs = [
        ("-g", a.resource_group.as_ref()),
        ("-w", a.workspace_name.as_ref()),
        ("--cloud", a.cloud.as_ref()),
        ("--tenant", a.tenant.as_ref()),
    ];
    for (flag, value) in pairs {
        if let Some(v) = value {
            flags.extend([flag.to_owned(), v.clone()]);
        }
    }
    if let Some(auth) = a.auth {
        use clap::ValueEnum;
        if let Some(v) = auth.to_possible_value() {
            flags.extend(["--auth".to_owned(), v.get_name().to_owned()]);
        }
    }
    flags
}
