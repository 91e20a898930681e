//! A fleet read from Azure Resource Graph, judged one workspace at a time: the rows
//! kept as pages stream by, each workspace grouped with its endpoints, deployments and
//! the resources it links to, the resource rules of `check` over each group, and a
//! summary per workspace for the report.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::evidence::json_lines::JsonText;
use crate::evidence::resource::{JsonDocument, Resource, ResourceKind, classify};
use crate::finding::{Finding, Severity};
use crate::report::fleet::FleetWorkspace;
use crate::rules::RuleSet;

use super::{Evidence, Options, analyse};

/// The resources `check` judges, with the fields its rules read, and the subscriptions
/// (from `resourcecontainers`, for their names): the workspaces and their endpoints
/// first (so the resources they link to can be picked as they come), then the Key
/// Vaults, registries and storage accounts.
pub(crate) const QUERY: &str = "resources \
| where type in~ ('microsoft.machinelearningservices/workspaces', \
'microsoft.machinelearningservices/workspaces/onlineendpoints', \
'microsoft.machinelearningservices/workspaces/onlineendpoints/deployments', \
'microsoft.keyvault/vaults', 'microsoft.containerregistry/registries', \
'microsoft.storage/storageaccounts') \
| union (resourcecontainers | where type =~ 'microsoft.resources/subscriptions') \
| extend amldoctor_rank = iff(type startswith 'microsoft.machinelearningservices/' or type =~ 'microsoft.resources/subscriptions', 0, 1) \
| order by amldoctor_rank asc, id asc \
| project id, name, type, location, kind, sku, identity, properties, tags";

/// Rows kept as pages stream by: every Azure Machine Learning resource, and only the
/// other resources some workspace links to, so a subscription's thousands of storage
/// accounts are dropped as they come.
#[derive(Debug, Default)]
pub(crate) struct Kept {
    rows: Vec<Value>,
    links: std::collections::HashSet<String>,
    /// Linked-kind rows seen before any workspace that could claim them (bounded).
    pending: Vec<Value>,
    /// Rows dropped because `pending` was full.
    dropped: u64,
    /// Subscription id (lower case) → display name.
    subscription_names: BTreeMap<String, String>,
}

/// Linked-kind rows held at most while no workspace has been seen.
const PENDING_KEPT: usize = 10_000;

impl Kept {
    pub(crate) fn add(&mut self, row: Value) {
        let ty = row["type"]
            .as_str()
            .unwrap_or_default()
            .to_ascii_lowercase();
        if ty == "microsoft.resources/subscriptions" {
            let id = lower(&row["id"]).unwrap_or_default();
            let sub = id.rsplit('/').next().unwrap_or_default().to_owned();
            let name = row["properties"]["displayName"]
                .as_str()
                .or_else(|| row["name"].as_str())
                .unwrap_or_default()
                .to_owned();
            if !sub.is_empty() && !name.is_empty() {
                self.subscription_names.insert(sub, name);
            }
            return;
        }
        if ty.starts_with("microsoft.machinelearningservices/") {
            if ty == "microsoft.machinelearningservices/workspaces" {
                for link in LINKS {
                    if let Some(target) = lower(&row["properties"][link]) {
                        self.links.insert(target);
                    }
                }
            }
            self.rows.push(row);
        } else if lower(&row["id"]).is_some_and(|id| self.links.contains(&id)) {
            self.rows.push(row);
        } else if self.links.is_empty() {
            if self.pending.len() < PENDING_KEPT {
                self.pending.push(row);
            } else {
                self.dropped += 1;
            }
        }
    }

    pub(crate) fn finish(mut self) -> (Vec<Value>, u64, BTreeMap<String, String>) {
        let links = self.links;
        self.rows.extend(
            self.pending
                .into_iter()
                .filter(|r| lower(&r["id"]).is_some_and(|id| links.contains(&id))),
        );
        (self.rows, self.dropped, self.subscription_names)
    }
}

/// The workspace properties naming the resources it depends on.
const LINKS: [&str; 3] = ["keyVault", "containerRegistry", "storageAccount"];

/// What the user must know about the answer: cut short, or resources that came
/// before any workspace and so could not be placed.
pub(crate) fn warnings(truncated: bool, limit_hit: bool, dropped: u64) -> Vec<String> {
    let mut warnings = Vec::new();
    if limit_hit {
        warnings.push(
            "Resource Graph covered only part of the scope's subscriptions (x-ms-tenant-subscription-limit-hit): name them with --subscription, or a smaller --management-group, to check the rest".to_owned(),
        );
    }
    if truncated {
        warnings.push(
            "Resource Graph cut the answer short (resultTruncated): narrow the scope to check the rest".to_owned(),
        );
    }
    if dropped > 0 {
        warnings.push(format!(
            "{dropped} Key Vaults, registries or storage accounts came before any workspace in the Resource Graph answer and were not checked"
        ));
    }
    warnings
}

/// The findings over every workspace (a Key Vault or registry two share is judged
/// once) and a summary of each, worst first. `subscription_names` names the
/// subscriptions by id (lower case).
pub(crate) fn judge(
    set: &RuleSet,
    rows: Vec<Value>,
    options: &Options,
    subscription_names: &BTreeMap<String, String>,
) -> (Vec<Finding>, Vec<FleetWorkspace>) {
    let mut findings: Vec<Finding> = Vec::new();
    let mut workspaces = Vec::new();
    for (id, members) in by_workspace(rows) {
        let resources = resources_of(&id, members);
        let mut ws = options.clone();
        if let Some(first) = resources.first() {
            for (k, v) in first.names() {
                if let Some(key) = ["subscription", "group", "workspace"]
                    .into_iter()
                    .find(|n| *n == k)
                {
                    ws.names.insert(key, v);
                }
            }
        }
        // The summary reads the resources first, so they move into the analysis.
        let mut summary = summary_of(&id, &resources);
        let found = analyse(set, Evidence::of_resources(resources), &ws).findings;
        count_findings(&mut summary, &found);
        summary.subscription_name = subscription_names
            .get(&summary.subscription.to_ascii_lowercase())
            .cloned();
        workspaces.push(summary);
        for f in found {
            if !findings
                .iter()
                .any(|g| g.rule_id == f.rule_id && g.fingerprint == f.fingerprint)
            {
                findings.push(f);
            }
        }
    }
    // Worst first: errors, then warnings, then by name.
    workspaces.sort_by(|a, b| {
        (b.errors, b.warnings, &a.workspace).cmp(&(a.errors, a.warnings, &b.workspace))
    });
    (findings, workspaces)
}

fn lower(v: &Value) -> Option<String> {
    v.as_str()
        .map(|s| s.trim_end_matches('/').to_ascii_lowercase())
        .filter(|s| !s.is_empty())
}

/// Each workspace id (lower case) with the rows that belong to it: the workspace, its
/// endpoints and deployments (by id), and the resources it links to.
fn by_workspace(rows: Vec<Value>) -> BTreeMap<String, Vec<Value>> {
    let is_ws = |r: &Value| {
        r["type"]
            .as_str()
            .is_some_and(|t| t.eq_ignore_ascii_case("microsoft.machinelearningservices/workspaces"))
    };
    let mut groups: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    // Linked resource id → the workspaces that link it.
    let mut links: std::collections::HashMap<String, Vec<String>> = Default::default();
    for r in rows.iter().filter(|r| is_ws(r)) {
        let Some(id) = lower(&r["id"]) else { continue };
        for link in LINKS {
            if let Some(target) = lower(&r["properties"][link]) {
                links.entry(target).or_default().push(id.clone());
            }
        }
        groups.insert(id, Vec::new());
    }
    for r in rows {
        let Some(id) = lower(&r["id"]) else { continue };
        if is_ws(&r) {
            if let Some(g) = groups.get_mut(&id) {
                g.insert(0, r);
            }
            continue;
        }
        // An endpoint or deployment: the workspace its id names before the endpoint.
        if let Some((ws, _)) = id.split_once("/onlineendpoints/") {
            if let Some(g) = groups.get_mut(ws) {
                g.push(r);
            }
            continue;
        }
        for w in links.get(&id).into_iter().flatten() {
            if let Some(g) = groups.get_mut(w) {
                g.push(r.clone());
            }
        }
    }
    groups
}

/// The rows of one workspace as resources, the workspace first; each is named by its
/// resource id, which is what evidence points at.
fn resources_of(workspace: &str, rows: Vec<Value>) -> Vec<Resource> {
    let mut out = Vec::new();
    for row in rows {
        let path = row["id"].as_str().unwrap_or(workspace).to_owned();
        let text = serde_json::to_vec_pretty(&row).unwrap_or_default();
        if let JsonDocument::Resources(list) = classify(&path, row, JsonText::new(text)) {
            out.extend(list);
        }
    }
    out
}

/// A workspace's line of the fleet table, before its findings are counted.
fn summary_of(id: &str, resources: &[Resource]) -> FleetWorkspace {
    let ws = resources.iter().find(|r| r.kind == ResourceKind::Workspace);
    let names = ws.map(Resource::names).unwrap_or_default();
    FleetWorkspace {
        workspace: names
            .get("workspace")
            .cloned()
            .unwrap_or_else(|| id.rsplit('/').next().unwrap_or(id).to_owned()),
        subscription: names.get("subscription").cloned().unwrap_or_default(),
        subscription_name: None,
        group: names.get("group").cloned().unwrap_or_default(),
        resources: resources.len() as u64,
        endpoints: resources
            .iter()
            .filter(|r| r.kind == ResourceKind::OnlineEndpoint)
            .count() as u64,
        errors: 0,
        warnings: 0,
        infos: 0,
        error_rules: Vec::new(),
    }
}

/// The workspace's findings by severity, and the rules of its errors.
fn count_findings(summary: &mut FleetWorkspace, found: &[Finding]) {
    let count = |s: Severity| found.iter().filter(|f| f.severity == s).count() as u64;
    let mut rules: Vec<String> = found
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .map(|f| f.rule_id.clone())
        .collect();
    rules.sort();
    rules.dedup();
    summary.errors = count(Severity::Error);
    summary.warnings = count(Severity::Warning);
    summary.infos = count(Severity::Info);
    summary.error_rules = rules;
}
