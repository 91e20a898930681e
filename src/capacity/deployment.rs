//! The capacity-related keys of an `az ml online-deployment` YAML file.
//!
//! Only the keys the formula needs are read; the rest of the file (model, environment,
//! probes…) belongs to `lint`, so unknown keys are ignored here. A key with the wrong
//! type is an error naming the key and the form expected.

use serde_json::Value;

use crate::yaml_error::YamlError;

/// Values read from a deployment YAML, each with its dotted key.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct DeploymentCapacity {
    pub name: Option<String>,
    pub endpoint_name: Option<String>,
    pub max_concurrent_requests_per_instance: Option<u64>,
    pub request_timeout_ms: Option<u64>,
    /// `scale_settings.target_utilization_percentage`, 1–100.
    pub target_utilization_percentage: Option<u64>,
    pub instance_count: Option<u64>,
    /// `scale_settings.max_instances` when `scale_settings.type` is `target_utilization`.
    pub autoscale_max_instances: Option<u64>,
}

pub(crate) const KEY_MAX_CONCURRENT: &str = "request_settings.max_concurrent_requests_per_instance";
pub(crate) const KEY_TIMEOUT: &str = "request_settings.request_timeout_ms";
pub(crate) const KEY_UTILIZATION: &str = "scale_settings.target_utilization_percentage";
pub(crate) const KEY_INSTANCE_COUNT: &str = "instance_count";
pub(crate) const KEY_MAX_INSTANCES: &str = "scale_settings.max_instances";

impl DeploymentCapacity {
    /// Parses YAML text. Errors are one sentence without the file name; the caller adds it.
    pub(crate) fn from_yaml(text: &str) -> Result<DeploymentCapacity, String> {
        if text.trim().is_empty() {
            return Err("the file is empty; expected an az ml online deployment YAML".to_owned());
        }
        let doc: Value =
            serde_saphyr::from_str(text).map_err(|e| YamlError::from_saphyr(&e).to_string())?;
        let Value::Object(_) = doc else {
            return Err("expected a YAML mapping with keys such as name, endpoint_name and request_settings".to_owned());
        };
        // An environment, endpoint or job file read by mistake would size nothing.
        let schema = doc
            .get("$schema")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let deployment_keys = [
            "endpoint_name",
            "instance_type",
            "instance_count",
            "model",
            "code_configuration",
            "request_settings",
            "scale_settings",
        ];
        let names_deployment = schema.to_ascii_lowercase().contains("deployment");
        if !names_deployment && !deployment_keys.iter().any(|k| doc.get(*k).is_some()) {
            let what = schema
                .rsplit('/')
                .next()
                .filter(|s| {
                    std::path::Path::new(s)
                        .extension()
                        .is_some_and(|e| e.eq_ignore_ascii_case("json"))
                })
                .map_or_else(String::new, |s| format!(" (its $schema is {s})"));
            return Err(format!(
                "this is not an online deployment YAML{what}: it has none of {}",
                deployment_keys.join(", ")
            ));
        }
        let lookup = |dotted: &str| -> Option<&Value> {
            dotted
                .split('.')
                .try_fold(&doc, |v, key| v.get(key))
                .filter(|v| !v.is_null())
        };
        let count = |key: &str, min: u64, max: u64| -> Result<Option<u64>, String> {
            match lookup(key) {
                None => Ok(None),
                Some(v) => whole_number(v)
                    .filter(|n| (min..=max).contains(n))
                    .map(Some)
                    .ok_or_else(|| {
                        let range = if max == u64::MAX {
                            format!("of at least {min}")
                        } else {
                            format!("from {min} to {max}")
                        };
                        format!("{key} must be a whole number {range}, found {}", show(v))
                    }),
            }
        };
        let text_at = |key: &str| lookup(key).and_then(Value::as_str).map(str::to_owned);

        let scale_type = text_at("scale_settings.type").unwrap_or_default();
        let autoscaling = scale_type.eq_ignore_ascii_case("target_utilization");
        Ok(DeploymentCapacity {
            name: text_at("name"),
            endpoint_name: text_at("endpoint_name"),
            max_concurrent_requests_per_instance: count(KEY_MAX_CONCURRENT, 1, u64::MAX)?,
            request_timeout_ms: count(KEY_TIMEOUT, 1, u64::MAX)?,
            target_utilization_percentage: count(KEY_UTILIZATION, 1, 100)?,
            instance_count: count(KEY_INSTANCE_COUNT, 1, u64::MAX)?,
            autoscale_max_instances: if autoscaling {
                count(KEY_MAX_INSTANCES, 1, u64::MAX)?
            } else {
                None
            },
        })
    }
}

/// A YAML integer, or a string of digits (az ml accepts both).
fn whole_number(v: &Value) -> Option<u64> {
    match v {
        Value::Number(n) => n.as_u64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

fn show(v: &Value) -> String {
    match v {
        Value::String(s) => format!("'{s}'"),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MANAGED: &str = "\
$schema: https://azuremlschemas.azureedge.net/latest/managedOnlineDeployment.schema.json
name: blue
endpoint_name: my-endpoint
model: azureml:my-model:1
instance_type: Standard_DS3_v2
instance_count: 3
request_settings:
  request_timeout_ms: 5000
  max_concurrent_requests_per_instance: 2
  max_queue_wait_ms: 500
";

    const KUBERNETES: &str = "\
name: green
endpoint_name: k8s-endpoint
instance_count: 2
scale_settings:
  type: target_utilization
  min_instances: 1
  max_instances: 4
  polling_interval: 10
  target_utilization_percentage: 60
";

    #[test]
    fn reads_a_managed_deployment() {
        let d = DeploymentCapacity::from_yaml(MANAGED).unwrap();
        assert_eq!(d.name.as_deref(), Some("blue"));
        assert_eq!(d.endpoint_name.as_deref(), Some("my-endpoint"));
        assert_eq!(d.instance_count, Some(3));
        assert_eq!(d.request_timeout_ms, Some(5000));
        assert_eq!(d.max_concurrent_requests_per_instance, Some(2));
        assert_eq!(d.target_utilization_percentage, None);
        assert_eq!(d.autoscale_max_instances, None);
    }

    #[test]
    fn reads_a_kubernetes_autoscaler() {
        let d = DeploymentCapacity::from_yaml(KUBERNETES).unwrap();
        assert_eq!(d.target_utilization_percentage, Some(60));
        assert_eq!(d.autoscale_max_instances, Some(4));
        assert_eq!(d.request_timeout_ms, None);
    }

    #[test]
    fn wrong_types_name_the_key() {
        let err = DeploymentCapacity::from_yaml("request_settings:\n  request_timeout_ms: soon\n")
            .unwrap_err();
        assert_eq!(
            err,
            "request_settings.request_timeout_ms must be a whole number of at least 1, found 'soon'"
        );
        let err = DeploymentCapacity::from_yaml(
            "scale_settings:\n  target_utilization_percentage: 170\n",
        )
        .unwrap_err();
        assert!(
            err.starts_with(
                "scale_settings.target_utilization_percentage must be a whole number from 1 to 100"
            ),
            "{err}"
        );
        let err = DeploymentCapacity::from_yaml("instance_count: 0\n").unwrap_err();
        assert!(err.contains("instance_count"), "{err}");
    }

    #[test]
    fn malformed_and_empty_files() {
        let err = DeploymentCapacity::from_yaml("name: [unclosed\n").unwrap_err();
        assert!(err.starts_with("invalid YAML"), "{err}");
        assert!(!err.contains('\n'));
        assert!(
            DeploymentCapacity::from_yaml("")
                .unwrap_err()
                .contains("empty")
        );
        assert!(
            DeploymentCapacity::from_yaml("- a\n- b\n")
                .unwrap_err()
                .contains("mapping")
        );
    }
}
