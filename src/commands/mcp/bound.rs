//! Results an agent can read: a report cut to a size that fits its context, saying
//! what was left out, and the short text summary that goes beside it. The CLI's JSON
//! is already redacted; cutting keeps the report in its published schema (entries are
//! only dropped or shortened, and the note goes into `notices`).

use std::fmt::Write as _;

use serde_json::Value;

/// Findings kept in one result (they are reported most severe first).
const MAX_FINDINGS: usize = 40;
/// Evidence lines kept per finding.
const MAX_EVIDENCE: usize = 8;
/// Characters kept of one evidence line, or of one text the result quotes.
const MAX_LINE_CHARS: usize = 1_000;
/// Other lists kept (last error lines, inputs, rules found).
const MAX_ITEMS: usize = 50;
/// The most the result may serialise to.
const MAX_RESULT_BYTES: usize = 256 * 1024;
/// Log lines kept per container (get_logs), the newest.
const MAX_LOG_LINES: usize = 2_000;
/// Of a plain text, the last bytes kept.
pub(super) const MAX_TEXT_BYTES: usize = 128 * 1024;

/// Cuts `report` to the bounds above; what went is said in its `notices`.
pub(super) fn bound(report: &mut Value) {
    let mut left_out = Vec::new();
    if let Some(findings) = report.get_mut("findings").and_then(Value::as_array_mut) {
        let n = cut(findings, MAX_FINDINGS);
        if n > 0 {
            left_out.push(format!("{n} findings"));
        }
        let mut lines = 0;
        for f in findings.iter_mut() {
            if let Some(ev) = f.get_mut("evidence").and_then(Value::as_array_mut) {
                lines += cut(ev, MAX_EVIDENCE);
                for e in ev.iter_mut() {
                    shorten(e.get_mut("text"));
                }
            }
        }
        if lines > 0 {
            left_out.push(format!("{lines} evidence lines"));
        }
    }
    for key in [
        "last_error_lines",
        "inputs",
        "not_analysed",
        "rules",
        "suppressed",
    ] {
        if let Some(list) = report.get_mut(key).and_then(Value::as_array_mut) {
            let n = cut(list, MAX_ITEMS);
            if n > 0 {
                left_out.push(format!("{n} {}", key.replace('_', " ")));
            }
        }
    }
    let mut log_lines = 0;
    for c in report
        .get_mut("containers")
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
    {
        if let Some(lines) = c.get_mut("lines").and_then(Value::as_array_mut) {
            let n = lines.len().saturating_sub(MAX_LOG_LINES);
            lines.drain(..n);
            log_lines += n;
            for l in lines.iter_mut() {
                shorten(Some(l));
            }
        }
    }
    if log_lines > 0 {
        left_out.push(format!("the {log_lines} oldest log lines"));
    }
    // Whatever is still too large loses findings from the end, the least severe first.
    while serialised_len(report) > MAX_RESULT_BYTES {
        let Some(findings) = report.get_mut("findings").and_then(Value::as_array_mut) else {
            break;
        };
        if findings.len() <= 1 {
            break;
        }
        let keep = findings.len() / 2;
        let n = cut(findings, keep);
        left_out.push(format!("{n} more findings (size)"));
    }
    if !left_out.is_empty() {
        let note = format!(
            "amldoctor mcp left out {} to keep this answer short; the CLI with -o json prints everything",
            left_out.join(", ")
        );
        if let Some(obj) = report.as_object_mut() {
            let notices = obj
                .entry("notices")
                .or_insert_with(|| Value::Array(Vec::new()));
            if let Some(list) = notices.as_array_mut() {
                list.push(Value::from(note));
            }
        }
    }
}

fn cut(list: &mut Vec<Value>, keep: usize) -> usize {
    let n = list.len().saturating_sub(keep);
    list.truncate(keep);
    n
}

fn shorten(text: Option<&mut Value>) {
    if let Some(Value::String(s)) = text
        && s.chars().count() > MAX_LINE_CHARS
    {
        let cut: String = s.chars().take(MAX_LINE_CHARS).collect();
        *s = format!("{cut}… (cut)");
    }
}

fn serialised_len(v: &Value) -> usize {
    serde_json::to_vec(v).map_or(0, |b| b.len())
}

/// The last [`MAX_TEXT_BYTES`] of a plain text, cut at a line.
pub(super) fn tail(text: &str) -> String {
    if text.len() <= MAX_TEXT_BYTES {
        return text.to_owned();
    }
    let mut start = text.len() - MAX_TEXT_BYTES;
    while !text.is_char_boundary(start) {
        start += 1;
    }
    let start = text[start..].find('\n').map_or(start, |i| start + i + 1);
    let lines = text[..start].matches('\n').count();
    format!(
        "[amldoctor mcp left out the first {lines} lines to keep this answer short]\n{}",
        &text[start..]
    )
}

/// A few lines an agent can quote: the counts, the gate and the first findings.
pub(super) fn summary(report: &Value) -> String {
    let mut text = String::new();
    let command = report["command"].as_str().unwrap_or("amldoctor");
    let s = &report["summary"];
    if s.is_object() {
        let _ = write!(
            text,
            "{command}: {}, {}, {} over {}; the gate {}.",
            count(&s["errors"], "error"),
            count(&s["warnings"], "warning"),
            count(&s["infos"], "info"),
            count(&s["inputs_analysed"], "input"),
            if s["failed"].as_bool() == Some(true) {
                "failed"
            } else {
                "passed"
            }
        );
    } else {
        let _ = write!(text, "{command}:");
    }
    for f in report["findings"].as_array().into_iter().flatten().take(10) {
        let _ = write!(
            text,
            "\n- {} {} ({}): {}",
            f["severity"].as_str().unwrap_or(""),
            f["rule_id"].as_str().unwrap_or(""),
            f["layer"].as_str().unwrap_or(""),
            f["title"].as_str().unwrap_or("")
        );
        if let Some(cmd) = f["commands"].get(0).and_then(Value::as_str) {
            let _ = write!(text, "\n  next: {cmd}");
        }
    }
    for c in report["containers"].as_array().into_iter().flatten() {
        let _ = write!(
            text,
            "\n- {}: {} lines",
            c["container"].as_str().unwrap_or(""),
            c["lines"].as_array().map_or(0, Vec::len)
        );
    }
    for r in report["rules"].as_array().into_iter().flatten().take(20) {
        let _ = write!(
            text,
            "\n- {} ({}): {}",
            r["id"].as_str().unwrap_or(""),
            r["severity"].as_str().unwrap_or(""),
            r["title"].as_str().unwrap_or("")
        );
    }
    for n in report["notices"].as_array().into_iter().flatten() {
        let _ = write!(text, "\nnote: {}", n.as_str().unwrap_or(""));
    }
    text
}

fn count(n: &Value, what: &str) -> String {
    let n = n.as_u64().unwrap_or(0);
    if n == 1 {
        format!("1 {what}")
    } else if what == "info" {
        format!("{n} info")
    } else {
        format!("{n} {what}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_long_report_is_cut_and_says_so() {
        let findings: Vec<Value> = (0..100)
            .map(|i| json!({ "rule_id": format!("r{i}"), "evidence": (0..20).map(|_| json!({"text": "x".repeat(5000)})).collect::<Vec<_>>() }))
            .collect();
        let mut report = json!({ "command": "diagnose", "findings": findings, "notices": [] });
        bound(&mut report);
        let kept = report["findings"].as_array().unwrap();
        assert!(kept.len() <= MAX_FINDINGS);
        assert_eq!(kept[0]["evidence"].as_array().unwrap().len(), MAX_EVIDENCE);
        assert!(serialised_len(&report) <= MAX_RESULT_BYTES);
        let note = report["notices"][0].as_str().unwrap();
        assert!(note.contains("60 findings"), "{note}");
        assert!(note.contains("evidence lines"), "{note}");
    }

    #[test]
    fn a_short_report_is_left_alone() {
        let mut report =
            json!({ "command": "diagnose", "findings": [{"rule_id": "a", "evidence": []}] });
        let before = report.clone();
        bound(&mut report);
        assert_eq!(report, before);
    }

    #[test]
    fn a_long_container_log_keeps_its_newest_lines() {
        let lines: Vec<Value> = (0..5_000).map(|i| json!(format!("line {i}"))).collect();
        let mut report = json!({ "command": "logs", "containers": [{"container": "inference-server", "lines": lines}] });
        bound(&mut report);
        let kept = report["containers"][0]["lines"].as_array().unwrap();
        assert_eq!(kept.len(), MAX_LOG_LINES);
        assert_eq!(kept.last().unwrap(), "line 4999");
        assert!(
            report["notices"][0]
                .as_str()
                .unwrap()
                .contains("the 3000 oldest log lines")
        );
        assert!(summary(&report).contains("inference-server: 2000 lines"));
    }

    #[test]
    fn a_long_log_keeps_its_end() {
        let text: String = (0..20_000).map(|i| format!("line {i}\n")).collect();
        let t = tail(&text);
        assert!(t.len() <= MAX_TEXT_BYTES + 100);
        assert!(t.ends_with("line 19999\n"));
        assert!(t.starts_with("[amldoctor mcp left out the first"));
    }
}
