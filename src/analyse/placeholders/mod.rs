//! The values that fill `{placeholder}`s in the commands and fixes amldoctor prints,
//! and where each comes from: flags and the project file, a bundle's manifest, the
//! ParallelRunStep tree a finding was read from, and names the inputs hold. Findings
//! arrive with the templates of their rules and analysers; [`fill`] fills them here,
//! once, after every finding is in, and [`missing`] lists what stays unknown.

mod pool;

use crate::context::Context;
use crate::finding::Finding;
use crate::prs;
use crate::rules::template::{self, MissingName, Placeholders};
use crate::source::inputs::InputSet;

/// Values for `{group}`, `{workspace}`, `{subscription}`, `{endpoint}` and
/// `{deployment}` in commands, from flags and the project file.
pub(crate) fn of_context(ctx: &Context) -> Placeholders {
    let mut p = Placeholders::new();
    let settings = [
        ("group", &ctx.resource_group),
        ("workspace", &ctx.workspace),
        ("subscription", &ctx.subscription),
        ("endpoint", &ctx.endpoint),
        ("deployment", &ctx.deployment),
    ];
    for (name, setting) in settings {
        if let Some(s) = setting {
            p.insert(name, s.value.clone());
        }
    }
    p
}

/// [`of_context`], with the names a bundle's manifest records filling what the
/// context lacks, so a saved bundle's commands read as the live run's did.
pub(crate) fn with_bundles(ctx: &Context, inputs: &InputSet) -> Placeholders {
    let mut p = of_context(ctx);
    for (_, m) in &inputs.bundles {
        let names = [
            ("group", &m.source.resource_group),
            ("workspace", &m.source.workspace),
            ("subscription", &m.source.subscription),
            ("endpoint", &m.source.endpoint),
            ("deployment", &m.source.deployment),
            ("run_id", &m.source.run),
        ];
        for (key, value) in names {
            if let Some(v) = value {
                p.entry(key).or_insert_with(|| v.clone());
            }
        }
    }
    p
}

/// Where placeholder values come from, besides each finding's own facts.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Sources<'a> {
    /// The run's values: flags, the project file, a bundle's manifest.
    pub run: &'a Placeholders,
    /// Azure names the inputs hold (`(input, placeholder, value)`).
    pub seen: &'a [(String, &'static str, String)],
    /// Which inputs are one incident: names fill commands only within one.
    pub incidents: &'a super::incidents::Incidents,
    /// The ParallelRunStep trees read, for `{logs}`.
    pub trees: &'a [&'a prs::summary::PrsSummary],
    /// The files of those trees, for commands that name one.
    pub tree_files: &'a [&'a str],
}

/// Fills every finding's commands and fix, in order of authority: the run's values
/// and the finding's own facts (the run's win: what the user said is the truth), the
/// `logs/` folder of the tree it was read from, then the names the run's evidence
/// agrees on. What stays unknown is shown `<name>` and returned, each once with where
/// to get it.
pub(crate) fn fill(findings: &mut [Finding], from: &Sources<'_>) -> Vec<MissingName> {
    // What each finding's incident agrees on; names from another input are not its.
    let pools: Vec<Placeholders> = findings
        .iter()
        .map(|f| {
            let related = findings
                .iter()
                .filter(|g| from.incidents.share(&f.paths, &g.paths));
            let seen = from
                .seen
                .iter()
                .filter(|(input, _, _)| from.incidents.holds(&f.paths, input))
                .map(|(_, name, value)| (*name, value.clone()));
            pool::pooled(related, seen, from.run)
        })
        .collect();
    for (f, pool) in findings.iter_mut().zip(&pools) {
        own_values(f, from.run);
        tree_folder(f, from.trees, from.tree_files);
        pool::complete(f, pool);
    }
    // A hint's command takes the names every incident agrees on.
    let agreed: Placeholders = pools.first().map_or_else(Placeholders::new, |first| {
        first
            .iter()
            .filter(|(k, v)| pools.iter().all(|p| p.get(*k) == Some(*v)))
            .map(|(k, v)| (*k, v.clone()))
            .collect()
    });
    pool::missing(findings, &agreed)
}

/// The values nobody gave in findings filled already (a fleet's, over many
/// workspaces), each once with where to get it; `known` fills the names a hint's own
/// command uses.
pub(crate) fn missing(findings: &[Finding], known: &Placeholders) -> Vec<MissingName> {
    pool::missing(findings, known)
}

/// The names in the id of the resource a finding is about, then the run's values,
/// then the finding's facts, in its commands and fix; the fix then shows the facts it
/// names by name by their values. A resource's own id wins over the run: a Key Vault
/// in another group or subscription than the workspace is changed where it is.
fn own_values(f: &mut Finding, run: &Placeholders) {
    let mut values = f.names.clone();
    values.extend(f.facts.iter().map(|(k, v)| (k.clone(), v.clone())));
    let mut first = run.clone();
    for name in crate::rules::load::CONTEXT_PLACEHOLDERS {
        if let Some(v) = f.names.get(*name) {
            first.insert(name, v.clone());
        }
    }
    for c in &mut f.commands {
        *c = template::fill(c, &values, &first);
    }
    f.remediation = template::show_fact_values(
        &template::fill_prose(&f.remediation, &values, &first),
        &f.facts,
    );
}

/// `{logs}` in ParallelRunStep commands and fixes: the `logs/` folder of the tree the
/// finding was read from, as the user passed it, rather than a relative `logs/`; and
/// commands naming tree files only where those files exist.
fn tree_folder(f: &mut Finding, trees: &[&prs::summary::PrsSummary], files: &[&str]) {
    let mut roots = f.paths.iter().filter_map(|p| {
        trees
            .iter()
            .find(|t| std::path::Path::new(p).starts_with(&t.root))
    });
    // A finding without a path in any tree (computed from the tree as a whole) takes
    // the one tree there is.
    let Some(first) = roots.next().or(match trees {
        [one] => Some(one),
        _ => None,
    }) else {
        return;
    };
    if roots.any(|t| t.root != first.root) {
        return;
    }
    let values = Placeholders::from([("logs", first.root.clone())]);
    let none = std::collections::BTreeMap::new();
    for c in &mut f.commands {
        *c = template::fill(c, &none, &values);
    }
    f.commands = f
        .commands
        .drain(..)
        .filter_map(|c| prs::tree::command_for_files(&c, &first.root, files))
        .collect();
    f.remediation = template::fill(&f.remediation, &none, &values);
}

/// The explanations of a scoring probe's statuses as the report prints them: names
/// filled, the rest shown as `<name>`.
pub(crate) fn fill_explanations(
    summary: &mut crate::scoring::summary::ScoreSummary,
    names: &Placeholders,
) {
    let filled = |t: &str| template::show_missing(&template::fill(t, &Default::default(), names));
    for e in &mut summary.explanations {
        e.meaning = filled(&e.meaning);
        e.checks = e.checks.iter().map(|c| filled(c)).collect();
        e.commands = e.commands.iter().map(|c| filled(c)).collect();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finding::{Evidence, Severity};

    fn finding(command: &str, remediation: &str) -> Finding {
        Finding {
            evidence: vec![Evidence::at_line("a.log", 1, "x")],
            remediation: remediation.into(),
            commands: vec![command.into()],
            ..Finding::bare("r", Severity::Error)
        }
    }

    #[test]
    fn the_run_wins_then_facts_and_names_then_what_the_run_saw() {
        let mut f = finding(
            "az ml online-deployment show -e {endpoint} -n {deployment} -g {group} -w {workspace}",
            "Exit code (fact `exit_code`) in {deployment}.",
        );
        f.facts.insert("deployment".into(), "from-log".into());
        f.facts.insert("exit_code".into(), "137".into());
        f.names.insert("endpoint".into(), "ep-from-id".into());
        let mut findings = vec![f];
        let run = Placeholders::from([("deployment", "blue".to_owned())]);
        let seen = [("a.log".to_owned(), "group", "rg-seen".to_owned())];
        let missing = fill(
            &mut findings,
            &Sources {
                run: &run,
                seen: &seen,
                incidents: &super::super::incidents::Incidents::default(),
                trees: &[],
                tree_files: &[],
            },
        );
        assert_eq!(
            findings[0].commands[0],
            "az ml online-deployment show -e ep-from-id -n blue -g rg-seen -w <workspace>"
        );
        assert_eq!(findings[0].remediation, "Exit code (`137`) in blue.");
        let shown: Vec<&str> = missing.iter().map(|m| m.placeholder.as_str()).collect();
        assert_eq!(shown, ["<workspace>"]);
    }

    #[test]
    fn a_resource_is_changed_where_its_id_says_it_is() {
        let mut f = finding(
            "az keyvault update -n {vault} -g {group} --subscription {subscription}",
            "",
        );
        f.names.insert("vault".into(), "kv-shared".into());
        f.names.insert("group".into(), "rg-security".into());
        f.names.insert("subscription".into(), "sub-sec".into());
        let mut findings = vec![f];
        let run = Placeholders::from([
            ("group", "rg-ml".to_owned()),
            ("subscription", "sub-ml".to_owned()),
        ]);
        fill(
            &mut findings,
            &Sources {
                run: &run,
                seen: &[],
                incidents: &super::super::incidents::Incidents::default(),
                trees: &[],
                tree_files: &[],
            },
        );
        assert_eq!(
            findings[0].commands[0],
            "az keyvault update -n kv-shared -g rg-security --subscription sub-sec"
        );
    }
}
