//! The evidence of a run, gathered once: the inputs the user named (files, folders,
//! bundles, standard input) told apart into text for the scanner and resource JSON for
//! the resource rules, with what could not be used. `diagnose` reads JSON among its logs
//! ([`ReadMode::Logs`]); `check` reads nothing but JSON ([`ReadMode::Resources`]).

use crate::error::Error;
use crate::evidence::resource::{Resource, ResourceKind};
use crate::finding::Computed;
use crate::finding::NotAnalysed;
use crate::report::findings::ResourceReport;
use crate::rules::resource::CheckArea;
use crate::source;
use crate::source::inputs::InputSet;

/// How the inputs are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ReadMode {
    /// Logs, with resource JSON among them picked out (`diagnose`).
    Logs,
    /// Resource JSON only: other input is not analysed, malformed JSON is an error
    /// (`check --from`).
    Resources,
}

/// Everything a run analyses.
#[derive(Debug, Default)]
pub(crate) struct Evidence {
    /// The text documents left for the scanner, and the bundles among the inputs.
    pub(crate) inputs: InputSet,
    /// Resources, and the DNS answers saved beside them.
    pub(crate) resources: ResourceInputs,
    /// Inputs noted before anything was analysed (unreadable files `check` was given).
    pub(crate) notes: Vec<NotAnalysed>,
    /// Errors about inputs the user named, found while gathering.
    pub(crate) errors: Vec<Error>,
    /// What `lint` concluded while reading the files of a deployment.
    pub(crate) lint: Vec<Computed>,
    /// What a scoring probe measured.
    pub(crate) scoring: Option<Scoring>,
    /// What a rehearsal recorded.
    pub(crate) rehearsal: Option<crate::rehearsal::computed::RehearsalRun>,
    /// The text documents are logs to scan (`diagnose`); otherwise only resources count.
    pub(crate) scan: bool,
    /// Inputs a service answered rather than files: the endpoint `score` probed, the
    /// resources a Resource Graph query returned, a Log Analytics query with no line.
    pub(crate) remote_inputs: u64,
}

/// A scoring probe's outcome, for the scoring analyser.
#[derive(Debug)]
pub(crate) struct Scoring {
    pub(crate) summary: crate::scoring::summary::ScoreSummary,
    pub(crate) samples: Vec<crate::scoring::sample::Sample>,
}

impl Evidence {
    /// Resources alone (a fleet's workspace, lint's specs).
    pub(crate) fn of_resources(resources: Vec<Resource>) -> Evidence {
        Evidence {
            resources: ResourceInputs {
                resources,
                ..ResourceInputs::default()
            },
            ..Evidence::default()
        }
    }

    /// `check keyvault --from workspace.json`: nothing of the kinds the area is about.
    pub(crate) fn require_subject(&self, area: CheckArea) -> crate::error::Result<()> {
        let resources = &self.resources.resources;
        let subjects = area.subjects();
        if resources.iter().any(|r| subjects.contains(&r.kind)) {
            return Ok(());
        }
        let mut found: Vec<String> = resources
            .iter()
            .map(|r| format!("{} ({})", r.kind, r.path))
            .collect();
        found.dedup();
        let wanted: Vec<&str> = subjects.iter().map(|k: &ResourceKind| k.name()).collect();
        let what = if found.is_empty() {
            "no resource".to_owned()
        } else {
            found.join(", ")
        };
        Err(Error::input(format!(
            "check {area} needs a {} resource, but the input holds {what}",
            wanted.join(" or ")
        ))
        .with_hint(format!(
            "save it with '{}', or run 'amldoctor check all' on what you have",
            subjects[0].example_command()
        )))
    }
}

/// Reads `paths` (`-` for standard input, or for `text` when it is given) as `mode` says.
pub(crate) fn gather(
    paths: &[String],
    text: Option<&std::sync::Arc<[u8]>>,
    mode: ReadMode,
) -> Evidence {
    let mut inputs = source::inputs::collect(paths, text);
    let mut evidence = Evidence {
        scan: mode == ReadMode::Logs,
        ..Evidence::default()
    };
    if mode == ReadMode::Resources {
        // The scanner notes unreadable logs itself; resources are read here only.
        for u in inputs.unreadable.iter().filter(|u| u.explicit) {
            evidence.errors.push(Error::input(format!(
                "cannot read {}: {}",
                u.path, u.reason
            )));
            evidence
                .notes
                .push(NotAnalysed::error(&u.path, u.reason.clone()));
        }
    }
    evidence.resources = read_resources(&mut inputs, mode);
    evidence.inputs = inputs;
    evidence
}

/// Resources read from the JSON among a command's inputs.
#[derive(Debug, Default)]
pub(crate) struct ResourceInputs {
    pub(crate) resources: Vec<crate::evidence::resource::Resource>,
    pub(crate) reports: Vec<ResourceReport>,
    pub(crate) not_analysed: Vec<NotAnalysed>,
    /// Inputs that cannot be used (malformed JSON given to `check`): one sentence each.
    pub(crate) errors: Vec<Error>,
    /// Things the user should know that do not stop the run.
    pub(crate) warnings: Vec<String>,
    /// DNS answers saved in a bundle, to be judged again.
    pub(crate) dns: Vec<crate::evidence::dns::DnsObservation>,
}

/// The largest document `diagnose` reads whole to see whether it is a resource; larger
/// inputs are logs to it. `check`, told the inputs are resources, goes up to
/// [`source::json::MAX_JSON_BYTES`].
const DETECT_JSON_BYTES: usize = 16 * 1024 * 1024;

/// What the bundles among the inputs could not collect, as inputs not analysed (a
/// check that could not run says so).
pub(crate) fn bundle_gaps(inputs: &InputSet) -> Vec<NotAnalysed> {
    let mut out = Vec::new();
    for (dir, m) in &inputs.bundles {
        for f in &m.failed {
            let path = f.path.as_ref().map_or_else(
                || dir.display().to_string(),
                |p| dir.join(p).display().to_string(),
            );
            let reason = match &f.skipped_check {
                Some(check) if f.partial => {
                    format!("check {check} ran without {}: {}", f.what, f.reason)
                }
                Some(check) => format!(
                    "check {check} skipped: {} could not be read: {}",
                    f.what, f.reason
                ),
                None => format!("not collected from Azure: {}", f.reason),
            };
            out.push(NotAnalysed::new(&path, reason));
        }
    }
    out
}

/// Takes the JSON resource documents out of `inputs`. Every other input stays for the
/// log scanner in [`ReadMode::Logs`]; in [`ReadMode::Resources`] it is not analysed,
/// and input that is not valid JSON is an error naming the file, line and column.
pub(crate) fn read_resources(inputs: &mut InputSet, mode: ReadMode) -> ResourceInputs {
    let only_json = mode == ReadMode::Resources;
    let mut out = ResourceInputs::default();
    let mut keep = Vec::new();
    let limit = if only_json {
        source::json::MAX_JSON_BYTES
    } else {
        DETECT_JSON_BYTES
    };
    for origin in std::mem::take(&mut inputs.documents) {
        let read = source::json::read_json(&origin, limit);
        let named = inputs.explicit.contains(&origin);
        if read_one(&origin, read, only_json, named, &mut out) {
            keep.push(origin);
        }
    }
    inputs.explicit.retain(|o| keep.contains(o));
    inputs.documents = keep;
    out
}

/// Files what reading one input gave; returns whether it stays for the log scanner.
fn read_one(
    origin: &crate::evidence::Origin,
    read: std::io::Result<source::json::JsonRead>,
    only_json: bool,
    named: bool,
    out: &mut ResourceInputs,
) -> bool {
    use crate::evidence::json_lines::JsonText;
    use crate::evidence::resource::{JsonDocument, classify};
    use source::json::JsonRead;

    let path = origin.display_name();
    let mut fail = |e: Error, reason: String| {
        out.errors.push(e);
        out.not_analysed.push(NotAnalysed::error(&path, reason));
    };
    match read {
        // The scanner reports unreadable files with the other log inputs.
        Err(_) if !only_json => return true,
        Err(e) => {
            let reason = crate::error::io_reason(&e);
            fail(
                Error::input(format!("cannot read {path}: {reason}")),
                reason,
            );
        }
        Ok(JsonRead::Json { value, bytes }) => match classify(&path, value, JsonText::new(bytes)) {
            JsonDocument::Resources(list) => {
                out.reports.extend(list.iter().map(ResourceReport::of));
                out.resources.extend(list);
            }
            JsonDocument::Dns(observations) => out.dns.extend(observations),
            JsonDocument::BadDns(why) => fail(Error::input(format!("{path}: {why}")), why),
            JsonDocument::ErrorBody | JsonDocument::Unknown(_) if !only_json => return true,
            JsonDocument::ErrorBody => out.not_analysed.push(NotAnalysed::new(
                &path,
                "an error response, not a resource; run 'amldoctor diagnose' on it",
            )),
            JsonDocument::Unknown(why) => out.not_analysed.push(NotAnalysed::new(&path, why)),
        },
        Ok(JsonRead::Malformed {
            line,
            column,
            message,
        }) => {
            let at = format!("{path}:{line}:{column}: not valid JSON: {message}");
            if !only_json {
                let named_json = matches!(origin, crate::evidence::Origin::File(p)
                    if p.extension().is_some_and(|e| e.eq_ignore_ascii_case("json")));
                if named_json {
                    out.warnings.push(format!("{at}; it was read as text"));
                }
                return true;
            }
            let hint = "save the document again with the az command's -o json";
            fail(
                Error::input(at).with_hint(hint),
                format!("not valid JSON ({line}:{column}): {message}"),
            );
        }
        Ok(JsonRead::TooLarge) if only_json => {
            let mib = source::json::MAX_JSON_BYTES / (1024 * 1024);
            let reason = format!("larger than {mib} MiB; resource documents are read whole");
            fail(Error::input(format!("{path}: {reason}")), reason);
        }
        Ok(JsonRead::Empty) if only_json && named => {
            let reason = "it is empty; expected the JSON an az command prints (its -o json)";
            fail(Error::input(format!("{path}: {reason}")), reason.to_owned());
        }
        Ok(JsonRead::Empty) if only_json => out
            .not_analysed
            .push(NotAnalysed::new(&path, "it is empty: nothing to analyse")),
        // Named on the command line as JSON, it must be one JSON document; a file
        // found in a folder (a README, a log) is only passed over.
        Ok(_) if only_json && named => {
            let reason = "not one JSON document (text, or several documents one after another): save each az output to its own file";
            fail(Error::input(format!("{path}: {reason}")), reason.to_owned());
        }
        Ok(_) if only_json => out.not_analysed.push(NotAnalysed::new(
            &path,
            "not JSON: expected the JSON an az command prints",
        )),
        Ok(_) => return true,
    }
    false
}
