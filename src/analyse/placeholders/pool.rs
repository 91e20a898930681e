//! The names printed commands need (`{endpoint}`, `{storage_account}`, `{pod}`…),
//! completed over the whole run: a log line of one finding that names the endpoint
//! fills the commands of every other finding, and what stays unknown is shown one
//! way, `<endpoint>`, with the flag or query that fills it said once.
//!
//! Order: the run's values (flags, project file) and a finding's own facts are
//! applied first (`super::fill`); this adds the values the run's evidence agrees on.

use std::collections::{BTreeMap, BTreeSet};

use crate::evidence::azure_names::harvest;
use crate::finding::Finding;
use crate::lint::environment::package_of_import;
use crate::rules::template::{self, MissingName, Placeholders, missing_in};

/// Whether one finding's evidence may fill `name` in another finding's commands: the
/// run's placeholders name the same deployment for the whole run, unlike an exception
/// or a status. `logs` is per tree and is filled by the tree analysis instead.
fn shared(name: &str) -> bool {
    name != "logs" && crate::rules::load::CONTEXT_PLACEHOLDERS.contains(&name)
}

/// Every value of a shared name the findings' facts and evidence hold, and the names
/// the scan read elsewhere in the inputs (`seen`).
fn seen_values<'f>(
    findings: impl IntoIterator<Item = &'f Finding>,
    seen_in_inputs: impl IntoIterator<Item = (&'static str, String)>,
) -> BTreeMap<&'static str, BTreeSet<String>> {
    let mut values: BTreeMap<&'static str, BTreeSet<String>> = BTreeMap::new();
    for f in findings {
        for name in crate::rules::load::CONTEXT_PLACEHOLDERS {
            if shared(name)
                && let Some(v) = f.facts.get(*name)
            {
                values.entry(name).or_default().insert(v.clone());
            }
        }
        for e in &f.evidence {
            for (name, v) in harvest(&e.text) {
                values.entry(name).or_default().insert(v);
            }
        }
    }
    for (name, v) in seen_in_inputs {
        values.entry(name).or_default().insert(v);
    }
    values
}

/// The values the run agrees on: a name seen with two different values (two
/// endpoints in one paste) is left for the user rather than guessed.
pub(crate) fn pooled<'f>(
    findings: impl IntoIterator<Item = &'f Finding>,
    seen: impl IntoIterator<Item = (&'static str, String)>,
    run: &Placeholders,
) -> Placeholders {
    let mut pool = run.clone();
    for (name, values) in seen_values(findings, seen) {
        if values.len() == 1
            && let Some(v) = values.into_iter().next()
        {
            pool.entry(name).or_insert(v);
        }
    }
    pool
}

/// Values derived from captured facts: the pip package of a missing module.
fn derive_facts(f: &mut Finding) {
    if let Some(module) = f.facts.get("module")
        && !f.facts.contains_key("package")
    {
        let package = package_of_import(module);
        f.facts.insert("package".to_owned(), package);
    }
}

/// Fills what `pool` knows into the finding's commands and fix and shows the rest as
/// `<name>`.
pub(crate) fn complete(f: &mut Finding, pool: &Placeholders) {
    derive_facts(f);
    // The finding's own facts, then the names its own evidence agrees on (the pod of
    // this event, when the paste lists several), then the run's.
    let mut facts = f.facts.clone();
    for (name, values) in seen_values([&*f], []) {
        if values.len() == 1
            && let Some(v) = values.into_iter().next()
        {
            facts.entry(name.to_owned()).or_insert(v);
        }
    }
    for c in &mut f.commands {
        *c = template::show_missing(&template::fill(c, &facts, pool));
    }
    f.remediation = template::show_missing(&template::fill_prose(&f.remediation, &facts, pool));
}

/// The values still missing from the findings' commands and fixes, with where to get
/// each (a hint's own command using the names `known` holds).
pub(crate) fn missing(findings: &[Finding], known: &Placeholders) -> Vec<MissingName> {
    let mut missing = missing_in(
        findings
            .iter()
            .flat_map(|f| f.commands.iter().map(String::as_str)),
        findings.iter().map(|f| f.remediation.as_str()),
    );
    for m in &mut missing {
        m.filled_by = known_in_hint(&m.filled_by, known);
    }
    missing
}

/// `GROUP`, `WORKSPACE` and `ENDPOINT` in a hint's command replaced by the run's values.
fn known_in_hint(hint: &str, pool: &Placeholders) -> String {
    hint.split(' ')
        .map(|word| {
            let name = match word {
                "GROUP" => "group",
                "WORKSPACE" => "workspace",
                "ENDPOINT" => "endpoint",
                _ => return word.to_owned(),
            };
            pool.get(name)
                .filter(|v| template::shell_safe(v))
                .map_or_else(|| word.to_owned(), Clone::clone)
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finding::{Evidence, Severity};

    fn complete_all(findings: &mut [Finding], pool: &Placeholders) -> Vec<MissingName> {
        for f in findings.iter_mut() {
            complete(f, pool);
        }
        missing(findings, pool)
    }

    fn finding(text: &str, command: &str) -> Finding {
        Finding {
            evidence: vec![Evidence::at_line("a.log", 1, text)],
            commands: vec![command.into()],
            title: "t".into(),
            ..Finding::bare("r", Severity::Error)
        }
    }

    #[test]
    fn one_findings_evidence_fills_anothers_commands() {
        let mut findings = vec![
            finding(
                "POST https://blue-ep.westeurope.inference.ml.azure.com/score 502",
                "az ml online-endpoint show -n {endpoint} -g {group}",
            ),
            finding(
                "failed to pull from acrprod01.azurecr.io/azureml/x",
                "az acr show -n {registry} --query loginServer",
            ),
        ];
        let pool = pooled(&findings, [], &Placeholders::from([("group", "rg".into())]));
        let missing = complete_all(&mut findings, &pool);
        assert_eq!(
            findings[0].commands[0],
            "az ml online-endpoint show -n blue-ep -g rg"
        );
        assert_eq!(
            findings[1].commands[0],
            "az acr show -n acrprod01 --query loginServer"
        );
        assert!(missing.is_empty());
    }

    #[test]
    fn two_values_are_not_guessed_and_missing_names_are_said_once() {
        let mut findings = vec![
            finding(
                "https://a.westeurope.inference.ml.azure.com",
                "x {endpoint}",
            ),
            finding(
                "https://b.westeurope.inference.ml.azure.com",
                "y {endpoint} {pod}",
            ),
            finding("no name here", "z {endpoint}"),
        ];
        let pool = pooled(&findings, [], &Placeholders::new());
        assert_eq!(pool.get("region").map(String::as_str), Some("westeurope"));
        assert_eq!(pool.get("endpoint"), None, "a or b: not guessed");
        let missing = complete_all(&mut findings, &pool);
        // Each finding's own evidence still names its endpoint.
        assert_eq!(findings[0].commands[0], "x a");
        assert_eq!(findings[1].commands[0], "y b <pod>");
        assert_eq!(findings[2].commands[0], "z <endpoint>");
        let shown: Vec<&str> = missing.iter().map(|m| m.placeholder.as_str()).collect();
        assert_eq!(shown, ["<endpoint>", "<pod>"]);
    }

    #[test]
    fn resource_ids_give_group_workspace_endpoint_and_deployment() {
        let id = "/subscriptions/11111111-2222-3333-4444-555555555555/resourceGroups/rg-ml/providers/Microsoft.MachineLearningServices/workspaces/ws1/onlineEndpoints/ep1/deployments/blue";
        let findings = vec![finding(id, "z")];
        let pool = pooled(&findings, [], &Placeholders::new());
        for (k, v) in [
            ("group", "rg-ml"),
            ("workspace", "ws1"),
            ("endpoint", "ep1"),
            ("deployment", "blue"),
        ] {
            assert_eq!(pool.get(k).map(String::as_str), Some(v), "{k}");
        }
    }

    #[test]
    fn import_names_give_their_pip_package() {
        for (module, package) in [
            ("sklearn.ensemble", "scikit-learn"),
            ("cv2", "opencv-python-headless"),
            ("lightgbm", "lightgbm"),
            ("azureml.core", "azureml-core"),
            ("azure.storage.blob", "azure-storage-blob"),
            ("inference_schema.schema_decorators", "inference-schema"),
            ("google.protobuf", "protobuf"),
        ] {
            assert_eq!(package_of_import(module), package, "{module}");
        }
    }

    #[test]
    fn the_fix_names_the_captured_value() {
        let mut f = finding("x", "pip install {module}");
        f.remediation = "Add `{module}` to the conda file.".into();
        f.facts.insert("module".into(), "sklearn".into());
        let mut findings = vec![f];
        complete_all(&mut findings, &Placeholders::new());
        assert_eq!(findings[0].remediation, "Add `sklearn` to the conda file.");
    }
}
