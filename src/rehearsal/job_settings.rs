//! The settings of a v2 parallel job YAML that a rehearsal uses (the entry script and
//! its arguments, the mini-batch size, the timeout and retries, the error threshold and
//! the processes per instance), and the mini-batch size as the flag and the YAML write
//! it: a count of files, or a size of table data (`1MB`, `512KB`).

use serde::Serialize;
use serde_json::Value;

/// How the platform cuts the inputs into mini-batches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum MiniBatchSize {
    /// Files per mini-batch (file inputs), or rows (tabular).
    Count(u64),
    /// About this many bytes of a table per mini-batch.
    Bytes(u64),
}

impl std::fmt::Display for MiniBatchSize {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MiniBatchSize::Count(n) => write!(f, "{n}"),
            MiniBatchSize::Bytes(b) => write!(f, "{b} bytes"),
        }
    }
}

/// `10` (a count), `1MB`, `512kb`, `2 GB` (a size; units of 1024).
pub(crate) fn parse_mini_batch_size(text: &str) -> Result<MiniBatchSize, String> {
    let t = text.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (digits, unit) = t.split_at(split);
    let err = || format!("expected a count of files (10) or a size (1MB, 512KB), not '{text}'");
    let n: u64 = digits.parse().map_err(|_| err())?;
    if n == 0 {
        return Err(format!(
            "expected a mini-batch size of at least 1, not '{text}'"
        ));
    }
    let factor: u64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" => return Ok(MiniBatchSize::Count(n)),
        "b" => 1,
        "k" | "kb" => 1 << 10,
        "m" | "mb" => 1 << 20,
        "g" | "gb" => 1 << 30,
        _ => return Err(err()),
    };
    n.checked_mul(factor)
        .map(MiniBatchSize::Bytes)
        .ok_or_else(err)
}

/// What a parallel job YAML says, each setting where it is set.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct JobSettings {
    /// `task.code` joined with `task.entry_script`, relative to the YAML's folder.
    pub(crate) entry_script: Option<String>,
    pub(crate) program_arguments: Vec<String>,
    pub(crate) mini_batch_size: Option<MiniBatchSize>,
    pub(crate) error_threshold: Option<i64>,
    pub(crate) max_tries: Option<u64>,
    pub(crate) timeout: Option<u64>,
    pub(crate) processes: Option<u64>,
    /// `task.append_row_to` is set.
    pub(crate) append_row: bool,
    /// An input is an `mltable` (run() gets a DataFrame).
    pub(crate) tabular: bool,
}

fn int(v: &Value, pointer: &str) -> Option<i64> {
    let v = v.pointer(pointer)?;
    v.as_i64()
        .or_else(|| v.as_str().and_then(|s| s.trim().parse().ok()))
}

fn count(v: &Value, pointer: &str) -> Option<u64> {
    int(v, pointer).and_then(|n| u64::try_from(n).ok())
}

/// The settings of one parallel job (its JSON, as `lint::parallel_jobs` reads it).
pub(crate) fn read(job: &Value) -> JobSettings {
    let code = job.pointer("/task/code").and_then(Value::as_str);
    let entry = job.pointer("/task/entry_script").and_then(Value::as_str);
    let entry_script = entry.map(|e| match code {
        Some(c) if !c.is_empty() && c != "." => format!("{}/{e}", c.trim_end_matches('/')),
        _ => e.to_owned(),
    });
    let size = match job.get("mini_batch_size") {
        Some(Value::Number(n)) => n.as_u64().map(MiniBatchSize::Count),
        Some(Value::String(s)) => parse_mini_batch_size(s).ok(),
        _ => None,
    };
    let tabular = job
        .get("inputs")
        .and_then(Value::as_object)
        .is_some_and(|inputs| {
            inputs
                .values()
                .any(|i| i.get("type").and_then(Value::as_str) == Some("mltable"))
        });
    JobSettings {
        entry_script,
        program_arguments: job
            .pointer("/task/program_arguments")
            .and_then(Value::as_str)
            .map(crate::rules::template::shell_split)
            .unwrap_or_default(),
        mini_batch_size: size,
        error_threshold: int(job, "/mini_batch_error_threshold"),
        max_tries: count(job, "/retry_settings/max_retries"),
        timeout: count(job, "/retry_settings/timeout"),
        processes: count(job, "/max_concurrency_per_instance"),
        append_row: job.pointer("/task/append_row_to").is_some(),
        tabular,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_counts() {
        assert_eq!(parse_mini_batch_size("10"), Ok(MiniBatchSize::Count(10)));
        assert_eq!(
            parse_mini_batch_size("1MB"),
            Ok(MiniBatchSize::Bytes(1 << 20))
        );
        assert_eq!(
            parse_mini_batch_size("512 kb"),
            Ok(MiniBatchSize::Bytes(512 << 10))
        );
        assert!(parse_mini_batch_size("0").is_err());
        assert!(parse_mini_batch_size("ten").is_err());
        assert!(parse_mini_batch_size("5 parsecs").is_err());
    }

    #[test]
    fn a_v2_job_is_read_where_each_setting_is() {
        let job: Value = serde_json::json!({
            "type": "parallel",
            "mini_batch_size": "10",
            "mini_batch_error_threshold": 5,
            "max_concurrency_per_instance": 2,
            "retry_settings": {"max_retries": 2, "timeout": 30},
            "inputs": {"data": {"type": "mltable", "path": "./data"}},
            "task": {"type": "run_function", "code": "./src", "entry_script": "score.py",
                     "program_arguments": "--threshold 0.5 --label \"high risk\"",
                     "append_row_to": "${{outputs.scores}}"}
        });
        let s = read(&job);
        assert_eq!(s.entry_script.as_deref(), Some("./src/score.py"));
        assert_eq!(
            s.program_arguments,
            ["--threshold", "0.5", "--label", "high risk"]
        );
        assert_eq!(s.mini_batch_size, Some(MiniBatchSize::Count(10)));
        assert_eq!(
            (s.error_threshold, s.max_tries, s.timeout, s.processes),
            (Some(5), Some(2), Some(30), Some(2))
        );
        assert!(s.append_row && s.tabular);
    }
}
