//! `amldoctor logs` against the fake Azure on 127.0.0.1: the real azure_identity
//! managed-identity credential signs in there (IDENTITY_ENDPOINT), and ARM answers as
//! scripted, faults included. No request leaves this machine.

use std::time::Duration;

use super::Sandbox;
use super::fake_azure::{Answer, FakeAzure, IDENTITY_HEADER, SUB, TOKEN};

fn sandbox(name: &str, fake: &FakeAzure) -> Sandbox {
    fake.sandbox(name, "3")
}

fn logs(sb: &Sandbox, extra: &[&str]) -> super::Run {
    let mut args = vec![
        "logs",
        "--subscription",
        SUB,
        "-g",
        "rg1",
        "-w",
        "ws1",
        "-e",
        "ep1",
    ];
    args.extend_from_slice(extra);
    sb.run(&args)
}

fn no_secret(run: &super::Run) {
    for text in [&run.stdout, &run.stderr] {
        assert!(!text.contains(TOKEN), "the token leaked:\n{text}");
        assert!(
            !text.contains(IDENTITY_HEADER),
            "the identity header leaked:\n{text}"
        );
    }
}

#[test]
fn prints_the_log_as_az_does() {
    let fake = FakeAzure::start(|_, _| {
        Answer::json(
            200,
            r#"{"content": "2026-11-30 10:00:01 I [7] azmlinfsrv - Starting\\nsig=abcdefSECRETsig123 in a SAS url: https://st.blob.core.windows.net/c/m.pkl?sv=2022&sig=SECRETSAS"}"#,
        )
    });
    let sb = sandbox("logs-ok", &fake);
    let run = logs(&sb, &["-n", "blue", "--debug"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .starts_with("2026-11-30 10:00:01 I [7] azmlinfsrv - Starting\n"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("SECRETSAS"), "{}", run.stdout);
    no_secret(&run);
    let reqs = fake.arm_requests();
    assert_eq!(reqs.len(), 1);
    let r = &reqs[0];
    assert_eq!(r.method, "POST");
    assert_eq!(
        r.target,
        format!(
            "/subscriptions/{SUB}/resourceGroups/rg1/providers/Microsoft.MachineLearningServices/workspaces/ws1/onlineEndpoints/ep1/deployments/blue/getLogs?api-version=2024-10-01"
        )
    );
    let body: serde_json::Value = serde_json::from_str(&r.body).unwrap();
    assert_eq!(
        body,
        serde_json::json!({"containerType": "InferenceServer", "tail": 5000})
    );
    assert_eq!(
        r.header("authorization"),
        Some(format!("Bearer {TOKEN}").as_str())
    );
    assert_eq!(r.header("x-ms-client-request-id").map(str::len), Some(36));
    // --debug traces each request, with no secret in it.
    assert!(
        run.stderr.contains("debug: POST http://127.0.0.1:"),
        "{}",
        run.stderr
    );
}

#[test]
fn picks_the_only_deployment_and_reads_both_containers() {
    let fake = FakeAzure::start(|r, _| {
        if r.method == "GET" {
            Answer::json(200, r#"{"value": [{"name": "green"}]}"#)
        } else if r.body.contains("StorageInitializer") {
            Answer::json(200, r#"{"content": "model download complete"}"#)
        } else {
            Answer::json(200, r#"{"content": "server started"}"#)
        }
    });
    let sb = sandbox("logs-all", &fake);
    let run = logs(&sb, &["--container", "all", "-l", "50"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "===== storage-initializer =====\nmodel download complete\n===== inference-server =====\nserver started\n"
    );
    let reqs = fake.arm_requests();
    assert!(
        reqs[0]
            .target
            .ends_with("/onlineEndpoints/ep1/deployments?api-version=2024-10-01")
    );
    assert!(reqs[1].target.contains("/deployments/green/getLogs"));
    assert!(reqs[1].body.contains("\"tail\":50"));
}

#[test]
fn several_deployments_need_a_name() {
    let fake = FakeAzure::start(|_, _| {
        Answer::json(200, r#"{"value": [{"name": "blue"}, {"name": "green"}]}"#)
    });
    let sb = sandbox("logs-many", &fake);
    logs(&sb, &[]).usage_error(&["endpoint 'ep1' has 2 deployments (blue, green)", "-n"]);
}

#[test]
fn arm_errors_become_one_sentence_with_the_request_id() {
    let fake = FakeAzure::start(|_, _| {
        Answer::json(
            404,
            r#"{"error":{"code":"ResourceNotFound","message":"The Resource 'Microsoft.MachineLearningServices/workspaces/ws1/onlineEndpoints/ep1' under resource group 'rg1' was not found."}}"#,
        )
    });
    let sb = sandbox("logs-404", &fake);
    let run = logs(&sb, &["-n", "blue"]);
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert_eq!(run.stdout, "");
    assert!(
        run.stderr
            .contains("was not found. (HTTP 404 ResourceNotFound, request id fake-request-0001)"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains("hint: list the endpoints with 'az ml online-endpoint list -g rg1 -w ws1 -o table' and the deployments of 'ep1' with 'az ml online-deployment list -e ep1 -g rg1 -w ws1 -o table'"),
        "{}",
        run.stderr
    );
    no_secret(&run);

    let fake = FakeAzure::start(|_, _| {
        Answer::json(
            403,
            r#"{"error":{"code":"AuthorizationFailed","message":"The client does not have authorization to perform action."}}"#,
        )
    });
    let sb = sandbox("logs-403", &fake);
    let run = logs(&sb, &["-n", "blue"]);
    assert_eq!(run.code, 3);
    assert!(
        run.stderr.contains("HTTP 403 AuthorizationFailed")
            && run.stderr.contains("Reader or AzureML Data Scientist"),
        "{}",
        run.stderr
    );
}

#[test]
fn throttling_and_server_errors_are_retried_within_the_budget() {
    // 429 with Retry-After, then 500, then the answer.
    let fake = FakeAzure::start(|_, before| match before {
        0 => Answer::json(
            429,
            r#"{"error":{"code":"TooManyRequests","message":"slow down"}}"#,
        )
        .with_header("retry-after", "1"),
        1 => Answer::json(
            500,
            r#"{"error":{"code":"InternalServerError","message":"oops"}}"#,
        ),
        _ => Answer::json(200, r#"{"content": "finally"}"#),
    });
    let sb = sandbox("logs-retry", &fake).env("AMLDOCTOR_RETRY_BUDGET", "10");
    let run = logs(&sb, &["-n", "blue"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "finally\n");
    assert_eq!(fake.arm_requests().len(), 3);
    // Throttled past the budget: exit 3, saying so.
    let fake = FakeAzure::start(|_, _| {
        Answer::json(
            429,
            r#"{"error":{"code":"TooManyRequests","message":"slow down"}}"#,
        )
        .with_header("retry-after", "2")
    });
    let sb = sandbox("logs-throttled", &fake).env("AMLDOCTOR_RETRY_BUDGET", "3");
    let run = logs(&sb, &["-n", "blue"]);
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert!(run.stderr.contains("kept answering 429"), "{}", run.stderr);
    assert!(fake.arm_requests().len() >= 2);
}

#[test]
fn a_slow_answer_times_out() {
    let fake = FakeAzure::start(|_, _| {
        Answer::json(200, r#"{"content": "late"}"#).slow(Duration::from_secs(4))
    });
    let sb = sandbox("logs-slow", &fake)
        .env("AMLDOCTOR_HTTP_TIMEOUT", "1")
        .env("AMLDOCTOR_RETRY_BUDGET", "1");
    let run = logs(&sb, &["-n", "blue"]);
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert!(run.stderr.contains("timed out"), "{}", run.stderr);
}

#[test]
fn names_and_endpoints_are_checked_before_any_call() {
    let fake = FakeAzure::start(|_, _| Answer::json(200, r#"{"content": ""}"#));
    let sb = sandbox("logs-names", &fake);
    // A bad endpoint name: clap's own error, exit 2.
    let run = sb.run(&[
        "logs",
        "-e",
        "x_y",
        "--subscription",
        SUB,
        "-g",
        "rg1",
        "-w",
        "ws1",
    ]);
    assert_eq!(run.code, 2);
    // No workspace.
    sb.run(&["logs", "--subscription", SUB, "-g", "rg1", "-e", "ep1"])
        .usage_error(&["logs needs the workspace", "-w/--workspace-name"]);
    // A subscription name where ARM needs the id.
    sb.run(&[
        "logs",
        "--subscription",
        "My Sub",
        "-g",
        "rg1",
        "-w",
        "ws1",
        "-e",
        "ep1",
    ])
    .usage_error(&["is a name; pass the subscription id"]);
    // Plain http to another host is refused: no token leaves for it.
    let remote = Sandbox::new("logs-remote")
        .env("IDENTITY_ENDPOINT", &format!("{}/msi/token", fake.url()))
        .env("IDENTITY_HEADER", IDENTITY_HEADER)
        .env("AMLDOCTOR_ARM_ENDPOINT", "http://management.example.test");
    let run = logs(&remote, &["-n", "blue"]);
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert!(
        run.stderr.contains("only https, or http to this machine"),
        "{}",
        run.stderr
    );
    assert!(fake.arm_requests().is_empty());
}

#[test]
fn a_refused_sign_in_is_exit_3_with_every_fix() {
    let fake = FakeAzure::start(|_, _| Answer::json(200, r#"{"content": ""}"#));
    let sb = Sandbox::new("logs-auth")
        .env("IDENTITY_ENDPOINT", &format!("{}/msi/token", fake.url()))
        .env("IDENTITY_HEADER", "the-wrong-header")
        .env("AMLDOCTOR_ARM_ENDPOINT", &fake.url());
    let run = logs(&sb, &["-n", "blue"]);
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert!(
        run.stderr
            .contains(&format!("cannot sign in to Azure: the managed identity at {}/msi/token (IDENTITY_ENDPOINT) gave no token", fake.url())),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("az login") && run.stderr.contains("AZURE_FEDERATED_TOKEN_FILE"),
        "{}",
        run.stderr
    );
    assert!(fake.arm_requests().is_empty());
}

#[test]
fn broken_answers_are_clear_errors() {
    // A reset connection is retried; the answer after it is used.
    let fake = FakeAzure::start(|_, before| {
        if before == 0 {
            Answer::reset()
        } else {
            Answer::json(200, r#"{"content": "after a reset"}"#)
        }
    });
    let sb = sandbox("logs-reset", &fake);
    let run = logs(&sb, &["-n", "blue"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "after a reset\n");
    // A truncated body and a body that is not JSON: exit 3, one sentence each.
    for body in [r#"{"content": "cut of"#, "<html>proxy error</html>"] {
        let fake = FakeAzure::start(move |_, _| Answer::json(200, body));
        let sb = sandbox("logs-broken", &fake);
        let run = logs(&sb, &["-n", "blue"]);
        assert_eq!(run.code, 3, "{}", run.stderr);
        assert!(
            run.stderr
                .contains("the service's answer is not the JSON expected"),
            "{}",
            run.stderr
        );
        no_secret(&run);
    }
}

#[test]
fn replicas_reads_the_live_deployment() {
    let fake = FakeAzure::start(|r, _| {
        assert_eq!(r.method, "GET");
        // The endpoint's deployments, for -e without -n.
        if r.target.contains("/deployments?") {
            return Answer::json(200, r#"{"value": [{"name": "blue"}]}"#);
        }
        Answer::json(
            200,
            &format!(
                r#"{{"id": "/subscriptions/{SUB}/resourceGroups/rg1/providers/Microsoft.MachineLearningServices/workspaces/ws1/onlineEndpoints/ep1/deployments/blue",
  "name": "blue", "type": "Microsoft.MachineLearningServices/workspaces/onlineEndpoints/deployments", "sku": {{"name": "Default", "capacity": 2}},
  "properties": {{"endpointComputeType": "Managed", "requestSettings": {{"maxConcurrentRequestsPerInstance": 4, "requestTimeout": "PT5S"}}}}}}"#
            ),
        )
    });
    let sb = sandbox("replicas-live", &fake);
    let run = sb.run(&[
        "replicas",
        "--rps",
        "20",
        "--latency",
        "1s",
        "--subscription",
        SUB,
        "-g",
        "rg1",
        "-w",
        "ws1",
        "-e",
        "ep1",
        "-n",
        "blue",
        "-o",
        "json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    no_secret(&run);
    let doc = run.json();
    assert_eq!(
        doc["inputs"]["max_concurrent_requests_per_instance"]["value"],
        4
    );
    assert_eq!(
        doc["inputs"]["max_concurrent_requests_per_instance"]["origin"],
        serde_json::json!({"kind": "deployment", "deployment": "ep1/blue", "key": "request_settings.max_concurrent_requests_per_instance"})
    );
    assert_eq!(doc["inputs"]["instance_count"]["value"], 2);
    assert_eq!(doc["inputs"]["request_timeout_ms"]["value"], 5000);
    let reqs = fake.arm_requests();
    assert_eq!(reqs.len(), 1);
    assert!(
        reqs[0]
            .target
            .ends_with("/onlineEndpoints/ep1/deployments/blue?api-version=2024-10-01")
    );
    // -e without -n takes the endpoint's only deployment, as the other commands do.
    let run = sb.run(&[
        "replicas",
        "--rps",
        "20",
        "--latency",
        "1s",
        "--subscription",
        SUB,
        "-g",
        "rg1",
        "-w",
        "ws1",
        "-e",
        "ep1",
        "-o",
        "json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.json()["inputs"]["instance_count"]["origin"]["deployment"],
        "ep1/blue"
    );
    // -e with a deployment file is a usage error.
    let run = sb.run(&[
        "replicas", "--rps", "20", "-e", "ep1", "-n", "blue", "-f", "x.yml",
    ]);
    assert_eq!(run.code, 2);
}

#[test]
fn deployment_lists_are_paged_on_the_same_host_only() {
    // Two pages: the second deployment is on page 2, so -n is needed. The next link
    // points back at the fake, whose port is known once it runs.
    let port_cell = std::sync::Arc::new(std::sync::Mutex::new(0u16));
    let cell = port_cell.clone();
    let fake = FakeAzure::start(move |r, _| {
        let port = *cell.lock().unwrap();
        if r.target.contains("skipToken=2") {
            Answer::json(200, r#"{"value": [{"name": "green"}]}"#)
        } else {
            Answer::json(
                200,
                &format!(
                    r#"{{"value": [{{"name": "blue"}}], "nextLink": "http://127.0.0.1:{port}/subscriptions/{SUB}/resourceGroups/rg1/providers/Microsoft.MachineLearningServices/workspaces/ws1/onlineEndpoints/ep1/deployments?api-version=2024-10-01&$skipToken=2"}}"#
                ),
            )
        }
    });
    *port_cell.lock().unwrap() = fake.port;
    let sb = sandbox("logs-pages", &fake);
    logs(&sb, &[]).usage_error(&["has 2 deployments (blue, green)"]);
    assert_eq!(fake.arm_requests().len(), 2);
    // A next page on another host is not followed with the token.
    let fake = FakeAzure::start(|_, _| {
        Answer::json(
            200,
            r#"{"value": [{"name": "blue"}], "nextLink": "https://evil.example.test/page2"}"#,
        )
    });
    let sb = sandbox("logs-pages-elsewhere", &fake);
    let run = logs(&sb, &[]);
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert!(
        run.stderr.contains("the next page is on another host"),
        "{}",
        run.stderr
    );
    assert_eq!(fake.arm_requests().len(), 1);
}

#[test]
fn follow_prints_only_new_lines() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let fake = FakeAzure::start(|_, before| match before {
        0 => Answer::json(200, r#"{"content": "a\nb"}"#),
        1 => Answer::json(200, r#"{"content": "b\nc"}"#),
        _ => Answer::json(200, r#"{"content": "b\nc\nd"}"#),
    });
    let sb = sandbox("logs-follow", &fake);
    let mut child = sb
        .command(&[
            "logs",
            "--subscription",
            SUB,
            "-g",
            "rg1",
            "-w",
            "ws1",
            "-e",
            "ep1",
            "-n",
            "blue",
            "--follow",
            "--interval",
            "1",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = Vec::new();
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        lines.push(line.unwrap());
        if lines.last().is_some_and(|l| l == "d") {
            break;
        }
    }
    child.kill().unwrap();
    let _ = child.wait();
    assert_eq!(lines, ["a", "b", "c", "d"]);
    // getLogs is a Resource Manager POST (counted against the write quota): after the
    // first read, each asks for a short tail.
    let tails: Vec<String> = fake
        .arm_requests()
        .iter()
        .filter(|r| r.target.contains("/getLogs"))
        .map(|r| {
            let body: serde_json::Value = serde_json::from_str(&r.body).unwrap();
            body["tail"].to_string()
        })
        .collect();
    assert!(tails.len() >= 3, "{tails:?}");
    assert_ne!(tails[0], "200", "{tails:?}");
    assert!(tails[1..].iter().all(|t| t == "200"), "{tails:?}");
    // --follow reads one container.
    logs(&sb, &["-n", "blue", "--follow", "--container", "all"])
        .usage_error(&["--follow reads one container"]);
}

#[test]
fn a_redirect_is_not_followed_with_the_token() {
    let other = FakeAzure::start(|_, _| Answer::json(200, r#"{"content": "from elsewhere"}"#));
    let target = format!("{}/steal", other.url());
    let fake = FakeAzure::start(move |_, _| Answer::json(302, "").with_header("location", &target));
    let sb = sandbox("logs-redirect", &fake);
    let run = logs(&sb, &["-n", "blue"]);
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert!(
        run.stderr.contains("the service answered 302"),
        "{}",
        run.stderr
    );
    assert!(other.arm_requests().is_empty(), "the redirect was followed");
    no_secret(&run);
}

#[test]
fn json_output_is_a_document_of_each_containers_lines() {
    let fake = FakeAzure::start(|_, _| {
        Answer::json(
            200,
            r#"{"content": "2026-11-30 10:00:01 I [7] azmlinfsrv - Starting\n2026-11-30 10:00:02 I [7] azmlinfsrv - Ready"}"#,
        )
    });
    let sb = sandbox("logs-json", &fake);
    let run = logs(&sb, &["-n", "blue", "-o", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v = run.json();
    assert_eq!(v["command"], "logs");
    assert_eq!(v["deployment"], "blue");
    assert_eq!(v["containers"][0]["container"], "inference-server");
    assert_eq!(
        v["containers"][0]["lines"][1],
        "2026-11-30 10:00:02 I [7] azmlinfsrv - Ready"
    );
    logs(&sb, &["-n", "blue", "-o", "json", "--follow"])
        .usage_error(&["--follow prints the lines as they come"]);
}

#[test]
fn a_refused_resource_manager_connection_is_hinted_as_the_network() {
    let fake = FakeAzure::start(|_, _| Answer::json(200, r#"{"content": ""}"#));
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    // The token comes from the fake; Resource Manager is a port nobody listens on.
    let sb = sandbox("logs-arm-refused", &fake).env(
        "AMLDOCTOR_ARM_ENDPOINT",
        &format!("http://127.0.0.1:{closed}"),
    );
    let run = logs(&sb, &["-n", "blue"]);
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert!(!run.stderr.contains("throttling"), "{}", run.stderr);
    assert!(
        run.stderr.contains("check the network path to Azure"),
        "{}",
        run.stderr
    );
}
