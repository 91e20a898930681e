//! `amldoctor check` over resource JSON as the az CLI and ARM print it
//! (tests/fixtures/resources/README.md says which command printed each file), and
//! resource JSON read by `diagnose` next to logs.

use std::fmt::Write as _;
use std::io::Write;
use std::process::Stdio;

use super::{Sandbox, fixture};

/// Asserts that `text` contains `needle`, showing `text` when it does not.
fn has(text: &str, needle: &str) {
    assert!(
        super::joined(text).contains(needle),
        "missing {needle:?} in:\n{text}"
    );
}

fn res(name: &str) -> String {
    fixture(&format!("resources/{name}"))
}

/// `check AREA --from F… -o json --fail-on never`: the sorted rule ids found.
fn rule_ids(sb: &Sandbox, area: &str, files: &[&str], extra: &[&str]) -> Vec<String> {
    let paths: Vec<String> = files
        .iter()
        .map(|f| {
            if f.starts_with('/') {
                (*f).to_owned()
            } else {
                res(f)
            }
        })
        .collect();
    let mut args = vec!["check", area];
    for p in &paths {
        args.extend(["--from", p.as_str()]);
    }
    args.extend(extra);
    args.extend(["-o", "json", "--fail-on", "never"]);
    let doc = sb.run(&args).ok().json();
    assert_eq!(doc["command"], "check");
    let mut ids: Vec<String> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["rule_id"].as_str().unwrap().to_owned())
        .collect();
    ids.sort();
    ids
}

/// A case: the check area, the fixture files, the rule ids it must report (no others).
type Case<'a> = (&'a str, &'a [&'a str], &'a [&'a str]);

/// Runs each case and compares the rule ids found.
fn expect_rules(name: &str, cases: &[Case<'_>]) {
    let sb = Sandbox::new(name);
    for (area, files, expected) in cases {
        let got = rule_ids(&sb, area, files, &[]);
        assert_eq!(&got, expected, "check {area} --from {files:?}");
    }
}

#[test]
fn workspace_and_keyvault_rules_fire_on_problems_only() {
    let pe = "workspace-private-without-approved-endpoint";
    let kv = "keyvault-firewall-blocks-azure-services";
    expect_rules(
        "check-ws-kv",
        &[
            // ARM shape; az ml never prints v1 legacy mode or the connections.
            (
                "workspace",
                &["workspace-arm-v1legacy.json"],
                &["workspace-v1-legacy-mode"],
            ),
            ("workspace", &["workspace-arm-private-no-pe.json"], &[pe]),
            (
                "workspace",
                &["workspace-arm-private-pe-pending.json"],
                &[pe],
            ),
            ("workspace", &["workspace-arm-healthy.json"], &[]),
            ("workspace", &["workspace-azml.json"], &[]),
            (
                "workspace",
                &["compute-arm-failed.json", "workspace-azml.json"],
                &["compute-provisioning-failed"],
            ),
            // ARM, az keyvault show, az keyvault network-rule list.
            ("keyvault", &["keyvault-arm-deny-no-bypass.json"], &[kv]),
            ("keyvault", &["keyvault-az-deny-no-bypass.json"], &[kv]),
            ("keyvault", &["keyvault-networkrules.json"], &[kv]),
            ("keyvault", &["keyvault-az-healthy.json"], &[]),
        ],
    );
}

#[test]
fn private_endpoint_rules_fire_on_problems_only() {
    let egress = "registry-egress-connection-not-approved";
    let no_conn = "deployment-egress-private-no-connection";
    expect_rules(
        "check-pe",
        &[
            // The egress connection in an az list, an ARM list and an ARM registry.
            (
                "private-endpoint",
                &["acr-pe-connections-az-pending.json"],
                &[egress],
            ),
            (
                "private-endpoint",
                &["acr-arm-private-egress-pending.json"],
                &[egress],
            ),
            (
                "private-endpoint",
                &["acr-pe-connections-arm-approved.json"],
                &[],
            ),
            ("private-endpoint", &["acr-az-private.json"], &[]),
            (
                "private-endpoint",
                &["storage-arm-private.json", "storage-az-public.json"],
                &[],
            ),
            // Deployment egress against the registry, in both shapes of each.
            (
                "private-endpoint",
                &["deployment-azml-failed.json", "acr-az-private.json"],
                &[no_conn],
            ),
            (
                "private-endpoint",
                &[
                    "deployment-arm-failed.json",
                    "acr-arm-private-egress-pending.json",
                ],
                &[no_conn, egress],
            ),
            (
                "private-endpoint",
                &["deployment-azml-healthy.json", "acr-az-private.json"],
                &["deployment-egress-public-registry-private"],
            ),
            ("private-endpoint", &["deployment-azml-healthy.json"], &[]),
            // Deployment egress against the storage account.
            (
                "private-endpoint",
                &["deployment-azml-failed.json", "storage-arm-private.json"],
                &["deployment-egress-private-storage-no-connection"],
            ),
            (
                "private-endpoint",
                &["deployment-azml-failed.json", "storage-az-public.json"],
                &[],
            ),
            // Private DNS: the inference wildcard record.
            (
                "private-endpoint",
                &["dns-records-az.json"],
                &["private-dns-no-inference-record"],
            ),
            ("private-endpoint", &["dns-records-arm-complete.json"], &[]),
        ],
    );
}

#[test]
fn deployment_rules_fire_on_problems_only() {
    let failed = "deployment-provisioning-failed";
    expect_rules(
        "check-dep",
        &[
            ("deployment", &["deployment-arm-failed.json"], &[failed]),
            // The Resource Manager shape of a Kubernetes deployment's requests and limits
            // (`containerResourceRequirements`), as live `check -e` saves it.
            (
                "deployment",
                &["deployment-arm-kubernetes-requests-over-limits.json"],
                &["deployment-spec-requests-over-limits"],
            ),
            ("deployment", &["deployment-azml-failed.json"], &[failed]),
            (
                "deployment",
                &["deployment-azml-enum-artefact.json"],
                &[failed],
            ),
            (
                "deployment",
                &["deployment-arm-updating.json"],
                // Its last change was days before any run of this test: stuck.
                &[
                    "deployment-provisioning-in-progress",
                    "deployment-provisioning-stuck",
                ],
            ),
            (
                "deployment",
                &["deployment-azml-bad-settings.json"],
                &[
                    "deployment-liveness-gives-up-before-readiness",
                    "deployment-probe-timeout-not-below-period",
                    "deployment-request-timeout-over-limit",
                ],
            ),
            ("deployment", &["deployment-azml-healthy.json"], &[]),
            (
                "deployment",
                &["endpoint-arm-zero-traffic.json"],
                &["endpoint-deployment-gets-no-traffic"],
            ),
            (
                "deployment",
                &["endpoint-azml-no-traffic.json"],
                &["endpoint-routes-no-traffic"],
            ),
            ("deployment", &["endpoint-azml-healthy.json"], &[]),
        ],
    );
}

#[test]
fn the_other_shape_of_each_deployment_rule() {
    let sb = Sandbox::new("check-shapes");
    let dep = "/subscriptions/s/resourceGroups/rg/providers/Microsoft.MachineLearningServices/workspaces/ws/onlineEndpoints/ep/deployments/blue";
    // ARM: ISO 8601 durations, the instance count in sku.capacity.
    let arm = sb.write(
        "work/arm.json",
        &format!(
            r#"{{"id": "{dep}", "type": "Microsoft.MachineLearningServices/workspaces/onlineEndpoints/deployments", "sku": {{"capacity": 1}},
  "properties": {{"provisioningState": "Creating", "requestSettings": {{"requestTimeout": "PT3M0.5S", "maxConcurrentRequestsPerInstance": 1}},
    "livenessProbe": {{"initialDelay": "PT10S", "period": "PT10S", "timeout": "PT10S", "failureThreshold": 3}},
    "readinessProbe": {{"initialDelay": "PT10M", "period": "PT10S", "timeout": "PT2S", "failureThreshold": 30}}}}}}"#
        ),
    );
    let arm = arm.to_string_lossy().into_owned();
    let run = sb
        .run(&[
            "check",
            "deployment",
            "--from",
            &arm,
            "--rps",
            "1",
            "-o",
            "json",
            "--fail-on",
            "never",
        ])
        .ok()
        .json();
    let mut ids: Vec<&str> = run["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["rule_id"].as_str().unwrap())
        .collect();
    ids.sort_unstable();
    assert_eq!(
        ids,
        [
            "deployment-instances-below-rps",
            "deployment-liveness-gives-up-before-readiness",
            "deployment-probe-timeout-not-below-period",
            "deployment-provisioning-in-progress",
            "deployment-request-timeout-over-limit",
        ]
    );
    // az ml shape of the traffic rules and the in-progress state.
    let ep = sb.write(
        "work/ep.json",
        r#"{"auth_mode": "key", "id": "/subscriptions/s/resourceGroups/rg/providers/Microsoft.MachineLearningServices/workspaces/ws/onlineEndpoints/ep",
  "mirror_traffic": {}, "name": "ep", "provisioning_state": "Updating", "scoring_uri": "https://ep.westeurope.inference.ml.azure.com/score",
  "traffic": {"blue": 100, "green": 0}}"#,
    );
    let ids = rule_ids(&sb, "deployment", &[ep.to_str().unwrap()], &[]);
    assert_eq!(
        ids,
        [
            "deployment-provisioning-in-progress",
            "endpoint-deployment-gets-no-traffic"
        ]
    );
}

#[test]
fn findings_name_the_resource_and_print_runnable_commands() {
    let sb = Sandbox::new("check-commands");
    let kv = res("keyvault-az-deny-no-bypass.json");
    let run = sb.run(&["check", "keyvault", "--from", &kv]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    has(
        &run.stdout,
        "az keyvault update -n kv-mlw-prod -g rg-ml-prod --subscription 00000000-0000-0000-0000-000000000000 --bypass AzureServices",
    );
    // The line of the key, and the key itself.
    has(&run.stdout, "keyvault-az-deny-no-bypass.json:17");
    has(&run.stdout, "/properties/networkAcls/bypass: \"None\"");
    has(&run.stdout, "key-vault kv-mlw-prod (ARM shape)");

    let pe = res("acr-pe-connections-az-pending.json");
    let run = sb.run(&["check", "private-endpoint", "--from", &pe]);
    has(
        &run.stdout,
        "az network private-endpoint-connection approve --id /subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-ml-prod/providers/Microsoft.ContainerRegistry/registries/crmlprod/privateEndpointConnections/crmlprod.5e8d2f7a-0b4c-4a19-9d36-e1c7f2a8b054 --description",
    );
    assert!(!run.stdout.contains("{connection_id}"), "{}", run.stdout);
}

#[test]
fn sarif_and_junit_point_at_the_line_of_the_key() {
    let sb = Sandbox::new("check-sarif");
    let kv = res("keyvault-arm-deny-no-bypass.json");
    let sarif: serde_json::Value = serde_json::from_str(
        &sb.run(&[
            "check",
            "keyvault",
            "--from",
            &kv,
            "-o",
            "sarif",
            "--fail-on",
            "never",
        ])
        .ok()
        .stdout,
    )
    .unwrap();
    let result = &sarif["runs"][0]["results"][0];
    assert_eq!(result["ruleId"], "keyvault-firewall-blocks-azure-services");
    let loc = &result["locations"][0];
    assert!(
        loc["physicalLocation"]["artifactLocation"]["uri"]
            .as_str()
            .unwrap()
            .ends_with("keyvault-arm-deny-no-bypass.json")
    );
    // The line of "defaultAction" in the file, found independently.
    let text = std::fs::read_to_string(&kv).unwrap();
    let line = text
        .lines()
        .position(|l| l.contains("\"defaultAction\""))
        .unwrap()
        + 1;
    assert_eq!(loc["physicalLocation"]["region"]["startLine"], line);
    assert_eq!(
        loc["logicalLocations"][0]["fullyQualifiedName"],
        "/properties/networkAcls/defaultAction"
    );
    let junit = sb
        .run(&["check", "keyvault", "--from", &kv, "-o", "junit"])
        .stdout
        .clone();
    let doc = roxmltree::Document::parse(&junit).unwrap();
    let failure = doc
        .descendants()
        .find(|n| n.has_tag_name("failure"))
        .expect("a failure");
    let body = failure.text().unwrap();
    assert!(
        body.contains(&format!(
            "keyvault-arm-deny-no-bypass.json:{line} (/properties/networkAcls/defaultAction): \"Deny\""
        )),
        "{body}"
    );
}

#[test]
fn reads_standard_input() {
    let sb = Sandbox::new("check-stdin");
    let mut child = sb
        .command(&[
            "check",
            "workspace",
            "--from",
            "-",
            "-o",
            "json",
            "--fail-on",
            "never",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let text = std::fs::read(res("workspace-arm-v1legacy.json")).unwrap();
    child.stdin.take().unwrap().write_all(&text).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["findings"][0]["rule_id"], "workspace-v1-legacy-mode");
    assert_eq!(doc["findings"][0]["evidence"][0]["path"], "<stdin>");
    assert_eq!(doc["resources"][0]["kind"], "workspace");
}

#[test]
fn bad_inputs_get_one_clear_sentence() {
    let sb = Sandbox::new("check-bad");
    // Truncated JSON: file, line and column.
    let run = sb.run(&["check", "workspace", "--from", &res("truncated.json")]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("truncated.json:16:46: not valid JSON: EOF while parsing a string"),
        "{}",
        run.stderr
    );
    // The wrong kind for the check.
    sb.run(&["check", "keyvault", "--from", &res("workspace-azml.json")])
        .usage_error(&[
            "check keyvault needs a key-vault resource",
            "workspace (",
            "az keyvault show",
        ]);
    // An empty list and unknown JSON: not analysed, with why; nothing analysed is exit 2.
    let run = sb.run(&[
        "check",
        "all",
        "--from",
        &res("acr-pe-connections-empty.json"),
        "--from",
        &res("unknown.json"),
        "-o",
        "json",
    ]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    // Nothing analysed: no report on stdout; each reason on stderr.
    assert_eq!(run.stdout, "");
    assert!(
        run.stderr
            .contains("acr-pe-connections-empty.json: not analysed: an empty JSON list"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("not a resource amldoctor knows"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("none of the inputs could be analysed"));
    // An error body is not a resource.
    let run = sb.run(&[
        "check",
        "all",
        "--from",
        &res("arm-error.json"),
        "-o",
        "json",
    ]);
    has(&run.stderr, "an error response");
    // --rps belongs to the deployment check.
    sb.run(&[
        "check",
        "keyvault",
        "--from",
        &res("keyvault-az-healthy.json"),
        "--rps",
        "5",
    ])
    .usage_error(&["--rps", "check deployment"]);
    // Without --from, the resources are read from Azure: that needs the workspace.
    sb.run(&["check", "keyvault"])
        .usage_error(&["check needs the subscription: pass --subscription"]);
    sb.run(&["check", "deployment"])
        .usage_error(&["pass -e ENDPOINT", "--from"]);
    // A log is not JSON.
    let log = sb.write("work/x.log", "2024-01-01 INFO hello\n");
    let run = sb.run(&[
        "check",
        "all",
        "--from",
        log.to_str().unwrap(),
        "-o",
        "json",
    ]);
    assert_eq!(run.code, 2);
    has(&run.stderr, "x.log: not one JSON document");
    // Two documents in one file (`(az keyvault show; az acr show) > f.json`): the same.
    let two = sb.write(
        "work/two.json",
        &format!(
            "{}\n{}",
            fixture_text("keyvault-az-healthy.json"),
            fixture_text("acr-az-private.json")
        ),
    );
    let run = sb.run(&["check", "all", "--from", two.to_str().unwrap()]);
    assert_eq!(run.code, 2);
    has(&run.stderr, "save each az output to its own file");
    // In a folder, a file that is not JSON is only passed over.
    let dir = folder(
        &sb,
        "withreadme",
        &[
            ("README.md", "# notes\n".to_owned()),
            ("kv.json", fixture_text("keyvault-az-healthy.json")),
        ],
    );
    let run = sb.run(&["check", "all", "--from", &dir]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    has(&run.stdout, "not analysed: not JSON");
}

#[test]
fn a_fifty_megabyte_document_is_read_in_one_pass() {
    let sb = Sandbox::new("check-big");
    // A workspace whose tags hold 50 MB: parsed, checked, and the finding still points
    // at the right line.
    let mut text = String::from(
        "{\n  \"id\": \"/subscriptions/s/resourceGroups/rg/providers/Microsoft.MachineLearningServices/workspaces/ws\",\n  \"tags\": {\n",
    );
    let filler = "x".repeat(100);
    for i in 0..480_000 {
        let _ = writeln!(text, "    \"t{i}\": \"{filler}\",");
    }
    text.push_str("    \"last\": \"\"\n  },\n  \"properties\": {\"v1LegacyMode\": true}\n}\n");
    assert!(text.len() > 50_000_000);
    let path = sb.write("work/big.json", &text);
    let doc = sb
        .run(&[
            "check",
            "workspace",
            "--from",
            path.to_str().unwrap(),
            "-o",
            "json",
            "--fail-on",
            "never",
        ])
        .ok()
        .json();
    assert_eq!(doc["findings"][0]["rule_id"], "workspace-v1-legacy-mode");
    assert_eq!(doc["findings"][0]["evidence"][0]["line"], 480_006);
}

#[test]
fn diagnose_reads_resources_next_to_logs() {
    let sb = Sandbox::new("check-mixed");
    let dir = sb.root.join("work/bundle");
    std::fs::create_dir_all(&dir).unwrap();
    for f in [
        "workspace-arm-v1legacy.json",
        "keyvault-networkrules.json",
        "arm-error.json",
    ] {
        std::fs::copy(res(f), dir.join(f)).unwrap();
    }
    std::fs::write(
        dir.join("create.log"),
        "ERROR: (BadRequest) The request is invalid.\nCode: BadRequest\nMessage: V1LegacyMode == true, which is not supported for managed online endpoints\n",
    )
    .unwrap();
    // JSON lines are a log, not a document.
    std::fs::write(dir.join("events.json"), "{\"a\": 1}\n{\"a\": 2}\n").unwrap();
    let doc = sb.diagnose_json(&[dir.to_str().unwrap()]);
    let ids: Vec<&str> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["rule_id"].as_str().unwrap())
        .collect();
    assert!(ids.contains(&"workspace-v1-legacy-mode"), "{ids:?}");
    assert!(
        ids.contains(&"keyvault-firewall-blocks-azure-services"),
        "{ids:?}"
    );
    // The log finding is linked to the workspace setting that causes it.
    let log = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule_id"] == "v1-legacy-mode")
        .expect("the log rule fired");
    assert_eq!(log["caused_by"][0], "workspace-v1-legacy-mode");
    let inputs: Vec<&str> = doc["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["path"].as_str().unwrap().rsplit('/').next().unwrap())
        .collect();
    assert_eq!(inputs, ["arm-error.json", "create.log", "events.json"]);
    let resources: Vec<&str> = doc["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["kind"].as_str().unwrap())
        .collect();
    assert_eq!(resources, ["key-vault", "workspace"]);
    // A broken .json file among the inputs is read as text, with a warning saying
    // where it broke: a cut-off error body still names its cause.
    std::fs::write(
        dir.join("cut.json"),
        "{\"error\": {\"code\": \"ResourceNotReady\", \"message\": \"User container has crashed or terminated",
    )
    .unwrap();
    let run = sb.run(&[
        "diagnose",
        dir.to_str().unwrap(),
        "-o",
        "json",
        "--fail-on",
        "never",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    has(&run.stderr, "cut.json:1:");
    has(
        &run.stderr,
        "not valid JSON: EOF while parsing a string; it was read as text",
    );
    let ids: Vec<String> = run.json()["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["rule_id"].as_str().unwrap().to_owned())
        .collect();
    assert!(ids.iter().any(|i| i == "resource-not-ready"), "{ids:?}");
}

/// `check AREA --from FROM -o json --fail-on never`, which must exit 0: the document.
fn check_json(sb: &Sandbox, area: &str, from: &str) -> serde_json::Value {
    sb.run(&[
        "check",
        area,
        "--from",
        from,
        "-o",
        "json",
        "--fail-on",
        "never",
    ])
    .ok()
    .json()
}

/// Writes `docs` (name, JSON) into a fresh folder of the sandbox and returns its path.
fn folder(sb: &Sandbox, name: &str, docs: &[(&str, String)]) -> String {
    let dir = sb.root.join("work").join(name);
    std::fs::create_dir_all(&dir).unwrap();
    for (file, text) in docs {
        std::fs::write(dir.join(file), text).unwrap();
    }
    dir.to_string_lossy().into_owned()
}

fn fixture_text(name: &str) -> String {
    std::fs::read_to_string(res(name)).unwrap()
}

const DEP_ID: &str = "/subscriptions/11111111-1111-1111-1111-111111111111/resourceGroups/rg1/providers/Microsoft.MachineLearningServices/workspaces/ws1/onlineEndpoints";

#[test]
fn an_area_runs_only_its_own_checks() {
    let sb = Sandbox::new("check-area");
    let dir = folder(
        &sb,
        "mixed",
        &[
            ("kv.json", fixture_text("keyvault-az-healthy.json")),
            (
                "dep.json",
                fixture_text("deployment-azml-bad-settings.json"),
            ),
        ],
    );
    let run = sb.run(&["check", "keyvault", "--from", &dir, "-o", "junit"]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert!(!run.stdout.contains("deployment-"), "{}", run.stdout);
    assert!(
        run.stdout.contains("failures=\"0\" errors=\"0\""),
        "{}",
        run.stdout
    );
}

#[test]
fn hostile_documents_neither_crash_nor_leak() {
    let sb = Sandbox::new("check-hostile");
    // Probe numbers that overflow: no finding from them, no crash.
    let probes = format!(
        r#"{{"id": "{DEP_ID}/ep/deployments/blue", "endpoint_name": "ep", "instance_type": "x",
  "liveness_probe": {{"initial_delay": 1, "period": 10, "failure_threshold": 18446744073709551615}},
  "readiness_probe": {{"initial_delay": 5}}}}"#
    );
    // Terminal escapes in keys and names, secrets in environment variables.
    let endpoint = format!(
        r#"{{"id": "{DEP_ID}/ep", "name": "ep\u001b[2J", "scoring_uri": "u", "auth_mode": "key",
  "traffic": {{"bl\u001b[31mue": 0, "green": 100}}}}"#
    );
    let dir = folder(&sb, "h", &[("d.json", probes), ("e.json", endpoint)]);
    let rules = sb.write(
        "work/rules/env.yaml",
        r#"id: team-env-captured
title: Environment variables are set
severity: info
family: deployment
applies-to: [online-deployment]
check: deployment
match:
  fields:
    all:
      - field: environment_variables
        exists: true
        capture: env
remediation: Look at them.
examples:
  match: ['{"endpoint_name": "e", "instance_type": "x", "environment_variables": {"A": "1"}}']
  no-match: ['{"endpoint_name": "e", "instance_type": "x"}']
"#,
    );
    let secret_dep = format!(
        r#"{{"id": "{DEP_ID}/ep/deployments/green", "endpoint_name": "ep", "instance_type": "x",
  "environment_variables": {{"HF_TOKEN": "hf_SECRETVALUE123", "DB": {{"password": "p4ssw0rd!"}}, "MODE": "fast"}}}}"#
    );
    std::fs::write(sb.root.join("work/h/s.json"), secret_dep).unwrap();
    let rules_dir = rules.parent().unwrap().to_str().unwrap().to_owned();
    for format in ["table", "json", "sarif", "junit", "markdown"] {
        let run = sb.run(&[
            "check",
            "deployment",
            "--from",
            &dir,
            "--rules",
            &rules_dir,
            "-o",
            format,
            "--fail-on",
            "never",
        ]);
        assert_eq!(run.code, 0, "{format}: {}", run.stderr);
        for secret in ["hf_SECRETVALUE123", "p4ssw0rd!"] {
            assert!(!run.stdout.contains(secret), "{format} shows {secret}");
        }
        assert!(
            !run.stdout.contains('\u{1b}'),
            "{format} passes an escape through"
        );
        if format == "json" {
            // The overflowing probe numbers gave no finding.
            assert!(!run.stdout.contains("liveness-gives-up"), "{}", run.stdout);
        }
    }
}

#[test]
fn related_resources_must_belong_together() {
    let sb = Sandbox::new("check-related");
    let dep = |sub: &str, ep: &str, egress: &str, state: &str| {
        format!(
            r#"{{"id": "/subscriptions/{sub}/resourceGroups/rg/providers/Microsoft.MachineLearningServices/workspaces/ws/onlineEndpoints/{ep}/deployments/blue",
  "endpoint_name": "{ep}", "instance_type": "x", "egress_public_network_access": "{egress}", "provisioning_state": "{state}"}}"#
        )
    };
    let registry = |sub: &str| {
        format!(
            r#"{{"id": "/subscriptions/{sub}/resourceGroups/rgB/providers/Microsoft.ContainerRegistry/registries/acrB",
  "type": "Microsoft.ContainerRegistry/registries", "publicNetworkAccess": "Disabled", "privateEndpointConnections": []}}"#
        )
    };
    let a = "aaaaaaaa-0000-0000-0000-000000000000";
    let b = "bbbbbbbb-0000-0000-0000-000000000000";
    // A private registry of another subscription says nothing about this deployment.
    let dir = folder(
        &sb,
        "apart",
        &[
            ("d.json", dep(a, "ep", "enabled", "Succeeded")),
            ("r.json", registry(b)),
        ],
    );
    assert!(rule_ids(&sb, "private-endpoint", &[&dir], &[]).is_empty());
    let dir = folder(
        &sb,
        "together",
        &[
            ("d.json", dep(a, "ep", "enabled", "Succeeded")),
            ("r.json", registry(a)),
        ],
    );
    assert_eq!(
        rule_ids(&sb, "private-endpoint", &[&dir], &[]),
        ["deployment-egress-public-registry-private"]
    );
    // Two failed deployments of two endpoints: the printed command names one of them
    // whole, never the endpoint of one and the deployment of the other.
    let dir = folder(
        &sb,
        "two",
        &[
            ("1.json", dep(a, "ep1", "enabled", "Failed")),
            ("2.json", dep(b, "ep2", "enabled", "Failed")),
        ],
    );
    let run = sb.run(&["check", "deployment", "--from", &dir]);
    assert!(
        run.stdout.contains("-n blue -e ep1 -g rg -w ws"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("-e ep2"), "{}", run.stdout);
}

#[test]
fn with_finding_sees_findings_of_resource_rules() {
    let sb = Sandbox::new("check-with-finding");
    let rules = sb.write(
        "work/rules/kv-and-ws.yaml",
        r#"id: team-private-ws-and-kv-firewall
title: A private workspace whose Key Vault also blocks trusted services
severity: warning
family: network
applies-to: [workspace]
check: workspace
match:
  fields:
    all:
      - field: properties.publicNetworkAccess | public_network_access
        equals: Disabled
  with-finding: [keyvault-firewall-blocks-azure-services]
remediation: Fix the vault first.
examples:
  match: ['{"discovery_url": "https://x", "public_network_access": "Disabled"}']
  no-match: ['{"discovery_url": "https://x", "public_network_access": "Enabled"}']
"#,
    );
    let rules_dir = rules.parent().unwrap().to_str().unwrap().to_owned();
    let dir = folder(
        &sb,
        "wk",
        &[
            ("ws.json", fixture_text("workspace-azml.json")),
            ("kv.json", fixture_text("keyvault-az-deny-no-bypass.json")),
        ],
    );
    let ids = rule_ids(&sb, "all", &[&dir], &["--rules", &rules_dir]);
    assert!(
        ids.contains(&"team-private-ws-and-kv-firewall".to_owned()),
        "{ids:?}"
    );
    let dir = folder(
        &sb,
        "w",
        &[("ws.json", fixture_text("workspace-azml.json"))],
    );
    let ids = rule_ids(&sb, "all", &[&dir], &["--rules", &rules_dir]);
    assert!(
        !ids.contains(&"team-private-ws-and-kv-firewall".to_owned()),
        "{ids:?}"
    );
}

#[test]
fn many_resources_one_finding_with_bounded_evidence() {
    let sb = Sandbox::new("check-many");
    let items: Vec<String> = (0..3000)
        .map(|i| {
            format!(
                r#"{{"id": "/subscriptions/s/resourceGroups/rg/providers/Microsoft.MachineLearningServices/workspaces/ws/privateEndpointConnections/pe{i}", "properties": {{"privateLinkServiceConnectionState": {{"status": "Pending", "description": ""}}}}}}"#
            )
        })
        .collect();
    let dir = folder(
        &sb,
        "many",
        &[("pe.json", format!("[\n{}\n]", items.join(",\n")))],
    );
    let doc = check_json(&sb, "private-endpoint", &dir);
    let f = &doc["findings"][0];
    assert_eq!(f["rule_id"], "private-endpoint-connection-not-approved");
    assert_eq!(f["count"], 3000);
    assert_eq!(f["evidence"].as_array().unwrap().len(), 5);
    assert_eq!(f["evidence"][0]["line"], 2);
}

#[test]
fn input_errors_show_in_junit_as_errors() {
    let sb = Sandbox::new("check-junit-errors");
    let run = sb.run(&[
        "check",
        "all",
        "--from",
        &res("keyvault-az-healthy.json"),
        "--from",
        &res("truncated.json"),
        "-o",
        "junit",
    ]);
    assert_eq!(run.code, 2);
    let doc = roxmltree::Document::parse(&run.stdout).unwrap();
    let root = doc.root_element();
    assert_eq!(root.attribute("errors"), Some("1"), "{}", run.stdout);
    assert!(doc.descendants().any(|n| n.has_tag_name("error")));
}

#[test]
fn a_zone_shared_by_many_workspaces_names_each_missing_record() {
    let sb = Sandbox::new("check-dns-many");
    let mut records = Vec::new();
    for i in 0..1500u32 {
        let guid = format!("{i:08x}-0000-4000-8000-000000000000");
        records.push(format!(
            r#"{{"name": "{guid}.workspace.westeurope", "type": "Microsoft.Network/privateDnsZones/A", "aRecords": [{{"ipv4Address": "10.0.0.1"}}]}}"#
        ));
        if i % 100 != 7 {
            records.push(format!(
                r#"{{"name": "*.{guid}.inference.westeurope", "type": "Microsoft.Network/privateDnsZones/A", "aRecords": [{{"ipv4Address": "10.0.0.2"}}]}}"#
            ));
        }
    }
    let dir = folder(
        &sb,
        "zone",
        &[("records.json", format!("[{}]", records.join(",\n")))],
    );
    let doc = check_json(&sb, "private-endpoint", &dir);
    let f = &doc["findings"][0];
    assert_eq!(f["rule_id"], "private-dns-no-inference-record");
    assert_eq!(f["count"], 15);
    assert_eq!(
        f["facts"]["workspace_guid"],
        "00000007-0000-4000-8000-000000000000"
    );
}

#[test]
fn pending_connections_in_the_az_shape() {
    let sb = Sandbox::new("check-pe-az");
    // `az network private-endpoint-connection list` for a Key Vault, flattened by az.
    let list = r#"[
  {
    "id": "/subscriptions/s/resourceGroups/rg/providers/Microsoft.KeyVault/vaults/kv1/privateEndpointConnections/pe-kv",
    "name": "pe-kv",
    "privateEndpoint": {"id": "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/privateEndpoints/pe-kv"},
    "privateLinkServiceConnectionState": {"actionsRequired": "None", "description": "", "status": "Rejected"},
    "provisioningState": "Succeeded",
    "type": "Microsoft.KeyVault/vaults/privateEndpointConnections"
  }
]"#;
    let dir = folder(&sb, "pe", &[("pe.json", list.to_owned())]);
    let run = sb.run(&["check", "private-endpoint", "--from", &dir]);
    assert_eq!(
        run.code, 0,
        "a warning does not fail the gate: {}",
        run.stdout
    );
    has(&run.stdout, "private-endpoint-connection-not-approved");
    has(
        &run.stdout,
        "/0/privateLinkServiceConnectionState/status: \"Rejected\"",
    );
    has(
        &run.stdout,
        "az network private-endpoint-connection approve --id /subscriptions/s/resourceGroups/rg/providers/Microsoft.KeyVault/vaults/kv1/privateEndpointConnections/pe-kv",
    );
}

#[test]
fn stuck_is_measured_from_the_last_change() {
    // The fixture's last change: 2026-11-20T08:51:44Z.
    let f = res("deployment-arm-updating.json");
    for (now, stuck) in [
        ("2026-11-20T09:30:00Z", false),
        ("2026-11-20T10:00:00Z", true),
    ] {
        let sb = Sandbox::new("check-stuck").env("AMLDOCTOR_NOW", now);
        let ids = rule_ids(&sb, "deployment", &[&f], &[]);
        assert_eq!(
            ids.contains(&"deployment-provisioning-stuck".to_owned()),
            stuck,
            "{now}: {ids:?}"
        );
    }
    let sb = Sandbox::new("check-stuck-bad").env("AMLDOCTOR_NOW", "yesterday");
    sb.run(&["check", "deployment", "--from", &f])
        .usage_error(&["AMLDOCTOR_NOW", "2026-11-30T18:00:00Z"]);
}

#[test]
fn second_review_regressions() {
    let sb = Sandbox::new("check-review2");
    // A private account of the subscription with an approved egress connection may be
    // the workspace's own: an unrelated private account does not make the rule fire.
    let st = |name: &str, approved: bool| {
        let conns = if approved {
            r#"[{"properties": {"privateLinkServiceConnectionState": {"description": "Egress for Microsoft.MachineLearningServices/workspaces/onlineEndpoints", "status": "Approved"}}}]"#
        } else {
            "[]"
        };
        format!(
            r#"{{"id": "/subscriptions/0/resourceGroups/rg/providers/Microsoft.Storage/storageAccounts/{name}", "type": "Microsoft.Storage/storageAccounts", "properties": {{"publicNetworkAccess": "Disabled", "privateEndpointConnections": {conns}}}}}"#
        )
    };
    let dep = r#"{"id": "/subscriptions/0/resourceGroups/rg/providers/Microsoft.MachineLearningServices/workspaces/ws/onlineEndpoints/ep/deployments/blue", "endpoint_name": "ep", "instance_type": "x", "egress_public_network_access": "disabled"}"#;
    let dir = folder(
        &sb,
        "st",
        &[
            ("d.json", dep.to_owned()),
            ("a.json", st("datalake", false)),
            ("b.json", st("wsstore", true)),
        ],
    );
    assert!(rule_ids(&sb, "private-endpoint", &[&dir], &[]).is_empty());
    let dir = folder(
        &sb,
        "st1",
        &[
            ("d.json", dep.to_owned()),
            ("a.json", st("datalake", false)),
        ],
    );
    let run = sb.run(&["check", "private-endpoint", "--from", &dir]);
    has(
        &run.stdout,
        "deployment-egress-private-storage-no-connection",
    );
    // The command names the storage account, not the deployment.
    has(
        &run.stdout,
        "az network private-endpoint-connection list --id /subscriptions/0/resourceGroups/rg/providers/Microsoft.Storage/storageAccounts/datalake",
    );
    // Two registries' pending egress connections: the commands name one registry only.
    let list = r#"[{"id": "/subscriptions/0/resourceGroups/rg/providers/Microsoft.ContainerRegistry/registries/acr1/privateEndpointConnections/pe1", "privateLinkServiceConnectionState": {"description": "Egress for Microsoft.MachineLearningServices/workspaces/onlineEndpoints", "status": "Pending"}}]"#;
    let acr2 = r#"{"id": "/subscriptions/0/resourceGroups/rg/providers/Microsoft.ContainerRegistry/registries/acr2", "type": "Microsoft.ContainerRegistry/registries", "privateEndpointConnections": [{"id": "/subscriptions/0/resourceGroups/rg/providers/Microsoft.ContainerRegistry/registries/acr2/privateEndpointConnections/pe2", "privateLinkServiceConnectionState": {"description": "Egress for Microsoft.MachineLearningServices/workspaces/onlineEndpoints", "status": "Pending"}}]}"#;
    let dir = folder(
        &sb,
        "acr",
        &[("1.json", list.to_owned()), ("2.json", acr2.to_owned())],
    );
    let run = sb.run(&["check", "private-endpoint", "--from", &dir]);
    has(&run.stdout, "-r acr1 ");
    has(
        &run.stdout,
        "registries/acr1/privateEndpointConnections/pe1",
    );
    assert!(
        !run.stdout
            .contains("registries/acr2/privateEndpointConnections/pe2 --description"),
        "{}",
        run.stdout
    );
    // Many zero-traffic deployments: one finding, found without trying every pair.
    let mut traffic: Vec<String> = (0..2000).map(|i| format!("\"z{i}\": 0")).collect();
    traffic.extend((0..2000).map(|i| format!("\"p{i}\": 1")));
    let mirror: Vec<String> = (0..2000).map(|i| format!("\"z{i}\": 5")).collect();
    let ep = format!(
        r#"{{"id": "/subscriptions/0/resourceGroups/rg/providers/Microsoft.MachineLearningServices/workspaces/ws/onlineEndpoints/ep", "scoring_uri": "u", "auth_mode": "key", "traffic": {{{}}}, "mirror_traffic": {{{}}}}}"#,
        traffic.join(", "),
        mirror.join(", ")
    );
    let dir = folder(&sb, "ep", &[("ep.json", ep)]);
    // Every zero deployment is mirrored: nothing to report.
    assert!(rule_ids(&sb, "deployment", &[&dir], &[]).is_empty());
}

#[test]
fn named_groups_of_secret_values_stay_masked() {
    let sb = Sandbox::new("check-group-secret");
    let rules = sb.write(
        "work/rules/tok.yaml",
        r#"id: team-hf-token-set
title: A Hugging Face token is set
severity: info
family: deployment
applies-to: [online-deployment]
check: deployment
match:
  fields:
    all:
      - field: environment_variables.*
        matches: '^(?P<tok>hf_.*)$'
remediation: Rotate it.
commands:
  - 'echo {tok}'
examples:
  match: ['{"endpoint_name": "e", "instance_type": "x", "environment_variables": {"HF_TOKEN": "hf_abc"}}']
  no-match: ['{"endpoint_name": "e", "instance_type": "x"}']
"#,
    );
    let dep = r#"{"id": "/subscriptions/0/resourceGroups/rg/providers/Microsoft.MachineLearningServices/workspaces/ws/onlineEndpoints/ep/deployments/blue", "endpoint_name": "ep", "instance_type": "x", "environment_variables": {"HF_TOKEN": "hf_SuperSecretValue123"}}"#;
    let dir = folder(&sb, "d", &[("d.json", dep.to_owned())]);
    let rules_dir = rules.parent().unwrap().to_str().unwrap().to_owned();
    for format in ["table", "json", "sarif", "markdown"] {
        let run = sb.run(&[
            "check",
            "deployment",
            "--from",
            &dir,
            "--rules",
            &rules_dir,
            "--min-severity",
            "info",
            "-o",
            format,
        ]);
        has(&run.stdout, "team-hf-token-set");
        assert!(
            !run.stdout.contains("SuperSecret"),
            "{format}: {}",
            run.stdout
        );
    }
}

#[test]
fn a_pasted_document_keeps_its_line_numbers() {
    let sb = Sandbox::new("check-pasted");
    // As pasted into an issue or a chat: the command, a fence, the JSON, a fence.
    let pasted = format!(
        "$ az keyvault show -n kv-mlw-prod -o json\n```json\n{}\n```\n",
        fixture_text("keyvault-az-deny-no-bypass.json").trim_end()
    );
    let dir = folder(&sb, "p", &[("kv.txt", pasted)]);
    let run = sb.run(&["check", "keyvault", "--from", &format!("{dir}/kv.txt")]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    // Line 17 of the document is line 19 of the paste.
    has(&run.stdout, "kv.txt:19");
    has(
        &run.stdout,
        "19 | /properties/networkAcls/defaultAction: \"Deny\"",
    );
}

#[test]
fn every_finding_reads_cleanly_over_all_resource_fixtures() {
    let sb = Sandbox::new("check-all-clean");
    let dir = format!("{}/tests/fixtures/resources", env!("CARGO_MANIFEST_DIR"));
    let run = sb.run(&["check", "all", "--from", &dir, "--fail-on", "never"]);
    // The folder holds one deliberately truncated document: exit 2, the rest reported.
    assert_eq!(run.code, 2, "{}", run.stderr);
    let out = &run.stdout;
    // No rule template left in a finding: `mirror_traffic.{zero_deployment}`.
    assert!(!out.contains("{zero_deployment}"), "{out}");
    assert!(!out.contains("its one element"), "{out}");
    // Each file's evidence is shown under one `-->` per finding.
    for finding in out.split("\nerror[").chain(out.split("\nwarning[")) {
        let body = finding.split("\n  fix:").next().unwrap_or_default();
        let heads: Vec<&str> = body
            .lines()
            .filter_map(|l| l.trim_start().strip_prefix("--> "))
            .map(|l| l.split(':').next().unwrap_or(l))
            .collect();
        for h in &heads {
            assert_eq!(
                heads.iter().filter(|x| *x == h).count(),
                1,
                "{h} twice in:\n{body}"
            );
        }
    }
}

#[test]
fn traffic_and_quota_commands_name_what_the_resources_hold() {
    let sb = Sandbox::new("check-traffic-cmds");
    let run = sb.run(&[
        "check",
        "deployment",
        "--from",
        &res("endpoint-azml-no-traffic.json"),
        "--fail-on",
        "never",
    ]);
    let out = crate::flat(&run.ok().stdout);
    has(&out, "--traffic \"blue=100\"");
    let run = sb.run(&[
        "check",
        "deployment",
        "--from",
        &res("endpoint-arm-zero-traffic.json"),
        "--fail-on",
        "never",
    ]);
    let out = crate::flat(&run.ok().stdout);
    assert!(!out.contains("blue=90 blue=10"), "{out}");
    has(&out, "--mirror-traffic \"blue=10\"");
    // A compute cluster's quota is Azure ML's own, not the VM family quota.
    let run = sb.run(&[
        "check",
        "all",
        "--from",
        &res("compute-arm-failed.json"),
        "--fail-on",
        "never",
    ]);
    let out = crate::flat(&run.ok().stdout);
    has(&out, "az ml compute list-usage");
    assert!(!out.contains("az vm list-usage"), "{out}");
}
