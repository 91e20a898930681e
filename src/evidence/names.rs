//! Azure names in well-known shapes inside log text: resource ids, scoring URIs,
//! storage and registry hosts. A log names the endpoint or the workspace on lines no
//! rule quotes (an `az --debug` request URL); the scanner keeps a few lines that hold
//! one of [`MARKERS`] so printed commands can carry those names.

use std::sync::LazyLock;

use regex::Regex;

/// Literals of the lines worth harvesting; the scanner's prefilter finds them.
pub const MARKERS: &[&str] = &[
    "/subscriptions/",
    ".inference.ml.azure.",
    ".azurecr.",
    ".blob.core.",
    ".file.core.",
    ".dfs.core.",
    "\"location\"",
    "pod/",
    " in pod ",
    "Namespace:",
    "Successfully assigned ",
];

/// Names in well-known shapes, captured under the placeholder name they fill.
static SHAPES: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    [
        r"(?i)/subscriptions/(?P<subscription>[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/resourceGroups/(?P<group>[-\w.()]*[-\w()])",
        r"(?i)/providers/Microsoft\.MachineLearningServices/workspaces/(?P<workspace>[-\w]+)",
        r"(?i)/onlineEndpoints/(?P<endpoint>[a-z][-a-z0-9]*)",
        r"(?i)/onlineEndpoints/[-a-z0-9]+/deployments/(?P<deployment>[a-z][-a-z0-9]*)",
        r"(?i)https://(?P<endpoint>[a-z][-a-z0-9]*)\.(?P<region>[a-z0-9]+)\.inference\.ml\.azure\.(?:com|cn|us)",
        r"(?i)\b(?P<storage_account>[a-z0-9]{3,24})\.(?:blob|file|dfs)\.core\.(?:windows\.net|chinacloudapi\.cn|usgovcloudapi\.net)",
        r"(?i)\b(?P<registry>[a-z0-9]{5,50})\.azurecr\.(?:io|cn|us)",
        r#""location"\s*:\s*"(?P<region>[a-z][a-z0-9]+)""#,
        r"\bpod/(?P<pod>[a-z0-9][-a-z0-9.]{0,252})",
        r" in pod (?P<pod>[a-z0-9][-a-z0-9.]*)_(?P<namespace>[a-z0-9][-a-z0-9]*)\(",
        r"^Namespace:\s+(?P<namespace>[a-z0-9][-a-z0-9]*)\s*$",
        r"Successfully assigned (?P<namespace>[a-z0-9][-a-z0-9]*)/(?P<pod>[a-z0-9][-a-z0-9.]*) to ",
    ]
    .iter()
    .filter_map(|p| Regex::new(p).ok())
    .collect()
});

/// Every `(placeholder name, value)` in `text`. Storage accounts and registries are
/// lowercase names whatever case the host was written in.
pub fn harvest(text: &str) -> Vec<(&'static str, String)> {
    const NAMES: &[&str] = &[
        "subscription",
        "group",
        "workspace",
        "endpoint",
        "deployment",
        "region",
        "storage_account",
        "registry",
        "pod",
        "namespace",
    ];
    let mut out = Vec::new();
    for re in SHAPES.iter() {
        for caps in re.captures_iter(text) {
            for name in NAMES {
                if let Some(m) = caps.name(name) {
                    let v = m.as_str();
                    out.push((
                        *name,
                        if matches!(*name, "storage_account" | "registry") {
                            v.to_ascii_lowercase()
                        } else {
                            v.to_owned()
                        },
                    ));
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
    fn request_urls_scoring_uris_and_hosts() {
        let got = harvest(
            "PUT /subscriptions/3f2a9c1e-7b4d-4e8f-9a0b-6c5d4e3f2a1b/resourceGroups/rg-ml.prod/providers/Microsoft.MachineLearningServices/workspaces/mlw-1/onlineEndpoints/churn/deployments/blue?api-version=1",
        );
        for want in [
            ("subscription", "3f2a9c1e-7b4d-4e8f-9a0b-6c5d4e3f2a1b"),
            ("group", "rg-ml.prod"),
            ("workspace", "mlw-1"),
            ("endpoint", "churn"),
            ("deployment", "blue"),
        ] {
            assert!(
                got.contains(&(want.0, want.1.to_owned())),
                "{want:?} in {got:?}"
            );
        }
        assert_eq!(
            harvest("curl https://ep-1.westeurope.inference.ml.azure.com/score"),
            [
                ("endpoint", "ep-1".to_owned()),
                ("region", "westeurope".to_owned())
            ]
        );
        assert_eq!(
            harvest("from https://MLWS01.blob.core.windows.net/x and acrProd01.azurecr.io/img"),
            [
                ("storage_account", "mlws01".to_owned()),
                ("registry", "acrprod01".to_owned())
            ]
        );
        assert!(harvest("see https://learn.microsoft.com/azure/machine-learning").is_empty());
        assert_eq!(
            harvest(
                "  Warning  BackOff  58s  kubelet  Back-off restarting failed container x in pod green-7f9c-x2kqp_azureml-workloads(5b6a)"
            ),
            [
                ("pod", "green-7f9c-x2kqp".to_owned()),
                ("namespace", "azureml-workloads".to_owned())
            ]
        );
        assert_eq!(
            harvest("Namespace:        azureml-workloads"),
            [("namespace", "azureml-workloads".to_owned())]
        );
        assert_eq!(
            harvest("  \"location\": \"westeurope\","),
            [("region", "westeurope".to_owned())]
        );
    }
}
