//! The MCP server: lists the tools, resources and prompt, and answers a tool call by
//! running the command it stands for on a thread of its own (a slow call never holds
//! up the others, and a cancelled one is answered no further). A bad argument, a
//! refused path or a failed command is a tool error with one sentence; the server
//! keeps serving.

use std::fmt::Write as _;
use std::sync::Arc;

use rmcp::ErrorData as McpError;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, GetPromptRequestParams,
    GetPromptResponse, Implementation, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, ListToolsResult, PaginatedRequestParams, ReadResourceRequestParams,
    ReadResourceResponse, ReadResourceResult, ResourceContents, ServerCapabilities, ServerConfig,
    Tool, ToolAnnotations,
};
use rmcp::service::{RequestContext, RoleServer};
use serde_json::Value;

use super::bound;
use super::catalog::{Catalog, Read};
use super::tools::{self, Invocation, ToolEnv, ToolSpec};

/// The handler rmcp drives.
#[derive(Debug, Clone)]
pub(super) struct Server {
    shared: Arc<Shared>,
}

#[derive(Debug)]
struct Shared {
    env: ToolEnv,
    allow_azure: bool,
    catalog: Catalog,
    report_schema: Arc<serde_json::Map<String, Value>>,
}

impl Server {
    pub(super) fn new(env: ToolEnv, allow_azure: bool, catalog: Catalog) -> Server {
        let report_schema =
            serde_json::from_str(&crate::report::schema::findings_report()).unwrap_or_default();
        Server {
            shared: Arc::new(Shared {
                env,
                allow_azure,
                catalog,
                report_schema: Arc::new(report_schema),
            }),
        }
    }

    fn tool(&self, spec: &ToolSpec) -> Tool {
        let mut tool = Tool::new(spec.name, spec.description, spec.schema().clone());
        tool.title = Some(spec.title.to_owned());
        if spec.report {
            tool.output_schema = Some(self.shared.report_schema.clone());
        }
        tool.annotations = Some(ToolAnnotations::from_raw(
            Some(spec.title.to_owned()),
            Some(true),
            Some(false),
            Some(true),
            Some(spec.azure),
        ));
        tool
    }

    fn instructions(&self) -> String {
        let mut text = String::from(
            "amldoctor diagnoses Azure Machine Learning failures (online endpoint deployments, \
             batch and ParallelRunStep jobs, image and environment builds) from its tested \
             catalogue of error signatures, and prints the cause and the exact next command. \
             Call diagnose_text with any log or error the user pastes, diagnose_paths for log \
             files or folders, explain for an error code or HTTP status, check_resources for \
             resource JSON, lint_paths before a deployment, and quote the findings' fixes and \
             commands instead of guessing. It only reads: it never changes a file or an Azure \
             resource.",
        );
        let _ = write!(
            text,
            " Files are read only under: {}.",
            self.shared.env.roots.names().join(", ")
        );
        if self.shared.allow_azure {
            text.push_str(
                " diagnose_deployment, check_workspace and get_logs read Azure with the \
                 sign-in and defaults of the az CLI.",
            );
        }
        text
    }

    async fn call(
        &self,
        params: CallToolRequestParams,
        cancelled: impl std::future::Future<Output = ()>,
    ) -> Result<CallToolResult, McpError> {
        let Some(spec) = tools::find(&params.name, self.shared.allow_azure) else {
            return Err(McpError::invalid_params(
                format!("there is no amldoctor tool named '{}'", params.name),
                None,
            ));
        };
        let invocation =
            match tools::invocation(spec, params.arguments.unwrap_or_default(), &self.shared.env) {
                Ok(i) => i,
                Err(sentence) => return Ok(tool_error(&sentence)),
            };
        let (tx, rx) = tokio::sync::oneshot::channel();
        let spawned = std::thread::Builder::new()
            .name(format!("mcp-{}", spec.name))
            .spawn(move || {
                let _ = tx.send(execute(invocation));
            });
        if spawned.is_err() {
            return Ok(tool_error("no thread could be started for the call"));
        }
        tokio::select! {
            outcome = rx => Ok(match outcome {
                Ok(outcome) => result(outcome),
                Err(_) => tool_error("the call stopped with an internal error; please report it"),
            }),
            () = cancelled => Err(McpError::internal_error("the call was cancelled", None)),
        }
    }
}

/// What a command printed and how it ended.
struct Outcome {
    out: Vec<u8>,
    err: Vec<u8>,
    ended: Result<crate::exit_code::ExitCode, String>,
}

/// Runs the command line of a call, as the binary would.
fn execute(invocation: Invocation) -> Outcome {
    use clap::Parser;
    let mut out = Vec::new();
    let mut err = Vec::new();
    let ended = match crate::cli::Cli::try_parse_from(&invocation.argv) {
        Err(e) => Err(clap_sentence(&e)),
        Ok(cli) => {
            let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                super::super::run_with(cli, invocation.stdin, &mut out, &mut err)
            }));
            match run {
                Ok(Ok(code)) => Ok(code),
                Ok(Err(e)) => Err(match &e.hint {
                    Some(h) => format!("{e} (hint: {h})"),
                    None => e.to_string(),
                }),
                Err(_) => Err("internal error; please report it".to_owned()),
            }
        }
    };
    Outcome { out, err, ended }
}

/// clap's message without its usage block: the first line, and the values it lists.
fn clap_sentence(e: &clap::Error) -> String {
    let text = e.to_string();
    let mut lines = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("Usage:") && !l.starts_with("For more"));
    let first = lines
        .next()
        .unwrap_or("bad argument")
        .trim_start_matches("error: ")
        .to_owned();
    let values: Vec<&str> = lines.filter(|l| l.starts_with('[')).collect();
    [first, values.join(" ")].join(" ").trim().to_owned()
}

fn tool_error(sentence: &str) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(sentence.to_owned())])
}

/// The tool result: the JSON the command printed (bounded) with a summary before it.
fn result(outcome: Outcome) -> CallToolResult {
    let notes = String::from_utf8_lossy(&outcome.err).trim().to_owned();
    if let Err(sentence) = outcome.ended {
        let mut text = sentence;
        if !notes.is_empty() {
            text.push('\n');
            text.push_str(&notes);
        }
        return tool_error(&text);
    }
    let printed = String::from_utf8_lossy(&outcome.out);
    let Ok(mut value) = serde_json::from_str::<Value>(&printed) else {
        // A command that printed text rather than JSON: its end is what matters.
        let mut r = CallToolResult::success(vec![ContentBlock::text(bound::tail(&printed))]);
        if !notes.is_empty() {
            r.content.push(ContentBlock::text(notes));
        }
        return r;
    };
    bound::bound(&mut value);
    let mut summary = bound::summary(&value);
    if !notes.is_empty() {
        summary.push('\n');
        summary.push_str(&notes);
    }
    let json = serde_json::to_string(&value).unwrap_or_default();
    let mut r =
        CallToolResult::success(vec![ContentBlock::text(summary), ContentBlock::text(json)]);
    // MCP's structured content is an object; every command's JSON is one.
    if value.is_object() {
        r.structured_content = Some(value);
    }
    r
}

impl rmcp::ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .enable_prompts()
                .build(),
        )
        .with_server_info(Implementation::new("amldoctor", env!("CARGO_PKG_VERSION")))
        .with_instructions(self.instructions())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        let tools = tools::TOOLS
            .iter()
            .filter(|t| self.shared.allow_azure || !t.azure)
            .map(|t| self.tool(t))
            .collect();
        Ok(ListToolsResult::with_all_items(tools))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        tools::find(name, self.shared.allow_azure).map(|t| self.tool(t))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        self.call(request, context.ct.cancelled_owned())
            .await
            .map(Into::into)
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        Ok(ListResourcesResult::with_all_items(
            self.shared.catalog.resources(),
        ))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, McpError> {
        Ok(ListResourceTemplatesResult::with_all_items(
            Catalog::templates(),
        ))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        let read = self
            .shared
            .catalog
            .read(&request.uri)
            .map_err(|sentence| McpError::resource_not_found(sentence, None))?;
        let (uri, markdown) = match read {
            Read::Text { uri, markdown } => (uri, markdown),
            Read::Explain { uri, code } => {
                let argv = ["amldoctor", "-o", "markdown", "explain", "--", &code]
                    .map(str::to_owned)
                    .to_vec();
                let invocation = Invocation { argv, stdin: None };
                // The command runs off the protocol's thread, as a tool call does.
                let outcome = tokio::task::spawn_blocking(move || execute(invocation))
                    .await
                    .map_err(|_| McpError::internal_error("the read stopped", None))?;
                match outcome.ended {
                    Ok(_) => (uri, String::from_utf8_lossy(&outcome.out).into_owned()),
                    Err(sentence) => return Err(McpError::resource_not_found(sentence, None)),
                }
            }
        };
        Ok(ReadResourceResult::new(vec![
            ResourceContents::text(markdown, uri).with_mime_type("text/markdown"),
        ])
        .into())
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, McpError> {
        Ok(ListPromptsResult::with_all_items(vec![
            super::catalog::triage_prompt(),
        ]))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, McpError> {
        super::catalog::triage(&request, self.shared.allow_azure)
            .map(Into::into)
            .map_err(|sentence| McpError::invalid_params(sentence, None))
    }
}
