//! `amldoctor logs -e EP [-n DEP]`: an online deployment's container logs, read from
//! Azure with the getLogs action, printed as `az ml online-deployment get-logs` prints
//! them.

use std::io::Write;

use serde_json::{Value, json};

use crate::cli::{ContainerArg, LogsArgs};
use crate::context::Context;
use crate::error::{Error, Result};
use crate::exit_code::ExitCode;
use crate::source::azure::Azure;

use super::support::{connect_azure, workspace_path};

/// The ARM api-version for online endpoints and deployments (stable).
pub const API_VERSION: &str = "2024-10-01";

pub fn run(
    ctx: &Context,
    args: &LogsArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitCode> {
    crate::report::require_plain(ctx.output.value, "logs")?;
    if args.follow && args.container == ContainerArg::All {
        return Err(Error::input(
            "--follow reads one container: pass --container inference-server or storage-initializer",
        ));
    }
    let workspace_path = workspace_path(ctx, "logs")?;
    let mut azure = connect_azure(ctx)?;
    let endpoint_path = format!("{workspace_path}/onlineEndpoints/{}", args.endpoint);
    let result = print_logs(&mut azure, &endpoint_path, args, out);
    if ctx.debug {
        for line in azure.take_traces() {
            let _ = writeln!(err, "debug: {line}");
        }
    }
    match result {
        Err(e) if e.kind == crate::error::ErrorKind::ClosedOutput => Ok(ExitCode::Clean),
        other => other.map(|()| ExitCode::Clean),
    }
}

/// Reads and prints the logs; with `--follow`, reads again every interval and prints
/// only the lines that are new.
fn print_logs(
    azure: &mut Azure,
    endpoint_path: &str,
    args: &LogsArgs,
    out: &mut dyn Write,
) -> Result<()> {
    let deployment = match &args.deployment {
        Some(d) => d.clone(),
        None => only_deployment(azure, endpoint_path, &args.endpoint)?,
    };
    let containers: &[(&str, &str)] = match args.container {
        ContainerArg::InferenceServer => &[("inference-server", "InferenceServer")],
        ContainerArg::StorageInitializer => &[("storage-initializer", "StorageInitializer")],
        ContainerArg::All => &[
            ("storage-initializer", "StorageInitializer"),
            ("inference-server", "InferenceServer"),
        ],
    };
    let path = format!("{endpoint_path}/deployments/{deployment}/getLogs");
    let read = |azure: &mut Azure, (name, rest): (&str, &str)| {
        let body = json!({"containerType": rest, "tail": args.lines});
        let what = format!(
            "reading the {name} log of deployment '{deployment}' of endpoint '{}'",
            args.endpoint
        );
        azure
            .arm_post(&path, API_VERSION, &body, &what)
            .map(|answer| content(&answer))
    };
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
    // Until interrupted (Ctrl-C ends the process) or the reader goes away.
    loop {
        out.flush().map_err(Error::write)?;
        std::thread::sleep(std::time::Duration::from_secs(args.interval));
        let now = read(azure, containers[0])?;
        for line in new_lines(&last, &now) {
            writeln!(out, "{line}").map_err(Error::write)?;
        }
        last = now;
    }
}

/// The lines of `now` after what `before` already showed. Both are tails of the same
/// log, so `before`'s end reappears in `now`: everything after the longest such overlap
/// is new. With no overlap (the log was rotated or grew past the tail), all of `now`.
pub fn new_lines<'a>(before: &str, now: &'a str) -> Vec<&'a str> {
    let old: Vec<&str> = before.lines().collect();
    let new: Vec<&str> = now.lines().collect();
    let Some(last) = old.last() else {
        return new;
    };
    // Candidate ends of the overlap: where `now` repeats `before`'s last line, latest
    // first, confirmed by the lines before it.
    for end in (0..new.len()).rev().filter(|i| new[*i] == *last) {
        let k = (end + 1).min(old.len());
        if new[end + 1 - k..=end] == old[old.len() - k..] {
            return new[end + 1..].to_vec();
        }
    }
    new
}

/// The log text of a getLogs answer: `content`, with the literal `\n` sequences some
/// service versions send turned into line breaks, as az does.
fn content(answer: &Value) -> String {
    let text = answer["content"].as_str().unwrap_or_default();
    crate::redact::redact(&text.replace("\\n", "\n"))
        .trim_end_matches('\n')
        .to_owned()
}

/// The endpoint's deployment when it has exactly one; otherwise an error listing them.
fn only_deployment(azure: &mut Azure, endpoint_path: &str, endpoint: &str) -> Result<String> {
    let what = format!("listing the deployments of endpoint '{endpoint}'");
    let list = azure.arm_list(&format!("{endpoint_path}/deployments"), API_VERSION, &what)?;
    let names: Vec<String> = list
        .iter()
        .filter_map(|d| d["name"].as_str().map(str::to_owned))
        .collect();
    match names.as_slice() {
        [one] => Ok(one.clone()),
        [] => Err(Error::input(format!(
            "endpoint '{endpoint}' has no deployment"
        ))),
        many => Err(Error::input(format!(
            "endpoint '{endpoint}' has {} deployments ({}); say which with -n",
            many.len(),
            many.join(", ")
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::new_lines;

    #[test]
    fn only_lines_after_the_overlap_are_new() {
        assert_eq!(new_lines("a\nb\nc", "b\nc\nd\ne"), ["d", "e"]);
        assert_eq!(new_lines("a\nb\nc", "a\nb\nc"), Vec::<&str>::new());
        // A repeated line is matched with what came before it.
        assert_eq!(
            new_lines("x\nok\ny\nok", "y\nok\nz\nok\nw"),
            ["z", "ok", "w"]
        );
        assert_eq!(new_lines("", "a\nb"), ["a", "b"]);
        // No overlap: the log rotated; all of it is new.
        assert_eq!(new_lines("a\nb", "c\nd"), ["c", "d"]);
    }
}
