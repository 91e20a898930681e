//! The values that fill `{placeholder}`s in the commands and fixes amldoctor prints,
//! and where each comes from: flags and the project file, a bundle's manifest, the
//! ParallelRunStep tree a finding was read from, and names the inputs hold. The
//! engine fills each finding from its own facts; what is left is filled here, once,
//! after every finding is in, and what stays unknown is listed for the user.

mod pool;

use crate::context::Context;
use crate::finding::Finding;
use crate::prs;
use crate::rules::template::MissingName;
use crate::rules::template::Placeholders;
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

/// The run's values (flags, project file, bundle) in findings' commands; a finding
/// the engine made got them with its own facts already.
pub(crate) fn fill_run_values(findings: &mut [Finding], run: &Placeholders) {
    let none = std::collections::BTreeMap::new();
    for f in findings {
        for c in &mut f.commands {
            *c = crate::rules::template::fill(c, &none, run);
        }
    }
}

/// Fills what the findings still need from what the run knows, and lists the values
/// nobody gave.
pub(crate) fn complete(
    findings: &mut [Finding],
    seen: &[(&'static str, String)],
    run: &Placeholders,
) -> Vec<MissingName> {
    let pool = pool::pooled(findings, seen, run);
    pool::complete(findings, &pool)
}

/// `{logs}` in ParallelRunStep commands and fixes: the `logs/` folder of the tree the
/// finding was read from, as the user passed it, rather than a relative `logs/`.
pub(crate) fn fill_tree_folders(
    findings: &mut [Finding],
    trees: &[&prs::summary::PrsSummary],
    files: &[&str],
) {
    for f in findings {
        let mut roots = f.paths.iter().filter_map(|p| {
            trees
                .iter()
                .find(|t| std::path::Path::new(p).starts_with(&t.root))
        });
        // A finding without a path in any tree (computed from the tree as a whole)
        // takes the one tree there is.
        let Some(first) = roots.next().or(match trees {
            [one] => Some(one),
            _ => None,
        }) else {
            continue;
        };
        if roots.any(|t| t.root != first.root) {
            continue;
        }
        let values = Placeholders::from([("logs", first.root.clone())]);
        let none = std::collections::BTreeMap::new();
        for c in &mut f.commands {
            *c = crate::rules::template::fill(c, &none, &values);
        }
        f.commands = f
            .commands
            .drain(..)
            .filter_map(|c| prs::tree::command_for_files(&c, &first.root, files))
            .collect();
        f.remediation = crate::rules::template::fill(&f.remediation, &none, &values);
    }
}

/// The explanations of a scoring probe's statuses as the report prints them: names
/// filled, the rest shown as `<name>`.
pub(crate) fn fill_explanations(
    summary: &mut crate::scoring::summary::ScoreSummary,
    names: &Placeholders,
) {
    let filled = |t: &str| {
        crate::rules::template::show_missing(&crate::rules::template::fill(
            t,
            &Default::default(),
            names,
        ))
    };
    for e in &mut summary.explanations {
        e.meaning = filled(&e.meaning);
        e.checks = e.checks.iter().map(|c| filled(c)).collect();
        e.commands = e.commands.iter().map(|c| filled(c)).collect();
    }
}
