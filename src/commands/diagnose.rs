//! `amldoctor diagnose PATH…`: scan local logs (and resource JSON among them) with the
//! rule catalogue, then hand the findings to the shared pipeline.

use std::collections::VecDeque;
use std::io::Write;

use crate::checks::unrecognised;
use crate::cli::DiagnoseArgs;
use crate::context::Context;
use crate::engine::Analysis;
use crate::engine::parallel::{ScanOutcome, scan_all};
use crate::error::{Error, Result};
use crate::evidence::Origin;
use crate::exit_code::ExitCode;
use crate::finding::Evidence;
use crate::prs;
use crate::prs::analyze::ParsedFile;
use crate::report::findings::{InputReport, NotAnalysed};
use crate::rules::RuleSet;
use crate::source;

use super::collect::{self, Place};
use super::pipeline::{Collected, finish, rule_refs};
use super::support::{
    add_dns, add_resources, bundle_gaps, connect_azure, load_rules, placeholders_with_bundles,
    read_resources,
};

pub fn run(
    ctx: &Context,
    args: &DiagnoseArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitCode> {
    if args.log_analytics.is_some() {
        return super::log_analytics::run(ctx, args, out, err);
    }
    if args.since.is_some() {
        return Err(Error::input(
            "--since says how far back --log-analytics reads; it needs --log-analytics WORKSPACE_ID",
        ));
    }
    if args.endpoint.is_some() || args.run.is_some() {
        return live(ctx, args, out, err);
    }
    if args.save.is_some() {
        return Err(Error::input(
            "--save keeps what -e or --run read from Azure; local paths are already saved",
        ));
    }
    analyse(ctx, args, &args.paths, out, err)
}

/// `diagnose -e EP [-n DEP]` / `diagnose --run RUN`: reads a bundle from Azure (into
/// --save DIR, else a temporary folder removed afterwards), then analyses it exactly
/// as `diagnose DIR` would.
fn live(
    ctx: &Context,
    args: &DiagnoseArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitCode> {
    let place = Place::of(ctx, "diagnose")?;
    let (dir, temporary) = match &args.save {
        Some(d) => (d.clone(), false),
        None => (source::local::temporary_dir("diagnose"), true),
    };
    let mut azure = connect_azure(ctx)?;
    let collected = match (&args.endpoint, &args.run) {
        (Some(endpoint), _) => collect::deployment_bundle(
            &mut azure,
            &place,
            endpoint,
            args.deployment.as_deref(),
            LIVE_LOG_LINES,
            &dir,
        ),
        (None, Some(run)) => {
            collect::run_bundle(&mut azure, &place, run, LIVE_DOWNLOADS, &dir).map(|(m, _)| m)
        }
        (None, None) => Err(Error::input(
            "diagnose needs paths, -e ENDPOINT or --run RUN_ID",
        )),
    };
    super::support::debug_traces(ctx, &mut azure, err);
    let result = collected.and_then(|manifest| {
        super::logs::note_resolved(&manifest, err);
        if !temporary {
            let _ = writeln!(
                err,
                "note: what was read from Azure is saved in {}",
                dir.display()
            );
        }
        analyse(ctx, args, &[dir.display().to_string()], out, err)
    });
    if temporary {
        source::local::remove_dir(&dir);
    }
    result
}

/// Container log lines a live diagnosis reads (as many as az reads by default).
const LIVE_LOG_LINES: u64 = 5000;
/// Parallel downloads of a live `--run` diagnosis.
const LIVE_DOWNLOADS: usize = 8;

/// Analyses local paths (a bundle among them).
fn analyse(
    ctx: &Context,
    args: &DiagnoseArgs,
    paths: &[String],
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitCode> {
    analyse_with(ctx, args, paths, None, out, err)
}

/// [`analyse`], with what a Log Analytics query read for the report.
pub(super) fn analyse_with(
    ctx: &Context,
    args: &DiagnoseArgs,
    paths: &[String],
    log_analytics: Option<(
        crate::report::log_analytics::LogAnalyticsSummary,
        super::log_analytics::Lines,
    )>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitCode> {
    let set = load_rules(ctx, &args.rule_dirs)?;
    if paths.iter().any(|p| p == "-") && source::local::stdin_is_terminal() {
        // Nothing was piped in: without this line the command would seem to hang.
        let _ = writeln!(
            err,
            "reading the log from standard input: paste it, then press Ctrl-D (Ctrl-Z and Enter on Windows)"
        );
    }
    let mut inputs = source::inputs::collect(paths);
    let mut placeholders = placeholders_with_bundles(ctx, &inputs);
    // The one endpoint and deployment the Log Analytics lines are of fill commands.
    if let Some((la, _)) = &log_analytics {
        for (key, value) in super::log_analytics::only_names(la) {
            placeholders.entry(key).or_insert(value);
        }
    }
    let mut resources = read_resources(&mut inputs, false);
    // DNS answers saved in a bundle are judged again, as `check` judged them.
    let dns = std::mem::take(&mut resources.dns);
    let mut analysis = Analysis::new();
    let mut c = scan_logs(&set, args, &inputs, &mut analysis);
    c.not_analysed.extend(bundle_gaps(&inputs));
    let options = crate::checks::CheckOptions {
        now_unix: Some(super::support::now_unix()?),
        ..crate::checks::CheckOptions::default()
    };
    add_resources(&set, &mut analysis, &resources.resources, &options);
    add_dns(ctx, &set, &mut analysis, &dns, &resources.resources, &[]);
    c.dns = dns;
    let diagnosis = crate::checks::diagnosis::findings(&resources.resources, &placeholders);
    c.take_resource_inputs(resources);
    let mut findings = analysis.finish(&set, &placeholders);
    let tree_files: Vec<&str> = c
        .inputs
        .iter()
        .filter(|i| i.prs_tree.is_some())
        .map(|i| i.path.as_str())
        .collect();
    fill_tree_folders(&mut findings, &c.prs, &tree_files);
    findings.extend(diagnosis);
    c.findings = crate::engine::order(findings);
    c.rules = rule_refs(&set, &|_| true);
    c.names = placeholders;
    // A Log Analytics query that returned no candidate line was still analysed.
    c.remote_inputs = u64::from(log_analytics.is_some() && c.inputs.is_empty());
    c.log_analytics = log_analytics.map(|(mut la, lines)| {
        super::log_analytics::count_findings(&set, &c.findings, &mut la, &lines);
        la
    });
    finish("diagnose", ctx, &set, &args.report, c, out, err)
}

/// `{logs}` in ParallelRunStep commands and fixes: the `logs/` folder of the tree the
/// finding was read from, as the user passed it, rather than a relative `logs/`.
fn fill_tree_folders(
    findings: &mut [crate::finding::Finding],
    trees: &[prs::analyze::PrsSummary],
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
        let values = crate::engine::Placeholders::from([("logs", first.root.clone())]);
        let none = std::collections::BTreeMap::new();
        for c in &mut f.commands {
            *c = crate::engine::fill(c, &none, &values);
        }
        f.commands = f
            .commands
            .drain(..)
            .filter_map(|c| prs::tree::command_for_files(&c, &first.root, files))
            .collect();
        f.remediation = crate::engine::fill(&f.remediation, &none, &values);
    }
}

/// Scans the text inputs, runs the ParallelRunStep analysis of any trees among them,
/// and adds every hit to `analysis`.
fn scan_logs(
    set: &RuleSet,
    args: &DiagnoseArgs,
    inputs: &source::inputs::InputSet,
    analysis: &mut Analysis,
) -> Collected {
    let threads = args.jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |j| usize::try_from(j).unwrap_or(usize::MAX),
    );
    // ParallelRunStep trees among the inputs: their files get a role and are parsed too.
    let files: Vec<std::path::PathBuf> = inputs
        .documents
        .iter()
        .filter_map(|o| match o {
            Origin::File(p) => Some(p.clone()),
            Origin::Stdin => None,
        })
        .collect();
    let roots = prs::tree::find_roots(&files);
    let mut c = Collected::default();
    let documents = without_side_files(inputs, &roots, &mut c);
    let placed: Vec<Option<(usize, prs::tree::Role)>> = documents
        .iter()
        .map(|o| match o {
            Origin::File(p) => prs::tree::classify(&roots, p),
            Origin::Stdin => None,
        })
        .collect();
    let roles: Vec<Option<prs::tree::Role>> = placed
        .iter()
        .map(|p| p.as_ref().map(|(_, r)| r.clone()))
        .collect();
    let results = scan_all(
        set,
        &documents,
        &prs::parse::PrsObservers(&roles),
        args.kind,
        threads,
        &source::inputs::open,
    );
    let explicit: Vec<String> = inputs.explicit.iter().map(|o| o.display_name()).collect();
    note_unreadable(inputs, &mut c);
    // Only the last few error-like lines over all inputs (in input order) are shown.
    let mut error_lines: VecDeque<Evidence> = VecDeque::new();
    let mut trees: Vec<Vec<ParsedFile>> = vec![Vec::new(); roots.len()];
    for (r, place) in results.into_iter().zip(&placed) {
        let path = r.origin.display_name();
        match r.outcome {
            ScanOutcome::Scanned {
                kind,
                sections,
                kind_source,
                scan,
                hits,
                observed: prs,
            } => {
                if let (Some(facts), Some((tree, role))) = (prs, place) {
                    trees[*tree].push(ParsedFile {
                        path: path.clone(),
                        role: role.clone(),
                        facts,
                    });
                }
                let last_errors: Vec<Evidence> = scan
                    .error_lines
                    .iter()
                    .map(|h| Evidence::at_line(path.clone(), h.line, h.text.clone()))
                    .collect();
                for pair in &scan.names {
                    if c.names_seen.len() < super::pipeline::NAMES_SEEN_KEPT
                        && !c.names_seen.contains(pair)
                    {
                        c.names_seen.push(pair.clone());
                    }
                }
                for e in &last_errors {
                    if error_lines.len() == crate::engine::scan::ERROR_LINES_KEPT {
                        error_lines.pop_front();
                    }
                    error_lines.push_back(e.clone());
                }
                // A failing input no rule explained still gets a finding.
                let explained = hits.iter().any(|h| {
                    let rule = &set.rules[h.rule];
                    rule.severity >= crate::finding::Severity::Warning
                        || unrecognised::EXPLAINS_NOISE.contains(&rule.id.as_str())
                });
                if !explained
                    && place.is_none()
                    && let Some(found) = unrecognised::check(kind, scan.lines, &last_errors)
                    && let Some(index) = set.index_of(unrecognised::RULE_ID)
                {
                    analysis.add_computed(index, found);
                }
                c.inputs.push(InputReport {
                    path: path.clone(),
                    kind,
                    also_read_as: sections
                        .kinds()
                        .into_iter()
                        .filter(|k| *k != kind)
                        .collect(),
                    kind_source,
                    lines: scan.lines,
                    bytes: scan.bytes,
                    long_lines: scan.long_lines,
                    prs_tree: place
                        .as_ref()
                        .map(|(tree, _)| roots[*tree].display().to_string()),
                });
                analysis.add(&path, hits);
            }
            ScanOutcome::Skipped(reason) => c.not_analysed.push(NotAnalysed::new(&path, reason)),
            ScanOutcome::Empty => not_scanned(&path, explicit.contains(&path), None, &mut c),
            ScanOutcome::Unreadable(reason) => {
                not_scanned(&path, explicit.contains(&path), Some(&reason), &mut c);
            }
        }
    }
    c.error_lines = error_lines.into();
    c.prs = analyse_trees(set, &roots, trees, analysis);
    c
}

/// The documents to scan: a job folder holds more than logs (a job YAML, notes), and
/// a YAML file the walk found there is not read as a log unless the user named it.
fn without_side_files(
    inputs: &source::inputs::InputSet,
    roots: &[std::path::PathBuf],
    c: &mut Collected,
) -> Vec<Origin> {
    let mut kept = Vec::with_capacity(inputs.documents.len());
    for o in &inputs.documents {
        if let Origin::File(p) = o
            && !inputs.explicit.contains(o)
            && prs::tree::is_side_file(roots, p)
        {
            c.not_analysed.push(NotAnalysed::new(
                &o.display_name(),
                "a YAML file in the ParallelRunStep job folder, not one of its logs (name it to read it)",
            ));
        } else {
            kept.push(o.clone());
        }
    }
    kept
}

/// An input that was empty (`reason` `None`) or could not be read: noted, and an input
/// error when the user named it. An empty input named (or piped in) is an error too: a
/// failed command piped into amldoctor must not look healthy.
fn not_scanned(path: &str, named: bool, reason: Option<&str>, c: &mut Collected) {
    let (error, note) = match reason {
        None => (
            Error::input(format!(
                "cannot analyse {path}: it is empty: nothing to analyse"
            ))
            .with_hint("if it was piped from az, run that command alone: it probably failed"),
            "it is empty: nothing to analyse".to_owned(),
        ),
        Some(r) => (
            Error::input(format!("cannot analyse {path}: {r}")),
            format!("cannot read it: {r}"),
        ),
    };
    if named {
        c.input_errors.push(error);
        c.not_analysed.push(NotAnalysed::error(path, note));
    } else {
        c.not_analysed.push(NotAnalysed::new(path, note));
    }
}

/// Inputs that could not be read at all: noted, and an error when the user named them.
fn note_unreadable(inputs: &source::inputs::InputSet, c: &mut Collected) {
    for u in &inputs.unreadable {
        c.not_analysed.push(if u.explicit {
            NotAnalysed::error(&u.path, u.reason.clone())
        } else {
            NotAnalysed::new(&u.path, u.reason.clone())
        });
        if u.explicit {
            c.input_errors.push(Error::input(format!(
                "cannot analyse {}: {}",
                u.path, u.reason
            )));
        }
    }
}

/// The ParallelRunStep summary and computed findings of each tree.
fn analyse_trees(
    set: &RuleSet,
    roots: &[std::path::PathBuf],
    trees: Vec<Vec<ParsedFile>>,
    analysis: &mut Analysis,
) -> Vec<prs::analyze::PrsSummary> {
    let mut summaries = Vec::new();
    for (root, files) in roots.iter().zip(trees) {
        // Computed findings without a line of their own point at the job's result file
        // (or the first file read), so every report format has a location.
        let anchor = files
            .iter()
            .find(|f| f.role == prs::tree::Role::JobResult)
            .or_else(|| files.first())
            .map(|f| f.path.clone());
        let root_name = root.display().to_string();
        let (summary, computed) = prs::analyze::analyze(&root_name, files);
        for mut c in computed {
            if c.evidence.is_empty()
                && let Some(path) = &anchor
            {
                c.evidence.push(Evidence::computed_in(
                    path.clone(),
                    format!("computed from the ParallelRunStep tree {root_name}"),
                ));
            }
            if let Some(index) = set.index_of(c.rule_id) {
                analysis.add_computed(index, c);
            }
        }
        summaries.push(summary);
    }
    summaries
}
