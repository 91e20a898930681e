//! The Resource Manager reads amldoctor makes, one method each, with their paths and
//! api-versions: a workspace, its online endpoints and deployments and their container
//! logs, the Key Vault and registry connections it links to, and its own diagnosis;
//! for `score`, the endpoint's scoring credential (`listKeys`, `token`: read-only
//! POSTs). Every one only reads.

use serde_json::{Value, json};

use super::Azure;
use crate::error::{Error, Result};

/// Workspaces, online endpoints and deployments (stable).
pub(crate) const ML_API: &str = "2024-10-01";
/// Key Vault management.
const KEY_VAULT_API: &str = "2023-07-01";
/// Container registry management.
const REGISTRY_API: &str = "2023-07-01";
/// Private DNS zones and their record sets.
const PRIVATE_DNS_API: &str = "2020-06-01";
/// Microsoft.Storage's: a stable version with every field the rules read
/// (`publicNetworkAccess`, `networkAcls`, `privateEndpointConnections`); azure-mgmt-storage
/// 25.3 defaults to 2026-09-01, which reads them the same.
const STORAGE_API: &str = "2023-05-01";

/// The containers getLogs reads: our name and the service's.
pub(crate) const CONTAINERS: [(&str, &str); 2] = [
    ("storage-initializer", "StorageInitializer"),
    ("inference-server", "InferenceServer"),
];

impl Azure {
    /// `GET` a workspace, endpoint or deployment by its path.
    pub(crate) fn ml_resource(&mut self, path: &str, what: &str) -> Result<Value> {
        self.arm_get(path, ML_API, what)
    }

    /// The endpoint's primary key (`POST …/listKeys`), for key authentication. The
    /// answer is never traced or saved.
    pub(crate) fn endpoint_key(&mut self, endpoint_path: &str, what: &str) -> Result<String> {
        let keys = self.arm_post(
            &format!("{endpoint_path}/listKeys"),
            ML_API,
            &json!({}),
            what,
        )?;
        keys["primaryKey"]
            .as_str()
            .or_else(|| keys["secondaryKey"].as_str())
            .filter(|k| !k.is_empty())
            .map(str::to_owned)
            .ok_or_else(|| Error::access(format!("{what}: the answer holds no key")))
    }

    /// A scoring token of the endpoint (`POST …/token`), for AML token authentication.
    pub(crate) fn endpoint_token(&mut self, endpoint_path: &str, what: &str) -> Result<String> {
        let answer = self.arm_post(&format!("{endpoint_path}/token"), ML_API, &json!({}), what)?;
        answer["accessToken"]
            .as_str()
            .filter(|t| !t.is_empty())
            .map(str::to_owned)
            .ok_or_else(|| Error::access(format!("{what}: the answer holds no token")))
    }

    /// The names of an endpoint's deployments.
    pub(crate) fn deployment_names(
        &mut self,
        endpoint_path: &str,
        what: &str,
    ) -> Result<Vec<String>> {
        let list = self.arm_list(&format!("{endpoint_path}/deployments"), ML_API, what)?;
        Ok(list
            .iter()
            .filter_map(|d| d["name"].as_str().map(str::to_owned))
            .collect())
    }

    /// The tail of one container's log (the getLogs action), secrets redacted.
    pub(crate) fn container_log(
        &mut self,
        deployment_path: &str,
        container_type: &str,
        lines: u64,
        what: &str,
    ) -> Result<String> {
        let body = json!({"containerType": container_type, "tail": lines});
        let answer = self.arm_post(&format!("{deployment_path}/getLogs"), ML_API, &body, what)?;
        let text = answer["content"].as_str().unwrap_or_default();
        // Some service versions send literal `\n` sequences; az turns them into breaks.
        Ok(crate::redact::redact(&text.replace("\\n", "\n"))
            .trim_end_matches('\n')
            .to_owned())
    }

    /// A Key Vault, by the id the workspace names.
    pub(crate) fn key_vault(&mut self, id: &str, what: &str) -> Result<Value> {
        self.arm_get(resource_path(id)?, KEY_VAULT_API, what)
    }

    /// A container registry, by the id the workspace names (its network rules and its
    /// private endpoint connections are in the document).
    pub(crate) fn registry(&mut self, id: &str, what: &str) -> Result<Value> {
        self.arm_get(resource_path(id)?, REGISTRY_API, what)
    }

    /// A storage account, by the id the workspace names (`publicNetworkAccess`,
    /// `networkAcls` and its private endpoint connections are in the document).
    pub(crate) fn storage_account(&mut self, id: &str, what: &str) -> Result<Value> {
        self.arm_get(resource_path(id)?, STORAGE_API, what)
    }

    /// A registry's private endpoint connections, as one `{"value": […]}` list.
    pub(crate) fn registry_connections(&mut self, id: &str, what: &str) -> Result<Value> {
        let path = format!("{}/privateEndpointConnections", resource_path(id)?);
        let items = self.arm_list(&path, REGISTRY_API, what)?;
        Ok(json!({ "value": items }))
    }

    /// Every record set of the private DNS zone `zone` in the resource group at
    /// `group_path` (`/subscriptions/…/resourceGroups/…`), as one `{"value": […]}` list.
    pub(crate) fn private_dns_records(
        &mut self,
        group_path: &str,
        zone: &str,
        what: &str,
    ) -> Result<Value> {
        let path = format!("{group_path}/providers/Microsoft.Network/privateDnsZones/{zone}/ALL");
        let items = self.arm_list(&path, PRIVATE_DNS_API, what)?;
        Ok(json!({ "value": items }))
    }

    /// The virtual network links of the private DNS zone `zone`, as one list.
    pub(crate) fn private_dns_links(
        &mut self,
        group_path: &str,
        zone: &str,
        what: &str,
    ) -> Result<Value> {
        let path = format!(
            "{group_path}/providers/Microsoft.Network/privateDnsZones/{zone}/virtualNetworkLinks"
        );
        let items = self.arm_list(&path, PRIVATE_DNS_API, what)?;
        Ok(json!({ "value": items }))
    }

    /// The workspace diagnose API (a long-running operation) over every category.
    pub(crate) fn workspace_diagnosis(
        &mut self,
        workspace_path: &str,
        what: &str,
    ) -> Result<Value> {
        // Every category, each with no options, as the documented examples send it.
        let body = json!({"value": {
            "udr": {}, "nsg": {}, "resourceLock": {}, "dnsResolution": {}, "storageAccount": {},
            "keyVault": {}, "containerRegistry": {}, "applicationInsights": {}, "others": {},
            "requiredResourceProviders": {}
        }});
        self.arm_post_operation(&format!("{workspace_path}/diagnose"), ML_API, &body, what)
    }
}

/// A resource id a document names, as a path to read: it must be one.
fn resource_path(id: &str) -> Result<&str> {
    if id.to_ascii_lowercase().starts_with("/subscriptions/") && !id.contains("..") {
        Ok(id)
    } else {
        Err(Error::access(format!("'{id}' is not a resource id")))
    }
}
