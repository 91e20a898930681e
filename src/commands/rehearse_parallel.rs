//! `amldoctor rehearse parallel`: the entry script, its inputs and the job's settings
//! (flags first, then the v2 job YAML, then the platform's defaults, each noted where
//! it came from), run under the ParallelRunStep harness; the log tree it writes is read
//! by the same analysis as a downloaded job's.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::analyse::{ReadMode, gather, placeholders};
use crate::cli::{InputType, OutputAction, RehearseParallelArgs};
use crate::context::Context;
use crate::error::{Error, Result};
use crate::exit_code::ExitCode;
use crate::rehearsal::computed::{RehearsalRun, script_lines};
use crate::rehearsal::harness_report;
use crate::rehearsal::job_settings::{self, JobSettings, MiniBatchSize};
use crate::rehearsal::summary::{RehearsalMode, RehearsalSummary};
use crate::source::rehearsal::{self as run, parallel};

use super::support::load_rules;

/// The job file's parallel job, with the folder its paths are relative to.
fn job_file(path: Option<&Path>) -> Result<(Option<String>, JobSettings, PathBuf)> {
    let Some(path) = path else {
        return Ok((None, JobSettings::default(), PathBuf::from(".")));
    };
    let doc = run::read_yaml(path, "--job-file")?;
    let shown = path.display().to_string();
    let jobs = crate::lint::parallel_jobs(&shown, &doc);
    let job = jobs.first().ok_or_else(|| {
        Error::input(format!(
            "--job-file {shown}: no parallel job in it; expected a v2 job YAML with type: parallel, or a pipeline with a parallel step"
        ))
    })?;
    let dir = path.parent().unwrap_or(Path::new(".")).to_path_buf();
    Ok((Some(shown), job_settings::read(&job.json), dir))
}

/// A value from the flag, else the job file, else the default, and where it came from.
fn pick<T: Copy>(flag: Option<T>, job: Option<T>, default: T) -> (T, &'static str) {
    match (flag, job) {
        (Some(v), _) => (v, "flag"),
        (None, Some(v)) => (v, "job file"),
        (None, None) => (default, "default"),
    }
}

pub(crate) fn run(
    ctx: &Context,
    args: &RehearseParallelArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitCode> {
    let set = load_rules(ctx, &args.rule_dirs)?;
    let total = super::rehearse::limit(args.timeout, "--timeout")?;
    let (job_shown, job, job_dir) = job_file(args.job_file.as_deref())?;
    let script = args
        .entry_script
        .clone()
        .or_else(|| job.entry_script.as_ref().map(|e| job_dir.join(e)))
        .ok_or_else(|| {
            Error::input("rehearse parallel needs the entry script: pass --entry-script FILE (or a --job-file whose task names entry_script)")
        })?;
    let script = run::require_file(&script, "--entry-script")?;
    let inputs = args
        .inputs
        .iter()
        .map(|i| run::require_path(i, "--input", false))
        .collect::<Result<Vec<_>>>()?;
    let r = resolve(args, &job, job_shown.is_some());
    let (input_type, size, processes, timeout) = (r.input_type, r.size, r.processes, r.timeout);
    let (max_tries, threshold, action_name) = (r.max_tries, r.threshold, r.action_name);
    let program_args = r.program_args.clone();
    let python = interpreter(args, input_type, &inputs)?;
    let (temp, work_dir) = super::rehearse::working_folder(args.out.as_deref())?;
    let setup = parallel::ParallelSetup {
        entry_script: script.clone(),
        inputs,
        input_type: match input_type {
            InputType::File => "file",
            InputType::Tabular => "tabular",
        },
        mini_batch_size: size,
        processes,
        timeout,
        max_tries,
        error_threshold: threshold,
        output_action: action_name,
        append_row_file_name: "parallel_run_step.txt".to_owned(),
        args: program_args.clone(),
        out: work_dir.clone(),
        working_dir: script
            .parent()
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf),
        summary: work_dir.join("rehearsal.json"),
        total_timeout: total,
        work_dir: work_dir.clone(),
    };
    let outcome = parallel::run(&setup, &python)?;
    let settings = r.settings;
    let json = outcome.summary.unwrap_or(serde_json::Value::Null);
    let stopped = stopped(outcome.timed_out, &json, total, threshold);
    let shown_script = script.display().to_string();
    let (azure_calls, model_dir_uses) = script_lines(&shown_script, &run::script_text(&script));
    let summary = RehearsalSummary {
        mode: RehearsalMode::Parallel,
        entry_script: shown_script,
        python: python.path.display().to_string(),
        python_version: json
            .get("python")
            .and_then(serde_json::Value::as_str)
            .map_or_else(|| python.version.clone(), str::to_owned),
        server_version: None,
        model_dir: None,
        kept: temp.is_none().then(|| work_dir.display().to_string()),
        environment: Vec::new(),
        settings,
        startup: None,
        requests: Vec::new(),
        processes: harness_report::processes(&json),
        mini_batches: harness_report::mini_batches(&json),
        stopped,
    };
    let trees: Vec<String> = ["logs", "azureml-logs"]
        .iter()
        .map(|d| work_dir.join(d))
        .filter(|p| p.is_dir())
        .map(|p| p.display().to_string())
        .collect();
    let mut evidence = gather(&trees, None, ReadMode::Logs);
    evidence.rehearsal = Some(RehearsalRun {
        summary,
        log_tail: Vec::new(),
        azure_calls,
        model_dir_uses,
        request_timeout_ms: None,
    });
    let mut names = placeholders::of_context(ctx);
    if let Some(f) = job_shown {
        names.insert("job_yaml", f);
    }
    super::rehearse::report(
        ctx,
        &set,
        &args.report,
        temp.as_ref(),
        evidence,
        names,
        out,
        err,
    )
}

/// The job's settings as rehearsed: flag, else job file, else the platform's default.
#[derive(Debug)]
struct Resolved {
    input_type: InputType,
    size: MiniBatchSize,
    processes: u64,
    timeout: u64,
    max_tries: u64,
    threshold: i64,
    action_name: &'static str,
    program_args: Vec<String>,
    /// Each setting and where it came from, for the report.
    settings: Vec<String>,
}

fn resolve(args: &RehearseParallelArgs, job: &JobSettings, has_job: bool) -> Resolved {
    let tabular_default = if job.tabular {
        InputType::Tabular
    } else {
        InputType::File
    };
    let input_type = args.input_type.unwrap_or(tabular_default);
    let default_size = match input_type {
        InputType::File => MiniBatchSize::Count(10),
        InputType::Tabular => MiniBatchSize::Bytes(1 << 20),
    };
    let (size, size_from) = pick(args.mini_batch_size, job.mini_batch_size, default_size);
    let (processes, processes_from) = pick(args.processes, job.processes, 2);
    let (timeout, timeout_from) = pick(args.run_invocation_timeout, job.timeout, 60);
    let (max_tries, tries_from) = pick(None, job.max_tries, 3);
    let (threshold, threshold_from) = pick(None, job.error_threshold, -1);
    let job_action = has_job.then_some(if job.append_row {
        OutputAction::AppendRow
    } else {
        OutputAction::SummaryOnly
    });
    let (action, action_from) = pick(args.output_action, job_action, OutputAction::AppendRow);
    let action_name = match action {
        OutputAction::AppendRow => "append_row",
        OutputAction::SummaryOnly => "summary_only",
    };
    let program_args = if args.args.is_empty() {
        job.program_arguments.clone()
    } else {
        args.args.clone()
    };
    let settings = vec![
        format!("mini_batch_size {size} ({size_from})"),
        format!("{processes} worker processes ({processes_from})"),
        format!(
            "run_invocation_timeout {timeout} s ({timeout_from}); {max_tries} tries per mini-batch ({tries_from})"
        ),
        format!("error threshold {threshold} ({threshold_from}; -1 lets every mini-batch run)"),
        format!(
            "output action {action_name} ({action_from}); program arguments: {}",
            shell_words(&program_args)
        ),
    ];
    Resolved {
        input_type,
        size,
        processes,
        timeout,
        max_tries,
        threshold,
        action_name,
        program_args,
        settings,
    }
}

/// Why the run ended early, in a sentence.
fn stopped(
    timed_out: bool,
    json: &serde_json::Value,
    total: std::time::Duration,
    threshold: i64,
) -> Option<String> {
    if timed_out {
        return Some(format!(
            "The whole rehearsal passed --timeout ({} s), so the harness and its workers were stopped.",
            total.as_secs()
        ));
    }
    match json.get("stopped").and_then(serde_json::Value::as_str) {
        Some("init") => {
            Some("Every worker's init() failed, so no mini-batch could run.".to_owned())
        }
        Some("threshold") => Some(format!(
            "The failed items passed the error threshold ({threshold}), so the harness stopped the job as the driver would."
        )),
        _ => None,
    }
}

/// The interpreter, with pandas (and pyarrow for Parquet) when run() gets DataFrames.
fn interpreter(
    args: &RehearseParallelArgs,
    input_type: InputType,
    inputs: &[PathBuf],
) -> Result<run::Interpreter> {
    let mut packages = Vec::new();
    if input_type == InputType::Tabular {
        packages.push(("pandas", "pandas"));
        if run::any_with_extension(inputs, "parquet") {
            packages.push(("pyarrow", "pyarrow"));
        }
    }
    let python = run::probe(args.python.as_deref(), &packages)?;
    for (name, _) in &packages {
        if python.package(name).is_none() {
            return Err(python.lacks(name, "rehearse parallel with --input-type tabular"));
        }
    }
    Ok(python)
}

/// Arguments as one line, quoted where a blank would split them.
fn shell_words(args: &[String]) -> String {
    if args.is_empty() {
        return "none".to_owned();
    }
    let words: Vec<String> = args
        .iter()
        .map(|a| crate::rules::template::shell_word(a))
        .collect();
    words.join(" ")
}
