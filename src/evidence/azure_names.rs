//! Azure names in well-known shapes inside log text: resource ids, scoring URIs,
//! storage and registry hosts. A log names the endpoint or the workspace on lines no
//! rule quotes (an `az --debug` request URL); the scanner keeps a few lines that hold
//! one of [`MARKERS`] so printed commands can carry those names.

use std::sync::LazyLock;

use regex::Regex;

/// Literals of the lines worth harvesting; the scanner's prefilter finds them.
pub(crate) const MARKERS: &[&str] = &[
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
    "az ml ",
    "AccountName=",
    "azureml-models/",
    "Check: endpoint ",
    "managed identity (client id ",
];

/// Names in well-known shapes, captured under the placeholder name they fill.
static SHAPES: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    [
        r"(?i)/subscriptions/(?P<subscription>[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/resourceGroups/(?P<group>[-\w.()]*[-\w()])",
        r"(?i)/providers/Microsoft\.MachineLearningServices/workspaces/(?P<workspace>[-\w]+)",
        r"(?i)/onlineEndpoints/(?P<endpoint>[a-z][-a-z0-9]*)",
        r"(?i)/onlineEndpoints/[-a-z0-9]+/deployments/(?P<deployment>[a-z][-a-z0-9]*)",
        r"(?i)/batchEndpoints/(?P<endpoint>[a-z][-a-z0-9]*)",
        r"(?i)/batchEndpoints/[-a-z0-9]+/deployments/(?P<deployment>[a-z][-a-z0-9]*)",
        // A job's resource id (`…/workspaces/ws/jobs/sleepy_lamp_42`) names the run.
        r"(?i)/workspaces/[-\w]+/jobs/(?P<run_id>[A-Za-z0-9][-A-Za-z0-9_]{2,254})",
        r"(?i)https://(?P<endpoint>[a-z][-a-z0-9]*)\.(?P<region>[a-z0-9]+)\.inference\.ml\.azure\.(?:com|cn|us)",
        // The `Host:` header of a request as `curl -v` prints it (`> Host: ep.region.inference…`).
        r"(?i)^>?\s*Host:\s*(?P<endpoint>[a-z][-a-z0-9]*)\.(?P<region>[a-z0-9]+)\.inference\.ml\.azure\.(?:com|cn|us)",
        r"(?i)\b(?P<storage_account>[a-z0-9]{3,24})\.(?:blob|file|dfs)\.core\.(?:windows\.net|chinacloudapi\.cn|usgovcloudapi\.net)",
        r"(?i)\b(?P<registry>[a-z0-9]{5,50})\.azurecr\.(?:io|cn|us)",
        r#""location"\s*:\s*"(?P<region>[a-z][a-z0-9]+)""#,
        r"\bpod/(?P<pod>[a-z0-9][-a-z0-9.]{0,252})",
        r" in pod (?P<pod>[a-z0-9][-a-z0-9.]*)_(?P<namespace>[a-z0-9][-a-z0-9]*)\(",
        r"^Namespace:\s+(?P<namespace>[a-z0-9][-a-z0-9]*)\s*$",
        r"Successfully assigned (?P<namespace>[a-z0-9][-a-z0-9]*)/(?P<pod>[a-z0-9][-a-z0-9.]*) to ",
        // az ml's progress line before it creates a deployment.
        r"^Check: endpoint (?P<endpoint>[a-z][-a-z0-9]{1,31}) exists",
        // A storage connection string names its account (the key beside it is redacted).
        r"\bAccountName=(?P<storage_account>[a-z0-9]{3,24})\b",
        // The storage initializer says which identity it signs in with.
        r"managed identity \(client id (?P<identity_client_id>[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\)",
        // The folder a registered model is mounted or downloaded to.
        r#"azureml-models/(?P<model>[A-Za-z0-9][-A-Za-z0-9_.]{0,254})/(?P<model_version>\d{1,9})(?:[/'"\s]|$)"#,
    ]
    .iter()
    // Constant patterns: the unit tests compile every one.
    .map(|p| Regex::new(p).expect("a valid name pattern"))
    .collect()
});

/// Every `(placeholder name, value)` in `text`. Storage accounts and registries are
/// lowercase names whatever case the host was written in.
pub(crate) fn harvest(text: &str) -> Vec<(&'static str, String)> {
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
        "model",
        "model_version",
        "deployment_yaml",
        "identity_client_id",
        "run_id",
    ];
    let mut out = az_ml_flags(text);
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

/// The placeholder an `az ml GROUP … FLAG VALUE` flag fills: `-n` names the
/// deployment of `online-deployment`, the endpoint of `online-endpoint`, and so on.
fn az_ml_flag(group: &str, flag: &str) -> Option<&'static str> {
    Some(match (group, flag) {
        (_, "-g" | "--resource-group") => "group",
        (_, "-w" | "--workspace-name") => "workspace",
        (_, "--subscription") => "subscription",
        (_, "-e" | "--endpoint-name" | "--endpoint") => "endpoint",
        ("online-deployment" | "batch-deployment", "-n" | "--name") => "deployment",
        ("online-endpoint" | "batch-endpoint", "-n" | "--name") => "endpoint",
        ("job", "-n" | "--name") => "run_id",
        ("model", "-n" | "--name") => "model",
        ("model", "-v" | "--version") => "model_version",
        ("online-deployment", "-f" | "--file") => "deployment_yaml",
        _ => return None,
    })
}

/// A flag value that is a real name, not a placeholder the user pasted
/// (`<endpoint>`, `$ENDPOINT`, `{deployment}`, `MY_ENDPOINT`).
fn is_real_name(value: &str) -> bool {
    let first = value.chars().next();
    first.is_some_and(|c| c.is_ascii_alphanumeric())
        && value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        && value
            .chars()
            .any(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
}

/// A relative or absolute path to a YAML file, in characters a shell takes as they are.
fn is_yaml_path(value: &str) -> bool {
    std::path::Path::new(value)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("yml") || e.eq_ignore_ascii_case("yaml"))
        && value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '/'))
}

/// Names on a pasted `az ml …` command line: `-e churn-ep -g rg-ml -w mlw`.
fn az_ml_flags(text: &str) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    let Some(start) = text.find("az ml ") else {
        return out;
    };
    let words: Vec<&str> = text[start + 6..].split_whitespace().collect();
    let Some(group) = words.first() else {
        return out;
    };
    let mut i = 1;
    while i < words.len() {
        let word = words[i];
        i += 1;
        if !word.starts_with('-') {
            continue;
        }
        let (flag, value) = match word.split_once('=') {
            Some((f, v)) => (f, v),
            None => match words.get(i) {
                // A switch such as `--local` takes no value.
                Some(next) if !next.starts_with('-') => {
                    i += 1;
                    (word, *next)
                }
                _ => continue,
            },
        };
        let value = value.trim_matches(|c| c == '"' || c == '\'');
        let fits = |name: &str| {
            if name == "deployment_yaml" {
                is_yaml_path(value)
            } else {
                is_real_name(value)
            }
        };
        if let Some(name) = az_ml_flag(group, flag)
            && fits(name)
            && (name != "subscription" || value.len() == 36)
        {
            out.push((name, value.to_owned()));
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
            harvest(
                "$ az ml online-deployment get-logs -e credit-risk-ep -n blue -l 45 --resource-group=rg-credit -w <workspace>"
            ),
            [
                ("endpoint", "credit-risk-ep".to_owned()),
                ("deployment", "blue".to_owned()),
                ("group", "rg-credit".to_owned()),
            ]
        );
        assert_eq!(
            harvest("az ml online-deployment create -f deploy/blue.yml --endpoint-name ep-1"),
            [
                ("deployment_yaml", "deploy/blue.yml".to_owned()),
                ("endpoint", "ep-1".to_owned())
            ]
        );
        assert_eq!(
            harvest("az ml online-endpoint create --local -n churn-ep -f $FILE -g \"rg-1\""),
            [
                ("endpoint", "churn-ep".to_owned()),
                ("group", "rg-1".to_owned())
            ]
        );
        assert!(harvest("az ml online-deployment create -n $DEPLOYMENT -e MY_ENDPOINT").is_empty());
        assert_eq!(
            harvest("Check: endpoint sales-forecast-ep exists"),
            [("endpoint", "sales-forecast-ep".to_owned())]
        );
        assert_eq!(
            harvest(
                "DefaultEndpointsProtocol=https;AccountName=mlwchurnstore01;AccountKey=[REDACTED]"
            ),
            [("storage_account", "mlwchurnstore01".to_owned())]
        );
        assert_eq!(
            harvest("FileNotFoundError: /var/azureml-app/azureml-models/credit-model/3/model.pkl"),
            [
                ("model", "credit-model".to_owned()),
                ("model_version", "3".to_owned())
            ]
        );
        assert_eq!(
            harvest("  \"location\": \"westeurope\","),
            [("region", "westeurope".to_owned())]
        );
    }
}
