//! SARIF 2.1.0, as GitHub code scanning reads it: one run with a category, the rules
//! that produced results (help carrying the remediation and commands, a
//! `problem.severity`), one result per finding, levels mapped from severities, and the
//! `primaryLocationLineHash` code scanning tracks an alert by, computed from the rule
//! and the evidence with what changes between runs masked. Code scanning ignores
//! `suppressions` and `baselineState`, so suppressed and baseline-unchanged findings are
//! left out unless asked for; then every result carries both properties (§3.27.23-24).

mod uri;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{self, Write};

use serde_json::{Value, json};

use crate::finding::{BaselineState, Finding, Severity};

use super::findings::Report;

pub(crate) const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";
const INFORMATION_URI: &str = "https://github.com/amldoctor/amldoctor";

/// SARIF `level` for a severity: error → error, warning → warning, info → note.
pub(crate) fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// How the SARIF writer was asked to write (`--sarif-category`,
/// `--sarif-keep-suppressed`) and where the run stood.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SarifOptions {
    /// `runs[].automationDetails.id`; `amldoctor/COMMAND/` when not given.
    pub category: Option<String>,
    /// Suppressed and baseline-unchanged findings are kept, each result saying which.
    pub keep_suppressed: bool,
    /// The working directory (absolute, `/`-separated): relative paths' base.
    pub working_directory: Option<String>,
    /// The repository the working directory is in: what URIs are relative to.
    pub repository_root: Option<String>,
}

impl SarifOptions {
    fn bases(&self) -> uri::Bases<'_> {
        uri::Bases {
            cwd: self.working_directory.as_deref(),
            root: self.repository_root.as_deref(),
        }
    }
}

/// An `artifactLocation` for `path`.
fn artifact(path: &str, o: &SarifOptions) -> Value {
    let a = uri::artifact(path, o.bases());
    match a.base {
        Some(base) => json!({"uri": a.uri, "uriBaseId": base}),
        None => json!({"uri": a.uri}),
    }
}

/// The line hash code scanning tracks a result by: [`hash_text`] hashed, and which
/// occurrence of that hash in the run this is.
fn line_hash(hashes: &mut BTreeMap<String, u32>, rule: &str, path: &str, evidence: &str) -> String {
    let key = format!(
        "{:016x}",
        crate::finding::fnv1a(hash_text(rule, path, evidence).as_bytes())
    );
    let occurrence = hashes.entry(key.clone()).or_insert(0);
    *occurrence += 1;
    format!("{key}:{occurrence}")
}

/// `problem.severity`, as code scanning names severities.
fn problem_severity(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "recommendation",
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

fn rule_object(id: &str, title: &str, severity: Severity, f: Option<&Finding>) -> Value {
    let name: String = id
        .split('-')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|h| h.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect();
    let (text, markdown, full, help_uri, family) = match f {
        Some(f) => (
            help_text(f),
            help_markdown(f),
            f.remediation.lines().next().unwrap_or(&f.title).to_owned(),
            f.docs
                .first()
                .cloned()
                .unwrap_or_else(|| INFORMATION_URI.to_owned()),
            f.family.clone(),
        ),
        None => (
            title.to_owned(),
            title.to_owned(),
            title.to_owned(),
            INFORMATION_URI.to_owned(),
            String::new(),
        ),
    };
    let mut tags = vec!["azure-ml".to_owned()];
    if !family.is_empty() {
        tags.push(family);
    }
    json!({
        "id": id,
        "name": name,
        "shortDescription": {"text": title},
        "fullDescription": {"text": full},
        "help": {"text": text, "markdown": markdown},
        "helpUri": help_uri,
        "defaultConfiguration": {"level": level(severity)},
        "properties": {"tags": tags, "precision": "high", "problem.severity": problem_severity(severity)},
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
fn location(e: &crate::finding::Evidence, o: &SarifOptions) -> Value {
    // A DNS answer is about a name, not a file: a URN stands in for the artifact.
    if let crate::finding::Location::Dns { host, server } = &e.location {
        return json!({
            "physicalLocation": {
                "artifactLocation": {"uri": uri::dns(host)},
                "region": {"startLine": 1, "snippet": {"text": e.text}},
            },
            "logicalLocations": [{"fullyQualifiedName": host, "kind": "resource"}],
            "message": {"text": format!("DNS server {server}: {}", e.text)},
        });
    }
    let mut l = json!({"physicalLocation": {
        "artifactLocation": artifact(e.path(), o),
        "region": {"startLine": e.line().max(1), "snippet": {"text": e.text}},
    }});
    if let Some((start, end)) = e.columns.filter(|(s, e)| e > s) {
        // §3.30.13: a snippet is its region's text. The region is now the match; the
        // line it stands on is the context region's.
        l["physicalLocation"]["region"] =
            json!({"startLine": e.line().max(1), "startColumn": start, "endColumn": end});
        l["physicalLocation"]["contextRegion"] =
            json!({"startLine": e.line().max(1), "snippet": {"text": e.text}});
    }
    if let Some(pointer) = e.location.pointer() {
        l["logicalLocations"] = json!([{"fullyQualifiedName": pointer, "kind": "member"}]);
    }
    l
}

/// `lint --fix-suggestions`: the finding's edits as one SARIF fix (§3.55: a fix is
/// complete, so every file and line it changes is in it), each edit replacing whole
/// lines (an empty region before a line for an insertion).
fn fix(
    f: &Finding,
    s: &crate::lint::fix::FixSuggestions,
    o: &SarifOptions,
    belongs: &dyn Fn(&str) -> bool,
) -> Option<Value> {
    let mut files = s.fixes(&f.rule_id);
    files.retain(|(file, _)| belongs(&file.path));
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
            json!({"artifactLocation": artifact(&file.path, o), "replacements": replacements})
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

/// The text a result's line hash is made of: the rule, the file and the first evidence
/// with what changes between runs masked, hex ids inside words too
/// (`azureml_5b2d8f0e…`), so a later log of the same failure is the same alert.
fn hash_text(rule: &str, path: &str, evidence: &str) -> String {
    static HEX: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let hex = HEX.get_or_init(|| regex::Regex::new(r"[0-9a-fA-F]{8,}").expect("valid regex"));
    let masked = hex.replace_all(evidence, |c: &regex::Captures| {
        if c[0].bytes().any(|b| b.is_ascii_digit()) {
            "#".to_owned()
        } else {
            c[0].to_owned()
        }
    });
    format!(
        "{rule}\u{0}{path}\u{0}{}",
        crate::finding::normalize_for_fingerprint(&masked)
    )
}

/// The places a finding was found in, in order: where its evidence is, then the other
/// inputs it names.
fn places(f: &Finding) -> Vec<&str> {
    let mut places: Vec<&str> = Vec::new();
    for p in f
        .evidence
        .iter()
        .map(|e| e.path())
        .chain(f.paths.iter().map(String::as_str))
    {
        if !places.contains(&p) {
            places.push(p);
        }
    }
    if places.is_empty() {
        places.push("<stdin>");
    }
    places
}

/// The results of one finding: one per file it was found in (code scanning tracks an
/// alert per place, and a fixed file must close its own alert), each with that file's
/// evidence, a line hash of its own and, when asked, the file's suggested edits.
fn finding_results(
    f: &Finding,
    index: usize,
    fixes: Option<&crate::lint::fix::FixSuggestions>,
    o: &SarifOptions,
    hashes: &mut BTreeMap<String, u32>,
    baseline: bool,
) -> Vec<Value> {
    let all = places(f);
    all.iter()
        .enumerate()
        .map(|(n, place)| {
            let evidence: Vec<&crate::finding::Evidence> =
                f.evidence.iter().filter(|e| e.path() == *place).collect();
            let primary = match evidence.first() {
                Some(e) => location(e, o),
                None => json!({"physicalLocation": {
                    "artifactLocation": artifact(place, o),
                    "region": {"startLine": 1},
                }}),
            };
            let related: Vec<Value> = evidence
                .iter()
                .skip(1)
                .enumerate()
                .map(|(i, e)| {
                    let mut l = location(e, o);
                    l["id"] = json!(i + 1);
                    l
                })
                .collect();
            let first = evidence.first().map_or("", |e| e.text.as_str());
            let hash = line_hash(hashes, &f.rule_id, place, first);
            let mut r = json!({
                "ruleId": f.rule_id,
                "ruleIndex": index,
                "level": level(f.severity),
                "message": {"text": message(f)},
                "locations": [primary],
                "partialFingerprints": {
                    "primaryLocationLineHash": hash,
                    "amldoctorFingerprint/v1": f.fingerprint,
                },
                "properties": {"count": f.count, "inputs": f.paths, "facts": f.facts},
            });
            if !related.is_empty() {
                r["relatedLocations"] = Value::Array(related);
            }
            if o.keep_suppressed {
                r["suppressions"] = json!([]);
                if baseline {
                    r["baselineState"] = json!(match f.baseline_state {
                        Some(BaselineState::Unchanged) => "unchanged",
                        _ => "new",
                    });
                }
            }
            // The edits of this file; the first result also takes those of files the
            // finding has no evidence in (an environment file for a script's import).
            let belongs = |path: &str| path == *place || (n == 0 && !all.contains(&path));
            if let Some(fix) = fixes.and_then(|s| fix(f, s, o, &belongs)) {
                r["fixes"] = json!([fix]);
            }
            r
        })
        .collect()
}

/// A suppressed finding, kept (`--sarif-keep-suppressed`) with why.
fn suppressed_result(
    s: &crate::finding::Suppressed,
    index: usize,
    o: &SarifOptions,
    baseline: bool,
    hashes: &mut BTreeMap<String, u32>,
) -> Value {
    let path = s.paths.first().map_or("<stdin>", String::as_str);
    let mut r = json!({
        "ruleId": s.rule_id,
        "ruleIndex": index,
        "level": level(s.severity),
        "message": {"text": s.title},
        "locations": [{"physicalLocation": {"artifactLocation": artifact(path, o), "region": {"startLine": 1}}}],
        "partialFingerprints": {
            "primaryLocationLineHash": line_hash(hashes, &s.rule_id, path, ""),
            "amldoctorFingerprint/v1": s.fingerprint,
        },
        "suppressions": [{
            "kind": "external",
            "status": "accepted",
            "justification": format!("{} ({})", s.reason, s.source),
        }],
    });
    if baseline {
        // A suppression decides before the baseline is read: nothing says it is new.
        r["baselineState"] = json!("unchanged");
    }
    r
}

/// The results and the rules they reference: active findings, then (when kept)
/// suppressed ones. Baseline-unchanged findings go unless kept.
fn results(report: &Report, o: &SarifOptions) -> (Vec<Value>, Vec<Value>) {
    let baseline = report.findings.iter().any(|f| f.baseline_state.is_some());
    let mut rules: Vec<Value> = Vec::new();
    let mut index: BTreeMap<String, usize> = BTreeMap::new();
    let mut results: Vec<Value> = Vec::new();
    let mut hashes: BTreeMap<String, u32> = BTreeMap::new();
    for f in &report.findings {
        if f.baseline_state == Some(BaselineState::Unchanged) && !o.keep_suppressed {
            continue;
        }
        let i = *index.entry(f.rule_id.clone()).or_insert_with(|| {
            rules.push(rule_object(&f.rule_id, &f.title, f.severity, Some(f)));
            rules.len() - 1
        });
        results.extend(finding_results(
            f,
            i,
            report.sections.fix_suggestions(),
            o,
            &mut hashes,
            baseline,
        ));
    }
    if o.keep_suppressed {
        for s in &report.suppressed {
            let i = *index.entry(s.rule_id.clone()).or_insert_with(|| {
                rules.push(rule_object(&s.rule_id, &s.title, s.severity, None));
                rules.len() - 1
            });
            results.push(suppressed_result(s, i, o, baseline, &mut hashes));
        }
    }
    (rules, results)
}

pub(crate) fn document(report: &Report, o: &SarifOptions) -> Value {
    let (rules, results) = results(report, o);
    let notifications: Vec<Value> = report
        .notices
        .iter()
        .map(|n| json!({"level": "warning", "message": {"text": n}}))
        .chain(report.not_analysed.iter().map(|n| {
            let level = if n.error { "error" } else { "warning" };
            json!({"level": level, "message": {"text": format!("{} was not analysed: {}", n.path, n.reason)}})
        }))
        .collect();
    let mut invocation = json!({
        "executionSuccessful": report.not_analysed.is_empty(),
        "toolExecutionNotifications": notifications,
    });
    let mut run = json!({
        "tool": {"driver": {
            "name": env!("CARGO_PKG_NAME"),
            "version": env!("CARGO_PKG_VERSION"),
            "semanticVersion": env!("CARGO_PKG_VERSION"),
            "informationUri": INFORMATION_URI,
            "rules": rules,
        }},
        "automationDetails": {"id": o.category.clone().unwrap_or_else(|| format!("amldoctor/{}/", report.command))},
        "artifacts": report.inputs.iter().map(|i| json!({
            "location": artifact(&i.path, o),
            "length": i.bytes,
            "properties": {"kind": i.kind},
        })).collect::<Vec<_>>(),
        "results": results,
    });
    if let Some(cwd) = &o.working_directory {
        invocation["workingDirectory"] = json!({"uri": uri::directory(cwd)});
        let root = o.repository_root.as_deref().unwrap_or(cwd);
        run["originalUriBaseIds"] = json!({uri::SRCROOT: {"uri": uri::directory(root)}});
    }
    run["invocations"] = json!([invocation]);
    json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [run],
    })
}

pub(crate) fn write(out: &mut dyn Write, report: &Report, o: &SarifOptions) -> io::Result<()> {
    // Serialise first: writing through serde_json would hide a closed pipe's error kind.
    let mut text = serde_json::to_vec_pretty(&document(report, o)).map_err(io::Error::other)?;
    text.push(b'\n');
    out.write_all(&text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels() {
        assert_eq!(level(Severity::Error), "error");
        assert_eq!(level(Severity::Warning), "warning");
        assert_eq!(level(Severity::Info), "note");
        assert_eq!(problem_severity(Severity::Info), "recommendation");
    }
}
