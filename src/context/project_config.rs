//! `.amldoctor.yaml`, the project file a team checks in next to its deployment YAML.
//!
//! Schema (every key optional; unknown keys are an error so a typo never silently
//! does nothing):
//!
//! ```yaml
//! subscription: 11111111-2222-3333-4444-555555555555   # or a subscription name
//! resource-group: rg-ml-prod
//! workspace: ws-ml-prod
//! endpoint: churn-scoring      # fills <endpoint> in printed commands
//! deployment: blue             # fills <deployment> in printed commands
//! cloud: AzureCloud            # AzureCloud | AzureChinaCloud | AzureUSGovernment
//! output: table                # table | json | yaml
//! rules: [ci/amldoctor-rules]  # extra rule directories, relative to this file
//! suppressions:                # accepted findings; `reason` is required
//!   - rule: image-without-runtime-banner
//!     reason: legacy image kept until the Q3 migration (JIRA ML-1234)
//!     expires: 2027-03-31      # optional: from the day after, it fails again
//!     path: logs/legacy/**     # optional: only findings in these inputs
//! ```

use serde::Deserialize;

use crate::yaml_error::YamlError;

/// The keys `.amldoctor.yaml` accepts, as written by the user.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct ProjectConfig {
    pub subscription: Option<String>,
    pub resource_group: Option<String>,
    pub workspace: Option<String>,
    pub endpoint: Option<String>,
    pub deployment: Option<String>,
    pub cloud: Option<String>,
    pub output: Option<String>,
    pub rules: Option<Vec<String>>,
    pub suppressions: Option<Vec<SuppressionSpec>>,
}

/// One entry of `suppressions:`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SuppressionSpec {
    pub rule: String,
    #[serde(default)]
    pub reason: Option<String>,
    #[serde(default)]
    pub expires: Option<String>,
    #[serde(default)]
    pub path: Option<String>,
}

pub(crate) const KEYS: &[&str] = &[
    "subscription",
    "resource-group",
    "workspace",
    "endpoint",
    "deployment",
    "cloud",
    "output",
    "rules",
    "suppressions",
];

impl ProjectConfig {
    /// Parses the file's text; an empty file or one with only comments is an empty config.
    pub(crate) fn parse(text: &str) -> Result<ProjectConfig, String> {
        let meaningful = text
            .lines()
            .any(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#') && l.trim() != "---");
        if !meaningful {
            return Ok(ProjectConfig::default());
        }
        serde_saphyr::from_str::<ProjectConfig>(text).map_err(|e| {
            let y = YamlError::from_saphyr(&e);
            match y.unknown_key() {
                Some(key) => format!(
                    "unknown key '{key}'{} (expected one of: {})",
                    y.position(),
                    KEYS.join(", ")
                ),
                None => y.to_string(),
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_key() {
        let cfg = ProjectConfig::parse(
            "# team defaults\nsubscription: sub-1\nresource-group: rg\nworkspace: ws\ncloud: AzureChinaCloud\noutput: json\n",
        )
        .unwrap();
        assert_eq!(cfg.subscription.as_deref(), Some("sub-1"));
        assert_eq!(cfg.resource_group.as_deref(), Some("rg"));
        assert_eq!(cfg.workspace.as_deref(), Some("ws"));
        assert_eq!(cfg.cloud.as_deref(), Some("AzureChinaCloud"));
        assert_eq!(cfg.output.as_deref(), Some("json"));
    }

    #[test]
    fn empty_and_comment_only_files_are_empty_configs() {
        assert_eq!(ProjectConfig::parse("").unwrap(), ProjectConfig::default());
        assert_eq!(
            ProjectConfig::parse("# nothing yet\n---\n").unwrap(),
            ProjectConfig::default()
        );
    }

    #[test]
    fn unknown_keys_are_named() {
        let err = ProjectConfig::parse("workspace: ws\nresource_group: rg\n").unwrap_err();
        assert_eq!(
            err,
            "unknown key 'resource_group' at line 2 column 1 (expected one of: subscription, resource-group, workspace, endpoint, deployment, cloud, output, rules, suppressions)"
        );
    }

    #[test]
    fn malformed_yaml() {
        let err = ProjectConfig::parse("workspace: [ws\n").unwrap_err();
        assert!(err.starts_with("invalid YAML"), "{err}");
        let err = ProjectConfig::parse("- a\n").unwrap_err();
        assert!(err.starts_with("invalid YAML"), "{err}");
    }
}
