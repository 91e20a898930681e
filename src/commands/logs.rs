//! `amldoctor logs -e EP [-n DEP]`: an online deployment's container logs, read from
//! Azure with the getLogs action, printed as `az ml online-deployment get-logs` prints
//! them; with `--out DIR` saved as a bundle; with `--run RUN_ID --out DIR`, a
//! ParallelRunStep run's log tree downloaded into one.

use std::io::Write;
use std::path::Path;

use crate::cli::{ContainerArg, LogsArgs};
use crate::context::Context;
use crate::error::{Error, Result};
use crate::exit_code::ExitCode;
use crate::source::azure::Azure;
use crate::source::bundle::Manifest;

use super::azure::{connect_azure, debug_traces};
use crate::source::collect::{self, Place};

pub(crate) fn run(
    ctx: &Context,
    args: &LogsArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitCode> {
    crate::report::require_plain(ctx.output.value, "logs")?;
    if args.follow && ctx.output.value != crate::report::OutputFormat::Table {
        return Err(Error::input(format!(
            "--follow prints the lines as they come; -o {} applies without --follow",
            ctx.output.value
        )));
    }
    if args.follow && args.container == ContainerArg::All {
        return Err(Error::input(
            "--follow reads one container: pass --container inference-server or storage-initializer",
        ));
    }
    let place = super::azure::place(ctx, "logs")?;
    let mut azure = connect_azure(ctx)?;
    let result = match (&args.run, &args.out, &args.endpoint) {
        (Some(run), Some(dir), _) => save_run(&mut azure, &place, run, args, dir, err),
        (None, Some(dir), Some(endpoint)) => {
            save_deployment(&mut azure, &place, endpoint, args, dir, err)
        }
        (None, None, Some(endpoint)) => {
            print_logs(ctx, &mut azure, &place, endpoint, args, out, err).map(|()| ExitCode::Clean)
        }
        _ => Err(Error::input(
            "logs needs -e ENDPOINT, or --run RUN_ID with --out DIR",
        )),
    };
    debug_traces(ctx, &mut azure, err);
    match result {
        Err(e) if e.kind == crate::error::ErrorKind::ClosedOutput => Ok(ExitCode::Clean),
        other => other,
    }
}

/// `logs -e EP [-n DEP] --out DIR`: both containers' logs and the resources, saved.
fn save_deployment(
    azure: &mut Azure,
    place: &Place,
    endpoint: &str,
    args: &LogsArgs,
    dir: &Path,
    err: &mut dyn Write,
) -> Result<ExitCode> {
    let manifest = collect::deployment_bundle(
        azure,
        place,
        endpoint,
        args.deployment.as_deref(),
        args.lines,
        dir,
    )?;
    Ok(close(&manifest, dir, None, err))
}

/// `logs --run RUN_ID --out DIR`.
fn save_run(
    azure: &mut Azure,
    place: &Place,
    run: &str,
    args: &LogsArgs,
    dir: &Path,
    err: &mut dyn Write,
) -> Result<ExitCode> {
    let jobs = usize::try_from(args.jobs).unwrap_or(usize::MAX);
    let (manifest, tally) = collect::run_bundle(azure, place, run, jobs, dir)?;
    note_resolved(&manifest, err);
    let what = collect::run_tree::summary(&tally, manifest.collected.len() as u64);
    Ok(close(&manifest, dir, Some(&what), err))
}

/// Says when a pipeline run was resolved to its ParallelRunStep step.
pub(crate) fn note_resolved(manifest: &Manifest, err: &mut dyn Write) {
    if let (Some(asked), Some(step)) = (&manifest.source.requested_run, &manifest.source.run) {
        super::support::note(
            err,
            &format!("pipeline run '{asked}' resolved to its ParallelRunStep step run '{step}'"),
        );
    }
}

/// Says what could not be collected: exit 3 when anything failed (the bundle keeps
/// what was read).
fn close(manifest: &Manifest, root: &Path, what: Option<&str>, err: &mut dyn Write) -> ExitCode {
    // A few lines a person can read; the manifest lists every one.
    const SHOWN: usize = 10;
    for f in manifest.failed.iter().take(SHOWN) {
        super::support::warning(err, &format!("not collected: {}: {}", f.what, f.reason));
    }
    if manifest.failed.len() > SHOWN {
        super::support::warning(
            err,
            &format!(
                "… and {} more not collected (each is listed in the manifest)",
                manifest.failed.len() - SHOWN
            ),
        );
    }
    let _ = writeln!(
        err,
        "saved {}{} into {} (see {}); analyse them with: amldoctor diagnose {}",
        crate::report::plural(manifest.collected.len() as u64, "file", "files"),
        what.map(|w| format!(" ({w})")).unwrap_or_default(),
        root.display(),
        root.join(crate::source::bundle::MANIFEST).display(),
        crate::rules::template::shell_word(&root.display().to_string())
    );
    if manifest.failed.is_empty() {
        ExitCode::Clean
    } else {
        ExitCode::Access
    }
}

/// `logs -o json|yaml`: each container's lines, as `az ml online-deployment get-logs`
/// returns them.
#[derive(serde::Serialize)]
struct DeploymentLogs<'a> {
    endpoint: &'a str,
    deployment: &'a str,
    containers: Vec<ContainerLog<'a>>,
}

#[derive(serde::Serialize)]
struct ContainerLog<'a> {
    container: &'a str,
    lines: Vec<String>,
}

/// Reads and prints the logs; with `--follow`, reads again every interval and prints
/// only the lines that are new.
fn print_logs(
    ctx: &Context,
    azure: &mut Azure,
    place: &Place,
    endpoint: &str,
    args: &LogsArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<()> {
    let endpoint_path = place.endpoint_path(endpoint);
    let deployment = match &args.deployment {
        Some(d) => d.clone(),
        None => collect::only_deployment(azure, &endpoint_path, endpoint)?,
    };
    let containers = containers_of(args.container);
    let path = format!("{endpoint_path}/deployments/{deployment}");
    let named = args.deployment.is_some();
    let read_tail = |azure: &mut Azure, (name, rest): (&str, &str), tail: u64| {
        let what = format!("{name} log of deployment '{deployment}' of endpoint '{endpoint}'");
        collect::container_log(azure, &path, rest, tail, &what).map_err(|e| {
            // A deployment the user named that is not there: say which ones are.
            if named {
                collect::no_such_deployment(azure, &endpoint_path, endpoint, e)
            } else {
                e
            }
        })
    };
    let read = |azure: &mut Azure, c: (&str, &str)| read_tail(azure, c, args.lines);
    if ctx.output.value != crate::report::OutputFormat::Table {
        let body = DeploymentLogs {
            endpoint,
            deployment: &deployment,
            containers: read_all(azure, containers, &mut |a, c| read(a, c))?,
        };
        return crate::report::emit(ctx.output.value, "logs", &body, out).map_err(Error::write);
    }
    let many = containers.len() > 1;
    let mut last = String::new();
    for (name, rest) in containers {
        last = read(azure, (name, rest))?;
        if many {
            writeln!(out, "===== {name} =====").map_err(Error::write)?;
        }
        writeln!(out, "{last}").map_err(Error::write)?;
    }
    if !args.follow {
        return Ok(());
    }
    follow(
        ctx,
        azure,
        last,
        &mut |azure, tail| read_tail(azure, containers[0], tail.min(args.lines)),
        args.interval,
        out,
        err,
    )
}

/// How many lines each read of `--follow` asks for after the first: getLogs is a
/// Resource Manager POST, counted against the subscription's write quota, so a short
/// tail and a slower pace when nothing comes keep a long follow within it.
const FOLLOW_TAIL: u64 = 200;
/// The longest `--follow` waits between reads while nothing new comes.
const FOLLOW_MAX_WAIT: u64 = 60;

/// The next wait of `--follow`: back to `interval` after new lines, else twice the
/// last, up to [`FOLLOW_MAX_WAIT`] (never below `interval`).
fn next_wait(last: u64, interval: u64, had_new: bool) -> u64 {
    if had_new {
        interval
    } else {
        last.saturating_mul(2).min(FOLLOW_MAX_WAIT.max(interval))
    }
}

/// The containers `--container` names, with the path of their logs.
fn containers_of(arg: ContainerArg) -> &'static [(&'static str, &'static str)] {
    match arg {
        ContainerArg::InferenceServer => &collect::CONTAINERS[1..],
        ContainerArg::StorageInitializer => &collect::CONTAINERS[..1],
        ContainerArg::All => &collect::CONTAINERS,
    }
}

/// Reads one container's log: its name and the path of its logs.
type ReadLog<'r> = dyn FnMut(&mut Azure, (&str, &str)) -> Result<String> + 'r;

/// Each container's lines, for `-o json|yaml`.
fn read_all<'c>(
    azure: &mut Azure,
    containers: &[(&'c str, &'c str)],
    read: &mut ReadLog<'_>,
) -> Result<Vec<ContainerLog<'c>>> {
    containers
        .iter()
        .map(|(name, rest)| {
            Ok(ContainerLog {
                container: name,
                lines: read(azure, (name, rest))?
                    .lines()
                    .map(str::to_owned)
                    .collect(),
            })
        })
        .collect()
}

/// `--follow`: reads again every `interval` seconds and prints only the new lines,
/// until interrupted (Ctrl-C ends the process) or the reader goes away. Traces are
/// printed as they come, since the loop never returns.
fn follow(
    ctx: &Context,
    azure: &mut Azure,
    mut last: String,
    read: &mut dyn FnMut(&mut Azure, u64) -> Result<String>,
    interval: u64,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<()> {
    let mut wait = interval;
    loop {
        debug_traces(ctx, azure, err);
        out.flush().map_err(Error::write)?;
        std::thread::sleep(std::time::Duration::from_secs(wait));
        let mut now = read(azure, FOLLOW_TAIL)?;
        // A whole short tail of new lines may be the end of a longer burst: read the
        // full tail once to catch up.
        if now.lines().count() as u64 >= FOLLOW_TAIL
            && collect::new_lines(&last, &now).len() as u64 >= FOLLOW_TAIL
        {
            now = read(azure, u64::MAX)?;
        }
        let new = collect::new_lines(&last, &now);
        for line in &new {
            writeln!(out, "{line}").map_err(Error::write)?;
        }
        wait = next_wait(wait, interval, !new.is_empty());
        // What to compare the next read with: the newest lines are enough.
        last = now;
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn follow_backs_off_while_nothing_comes_and_returns_after_new_lines() {
        let mut wait = 5;
        let mut waits = Vec::new();
        for _ in 0..6 {
            wait = super::next_wait(wait, 5, false);
            waits.push(wait);
        }
        assert_eq!(waits, [10, 20, 40, 60, 60, 60]);
        assert_eq!(super::next_wait(60, 5, true), 5);
        // An interval above the ceiling is kept.
        assert_eq!(super::next_wait(90, 90, false), 90);
    }
}
