//! DNS answers as evidence. A private workspace fails quietly when a host its clients
//! call resolves to a public address, or not at all, from where they stand; what each
//! server answered for each host is recorded (`dns_answers.rs`), saved in bundles
//! (`dns.json`) and judged by `checks::dns`, so a saved bundle is judged again exactly
//! as it was seen.
//!
//! The hosts come from the resources (the endpoint's scoring URI, the workspace and
//! the registry, Key Vault and storage account it uses) and from `--host`.

use std::net::IpAddr;

use serde_json::Value;

use super::resource::{Resource, ResourceKind};

// The saved answers have their own file (see there why); they are used at these paths.
pub(crate) use super::dns_answers::{DnsDocument, DnsObservation, HostRole, Outcome};

/// A host to resolve, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct DnsTarget {
    pub host: String,
    pub role: HostRole,
}

/// The DNS suffixes of one Azure cloud.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct CloudSuffixes {
    pub inference: &'static str,
    pub api: &'static str,
    pub registry: &'static str,
    pub vault: &'static str,
    pub blob: &'static str,
    /// The private DNS zone of the workspace and scoring hosts.
    pub private_zone: &'static str,
}

impl Default for CloudSuffixes {
    fn default() -> CloudSuffixes {
        CloudSuffixes::PUBLIC
    }
}

impl CloudSuffixes {
    pub(crate) const PUBLIC: CloudSuffixes = CloudSuffixes {
        inference: "inference.ml.azure.com",
        api: "api.azureml.ms",
        registry: "azurecr.io",
        vault: "vault.azure.net",
        blob: "blob.core.windows.net",
        private_zone: "privatelink.api.azureml.ms",
    };
    pub(crate) const CHINA: CloudSuffixes = CloudSuffixes {
        inference: "inference.ml.azure.cn",
        api: "api.ml.azure.cn",
        registry: "azurecr.cn",
        vault: "vault.azure.cn",
        blob: "blob.core.chinacloudapi.cn",
        private_zone: "privatelink.api.ml.azure.cn",
    };
    pub(crate) const US_GOVERNMENT: CloudSuffixes = CloudSuffixes {
        inference: "inference.ml.azure.us",
        api: "api.ml.azure.us",
        registry: "azurecr.us",
        vault: "vault.usgovcloudapi.net",
        blob: "blob.core.usgovcloudapi.net",
        private_zone: "privatelink.api.ml.azure.us",
    };

    /// The suffixes of the cloud named as the az CLI names it (`AzureChinaCloud`).
    pub(crate) fn of(cloud: &str) -> CloudSuffixes {
        match cloud {
            "AzureChinaCloud" => CloudSuffixes::CHINA,
            "AzureUSGovernment" => CloudSuffixes::US_GOVERNMENT,
            _ => CloudSuffixes::PUBLIC,
        }
    }
}

fn text_at<'v>(json: &'v Value, pointers: &[&str]) -> Option<&'v str> {
    pointers
        .iter()
        .find_map(|p| json.pointer(p).and_then(Value::as_str))
        .filter(|s| !s.is_empty())
}

/// The host of a URL (`https://ep.eastus.inference.ml.azure.com/score` → the name).
pub(crate) fn url_host(url: &str) -> Option<String> {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let host = rest.split(['/', '?', '#']).next()?;
    let host = host.rsplit_once('@').map_or(host, |(_, h)| h);
    let host = host.split(':').next()?.trim_end_matches('.');
    // An address is not a name to resolve (a test server, a local proxy).
    let literal = host.parse::<IpAddr>().is_ok();
    (!literal && is_host_name(host)).then(|| host.to_ascii_lowercase())
}

/// Whether `s` is a DNS host name: dot-separated labels of letters, digits and `-`
/// (`_` allowed, as some Azure records use it), 1 to 63 bytes each, 253 in all.
pub(crate) fn is_host_name(s: &str) -> bool {
    let s = s.strip_suffix('.').unwrap_or(s);
    !s.is_empty()
        && s.len() <= 253
        && s.split('.').all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        })
}

/// The last segment of an ARM id (`…/registries/acr1` → `acr1`).
fn id_name(id: &str) -> Option<&str> {
    super::resource_id::ResourceId::new(id).name()
}

/// The hosts a workspace's clients call, named by the resources read.
pub(crate) fn targets(resources: &[Resource], suffixes: CloudSuffixes) -> Vec<DnsTarget> {
    let mut out: Vec<DnsTarget> = Vec::new();
    let mut add = |host: Option<String>, role: HostRole| {
        if let Some(host) = host.filter(|h| is_host_name(h))
            && !out.iter().any(|t| t.host == host)
        {
            out.push(DnsTarget { host, role });
        }
    };
    for r in resources {
        let j = &r.json;
        match r.kind {
            ResourceKind::OnlineEndpoint => add(
                text_at(j, &["/properties/scoringUri", "/scoring_uri"]).and_then(url_host),
                HostRole::Scoring,
            ),
            ResourceKind::Workspace => {
                let region = text_at(j, &["/location"]).map(str::to_ascii_lowercase);
                let id = text_at(j, &["/properties/workspaceId", "/workspace_id"]);
                if let (Some(id), Some(region)) = (id, &region) {
                    add(
                        Some(format!("{id}.workspace.{region}.{}", suffixes.api)),
                        HostRole::Workspace,
                    );
                }
                add(
                    text_at(j, &["/properties/discoveryUrl", "/discovery_url"]).and_then(url_host),
                    HostRole::Workspace,
                );
                let linked = [
                    (
                        ["/properties/containerRegistry", "/container_registry"],
                        suffixes.registry,
                        HostRole::Registry,
                    ),
                    (
                        ["/properties/keyVault", "/key_vault"],
                        suffixes.vault,
                        HostRole::KeyVault,
                    ),
                    (
                        ["/properties/storageAccount", "/storage_account"],
                        suffixes.blob,
                        HostRole::Storage,
                    ),
                ];
                for (pointers, suffix, role) in linked {
                    let name = text_at(j, &pointers).and_then(id_name);
                    add(
                        name.map(|n| format!("{}.{suffix}", n.to_ascii_lowercase())),
                        role,
                    );
                }
            }
            _ => {}
        }
    }
    out
}

/// The scoring host a managed endpoint gets by name, `{endpoint}.{region}` under the
/// cloud's inference domain, when no scoring URI was read but the workspace's region was.
pub(crate) fn scoring_by_name(
    resources: &[Resource],
    endpoint: &str,
    suffixes: CloudSuffixes,
) -> Option<DnsTarget> {
    let region = resources
        .iter()
        .filter(|r| {
            matches!(
                r.kind,
                ResourceKind::Workspace | ResourceKind::OnlineEndpoint
            )
        })
        .find_map(|r| text_at(&r.json, &["/location"]))?
        .to_ascii_lowercase();
    let host = format!("{endpoint}.{region}.{}", suffixes.inference).to_ascii_lowercase();
    is_host_name(&host).then_some(DnsTarget {
        host,
        role: HostRole::Scoring,
    })
}

/// The roles whose hosts must resolve to private addresses: each resource's own
/// `publicNetworkAccess` says so (`Disabled`); the scoring host follows the endpoint's
/// setting, or the workspace's when the endpoint was not read.
pub(crate) fn private_roles(resources: &[Resource]) -> Vec<HostRole> {
    let setting = |kind: ResourceKind| {
        resources.iter().filter(|r| r.kind == kind).find_map(|r| {
            text_at(
                &r.json,
                &["/properties/publicNetworkAccess", "/public_network_access"],
            )
            .map(|v| v.eq_ignore_ascii_case("disabled"))
        })
    };
    let workspace = setting(ResourceKind::Workspace);
    let mut out = Vec::new();
    for (role, private) in [
        (HostRole::Workspace, workspace),
        (
            HostRole::Scoring,
            setting(ResourceKind::OnlineEndpoint).or(workspace),
        ),
        (HostRole::Registry, setting(ResourceKind::ContainerRegistry)),
        (HostRole::KeyVault, setting(ResourceKind::KeyVault)),
        (HostRole::Storage, setting(ResourceKind::StorageAccount)),
    ] {
        if private == Some(true) {
            out.push(role);
        }
    }
    out
}

/// The private DNS zone that answers for a role's hosts in this cloud's public form
/// (the registry, vault and blob zones are the same names in every cloud but the suffix).
pub(crate) fn private_zone(role: HostRole, suffixes: CloudSuffixes) -> String {
    match role {
        HostRole::Registry => format!("privatelink.{}", suffixes.registry),
        HostRole::KeyVault => format!(
            "privatelink.{}",
            suffixes.vault.replace("vault.azure", "vaultcore.azure")
        ),
        HostRole::Storage => format!("privatelink.{}", suffixes.blob),
        _ => suffixes.private_zone.to_owned(),
    }
}

/// The addresses private DNS record sets give (`aRecords`, `aaaaRecords`): where the
/// private endpoints are, when the zone's records were read.
pub(crate) fn private_endpoint_addresses(
    resources: &[Resource],
) -> std::collections::BTreeMap<HostRole, Vec<IpAddr>> {
    let mut out: std::collections::BTreeMap<HostRole, Vec<IpAddr>> = Default::default();
    for r in resources
        .iter()
        .filter(|r| r.kind == ResourceKind::PrivateDnsRecordSet)
    {
        // `*.<id>.inference.<region>` answers for scoring hosts, `<id>.workspace.<region>`
        // for the workspace's API host.
        let name = text_at(&r.json, &["/name"]).unwrap_or_default();
        let role = if name.contains(".inference.") {
            HostRole::Scoring
        } else if name.contains(".workspace.") {
            HostRole::Workspace
        } else {
            continue;
        };
        for (list, key) in [("aRecords", "ipv4Address"), ("aaaaRecords", "ipv6Address")] {
            let records = r
                .json
                .pointer(&format!("/properties/{list}"))
                .or_else(|| r.json.get(list))
                .and_then(Value::as_array);
            for rec in records.into_iter().flatten() {
                let ip = rec
                    .get(key)
                    .and_then(Value::as_str)
                    .and_then(|s| s.parse().ok());
                let known = out.entry(role).or_default();
                if let Some(ip) = ip
                    && !known.contains(&ip)
                {
                    known.push(ip);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_names_and_urls() {
        assert!(is_host_name("ep-1.eastus.inference.ml.azure.com"));
        assert!(is_host_name("ep.example.org."));
        assert!(!is_host_name("not a host"));
        assert!(!is_host_name("-bad.example"));
        assert!(!is_host_name("a..b"));
        assert!(!is_host_name(""));
        assert_eq!(
            url_host("https://EP1.eastus.inference.ml.azure.com:443/score?x=1").as_deref(),
            Some("ep1.eastus.inference.ml.azure.com")
        );
        assert_eq!(url_host("https:///score"), None);
    }

    #[test]
    fn a_scoring_host_by_name_needs_the_region() {
        let ws = crate::evidence::resource::classify(
            "ws.json",
            serde_json::json!({"id": "/subscriptions/s/resourceGroups/rg/providers/Microsoft.MachineLearningServices/workspaces/ws", "name": "ws", "location": "WestEurope", "discovery_url": "https://westeurope.api.azureml.ms/discovery"}),
            crate::evidence::json_lines::JsonText::new(Vec::new()),
        );
        let crate::evidence::resource::JsonDocument::Resources(list) = ws else {
            panic!("a workspace");
        };
        let t = scoring_by_name(&list, "churn-ep", CloudSuffixes::PUBLIC).unwrap();
        assert_eq!(t.host, "churn-ep.westeurope.inference.ml.azure.com");
        assert_eq!(
            scoring_by_name(&[], "churn-ep", CloudSuffixes::PUBLIC),
            None
        );
    }

    #[test]
    fn a_saved_document_reads_back() {
        let doc = DnsDocument::new(vec![DnsObservation {
            host: "ep.eastus.inference.ml.azure.com".into(),
            role: HostRole::Scoring,
            server: "168.63.129.16:53".into(),
            outcome: Outcome::Answer {
                cnames: vec!["ep.privatelink.api.azureml.ms".into()],
                addresses: vec!["10.0.1.5".parse().unwrap()],
            },
        }]);
        let value = serde_json::to_value(&doc).unwrap();
        assert_eq!(value["amldoctor-dns"], 1);
        assert_eq!(value["observations"][0]["outcome"], "answer");
        assert_eq!(DnsDocument::from_value(&value), Some(Ok(doc)));
        assert_eq!(DnsDocument::from_value(&serde_json::json!({"id": 1})), None);
    }
}
