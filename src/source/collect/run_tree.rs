//! A ParallelRunStep run's log tree, from Azure into a bundle: the pipeline run named by
//! the user is resolved to its ParallelRunStep step (through nested pipeline components
//! and reused steps), the files of its log folders are listed and downloaded in parallel, files already complete are skipped (so
//! an interrupted download resumes), and a path that would land outside the folder is
//! refused.

use std::io::IsTerminal;

use serde_json::Value;

use crate::error::{Error, Result};
use crate::source::azure::run_history::{Artifact, DataPlane};
use crate::source::azure::{Azure, Download};
use crate::source::bundle::{BundleWriter, Slot};

use super::{Place, sentence};

/// The folders of a run that hold its logs.
///
/// A v1 step writes `logs/` (the ParallelRunStep tree) and `azureml-logs/`; a v2 job,
/// parallel jobs included, also writes `user_logs/` (its processes' stdout and stderr)
/// and `system_logs/` (the runtime's own), the folders the AzureML runtime itself lists
/// as its log directories. azure-ai-ml 1.35 streams from the same places
/// (`JobLogPattern` in `constants/_job/job.py`: `azureml-logs/NN_*.txt`,
/// `logs/azureml/executionlogs.txt` for pipelines, `user_logs/std_log*.txt`), and a v2
/// parallel job keeps the ParallelRunStep tree (`logs/job_progress_overview…`,
/// `logs/user/`, `logs/sys/`) under `logs/`.
const PREFIXES: [&str; 4] = ["logs/", "azureml-logs/", "user_logs/", "system_logs/"];

/// How a download went, for the closing line.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Tally {
    pub listed: u64,
    pub downloaded: u64,
    pub bytes: u64,
    pub already_complete: u64,
    /// Files storage refused at first (an expired SAS), fetched again with fresh URLs.
    pub relisted: u64,
    pub failed: u64,
}

/// Fetches the run's log tree into `bundle`; returns the step run's id and the tally.
pub(crate) fn fetch_tree(
    azure: &mut Azure,
    place: &Place,
    workspace: &Value,
    run_id: &str,
    jobs: usize,
    bundle: &mut BundleWriter,
) -> Result<(String, Tally)> {
    let dp = azure.data_plane(workspace, &place.workspace_path)?;
    let run = azure.run(&dp, run_id)?;
    let (step, mut files) = resolve_step(azure, &dp, run)?;
    let step_id = step["runId"].as_str().unwrap_or(run_id).to_owned();
    let container = container_of(&step, &step_id);
    if files.is_none() {
        files = Some(azure.artifacts(&dp, &container, PREFIXES[0])?);
    }
    let mut artifacts = files.unwrap_or_default();
    for prefix in &PREFIXES[1..] {
        artifacts.extend(azure.artifacts(&dp, &container, prefix)?);
    }
    // Only what was asked for, once: a listed path outside the two folders could
    // overwrite the bundle's own files.
    let mut seen = std::collections::HashSet::new();
    artifacts
        .retain(|a| PREFIXES.iter().any(|p| a.path.starts_with(p)) && seen.insert(a.path.clone()));
    if artifacts.is_empty() {
        return Err(Error::access(format!(
            "run '{step_id}' has no files under logs/, azureml-logs/, user_logs/ or system_logs/ yet"
        ))
        .with_hint(
            "a run that has not started writes no logs; check its status with 'az ml job show'",
        ));
    }
    bundle.write_json("run.json", &format!("run {step_id}"), &step)?;
    // A finished run's files no longer change, so those already saved are kept; a
    // running one's grow, so all are fetched again.
    let finished = step["status"].as_str().is_some_and(|s| {
        ["completed", "failed", "canceled", "cancelled"].contains(&s.to_ascii_lowercase().as_str())
    });
    // The listing's SAS URLs are short-lived: a download refused with 403 after a long
    // wait is tried once more with the URLs of a fresh listing.
    let mut relist = |azure: &mut Azure| -> Result<Vec<Artifact>> {
        let mut fresh = Vec::new();
        for prefix in PREFIXES {
            fresh.extend(azure.artifacts(&dp, &container, prefix)?);
        }
        Ok(fresh)
    };
    let tally = download(azure, bundle, &artifacts, jobs, finished, &mut relist);
    Ok((step_id, tally))
}

fn is_pipeline(run: &Value) -> bool {
    run["runType"]
        .as_str()
        .is_some_and(|t| t.to_ascii_lowercase().contains("pipelinerun"))
}

/// How deep nested pipeline components are followed, and how many steps are looked at
/// in all: a pipeline of pipelines is walked, a runaway one is not.
const MAX_DEPTH: usize = 4;
const MAX_STEPS: usize = 500;

/// The run whose logs to read: the run itself, unless it is a pipeline run, whose
/// ParallelRunStep step (a step whose `logs/` holds a ParallelRunStep tree, in the
/// pipeline or in a pipeline component nested in it) it stands for. Returns that run
/// and, when already listed, its `logs/` files.
fn resolve_step(
    azure: &mut Azure,
    dp: &DataPlane,
    run: Value,
) -> Result<(Value, Option<Vec<Artifact>>)> {
    let run_id = run["runId"].as_str().unwrap_or_default().to_owned();
    if !is_pipeline(&run) {
        return Ok((run, None));
    }
    let found = prs_steps(azure, dp, &run_id)?;
    pick_step(&run_id, found)
}

/// The ParallelRunStep steps under pipeline `run_id`, breadth first. A step the service
/// reused from an earlier run (`azureml.isreused`) holds no logs of its own: the run it
/// reused (`azureml.reusedrunid`) does, as azure-ai-ml follows it.
fn prs_steps(
    azure: &mut Azure,
    dp: &DataPlane,
    run_id: &str,
) -> Result<Vec<(Value, Vec<Artifact>)>> {
    let mut found = Vec::new();
    let mut queue = std::collections::VecDeque::from([(run_id.to_owned(), 0usize)]);
    let mut looked = 0usize;
    while let Some((parent, depth)) = queue.pop_front() {
        for mut child in azure.children(dp, &parent)? {
            looked += 1;
            if looked > MAX_STEPS {
                return Ok(found);
            }
            if let Some(reused) = reused_run(&child)
                && let Ok(original) = azure.run(dp, &reused)
            {
                child = original;
            }
            let child_id = child["runId"].as_str().unwrap_or_default().to_owned();
            if is_pipeline(&child) {
                if depth + 1 < MAX_DEPTH {
                    queue.push_back((child_id, depth + 1));
                }
                continue;
            }
            // A step that has not started has no files (its container may not exist yet).
            let Ok(files) = azure.artifacts(dp, &container_of(&child, &child_id), PREFIXES[0])
            else {
                continue;
            };
            let prs = files.iter().any(|a| {
                a.path
                    .strip_prefix("logs/")
                    .is_some_and(crate::prs::tree::is_marker)
            });
            if prs {
                found.push((child, files));
            }
        }
    }
    Ok(found)
}

/// The run a reused step stands for: `properties["azureml.reusedrunid"]` when
/// `properties["azureml.isreused"]` is `true`.
fn reused_run(run: &Value) -> Option<String> {
    let props = &run["properties"];
    props["azureml.isreused"]
        .as_str()
        .filter(|v| v.eq_ignore_ascii_case("true"))?;
    props["azureml.reusedrunid"]
        .as_str()
        .filter(|v| !v.is_empty())
        .map(str::to_owned)
}

/// The one step found, or an error that lists what was (or says nothing was).
fn pick_step(
    run_id: &str,
    mut found: Vec<(Value, Vec<Artifact>)>,
) -> Result<(Value, Option<Vec<Artifact>>)> {
    match found.len() {
        1 => {
            let (child, files) = found.remove(0);
            Ok((child, Some(files)))
        }
        0 => Err(Error::input(format!(
            "pipeline run '{run_id}' has no ParallelRunStep step with logs yet"
        ))
        .with_hint("pass the step run's id with --run, as the studio's step page shows it")),
        _ => {
            let names: Vec<String> = found
                .iter()
                .map(|(c, _)| {
                    format!(
                        "{} ({})",
                        c["runId"].as_str().unwrap_or("?"),
                        c["displayName"]
                            .as_str()
                            .or(c["name"].as_str())
                            .unwrap_or("unnamed")
                    )
                })
                .collect();
            Err(Error::input(format!(
                "pipeline run '{run_id}' has {} ParallelRunStep steps: {}; pass one with --run",
                names.len(),
                names.join(", ")
            )))
        }
    }
}

/// The artifact container of a run: its `dataContainerId`, else `dcid.{runId}`.
fn container_of(run: &Value, run_id: &str) -> String {
    run["dataContainerId"]
        .as_str()
        .filter(|c| !c.is_empty())
        .map_or_else(|| format!("dcid.{run_id}"), str::to_owned)
}

/// Downloads what is not yet complete (with `resume`; else everything), with a
/// progress bar on a terminal's stderr. Files storage refused (403: their SAS expired
/// while the others downloaded) are fetched once more with the URLs `relist` gives.
fn download(
    azure: &mut Azure,
    bundle: &mut BundleWriter,
    artifacts: &[Artifact],
    jobs: usize,
    resume: bool,
    relist: &mut dyn FnMut(&mut Azure) -> Result<Vec<Artifact>>,
) -> Tally {
    let mut tally = Tally {
        listed: artifacts.len() as u64,
        ..Tally::default()
    };
    let mut queue = Vec::new();
    for a in artifacts {
        match bundle.slot(&a.path, resume) {
            Ok(Slot::Complete(bytes)) => {
                tally.already_complete += 1;
                bundle.collected(&a.path, "run log file (already complete)", bytes);
            }
            Ok(Slot::Fetch(dest)) => queue.push((
                a.path.clone(),
                Download {
                    url: a.content_uri.clone(),
                    dest,
                },
            )),
            Err(why) => {
                tally.failed += 1;
                bundle.failed(&format!("run file {}", a.path), &why, None);
            }
        }
    }
    let refused = fetch(azure, bundle, &queue, jobs, &mut tally, true);
    if refused.is_empty() {
        return tally;
    }
    let retry = match relist(azure) {
        Ok(fresh) => fresh_urls(&refused, &fresh),
        Err(e) => {
            let why = format!(
                "storage refused it and listing again failed: {}",
                sentence(&e)
            );
            for (path, _) in &refused {
                tally.failed += 1;
                bundle.failed(&format!("run file {path}"), &why, Some(path));
            }
            return tally;
        }
    };
    tally.relisted = retry.len() as u64;
    fetch(azure, bundle, &retry, jobs, &mut tally, false);
    tally
}

/// The refused files with the URLs of the fresh listing (a file no longer listed keeps
/// its old one, and fails as before).
fn fresh_urls(refused: &[(String, Download)], fresh: &[Artifact]) -> Vec<(String, Download)> {
    let by_path: std::collections::HashMap<&str, &str> = fresh
        .iter()
        .map(|a| (a.path.as_str(), a.content_uri.as_str()))
        .collect();
    refused
        .iter()
        .map(|(path, d)| {
            let url = by_path
                .get(path.as_str())
                .map_or(d.url.clone(), |u| (*u).to_owned());
            (
                path.clone(),
                Download {
                    url,
                    dest: d.dest.clone(),
                },
            )
        })
        .collect()
}

/// Downloads `queue`, counting into `tally`; with `hold_refused`, a 403 is not yet a
/// failure but returned, to try again.
fn fetch(
    azure: &mut Azure,
    bundle: &mut BundleWriter,
    queue: &[(String, Download)],
    jobs: usize,
    tally: &mut Tally,
    hold_refused: bool,
) -> Vec<(String, Download)> {
    let files: Vec<Download> = queue.iter().map(|(_, d)| d.clone()).collect();
    let mut refused = Vec::new();
    let bar = progress_bar(files.len() as u64);
    azure.download_all(&files, jobs, &mut |i, result| {
        let path = &queue[i].0;
        match result {
            Ok(bytes) => {
                tally.downloaded += 1;
                tally.bytes += bytes;
                bundle.collected(path, "run log file", bytes);
            }
            Err(e) if hold_refused && e.service.as_ref().is_some_and(|s| s.status == 403) => {
                refused.push(queue[i].clone());
            }
            Err(e) => {
                tally.failed += 1;
                bundle.failed(&format!("run file {path}"), &sentence(&e), Some(path));
            }
        }
        bar.set_message(format!("{} MiB", tally.bytes / (1 << 20)));
        bar.inc(1);
    });
    bar.finish_and_clear();
    refused
}

/// Files done of all, with the bytes so far; drawn only when stderr is a terminal.
fn progress_bar(files: u64) -> indicatif::ProgressBar {
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(files);
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{bar:30} {pos}/{len} log files to download, {msg} ({elapsed})",
    ) {
        bar.set_style(style);
    }
    bar
}

/// What the saved files of a run are, for the closing line: `collected` (every file
/// the bundle holds) split into the log files fetched now, those already complete from
/// an earlier try, and the run's own records; the counts add up to `collected`.
pub(crate) fn summary(tally: &Tally, collected: u64) -> String {
    let records = collected.saturating_sub(tally.downloaded + tally.already_complete);
    let mut parts = vec![format!(
        "{} of the run's {} downloaded now, {} bytes",
        tally.downloaded,
        crate::report::plural(tally.listed, "log file", "log files"),
        tally.bytes
    )];
    if tally.already_complete > 0 {
        parts.push(format!("{} already complete", tally.already_complete));
    }
    if records > 0 {
        parts.push(format!(
            "{} of the run's details",
            crate::report::plural(records, "record", "records")
        ));
    }
    if tally.relisted > 0 {
        parts.push(format!(
            "{} tried again with fresh links after storage refused the first ones",
            tally.relisted
        ));
    }
    if tally.failed > 0 {
        parts.push(format!("{} could not be saved", tally.failed));
    }
    parts.join("; ")
}
