//! `amldoctor mcp` driven as an agent's client drives it: the MCP SDK's own client
//! (rmcp, with its child-process transport) starts the real binary on stdio,
//! initialises, lists the tools (snapshotted with their schemas), calls every tool on
//! fixtures and compares each result with what the CLI prints with `-o json` for the
//! same input, and checks the refusals, the bounds, a cancelled call and the Azure
//! tools against the local fake. The server must keep serving after every error.

use std::time::Duration;

use rmcp::ServiceExt;
use rmcp::model::{
    CallToolRequestParams, CallToolResult, GetPromptRequestParams, ReadResourceRequestParams,
};
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::TokioChildProcess;
use serde_json::{Map, Value, json};

use crate::fake_azure::{Answer, FakeAzure, SUB, TOKEN};
use crate::{Sandbox, fixture};

pub(crate) type Client = RunningService<RoleClient, ()>;

pub(crate) fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

/// The server started in the sandbox's working directory with `args`, and a client
/// that has initialised with it.
pub(crate) async fn connect(sb: &Sandbox, args: &[&str]) -> Client {
    let mut full = vec!["mcp"];
    full.extend_from_slice(args);
    let cmd = tokio::process::Command::from(sb.command(&full));
    let transport = TokioChildProcess::builder(cmd)
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap()
        .0;
    ().serve(transport).await.unwrap()
}

pub(crate) async fn call(client: &Client, tool: &str, arguments: Value) -> CallToolResult {
    let Value::Object(arguments) = arguments else {
        panic!("arguments must be an object")
    };
    client
        .call_tool(CallToolRequestParams::new(tool.to_owned()).with_arguments(arguments))
        .await
        .unwrap_or_else(|e| panic!("{tool}: {e}"))
}

pub(crate) fn text(result: &CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect::<Vec<_>>()
        .join("\n")
}

pub(crate) fn structured(result: &CallToolResult) -> Value {
    assert_ne!(result.is_error, Some(true), "{}", text(result));
    result
        .structured_content
        .clone()
        .expect("structured content")
}

/// What the CLI prints with `-o json` for the same input; `stdin` is piped in.
fn cli_json(sb: &Sandbox, args: &[&str], stdin: Option<&str>) -> Value {
    use std::io::Write;
    let mut full = vec!["-o", "json"];
    full.extend_from_slice(args);
    let mut cmd = sb.command(&full);
    cmd.stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    let mut input = child.stdin.take().unwrap();
    input.write_all(stdin.unwrap_or("").as_bytes()).unwrap();
    drop(input);
    let out = child.wait_with_output().unwrap();
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: {e}\n{}", String::from_utf8_lossy(&out.stdout)))
}

/// A report as the CLI would print it for the same input: `<text>` is what the MCP paste
/// is called where the CLI says `<stdin>`.
fn comparable(v: Value) -> Value {
    let text = v.to_string().replace("<text>", "<stdin>");
    serde_json::from_str(&text).unwrap()
}

fn sandbox(name: &str) -> Sandbox {
    let sb = Sandbox::new(name);
    let logs = sb.work().join("logs");
    std::fs::create_dir_all(&logs).unwrap();
    for f in ["cli-image-build-failure.txt", "cli-out-of-quota.txt"] {
        std::fs::copy(fixture(&format!("logs/{f}")), logs.join(f)).unwrap();
    }
    copy_dir(
        &std::path::PathBuf::from(fixture("prs/failed-job")),
        &sb.work().join("prs"),
    );
    copy_dir(
        &std::path::PathBuf::from(fixture("lint/bad")),
        &sb.work().join("lint"),
    );
    sb
}

fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

#[test]
fn an_agent_lists_the_tools_and_every_tool_answers_as_the_cli_does() {
    let sb = sandbox("mcp-tools");
    runtime().block_on(async {
        let client = connect(&sb, &[]).await;
        let info = client.peer_info().expect("server info");
        assert_eq!(
            info.server_info.as_ref().map(|i| i.name.as_str()),
            Some("amldoctor")
        );
        assert!(
            info.instructions
                .as_deref()
                .unwrap_or("")
                .contains("only reads"),
            "{info:?}"
        );
        let tools = client.list_all_tools().await.unwrap();
        let listed: Vec<Value> = tools
            .iter()
            .map(|t| {
                json!({
                    "name": t.name,
                    "description": t.description,
                    "inputSchema": t.input_schema.as_ref(),
                    "hasOutputSchema": t.output_schema.is_some(),
                    "readOnly": t.annotations.as_ref().and_then(|a| a.read_only_hint),
                })
            })
            .collect();
        crate::assert_snapshot(
            "mcp",
            "tools.json",
            &serde_json::to_string_pretty(&listed).unwrap(),
        );
        let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
        assert!(!names.contains(&"diagnose_deployment"), "{names:?}");

        let paste = std::fs::read_to_string(fixture("logs/cli-image-build-failure.txt")).unwrap();
        let r = call(&client, "diagnose_text", json!({ "text": paste })).await;
        let got = structured(&r);
        assert_eq!(
            comparable(got.clone()),
            comparable(cli_json(&sb, &["diagnose", "-"], Some(&paste)))
        );
        assert!(text(&r).contains("image-build-failure"), "{}", text(&r));

        let r = call(
            &client,
            "diagnose_paths",
            json!({ "paths": ["logs", "prs"] }),
        )
        .await;
        assert_eq!(
            comparable(structured(&r)),
            comparable(cli_json(&sb, &["diagnose", "logs", "prs"], None))
        );

        let r = call(&client, "lint_paths", json!({ "paths": ["lint"] })).await;
        assert_eq!(
            comparable(structured(&r)),
            comparable(cli_json(&sb, &["lint", "lint"], None))
        );

        let resource =
            std::fs::read_to_string(fixture("resources/deployment-arm-failed.json")).unwrap();
        let r = call(
            &client,
            "check_resources",
            json!({ "text": resource, "area": "deployment" }),
        )
        .await;
        assert_eq!(
            comparable(structured(&r)),
            comparable(cli_json(
                &sb,
                &["check", "deployment", "--from", "-"],
                Some(&resource)
            ))
        );

        for (tool, args, cli) in [
            (
                "explain",
                json!({ "subject": "ImageBuildFailure" }),
                vec!["explain", "ImageBuildFailure"],
            ),
            (
                "explain",
                json!({ "subject": "424" }),
                vec!["explain", "424"],
            ),
            (
                "replicas",
                json!({ "rps": 20, "latency": "250ms", "max_concurrent": 4 }),
                vec![
                    "replicas",
                    "--rps",
                    "20",
                    "--latency",
                    "250ms",
                    "--max-concurrent",
                    "4",
                ],
            ),
            (
                "rules_search",
                json!({ "text": "quota" }),
                vec!["rules", "list", "--search", "quota"],
            ),
            (
                "rules_search",
                json!({ "family": "http" }),
                vec!["rules", "list", "--family", "http"],
            ),
            (
                "rules_search",
                json!({ "id": "user-init-failed" }),
                vec!["rules", "show", "user-init-failed"],
            ),
        ] {
            let r = call(&client, tool, args.clone()).await;
            assert_eq!(
                comparable(structured(&r)),
                comparable(cli_json(&sb, &cli, None)),
                "{tool} {args}"
            );
        }
        let quota = structured(&call(&client, "rules_search", json!({ "text": "quota" })).await);
        let ids: Vec<&str> = quota["rules"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|r| r["id"].as_str())
            .collect();
        assert!(ids.contains(&"out-of-quota"), "{ids:?}");
        assert!(!ids.contains(&"user-init-failed"), "{ids:?}");
        client.cancel().await.unwrap();
    });
}

#[test]
fn resources_and_the_triage_prompt_are_served() {
    let sb = Sandbox::new("mcp-resources");
    runtime().block_on(async {
        let client = connect(&sb, &[]).await;
        let resources = client.list_all_resources().await.unwrap();
        let uris: Vec<&str> = resources.iter().map(|r| r.uri.as_str()).collect();
        assert!(
            uris.contains(&"amldoctor://rules/user-init-failed"),
            "{uris:?}"
        );
        assert!(
            uris.contains(&"amldoctor://explain/ImageBuildFailure"),
            "{uris:?}"
        );
        let templates = client.list_all_resource_templates().await.unwrap();
        assert_eq!(templates.len(), 2);

        let read = |uri: &str| ReadResourceRequestParams::new(uri.to_owned());
        let rule = client
            .read_resource(read("amldoctor://rules/user-init-failed"))
            .await
            .unwrap();
        let body = serde_json::to_string(&rule).unwrap();
        assert!(body.contains("# user-init-failed"), "{body}");
        let explained = client
            .read_resource(read("amldoctor://explain/424"))
            .await
            .unwrap();
        let body = serde_json::to_string(&explained).unwrap();
        assert!(body.contains("424"), "{body}");
        let missing = client
            .read_resource(read("amldoctor://rules/no-such-rule"))
            .await;
        assert!(
            format!("{missing:?}").contains("no rule 'no-such-rule'"),
            "{missing:?}"
        );

        let prompts = client.list_all_prompts().await.unwrap();
        assert_eq!(prompts.len(), 1);
        let mut args = Map::new();
        args.insert("endpoint".into(), json!("churn-ep"));
        let prompt = client
            .get_prompt(GetPromptRequestParams::new(prompts[0].name.clone()).with_arguments(args))
            .await
            .unwrap();
        let body = serde_json::to_string(&prompt).unwrap();
        assert!(
            body.contains("churn-ep") && body.contains("diagnose_text"),
            "{body}"
        );
        client.cancel().await.unwrap();
    });
}

#[test]
fn bad_arguments_and_paths_outside_the_root_are_tool_errors_and_the_server_goes_on() {
    let sb = sandbox("mcp-refusals");
    let outside = Sandbox::new("mcp-outside");
    let secret = outside.write("work/secret.log", "ERROR something\n");
    std::os::unix::fs::symlink(&secret, sb.work().join("logs/linked.log")).unwrap();
    std::os::unix::fs::symlink(outside.work(), sb.work().join("elsewhere")).unwrap();
    runtime().block_on(async {
        let client = connect(&sb, &[]).await;
        for (tool, args, says) in [
            (
                "diagnose_paths",
                json!({ "paths": [secret.display().to_string()] }),
                "is outside the folders this server may read",
            ),
            (
                "diagnose_paths",
                json!({ "paths": ["../../.."] }),
                "is outside the folders",
            ),
            (
                "diagnose_paths",
                json!({ "paths": ["elsewhere"] }),
                "is outside the folders",
            ),
            (
                "diagnose_paths",
                json!({ "paths": ["logs"] }),
                "linked.log is outside the folders",
            ),
            (
                "diagnose_paths",
                json!({ "paths": ["no-such-file.log"] }),
                "cannot read no-such-file.log: no such file",
            ),
            ("diagnose_paths", json!({ "paths": [] }), "paths is empty"),
            (
                "diagnose_text",
                json!({ "txt": "x" }),
                "diagnose_text has no argument 'txt'; it takes",
            ),
            (
                "diagnose_text",
                json!({ "text": "x", "kind": "pods" }),
                "invalid value 'pods' for '--kind",
            ),
            ("diagnose_text", json!({ "text": 7 }), "invalid type"),
            ("replicas", json!({ "rps": -3 }), "--rps"),
            (
                "check_resources",
                json!({ "text": "{}", "area": "--output-file=written.json" }),
                "area '--output-file=written.json' is not one of all, workspace",
            ),
            (
                "diagnose_text",
                json!({ "text": "x", "kind": "--output-file=written.json" }),
                "invalid value '--output-file=written.json' for '--kind",
            ),
            (
                "explain",
                json!({ "subject": "NoSuchCodeAnywhere" }),
                "NoSuchCodeAnywhere",
            ),
            (
                "rules_search",
                json!({ "id": "no-such-rule" }),
                "no-such-rule",
            ),
            (
                "rules_search",
                json!({ "family": "nosuch" }),
                "--family nosuch: no rule is of that family; the families are build,",
            ),
        ] {
            let r = call(&client, tool, args.clone()).await;
            assert_eq!(r.is_error, Some(true), "{tool} {args}: {}", text(&r));
            assert!(text(&r).contains(says), "{tool} {args}: {}", text(&r));
            assert!(!text(&r).contains("Usage:"), "{}", text(&r));
        }
        // No tool by that name is a protocol error; and no Azure tool without --allow-azure.
        for name in ["no_such_tool", "get_logs"] {
            let r = client
                .call_tool(CallToolRequestParams::new(name.to_owned()).with_arguments(Map::new()))
                .await;
            assert!(r.is_err(), "{name}: {r:?}");
        }
        assert!(
            !sb.work().join("written.json").exists(),
            "a tool wrote a file"
        );
        // Still serving.
        let r = call(&client, "explain", json!({ "subject": "OutOfQuota" })).await;
        assert_ne!(r.is_error, Some(true), "{}", text(&r));
        client.cancel().await.unwrap();
    });
}

#[test]
fn a_huge_paste_gets_a_bounded_answer_that_says_what_was_left_out() {
    let sb = Sandbox::new("mcp-huge");
    // Every rule's own example (far more findings than an answer keeps), in a busy
    // log of several megabytes.
    let docs = std::fs::read_to_string(fixture("../../docs/rules.md")).unwrap();
    let mut paste = String::new();
    for block in docs.split("**Example that matches**").skip(1) {
        let body = block.split("```").nth(1).unwrap_or_default();
        paste.push_str(body.strip_prefix("text\n").unwrap_or(body));
    }
    let long = format!("INFO {} done\n", "x".repeat(5_000));
    while paste.len() < 6 * 1024 * 1024 {
        paste.push_str("INFO ordinary line of a busy server log\n");
        paste.push_str(&long);
    }
    runtime().block_on(async {
        let client = connect(&sb, &[]).await;
        let r = call(&client, "diagnose_text", json!({ "text": paste })).await;
        let got = structured(&r);
        let size = serde_json::to_vec(&got).unwrap().len();
        assert!(size <= 256 * 1024, "{size} bytes");
        for f in got["findings"].as_array().unwrap() {
            assert!(f["evidence"].as_array().unwrap().len() <= 8, "{f}");
            for e in f["evidence"].as_array().unwrap() {
                assert!(e["text"].as_str().unwrap().chars().count() <= 1_010, "{e}");
            }
        }
        let notices = got["notices"].to_string();
        assert!(notices.contains("amldoctor mcp left out"), "{notices}");
        let ids: Vec<&str> = got["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|f| f["rule_id"].as_str())
            .collect();
        assert_eq!(ids.len(), 40, "{ids:?}");
        assert_eq!(got["findings"][0]["severity"], "error");
        client.cancel().await.unwrap();
    });
}

/// The Azure tools read the local fake as the CLI does; a slow one is cancelled and
/// the server answers the next call at once.
#[test]
fn with_allow_azure_the_live_tools_read_the_fake_and_a_slow_call_can_be_cancelled() {
    let fake = FakeAzure::start(|r, _| {
        if r.target.contains("/onlineEndpoints/slow-ep") {
            return Answer::json(200, "{}").slow(Duration::from_secs(8));
        }
        Answer::json(
            404,
            r#"{"error": {"code": "ResourceNotFound", "message": "The Resource 'Microsoft.MachineLearningServices/workspaces/ws1/onlineEndpoints/nosuch' under resource group 'rg1' was not found."}}"#,
        )
    });
    let sb = fake.sandbox("mcp-azure", "2");
    runtime().block_on(async {
        let client = connect(
            &sb,
            &[
                "--allow-azure",
                "--subscription",
                SUB,
                "-g",
                "rg1",
                "-w",
                "ws1",
            ],
        )
        .await;
        let names: Vec<String> = client
            .list_all_tools()
            .await
            .unwrap()
            .iter()
            .map(|t| t.name.to_string())
            .collect();
        for t in ["diagnose_deployment", "check_workspace", "get_logs"] {
            assert!(names.iter().any(|n| n == t), "{names:?}");
        }
        let r = call(
            &client,
            "get_logs",
            json!({ "endpoint": "nosuch", "deployment": "blue" }),
        )
        .await;
        assert_eq!(r.is_error, Some(true), "{}", text(&r));
        assert!(
            text(&r).contains("HTTP 404 ResourceNotFound"),
            "{}",
            text(&r)
        );
        assert!(!text(&r).contains(TOKEN), "{}", text(&r));

        let slow = tokio::time::timeout(
            Duration::from_secs(1),
            call(
                &client,
                "diagnose_deployment",
                json!({ "endpoint": "slow-ep", "deployment": "blue" }),
            ),
        )
        .await;
        assert!(slow.is_err(), "the slow call answered: {slow:?}");
        let started = std::time::Instant::now();
        let r = call(&client, "explain", json!({ "subject": "ResourceNotReady" })).await;
        assert_ne!(r.is_error, Some(true), "{}", text(&r));
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{:?}",
            started.elapsed()
        );
        client.cancel().await.unwrap();
    });
    let requests = fake.requests.lock().unwrap();
    assert!(
        requests
            .iter()
            .any(|r| r.target.contains("onlineEndpoints/nosuch")),
        "{requests:?}"
    );
    assert!(
        requests.iter().all(|r| r.method == "GET"
            || r.target.contains("getLogs")
            || r.target.contains("token")),
        "only reads: {requests:?}"
    );
}
