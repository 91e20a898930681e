//! The workspace diagnose API's own results as findings: Azure checks the workspace's
//! network, DNS, Key Vault, storage, registry and Application Insights setup itself,
//! and each item it returns becomes a finding whose id is the item's code and whose
//! severity is its level. The codes are Azure's, not amldoctor's, so they have no rule
//! file: the message the service wrote is the explanation.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::evidence::resource::{Resource, ResourceKind};
use crate::finding::{Evidence, Finding, Location, Severity};

/// The documentation of the diagnose API.
const DOCS: &str =
    "https://learn.microsoft.com/azure/machine-learning/how-to-workspace-diagnostic-api";

/// Every result item of every workspace diagnosis among `resources`.
/// The commands are templates: the run's workspace and group fill them later, with
/// every other finding's.
pub(crate) fn findings(resources: &[Resource]) -> Vec<Finding> {
    let mut out = Vec::new();
    for r in resources
        .iter()
        .filter(|r| r.kind == ResourceKind::WorkspaceDiagnosis)
    {
        let (root, prefix) = match r.json.get("value") {
            Some(v @ Value::Object(_)) => (v, "/value"),
            _ => (&r.json, ""),
        };
        let Some(categories) = root.as_object() else {
            continue;
        };
        for (category, items) in categories {
            for (i, item) in items.as_array().into_iter().flatten().enumerate() {
                let pointer = format!("{prefix}/{category}/{i}");
                if let Some(f) = finding(r, category, &pointer, item) {
                    out.push(f);
                }
            }
        }
    }
    out
}

/// One result item: `{"code", "level", "message"}`.
fn finding(r: &Resource, category: &str, pointer: &str, item: &Value) -> Option<Finding> {
    let clean = |s: &str| crate::redact::clean(s).into_owned();
    let code = clean(
        item["code"]
            .as_str()
            .filter(|c| !c.trim().is_empty())?
            .trim(),
    );
    let message = clean(item["message"].as_str().unwrap_or("(no message)"));
    let severity = match item["level"]
        .as_str()
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some("error") => Severity::Error,
        Some("warning") => Severity::Warning,
        _ => Severity::Info,
    };
    let area = area_name(category);
    let evidence = Evidence {
        location: Location::Pointer {
            path: r.path.clone(),
            line: r.line_of(pointer),
            pointer: r.absolute(pointer),
        },
        text: format!("{code}: {message}"),
        at: 0,
        computed: false,
        columns: None,
    };
    let mut facts = BTreeMap::new();
    facts.insert("category".to_owned(), area.to_owned());
    // A diagnosis names no resource: the run's workspace and group fill it.
    let command = "az ml workspace diagnose --name {workspace} --resource-group {group}".to_owned();
    Some(Finding {
        fingerprint: crate::finding::fingerprint(&code, &evidence.text),
        rule_id: code,
        severity,
        layer: crate::finding::Layer::ServiceError,
        family: "workspace-diagnosis".to_owned(),
        title: format!("Azure's workspace diagnosis ({area}): {message}"),
        count: 1,
        inputs: 1,
        evidence: vec![evidence],
        facts,
        names: BTreeMap::new(),
        remediation: format!(
            "Azure's own diagnosis of the workspace reported this about its {area}. Follow the message above; run the diagnosis again after the change to confirm it is gone."
        ),
        commands: vec![command],
        docs: vec![DOCS.to_owned()],
        caused_by: Vec::new(),
        symptoms: Vec::new(),
        edits: Vec::new(),
        paths: vec![r.path.clone()],
        failing: false,
        baseline_state: None,
    })
}

/// `dnsResolutionResults` / `dns_resolution_results` → `DNS resolution`.
fn area_name(category: &str) -> &str {
    let key = category.to_ascii_lowercase().replace('_', "");
    match key.trim_end_matches("results") {
        "userdefinedroute" => "user-defined routes",
        "networksecurityrule" => "network security rules",
        "resourcelock" => "resource locks",
        "dnsresolution" => "DNS resolution",
        "storageaccount" => "storage account",
        "keyvault" => "Key Vault",
        "containerregistry" => "container registry",
        "applicationinsights" => "Application Insights",
        "requiredresourceproviders" => "resource providers",
        _ => "setup",
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn categories_read_as_words() {
        assert_eq!(super::area_name("dnsResolutionResults"), "DNS resolution");
        assert_eq!(super::area_name("key_vault_results"), "Key Vault");
        assert_eq!(super::area_name("otherResults"), "setup");
    }
}
