//! Azure resources as evidence: the JSON a user already has from `az … show`, `az rest`
//! or a REST response, with its kind told from the document's shape.
//!
//! Two shapes reach us for the same resource: the ARM wire shape (camelCase, settings
//! under `properties`) and what `az ml … show` prints (snake_case, flattened). Rules name
//! the field of each shape they read; this module only decides what a document is.

use std::collections::BTreeMap;
use std::fmt;

use serde::Serialize;
use serde_json::Value;

use super::json_lines::{JsonText, escape_token};

/// The kinds of Azure resource amldoctor reads.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum ResourceKind {
    Workspace,
    OnlineEndpoint,
    OnlineDeployment,
    KeyVault,
    ContainerRegistry,
    PrivateEndpointConnection,
    StorageAccount,
    PrivateDnsRecordSet,
    /// A private DNS zone's link to a virtual network: the zone answers only there.
    PrivateDnsZoneLink,
    Compute,
    /// The result of the workspace diagnose API (`az ml workspace diagnose`): Azure's
    /// own findings about the workspace's setup.
    WorkspaceDiagnosis,
    /// The packages a conda environment file or pip requirements file installs, as
    /// `lint` reads them (`lint::environment`).
    Environment,
    /// A Python scoring script `lint` reads (`lint::python`); its rules are computed.
    PythonScript,
    /// A v2 parallel job spec (`type: parallel`), alone or as a step of a pipeline.
    ParallelJob,
}

impl ResourceKind {
    pub const ALL: [ResourceKind; 14] = [
        ResourceKind::Workspace,
        ResourceKind::OnlineEndpoint,
        ResourceKind::OnlineDeployment,
        ResourceKind::KeyVault,
        ResourceKind::ContainerRegistry,
        ResourceKind::PrivateEndpointConnection,
        ResourceKind::StorageAccount,
        ResourceKind::PrivateDnsRecordSet,
        ResourceKind::PrivateDnsZoneLink,
        ResourceKind::Compute,
        ResourceKind::WorkspaceDiagnosis,
        ResourceKind::Environment,
        ResourceKind::PythonScript,
        ResourceKind::ParallelJob,
    ];

    pub fn name(self) -> &'static str {
        match self {
            ResourceKind::Workspace => "workspace",
            ResourceKind::OnlineEndpoint => "online-endpoint",
            ResourceKind::OnlineDeployment => "online-deployment",
            ResourceKind::KeyVault => "key-vault",
            ResourceKind::ContainerRegistry => "container-registry",
            ResourceKind::PrivateEndpointConnection => "private-endpoint-connection",
            ResourceKind::StorageAccount => "storage-account",
            ResourceKind::PrivateDnsRecordSet => "private-dns-record-set",
            ResourceKind::PrivateDnsZoneLink => "private-dns-zone-link",
            ResourceKind::Compute => "compute",
            ResourceKind::WorkspaceDiagnosis => "workspace-diagnosis",
            ResourceKind::Environment => "environment",
            ResourceKind::PythonScript => "python-script",
            ResourceKind::ParallelJob => "parallel-job",
        }
    }

    /// The command that prints such a document, for messages.
    pub fn example_command(self) -> &'static str {
        match self {
            ResourceKind::Workspace => "az ml workspace show, or az rest for the ARM document",
            ResourceKind::OnlineEndpoint => "az ml online-endpoint show",
            ResourceKind::OnlineDeployment => "az ml online-deployment show",
            ResourceKind::KeyVault => "az keyvault show",
            ResourceKind::ContainerRegistry => "az acr show",
            ResourceKind::PrivateEndpointConnection => "az acr private-endpoint-connection list",
            ResourceKind::StorageAccount => "az storage account show",
            ResourceKind::PrivateDnsRecordSet => "az network private-dns record-set list",
            ResourceKind::PrivateDnsZoneLink => "az network private-dns link vnet list",
            ResourceKind::Compute => "az ml compute show",
            ResourceKind::WorkspaceDiagnosis => "az ml workspace diagnose",
            ResourceKind::Environment => "amldoctor lint on a conda.yaml or requirements.txt",
            ResourceKind::PythonScript => "amldoctor lint on a score.py",
            ResourceKind::ParallelJob => "amldoctor lint on a parallel job YAML",
        }
    }

    pub fn parse(name: &str) -> Option<ResourceKind> {
        ResourceKind::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(name.trim()))
    }

    pub const fn bit(self) -> u16 {
        1 << (self as u16)
    }

    /// The kind an ARM resource type names (`Microsoft.KeyVault/vaults`), compared
    /// without regard to case as ARM itself does.
    pub fn from_arm_type(arm_type: &str) -> Option<ResourceKind> {
        let t = arm_type.to_ascii_lowercase();
        let kind = if t.ends_with("/privateendpointconnections") {
            ResourceKind::PrivateEndpointConnection
        } else if let Some(record) = t.strip_prefix("microsoft.network/privatednszones/") {
            if record == "virtualnetworklinks" {
                return Some(ResourceKind::PrivateDnsZoneLink);
            }
            // Record sets: other child types are resources amldoctor does not read.
            if !matches!(
                record,
                "a" | "aaaa" | "cname" | "mx" | "ptr" | "soa" | "srv" | "txt"
            ) {
                return None;
            }
            ResourceKind::PrivateDnsRecordSet
        } else {
            match t.as_str() {
                "microsoft.machinelearningservices/workspaces" => ResourceKind::Workspace,
                "microsoft.machinelearningservices/workspaces/onlineendpoints" => {
                    ResourceKind::OnlineEndpoint
                }
                "microsoft.machinelearningservices/workspaces/onlineendpoints/deployments" => {
                    ResourceKind::OnlineDeployment
                }
                "microsoft.machinelearningservices/workspaces/computes" => ResourceKind::Compute,
                "microsoft.keyvault/vaults" => ResourceKind::KeyVault,
                "microsoft.containerregistry/registries" => ResourceKind::ContainerRegistry,
                "microsoft.storage/storageaccounts" => ResourceKind::StorageAccount,
                _ => return None,
            }
        };
        Some(kind)
    }
}

impl fmt::Display for ResourceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The kinds only `lint` makes resources of (files the user writes, not Azure's): their
/// rules belong to no `check` area.
pub(crate) const LINTED_ONLY: u16 = ResourceKind::Environment.bit()
    | ResourceKind::PythonScript.bit()
    | ResourceKind::ParallelJob.bit();

/// Which tool's shape a resource document has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Shape {
    /// The ARM wire shape (`az rest`, `az resource show`, REST responses): settings
    /// under `properties`, camelCase.
    Arm,
    /// What an `az` command prints after flattening (`az ml … show` in snake_case,
    /// `az acr show`, `az acr private-endpoint-connection list`, …).
    AzCli,
    /// A file the user writes and `lint` reads: a deployment spec (az ml's YAML
    /// schema, the az CLI shape's keys) or an environment file.
    File,
}

/// The facts [`Resource::names`] can provide: the names in a resource id, the id itself,
/// and the region. Rules may use them in commands.
pub(crate) const NAME_FACTS: &[&str] = &[
    "subscription",
    "group",
    "workspace",
    "endpoint",
    "deployment",
    "vault",
    "registry",
    "storage_account",
    "connection",
    "dns_zone",
    "compute",
    "record_set",
    "zone_link",
    "resource_id",
    "connection_id",
    "workspace_id",
    "vault_id",
    "registry_id",
    "storage_account_id",
    "endpoint_id",
    "deployment_id",
    "region",
];

/// One resource read from a JSON document.
#[derive(Debug, Clone)]
pub struct Resource {
    /// The file (or `<stdin>`) it was read from.
    pub path: String,
    /// Where the resource sits in its document (`""`, `/value/2`, `/0`).
    pub base: String,
    pub kind: ResourceKind,
    pub shape: Shape,
    pub id: Option<String>,
    pub name: Option<String>,
    pub json: Value,
    pub text: JsonText,
}

impl Resource {
    /// The line of `pointer` (relative to this resource) in its file.
    pub fn line_of(&self, pointer: &str) -> u64 {
        self.text.line_of(&format!("{}{pointer}", self.base))
    }

    /// Names taken from a resource's id (and az ml's `endpoint_name`), so commands can be
    /// filled in: `group`, `workspace`, `endpoint`, `deployment`, `vault`, `registry`, …
    pub fn names(&self) -> BTreeMap<String, String> {
        let mut facts = BTreeMap::new();
        if let Some(id) = &self.id {
            for (name, value) in super::resource_id::ResourceId::new(id).names() {
                facts.insert(name.to_owned(), value.to_owned());
            }
            facts.insert("resource_id".to_owned(), id.clone());
            // The id under a name of its kind too, so a rule can name the id of a
            // related resource (`{storage_account_id}`) beside its subject's.
            let kind_id = match self.kind {
                ResourceKind::Workspace => Some("workspace_id"),
                ResourceKind::KeyVault => Some("vault_id"),
                ResourceKind::ContainerRegistry => Some("registry_id"),
                ResourceKind::StorageAccount => Some("storage_account_id"),
                ResourceKind::OnlineEndpoint => Some("endpoint_id"),
                ResourceKind::OnlineDeployment => Some("deployment_id"),
                _ => None,
            };
            if let Some(k) = kind_id {
                facts.insert(k.to_owned(), id.clone());
            }
            if self.kind == ResourceKind::PrivateEndpointConnection {
                facts.insert("connection_id".to_owned(), id.clone());
            }
        }
        if self.kind == ResourceKind::OnlineDeployment
            && let Some(ep) = self.json.get("endpoint_name").and_then(Value::as_str)
        {
            facts.entry("endpoint".to_owned()).or_insert(ep.to_owned());
        }
        // A spec `lint` read: the file the printed commands deploy with.
        if self.kind == ResourceKind::OnlineDeployment && self.shape == Shape::File {
            facts.insert("deployment_yaml".to_owned(), self.path.clone());
        }
        if let Some(region) = self.json.get("location").and_then(Value::as_str) {
            facts.insert("region".to_owned(), region.to_owned());
        }
        if let Some(name) = &self.name {
            let key = match self.kind {
                ResourceKind::Workspace => "workspace",
                ResourceKind::OnlineEndpoint => "endpoint",
                ResourceKind::OnlineDeployment => "deployment",
                ResourceKind::KeyVault => "vault",
                ResourceKind::ContainerRegistry => "registry",
                ResourceKind::StorageAccount => "storage_account",
                ResourceKind::PrivateEndpointConnection => "connection",
                ResourceKind::PrivateDnsRecordSet => "record_set",
                ResourceKind::PrivateDnsZoneLink => "zone_link",
                ResourceKind::Compute => "compute",
                ResourceKind::WorkspaceDiagnosis => "workspace",
                ResourceKind::Environment => "environment",
                ResourceKind::PythonScript => "script",
                ResourceKind::ParallelJob => "job",
            };
            facts.entry(key.to_owned()).or_insert(name.clone());
        }
        facts
    }

    /// The pointer of `relative` within the whole document.
    pub fn absolute(&self, relative: &str) -> String {
        format!("{}{relative}", self.base)
    }
}

/// What a JSON document turned out to be.
#[derive(Debug)]
pub(crate) enum JsonDocument {
    /// One or more resources (a list yields one per element).
    Resources(Vec<Resource>),
    /// An ARM or service error body (`{"error": {...}}`): text for the log rules.
    ErrorBody,
    /// DNS answers amldoctor saved (`dns.json` of a bundle).
    Dns(Vec<super::dns_answers::DnsObservation>),
    /// A saved DNS document this version cannot read: an input error, not a skip.
    BadDns(String),
    /// Valid JSON of no kind amldoctor reads; the reason says why.
    Unknown(String),
}

/// Classifies a parsed JSON document from `path`.
pub(crate) fn classify(path: &str, value: Value, text: JsonText) -> JsonDocument {
    match value {
        Value::Array(items) => list(path, items, "", &text),
        Value::Object(mut map) => {
            if map.contains_key("error") && !map.contains_key("id") {
                return JsonDocument::ErrorBody;
            }
            if map.contains_key(super::dns_answers::DOCUMENT_KEY) {
                let value = Value::Object(map);
                return match super::dns_answers::DnsDocument::from_value(&value) {
                    Some(Ok(doc)) => JsonDocument::Dns(doc.observations),
                    Some(Err(e)) => JsonDocument::BadDns(format!(
                        "DNS answers saved by amldoctor, but not in a form this version reads: {e}"
                    )),
                    None => JsonDocument::Unknown("no DNS answers".to_owned()),
                };
            }
            // An ARM list response: {"value": [...], "nextLink": ...}.
            if let Some(Value::Array(_)) = map.get("value")
                && map.keys().all(|k| k == "value" || k == "nextLink")
                && let Some(Value::Array(items)) = map.remove("value")
            {
                return list(path, items, "/value", &text);
            }
            let value = Value::Object(map);
            match kind_of(&value) {
                Some((kind, shape)) => {
                    JsonDocument::Resources(vec![resource(path, "", kind, shape, value, &text)])
                }
                None => JsonDocument::Unknown(
                    "valid JSON, but not a resource amldoctor knows (no ARM 'type', no resource id of a known provider, no known az output keys)".to_owned(),
                ),
            }
        }
        _ => JsonDocument::Unknown("a JSON scalar, not a resource document".to_owned()),
    }
}

fn list(path: &str, items: Vec<Value>, prefix: &str, text: &JsonText) -> JsonDocument {
    if items.is_empty() {
        return JsonDocument::Unknown(
            "an empty JSON list: it holds no resource to check (for a list command, nothing was listed)"
                .to_owned(),
        );
    }
    let mut out = Vec::new();
    let mut unknown = 0;
    for (i, item) in items.into_iter().enumerate() {
        match kind_of(&item) {
            Some((kind, shape)) => {
                let base = format!("{prefix}/{}", escape_token(&i.to_string()));
                out.push(resource(path, &base, kind, shape, item, text));
            }
            None => unknown += 1,
        }
    }
    if out.is_empty() {
        JsonDocument::Unknown(format!(
            "a JSON list of {unknown} items, none of them a resource amldoctor knows"
        ))
    } else {
        JsonDocument::Resources(out)
    }
}

fn resource(
    path: &str,
    base: &str,
    kind: ResourceKind,
    shape: Shape,
    json: Value,
    text: &JsonText,
) -> Resource {
    let str_of = |k: &str| json.get(k).and_then(Value::as_str).map(str::to_owned);
    Resource {
        path: path.to_owned(),
        base: base.to_owned(),
        kind,
        shape,
        id: str_of("id"),
        name: str_of("name")
            .or_else(|| str_of("id").and_then(|id| id.rsplit('/').next().map(str::to_owned))),
        text: text.clone(),
        json,
    }
}

/// The kind and shape of one object, from its ARM `type`, its resource id, or the keys
/// an `az` command prints.
pub(crate) fn kind_of(value: &Value) -> Option<(ResourceKind, Shape)> {
    let obj = value.as_object()?;
    // az ml prints a `properties` string map too; its snake_case keys tell it apart.
    let snake = [
        "endpoint_name",
        "scoring_uri",
        "provisioning_state",
        "discovery_url",
    ]
    .iter()
    .any(|k| obj.contains_key(*k));
    let shape = if obj.get("properties").is_some_and(Value::is_object) && !snake {
        Shape::Arm
    } else {
        Shape::AzCli
    };
    // A document that names its ARM type (by `type` or its id) is that type: a batch
    // endpoint has `scoring_uri` and `auth_mode` too, but is no online endpoint.
    let arm_type = obj
        .get("type")
        .and_then(Value::as_str)
        .filter(|t| t.contains('/'))
        .map(str::to_owned)
        .or_else(|| {
            obj.get("id")
                .and_then(Value::as_str)
                .and_then(arm_type_of_id)
        });
    let kind = match arm_type {
        Some(t) => ResourceKind::from_arm_type(&t)?,
        None => kind_from_keys(obj)?,
    };
    Some((kind, shape))
}

/// The resource type of an ARM id: `/subscriptions/s/resourceGroups/rg/providers/
/// Microsoft.X/a/n1/b/n2` → `Microsoft.X/a/b`. Segment names compare case-insensitively.
pub(crate) fn arm_type_of_id(id: &str) -> Option<String> {
    super::resource_id::ResourceId::new(id).arm_type()
}

/// Kinds known only by the keys their `az` command prints.
/// The workspace diagnose API's result: `{"value": {"…Results": […]}}` as REST gives
/// it, or the `…_results` lists at the top as az and the SDK print them.
fn is_diagnosis(obj: &serde_json::Map<String, Value>) -> bool {
    let results = |m: &serde_json::Map<String, Value>| {
        !m.is_empty()
            && m.iter().all(|(k, v)| {
                (k.ends_with("Results") || k.ends_with("_results")) && (v.is_array() || v.is_null())
            })
    };
    match obj.get("value") {
        Some(Value::Object(inner)) => obj.len() == 1 && results(inner),
        _ => results(obj),
    }
}

fn kind_from_keys(obj: &serde_json::Map<String, Value>) -> Option<ResourceKind> {
    let has = |k: &str| obj.contains_key(k);
    if is_diagnosis(obj) {
        return Some(ResourceKind::WorkspaceDiagnosis);
    }
    if has("environment_kind") && has("packages") {
        return Some(ResourceKind::Environment);
    }
    let v1_call = has("parallel_run_call");
    if v1_call
        || obj.get("type").and_then(Value::as_str) == Some("parallel")
            && (has("task") || has("mini_batch_size"))
    {
        return Some(ResourceKind::ParallelJob);
    }
    // A deployment spec (`az ml online-deployment create -f`) names its schema, and may
    // leave out the instance type.
    let schema = obj
        .get("$schema")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_ascii_lowercase();
    let spec_schema = schema.contains("onlinedeployment");
    // An endpoint spec (`az ml online-endpoint create -f`): its schema, or a name and
    // an auth mode without a deployment's keys.
    let endpoint_spec = schema.contains("onlineendpoint")
        || (has("auth_mode") && has("name") && !has("endpoint_name") && !has("model"));
    let spec =
        has("endpoint_name") && (has("model") || has("environment") || has("code_configuration"));
    Some(
        if (has("endpoint_name") && has("instance_type")) || spec_schema || spec {
            ResourceKind::OnlineDeployment
        } else if (has("scoring_uri") && has("auth_mode")) || endpoint_spec {
            ResourceKind::OnlineEndpoint
        } else if has("discovery_url") || (has("key_vault") && has("storage_account")) {
            ResourceKind::Workspace
        } else if has("privateLinkServiceConnectionState") {
            ResourceKind::PrivateEndpointConnection
        } else if has("bypass") && has("defaultAction") {
            // `az keyvault network-rule list`: the vault's networkAcls alone.
            ResourceKind::KeyVault
        } else if has("aRecords") || has("cnameRecord") {
            ResourceKind::PrivateDnsRecordSet
        } else if has("virtualNetworkLinkState")
            || has("virtualNetwork") && has("registrationEnabled")
        {
            ResourceKind::PrivateDnsZoneLink
        } else {
            return None;
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn kinds(v: Value) -> Result<Vec<(ResourceKind, Shape, String)>, String> {
        let text = JsonText::new(serde_json::to_vec_pretty(&v).unwrap());
        match classify("x.json", v, text) {
            JsonDocument::Resources(r) => {
                Ok(r.into_iter().map(|r| (r.kind, r.shape, r.base)).collect())
            }
            JsonDocument::ErrorBody => Err("error body".into()),
            JsonDocument::Dns(_) => Err("dns answers".into()),
            JsonDocument::BadDns(why) => Err(why),
            JsonDocument::Unknown(why) => Err(why),
        }
    }

    #[test]
    fn names_are_the_documented_ones() {
        let r = match classify(
            "x.json",
            json!({"id": "/subscriptions/s/resourceGroups/rg/providers/Microsoft.ContainerRegistry/registries/acr1/privateEndpointConnections/pe1", "location": "westeurope", "privateLinkServiceConnectionState": {}}),
            JsonText::new(Vec::new()),
        ) {
            JsonDocument::Resources(mut list) => list.remove(0),
            other => panic!("{other:?}"),
        };
        let names = r.names();
        for k in names.keys() {
            assert!(NAME_FACTS.contains(&k.as_str()), "{k} is not in NAME_FACTS");
        }
        assert_eq!(names["connection"], "pe1");
        assert_eq!(names["registry"], "acr1");
        assert_eq!(names["region"], "westeurope");
    }

    #[test]
    fn ids_name_their_type() {
        assert_eq!(
            arm_type_of_id("/subscriptions/s/resourcegroups/rg/providers/Microsoft.MachineLearningServices/workspaces/ws/onlineEndpoints/ep/deployments/blue").as_deref(),
            Some("Microsoft.MachineLearningServices/workspaces/onlineEndpoints/deployments")
        );
        assert_eq!(arm_type_of_id("/subscriptions/s"), None);
        assert_eq!(
            ResourceKind::from_arm_type("microsoft.keyvault/VAULTS"),
            Some(ResourceKind::KeyVault)
        );
    }

    #[test]
    fn every_kind_is_detected_in_each_shape() {
        let ws = "/subscriptions/s/resourceGroups/rg/providers/Microsoft.MachineLearningServices/workspaces/ws";
        let cases = [
            (
                json!({"id": ws, "properties": {"v1LegacyMode": true}}),
                ResourceKind::Workspace,
                Shape::Arm,
            ),
            (
                json!({"discovery_url": "https://x", "name": "ws"}),
                ResourceKind::Workspace,
                Shape::AzCli,
            ),
            (
                json!({"id": format!("{ws}/onlineEndpoints/ep"), "scoring_uri": "u", "auth_mode": "key"}),
                ResourceKind::OnlineEndpoint,
                Shape::AzCli,
            ),
            (
                json!({"type": "managed", "endpoint_name": "ep", "instance_type": "Standard_DS3_v2"}),
                ResourceKind::OnlineDeployment,
                Shape::AzCli,
            ),
            (
                json!({"type": "Microsoft.KeyVault/vaults", "properties": {}}),
                ResourceKind::KeyVault,
                Shape::Arm,
            ),
            (
                json!({"bypass": "None", "defaultAction": "Deny", "ipRules": []}),
                ResourceKind::KeyVault,
                Shape::AzCli,
            ),
            (
                json!({"type": "Microsoft.ContainerRegistry/registries", "loginServer": "a.azurecr.io"}),
                ResourceKind::ContainerRegistry,
                Shape::AzCli,
            ),
            (
                json!({"type": "Microsoft.Storage/storageAccounts", "properties": {}}),
                ResourceKind::StorageAccount,
                Shape::Arm,
            ),
            (
                json!({"type": "Microsoft.Network/privateDnsZones/A", "aRecords": []}),
                ResourceKind::PrivateDnsRecordSet,
                Shape::AzCli,
            ),
            (
                json!({"id": format!("{ws}/computes/cpu"), "properties": {"computeType": "AmlCompute"}}),
                ResourceKind::Compute,
                Shape::Arm,
            ),
        ];
        for (doc, kind, shape) in cases {
            assert_eq!(
                kinds(doc.clone()),
                Ok(vec![(kind, shape, String::new())]),
                "{doc}"
            );
        }
    }

    #[test]
    fn lists_errors_and_unknown_documents() {
        let conn = json!({"privateLinkServiceConnectionState": {"status": "Pending"}});
        assert_eq!(
            kinds(json!([conn.clone(), conn.clone()])).unwrap()[1],
            (
                ResourceKind::PrivateEndpointConnection,
                Shape::AzCli,
                "/1".to_owned()
            )
        );
        assert_eq!(
            kinds(json!({"value": [conn], "nextLink": null})).unwrap()[0].2,
            "/value/0"
        );
        assert_eq!(
            kinds(json!({"error": {"code": "ResourceNotFound"}})),
            Err("error body".to_owned())
        );
        assert!(kinds(json!([])).unwrap_err().contains("empty JSON list"));
        // Types that look alike but are not what amldoctor reads.
        let batch = json!({"id": "/subscriptions/s/resourceGroups/rg/providers/Microsoft.MachineLearningServices/workspaces/ws/batchEndpoints/bep1", "scoring_uri": "u", "auth_mode": "aad_token"});
        assert!(kinds(batch).is_err());
        let link =
            json!({"type": "Microsoft.Network/privateDnsZones/virtualNetworkLinks", "name": "l"});
        assert_eq!(kinds(link).unwrap()[0].0, ResourceKind::PrivateDnsZoneLink);
        let other =
            json!({"type": "Microsoft.Network/privateDnsZones/privateDnsZoneGroups", "name": "g"});
        assert!(kinds(other).is_err());
        assert!(
            kinds(json!({"name": "pkg"}))
                .unwrap_err()
                .contains("not a resource")
        );
        assert!(kinds(json!(3)).unwrap_err().contains("scalar"));
    }
}
