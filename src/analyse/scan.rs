//! The text inputs through the engine's scanner: each document's rule hits, the files of
//! ParallelRunStep trees parsed by their line observers on the way, and what every input
//! was read as (or why it was not).

use std::collections::VecDeque;

use crate::engine::Analysis;
use crate::engine::parallel::{ScanOutcome, scan_all};
use crate::error::Error;
use crate::evidence::Origin;
use crate::finding::Evidence;
use crate::finding::NotAnalysed;
use crate::prs;
use crate::prs::summary::ParsedFile;
use crate::report::findings::InputReport;
use crate::rules::RuleSet;
use crate::source;
use crate::source::inputs::InputSet;

use super::Analysed;
use super::analyser::{ParsedTree, ScannedDocument};

/// Names kept over all inputs: enough for any run, bounded for a huge tree.
const NAMES_SEEN_KEPT: usize = 256;

/// What scanning gave besides the hits added to the analysis.
#[derive(Debug, Default)]
pub(super) struct Scanned {
    pub(super) documents: Vec<ScannedDocument>,
    pub(super) trees: Vec<ParsedTree>,
}

/// Scans the text inputs, adds every hit to `analysis` and what was read to `a`.
pub(super) fn scan(
    set: &RuleSet,
    options: &super::Options,
    inputs: &InputSet,
    analysis: &mut Analysis,
    a: &mut Analysed,
) -> Scanned {
    // ParallelRunStep trees among the inputs: their files get a role and are parsed too.
    let files: Vec<std::path::PathBuf> = inputs
        .documents
        .iter()
        .filter_map(|o| match o {
            Origin::File(p) => Some(p.clone()),
            Origin::Stdin | Origin::Text(_) => None,
        })
        .collect();
    let roots = prs::tree::find_roots(&files);
    let documents = without_side_files(inputs, &roots, a);
    let placed: Vec<Option<(usize, prs::tree::Role)>> = documents
        .iter()
        .map(|o| match o {
            Origin::File(p) => prs::tree::classify(&roots, p),
            Origin::Stdin | Origin::Text(_) => None,
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
        options.kind,
        options.jobs,
        &source::inputs::open,
    );
    let explicit: Vec<String> = inputs.explicit.iter().map(|o| o.display_name()).collect();
    note_unreadable(inputs, a);
    // Only the last few error-like lines over all inputs (in input order) are shown.
    let mut error_lines: VecDeque<Evidence> = VecDeque::new();
    let mut out = Scanned {
        documents: Vec::new(),
        trees: roots
            .iter()
            .map(|root| ParsedTree {
                root: root.clone(),
                files: Vec::new(),
            })
            .collect(),
    };
    for (r, place) in results.into_iter().zip(&placed) {
        let path = r.origin.display_name();
        match r.outcome {
            ScanOutcome::Scanned {
                kind,
                sections,
                kind_source,
                scan,
                hits,
                observed,
            } => {
                if let (Some(facts), Some((tree, role))) = (observed, place) {
                    out.trees[*tree].files.push(ParsedFile {
                        path: path.clone(),
                        role: role.clone(),
                        facts,
                    });
                }
                let last_errors = keep_names_and_errors(&path, &scan, a, &mut error_lines);
                out.documents.push(ScannedDocument {
                    kind,
                    lines: scan.lines,
                    name_lines: scan.name_lines.clone(),
                    final_line: at_lines(&path, &scan.final_line).pop(),
                    last_errors,
                    after_errors: at_lines(&path, &scan.after_errors),
                    fired: hits.iter().map(|h| h.rule).collect(),
                    in_tree: place.is_some(),
                });
                a.inputs.push(InputReport {
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
            ScanOutcome::Skipped(reason) => a.not_analysed.push(NotAnalysed::new(&path, reason)),
            ScanOutcome::Empty => not_scanned(&path, explicit.contains(&path), None, a),
            ScanOutcome::Unreadable(reason) => {
                not_scanned(&path, explicit.contains(&path), Some(&reason), a);
            }
        }
    }
    a.error_lines = error_lines.into();
    out
}

/// The run's last error-like lines a report shows (each document keeps more, for the
/// service-error reader).
const ERROR_LINES_SHOWN: usize = 5;

/// A document's last error-like lines as evidence; the Azure names it holds and those
/// lines join the run's (both bounded, the newest error lines kept).
fn keep_names_and_errors(
    path: &str,
    scan: &crate::engine::scan::DocumentScan,
    a: &mut Analysed,
    error_lines: &mut VecDeque<Evidence>,
) -> Vec<Evidence> {
    let last_errors: Vec<Evidence> = scan
        .error_lines
        .iter()
        .map(|h| Evidence::at_line(path.to_owned(), h.line, h.text.clone()))
        .collect();
    for (name, value) in &scan.names {
        let seen = (path.to_owned(), *name, value.clone());
        if a.names_seen.len() < NAMES_SEEN_KEPT && !a.names_seen.contains(&seen) {
            a.names_seen.push(seen);
        }
    }
    for e in &last_errors {
        if error_lines.len() == ERROR_LINES_SHOWN {
            error_lines.pop_front();
        }
        error_lines.push_back(e.clone());
    }
    last_errors
}

/// The documents to scan: a job folder holds more than logs (a job YAML, notes), and
/// a YAML file the walk found there is not read as a log unless the user named it.
fn without_side_files(
    inputs: &InputSet,
    roots: &[std::path::PathBuf],
    a: &mut Analysed,
) -> Vec<Origin> {
    let mut kept = Vec::with_capacity(inputs.documents.len());
    for o in &inputs.documents {
        if let Origin::File(p) = o
            && !inputs.explicit.contains(o)
            && prs::tree::is_side_file(roots, p)
        {
            a.not_analysed.push(NotAnalysed::new(
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
fn not_scanned(path: &str, named: bool, reason: Option<&str>, a: &mut Analysed) {
    let empty = || {
        let e = Error::input(format!(
            "cannot analyse {path}: it is empty: nothing to analyse"
        ));
        // Only standard input was fed by another command (or typed).
        if path == "<stdin>" {
            e.with_hint("if another command's output was piped in, run that command alone: it probably failed; at a terminal, paste the log, then Ctrl-D at the start of a line")
        } else {
            e
        }
    };
    let (error, note) = match reason {
        None => (empty(), "it is empty: nothing to analyse".to_owned()),
        Some(r) => (
            Error::input(format!("cannot analyse {path}: {r}")),
            format!("cannot read it: {r}"),
        ),
    };
    if named {
        a.input_errors.push(error);
        a.not_analysed.push(NotAnalysed::error(path, note));
    } else {
        a.not_analysed.push(NotAnalysed::new(path, note));
    }
}

/// Inputs that could not be read at all: noted, and an error when the user named them.
fn note_unreadable(inputs: &InputSet, a: &mut Analysed) {
    for u in &inputs.unreadable {
        a.not_analysed.push(if u.explicit {
            NotAnalysed::error(&u.path, u.reason.clone())
        } else {
            NotAnalysed::new(&u.path, u.reason.clone())
        });
        if u.explicit {
            a.input_errors.push(Error::input(format!(
                "cannot analyse {}: {}",
                u.path, u.reason
            )));
        }
    }
}

/// Kept lines of `path` as evidence at their lines.
fn at_lines<'a>(
    path: &str,
    hits: impl IntoIterator<Item = &'a crate::engine::scan::Hit>,
) -> Vec<Evidence> {
    hits.into_iter()
        .map(|h| Evidence::at_line(path.to_owned(), h.line, h.text.clone()))
        .collect()
}
