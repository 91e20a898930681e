//! SARIF 2.1.0, as GitHub code scanning accepts it: one run, the rules that produced
//! results (with help carrying the remediation and commands), one result per finding
//! and evidence file, levels mapped from severities, stable partial fingerprints,
//! suppressions and baseline states.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{self, Write};

use serde_json::{Value, json};

use crate::finding::{BaselineState, Finding, Severity};

use super::findings::Report;

pub const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";
const INFORMATION_URI: &str = "https://github.com/amldoctor/amldoctor";

/// SARIF `level` for a severity: error → error, warning → warning, info → note.
pub fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// A path as a SARIF artifact URI: relative paths stay relative with `/`, absolute ones
/// become `file://` URIs, stdin becomes `stdin`.
pub fn uri(path: &str) -> String {
    if path == "<stdin>" {
        return "stdin".to_owned();
    }
    let p = path.replace('\\', "/");
    let encoded: String = p
        .chars()
        .map(|c| match c {
            ' ' => "%20".to_owned(),
            '#' => "%23".to_owned(),
            '?' => "%3F".to_owned(),
            '%' => "%25".to_owned(),
            c => c.to_string(),
        })
        .collect();
    if encoded.starts_with('/') {
        format!("file://{encoded}")
    } else {
        encoded.trim_start_matches("./").to_owned()
    }
}

fn help_markdown(f: &Finding) -> String {
    let mut s = f.remediation.clone();
    if !f.commands.is_empty() {
        s.push_str("\n\n**Next commands**\n\n```sh\n");
        for c in &f.commands {
            s.push_str(c);
            s.push('\n');
        }
        s.push_str("```");
    }
    if !f.docs.is_empty() {
        s.push_str("\n\n**References**\n\n");
        for d in &f.docs {
            let _ = writeln!(s, "- <{d}>");
        }
    }
    s
}

fn help_text(f: &Finding) -> String {
    let mut s = f.remediation.clone();
    if !f.commands.is_empty() {
        s.push_str("\n\nNext commands:\n");
        for c in &f.commands {
            let _ = writeln!(s, "  {c}");
        }
    }
    s
}

fn rule_object(f: &Finding) -> Value {
    json!({
        "id": f.rule_id,
        "name": f.rule_id.split('-').map(|w| {
            let mut c = w.chars();
            c.next().map(|h| h.to_ascii_uppercase().to_string() + c.as_str()).unwrap_or_default()
        }).collect::<String>(),
        "shortDescription": {"text": f.title},
        "fullDescription": {"text": f.remediation.lines().next().unwrap_or(&f.title)},
        "help": {"text": help_text(f), "markdown": help_markdown(f)},
        "helpUri": f.docs.first().cloned().unwrap_or_else(|| INFORMATION_URI.to_owned()),
        "defaultConfiguration": {"level": level(f.severity)},
        "properties": {"tags": ["azure-ml", f.family.clone()], "precision": "high"},
    })
}

fn message(f: &Finding) -> String {
    let mut m = f.title.clone();
    if !f.facts.is_empty() {
        let facts: Vec<String> = f.facts.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let _ = write!(m, " ({})", facts.join(", "));
    }
    if !f.caused_by.is_empty() {
        let _ = write!(m, ". Symptom of: {}", f.caused_by.join(", "));
    }
    if let Some(first) = f.commands.first() {
        let _ = write!(m, ". Next: {first}");
    }
    m
}

/// A SARIF location for evidence: the file and line, and for a resource key its JSON
/// pointer as a logical location.
fn location(e: &crate::finding::Evidence) -> Value {
    // A DNS answer is about a name, not a file: a logical location only.
    // Code scanning wants a file for every result: the host stands in as `dns/HOST`.
    if let crate::finding::Location::Dns { host, server } = &e.location {
        return json!({
            "physicalLocation": {
                "artifactLocation": {"uri": format!("dns/{host}")},
                "region": {"startLine": 1, "snippet": {"text": e.text}},
            },
            "logicalLocations": [{"fullyQualifiedName": host, "kind": "resource"}],
            "message": {"text": format!("DNS server {server}: {}", e.text)},
        });
    }
    let mut l = json!({"physicalLocation": {
        "artifactLocation": {"uri": uri(e.path())},
        "region": {"startLine": e.line().max(1), "snippet": {"text": e.text}},
    }});
    if let Some(pointer) = e.location.pointer() {
        l["logicalLocations"] = json!([{"fullyQualifiedName": pointer, "kind": "member"}]);
    }
    l
}

/// `lint --fix-suggestions`: the finding's edits as one SARIF fix (§3.55: a fix is
/// complete, so every file and line it changes is in it), each edit replacing whole
/// lines (an empty region before a line for an insertion).
fn fix(f: &Finding, s: &crate::lint::fix::FixSuggestions) -> Option<Value> {
    let files = s.fixes(&f.rule_id);
    if files.is_empty() {
        return None;
    }
    let changes: Vec<Value> = files
        .iter()
        .map(|(file, hunks)| {
            let eol = if file.line_ending == "crlf" { "\r\n" } else { "\n" };
            let replacements: Vec<Value> = hunks
                .iter()
                .map(|h| {
                    let start = h.start_line;
                    let open_end = file.touches_unterminated_end(h);
                    let mut text: String = h.added.iter().map(|l| format!("{l}{eol}")).collect();
                    let deleted = if open_end {
                        // The last line has no ending: the region stops after its text.
                        text.truncate(text.len().saturating_sub(eol.len()));
                        let last = h.removed.last().map_or(0, |l| l.encode_utf16().count());
                        json!({"startLine": start, "startColumn": 1, "endLine": file.lines, "endColumn": last + 1})
                    } else {
                        let end = start + h.removed.len() as u64;
                        json!({"startLine": start, "startColumn": 1, "endLine": end, "endColumn": 1})
                    };
                    json!({"deletedRegion": deleted, "insertedContent": {"text": text}})
                })
                .collect();
            json!({"artifactLocation": {"uri": uri(&file.path)}, "replacements": replacements})
        })
        .collect();
    let places: Vec<String> = files
        .iter()
        .flat_map(|(file, hunks)| {
            hunks
                .iter()
                .map(|h| format!("{}:{}", file.path, h.start_line))
        })
        .collect();
    Some(json!({
        "description": {"text": format!("edit {} to fix {}", places.join(", "), f.rule_id)},
        "artifactChanges": changes,
    }))
}

fn result(f: &Finding, index: usize, suppression: Option<(&str, &str)>) -> Value {
    // The primary location is the first evidence line (the one the table shows first);
    // code scanning rejects a result without one, so a finding with no line points at
    // the first input it was found in.
    let primary = match f.evidence.first() {
        Some(e) => location(e),
        None => json!({"physicalLocation": {
            "artifactLocation": {"uri": uri(f.paths.first().map_or("amldoctor", String::as_str))},
            "region": {"startLine": 1},
        }}),
    };
    let locations = vec![primary];
    let related: Vec<Value> = f
        .evidence
        .iter()
        .skip(1)
        .enumerate()
        .map(|(i, e)| {
            let mut l = location(e);
            l["id"] = json!(i + 1);
            l
        })
        .collect();
    let mut r = json!({
        "ruleId": f.rule_id,
        "ruleIndex": index,
        "level": level(f.severity),
        "message": {"text": message(f)},
        "locations": locations,
        "partialFingerprints": {"amldoctorFingerprint/v1": f.fingerprint},
        "properties": {"count": f.count, "inputs": f.paths, "facts": f.facts},
    });
    if !related.is_empty() {
        r["relatedLocations"] = Value::Array(related);
    }
    if let Some(state) = f.baseline_state {
        r["baselineState"] = json!(match state {
            BaselineState::New => "new",
            BaselineState::Unchanged => "unchanged",
        });
    }
    if let Some((reason, source)) = suppression {
        r["suppressions"] = json!([{"kind": "external", "status": "accepted", "justification": format!("{reason} ({source})")}]);
    }
    r
}

pub fn document(report: &Report) -> Value {
    // Rules: those with results, in a stable order; suppressed ones too, so their
    // results can reference them.
    let mut rules: Vec<Value> = Vec::new();
    let mut index: BTreeMap<String, usize> = BTreeMap::new();
    let mut results: Vec<Value> = Vec::new();
    for f in &report.findings {
        let i = *index.entry(f.rule_id.clone()).or_insert_with(|| {
            rules.push(rule_object(f));
            rules.len() - 1
        });
        let mut r = result(f, i, None);
        if let Some(fix) = report.fix_suggestions.as_ref().and_then(|s| fix(f, s)) {
            r["fixes"] = json!([fix]);
        }
        results.push(r);
    }
    for s in &report.suppressed {
        let i = *index.entry(s.rule_id.clone()).or_insert_with(|| {
            rules.push(json!({
                "id": s.rule_id,
                "shortDescription": {"text": s.title},
                "fullDescription": {"text": s.title},
                "help": {"text": s.title, "markdown": s.title},
                "defaultConfiguration": {"level": level(s.severity)},
            }));
            rules.len() - 1
        });
        let path = s.paths.first().map(String::as_str).unwrap_or("<stdin>");
        results.push(json!({
            "ruleId": s.rule_id,
            "ruleIndex": i,
            "level": level(s.severity),
            "message": {"text": s.title},
            "locations": [{"physicalLocation": {"artifactLocation": {"uri": uri(path)}, "region": {"startLine": 1}}}],
            "partialFingerprints": {"amldoctorFingerprint/v1": s.fingerprint},
            "suppressions": [{"kind": "external", "status": "accepted", "justification": format!("{} ({})", s.reason, s.source)}],
        }));
    }
    let notifications: Vec<Value> = report
        .notices
        .iter()
        .map(|n| json!({"level": "warning", "message": {"text": n}}))
        .chain(report.not_analysed.iter().map(|n| {
            let level = if n.error { "error" } else { "warning" };
            json!({"level": level, "message": {"text": format!("{} was not analysed: {}", n.path, n.reason)}})
        }))
        .collect();
    json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": env!("CARGO_PKG_NAME"),
                "version": env!("CARGO_PKG_VERSION"),
                "semanticVersion": env!("CARGO_PKG_VERSION"),
                "informationUri": INFORMATION_URI,
                "rules": rules,
            }},
            "invocations": [{
                "executionSuccessful": report.not_analysed.is_empty(),
                "toolExecutionNotifications": notifications,
            }],
            "artifacts": report.inputs.iter().map(|i| json!({
                "location": {"uri": uri(&i.path)},
                "length": i.bytes,
                "properties": {"kind": i.kind},
            })).collect::<Vec<_>>(),
            "results": results,
        }],
    })
}

pub fn write(out: &mut dyn Write, report: &Report) -> io::Result<()> {
    // Serialise first: writing through serde_json would hide a closed pipe's error kind.
    let mut text = serde_json::to_vec_pretty(&document(report)).map_err(io::Error::other)?;
    text.push(b'\n');
    out.write_all(&text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris() {
        assert_eq!(uri("logs/a b.log"), "logs/a%20b.log");
        assert_eq!(uri("./logs/a.log"), "logs/a.log");
        assert_eq!(uri("/tmp/x.log"), "file:///tmp/x.log");
        assert_eq!(uri("<stdin>"), "stdin");
        assert_eq!(uri("C:\\logs\\a.log"), "C:/logs/a.log");
    }

    #[test]
    fn levels() {
        assert_eq!(level(Severity::Error), "error");
        assert_eq!(level(Severity::Warning), "warning");
        assert_eq!(level(Severity::Info), "note");
    }
}
