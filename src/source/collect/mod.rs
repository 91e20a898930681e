//! Reading from Azure into a bundle: what `logs --out`, live `diagnose` and live
//! `check` collect. Each piece that cannot be read is recorded in the manifest with its
//! reason (a missing permission names the role), so what was read is still analysed;
//! only a failure that leaves nothing to analyse (the endpoint or run does not exist,
//! no credential) ends the command.

pub(crate) mod run_tree;

use serde_json::Value;

use crate::error::{Error, Result};
use crate::source::azure::Azure;
pub(crate) use crate::source::azure::arm::CONTAINERS;
use crate::source::bundle::{BundleSource, BundleWriter, Manifest};

/// The workspace a live command reads, and the names for the manifest.
#[derive(Debug, Clone)]
pub(crate) struct Place {
    /// `/subscriptions/…/workspaces/…`.
    pub workspace_path: String,
    pub source: BundleSource,
}

impl Place {
    pub(crate) fn endpoint_path(&self, endpoint: &str) -> String {
        format!("{}/onlineEndpoints/{endpoint}", self.workspace_path)
    }
}

/// The bundle's creation time.
pub(crate) fn created() -> String {
    jiff::Timestamp::now().to_string()
}

/// What live `check` reads besides DNS answers: the `check` areas by name, the
/// endpoint (and deployment) to read, and the cloud's private DNS zone.
#[derive(Debug, Clone)]
pub(crate) struct CheckPlan<'a> {
    pub areas: &'a [&'a str],
    pub endpoint: Option<&'a str>,
    pub deployment: Option<&'a str>,
    pub private_zone: &'a str,
}

/// Reads what the planned areas need into `bundle`: a piece that cannot be read is a
/// skipped check; a named endpoint that does not exist ends the command.
pub(crate) fn check_bundle(
    azure: &mut Azure,
    place: &Place,
    plan: &CheckPlan<'_>,
    bundle: &mut BundleWriter,
) -> Result<()> {
    let workspace = workspace(azure, place, bundle);
    let workspace = workspace.as_ref().map_err(String::as_str);
    workspace_checks(azure, place, workspace, plan.areas, bundle);
    let wants = |a: &str| plan.areas.contains(&a);
    if wants("dns") {
        private_dns_records(azure, place, plan.private_zone, bundle);
    }
    // The DNS check needs the endpoint only for its scoring host.
    if wants("deployment") || (wants("dns") && plan.endpoint.is_some()) {
        match plan.endpoint {
            Some(endpoint) => {
                let read = deployments(azure, place, endpoint, plan.deployment, true, None, bundle);
                // A refusal skips this check only; anything else (a name that does not
                // exist) is the user's to fix first.
                match read {
                    Err(e) if e.service.as_ref().is_some_and(|s| s.status == 403) => {
                        let role = format!(
                            "Reader (or another role that can read it) on endpoint '{endpoint}'"
                        );
                        let reason = needs_role(&e, &role);
                        bundle.skipped("deployment", &format!("endpoint {endpoint}"), &reason);
                    }
                    other => {
                        other?;
                    }
                }
            }
            None => bundle.skipped(
                "deployment",
                "the deployment check",
                "no endpoint was named; pass -e ENDPOINT (and -n DEPLOYMENT) to check one",
            ),
        }
    }
    Ok(())
}

/// What a live diagnosis reads: a deployment of an endpoint, or a run's log tree.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Live<'a> {
    Deployment {
        endpoint: &'a str,
        deployment: Option<&'a str>,
    },
    Run(&'a str),
}

/// Container log lines a live diagnosis reads (as many as az reads by default).
const LIVE_LOG_LINES: u64 = 5000;
/// Parallel downloads of a live `--run` diagnosis.
const LIVE_DOWNLOADS: usize = 8;

/// The deployment's (or run's) bundle, read from Azure into `dir`.
pub(crate) fn live_bundle(
    azure: &mut Azure,
    place: &Place,
    what: Live<'_>,
    dir: &std::path::Path,
) -> Result<Manifest> {
    match what {
        Live::Deployment {
            endpoint,
            deployment,
        } => deployment_bundle(azure, place, endpoint, deployment, LIVE_LOG_LINES, dir),
        Live::Run(run) => run_bundle(azure, place, run, LIVE_DOWNLOADS, dir).map(|(m, _)| m),
    }
}

/// Reads the workspace, saving it; when it cannot be read, why (also recorded).
pub(crate) fn workspace(
    azure: &mut Azure,
    place: &Place,
    bundle: &mut BundleWriter,
) -> Result<Value, String> {
    let name = place.source.workspace.clone().unwrap_or_default();
    let what = format!("reading workspace '{name}'");
    let path = "resources/workspace.json";
    let label = format!("workspace {name}");
    match azure.ml_resource(&place.workspace_path, &what) {
        Ok(ws) => {
            if save_json(bundle, path, &label, &ws) {
                Ok(ws)
            } else {
                Err(format!("{label} could not be saved"))
            }
        }
        Err(e) => {
            let reason = needs_role(
                &e,
                &format!("Reader (or another role that can read it) on {label}"),
            );
            bundle.failed(&label, &reason, Some(path));
            Err(reason)
        }
    }
}

/// Reads an online endpoint, the chosen deployments (`None`: the only one, or with
/// `every`, all of them), their JSON and, with `lines`, the tail of both containers'
/// logs. The endpoint must exist; every other failure is recorded. Returns the
/// deployments read.
pub(crate) fn deployments(
    azure: &mut Azure,
    place: &Place,
    endpoint: &str,
    deployment: Option<&str>,
    every: bool,
    lines: Option<u64>,
    bundle: &mut BundleWriter,
) -> Result<Vec<String>> {
    let endpoint_path = place.endpoint_path(endpoint);
    let what = format!("reading endpoint '{endpoint}'");
    let ep = azure.ml_resource(&endpoint_path, &what)?;
    save_json(
        bundle,
        &format!("resources/endpoint-{endpoint}.json"),
        &format!("online endpoint {endpoint}"),
        &ep,
    );
    let names = match deployment {
        Some(d) => vec![d.to_owned()],
        None if every => deployment_names(azure, &endpoint_path, endpoint)?,
        None => vec![only_deployment(azure, &endpoint_path, endpoint)?],
    };
    for name in &names {
        let dep_path = format!("{endpoint_path}/deployments/{name}");
        let file = format!("resources/deployment-{name}.json");
        let label = format!("online deployment {endpoint}/{name}");
        let what = format!("reading deployment '{name}' of endpoint '{endpoint}'");
        match azure.ml_resource(&dep_path, &what) {
            Ok(dep) => {
                save_json(bundle, &file, &label, &dep);
            }
            // A deployment the user named that does not exist is theirs to fix first:
            // checking nothing would pass the gate on a typo.
            Err(e) if deployment.is_some() && is_not_found(&e) => {
                return Err(no_such_deployment(azure, &endpoint_path, endpoint, e));
            }
            Err(e) => bundle.failed(&label, &sentence(&e), Some(&file)),
        }
        let Some(lines) = lines else { continue };
        for (container, rest) in CONTAINERS {
            let file = format!("containers/{name}/{container}.log");
            let label = format!("{container} log of deployment {endpoint}/{name}");
            match container_log(azure, &dep_path, rest, lines, &label) {
                Ok(text) => {
                    if let Err(e) = bundle.write_text(&file, &label, &text) {
                        bundle.failed(&label, &sentence(&e), Some(&file));
                    }
                }
                Err(e) => bundle.failed(&label, &sentence(&e), Some(&file)),
            }
        }
    }
    Ok(names)
}

/// `logs -e EP --out DIR` and live `diagnose -e EP`: the workspace, the endpoint, the
/// deployment and both containers' logs, saved with the manifest.
pub(crate) fn deployment_bundle(
    azure: &mut Azure,
    place: &Place,
    endpoint: &str,
    deployment: Option<&str>,
    lines: u64,
    dir: &std::path::Path,
) -> Result<Manifest> {
    let mut source = place.source.clone();
    source.endpoint = Some(endpoint.to_owned());
    let mut bundle = BundleWriter::create(dir, source, created())?;
    // A workspace that cannot be read is recorded; the deployment is still read.
    let _ = workspace(azure, place, &mut bundle);
    let names = deployments(
        azure,
        place,
        endpoint,
        deployment,
        false,
        Some(lines),
        &mut bundle,
    )?;
    bundle.manifest.source.deployment = names.first().cloned();
    bundle.finish()
}

/// `logs --run RUN --out DIR` and live `diagnose --run RUN`: the run's log tree, saved
/// with the manifest. Returns it with the download's tally.
pub(crate) fn run_bundle(
    azure: &mut Azure,
    place: &Place,
    run: &str,
    jobs: usize,
    dir: &std::path::Path,
) -> Result<(Manifest, run_tree::Tally)> {
    let mut source = place.source.clone();
    source.run = Some(run.to_owned());
    let mut bundle = BundleWriter::create(dir, source, created())?;
    let workspace = workspace(azure, place, &mut bundle).map_err(|why| {
        Error::access(format!("cannot read the workspace, so not its runs: {why}"))
    })?;
    let (step, tally) = run_tree::fetch_tree(azure, place, &workspace, run, jobs, &mut bundle)?;
    if step != run {
        bundle.manifest.source.requested_run = Some(run.to_owned());
        bundle.manifest.source.run = Some(step);
    }
    Ok((bundle.finish()?, tally))
}

/// One container's log tail, as text (redacted).
pub(crate) fn container_log(
    azure: &mut Azure,
    deployment_path: &str,
    container_type: &str,
    lines: u64,
    what: &str,
) -> Result<String> {
    azure.container_log(
        deployment_path,
        container_type,
        lines,
        &format!("reading the {what}"),
    )
}

/// The endpoint's deployment when it has exactly one; otherwise an error listing them.
pub(crate) fn only_deployment(
    azure: &mut Azure,
    endpoint_path: &str,
    endpoint: &str,
) -> Result<String> {
    let names = deployment_names(azure, endpoint_path, endpoint)?;
    match names.as_slice() {
        [one] => Ok(one.clone()),
        many => Err(Error::input(format!(
            "endpoint '{endpoint}' has {} deployments ({}); say which with -n",
            many.len(),
            many.join(", ")
        ))),
    }
}

fn is_not_found(e: &Error) -> bool {
    e.service.as_ref().is_some_and(|s| s.status == 404)
}

/// A failed read of a deployment the user named: the service's 404 as an access error
/// with the deployments the endpoint has; any other error as it is.
pub(crate) fn no_such_deployment(
    azure: &mut Azure,
    endpoint_path: &str,
    endpoint: &str,
    e: Error,
) -> Error {
    if !is_not_found(&e) {
        return e;
    }
    let what = format!("listing the deployments of endpoint '{endpoint}'");
    let hint = match azure.deployment_names(endpoint_path, &what) {
        Ok(names) if names.is_empty() => format!("endpoint '{endpoint}' has no deployment"),
        Ok(names) => format!(
            "endpoint '{endpoint}' has {}: {}; pass one with -n",
            if names.len() == 1 {
                "one deployment"
            } else {
                "these deployments"
            },
            names.join(", ")
        ),
        // The endpoint itself cannot be read: the service's own hint says what to list.
        Err(_) => return e,
    };
    Error {
        kind: crate::error::ErrorKind::Access,
        ..e
    }
    .with_hint(hint)
}

/// Every deployment of the endpoint (at least one).
fn deployment_names(azure: &mut Azure, endpoint_path: &str, endpoint: &str) -> Result<Vec<String>> {
    let what = format!("listing the deployments of endpoint '{endpoint}'");
    let names = azure.deployment_names(endpoint_path, &what)?;
    if names.is_empty() {
        return Err(Error::input(format!(
            "endpoint '{endpoint}' has no deployment"
        )));
    }
    Ok(names)
}

/// What a live `check` reads besides endpoints: the workspace's Key Vault, its
/// registry (the document and its private endpoint connections), its storage account,
/// and the workspace's own diagnosis, for the `check` areas named in `areas`. A piece
/// that cannot be read is a skipped check with the reason and the role it needs.
pub(crate) fn workspace_checks(
    azure: &mut Azure,
    place: &Place,
    workspace: Result<&Value, &str>,
    areas: &[&str],
    bundle: &mut BundleWriter,
) {
    let wants = |a: &str| areas.contains(&a);
    let ws = match workspace {
        Ok(ws) => ws,
        Err(why) => {
            for a in ["workspace", "keyvault", "private-endpoint"]
                .into_iter()
                .filter(|a| wants(a))
            {
                let reason = format!("the workspace could not be read: {why}");
                bundle.skipped(a, &format!("the {a} check"), &reason);
            }
            return;
        }
    };
    let props = &ws["properties"];
    if wants("keyvault") {
        key_vault(azure, props, bundle);
    }
    if wants("private-endpoint") {
        registry(azure, props, bundle);
        storage_account(azure, props, bundle);
    }
    if wants("workspace") {
        diagnosis(azure, place, bundle);
    }
}

fn key_vault(azure: &mut Azure, props: &Value, bundle: &mut BundleWriter) {
    let Some(id) = props["keyVault"].as_str().filter(|s| !s.is_empty()) else {
        bundle.skipped(
            "keyvault",
            "the Key Vault check",
            "the workspace names no Key Vault",
        );
        return;
    };
    let label = "the workspace's Key Vault";
    let read = azure.key_vault(id, &format!("reading {label}"));
    let file = "resources/key-vault.json";
    linked(bundle, read, "keyvault", file, label, Without::SkipsCheck);
}

/// The workspace's registry: its document (network rules, the connections it lists)
/// and its private endpoint connections, which the private-endpoint check reads.
fn registry(azure: &mut Azure, props: &Value, bundle: &mut BundleWriter) {
    let Some(id) = props["containerRegistry"]
        .as_str()
        .filter(|s| !s.is_empty())
    else {
        bundle.skipped(
            "private-endpoint",
            "the registry's private endpoint connections",
            "the workspace has no container registry yet (one is created with the first image build)",
        );
        return;
    };
    let check = "private-endpoint";
    let label = "the workspace's container registry";
    let read = azure.registry(id, &format!("reading {label}"));
    let file = "resources/container-registry.json";
    linked(bundle, read, check, file, label, Without::CheckRunsOn);
    let label = "the registry's private endpoint connections";
    let read = azure.registry_connections(id, &format!("reading {label}"));
    let file = "resources/registry-private-endpoint-connections.json";
    linked(bundle, read, check, file, label, Without::SkipsCheck);
}

fn storage_account(azure: &mut Azure, props: &Value, bundle: &mut BundleWriter) {
    let Some(id) = props["storageAccount"].as_str().filter(|s| !s.is_empty()) else {
        bundle.part_missing(
            "private-endpoint",
            "the workspace's storage account",
            "the workspace names no storage account",
        );
        return;
    };
    let label = "the workspace's storage account";
    let read = azure.storage_account(id, &format!("reading {label}"));
    let file = "resources/storage-account.json";
    linked(
        bundle,
        read,
        "private-endpoint",
        file,
        label,
        Without::CheckRunsOn,
    );
}

/// The record sets of the workspace's private DNS zone, when it is in the workspace's
/// resource group; what the private endpoint wrote there is what `check dns` expects.
pub(crate) fn private_dns_records(
    azure: &mut Azure,
    place: &Place,
    zone: &str,
    bundle: &mut BundleWriter,
) {
    let label = format!("the record sets of the private DNS zone {zone}");
    let group_path = place
        .workspace_path
        .split("/providers/")
        .next()
        .unwrap_or_default()
        .to_owned();
    match azure.private_dns_records(&group_path, zone, &format!("reading {label}")) {
        Ok(value) => {
            save_json(bundle, "resources/private-dns-records.json", &label, &value);
            private_dns_links(azure, &group_path, zone, bundle);
        }
        Err(e) if e.service.as_ref().is_some_and(|s| s.status == 404) => bundle.part_missing(
            "dns",
            &label,
            "the workspace's resource group has no such zone; if it is in another group, save 'az network private-dns record-set list -g GROUP -z ZONE -o json' and pass it with --from",
        ),
        Err(e) => {
            let reason = needs_role(&e, &format!("Reader (or another role that can read it) on {label}"));
            bundle.part_missing("dns", &label, &reason);
        }
    }
}

/// The zone's links to virtual networks; a zone linked to none answers nowhere.
fn private_dns_links(azure: &mut Azure, group_path: &str, zone: &str, bundle: &mut BundleWriter) {
    let label = format!("the virtual network links of the private DNS zone {zone}");
    match azure.private_dns_links(group_path, zone, &format!("reading {label}")) {
        Ok(value) if value["value"].as_array().is_some_and(Vec::is_empty) => bundle.part_missing(
            "dns",
            &label,
            "the zone is linked to no virtual network, so no machine resolves through it; link it with 'az network private-dns link vnet create'",
        ),
        Ok(value) => {
            save_json(bundle, "resources/private-dns-links.json", &label, &value);
        }
        Err(e) => {
            let reason = needs_role(&e, &format!("Reader (or another role that can read it) on {label}"));
            bundle.part_missing("dns", &label, &reason);
        }
    }
}

/// The workspace diagnose API, a long-running operation; its result is saved whole.
fn diagnosis(azure: &mut Azure, place: &Place, bundle: &mut BundleWriter) {
    let label = "the workspace's diagnosis";
    let path = "resources/workspace-diagnosis.json";
    match azure.workspace_diagnosis(&place.workspace_path, "running the workspace's diagnosis") {
        Ok(result) if result.get("value").is_some_and(Value::is_object) => {
            save_json(bundle, path, label, &result);
        }
        Ok(_) => bundle.skipped(
            "workspace",
            label,
            "the operation ended without a result to read",
        ),
        Err(e) => {
            let reason = needs_role(
                &e,
                "a role allowed Microsoft.MachineLearningServices/workspaces/diagnose/action on the workspace, such as Contributor or AzureML Data Scientist",
            );
            bundle.skipped("workspace", label, &reason);
        }
    }
}

/// What a linked resource that cannot be read does to its `check` area.
#[derive(Debug, Clone, Copy)]
enum Without {
    /// The check needs it: the check is skipped.
    SkipsCheck,
    /// The check reads it beside others: it runs without it, saying so.
    CheckRunsOn,
}

/// Saves what a resource the workspace links to gave as the `check` area's input, or
/// records what its absence does to the check, with the role a refusal needs.
fn linked(
    bundle: &mut BundleWriter,
    read: Result<Value>,
    check: &str,
    file: &str,
    label: &str,
    without: Without,
) {
    match read {
        Ok(value) => {
            save_json(bundle, file, label, &value);
        }
        Err(e) => {
            let role = format!("Reader (or another role that can read it) on {label}");
            let reason = needs_role(&e, &role);
            match without {
                Without::SkipsCheck => bundle.skipped(check, label, &reason),
                Without::CheckRunsOn => bundle.part_missing(check, label, &reason),
            }
        }
    }
}

/// A refusal (403) says which role would have let the read through; other failures
/// keep their own next step.
pub(crate) fn needs_role(e: &Error, role: &str) -> String {
    if e.service.as_ref().is_some_and(|s| s.status == 403) {
        format!("{e}; the identity needs {role}")
    } else {
        sentence(e)
    }
}

/// Saves JSON, recording a failure to write; whether it was saved.
fn save_json(bundle: &mut BundleWriter, path: &str, what: &str, value: &Value) -> bool {
    match bundle.write_json(path, what, value) {
        Ok(()) => true,
        Err(e) => {
            bundle.failed(what, &sentence(&e), Some(path));
            false
        }
    }
}

/// An error as the manifest keeps it: the sentence and its next step.
pub(crate) fn sentence(e: &Error) -> String {
    match &e.hint {
        Some(h) => format!("{e}; {h}"),
        None => e.to_string(),
    }
}

/// One Azure Machine Learning resource read from Azure, as a resource of `kind`.
pub(crate) fn ml_resource(
    azure: &mut Azure,
    path: &str,
    kind: crate::evidence::resource::ResourceKind,
    what: &str,
) -> Result<crate::evidence::resource::Resource> {
    use crate::evidence::json_lines::JsonText;
    use crate::evidence::resource::{JsonDocument, classify};
    let answer = azure.ml_resource(path, what)?;
    let bytes = serde_json::to_vec_pretty(&answer).unwrap_or_default();
    match classify(path, answer, JsonText::new(bytes)) {
        JsonDocument::Resources(list) => list.into_iter().find(|r| r.kind == kind),
        _ => None,
    }
    .ok_or_else(|| Error::access(format!("{what}: the answer is not an {}", kind.name())))
}

/// The lines of `now` after what `before` already showed. Both are tails of the same
/// log, so `before`'s end reappears in `now`: everything after the longest such overlap
/// is new. With no overlap (the log was rotated or grew past the tail), all of `now`.
pub(crate) fn new_lines<'a>(before: &str, now: &'a str) -> Vec<&'a str> {
    let old: Vec<&str> = before.lines().collect();
    let new: Vec<&str> = now.lines().collect();
    let Some(last) = old.last() else {
        return new;
    };
    // Candidate ends of the overlap: where `now` repeats `before`'s last line, latest
    // first, confirmed by the lines before it.
    for end in (0..new.len()).rev().filter(|i| new[*i] == *last) {
        let k = (end + 1).min(old.len());
        if new[end + 1 - k..=end] == old[old.len() - k..] {
            return new[end + 1..].to_vec();
        }
    }
    new
}

#[cfg(test)]
mod tests {
    use super::new_lines;

    #[test]
    fn only_lines_after_the_overlap_are_new() {
        assert_eq!(new_lines("a\nb\nc", "b\nc\nd\ne"), ["d", "e"]);
        assert_eq!(new_lines("a\nb\nc", "a\nb\nc"), Vec::<&str>::new());
        // A repeated line is matched with what came before it.
        assert_eq!(
            new_lines("x\nok\ny\nok", "y\nok\nz\nok\nw"),
            ["z", "ok", "w"]
        );
        assert_eq!(new_lines("", "a\nb"), ["a", "b"]);
        // No overlap: the log rotated; all of it is new.
        assert_eq!(new_lines("a\nb", "c\nd"), ["c", "d"]);
    }
}
