//! `check --fleet` against a fake Azure Resource Graph on 127.0.0.1: one query paged by
//! `$skipToken`, a 429 with Retry-After and a used-up user quota on the way, workspaces
//! with their Key Vault, registry, storage, endpoints and deployments, and a
//! 100,000-row answer whose unrelated storage accounts are dropped as they stream.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Value, json};

use super::Run;
use super::fake_azure::{Answer, FakeAzure, Request, SUB, TOKEN};

const SUB2: &str = "00000000-0000-0000-0000-0000000000bb";

fn ws_id(sub: &str, group: &str, name: &str) -> String {
    format!(
        "/subscriptions/{sub}/resourceGroups/{group}/providers/Microsoft.MachineLearningServices/workspaces/{name}"
    )
}

fn vault_id(sub: &str, group: &str, name: &str) -> String {
    format!(
        "/subscriptions/{sub}/resourceGroups/{group}/providers/Microsoft.KeyVault/vaults/{name}"
    )
}

/// Resource Graph rows as the query projects them.
fn fleet_rows() -> Vec<Value> {
    let legacy = ws_id(SUB, "ml-rg", "ws-legacy");
    let private = ws_id(SUB2, "ml-prod", "ws-private");
    let fine = ws_id(SUB, "ml-rg", "ws-fine");
    vec![
        json!({"id": format!("/subscriptions/{SUB2}"), "name": SUB2, "type": "microsoft.resources/subscriptions",
               "properties": {"displayName": "ML Production"}}),
        json!({"id": legacy, "name": "ws-legacy", "type": "microsoft.machinelearningservices/workspaces", "location": "eastus",
               "properties": {"v1LegacyMode": true, "publicNetworkAccess": "Enabled", "keyVault": vault_id(SUB, "ml-rg", "kv-legacy")}}),
        json!({"id": private, "name": "ws-private", "type": "microsoft.machinelearningservices/workspaces", "location": "westeurope",
               "properties": {"v1LegacyMode": false, "publicNetworkAccess": "Disabled", "keyVault": vault_id(SUB2, "ml-prod", "kv-prod")}}),
        json!({"id": fine, "name": "ws-fine", "type": "microsoft.machinelearningservices/workspaces", "location": "eastus",
               "properties": {"v1LegacyMode": false, "publicNetworkAccess": "Enabled", "keyVault": vault_id(SUB, "ml-rg", "kv-fine")}}),
        json!({"id": format!("{private}/onlineEndpoints/churn-ep/deployments/blue"), "name": "churn-ep/blue",
               "type": "microsoft.machinelearningservices/workspaces/onlineendpoints/deployments", "location": "westeurope",
               "properties": {"endpointComputeType": "Managed", "provisioningState": "Failed", "instanceType": "Standard_DS3_v2"}}),
        json!({"id": vault_id(SUB2, "ml-prod", "kv-prod"), "name": "kv-prod", "type": "microsoft.keyvault/vaults", "location": "westeurope",
               "properties": {"networkAcls": {"defaultAction": "Deny", "bypass": "None"}}}),
        json!({"id": vault_id(SUB, "ml-rg", "kv-fine"), "name": "kv-fine", "type": "microsoft.keyvault/vaults", "location": "eastus",
               "properties": {"networkAcls": {"defaultAction": "Deny", "bypass": "AzureServices"}}}),
        // Not linked to any workspace: not checked.
        json!({"id": vault_id(SUB, "other-rg", "kv-unrelated"), "name": "kv-unrelated", "type": "microsoft.keyvault/vaults", "location": "eastus",
               "properties": {"networkAcls": {"defaultAction": "Deny", "bypass": "None"}}}),
    ]
}

/// A fake Resource Graph serving `rows` in pages of `page`, throttled on the way.
fn graph(rows: Vec<Value>, page: usize) -> (FakeAzure, Arc<AtomicUsize>) {
    let calls = Arc::new(AtomicUsize::new(0));
    let seen = calls.clone();
    let rows = Arc::new(rows);
    let fake = FakeAzure::start(move |r: &Request, _| {
        if !r
            .target
            .starts_with("/providers/Microsoft.ResourceGraph/resources?api-version=")
            || r.method != "POST"
        {
            return Answer::json(
                404,
                r#"{"error": {"code": "NotFound", "message": "unexpected call"}}"#,
            );
        }
        let n = seen.fetch_add(1, Ordering::SeqCst);
        // The second call is throttled once, paced as Resource Graph paces it: by the
        // user quota's reset (its throttling guidance), with no Retry-After.
        if n == 1 {
            return Answer::json(
                429,
                r#"{"error": {"code": "RateLimiting", "message": "Please retry."}}"#,
            )
            .with_header("x-ms-user-quota-remaining", "0")
            .with_header("x-ms-user-quota-resets-after", "00:00:01");
        }
        let body: Value = serde_json::from_str(&r.body).unwrap();
        let skip: usize = body["options"]["$skipToken"]
            .as_str()
            .map_or(0, |t| t.trim_start_matches("page-").parse().unwrap());
        let end = (skip + page).min(rows.len());
        let mut answer = json!({"totalRecords": rows.len(), "count": end - skip, "data": rows[skip..end], "resultTruncated": "false"});
        if end < rows.len() {
            answer["$skipToken"] = json!(format!("page-{end}"));
        }
        // The first page uses up the quota for a second.
        let remaining = if n == 0 { "0" } else { "14" };
        Answer::json(200, &answer.to_string())
            .with_header("x-ms-user-quota-remaining", remaining)
            .with_header("x-ms-user-quota-resets-after", "00:00:01")
    });
    (fake, calls)
}

fn fleet(fake: &FakeAzure, name: &str, more: &[&str]) -> Run {
    let sb = fake.sandbox(name, "30");
    let mut args = vec![
        "check",
        "--fleet",
        "--subscription",
        SUB,
        "--subscription",
        SUB2,
    ];
    if !more.contains(&"-o") {
        args.extend(["-o", "json"]);
    }
    args.extend_from_slice(more);
    Run::from(sb.command_in(&sb.work(), &args).output().unwrap())
}

#[test]
fn one_query_pages_and_throttling_grouped_by_workspace() {
    let (fake, calls) = graph(fleet_rows(), 3);
    let run = fleet(&fake, "fleet-small", &[]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(!run.stdout.contains(TOKEN) && !run.stderr.contains(TOKEN));
    let v = run.json();
    let f = &v["fleet"];
    assert_eq!(f["resources_read"], 8);
    assert_eq!(f["pages"], 3);
    assert!(
        f["throttled_seconds"].as_u64().unwrap() >= 1,
        "the used-up quota was waited for: {f}"
    );
    // Worst first: the private workspace (Key Vault firewall, failed deployment), then
    // the legacy one, then the fine one.
    let order: Vec<&str> = f["workspaces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["workspace"].as_str().unwrap())
        .collect();
    assert_eq!(order, ["ws-private", "ws-legacy", "ws-fine"]);
    let private = &f["workspaces"][0];
    assert_eq!(private["subscription"], SUB2);
    assert_eq!(private["group"], "ml-prod");
    let rules = private["error_rules"].to_string();
    assert!(
        rules.contains("keyvault-firewall-blocks-azure-services"),
        "{rules}"
    );
    assert!(rules.contains("deployment-provisioning-failed"), "{rules}");
    // The vault is changed where it is, in its own subscription and group.
    let vault = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule_id"] == "keyvault-firewall-blocks-azure-services")
        .unwrap();
    assert!(
        vault["commands"].to_string().contains(&format!(
            "az keyvault update -n kv-prod -g ml-prod --subscription {SUB2} --bypass AzureServices"
        )),
        "{}",
        vault["commands"]
    );
    assert!(
        f["workspaces"][1]["error_rules"]
            .to_string()
            .contains("workspace-v1-legacy-mode")
    );
    assert_eq!(f["workspaces"][2]["errors"], 0);
    // The unlinked vault is in no workspace's findings.
    assert!(
        !run.stdout.contains("kv-unrelated"),
        "an unrelated vault was checked"
    );
    // What the service was asked: one query, both subscriptions, the page token back.
    let requests = fake.arm_requests();
    assert_eq!(calls.load(Ordering::SeqCst), requests.len());
    let first: Value = serde_json::from_str(&requests[0].body).unwrap();
    assert_eq!(first["subscriptions"], json!([SUB, SUB2]));
    assert!(
        first["query"]
            .as_str()
            .unwrap()
            .contains("microsoft.machinelearningservices/workspaces")
    );
    assert_eq!(first["options"]["$top"], 1000);
    let last: Value = serde_json::from_str(&requests.last().unwrap().body).unwrap();
    assert_eq!(last["options"]["$skipToken"], "page-6");
    assert!(
        first["query"]
            .as_str()
            .unwrap()
            .contains("resourcecontainers")
    );
    assert!(
        requests.iter().all(|r| r.method == "POST"),
        "only the query is sent"
    );

    // The table groups by workspace before the findings.
    let table = fleet(&fake, "fleet-table", &["-o", "table"]);
    let out = &table.stdout;
    let ws = out
        .find("workspaces, worst first:")
        .unwrap_or_else(|| panic!("fleet section: {out}\n{}", table.stderr));
    let findings = out.find("── Errors ──").expect("findings");
    assert!(ws < findings, "{out}");
    assert!(
        out.contains("ws-private (ML Production/ml-prod): 2 errors"),
        "{out}"
    );
}

#[test]
fn a_hundred_thousand_rows_stream_through() {
    let mut rows = fleet_rows();
    // The query asks for the workspaces first; after them, 99,992 storage accounts no
    // workspace links to.
    let keep = rows.split_off(5);
    for i in 0..99_992 {
        rows.push(json!({"id": format!("/subscriptions/{SUB}/resourceGroups/data/providers/Microsoft.Storage/storageAccounts/st{i:06}"),
                         "name": format!("st{i:06}"), "type": "microsoft.storage/storageaccounts", "location": "eastus",
                         "properties": {"allowBlobPublicAccess": false}}));
    }
    rows.extend(keep);
    assert_eq!(rows.len(), 100_000);
    let (fake, _) = graph(rows, 1000);
    let run = fleet(&fake, "fleet-large", &[]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let v = run.json();
    assert_eq!(v["fleet"]["resources_read"], 100_000);
    assert_eq!(v["fleet"]["pages"], 100);
    assert_eq!(v["fleet"]["workspaces"].as_array().unwrap().len(), 3);
    assert_eq!(v["summary"]["inputs_analysed"], 100_000);
}

#[test]
fn scope_and_flags_are_checked_before_anything_is_sent() {
    let (fake, calls) = graph(fleet_rows(), 3);
    let sb = fake.sandbox("fleet-flags", "1");
    for (args, says) in [
        (
            vec!["check", "--fleet", "--from", "x.json"],
            "cannot be used with",
        ),
        (
            vec!["check", "dns", "--fleet", "--subscription", SUB],
            "check dns --fleet",
        ),
        (
            vec![
                "diagnose",
                "x.log",
                "--subscription",
                SUB,
                "--subscription",
                SUB2,
            ],
            "only 'check --fleet' reads several subscriptions",
        ),
        (vec!["check", "--management-group", "mg1"], "--fleet"),
        (
            vec!["check", "--fleet", "--subscription", "My Sub"],
            "needs the subscription id (a GUID)",
        ),
        (
            vec![
                "check",
                "--fleet",
                "--subscription",
                SUB,
                "--management-group",
                "mg1",
            ],
            "not both",
        ),
    ] {
        let run = Run::from(sb.command_in(&sb.work(), &args).output().unwrap());
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains(says), "{args:?}: {}", run.stderr);
    }
    assert_eq!(calls.load(Ordering::SeqCst), 0);
    // A management group alone is the scope; the default subscription is not added.
    let run = Run::from(
        sb.command_in(
            &sb.work(),
            &[
                "check",
                "--fleet",
                "--management-group",
                "mg-ml",
                "-o",
                "json",
            ],
        )
        .output()
        .unwrap(),
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    let body: Value = serde_json::from_str(&fake.arm_requests()[0].body).unwrap();
    assert_eq!(body["managementGroups"], json!(["mg-ml"]));
    assert!(body.get("subscriptions").is_none(), "{body}");
}

#[test]
fn a_shared_vault_is_judged_once_and_a_truncated_answer_is_said() {
    // Two workspaces share one Key Vault that blocks trusted services.
    let a = ws_id(SUB, "ml-rg", "ws-a");
    let b = ws_id(SUB, "ml-rg", "ws-b");
    let kv = vault_id(SUB, "ml-rg", "kv-shared");
    let rows = vec![
        json!({"id": a, "name": "ws-a", "type": "microsoft.machinelearningservices/workspaces", "properties": {"publicNetworkAccess": "Disabled", "keyVault": kv}}),
        json!({"id": b, "name": "ws-b", "type": "microsoft.machinelearningservices/workspaces", "properties": {"publicNetworkAccess": "Disabled", "keyVault": kv}}),
        json!({"id": kv, "name": "kv-shared", "type": "microsoft.keyvault/vaults", "properties": {"networkAcls": {"defaultAction": "Deny", "bypass": "None"}}}),
    ];
    let rows = Arc::new(rows);
    // Resource Graph's header for a scope wider than its subscription limit (its
    // guidance on paging and throttling names it beside the user-quota headers).
    let fake = FakeAzure::start(move |_, _| {
        Answer::json(
            200,
            &json!({"totalRecords": 5, "count": 3, "data": *rows, "resultTruncated": "true"})
                .to_string(),
        )
        .with_header("x-ms-tenant-subscription-limit-hit", "true")
    });
    let run = fleet(&fake, "fleet-shared", &[]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let v = run.json();
    let kv_findings = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule_id"] == "keyvault-firewall-blocks-azure-services")
        .count();
    assert_eq!(kv_findings, 1, "one finding for the shared vault");
    assert_eq!(v["fleet"]["workspaces"].as_array().unwrap().len(), 2);
    assert!(run.stderr.contains("resultTruncated"), "{}", run.stderr);
    assert!(
        run.stderr.contains("x-ms-tenant-subscription-limit-hit"),
        "{}",
        run.stderr
    );
}

#[test]
fn ten_thousand_linked_resources_are_checked_workspace_by_workspace() {
    // 2,500 workspaces, each with its own Key Vault, registry and storage account.
    let mut rows = Vec::new();
    let mut linked = Vec::new();
    for i in 0..2_500 {
        let ws = ws_id(SUB, "fleet", &format!("ws{i:04}"));
        let kv = vault_id(SUB, "fleet", &format!("kv{i:04}"));
        let acr = format!(
            "/subscriptions/{SUB}/resourceGroups/fleet/providers/Microsoft.ContainerRegistry/registries/acr{i:04}"
        );
        let st = format!(
            "/subscriptions/{SUB}/resourceGroups/fleet/providers/Microsoft.Storage/storageAccounts/st{i:04}"
        );
        rows.push(json!({"id": ws, "name": format!("ws{i:04}"), "type": "microsoft.machinelearningservices/workspaces",
                         "properties": {"v1LegacyMode": i % 100 == 0, "keyVault": kv, "containerRegistry": acr, "storageAccount": st}}));
        linked.push(json!({"id": kv, "name": format!("kv{i:04}"), "type": "microsoft.keyvault/vaults", "properties": {"networkAcls": {"defaultAction": "Allow"}}}));
        linked.push(json!({"id": acr, "name": format!("acr{i:04}"), "type": "microsoft.containerregistry/registries", "properties": {"publicNetworkAccess": "Enabled"}}));
        linked.push(json!({"id": st, "name": format!("st{i:04}"), "type": "microsoft.storage/storageaccounts", "properties": {}}));
    }
    rows.extend(linked);
    assert_eq!(rows.len(), 10_000);
    let (fake, _) = graph(rows, 1000);
    let run = fleet(&fake, "fleet-10k", &[]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let v = run.json();
    let f = &v["fleet"];
    assert_eq!(f["resources_read"], 10_000);
    let workspaces = f["workspaces"].as_array().unwrap();
    assert_eq!(workspaces.len(), 2_500);
    // Each was checked with its own three linked resources.
    assert!(
        workspaces.iter().all(|w| w["resources"] == 4),
        "{}",
        workspaces[0]
    );
    // Every hundredth is in v1 legacy mode, and those rank first.
    let legacy = workspaces
        .iter()
        .filter(|w| w["errors"].as_u64().unwrap() > 0)
        .count();
    assert_eq!(legacy, 25);
    assert!(
        workspaces[0]["error_rules"]
            .to_string()
            .contains("workspace-v1-legacy-mode")
    );
}
