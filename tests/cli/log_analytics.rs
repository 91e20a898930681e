//! `diagnose --log-analytics` against a fake Log Analytics query API on 127.0.0.1: the
//! rules' literals pushed down as KQL, a 429 with Retry-After first, a 100,000-row
//! answer across two instances, findings confirmed locally and grouped by endpoint,
//! deployment and instance, with lines per hour.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Value, json};

use super::fake_azure::{Answer, FakeAzure, Request, TOKEN};
use super::{Run, fixture};

const LAW: &str = "0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0";
const EP: &str = "/SUBSCRIPTIONS/00000000-0000-0000-0000-0000000000AA/RESOURCEGROUPS/RG1/PROVIDERS/MICROSOFT.MACHINELEARNINGSERVICES/WORKSPACES/WS1/ONLINEENDPOINTS/CHURN-EP";

/// The rows: the OOM fixture's lines on instance a, then `extra` access-log lines
/// spread over instance b, an hour apart from the first.
fn rows(extra: usize) -> Vec<Value> {
    let text = std::fs::read_to_string(fixture("logs/server-1.5.1-oom-kill.log")).unwrap();
    let mut rows: Vec<Value> = text
        .lines()
        .enumerate()
        .map(|(i, line)| {
            json!([
                format!("2025-05-12T16:{:02}:{:02}.000Z", (i / 60) % 60, i % 60),
                EP,
                "blue",
                "blue-7f9c-a",
                "inference-server",
                line
            ])
        })
        .collect();
    for i in 0..extra {
        rows.push(json!([
            format!("2025-05-12T17:{:02}:{:02}.000Z", (i / 60) % 60, i % 60),
            EP,
            "blue",
            "blue-7f9c-b",
            "inference-server",
            format!(
                "2025-05-12 17:00:{:02},000 I [153] azmlinfsrv - POST /score 200 12.0ms 2311",
                i % 60
            )
        ]));
    }
    rows
}

fn fake(rows: Vec<Value>) -> (FakeAzure, Arc<AtomicUsize>) {
    let calls = Arc::new(AtomicUsize::new(0));
    let seen = calls.clone();
    let table = Arc::new(
        json!({"tables": [{"name": "PrimaryResult", "columns": [
        {"name": "TimeGenerated", "type": "datetime"}, {"name": "ResourceId", "type": "string"},
        {"name": "DeploymentName", "type": "string"}, {"name": "InstanceId", "type": "string"},
        {"name": "ContainerName", "type": "string"}, {"name": "Message", "type": "string"}],
        "rows": rows}]})
        .to_string(),
    );
    let fake = FakeAzure::start(move |r: &Request, _| {
        if r.target != format!("/v1/workspaces/{LAW}/query") || r.method != "POST" {
            return Answer::json(
                404,
                r#"{"error": {"code": "PathNotFoundError", "message": "unexpected"}}"#,
            );
        }
        // The traffic log names the endpoint in its `EndpointName` column (Azure Monitor's
        // table reference); what its `_ResourceId` holds is not documented, so the fake
        // counts only a query that filters on the column.
        let traffic = r.body.contains("AmlOnlineEndpointTrafficLog\\n");
        if traffic
            && (r.body.contains("_ResourceId")
                || !r.body.contains("EndpointName =~ \\\"churn-ep\\\""))
        {
            return Answer::json(
                200,
                r#"{"tables": [{"name": "PrimaryResult", "columns": [], "rows": []}]}"#,
            );
        }
        if r.body.contains("AmlOnlineEndpointTrafficLog\\n") {
            return Answer::json(200, &json!({"tables": [{"name": "PrimaryResult", "columns": [
                {"name": "Hour", "type": "datetime"}, {"name": "DeploymentName", "type": "string"},
                {"name": "ResponseCode", "type": "string"}, {"name": "Requests", "type": "long"}],
                "rows": [["2025-05-12T16:00:00Z", "blue", "200", 1200], ["2025-05-12T16:00:00Z", "blue", "502", 31]]}]}).to_string());
        }
        if seen.fetch_add(1, Ordering::SeqCst) == 0 {
            return Answer::json(
                429,
                r#"{"error": {"code": "ThrottledError", "message": "Too many requests"}}"#,
            )
            .with_header("retry-after", "1");
        }
        Answer::json(200, &table)
    });
    (fake, calls)
}

fn diagnose(fake: &FakeAzure, name: &str, more: &[&str]) -> Run {
    let sb = fake
        .sandbox(name, "30")
        .env("AMLDOCTOR_LOG_ANALYTICS_ENDPOINT", &fake.url());
    let mut args = vec![
        "diagnose",
        "--log-analytics",
        LAW,
        "-e",
        "churn-ep",
        "--since",
        "90m",
        "--fail-on",
        "never",
    ];
    args.extend_from_slice(more);
    Run::from(sb.command_in(&sb.work(), &args).output().unwrap())
}

#[test]
fn candidate_lines_are_confirmed_locally_and_grouped_by_instance() {
    let all = rows(100_000);
    let total = all.len();
    let (fake, calls) = fake(all);
    let run = diagnose(&fake, "la-large", &["-o", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(!run.stdout.contains(TOKEN) && !run.stderr.contains(TOKEN));
    assert_eq!(calls.load(Ordering::SeqCst), 2, "one 429, then the answer");
    let v = run.json();
    let la = &v["log_analytics"];
    assert_eq!(la["rows"], total);
    assert_eq!(la["timespan"], "PT90M");
    assert_eq!(
        la["traffic"][1],
        json!({"hour": "2025-05-12T16", "deployment": "blue", "status": "502", "requests": 31})
    );
    let groups = la["groups"].as_array().unwrap();
    assert_eq!(groups.len(), 2);
    assert_eq!(groups[0]["endpoint"], "churn-ep");
    assert_eq!(groups[0]["instance"], "blue-7f9c-a");
    assert_eq!(groups[1]["lines"], 100_000);
    assert_eq!(groups[1]["per_hour"][0]["hour"], "2025-05-12T17");
    // The OOM is found on instance a only, from its own file.
    let oom = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule_id"] == "gunicorn-worker-oom-killed")
        .expect("oom found");
    let paths = oom["paths"].to_string();
    // Without --save the lines' folder is gone: the finding names the instance's log.
    assert!(
        paths.contains("inference-server log of churn-ep/blue instance blue-7f9c-a"),
        "{paths}"
    );
    assert!(
        !run.stdout.contains("amldoctor-log-analytics-"),
        "{}",
        run.stdout
    );
    assert!(!paths.contains("blue-7f9c-b"), "{paths}");
    // Its lines per hour, on its own instance only.
    let series: Vec<&Value> = la["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule_id"] == "gunicorn-worker-oom-killed")
        .collect();
    assert_eq!(series.len(), 1, "{}", la["findings"]);
    assert_eq!(series[0]["instance"], "blue-7f9c-a");
    assert_eq!(series[0]["per_hour"][0]["hour"], "2025-05-12T16");
    assert!(series[0]["per_hour"][0]["lines"].as_u64().unwrap() >= 1);
    // The endpoint and deployment the lines are of fill its commands.
    let commands = oom["commands"].to_string();
    assert!(commands.contains("-e churn-ep -n blue"), "{commands}");

    // What was asked: the rules' literals as KQL, the endpoint, the look-back.
    let request = fake
        .arm_requests()
        .into_iter()
        .rfind(|r| r.body.contains("AmlOnlineEndpointConsoleLog"))
        .unwrap();
    assert_eq!(
        request.header("authorization"),
        Some(format!("Bearer {TOKEN}-LA").as_str())
    );
    let body: Value = serde_json::from_str(&request.body).unwrap();
    assert_eq!(body["timespan"], "PT90M");
    let q = body["query"].as_str().unwrap();
    for part in [
        "union isfuzzy=true withsource=SourceTable AmlOnlineEndpointConsoleLog, AmlOnlineEndpointEventLog",
        "| extend ResourceId = _ResourceId",
        "| where TimeGenerated > ago(90m)",
        r#"| where ResourceId endswith "/onlineendpoints/churn-ep""#,
        "Message has_any (",
        "Message contains \"Back-off restarting failed container\"",
    ] {
        assert!(q.contains(part), "{part} not in {q}");
    }
    // The token was asked for Log Analytics' own audience.
    let tokens: Vec<Request> = fake
        .requests
        .lock()
        .unwrap()
        .iter()
        .filter(|r| r.target.starts_with("/msi/"))
        .cloned()
        .collect();
    assert!(
        tokens
            .iter()
            .any(|r| r.target.contains("api.loganalytics.io")),
        "{:?}",
        tokens.iter().map(|r| &r.target).collect::<Vec<_>>()
    );
}

#[test]
fn the_table_shows_the_query_and_the_groups_and_bad_ids_are_refused() {
    let (fake, _) = fake(rows(30));
    let run = diagnose(&fake, "la-table", &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("2025-05-12T16: blue 200 × 1200, blue 502 × 31"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains(&format!("── Log Analytics workspace {LAW} (PT90M) ──")),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("churn-ep/blue instance blue-7f9c-b (inference-server): 30 lines"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("gunicorn-worker-oom-killed"),
        "{}",
        run.stdout
    );
    let sb = fake.sandbox("la-bad", "1");
    for (args, says) in [
        (
            vec!["diagnose", "--log-analytics", "my-workspace"],
            "expected the Log Analytics workspace id, a GUID",
        ),
        (
            vec!["diagnose", "--since", "2h", "x.log"],
            "--log-analytics",
        ),
        // A bare number could be seconds, minutes or days.
        (
            vec!["diagnose", "--log-analytics", LAW, "--since", "10"],
            "a look-back with a unit: 90m, 24h, 7d",
        ),
    ] {
        let r = Run::from(sb.command_in(&sb.work(), &args).output().unwrap());
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains(says), "{args:?}: {}", r.stderr);
    }
}

#[test]
fn a_look_back_in_days_is_taken_as_the_help_says() {
    let (fake, _) = fake(rows(3));
    let sb = fake
        .sandbox("la-days", "30")
        .env("AMLDOCTOR_LOG_ANALYTICS_ENDPOINT", &fake.url());
    let args = [
        "diagnose",
        "--log-analytics",
        LAW,
        "--since",
        "7d",
        "-o",
        "json",
        "--fail-on",
        "never",
    ];
    let run = Run::from(sb.command_in(&sb.work(), &args).output().unwrap());
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.json()["log_analytics"]["timespan"], "PT10080M");
}

#[test]
fn no_candidate_line_is_a_clean_result() {
    let (fake, _) = fake(Vec::new());
    let run = diagnose(&fake, "la-empty", &["-o", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v = run.json();
    assert_eq!(v["log_analytics"]["rows"], 0);
    assert_eq!(v["findings"], json!([]));
    let table = diagnose(&fake, "la-empty-table", &[]);
    assert!(
        table
            .stdout
            .contains("no line matched any rule's literals in that time"),
        "{}",
        table.stdout
    );
}

/// The query API stops a query after 3 minutes unless the request says `Prefer:
/// wait=N` (10 minutes at most), and then answers 504 Gateway Timeout (Azure Monitor
/// docs, "Log Analytics API: Timeouts"): every query asks for the 10 minutes, shows the
/// header under `--debug`, and takes the 504 as the final answer, with what to narrow.
/// A refused query's real cause is in its `innererror` chain (the same page's syntax
/// error answer), and is reported.
#[test]
fn a_query_waits_ten_minutes_and_its_timeout_is_final() {
    let calls = Arc::new(AtomicUsize::new(0));
    let seen = calls.clone();
    let fake = FakeAzure::start(move |r: &Request, _| {
        if r.target.ends_with("/query") {
            seen.fetch_add(1, Ordering::SeqCst);
        }
        if r.header("prefer") != Some("wait=600") {
            return Answer::json(
                400,
                r#"{"error": {"code": "BadArgumentError", "message": "no Prefer"}}"#,
            );
        }
        Answer::json(
            504,
            r#"{"error": {"message": "Gateway timeout", "code": "GatewayTimeout", "correlationId": "9f3c"}}"#,
        )
    });
    let run = diagnose(&fake, "la-504", &["--debug"]);
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("the query ran longer than the 10 minutes Log Analytics allows one query"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("a shorter --since"), "{}", run.stderr);
    assert!(run.stderr.contains("prefer: wait=600"), "{}", run.stderr);
    assert_eq!(calls.load(Ordering::SeqCst), 1, "a 504 is not retried");

    let fake = FakeAzure::start(|_: &Request, _| {
        Answer::json(
            400,
            &json!({"error": {
                "message": "The request had some invalid properties",
                "code": "BadArgumentError",
                "correlationId": "7d1e",
                "innererror": {
                    "code": "SyntaxError",
                    "message": "A recognition error occurred in the query.",
                    "innererror": {
                        "code": "SYN0002",
                        "message": "Query could not be parsed at 'where' on line [3,2]",
                        "line": 3, "pos": 2, "token": "where"
                    }
                }
            }})
            .to_string(),
        )
    });
    let run = diagnose(&fake, "la-400", &[]);
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert!(
        run.stderr.contains(
            "The request had some invalid properties: A recognition error occurred in the query.: Query could not be parsed at 'where' on line [3,2]"
        ),
        "{}",
        run.stderr
    );
}
