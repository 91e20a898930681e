//! `amldoctor score` against a fake scoring server on 127.0.0.1 (the fake Azure of
//! `fake_azure.rs`): every status with the headers the service sends, a known delay
//! distribution, a slow answer past the timeout, a reset connection and a 429 storm;
//! offline from endpoint JSON with the key in a variable, and live through Resource
//! Manager (listKeys, token, Entra). No key or token may show in any output.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use serde_json::{Value, json};

use super::fake_azure::{Answer, FakeAzure, Request, SUB, TOKEN};
use super::{Run, Sandbox};

const KEY: &str = "SCORE-KEY-SECRET-7c1d";
const WS: &str = "/subscriptions/00000000-0000-0000-0000-0000000000aa/resourceGroups/rg1/providers/Microsoft.MachineLearningServices/workspaces/ws1";

/// An endpoint as `az ml online-endpoint show -o json` prints it, scoring at the fake.
fn endpoint_json(port: u16, auth: &str) -> String {
    json!({
        "auth_mode": auth,
        "id": format!("{WS}/onlineEndpoints/churn-ep"),
        "kind": "Managed",
        "name": "churn-ep",
        "provisioning_state": "Succeeded",
        "scoring_uri": format!("http://127.0.0.1:{port}/score"),
        "traffic": {"blue": 100, "green": 0},
    })
    .to_string()
}

/// A deployment as `az ml online-deployment show -o json` prints it.
fn deployment_json(name: &str, instances: u64, concurrent: u64) -> String {
    json!({
        "endpoint_name": "churn-ep",
        "id": format!("{WS}/onlineEndpoints/churn-ep/deployments/{name}"),
        "instance_count": instances,
        "instance_type": "Standard_DS3_v2",
        "name": name,
        "provisioning_state": "Succeeded",
        "request_settings": {"max_concurrent_requests_per_instance": concurrent, "request_timeout_ms": 5000},
        "type": "managed",
    })
    .to_string()
}

/// A sandbox with the endpoint (and blue deployment) JSON and a request body.
fn offline(name: &str, fake: &FakeAzure) -> Sandbox {
    let sb = Sandbox::new(name).env("SCORE_KEY", KEY);
    sb.write("work/endpoint.json", &endpoint_json(fake.port, "key"));
    sb.write("work/blue.json", &deployment_json("blue", 2, 2));
    sb.write("work/body.json", r#"{"data": [[0.1, 0.2, 0.3]]}"#);
    sb
}

fn score(sb: &Sandbox, more: &[&str]) -> Run {
    let mut args = vec![
        "score",
        "--from",
        "endpoint.json",
        "--from",
        "blue.json",
        "--key-env",
        "SCORE_KEY",
        "--data",
        "body.json",
    ];
    args.extend_from_slice(more);
    Run::from(sb.command_in(&sb.work(), &args).output().unwrap())
}

use crate::finding;

fn no_secret(run: &Run) {
    for leak in [KEY, TOKEN] {
        assert!(!run.stdout.contains(leak), "stdout shows {leak}");
        assert!(!run.stderr.contains(leak), "stderr shows {leak}");
    }
}

/// The answer for the n-th scoring request of the status storm.
fn storm(n: usize) -> Answer {
    match n % 10 {
        0 => Answer::json(200, r#"{"predictions": [1]}"#).with_header("azureml-model-deployment", "blue"),
        1 => Answer::json(401, "").with_header("www-authenticate", "Bearer"),
        2 => Answer::json(404, r#"{"message": "No deployment could be found"}"#),
        3 => Answer::json(408, r#"{"message": "Request timed out"}"#),
        4 => Answer::json(424, r#"{"message": "An unexpected error occurred in scoring script. Check the logs for more info."}"#)
            .with_header("ms-azureml-model-error-statuscode", "500")
            .with_header("ms-azureml-model-error-reason", "model_error")
            .with_header("x-request-id", "5d1e7a3c-0000-4c2d-8e6a-1b2c3d4e5f60"),
        5 => Answer::json(429, r#"{"message": "Too many requests"}"#).with_header("retry-after", "1"),
        6 => Answer::json(502, ""),
        7 => Answer::json(503, ""),
        8 => Answer::json(504, ""),
        _ => Answer::json(200, r#"{"predictions": [0]}"#)
            .with_header("ms-azureml-bandwidth-request-delay-ms", "0")
            .with_header("ms-azureml-bandwidth-response-delay-ms", "350"),
    }
}

#[test]
fn every_status_is_counted_and_explained_with_its_ids() {
    let fake = FakeAzure::start(|_, n| storm(n));
    let sb = offline("score-storm", &fake);
    let run = score(&sb, &["-n", "blue", "--count", "10", "-o", "json"]);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    no_secret(&run);
    let v = run.json();
    let s = &v["score"];
    assert_eq!(s["requests"], 10);
    let outcomes: Vec<(String, u64)> = s["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            (
                o["outcome"].as_str().unwrap().to_owned(),
                o["count"].as_u64().unwrap(),
            )
        })
        .collect();
    let want: Vec<(String, u64)> = [
        ("200", 2),
        ("401", 1),
        ("404", 1),
        ("408", 1),
        ("424", 1),
        ("429", 1),
        ("502", 1),
        ("503", 1),
        ("504", 1),
    ]
    .iter()
    .map(|(o, n)| ((*o).to_owned(), *n))
    .collect();
    assert_eq!(outcomes, want);
    // The catalogue's managed-endpoint entry of each error status.
    // The catalogue's entries for a managed endpoint (429 has two meanings there); the
    // statuses it lists only for Kubernetes endpoints are left to the findings.
    let explained: Vec<(u64, String)> = s["explanations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["status"].as_u64().unwrap(),
                e["endpoint"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let want: Vec<(u64, String)> = [401, 404, 408, 424, 429, 429]
        .iter()
        .map(|s| (*s, "managed".to_owned()))
        .collect();
    assert_eq!(explained, want);
    let model = finding(&v, "score-model-error");
    assert_eq!(model["facts"]["model_status"], "500");
    assert_eq!(model["facts"]["model_reason"], "model_error");
    assert_eq!(
        model["facts"]["request_ids"],
        "5d1e7a3c-0000-4c2d-8e6a-1b2c3d4e5f60"
    );
    let throttled = finding(&v, "score-throttled");
    assert_eq!(throttled["facts"]["retry_after"], "1");
    // Without --rps the rate is the user's to give, and said so once.
    assert!(
        throttled["commands"]
            .to_string()
            .contains("amldoctor replicas --rps <rps> -e"),
        "{}",
        throttled["commands"]
    );
    assert!(
        v["missing_names"].to_string().contains("score --rps N"),
        "{}",
        v["missing_names"]
    );
    // With it, the sizing command carries it.
    let fake_rps = FakeAzure::start(|_, n| storm(n));
    let sb_rps = offline("score-storm-rps", &fake_rps);
    let with_rps = score(
        &sb_rps,
        &["-n", "blue", "--count", "10", "--rps", "40", "-o", "json"],
    );
    let commands = finding(&with_rps.json(), "score-throttled")["commands"].to_string();
    assert!(
        commands.contains("amldoctor replicas --rps 40 -e"),
        "{commands}"
    );
    // 2 × 2 concurrent per instance × 2 instances, from blue.json.
    assert_eq!(throttled["facts"]["pending_request_ceiling"], "8");
    assert_eq!(
        finding(&v, "score-timed-out")["facts"]["outcomes"],
        "408 × 1, 504 × 1"
    );
    assert_eq!(
        finding(&v, "score-server-error")["facts"]["outcomes"],
        "502 × 1, 503 × 1"
    );
    assert_eq!(
        finding(&v, "score-bandwidth-delayed")["facts"]["max_delay_ms"],
        "350"
    );
    assert_eq!(finding(&v, "score-auth-failed")["severity"], "error");
    // Filled commands: the endpoint and deployment names the run knows.
    let cmds = finding(&v, "score-not-found")["commands"].to_string();
    assert!(cmds.contains("get-logs -e churn-ep -n blue"), "{cmds}");

    server_saw_the_key_the_deployment_and_client_ids(&fake);

    // The table shows the section and the catalogue's text; no format shows the key.
    for format in ["table", "markdown", "sarif", "junit", "yaml"] {
        let run = score(&sb, &["-n", "blue", "--count", "10", "-o", format]);
        assert_eq!(run.code, 1, "{format}: {}", run.stderr);
        no_secret(&run);
        if format == "table" {
            assert!(
                run.stdout
                    .contains("── Scoring probe: endpoint churn-ep (managed, key auth) ──"),
                "{}",
                run.stdout
            );
            assert!(run.stdout.contains("HTTP 424 "), "{}", run.stdout);
            assert!(
                run.stdout.contains("  429 ceiling: 8 pending requests"),
                "{}",
                run.stdout
            );
        }
    }
}

/// What the server saw: the key as a bearer, the deployment header, client ids the
/// service accepts (letters, digits, -, _; at most 40), each one different.
fn server_saw_the_key_the_deployment_and_client_ids(fake: &FakeAzure) {
    let scoring: Vec<Request> = fake.arm_requests();
    assert_eq!(scoring.len(), 10);
    let mut ids = Vec::new();
    for r in &scoring {
        assert_eq!(r.method, "POST");
        assert_eq!(
            r.header("authorization"),
            Some(format!("Bearer {KEY}").as_str())
        );
        assert_eq!(r.header("azureml-model-deployment"), Some("blue"));
        assert_eq!(r.body, r#"{"data": [[0.1, 0.2, 0.3]]}"#);
        let id = r.header("x-ms-client-request-id").unwrap().to_owned();
        assert!(
            id.len() <= 40
                && id
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'),
            "{id}"
        );
        ids.push(id);
    }
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 10);
}

#[test]
fn latency_percentiles_of_a_known_delay_distribution() {
    // Nine answers after 50 ms and one after 800 ms, one at a time: the median is the
    // fast answer, p99 and the maximum the slow one.
    let fake = FakeAzure::start(|_, n| {
        let delay = if n == 4 { 800 } else { 50 };
        Answer::json(200, r#"{"ok": true}"#).slow(Duration::from_millis(delay))
    });
    let sb = offline("score-latency", &fake);
    let run = score(&sb, &["--count", "10", "-o", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let l = &run.json()["score"]["latency"];
    let ms = |k: &str| l[k].as_f64().unwrap();
    assert_eq!(l["samples"], 10);
    assert!(ms("p50_ms") >= 50.0 && ms("p50_ms") < 400.0, "{l}");
    assert!(ms("p99_ms") >= 800.0, "{l}");
    assert!(ms("max_ms") >= 800.0, "{l}");
    assert!(
        ms("p50_ms") <= ms("p95_ms") && ms("p95_ms") <= ms("p99_ms"),
        "{l}"
    );
}

#[test]
fn a_slow_answer_past_the_timeout_and_a_reset_connection() {
    let fake = FakeAzure::start(|_, n| match n {
        0 => Answer::json(200, "{}").slow(Duration::from_millis(2_000)),
        _ => Answer::reset(),
    });
    let sb = offline("score-timeout", &fake);
    let run = score(&sb, &["--count", "2", "--timeout", "300ms", "-o", "json"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let v = run.json();
    let outcomes = v["score"]["outcomes"].to_string();
    assert!(outcomes.contains(r#""outcome":"timeout""#), "{outcomes}");
    assert!(outcomes.contains(r#""outcome":"reset""#), "{outcomes}");
    assert_eq!(finding(&v, "score-timed-out")["facts"]["timeout_ms"], "300");
    assert!(
        finding(&v, "score-connection-failed")["facts"]["outcomes"]
            .as_str()
            .unwrap()
            .contains("reset × 1")
    );
    assert!(
        v["score"]["latency"].is_null(),
        "no answered request, no latency"
    );
}

#[test]
fn count_and_concurrency_stay_within_their_bounds() {
    let in_flight = Arc::new(AtomicUsize::new(0));
    let most = Arc::new(AtomicUsize::new(0));
    let (f, m) = (in_flight.clone(), most.clone());
    let fake = FakeAzure::start(move |_, _| {
        let now = f.fetch_add(1, Ordering::SeqCst) + 1;
        m.fetch_max(now, Ordering::SeqCst);
        std::thread::sleep(Duration::from_millis(150));
        f.fetch_sub(1, Ordering::SeqCst);
        Answer::json(200, "{}")
    });
    let sb = offline("score-bounds", &fake);
    let run = score(&sb, &["--count", "12", "--concurrency", "3", "-o", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(fake.arm_requests().len(), 12);
    let most = most.load(Ordering::SeqCst);
    assert!(
        (2..=3).contains(&most),
        "at most 3 at once, and more than one: {most}"
    );

    for (args, says) in [
        (
            vec!["--count", "101"],
            "--count 101: at most 100 without --force",
        ),
        (
            vec!["--concurrency", "9"],
            "--concurrency 9: at most 8 without --force",
        ),
        (
            vec!["--count", "10001", "--force"],
            "--count 10001: at most 10000, even with --force",
        ),
        (
            vec!["--concurrency", "65", "--force"],
            "--concurrency 65: at most 64, even with --force",
        ),
        (vec!["--count", "0"], "--count"),
    ] {
        let run = score(&sb, &args);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains(says), "{args:?}: {}", run.stderr);
    }
    assert_eq!(fake.arm_requests().len(), 12, "refused runs send nothing");
}

#[test]
fn bad_input_is_one_sentence_naming_the_flag() {
    let fake = FakeAzure::start(|_, _| Answer::json(200, "{}"));
    let sb = offline("score-input", &fake);
    sb.write("work/empty.json", "  \n");
    sb.write("work/job.json", r#"{"name": "x", "type": "command"}"#);
    for (args, says) in [
        (
            vec!["score", "--from", "endpoint.json", "--data", "body.json"],
            "--from gives no credential: the endpoint uses key authentication",
        ),
        (
            vec![
                "score",
                "--from",
                "endpoint.json",
                "--key-env",
                "NOT_SET_ANYWHERE",
                "--data",
                "body.json",
            ],
            "--key-env NOT_SET_ANYWHERE: the variable is not set or empty",
        ),
        (
            vec![
                "score",
                "--from",
                "endpoint.json",
                "--key-env",
                "SCORE_KEY",
                "--data",
                "empty.json",
            ],
            "--data empty.json is empty",
        ),
        (
            vec![
                "score",
                "--from",
                "endpoint.json",
                "--key-env",
                "SCORE_KEY",
                "--data",
                "missing.json",
            ],
            "missing.json",
        ),
        (
            vec![
                "score",
                "--from",
                "job.json",
                "--key-env",
                "SCORE_KEY",
                "--data",
                "body.json",
            ],
            "job.json: not an online endpoint or deployment",
        ),
        (
            vec![
                "score",
                "--from",
                "endpoint.json",
                "--key-env",
                "SCORE_KEY",
                "--data",
                "body.json",
                "-n",
                "purple",
            ],
            "-n purple: endpoint 'churn-ep' has no deployment of that name",
        ),
    ] {
        let run = Run::from(sb.command_in(&sb.work(), &args).output().unwrap());
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(
            run.stderr.starts_with("error: "),
            "{args:?}: {}",
            run.stderr
        );
        assert!(run.stderr.contains(says), "{args:?}: {}", run.stderr);
    }
    assert!(fake.arm_requests().is_empty(), "nothing sent on bad input");
}

/// A fake Resource Manager with one endpoint of `auth` mode, scoring at itself.
fn live_fake(auth: &'static str) -> (FakeAzure, Arc<std::sync::OnceLock<u16>>) {
    let port = Arc::new(std::sync::OnceLock::<u16>::new());
    let p = port.clone();
    let fake = FakeAzure::start(move |r, _| {
        let path = r.target.split('?').next().unwrap_or_default().to_owned();
        let base = format!("http://127.0.0.1:{}", p.get().copied().unwrap_or(0));
        let ep = format!("{WS}/onlineEndpoints/churn-ep");
        if path == ep && r.method == "GET" {
            return Answer::json(200, &json!({
                "id": ep, "name": "churn-ep", "type": "Microsoft.MachineLearningServices/workspaces/onlineEndpoints",
                "location": "eastus", "kind": "Managed",
                "properties": {"authMode": auth, "scoringUri": format!("{base}/score"), "provisioningState": "Succeeded", "traffic": {"blue": 100}}
            }).to_string());
        }
        if path == format!("{ep}/deployments/blue") && r.method == "GET" {
            return Answer::json(200, &json!({
                "id": format!("{ep}/deployments/blue"), "name": "blue", "type": "Microsoft.MachineLearningServices/workspaces/onlineEndpoints/deployments",
                "location": "eastus", "kind": "Managed", "sku": {"name": "Default", "capacity": 3},
                "properties": {"endpointComputeType": "Managed", "provisioningState": "Succeeded", "instanceType": "Standard_DS3_v2",
                    "requestSettings": {"maxConcurrentRequestsPerInstance": 1, "requestTimeout": "PT5S"}}
            }).to_string());
        }
        if path == format!("{ep}/listKeys") && r.method == "POST" {
            return Answer::json(
                200,
                &json!({"primaryKey": KEY, "secondaryKey": "SECONDARY-NOT-USED"}).to_string(),
            );
        }
        if path == format!("{ep}/token") && r.method == "POST" {
            return Answer::json(200, &json!({"accessToken": format!("{KEY}-AML"), "expiryTimeUtc": 1_900_000_000, "refreshAfterTimeUtc": 1_899_990_000, "tokenType": "Bearer"}).to_string());
        }
        if path == "/score" {
            return Answer::json(429, r#"{"message": "Too many requests"}"#)
                .with_header("retry-after", "2");
        }
        Answer::json(
            404,
            r#"{"error": {"code": "NotFound", "message": "no such thing"}}"#,
        )
    });
    port.set(fake.port).unwrap();
    (fake, port)
}

#[test]
fn live_credentials_come_from_the_endpoints_own_operations() {
    // An aad_token endpoint is scored with a token for https://ml.azure.com in every
    // cloud, as azure-ai-ml asks for it (the fake hands the `ml.azure.com` audience its
    // own token), not the cloud's data-plane audience (`ml.azure.cn`).
    for (auth, bearer, cloud) in [
        ("Key", KEY.to_owned(), "AzureCloud"),
        ("AMLToken", format!("{KEY}-AML"), "AzureCloud"),
        ("AADToken", format!("{TOKEN}-ML"), "AzureCloud"),
        ("AADToken", format!("{TOKEN}-ML"), "AzureChinaCloud"),
    ] {
        let (fake, _) = live_fake(auth);
        let sb = fake.sandbox(&format!("score-live-{auth}-{cloud}"), "1");
        sb.write("work/body.json", r#"{"data": [1]}"#);
        let run = Run::from(
            sb.command_in(
                &sb.work(),
                &[
                    "score",
                    "--cloud",
                    cloud,
                    "-e",
                    "churn-ep",
                    "--data",
                    "body.json",
                    "--subscription",
                    SUB,
                    "-g",
                    "rg1",
                    "-w",
                    "ws1",
                    "-o",
                    "json",
                    "--debug",
                ],
            )
            .output()
            .unwrap(),
        );
        assert_eq!(run.code, 1, "{auth}: {}", run.stderr);
        for leak in [KEY, TOKEN, "SECONDARY-NOT-USED"] {
            assert!(
                !run.stdout.contains(leak) && !run.stderr.contains(leak),
                "{auth} shows {leak}"
            );
        }
        let v = run.json();
        assert_eq!(
            v["score"]["auth_mode"],
            match auth {
                "Key" => "key",
                "AMLToken" => "aml_token",
                _ => "aad_token",
            }
        );
        // The deployment with traffic: 2 × 1 × 3.
        assert_eq!(
            finding(&v, "score-throttled")["facts"]["pending_request_ceiling"],
            "6"
        );
        let requests = fake.arm_requests();
        let scoring: Vec<&Request> = requests.iter().filter(|r| r.target == "/score").collect();
        assert_eq!(scoring.len(), 1);
        assert_eq!(
            scoring[0].header("authorization"),
            Some(format!("Bearer {bearer}").as_str()),
            "{auth} in {cloud}"
        );
        if auth == "AADToken" {
            let asked: Vec<Request> = fake
                .requests
                .lock()
                .unwrap()
                .iter()
                .filter(|r| r.target.starts_with("/msi/") && r.target.contains("ml.azure"))
                .cloned()
                .collect();
            assert!(
                asked.iter().all(|r| r.target.contains("ml.azure.com")),
                "{cloud}: {:?}",
                asked.iter().map(|r| &r.target).collect::<Vec<_>>()
            );
        }
        // Only reads: GETs and the credential operation of this auth mode.
        for r in &requests {
            let ok = r.method == "GET"
                || r.target == "/score"
                || (auth == "Key" && r.target.contains("/listKeys?"))
                || (auth == "AMLToken" && r.target.contains("/token?"));
            assert!(ok, "{auth}: unexpected {} {}", r.method, r.target);
        }
    }
}

#[test]
fn a_429_storm_on_a_kubernetes_endpoint_follows_the_report_schema() {
    // Every other answer throttled, the rest refused by a busy router.
    // The fake's own count can repeat under concurrency; this one cannot.
    let seen = Arc::new(AtomicUsize::new(0));
    let fake = FakeAzure::start(move |_, _| {
        if seen.fetch_add(1, Ordering::SeqCst).is_multiple_of(2) {
            Answer::json(429, r#"{"message": "Too many requests"}"#).with_header("retry-after", "3")
        } else {
            Answer::json(503, "")
        }
    });
    let sb = Sandbox::new("score-storm-k8s").env("SCORE_TOKEN", KEY);
    let mut ep: Value = serde_json::from_str(&endpoint_json(fake.port, "aml_token")).unwrap();
    ep["compute"] = json!(format!("azureml:{WS}/computes/aks-prod"));
    sb.write("work/endpoint.json", &ep.to_string());
    sb.write("work/body.json", r#"{"data": [1]}"#);
    let run = Run::from(
        sb.command_in(
            &sb.work(),
            &[
                "score",
                "--from",
                "endpoint.json",
                "--token-env",
                "SCORE_TOKEN",
                "--data",
                "body.json",
                "--count",
                "20",
                "--concurrency",
                "4",
                "-o",
                "json",
            ],
        )
        .output()
        .unwrap(),
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    no_secret(&run);
    let v = run.json();
    assert_eq!(v["score"]["endpoint_kind"], "kubernetes");
    assert_eq!(v["score"]["auth_mode"], "aml_token");
    let throttled = finding(&v, "score-throttled");
    assert_eq!(throttled["count"], 10);
    assert_eq!(throttled["facts"]["retry_after"], "3");
    assert_eq!(
        throttled["facts"]["ceiling"],
        "not known here: no settings were read for blue (pass its JSON with --from)"
    );
    // Unknown is not zero: the report says so rather than "0 pending requests".
    assert_eq!(
        v["score"]["pending_request_ceiling"]["value"],
        serde_json::Value::Null,
        "{}",
        v["score"]["pending_request_ceiling"]
    );
    // 503 on a Kubernetes endpoint: that table's entry.
    let explained = v["score"]["explanations"].as_array().unwrap();
    assert!(
        explained
            .iter()
            .any(|e| e["status"] == 503 && e["endpoint"] == "kubernetes"),
        "{explained:?}"
    );
    assert!(
        !explained
            .iter()
            .any(|e| e["endpoint"] == "managed" && e["status"] == 503)
    );
    let schema: Value =
        serde_json::from_str(&amldoctor::report::schema::findings_report()).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(&v)
        .take(5)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
}

#[test]
fn an_answer_that_echoes_the_key_or_breaks_off_or_redirects() {
    // The endpoint quotes the rejected key back; then a redirect.
    let fake = FakeAzure::start(|r, n| match n {
        0 => {
            let sent = r.header("authorization").unwrap_or_default().to_owned();
            Answer::json(401, &format!(r#"{{"message": "key {sent} is not valid"}}"#))
                .with_header("x-request-id", &format!("rid {sent}"))
        }
        _ => Answer::json(302, "").with_header(
            "location",
            "https://elsewhere.example/score?sig=SAS-SECRET-1",
        ),
    });
    let sb = offline("score-echo", &fake);
    for format in ["json", "table", "markdown", "sarif"] {
        let run = score(&sb, &["--count", "2", "-o", format]);
        assert_eq!(run.code, 1, "{format}: {}", run.stderr);
        no_secret(&run);
        assert!(
            !run.stdout.contains("SAS-SECRET-1"),
            "{format} shows the redirect's query"
        );
    }
    let v = score(&sb, &["--count", "2", "-o", "json"]).json();
    assert_eq!(
        finding(&v, "score-redirected")["facts"]["location"],
        "https://elsewhere.example/score"
    );

    // Headers and half a body, then the connection closes: not a success.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        if let Ok((mut s, _)) = listener.accept() {
            use std::io::{Read, Write};
            let mut buf = [0u8; 4096];
            let _ = s.read(&mut buf);
            let _ = s.write_all(b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 500\r\n\r\n{\"predictions\": [1, 2");
            let _ = s.flush();
        }
    });
    let sb = Sandbox::new("score-broken").env("SCORE_KEY", KEY);
    sb.write("work/endpoint.json", &endpoint_json(port, "key"));
    sb.write("work/body.json", r#"{"data": [1]}"#);
    let run = Run::from(
        sb.command_in(
            &sb.work(),
            &[
                "score",
                "--from",
                "endpoint.json",
                "--key-env",
                "SCORE_KEY",
                "--data",
                "body.json",
                "-o",
                "json",
            ],
        )
        .output()
        .unwrap(),
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    let v = run.json();
    assert_eq!(
        v["score"]["outcomes"][0]["outcome"], "reset",
        "{}",
        v["score"]
    );
    assert!(
        finding(&v, "score-connection-failed")["evidence"][0]["text"]
            .as_str()
            .unwrap()
            .contains("broke off after its status line")
    );
}

#[test]
fn the_429_ceiling_counts_the_deployments_with_traffic() {
    let fake = FakeAzure::start(|_, _| Answer::json(429, "{}"));
    let sb = Sandbox::new("score-ceiling").env("SCORE_KEY", KEY);
    let mut ep: Value = serde_json::from_str(&endpoint_json(fake.port, "key")).unwrap();
    ep["traffic"] = json!({"blue": 80, "green": 20, "red": 0});
    sb.write("work/endpoint.json", &ep.to_string());
    sb.write("work/blue.json", &deployment_json("blue", 3, 2));
    sb.write("work/red.json", &deployment_json("red", 10, 10));
    sb.write("work/body.json", r#"{"data": [1]}"#);
    let run = Run::from(
        sb.command_in(
            &sb.work(),
            &[
                "score",
                "--from",
                "endpoint.json",
                "--from",
                "blue.json",
                "--from",
                "red.json",
                "--key-env",
                "SCORE_KEY",
                "--data",
                "body.json",
                "-o",
                "json",
            ],
        )
        .output()
        .unwrap(),
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    let v = run.json();
    // red has no traffic; green's settings were not given.
    assert_eq!(
        finding(&v, "score-throttled")["facts"]["ceiling"],
        "at least 12 here: blue: 2 × 2 per instance × 3 instances = 12; green not counted, its settings were not read"
    );
    let c = &v["score"]["pending_request_ceiling"];
    assert_eq!(c["value"], 12);
    assert_eq!(c["unknown"], json!(["green"]));
}

/// A body the scoring script cannot parse: the inference server answers 400 with the
/// script's own message (`run()` raised on the input), which the finding shows; the
/// same probe answered 200 has no client-error finding.
#[test]
fn a_rejected_body_is_a_client_error_with_the_answer_shown() {
    let fake = FakeAzure::start(|_, _| {
        Answer::json(
            400,
            r#"{"message": "Expected a JSON object with key 'data': KeyError('data')"}"#,
        )
        .with_header("x-request-id", "0c7f3a2e-1111-4d2e-9f10-2a3b4c5d6e7f")
    });
    let sb = offline("score-client-error", &fake);
    let run = score(&sb, &["-n", "blue", "--count", "3", "-o", "json"]);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    no_secret(&run);
    let v = run.json();
    let f = finding(&v, "score-client-error");
    assert_eq!(f["count"], 3);
    assert_eq!(f["facts"]["status"], "400");
    assert!(
        f["facts"]["request_ids"]
            .as_str()
            .unwrap()
            .contains("0c7f3a2e-1111-4d2e-9f10-2a3b4c5d6e7f"),
        "{f}"
    );
    let table = score(&sb, &["-n", "blue", "--count", "3"]);
    assert!(
        table.stdout.contains("score-client-error"),
        "{}",
        table.stdout
    );
    assert!(
        table.stdout.contains("KeyError"),
        "the answer's body is not shown: {}",
        table.stdout
    );

    let healthy = FakeAzure::start(|_, _| Answer::json(200, r#"{"predictions": [1]}"#));
    let sb = offline("score-client-ok", &healthy);
    let run = score(&sb, &["-n", "blue", "--count", "3", "-o", "json"]);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    let v = run.json();
    let ids: Vec<&str> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f["rule_id"].as_str())
        .collect();
    assert!(!ids.contains(&"score-client-error"), "{ids:?}");
}

/// The scoring section says what each status means in a sentence (the findings
/// below say what to do); `-v` adds the causes and checks; `--debug` traces every
/// request without its credential; one request is "1 request".
#[test]
fn the_probe_section_is_short_and_debug_traces_each_request() {
    let fake = FakeAzure::start(|_, n| storm(n));
    let sb = offline("score-section", &fake);
    let run = score(
        &sb,
        &[
            "-n",
            "blue",
            "--count",
            "50",
            "--concurrency",
            "5",
            "--debug",
        ],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    no_secret(&run);
    let findings_at = run.stdout.find("── Errors ──").unwrap();
    let section = &run.stdout[..findings_at];
    assert!(section.contains("  401 Unauthorized: "), "{section}");
    assert!(!section.contains("Likely causes:"), "{section}");
    assert!(section.lines().count() <= 25, "{section}");
    let traces: Vec<&str> = run
        .stderr
        .lines()
        .filter(|l| l.starts_with("debug: score request "))
        .collect();
    assert_eq!(traces.len(), 50, "{}", run.stderr);
    assert!(
        traces.iter().any(|t| t.contains("POST http://127.0.0.1:")
            && t.contains("authorization Bearer <redacted>")
            && t.contains("azureml-model-deployment blue")
            && t.contains("-> HTTP 424")
            && t.contains("x-request-id 5d1e7a3c-0000-4c2d-8e6a-1b2c3d4e5f60")),
        "{traces:#?}"
    );
    let verbose = score(&sb, &["-n", "blue", "--count", "10", "-v"]);
    assert!(
        verbose.stdout.contains("Likely causes:"),
        "{}",
        verbose.stdout
    );

    let one = score(&sb, &["-n", "blue", "-o", "markdown", "--fail-on", "never"]);
    assert!(
        one.stdout.contains(": 1 request, 1 at a time"),
        "{}",
        one.stdout
    );
}

/// The scoring service may send its bandwidth-delay fields as HTTP trailers (after a
/// chunked body, announced in `Trailer`) rather than as headers: they are read there,
/// and the request says it takes trailers (`TE: trailers`).
#[test]
fn bandwidth_delays_sent_as_trailers_are_read() {
    let fake = FakeAzure::start(|_, _| {
        Answer::json(200, r#"{"predictions": [0]}"#)
            .with_trailer("ms-azureml-bandwidth-request-delay-ms", "0")
            .with_trailer("ms-azureml-bandwidth-response-delay-ms", "420")
    });
    let sb = offline("score-trailers", &fake);
    let run = score(&sb, &["-n", "blue", "--count", "3", "-o", "json"]);
    // A warning: the gate fails on errors by default.
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    let v = run.json();
    let delayed = finding(&v, "score-bandwidth-delayed");
    assert_eq!(delayed["facts"]["max_delay_ms"], "420");
    let requests = fake.arm_requests();
    assert_eq!(requests.len(), 3);
    assert!(
        requests.iter().all(|r| r.header("te") == Some("trailers")),
        "{requests:?}"
    );
}
