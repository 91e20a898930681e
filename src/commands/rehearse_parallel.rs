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
    let tabular_default = if job.tabular { InputType::Tabular } else { InputType::File };
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
    let job_action = job_shown.as_ref().map(|_| {
        if job.append_row { OutputAction::AppendRow } else { OutputAction::SummaryOnly }
    });
    let (action, action_from) = pick(args.output_action, job_action, OutputAction::AppendRow);
    let program_args = if args.args.is_empty() { job.program_arguments.clone() } else { args.args.clone() };
    let mut packages = Vec::new();
    if input_type == InputType::Tabular {
        packages.push(("pandas", "pandas"));
        if inputs.iter().any(|p| has_extension(p, "parquet")) {
            packages.push(("pyarrow", "pyarrow"));
        }
    }
    let python = run::probe(args.python.as_deref(), &packages)?;
    for (name, _) in &packages {
        if python.package(name).is_none() {
            return Err(python.lacks(name, "rehearse parallel with --input-type tabular"));
        }
    }
    let (temp, work_dir) = super::rehearse::working_folder(args.out.as_deref())?;
    let action_name = match action {
        OutputAction::AppendRow => "append_row",
        OutputAction::SummaryOnly => "summary_only",
    };
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
        working_dir: script.parent().map_or_else(|| PathBuf::from("."), Path::to_path_buf),
        summary: work_dir.join("rehearsal.json"),
        total_timeout: total,
        work_dir: work_dir.clone(),
    };
    let outcome = parallel::run(&setup, &python)?;
    let settings = vec![
        format!("mini_batch_size {size} ({size_from})"),
        format!("{processes} worker processes ({processes_from})"),
        format!("run_invocation_timeout {timeout} s ({timeout_from}); {max_tries} tries per mini-batch ({tries_from})"),
        format!("error threshold {threshold} ({threshold_from}; -1 lets every mini-batch run)"),
        format!("output action {action_name} ({action_from}); program arguments: {}", shell_words(&program_args)),
    ];
    let json = outcome.summary.unwrap_or(serde_json::Value::Null);
    let stopped = if outcome.timed_out {
        Some(format!(
            "The whole rehearsal passed --timeout ({} s), so the harness and its workers were stopped.",
            total.as_secs()
        ))
    } else {
        match json.get("stopped").and_then(serde_json::Value::as_str) {
            Some("init") => Some("Every worker's init() failed, so no mini-batch could run.".to_owned()),
            Some("threshold") => Some(format!(
                "The failed items passed the error threshold ({threshold}), so the harness stopped the job as the driver would."
            )),
            _ => None,
        }
    };
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
    let mut evidence = gather(&trees, ReadMode::Logs);
    evidence.rehearsal = Some(RehearsalRun {
        summary,
        log_tail: Vec::new(),
        azure_calls,
        model_dir_uses,
        request_timeout_ms: (0, true),
    });
    let mut names = placeholders::of_context(ctx);
    if let Some(f) = job_shown {
        names.insert("job_yaml", f);
    }
    super::rehearse::report(ctx, &set, &args.report, temp.as_ref(), evidence, names, out, err)
}

fn has_extension(path: &Path, ext: &str) -> bool {
    path.extension().is_some_and(|e| e.eq_ignore_ascii_case(ext))
}

/// Arguments as one line, quoted where a blank would split them.
fn shell_words(args: &[String]) -> String {
    if args.is_empty() {
        return "none".to_owned();
    }
    args.iter()
        .map(|a| if a.contains(char::is_whitespace) { format!("'{a}'") } else { a.clone() })
        .collect::<Vec<_>>()
        .join(" ")
}
