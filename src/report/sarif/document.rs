//! The SARIF 2.1.0 objects amldoctor writes, as typed structs: only the properties it
//! fills, named as the specification names them. Fields are declared in byte order of
//! their JSON names, so the document serialises with its keys sorted, as earlier
//! versions (built from `serde_json::Value`, whose maps sort) wrote it and as the
//! checked-in snapshots hold it.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::evidence::DocumentKind;

/// The top-level `sarifLog` (§3.13).
#[derive(Debug, Serialize)]
pub(super) struct SarifLog<'a> {
    #[serde(rename = "$schema")]
    pub schema: &'static str,
    pub runs: Vec<Run<'a>>,
    pub version: &'static str,
}

/// A `run` (§3.14).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Run<'a> {
    pub artifacts: Vec<Artifact<'a>>,
    pub automation_details: AutomationDetails,
    pub invocations: Vec<Invocation>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub original_uri_base_ids: Option<BTreeMap<&'static str, ArtifactLocation>>,
    pub results: Vec<SarifResult<'a>>,
    pub tool: Tool,
}

/// `runAutomationDetails` (§3.17): the id code scanning groups a run's alerts by.
#[derive(Debug, Serialize)]
pub(super) struct AutomationDetails {
    pub id: String,
}

/// A `message`, an `artifactContent` or a `multiformatMessageString` with text only:
/// all three are `{"text": …}` here.
#[derive(Debug, Serialize)]
pub(super) struct Text {
    pub text: String,
}

impl Text {
    pub(super) fn new(text: impl Into<String>) -> Text {
        Text { text: text.into() }
    }
}

/// An `artifact` (§3.24): one input read.
#[derive(Debug, Serialize)]
pub(super) struct Artifact<'a> {
    pub length: u64,
    pub location: ArtifactLocation,
    pub properties: ArtifactProperties<'a>,
}

#[derive(Debug, Serialize)]
pub(super) struct ArtifactProperties<'a> {
    pub kind: &'a DocumentKind,
}

/// An `artifactLocation` (§3.4): a URI and, for a relative one, its base.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct ArtifactLocation {
    pub uri: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uri_base_id: Option<&'static str>,
}

/// An `invocation` (§3.20).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Invocation {
    pub execution_successful: bool,
    pub tool_execution_notifications: Vec<Notification>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub working_directory: Option<ArtifactLocation>,
}

/// A `notification` (§3.58): an input not analysed, a notice.
#[derive(Debug, Serialize)]
pub(super) struct Notification {
    pub level: &'static str,
    pub message: Text,
}

/// `tool` (§3.18) with its `driver` (§3.19).
#[derive(Debug, Serialize)]
pub(super) struct Tool {
    pub driver: Driver,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Driver {
    pub information_uri: &'static str,
    pub name: &'static str,
    pub rules: Vec<Rule>,
    pub semantic_version: &'static str,
    pub version: &'static str,
}

/// A rule's `reportingDescriptor` (§3.49).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Rule {
    pub default_configuration: DefaultConfiguration,
    pub full_description: Text,
    pub help: Help,
    pub help_uri: String,
    pub id: String,
    pub name: String,
    pub properties: RuleProperties,
    pub short_description: Text,
}

#[derive(Debug, Serialize)]
pub(super) struct DefaultConfiguration {
    pub level: &'static str,
}

#[derive(Debug, Serialize)]
pub(super) struct Help {
    pub markdown: String,
    pub text: String,
}

/// The rule properties code scanning reads.
#[derive(Debug, Serialize)]
pub(super) struct RuleProperties {
    pub precision: &'static str,
    #[serde(rename = "problem.severity")]
    pub problem_severity: &'static str,
    pub tags: Vec<String>,
}

/// A `result` (§3.27).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct SarifResult<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baseline_state: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fixes: Option<Vec<Fix>>,
    pub level: &'static str,
    pub locations: Vec<Location>,
    pub message: Text,
    pub partial_fingerprints: PartialFingerprints,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub properties: Option<ResultProperties<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub related_locations: Vec<Location>,
    pub rule_id: String,
    pub rule_index: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suppressions: Option<Vec<Suppression>>,
}

#[derive(Debug, Serialize)]
pub(super) struct PartialFingerprints {
    #[serde(rename = "amldoctorFingerprint/v1")]
    pub amldoctor_v1: String,
    #[serde(rename = "primaryLocationLineHash")]
    pub primary_location_line_hash: String,
}

#[derive(Debug, Serialize)]
pub(super) struct ResultProperties<'a> {
    pub count: u64,
    pub facts: &'a BTreeMap<String, String>,
    pub inputs: &'a [String],
    /// Which layer of the analysis produced the result (`signature`, `category`, …).
    pub layer: &'static str,
}

/// A `suppression` (§3.35).
#[derive(Debug, Serialize)]
pub(super) struct Suppression {
    pub justification: String,
    pub kind: &'static str,
    pub status: &'static str,
}

/// A `location` (§3.28).
#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Location {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<usize>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub logical_locations: Vec<LogicalLocation>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<Text>,
    pub physical_location: PhysicalLocation,
}

/// A `logicalLocation` (§3.33): a JSON pointer, a DNS name.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct LogicalLocation {
    pub fully_qualified_name: String,
    pub kind: &'static str,
}

/// A `physicalLocation` (§3.29).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct PhysicalLocation {
    pub artifact_location: ArtifactLocation,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context_region: Option<Region>,
    pub region: Region,
}

impl Default for PhysicalLocation {
    fn default() -> PhysicalLocation {
        PhysicalLocation {
            artifact_location: ArtifactLocation {
                uri: String::new(),
                uri_base_id: None,
            },
            context_region: None,
            region: Region::line(1),
        }
    }
}

/// A `region` (§3.30): lines and columns are 1-based.
#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Region {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_column: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_line: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snippet: Option<Text>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_column: Option<u64>,
    pub start_line: u64,
}

impl Region {
    pub(super) fn line(start_line: u64) -> Region {
        Region {
            start_line,
            ..Region::default()
        }
    }
}

/// A `fix` (§3.55) and its parts.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Fix {
    pub artifact_changes: Vec<ArtifactChange>,
    pub description: Text,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct ArtifactChange {
    pub artifact_location: ArtifactLocation,
    pub replacements: Vec<Replacement>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Replacement {
    pub deleted_region: Region,
    pub inserted_content: Text,
}
