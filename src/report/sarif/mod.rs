//! SARIF 2.1.0, as GitHub code scanning reads it: one run with a category, the rules
//! that produced results (help carrying the remediation and commands, a
//! `problem.severity`), one result per finding, levels mapped from severities, and the
//! `primaryLocationLineHash` code scanning tracks an alert by, computed from the rule
//! and the evidence with what changes between runs masked. Code scanning ignores
//! `suppressions` and `baselineState`, so suppressed and baseline-unchanged findings are
//! left out unless asked for; then every result carries both properties (§3.27.23-24).

mod document;
mod uri;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{self, Write};

use crate::finding::{BaselineState, Finding, Severity};

use document::{
    Artifact, ArtifactChange, ArtifactLocation, ArtifactProperties, AutomationDetails,
    DefaultConfiguration, Driver, Fix, Help, Invocation, Location, LogicalLocation, Notification,
    PartialFingerprints, PhysicalLocation, Region, Replacement, ResultProperties, Rule,
    RuleProperties, Run, SarifLog, SarifResult, Suppression, Text, Tool,
};

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
fn artifact(path: &str, o: &SarifOptions) -> ArtifactLocation {
    let a = uri::artifact(path, o.bases());
    ArtifactLocation {
        uri: a.uri,
        uri_base_id: a.base,
    }
}

/// A location of a whole file: its first line.
fn file_location(path: &str, o: &SarifOptions) -> Location {
    Location {
        physical_location: PhysicalLocation {
            artifact_location: artifact(path, o),
            ..PhysicalLocation::default()
        },
        ..Location::default()
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

fn rule_object(id: &str, title: &str, severity: Severity, f: Option<&Finding>) -> Rule {
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
    Rule {
        default_configuration: DefaultConfiguration {
            level: level(severity),
        },
        full_description: Text::new(full),
        help: Help { markdown, text },
        help_uri,
        id: id.to_owned(),
        name,
        properties: RuleProperties {
            precision: "high",
            problem_severity: problem_severity(severity),
            tags,
        },
        short_description: Text::new(title),
    }
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
fn location(e: &crate::finding::Evidence, o: &SarifOptions) -> Location {
    let line_with_snippet = Region {
        snippet: Some(Text::new(e.text.as_str())),
        ..Region::line(e.line().max(1))
    };
    // A DNS answer is about a name, not a file: a URN stands in for the artifact.
    if let crate::finding::Location::Dns { host, server } = &e.location {
        return Location {
            logical_locations: vec![LogicalLocation {
                fully_qualified_name: host.clone(),
                kind: "resource",
            }],
            message: Some(Text::new(format!("DNS server {server}: {}", e.text))),
            physical_location: PhysicalLocation {
                artifact_location: ArtifactLocation {
                    uri: uri::dns(host),
                    uri_base_id: None,
                },
                context_region: None,
                region: line_with_snippet,
            },
            ..Location::default()
        };
    }
    let (region, context_region) = match e.columns.filter(|(s, e)| e > s) {
        // §3.30.13: a snippet is its region's text. The region is now the match; the
        // line it stands on is the context region's.
        Some((start, end)) => (
            Region {
                end_column: Some(end),
                start_column: Some(start),
                ..Region::line(e.line().max(1))
            },
            Some(line_with_snippet),
        ),
        None => (line_with_snippet, None),
    };
    Location {
        logical_locations: e
            .location
            .pointer()
            .map(|pointer| LogicalLocation {
                fully_qualified_name: pointer.to_owned(),
                kind: "member",
            })
            .into_iter()
            .collect(),
        physical_location: PhysicalLocation {
            artifact_location: artifact(e.path(), o),
            context_region,
            region,
        },
        ..Location::default()
    }
}

/// `lint --fix-suggestions`: the finding's edits as one SARIF fix (§3.55: a fix is
/// complete, so every file and line it changes is in it), each edit replacing whole
/// lines (an empty region before a line for an insertion).
fn fix(
    f: &Finding,
    s: &crate::lint::fix::FixSuggestions,
    o: &SarifOptions,
    belongs: &dyn Fn(&str) -> bool,
) -> Option<Fix> {
    let mut files = s.fixes(&f.rule_id);
    files.retain(|(file, _)| belongs(&file.path));
    if files.is_empty() {
        return None;
    }
    let changes: Vec<ArtifactChange> = files
        .iter()
        .map(|(file, hunks)| ArtifactChange {
            artifact_location: artifact(&file.path, o),
            replacements: hunks.iter().map(|h| replacement(file, h)).collect(),
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
    Some(Fix {
        artifact_changes: changes,
        description: Text::new(format!("edit {} to fix {}", places.join(", "), f.rule_id)),
    })
}

/// One hunk as a replacement of whole lines.
fn replacement(file: &crate::lint::fix::FileEdits, h: &crate::lint::fix::Hunk) -> Replacement {
    let eol = if file.line_ending == "crlf" {
        "\r\n"
    } else {
        "\n"
    };
    let start = h.start_line;
    let mut text: String = h.added.iter().map(|l| format!("{l}{eol}")).collect();
    let (end_line, end_column) = if file.touches_unterminated_end(h) {
        // The last line has no ending: the region stops after its text.
        text.truncate(text.len().saturating_sub(eol.len()));
        let last = h.removed.last().map_or(0, |l| l.encode_utf16().count());
        (file.lines, last as u64 + 1)
    } else {
        (start + h.removed.len() as u64, 1)
    };
    Replacement {
        deleted_region: Region {
            end_column: Some(end_column),
            end_line: Some(end_line),
            snippet: None,
            start_column: Some(1),
            start_line: start,
        },
        inserted_content: Text::new(text),
    }
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
fn finding_results<'a>(
    f: &'a Finding,
    index: usize,
    fixes: Option<&crate::lint::fix::FixSuggestions>,
    o: &SarifOptions,
    hashes: &mut BTreeMap<String, u32>,
    baseline: bool,
) -> Vec<SarifResult<'a>> {
    let all = places(f);
    all.iter()
        .enumerate()
        .map(|(n, place)| {
            let evidence: Vec<&crate::finding::Evidence> =
                f.evidence.iter().filter(|e| e.path() == *place).collect();
            let primary = match evidence.first() {
                Some(e) => location(e, o),
                None => file_location(place, o),
            };
            let related: Vec<Location> = evidence
                .iter()
                .skip(1)
                .enumerate()
                .map(|(i, e)| Location {
                    id: Some(i + 1),
                    ..location(e, o)
                })
                .collect();
            let first = evidence.first().map_or("", |e| e.text.as_str());
            let hash = line_hash(hashes, &f.rule_id, place, first);
            // The edits of this file; the first result also takes those of files the
            // finding has no evidence in (an environment file for a script's import).
            let belongs = |path: &str| path == *place || (n == 0 && !all.contains(&path));
            SarifResult {
                baseline_state: (o.keep_suppressed && baseline).then_some(match f.baseline_state {
                    Some(BaselineState::Unchanged) => "unchanged",
                    _ => "new",
                }),
                fixes: fixes
                    .and_then(|s| fix(f, s, o, &belongs))
                    .map(|fix| vec![fix]),
                level: level(f.severity),
                locations: vec![primary],
                message: Text::new(message(f)),
                partial_fingerprints: PartialFingerprints {
                    amldoctor_v1: f.fingerprint.clone(),
                    primary_location_line_hash: hash,
                },
                properties: Some(ResultProperties {
                    count: f.count,
                    facts: &f.facts,
                    inputs: &f.paths,
                    layer: f.layer.name(),
                }),
                related_locations: related,
                rule_id: f.rule_id.clone(),
                rule_index: index,
                suppressions: o.keep_suppressed.then(Vec::new),
            }
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
) -> SarifResult<'static> {
    let path = s.paths.first().map_or("<stdin>", String::as_str);
    SarifResult {
        // A suppression decides before the baseline is read: nothing says it is new.
        baseline_state: baseline.then_some("unchanged"),
        fixes: None,
        level: level(s.severity),
        locations: vec![file_location(path, o)],
        message: Text::new(s.title.as_str()),
        partial_fingerprints: PartialFingerprints {
            amldoctor_v1: s.fingerprint.clone(),
            primary_location_line_hash: line_hash(hashes, &s.rule_id, path, ""),
        },
        properties: None,
        related_locations: Vec::new(),
        rule_id: s.rule_id.clone(),
        rule_index: index,
        suppressions: Some(vec![Suppression {
            justification: format!("{} ({})", s.reason, s.source),
            kind: "external",
            status: "accepted",
        }]),
    }
}

/// The results and the rules they reference: active findings, then (when kept)
/// suppressed ones. Baseline-unchanged findings go unless kept.
fn results<'a>(report: &'a Report, o: &SarifOptions) -> (Vec<Rule>, Vec<SarifResult<'a>>) {
    let baseline = report.findings.iter().any(|f| f.baseline_state.is_some());
    let mut rules: Vec<Rule> = Vec::new();
    let mut index: BTreeMap<String, usize> = BTreeMap::new();
    let mut results: Vec<SarifResult<'a>> = Vec::new();
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

fn document<'a>(report: &'a Report, o: &SarifOptions) -> SarifLog<'a> {
    let (rules, results) = results(report, o);
    let notifications: Vec<Notification> = report
        .notices
        .iter()
        .map(|n| Notification {
            level: "warning",
            message: Text::new(n.as_str()),
        })
        .chain(report.not_analysed.iter().map(|n| Notification {
            level: if n.error { "error" } else { "warning" },
            message: Text::new(format!("{} was not analysed: {}", n.path, n.reason)),
        }))
        .collect();
    let cwd = o.working_directory.as_deref();
    let directory = |dir: &str| ArtifactLocation {
        uri: uri::directory(dir),
        uri_base_id: None,
    };
    let run = Run {
        artifacts: report
            .inputs
            .iter()
            .map(|i| Artifact {
                length: i.bytes,
                location: artifact(&i.path, o),
                properties: ArtifactProperties { kind: &i.kind },
            })
            .collect(),
        automation_details: AutomationDetails {
            id: o
                .category
                .clone()
                .unwrap_or_else(|| format!("amldoctor/{}/", report.command)),
        },
        invocations: vec![Invocation {
            execution_successful: report.not_analysed.is_empty(),
            tool_execution_notifications: notifications,
            working_directory: cwd.map(directory),
        }],
        original_uri_base_ids: cwd.map(|cwd| {
            let root = o.repository_root.as_deref().unwrap_or(cwd);
            BTreeMap::from([(uri::SRCROOT, directory(root))])
        }),
        results,
        tool: Tool {
            driver: Driver {
                information_uri: INFORMATION_URI,
                name: env!("CARGO_PKG_NAME"),
                rules,
                semantic_version: env!("CARGO_PKG_VERSION"),
                version: env!("CARGO_PKG_VERSION"),
            },
        },
    };
    SarifLog {
        schema: SCHEMA,
        runs: vec![run],
        version: "2.1.0",
    }
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
