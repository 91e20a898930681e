//! The parallel harness's summary (`rehearsal.json`, written beside the log tree) read
//! into the report's worker and mini-batch rows: each mini-batch by its last attempt,
//! each worker process by its `init()` and the most memory it held.

use serde_json::Value;

use super::summary::{MiniBatch, MiniBatchOutcome, WorkerProcess};

fn text(v: &Value, key: &str) -> Option<String> {
    v.get(key).and_then(Value::as_str).map(str::to_owned)
}

fn number(v: &Value, key: &str) -> f64 {
    v.get(key).and_then(Value::as_f64).unwrap_or(0.0)
}

fn count(v: &Value, key: &str) -> Option<u64> {
    v.get(key).and_then(Value::as_u64)
}

fn list<'v>(v: &'v Value, key: &str) -> &'v [Value] {
    v.get(key)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// `ru_maxrss` in KiB as whole MiB.
fn mib(v: &Value) -> Option<u64> {
    count(v, "peak_rss_kb")
        .filter(|k| *k > 0)
        .map(|k| k.div_ceil(1024))
}

/// The worker processes, in the order they started.
pub(crate) fn processes(summary: &Value) -> Vec<WorkerProcess> {
    let attempts = list(summary, "attempts");
    list(summary, "inits")
        .iter()
        .map(|i| {
            let name = text(i, "process").unwrap_or_default();
            let peak = attempts
                .iter()
                .filter(|a| text(a, "process").as_deref() == Some(name.as_str()))
                .filter_map(mib)
                .chain(mib(i))
                .max();
            WorkerProcess {
                init_ok: i.get("ok").and_then(Value::as_bool).unwrap_or(false),
                init_seconds: (number(i, "seconds") * 100.0).round() / 100.0,
                error: text(i, "error"),
                peak_memory_mb: peak,
                name,
            }
        })
        .collect()
}

/// Every mini-batch, by its last attempt.
pub(crate) fn mini_batches(summary: &Value) -> Vec<MiniBatch> {
    let attempts = list(summary, "attempts");
    list(summary, "batches")
        .iter()
        .map(|b| {
            let id = count(b, "id").unwrap_or(0);
            let items = count(b, "count").unwrap_or(0);
            let mine: Vec<&Value> = attempts
                .iter()
                .filter(|a| count(a, "id") == Some(id))
                .collect();
            let last = mine.last();
            let outcome = match last {
                None => MiniBatchOutcome::NotRun,
                Some(a) if a.get("timeout").and_then(Value::as_bool) == Some(true) => {
                    MiniBatchOutcome::TimedOut
                }
                Some(a) if a.get("ok").and_then(Value::as_bool) != Some(true) => {
                    MiniBatchOutcome::Failed
                }
                Some(a) if count(a, "results").is_some_and(|r| r < items) => {
                    MiniBatchOutcome::FewerResults
                }
                Some(_) => MiniBatchOutcome::Succeeded,
            };
            MiniBatch {
                id,
                items,
                detail: text(b, "detail").unwrap_or_default(),
                tries: mine.len() as u64,
                seconds: last.map_or(0.0, |a| (number(a, "elapsed") * 100.0).round() / 100.0),
                results: last.and_then(|a| count(a, "results")),
                outcome,
                process: last.and_then(|a| text(a, "process")).unwrap_or_default(),
                error: last.and_then(|a| text(a, "error")),
                peak_memory_mb: last.and_then(|a| mib(a)),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn last_attempt_decides_and_short_returns_show() {
        let summary: Value = serde_json::from_str(
            r#"{"batches": [{"id": 0, "count": 2, "detail": "a.csv;b.csv"}, {"id": 1, "count": 2, "detail": "c.csv;d.csv"}, {"id": 2, "count": 1, "detail": "e.csv"}],
                "inits": [{"process": "process000", "ok": true, "seconds": 0.5, "peak_rss_kb": 20480}],
                "attempts": [
                  {"id": 0, "process": "process000", "ok": true, "results": 1, "elapsed": 0.2, "peak_rss_kb": 40960},
                  {"id": 1, "process": "process000", "ok": false, "timeout": true, "elapsed": 60},
                  {"id": 1, "process": "process001", "ok": true, "results": 2, "elapsed": 1.0}]}"#,
        )
        .unwrap();
        let m = mini_batches(&summary);
        assert_eq!(m[0].outcome, MiniBatchOutcome::FewerResults);
        assert_eq!((m[1].outcome, m[1].tries), (MiniBatchOutcome::Succeeded, 2));
        assert_eq!(m[2].outcome, MiniBatchOutcome::NotRun);
        let p = processes(&summary);
        assert_eq!(p[0].peak_memory_mb, Some(40));
    }
}
