//! Commands for files not yet applied. A rule written for a live deployment tells the
//! user to `az ml online-deployment update … --set key=value`; when `lint` found the
//! problem in a spec file, that deployment may not exist yet, and the fix belongs in
//! the file. Such a command becomes the two that apply the edited file: `create` for a
//! new deployment, `update` for one that exists.

use crate::finding::Finding;
use crate::rules::template::shell_word;

/// The `az ml … update` commands that change a live resource with `--set`, and the
/// commands that apply an edited file instead (`{spec}` is the file).
const LIVE_EDITS: [(&str, [&str; 2]); 2] = [
    (
        "az ml online-deployment update ",
        [
            "az ml online-deployment create --file {spec} -g {group} -w {workspace}",
            "az ml online-deployment update --file {spec} -g {group} -w {workspace}",
        ],
    ),
    (
        "az ml online-endpoint update ",
        [
            "az ml online-endpoint create --file {spec} -g {group} -w {workspace}",
            "az ml online-endpoint update --file {spec} -g {group} -w {workspace}",
        ],
    ),
];

/// Rewrites the live `--set` edits of findings seen in YAML spec files.
pub(crate) fn apply(findings: &mut [Finding]) {
    for f in findings {
        let Some(spec) = f
            .paths
            .iter()
            .find(|p| {
                std::path::Path::new(p).extension().is_some_and(|e| {
                    e.eq_ignore_ascii_case("yml") || e.eq_ignore_ascii_case("yaml")
                })
            })
            .cloned()
        else {
            continue;
        };
        let mut commands: Vec<String> = Vec::with_capacity(f.commands.len());
        for c in &f.commands {
            let replaced: Vec<String> = match LIVE_EDITS
                .iter()
                .find(|(start, _)| c.starts_with(start) && c.contains(" --set "))
            {
                Some((_, apply)) => apply
                    .iter()
                    .map(|a| a.replace("{spec}", &shell_word(&spec)))
                    .collect(),
                None => vec![c.clone()],
            };
            for r in replaced {
                if !commands.contains(&r) {
                    commands.push(r);
                }
            }
        }
        f.commands = commands;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_live_set_on_a_spec_becomes_create_or_update_of_the_file() {
        let mut f = Finding::bare(
            "deployment-request-timeout-over-limit",
            crate::finding::Severity::Error,
        );
        f.paths = vec!["deploy/blue.yml".to_owned()];
        f.commands = vec![
            "az ml online-deployment update -n {deployment} -e {endpoint} -g {group} -w {workspace} --set request_settings.request_timeout_ms=180000".to_owned(),
            "az ml online-deployment get-logs -e {endpoint} -n {deployment}".to_owned(),
        ];
        let mut live = f.clone();
        live.paths = vec!["resources/deployment.json".to_owned()];
        let mut all = [f, live];
        apply(&mut all);
        assert_eq!(
            all[0].commands,
            [
                "az ml online-deployment create --file deploy/blue.yml -g {group} -w {workspace}",
                "az ml online-deployment update --file deploy/blue.yml -g {group} -w {workspace}",
                "az ml online-deployment get-logs -e {endpoint} -n {deployment}",
            ]
        );
        // A deployment read from Azure keeps the live edit.
        assert!(all[1].commands[0].contains("--set"));
    }
}
