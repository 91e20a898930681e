//! DNS answers as they are kept: what each server answered for each host and what the
//! host is to the workspace, in the form saved in bundles (`dns.json`). Apart from
//! `dns.rs` (which derives the hosts from the resources) so that reading a JSON input
//! (`resource.rs`) can recognise a saved DNS document without the two importing each
//! other.

use std::net::IpAddr;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The key that marks a saved `dns.json` document, holding its format number.
pub(super) const DOCUMENT_KEY: &str = "amldoctor-dns";

/// What a host is to the workspace: which private DNS zone should answer for it.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum HostRole {
    /// The online endpoint's scoring host (`{endpoint}.{region}.inference.ml.azure.com`).
    Scoring,
    /// The workspace's API host.
    Workspace,
    /// The workspace's container registry.
    Registry,
    /// The workspace's Key Vault.
    KeyVault,
    /// The workspace's storage account (blob).
    Storage,
    /// A host the user named with `--host`.
    Given,
}

impl HostRole {
    pub fn name(self) -> &'static str {
        match self {
            HostRole::Scoring => "scoring host",
            HostRole::Workspace => "workspace host",
            HostRole::Registry => "container registry",
            HostRole::KeyVault => "Key Vault",
            HostRole::Storage => "storage account",
            HostRole::Given => "host",
        }
    }
}

/// What one server answered for one host (A and AAAA together).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "outcome", rename_all = "kebab-case")]
pub enum Outcome {
    /// Addresses, after the CNAME names the answer passed through (in order).
    Answer {
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        cnames: Vec<String>,
        addresses: Vec<IpAddr>,
    },
    /// The server says the name does not exist (NXDOMAIN).
    NotFound,
    /// The name exists but has no A or AAAA record.
    NoAddress,
    /// No answer within the time allowed.
    Timeout { after_ms: u64 },
    /// The query failed otherwise (connection refused, server failure).
    Failed { reason: String },
}

/// One host as one server saw it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct DnsObservation {
    pub host: String,
    pub role: HostRole,
    /// `system` for the machine's resolver, else `IP:PORT`.
    pub server: String,
    #[serde(flatten)]
    pub outcome: Outcome,
}

impl DnsObservation {
    /// The observation in one line: `10.0.1.5 (via a.privatelink.…)`, `NXDOMAIN`.
    pub fn answer_text(&self) -> String {
        self.answer_with("")
    }

    /// [`DnsObservation::answer_text`] with `note` said right after the addresses, so
    /// a narrow report that shortens the line keeps what the finding is about.
    pub fn answer_with(&self, note: &str) -> String {
        let note = if note.is_empty() {
            String::new()
        } else {
            format!(" ({note})")
        };
        match &self.outcome {
            Outcome::Answer { cnames, addresses } => {
                let list: Vec<String> = addresses.iter().map(ToString::to_string).collect();
                if cnames.is_empty() {
                    format!("{}{note}", list.join(", "))
                } else {
                    format!("{}{note} via {}", list.join(", "), cnames.join(" → "))
                }
            }
            Outcome::NotFound => format!("NXDOMAIN (no such name){note}"),
            Outcome::NoAddress => format!("no A or AAAA record{note}"),
            Outcome::Timeout { after_ms } => format!("no answer within {after_ms} ms{note}"),
            Outcome::Failed { reason } => format!("query failed: {reason}{note}"),
        }
    }

    pub fn addresses(&self) -> &[IpAddr] {
        match &self.outcome {
            Outcome::Answer { addresses, .. } => addresses,
            _ => &[],
        }
    }
}

/// The saved form: `{"amldoctor-dns": 1, "observations": [...]}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub(crate) struct DnsDocument {
    #[serde(rename = "amldoctor-dns")]
    pub format: u32,
    pub observations: Vec<DnsObservation>,
}

impl DnsDocument {
    pub(crate) fn new(observations: Vec<DnsObservation>) -> DnsDocument {
        DnsDocument {
            format: 1,
            observations,
        }
    }

    /// A JSON value that is a saved DNS document, read back.
    pub(crate) fn from_value(value: &Value) -> Option<Result<DnsDocument, String>> {
        value.get(DOCUMENT_KEY)?;
        Some(serde_json::from_value(value.clone()).map_err(|e| e.to_string()))
    }
}
