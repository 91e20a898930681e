//! Live `logs --out`, `logs --run`, `diagnose -e/--run` and `check` against a fake of
//! Resource Manager, the workspace's data plane and blob storage on 127.0.0.1: the
//! documented JSON shapes, a long-running workspace diagnosis, paged run children and
//! artifact listings, SAS downloads. The real azure_identity managed-identity
//! credential signs in against the fake's token endpoint.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use serde_json::{Value, json};

use super::fake_azure::{Answer, FakeAzure, IDENTITY_HEADER, Request, SUB, TOKEN};
use super::{Sandbox, fixture};

const WS: &str = "/subscriptions/00000000-0000-0000-0000-0000000000aa/resourceGroups/rg1/providers/Microsoft.MachineLearningServices/workspaces/ws1";
/// The SAS signature of every blob URL; it must never be shown or saved.
const SAS_SIG: &str = "SASSIGNATURE0xDEADBEEF";

/// What the fake world holds, and the faults a test turns on.
#[derive(Default)]
struct World {
    port: OnceLock<u16>,
    /// Extra generated run files (`logs/user/stdout/10.0.0.4/process{i}.stdout.txt`).
    extra_files: usize,
    /// Files this big, besides (bytes each), to show downloads stream.
    big_files: Vec<usize>,
    /// Blob downloads of generated files from this index on answer 403.
    fail_from: AtomicUsize,
    /// An artifact whose path climbs out of the output folder.
    escaping: bool,
    /// The Key Vault answers 403.
    vault_forbidden: bool,
    /// The workspace and the endpoint answer 403.
    workspace_forbidden: bool,
    /// The private DNS zone's record sets answer 403 (its links still answer).
    dns_records_forbidden: bool,
    /// Storage waits this long before each blob.
    blob_delay: std::time::Duration,
    /// Workspace diagnosis polls answered so far.
    polls: AtomicUsize,
    /// The workspace diagnosis is followed through `Azure-AsyncOperation`.
    async_operation: bool,
    /// The data plane refuses its own audience's token (the ARM one works).
    ml_token_refused: bool,
    /// The SAS of the first listing's URLs expires before every other file is fetched.
    sas_expires: bool,
    /// Listings of `logs/` so far: each listing's URLs carry its number (`se=` stands in
    /// for the SAS expiry the service signs in).
    listings: AtomicUsize,
    /// The run's files, made once.
    files: OnceLock<Vec<(String, String)>>,
}

impl World {
    fn base(&self) -> String {
        format!("http://127.0.0.1:{}", self.port.get().unwrap())
    }

    /// The failed ParallelRunStep fixture tree and the extra files: (artifact path,
    /// contents).
    fn run_files(&self) -> &[(String, String)] {
        self.files.get_or_init(|| self.make_files())
    }

    fn make_files(&self) -> Vec<(String, String)> {
        let root = PathBuf::from(fixture("prs/failed-job"));
        let mut files = Vec::new();
        walk(&root, &root, &mut files);
        for i in 0..self.extra_files {
            files.push((
                format!("logs/user/stdout/10.0.0.4/process{i:04}.stdout.txt"),
                format!("mini batch {i} done\n"),
            ));
        }
        for (i, size) in self.big_files.iter().enumerate() {
            files.push((format!("logs/perf/10.0.0.4/big{i}.txt"), big_text(*size)));
        }
        if self.escaping {
            files.push(("logs/../../escaped.txt".into(), "x\n".into()));
        }
        files
    }

    fn answer(&self, r: &Request) -> Answer {
        let path = r.target.split('?').next().unwrap_or_default();
        let base = self.base();
        if let Some(rest) = path.strip_prefix("/blob/") {
            return self.blob(r, rest);
        }
        if path == "/discovery" {
            return Answer::json(200, &json!({"api": base, "history": base}).to_string());
        }
        let data_plane = path.starts_with("/history/") || path.starts_with("/artifact/");
        if data_plane
            && self.ml_token_refused
            && r.header("authorization")
                .is_some_and(|a| a.ends_with("-ML"))
        {
            return Answer::json(
                401,
                r#"{"error":{"code":"InvalidToken","message":"audience"}}"#,
            );
        }
        if let Some(rest) = path.strip_prefix(&format!("/history/v1.0{WS}/runs/")) {
            return self.history(r, rest);
        }
        if let Some(rest) = path.strip_prefix(&format!(
            "/artifact/v2.0{WS}/artifacts/prefix/contentinfo/ExperimentRun/"
        )) {
            return self.artifacts(r, rest);
        }
        self.arm(r, path)
    }

    /// The workspace's private DNS zone: one record set and one link still in progress.
    fn private_dns(&self, r: &Request, path: &str) -> Option<Answer> {
        let zone = WS.replace(
            "/providers/Microsoft.MachineLearningServices/workspaces/ws1",
            "/providers/Microsoft.Network/privateDnsZones/privatelink.api.azureml.ms",
        );
        if r.method != "GET" || self.workspace_forbidden {
            return None;
        }
        if path == format!("{zone}/ALL") && self.dns_records_forbidden {
            return Some(Answer::json(
                403,
                r#"{"error":{"code":"AuthorizationFailed","message":"The client does not have authorization to perform action 'Microsoft.Network/privateDnsZones/ALL/read'."}}"#,
            ));
        }
        let body = if path == format!("{zone}/ALL") {
            json!({"value": [
                {"name": "*.3c9a0f4e-6b2d-4f8a-9e1c-5d7b2a8f4c61.inference.westeurope",
                 "type": "Microsoft.Network/privateDnsZones/A",
                 "properties": {"ttl": 10, "aRecords": [{"ipv4Address": "10.0.1.5"}]}}
            ]})
        } else if path == format!("{zone}/virtualNetworkLinks") {
            json!({"value": [
                {"id": format!("{zone}/virtualNetworkLinks/hub-link"),
                 "name": "hub-link", "type": "Microsoft.Network/privateDnsZones/virtualNetworkLinks",
                 "properties": {"registrationEnabled": false, "virtualNetworkLinkState": "InProgress",
                    "provisioningState": "Updating",
                    "virtualNetwork": {"id": format!("/subscriptions/{SUB}/resourceGroups/rg1/providers/Microsoft.Network/virtualNetworks/hub")}}}
            ]})
        } else {
            return None;
        };
        Some(Answer::json(200, &body.to_string()))
    }

    fn arm(&self, r: &Request, path: &str) -> Answer {
        if let Some(answer) = self.private_dns(r, path) {
            return answer;
        }
        let ok = |file: &str, patch: &dyn Fn(&mut Value)| {
            let mut v: Value =
                serde_json::from_str(&std::fs::read_to_string(fixture(file)).unwrap()).unwrap();
            patch(&mut v);
            Answer::json(200, &v.to_string())
        };
        let base = self.base();
        let ep = format!("{WS}/onlineEndpoints/ep1");
        let forbidden = || {
            Answer::json(
                403,
                r#"{"error":{"code":"AuthorizationFailed","message":"The client does not have authorization to perform action 'read'."}}"#,
            )
        };
        match (r.method.as_str(), path) {
            ("GET", p) if self.workspace_forbidden && (p == WS || p == ep) => forbidden(),
            ("GET", p) if p == WS => ok("resources/workspace-arm-private-pe-pending.json", &|v| {
                v["properties"]["discoveryUrl"] = json!(format!("{base}/discovery"));
                v["properties"]["keyVault"] = json!(format!(
                    "/subscriptions/{SUB}/resourcegroups/rg1/providers/microsoft.keyvault/vaults/kv1"
                ));
                v["properties"]["containerRegistry"] = json!(format!(
                    "/subscriptions/{SUB}/resourceGroups/rg1/providers/Microsoft.ContainerRegistry/registries/acr1"
                ));
                v["properties"]["storageAccount"] = json!(format!(
                    "/subscriptions/{SUB}/resourceGroups/rg1/providers/Microsoft.Storage/storageAccounts/st1"
                ));
            }),
            ("GET", p) if p == ep => ok("resources/endpoint-arm-zero-traffic.json", &|_| {}),
            ("GET", p) if p == format!("{ep}/deployments") => {
                Answer::json(200, r#"{"value": [{"name": "blue"}]}"#)
            }
            ("GET", p) if p == format!("{ep}/deployments/blue") => {
                ok("resources/deployment-arm-failed.json", &|_| {})
            }
            // Resource Manager's answer for a deployment that does not exist.
            ("GET", p) if p.starts_with(&format!("{ep}/deployments/")) && !p.contains("/blue") => {
                let name = p.rsplit('/').next().unwrap();
                Answer::json(
                    404,
                    &json!({"error": {"code": "ResourceNotFound", "message": format!(
                        "The Resource 'Microsoft.MachineLearningServices/workspaces/ws1/onlineEndpoints/ep1/deployments/{name}' under resource group 'rg1' was not found. For more details please go to https://aka.ms/ARMResourceNotFoundFix"
                    )}})
                    .to_string(),
                )
            }
            ("POST", p) if p == format!("{ep}/deployments/blue/getLogs") => {
                let body: Value = serde_json::from_str(&r.body).unwrap();
                let file = if body["containerType"] == "InferenceServer" {
                    "logs/server-0.7.7-init-failure.log"
                } else {
                    "logs/server-0.6.1-healthy.log"
                };
                let text = std::fs::read_to_string(fixture(file)).unwrap();
                Answer::json(200, &json!({ "content": text }).to_string())
            }
            ("GET", p) if p.ends_with("/vaults/kv1") => {
                if self.vault_forbidden {
                    return refused("Microsoft.KeyVault/vaults/read");
                }
                ok("resources/keyvault-arm-deny-no-bypass.json", &|_| {})
            }
            // The registry and the storage account by the ids the workspace names, as
            // the ARM GETs of Microsoft.ContainerRegistry and Microsoft.Storage answer
            // (fixtures shaped on the specs' RegistryGet / StorageAccountGetProperties
            // examples): both private, the registry's egress connection pending.
            ("GET", p) if p.ends_with("/registries/acr1") => {
                if self.vault_forbidden {
                    return refused("Microsoft.ContainerRegistry/registries/read");
                }
                ok("resources/acr-arm-private-egress-pending.json", &|_| {})
            }
            ("GET", p) if p.ends_with("/storageAccounts/st1") => {
                if self.vault_forbidden {
                    return refused("Microsoft.Storage/storageAccounts/read");
                }
                ok("resources/storage-arm-private.json", &|_| {})
            }
            ("GET", p) if p.ends_with("/registries/acr1/privateEndpointConnections") => {
                ok("resources/acr-pe-connections-arm-approved.json", &|_| {})
            }
            ("POST", p) if p == format!("{WS}/diagnose") && self.async_operation => {
                Answer::json(202, "")
                    .with_header(
                        "Azure-AsyncOperation",
                        &format!("{base}/operations/status-1?api-version=2024-10-01"),
                    )
                    .with_header(
                        "Location",
                        &format!("{base}/operations/diag-1?api-version=2024-10-01"),
                    )
                    .with_header("Retry-After", "0")
            }
            ("GET", "/operations/status-1") => {
                let n = self.polls.fetch_add(1, Ordering::SeqCst);
                let status = if n == 0 { "InProgress" } else { "Succeeded" };
                Answer::json(200, &json!({"status": status}).to_string())
                    .with_header("Retry-After", "0")
            }
            ("POST", p) if p == format!("{WS}/diagnose") => Answer::json(202, "")
                .with_header(
                    "Location",
                    &format!("{base}/operations/diag-1?api-version=2024-10-01"),
                )
                .with_header("Retry-After", "0"),
            ("GET", "/operations/diag-1") => {
                if !self.async_operation && self.polls.fetch_add(1, Ordering::SeqCst) == 0 {
                    return Answer::json(202, "").with_header("Retry-After", "0");
                }
                Answer::json(200, &json!({"value": {
                    "userDefinedRouteResults": [], "networkSecurityRuleResults": [],
                    "dnsResolutionResults": [{"code": "CustomDNSInUse", "level": "Warning",
                        "message": "A custom DNS server is in use; forward privatelink.api.azureml.ms to 168.63.129.16."}],
                    "keyVaultResults": [], "storageAccountResults": [], "otherResults": []}}).to_string())
            }
            _ => Answer::json(
                404,
                r#"{"error":{"code":"ResourceNotFound","message":"not in the fake"}}"#,
            ),
        }
    }

    fn history(&self, r: &Request, rest: &str) -> Answer {
        match rest {
            "pipe-1" => Answer::json(
                200,
                r#"{"runId": "pipe-1", "runType": "azureml.PipelineRun", "status": "Failed"}"#,
            ),
            // A pipeline whose ParallelRunStep sits in a nested pipeline component, as a
            // step the service reused from an earlier run: run history marks it with
            // the `azureml.isreused` and `azureml.reusedrunid` properties (the names
            // azure-ai-ml reads) and gives it no logs of its own.
            "pipe-2" => Answer::json(
                200,
                r#"{"runId": "pipe-2", "runType": "azureml.PipelineRun", "status": "Completed"}"#,
            ),
            "pipe-2/children" => Answer::json(
                200,
                r#"{"value": [{"runId": "step-prep-2", "runType": "azureml.StepRun", "displayName": "prep"}, {"runId": "sub-pipe", "runType": "azureml.PipelineRun", "displayName": "scoring-component"}], "continuationToken": null}"#,
            ),
            "sub-pipe/children" => Answer::json(
                200,
                r#"{"value": [{"runId": "step-reused", "runType": "azureml.StepRun", "displayName": "batch-score", "dataContainerId": "dcid.step-reused", "properties": {"azureml.isreused": "true", "azureml.reusedrunid": "step-prs"}}], "continuationToken": null}"#,
            ),
            "step-prs" => Answer::json(
                200,
                r#"{"runId": "step-prs", "runType": "azureml.StepRun", "status": "Failed", "dataContainerId": "dcid.step-prs"}"#,
            ),
            // Two pages joined by a continuation token.
            "pipe-1/children" if !r.target.contains('?') => Answer::json(
                200,
                r#"{"value": [{"runId": "step-prep", "runType": "azureml.StepRun", "displayName": "prep"}], "continuationToken": "page+2/=="}"#,
            ),
            // The service's own spelling of the parameter, `$continuationtoken`.
            "pipe-1/children"
                if r.target
                    .ends_with("?%24continuationtoken=page%2B2%2F%3D%3D") =>
            {
                Answer::json(
                    200,
                    r#"{"value": [{"runId": "step-prs", "runType": "azureml.StepRun", "displayName": "batch-score", "dataContainerId": "dcid.step-prs"}], "continuationToken": null}"#,
                )
            }
            _ => Answer::json(
                404,
                r#"{"error":{"code":"RunNotFound","message":"Run not found"}}"#,
            ),
        }
    }

    /// Listings of 500 files a page.
    fn artifacts(&self, r: &Request, rest: &str) -> Answer {
        let (container, prefix) = rest.split_once('/').unwrap();
        let other = [("logs/readme.txt".to_owned(), "not a PRS step\n".to_owned())];
        let files: &[(String, String)] = if container == "dcid.step-prs" {
            self.run_files()
        } else {
            &other
        };
        let matching: Vec<&(String, String)> = files
            .iter()
            .filter(|(p, _)| p.starts_with(prefix))
            .collect();
        let page: usize = r
            .target
            .split("continuationToken=")
            .nth(1)
            .and_then(|t| t.parse().ok())
            .unwrap_or(0);
        if prefix == "logs/" && page == 0 {
            self.listings.fetch_add(1, Ordering::SeqCst);
        }
        let listing = self.listings.load(Ordering::SeqCst);
        let chunk: Vec<Value> = matching
            .iter()
            .skip(page * 500)
            .take(500)
            .map(|(p, _)| {
                json!({"origin": "ExperimentRun", "container": container, "path": p,
                    "contentUri": format!("{}/blob/{container}/{}?sv=2024-01-01&se=listing{listing}&sr=b&sig={SAS_SIG}", self.base(), index_of(files, p))})
            })
            .collect();
        let next = ((page + 1) * 500 < matching.len()).then(|| (page + 1).to_string());
        Answer::json(
            200,
            &json!({"value": chunk, "continuationToken": next}).to_string(),
        )
    }

    fn blob(&self, r: &Request, rest: &str) -> Answer {
        assert!(
            r.header("authorization").is_none(),
            "a token went to storage"
        );
        let index: usize = rest.rsplit('/').next().unwrap().parse().unwrap();
        // Storage's answer to an expired SAS: 403 AuthenticationFailed, the time frame in
        // its detail (the wording of Azure Storage's error body).
        if self.sas_expires && r.target.contains("se=listing1&") && index % 2 == 1 {
            return Answer::json(
                403,
                "<?xml version=\"1.0\" encoding=\"utf-8\"?><Error><Code>AuthenticationFailed</Code><Message>Server failed to authenticate the request. Make sure the value of Authorization header is formed correctly including the signature.</Message><AuthenticationErrorDetail>Signature not valid in the specified time frame: Start [Tue, 01 Dec 2026 09:00:00 GMT] - Expiry [Tue, 01 Dec 2026 10:00:00 GMT] - Current [Tue, 01 Dec 2026 10:00:05 GMT]</AuthenticationErrorDetail></Error>",
            )
            .with_header("x-ms-error-code", "AuthenticationFailed");
        }
        let files = self.run_files();
        let root_files =
            files.len() - self.extra_files - self.big_files.len() - usize::from(self.escaping);
        if index >= root_files.saturating_add(self.fail_from.load(Ordering::SeqCst))
            && index < root_files + self.extra_files
        {
            return Answer::json(403, "<Error><Code>AuthenticationFailed</Code></Error>");
        }
        let mut a = Answer::json(200, "").slow(self.blob_delay);
        a.body = files[index].1.clone();
        a
    }
}

/// Resource Manager's refusal of a read the identity has no role for.
fn refused(action: &str) -> Answer {
    Answer::json(
        403,
        &json!({"error": {"code": "AuthorizationFailed", "message": format!(
            "The client does not have authorization to perform action '{action}'."
        )}})
        .to_string(),
    )
}

fn index_of(files: &[(String, String)], path: &str) -> usize {
    files.iter().position(|(p, _)| p == path).unwrap()
}

fn big_text(size: usize) -> String {
    let line = "2026-11-30 10:00:00 perf sample cpu=93% mem=71%\n";
    line.repeat(size / line.len() + 1)
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<(String, String)>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            walk(root, &p, out);
        } else if p.file_name().unwrap() != "EXPECT.yaml" {
            let rel = p
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            out.push((rel, std::fs::read_to_string(&p).unwrap()));
        }
    }
}

fn start(world: World) -> (FakeAzure, Arc<World>) {
    let world = Arc::new(world);
    let w = world.clone();
    let fake = FakeAzure::start(move |r, _| w.answer(r));
    world.port.set(fake.port).unwrap();
    (fake, world)
}

fn sandbox(name: &str, fake: &FakeAzure) -> Sandbox {
    fake.sandbox(name, "2")
}

fn live(sb: &Sandbox, args: &[&str]) -> super::Run {
    let mut full: Vec<&str> = args.to_vec();
    full.extend(["--subscription", SUB, "-g", "rg1", "-w", "ws1"]);
    sb.run(&full)
}

/// No token, SAS signature or identity secret in the run's output or any saved file.
fn no_secrets(run: &super::Run, dir: Option<&Path>) {
    for text in [&run.stdout, &run.stderr] {
        for secret in [TOKEN, SAS_SIG, IDENTITY_HEADER] {
            assert!(!text.contains(secret), "{secret} leaked:\n{text}");
        }
    }
    if let Some(dir) = dir {
        let mut files = Vec::new();
        walk(dir, dir, &mut files);
        for (path, text) in files {
            for secret in [TOKEN, SAS_SIG, IDENTITY_HEADER] {
                assert!(!text.contains(secret), "{secret} saved in {path}");
            }
        }
    }
}

/// Rule ids with their commands: what must be equal between live and saved runs.
fn verdict(doc: &Value) -> Vec<(String, Vec<String>)> {
    let mut v: Vec<(String, Vec<String>)> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let commands = f["commands"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_str().unwrap().to_owned())
                .collect();
            (f["rule_id"].as_str().unwrap().to_owned(), commands)
        })
        .collect();
    v.sort();
    v
}

#[test]
fn without_save_evidence_names_its_origin_and_no_command_reads_a_deleted_file() {
    let (fake, _) = start(World::default());
    let sb = sandbox("live-origins", &fake);
    for (args, origin) in [
        (
            vec!["diagnose", "-e", "ep1", "-n", "blue"],
            "inference-server log of deployment ep1/blue:",
        ),
        (vec!["diagnose", "--run", "pipe-1"], "run step-prs, logs/"),
        (
            vec!["check", "deployment", "-e", "ep1", "-n", "blue"],
            "online deployment ep1/blue",
        ),
    ] {
        for format in ["table", "json"] {
            let mut full = args.clone();
            full.extend(["-o", format, "--fail-on", "never", "--no-color"]);
            let run = live(&sb, &full);
            assert_eq!(run.code, 0, "{full:?}: {}", run.stderr);
            assert!(
                !run.stdout.contains("amldoctor-diagnose-")
                    && !run.stdout.contains("amldoctor-check-"),
                "{full:?} points into the deleted folder:\n{}",
                run.stdout
            );
            // JSON keeps the line apart from the path.
            let origin = if format == "json" {
                origin.trim_end_matches(':')
            } else {
                origin
            };
            assert!(run.stdout.contains(origin), "{full:?}: {}", run.stdout);
            // A resource read from Azure has no file to open: no line number.
            if format == "table" && full[0] == "check" {
                let at = run
                    .stdout
                    .lines()
                    .find(|l| l.contains("--> online deployment ep1/blue"))
                    .unwrap_or_else(|| panic!("{}", run.stdout));
                assert!(
                    !at.contains("blue:"),
                    "a line of a deleted document: {at}\n{}",
                    run.stdout
                );
            }
        }
    }
    // The PRS tree's file commands (ls, grep over logs/) read files: they are left out,
    // and the note says how to keep them.
    let run = live(&sb, &["diagnose", "--run", "pipe-1", "--fail-on", "never"]);
    assert!(
        run.stderr.contains("that would read the downloaded files")
            && run.stderr.contains("pass --save DIR to keep them"),
        "{}",
        run.stderr
    );
    // With --save the files exist, and their commands are printed.
    let saved = sb.work().join("kept");
    let kept = live(
        &sb,
        &[
            "diagnose",
            "--run",
            "pipe-1",
            "--fail-on",
            "never",
            "--save",
            saved.to_str().unwrap(),
        ],
    );
    assert!(
        kept.stdout.contains(saved.to_str().unwrap()),
        "{}",
        kept.stdout
    );
}

#[test]
fn a_bundle_read_back_gives_the_live_findings() {
    let (fake, _) = start(World::default());
    let sb = sandbox("live-bundle", &fake);
    let saved = sb.work().join("saved");
    let run = live(
        &sb,
        &[
            "diagnose",
            "-e",
            "ep1",
            "-n",
            "blue",
            "--save",
            saved.to_str().unwrap(),
            "-o",
            "json",
            "--fail-on",
            "never",
            "--debug",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    no_secrets(&run, Some(&saved));
    let live_doc = run.json();
    let found = verdict(&live_doc);
    let ids: Vec<&str> = found.iter().map(|(id, _)| id.as_str()).collect();
    assert!(ids.contains(&"deployment-provisioning-failed"), "{ids:?}");
    assert!(
        ids.contains(&"workspace-private-without-approved-endpoint"),
        "{ids:?}"
    );
    assert!(
        ids.contains(&"user-init-failed"),
        "a finding from the container log: {ids:?}"
    );
    // The same bundle read back, and one saved by `logs --out`: the same verdict.
    let offline = sb
        .run(&[
            "diagnose",
            saved.to_str().unwrap(),
            "-o",
            "json",
            "--fail-on",
            "never",
        ])
        .ok()
        .json();
    assert_eq!(verdict(&offline), found);
    let logged = sb.work().join("logged");
    let run = live(
        &sb,
        &[
            "logs",
            "-e",
            "ep1",
            "-n",
            "blue",
            "--out",
            logged.to_str().unwrap(),
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("analyse them with: amldoctor diagnose"),
        "{}",
        run.stderr
    );
    let from_logs = sb
        .run(&[
            "diagnose",
            logged.to_str().unwrap(),
            "-o",
            "json",
            "--fail-on",
            "never",
        ])
        .ok()
        .json();
    assert_eq!(verdict(&from_logs), found);
    // The manifest says where it all came from and what was collected.
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(logged.join("manifest.json")).unwrap())
            .unwrap();
    assert_eq!(manifest["amldoctor_bundle"], 1);
    assert_eq!(manifest["source"]["endpoint"], "ep1");
    assert_eq!(manifest["source"]["deployment"], "blue");
    assert_eq!(manifest["source"]["workspace"], "ws1");
    let paths: Vec<&str> = manifest["collected"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["path"].as_str().unwrap())
        .collect();
    assert_eq!(
        paths,
        [
            "resources/workspace.json",
            "resources/endpoint-ep1.json",
            "resources/deployment-blue.json",
            "containers/blue/storage-initializer.log",
            "containers/blue/inference-server.log"
        ]
    );
    assert!(manifest["failed"].as_array().unwrap().is_empty());
    assert!(manifest["redaction"].as_str().unwrap().contains("SAS"));
    // Only reads were sent.
    for r in fake.arm_requests() {
        assert!(
            r.method == "GET" || r.target.contains("/getLogs?"),
            "{} {}",
            r.method,
            r.target
        );
    }
}

#[test]
fn a_misspelt_deployment_is_an_access_error_naming_the_ones_there_are() {
    let (fake, _world) = start(World::default());
    let sb = sandbox("live-nosuch", &fake);
    let out = sb.work().join("nosuch-logs");
    let out = out.to_str().unwrap();
    let data = sb.work().join("request.json");
    std::fs::write(&data, r#"{"data": [[1, 2]]}"#).unwrap();
    let data = data.display().to_string();
    for args in [
        vec!["check", "deployment", "-e", "ep1", "-n", "nosuch"],
        vec!["check", "deployment", "-e", "ep1", "-n", "nosuch", "-q"],
        vec!["check", "all", "-e", "ep1", "-n", "nosuch"],
        vec!["diagnose", "-e", "ep1", "-n", "nosuch"],
        vec!["logs", "-e", "ep1", "-n", "nosuch", "--out", out],
        vec!["replicas", "-e", "ep1", "-n", "nosuch", "--rps", "20"],
        vec![
            "score", "-e", "ep1", "-n", "nosuch", "--count", "1", "--data", &data,
        ],
    ] {
        let run = live(&sb, &args);
        assert_eq!(run.code, 3, "{args:?}: {}{}", run.stdout, run.stderr);
        assert!(
            run.stderr
                .contains("error: reading deployment 'nosuch' of endpoint 'ep1'")
                && run.stderr.contains("HTTP 404 ResourceNotFound")
                && run
                    .stderr
                    .contains("endpoint 'ep1' has one deployment: blue; pass one with -n"),
            "{args:?}: {}",
            run.stderr
        );
        assert!(
            !run.stdout.contains("gate passed"),
            "{args:?}: {}",
            run.stdout
        );
    }
}

#[test]
fn live_check_reads_the_workspace_its_links_and_its_own_diagnosis() {
    let (fake, world) = start(World::default());
    let sb = sandbox("live-check", &fake);
    let saved = sb.work().join("ws-bundle");
    let run = live(
        &sb,
        &[
            "check",
            "all",
            "-e",
            "ep1",
            "--save",
            saved.to_str().unwrap(),
            "-o",
            "json",
            "--fail-on",
            "never",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    no_secrets(&run, Some(&saved));
    let doc = run.json();
    // The region is known from the zone's records: nobody is asked to fill it in.
    assert!(
        !doc["missing_names"].to_string().contains("<region>"),
        "{}",
        doc["missing_names"]
    );
    let found = verdict(&doc);
    let ids: Vec<&str> = found.iter().map(|(id, _)| id.as_str()).collect();
    for id in [
        "keyvault-firewall-blocks-azure-services",
        "workspace-private-without-approved-endpoint",
        "deployment-provisioning-failed",
        "CustomDNSInUse",
        // From the registry and the storage account read live.
        "registry-egress-connection-not-approved",
        "deployment-egress-private-no-connection",
        "deployment-egress-private-storage-no-connection",
    ] {
        assert!(ids.contains(&id), "{id} missing from {ids:?}");
    }
    for file in ["container-registry.json", "storage-account.json"] {
        assert!(
            saved.join("resources").join(file).is_file(),
            "{file} not saved"
        );
    }
    let diag = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule_id"] == "CustomDNSInUse")
        .unwrap();
    assert_eq!(diag["severity"], "warning");
    assert!(diag["title"].as_str().unwrap().contains("DNS resolution"));
    assert_eq!(
        diag["commands"][0],
        "az ml workspace diagnose --name ws1 --resource-group rg1"
    );
    // The diagnosis was followed to its end through Location.
    assert_eq!(world.polls.load(Ordering::SeqCst), 2);
    let posts: Vec<String> = fake
        .arm_requests()
        .iter()
        .filter(|r| r.method == "POST")
        .map(|r| r.target.clone())
        .collect();
    assert_eq!(posts, [format!("{WS}/diagnose?api-version=2024-10-01")]);
    // Read back, the same.
    let offline = sb
        .run(&[
            "check",
            "all",
            "--from",
            saved.to_str().unwrap(),
            "-o",
            "json",
            "--fail-on",
            "never",
        ])
        .ok()
        .json();
    assert_eq!(verdict(&offline), found);
}

#[test]
fn a_key_vault_it_may_not_read_is_a_skipped_check_with_the_role() {
    let (fake, _) = start(World {
        vault_forbidden: true,
        ..World::default()
    });
    let sb = sandbox("live-check-403", &fake);
    let run = live(&sb, &["check", "all", "-o", "json", "--fail-on", "never"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let doc = run.json();
    let reasons: Vec<String> = doc["not_analysed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["reason"].as_str().unwrap().to_owned())
        .collect();
    let vault = reasons
        .iter()
        .find(|r| r.contains("check keyvault skipped"))
        .unwrap_or_else(|| panic!("{reasons:?}"));
    assert!(
        vault.contains("HTTP 403 AuthorizationFailed") && vault.contains("needs Reader"),
        "{vault}"
    );
    // The registry and the storage account it may not read either: skipped, with the role.
    for label in ["container registry", "storage account"] {
        assert!(
            reasons.iter().any(|r| r.contains(&format!(
                "check private-endpoint ran without the workspace's {label}"
            )) && r.contains("needs Reader")),
            "{label}: {reasons:?}"
        );
    }
    // No endpoint named: the deployment check says how to run it.
    assert!(
        reasons
            .iter()
            .any(|r| r.contains("check deployment skipped") && r.contains("pass -e")),
        "{reasons:?}"
    );
    // The table says the same to a person.
    let table = live(&sb, &["check", "keyvault", "--fail-on", "never"]);
    assert_eq!(table.code, 0, "{}", table.stderr);
    assert!(
        table.stdout.contains("check keyvault skipped"),
        "{}",
        table.stdout
    );
}

#[test]
fn logs_run_finds_the_parallel_run_step_and_downloads_its_tree() {
    let (fake, _) = start(World {
        escaping: true,
        ..World::default()
    });
    let sb = sandbox("live-run", &fake);
    let out = sb.work().join("job");
    let run = live(
        &sb,
        &[
            "logs",
            "--run",
            "pipe-1",
            "--out",
            out.to_str().unwrap(),
            "--debug",
        ],
    );
    // The escaping path was refused, so not everything was collected: exit 3.
    assert_eq!(run.code, 3, "{}", run.stderr);
    no_secrets(&run, Some(&out));
    assert!(
        run.stderr
            .contains("resolved to its ParallelRunStep step run 'step-prs'"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("climbs out of the output folder"),
        "{}",
        run.stderr
    );
    assert!(!sb.work().join("escaped.txt").exists() && !sb.root.join("escaped.txt").exists());
    // One closing line, whose counts add up to the files saved.
    let saved = run
        .stderr
        .lines()
        .find(|l| l.starts_with("saved "))
        .unwrap_or_else(|| panic!("{}", run.stderr));
    assert!(
        !run.stderr.contains("run files downloaded"),
        "{}",
        run.stderr
    );
    let number = |after: &str| -> u64 {
        let at = saved
            .find(after)
            .unwrap_or_else(|| panic!("{after:?} in {saved}"));
        saved[..at]
            .rsplit([' ', '('])
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    let total = number(" files (");
    let now = number(" of the run's ");
    let records = number(" record");
    assert_eq!(now + records, total, "{saved}");
    assert!(saved.contains("1 could not be saved"), "{saved}");
    // Every fixture file arrived, byte for byte (none holds a secret).
    let mut expected = Vec::new();
    let root = PathBuf::from(fixture("prs/failed-job"));
    walk(&root, &root, &mut expected);
    for (path, text) in &expected {
        assert_eq!(
            &std::fs::read_to_string(out.join(path)).unwrap(),
            text,
            "{path}"
        );
    }
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["source"]["run"], "step-prs");
    assert_eq!(manifest["source"]["requested_run"], "pipe-1");
    // The bundle is a ParallelRunStep tree to diagnose.
    let doc = sb
        .run(&[
            "diagnose",
            out.to_str().unwrap(),
            "-o",
            "json",
            "--fail-on",
            "never",
        ])
        .ok()
        .json();
    assert_eq!(doc["prs"].as_array().unwrap().len(), 1, "{doc}");
    // Live, straight from the step run id.
    let run = live(
        &sb,
        &[
            "diagnose",
            "--run",
            "step-prs",
            "-o",
            "json",
            "--fail-on",
            "never",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let live_doc = run.json();
    assert_eq!(live_doc["prs"].as_array().unwrap().len(), 1);
    let ids = |d: &Value| verdict(d).into_iter().map(|(id, _)| id).collect::<Vec<_>>();
    assert_eq!(ids(&live_doc), ids(&doc));
}

#[test]
fn two_thousand_files_download_in_bounded_memory_and_resume() {
    let world = World {
        extra_files: 2000,
        big_files: vec![40 << 20, 40 << 20],
        fail_from: AtomicUsize::new(1500),
        ..World::default()
    };
    let (fake, world) = start(world);
    let sb = sandbox("live-2000", &fake);
    let out = sb.work().join("big-job");
    let total = world.run_files().len();
    let args = [
        "logs",
        "--run",
        "step-prs",
        "--out",
        out.to_str().unwrap(),
        "--jobs",
        "16",
        "--subscription",
        SUB,
        "-g",
        "rg1",
        "-w",
        "ws1",
    ];
    let child = sb
        .command(&args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let mut peak_kib = 0u64;
    let sampler = std::thread::spawn(move || {
        while let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) {
            if let Some(kib) = status
                .lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse::<u64>().ok())
            {
                peak_kib = peak_kib.max(kib);
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        peak_kib
    });
    let first = super::Run::from(child.wait_with_output().unwrap());
    let peak_kib = sampler.join().unwrap();
    // 500 files were refused by storage: the run says so and exits 3.
    assert_eq!(first.code, 3, "{}", first.stderr);
    let listed = total; // the fixture tree, the 2,000 and the two big ones
    assert!(
        first.stderr.contains(&format!(
            "{} of the run's {listed} log files downloaded now",
            listed - 500
        )),
        "{}",
        first.stderr
    );
    assert!(
        first.stderr.contains("; 500 could not be saved)")
            && !first.stderr.contains("already complete"),
        "{}",
        first.stderr
    );
    // Two 40 MiB files went through without being held in memory.
    if Path::new("/proc/self/status").exists() {
        assert!(peak_kib > 0, "the memory sampler saw nothing");
        assert!(peak_kib < 80 * 1024, "peak RSS {peak_kib} KiB");
        eprintln!("peak RSS of the download: {peak_kib} KiB");
    }
    assert_eq!(
        std::fs::metadata(out.join("logs/perf/10.0.0.4/big0.txt"))
            .unwrap()
            .len(),
        big_text(40 << 20).len() as u64
    );
    // No half file is left under a final name.
    assert!(
        !out.join("logs/user/stdout/10.0.0.4/process1500.stdout.txt")
            .exists()
    );
    // Storage relents; the second run fetches only what is missing.
    world.fail_from.store(usize::MAX, Ordering::SeqCst);
    let before = fake
        .arm_requests()
        .iter()
        .filter(|r| r.target.starts_with("/blob/"))
        .count();
    let second = sb.run(&args);
    assert_eq!(second.code, 0, "{}", second.stderr);
    let fetched = fake
        .arm_requests()
        .iter()
        .filter(|r| r.target.starts_with("/blob/"))
        .count()
        - before;
    assert_eq!(fetched, 500);
    assert!(
        second.stderr.contains(&format!(
            "500 of the run's {listed} log files downloaded now"
        )),
        "{}",
        second.stderr
    );
    assert!(
        second
            .stderr
            .contains(&format!("; {} already complete;", listed - 500))
            && !second.stderr.contains("could not be saved"),
        "{}",
        second.stderr
    );
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["collected"].as_array().unwrap().len(), listed + 2); // + workspace.json, run.json
}

#[test]
fn the_diagnosis_is_followed_through_its_status_monitor_too() {
    let (fake, world) = start(World {
        async_operation: true,
        ..World::default()
    });
    let sb = sandbox("live-async-op", &fake);
    let run = live(
        &sb,
        &["check", "workspace", "-o", "json", "--fail-on", "never"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        verdict(&run.json())
            .iter()
            .any(|(id, _)| id == "CustomDNSInUse")
    );
    // InProgress, Succeeded, then the result from Location.
    assert_eq!(world.polls.load(Ordering::SeqCst), 2);
    let gets: Vec<String> = fake
        .arm_requests()
        .iter()
        .filter(|r| r.target.starts_with("/operations/"))
        .map(|r| r.target.split('?').next().unwrap().to_owned())
        .collect();
    assert_eq!(
        gets,
        [
            "/operations/status-1",
            "/operations/status-1",
            "/operations/diag-1"
        ]
    );
}

#[test]
fn the_data_plane_falls_back_to_the_resource_manager_token_and_names_a_missing_run() {
    let (fake, _) = start(World {
        ml_token_refused: true,
        ..World::default()
    });
    let sb = sandbox("live-dp-401", &fake);
    let out = sb.work().join("job");
    let run = live(
        &sb,
        &[
            "logs",
            "--run",
            "step-prs",
            "--out",
            out.to_str().unwrap(),
            "--debug",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("trying the Resource Manager token"),
        "{}",
        run.stderr
    );
    assert!(out.join("logs/job_result.txt").exists());
    no_secrets(&run, Some(&out));
    // A run that does not exist: exit 3, its id, and how to list the right ones.
    let run = live(&sb, &["diagnose", "--run", "no-such-run"]);
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("reading run 'no-such-run': Run not found (HTTP 404 RunNotFound"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("az ml job list -g rg1 -w ws1"),
        "{}",
        run.stderr
    );
}

#[test]
fn what_may_not_be_read_is_skipped_with_the_role_it_needs() {
    let (fake, _) = start(World {
        workspace_forbidden: true,
        ..World::default()
    });
    let sb = sandbox("live-ws-403", &fake);
    let run = live(
        &sb,
        &[
            "check",
            "all",
            "-e",
            "ep1",
            "-o",
            "json",
            "--fail-on",
            "never",
        ],
    );
    // Nothing could be read: no report, each skipped check on stderr with its reason.
    assert_eq!(run.stdout, "");
    let reasons: Vec<String> = run
        .stderr
        .lines()
        .filter(|l| l.contains("not analysed: "))
        .map(|l| l.split("not analysed: ").nth(1).unwrap().to_owned())
        .collect();
    for check in ["workspace", "keyvault", "private-endpoint", "deployment"] {
        let r = reasons
            .iter()
            .find(|r| r.starts_with(&format!("check {check} skipped")))
            .unwrap_or_else(|| panic!("{check}: {reasons:?}"));
        assert!(r.contains("HTTP 403") && r.contains("needs Reader"), "{r}");
    }
    // Nothing could be analysed: the input error exit, with the reasons shown.
    assert_eq!(run.code, 2, "{}", run.stderr);
}

#[test]
fn a_bundle_of_something_else_is_never_mixed_in() {
    let (fake, _) = start(World::default());
    let sb = sandbox("live-mixed", &fake);
    let out = sb.work().join("bundle");
    let first = live(&sb, &["logs", "-e", "ep1", "--out", out.to_str().unwrap()]);
    assert_eq!(first.code, 0, "{}", first.stderr);
    let run = live(
        &sb,
        &["logs", "--run", "step-prs", "--out", out.to_str().unwrap()],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("already holds a bundle of endpoint 'ep1' of workspace 'ws1'; save this one into another folder"),
        "{}",
        run.stderr
    );
    // A file where the folder should be is named as such, not as a missing manifest.
    let file = sb.write("work/afile", "x");
    let run = live(&sb, &["logs", "-e", "ep1", "--out", file.to_str().unwrap()]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("is a file: a bundle is saved into a folder"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("manifest.json"), "{}", run.stderr);
}

#[test]
fn a_client_secret_never_shows_even_when_sign_in_fails() {
    // The authority is this machine, where nothing listens: sign-in fails at once.
    let secret = "CLIENT-SECRET-do-not-print-8842";
    let sb = Sandbox::new("live-sp-secret")
        .env("AZURE_CLIENT_ID", "11111111-1111-1111-1111-111111111111")
        .env("AZURE_TENANT_ID", "22222222-2222-2222-2222-222222222222")
        .env("AZURE_CLIENT_SECRET", secret)
        .env("AZURE_AUTHORITY_HOST", "https://127.0.0.1:9")
        .env("AMLDOCTOR_ARM_ENDPOINT", "http://127.0.0.1:9")
        .env("AMLDOCTOR_RETRY_BUDGET", "1")
        .env("AMLDOCTOR_HTTP_TIMEOUT", "3");
    let run = live(&sb, &["logs", "-e", "ep1", "-n", "blue", "--debug"]);
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert!(
        !run.stderr.contains(secret) && !run.stdout.contains(secret),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("service principal"), "{}", run.stderr);
}

/// The artifact listing's SAS URLs are short-lived: storage refuses those that expired
/// while the others downloaded (403 AuthenticationFailed). They are listed again once
/// and fetched with fresh URLs, and the closing line says so.
#[test]
fn files_whose_sas_expired_are_fetched_again_with_fresh_urls() {
    let world = World {
        extra_files: 40,
        fail_from: AtomicUsize::new(usize::MAX),
        sas_expires: true,
        ..World::default()
    };
    let (fake, world) = start(world);
    let sb = sandbox("live-sas-expired", &fake);
    let out = sb.work().join("job");
    let run = live(
        &sb,
        &["logs", "--run", "step-prs", "--out", out.to_str().unwrap()],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let total = world.run_files().len();
    let refused = total / 2;
    assert!(
        run.stderr.contains(&format!(
            "{total} of the run's {total} log files downloaded now"
        )) && run.stderr.contains(&format!(
            "{refused} tried again with fresh links after storage refused the first ones"
        )) && !run.stderr.contains("could not be saved"),
        "{}",
        run.stderr
    );
    assert_eq!(
        world.listings.load(Ordering::SeqCst),
        2,
        "listed again once"
    );
    for (path, text) in world.run_files() {
        assert_eq!(
            &std::fs::read_to_string(out.join(path)).unwrap(),
            text,
            "{path}"
        );
    }
    no_secrets(&run, Some(&out));
}

#[test]
fn a_killed_download_resumes_where_it_stopped() {
    let world = World {
        extra_files: 400,
        fail_from: AtomicUsize::new(usize::MAX),
        blob_delay: std::time::Duration::from_millis(20),
        ..World::default()
    };
    let (fake, world) = start(world);
    let sb = sandbox("live-kill", &fake);
    let out = sb.work().join("job");
    let args = [
        "logs",
        "--run",
        "step-prs",
        "--out",
        out.to_str().unwrap(),
        "--jobs",
        "4",
        "--subscription",
        SUB,
        "-g",
        "rg1",
        "-w",
        "ws1",
    ];
    let mut child = sb
        .command(&args)
        .stdout(std::process::Stdio::null())
        .stderr(std::fs::File::create(sb.root.join("kill-stderr.txt")).unwrap())
        .spawn()
        .unwrap();
    let stdout_dir = out.join("logs/user/stdout/10.0.0.4");
    let started = std::time::Instant::now();
    while std::fs::read_dir(&stdout_dir).map_or(0, Iterator::count) < 60 {
        assert!(
            started.elapsed() < std::time::Duration::from_secs(30),
            "no progress: {}",
            std::fs::read_to_string(sb.root.join("kill-stderr.txt")).unwrap_or_default()
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let fetched = |fake: &FakeAzure| {
        fake.arm_requests()
            .iter()
            .filter(|r| r.target.starts_with("/blob/"))
            .count()
    };
    let before = fetched(&fake);
    let total = world.run_files().len();
    assert!(before < total, "the download finished before it was killed");
    let second = sb.run(&args);
    assert_eq!(second.code, 0, "{}", second.stderr);
    let again = fetched(&fake) - before;
    assert!(again < total, "everything was fetched again ({again})");
    // Every file is whole; no unfinished download is left behind.
    for (path, text) in world.run_files() {
        assert_eq!(
            &std::fs::read_to_string(out.join(path)).unwrap(),
            text,
            "{path}"
        );
    }
    let mut parts = Vec::new();
    walk(&out, &out, &mut parts);
    assert!(
        parts
            .iter()
            .all(|(p, _)| Path::new(p).extension().is_none_or(|e| e != "part"))
    );
}

#[test]
fn live_check_dns_resolves_the_endpoint_read_from_azure_and_saves_the_answers() {
    let (fake, _) = start(World::default());
    let sb = sandbox("live-check-dns", &fake);
    let saved = sb.work().join("dns-bundle");
    let inside = crate::dns::inside().to_string();
    let run = live(
        &sb,
        &[
            "check",
            "dns",
            "-e",
            "ep1",
            "--nameserver",
            &inside,
            "--no-system-resolver",
            "--save",
            saved.to_str().unwrap(),
            "-o",
            "json",
            "--fail-on",
            "never",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let doc = run.json();
    let scoring = doc["dns"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["role"] == "scoring")
        .expect("the scoring host was resolved");
    assert_eq!(
        scoring["host"],
        "credit-ep.westeurope.inference.ml.azure.com"
    );
    assert_eq!(scoring["addresses"][0], "10.0.1.20");
    // The zone's record gives 10.0.1.5: the answer points elsewhere.
    let found = verdict(&doc);
    let ids: Vec<&str> = found.iter().map(|(id, _)| id.as_str()).collect();
    assert!(ids.contains(&"dns-address-outside-expected"), "{ids:?}");
    // The zone's link to the hub network is still in progress.
    assert!(ids.contains(&"private-dns-zone-link-not-ready"), "{ids:?}");
    let link = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule_id"] == "private-dns-zone-link-not-ready")
        .unwrap();
    assert!(
        link["commands"][0]
            .as_str()
            .unwrap()
            .contains("-g rg1 -z privatelink.api.azureml.ms"),
        "{link}"
    );
    // Saved, and judged the same from the bundle without asking anyone.
    assert!(saved.join("dns.json").is_file());
    assert!(saved.join("resources/private-dns-records.json").is_file());
    let offline = sb
        .run(&[
            "check",
            "dns",
            "--from",
            saved.to_str().unwrap(),
            "-o",
            "json",
            "--fail-on",
            "never",
        ])
        .ok()
        .json();
    assert_eq!(verdict(&offline), found);
}

/// The private zone's records could not be read: `check dns` still resolved the hosts,
/// so it says it ran without them, not that it was skipped.
#[test]
fn a_dns_check_without_the_zone_records_says_what_it_lacked_not_skipped() {
    let (fake, _) = start(World {
        dns_records_forbidden: true,
        ..World::default()
    });
    let sb = sandbox("live-check-dns-part", &fake);
    let inside = crate::dns::inside().to_string();
    let run = live(
        &sb,
        &[
            "check",
            "dns",
            "-e",
            "ep1",
            "--nameserver",
            &inside,
            "--no-system-resolver",
            "-o",
            "json",
            "--fail-on",
            "never",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let doc = run.json();
    assert!(!doc["dns"].as_array().unwrap().is_empty(), "{doc}");
    let reasons: Vec<&str> = doc["not_analysed"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|n| n["reason"].as_str())
        .collect();
    assert!(
        reasons
            .iter()
            .any(|r| r.starts_with("check dns ran without the record sets of the private DNS zone")),
        "{reasons:?}"
    );
    assert!(
        !reasons.iter().any(|r| r.contains("check dns skipped")),
        "{reasons:?}"
    );
}

#[test]
fn a_refused_identity_endpoint_fails_at_once_naming_it() {
    let (fake, _) = start(World::default());
    // A port nobody listens on: the connection is refused.
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let endpoint = format!("http://127.0.0.1:{closed}/msi/token");
    let sb = sandbox("live-mi-refused", &fake).env("IDENTITY_ENDPOINT", &endpoint);
    for args in [
        vec!["diagnose", "-e", "ep1", "-n", "blue", "--debug"],
        vec!["logs", "-e", "ep1", "-n", "blue", "--debug"],
    ] {
        let started = std::time::Instant::now();
        let run = live(&sb, &args);
        let took = started.elapsed();
        assert_eq!(run.code, 3, "{args:?}: {}", run.stderr);
        // Not a minute of retries against a port that is not there.
        assert!(
            took < std::time::Duration::from_secs(15),
            "{args:?} took {took:?}"
        );
        assert!(
            run.stderr
                .contains(&format!("managed identity at {endpoint}"))
                && !run.stderr.contains("took over"),
            "{args:?}: {}",
            run.stderr
        );
        // --debug shows the token request, where it went and what came back; no token.
        assert!(
            run.stderr.contains(&format!(
                "token request GET http://127.0.0.1:{closed}/msi/token:"
            )),
            "{args:?}: {}",
            run.stderr
        );
    }
}

/// A ParallelRunStep inside a nested pipeline component, reused from an earlier run: the
/// walk goes down the component and follows the reuse to the run that holds the logs.
#[test]
fn a_reused_step_of_a_nested_pipeline_is_followed_to_its_logs() {
    let (fake, _) = start(World::default());
    let sb = sandbox("live-reused", &fake);
    let out = sb.work().join("job");
    let run = live(
        &sb,
        &["logs", "--run", "pipe-2", "--out", out.to_str().unwrap()],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["source"]["requested_run"], "pipe-2");
    assert_eq!(manifest["source"]["run"], "step-prs", "{manifest}");
    // The folders a v2 job writes beside logs/ are listed too (the fake has none there).
    let listed: Vec<String> = fake
        .arm_requests()
        .iter()
        .filter(|r| r.target.contains("/artifacts/") && r.target.contains("dcid.step-prs"))
        .map(|r| r.target.clone())
        .collect();
    for folder in ["logs", "azureml-logs", "user_logs", "system_logs"] {
        assert!(
            listed.iter().any(|t| t.contains(&format!("/{folder}"))),
            "{folder}: {listed:?}"
        );
    }
}

/// The MCP server's Azure tools read the same fake world and conclude what the CLI
/// does: the same findings with the same next commands, and no secret in any result.
#[test]
fn the_mcp_azure_tools_answer_as_the_cli_does() {
    let (fake, _world) = start(World::default());
    let sb = sandbox("live-mcp", &fake);
    let cli_diagnose = live(
        &sb,
        &[
            "diagnose",
            "-e",
            "ep1",
            "-n",
            "blue",
            "-o",
            "json",
            "--fail-on",
            "never",
        ],
    );
    let cli_check = live(
        &sb,
        &[
            "check",
            "all",
            "-e",
            "ep1",
            "-o",
            "json",
            "--fail-on",
            "never",
        ],
    );
    let cli_logs = live(
        &sb,
        &[
            "logs", "-e", "ep1", "-n", "blue", "--lines", "50", "-o", "json",
        ],
    );
    assert_eq!(cli_logs.code, 0, "{}", cli_logs.stderr);
    super::mcp::runtime().block_on(async {
        let client = super::mcp::connect(
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
        let call = |tool: &'static str, args: Value| {
            let client = &client;
            async move { super::mcp::call(client, tool, args).await }
        };
        let r = call(
            "diagnose_deployment",
            json!({ "endpoint": "ep1", "deployment": "blue" }),
        )
        .await;
        assert_eq!(
            verdict(&super::mcp::structured(&r)),
            verdict(&cli_diagnose.json())
        );
        let r = call(
            "check_workspace",
            json!({ "area": "all", "endpoint": "ep1" }),
        )
        .await;
        assert_eq!(
            verdict(&super::mcp::structured(&r)),
            verdict(&cli_check.json())
        );
        let r = call(
            "get_logs",
            json!({ "endpoint": "ep1", "deployment": "blue", "lines": 50 }),
        )
        .await;
        assert_eq!(super::mcp::structured(&r), cli_logs.json());
        let all = serde_json::to_string(&r).unwrap();
        for secret in [TOKEN, SAS_SIG, IDENTITY_HEADER] {
            assert!(!all.contains(secret), "{secret} leaked: {all}");
        }
        client.cancel().await.unwrap();
    });
    for r in fake.arm_requests() {
        assert!(
            // The POSTs are the read-only actions: container logs, the workspace diagnosis.
            r.method == "GET" || r.target.contains("/getLogs?") || r.target.contains("/diagnose?"),
            "amldoctor only reads: {} {}",
            r.method,
            r.target
        );
    }
}
