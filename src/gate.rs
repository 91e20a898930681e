//! The CI gate: which findings count. `--ignore` and `.amldoctor.yaml` suppressions
//! (each with a reason, optionally expiring) take accepted findings out; a baseline
//! marks known findings `unchanged` so only new ones fail; `--fail-on` sets the bar.
//! Pure: the caller loads files and supplies today's date.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::finding::{BaselineState, FailOn, Finding};

/// One accepted finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suppression {
    pub rule: String,
    pub reason: String,
    /// Last day the suppression applies, as `YYYYMMDD`.
    pub expires: Option<u32>,
    /// Only findings whose inputs all match this glob (`*`, `**`, `?`).
    pub path: Option<String>,
    /// Where it was declared: `--ignore` or `FILE: suppressions[N]`.
    pub source: String,
}

pub(crate) use crate::finding::Suppressed;

/// The baseline file written by `--write-baseline`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct BaselineFile {
    pub schema_version: u32,
    pub findings: Vec<BaselineEntry>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct BaselineEntry {
    pub rule_id: String,
    pub fingerprint: String,
    #[serde(default)]
    pub title: String,
}

impl BaselineFile {
    pub(crate) fn from_findings(findings: &[Finding]) -> BaselineFile {
        let mut entries: Vec<BaselineEntry> = findings
            .iter()
            .map(|f| BaselineEntry {
                rule_id: f.rule_id.clone(),
                fingerprint: f.fingerprint.clone(),
                title: f.title.clone(),
            })
            .collect();
        entries.sort_by(|a, b| {
            a.rule_id
                .cmp(&b.rule_id)
                .then_with(|| a.fingerprint.cmp(&b.fingerprint))
        });
        BaselineFile {
            schema_version: 1,
            findings: entries,
        }
    }

    pub(crate) fn parse(text: &str) -> Result<BaselineFile, String> {
        if text.trim_start_matches('\u{feff}').trim().is_empty() {
            return Err("it is empty; expected a baseline written by --write-baseline".to_owned());
        }
        let b: BaselineFile = serde_json::from_str(text.trim_start_matches('\u{feff}'))
            .map_err(|e| format!("not a baseline written by --write-baseline: {e}"))?;
        if b.schema_version != 1 {
            return Err(format!(
                "baseline schema_version {} is not supported (expected 1)",
                b.schema_version
            ));
        }
        Ok(b)
    }
}

/// Everything the gate needs.
#[derive(Debug, Clone)]
pub(crate) struct Gate {
    pub fail_on: FailOn,
    pub suppressions: Vec<Suppression>,
    pub baseline: Option<BaselineFile>,
    /// Today as `YYYYMMDD`, for expiry.
    pub today: u32,
    /// The working directory, so `path:` globs also match inputs given as absolute paths.
    pub base: Option<std::path::PathBuf>,
}

/// An input path as `path:` globs see it: relative to the working directory, without `./`.
pub(crate) fn normalize_path(path: &str, base: Option<&std::path::Path>) -> String {
    let mut p = path.replace('\\', "/");
    if let Some(base) = base
        && let Ok(rel) = std::path::Path::new(&p).strip_prefix(base)
    {
        p = rel.to_string_lossy().replace('\\', "/");
    }
    while let Some(rest) = p.strip_prefix("./") {
        p = rest.to_owned();
    }
    p
}

/// The gate's verdict over a run's findings.
#[derive(Debug, Clone)]
pub(crate) struct GateResult {
    pub findings: Vec<Finding>,
    pub suppressed: Vec<Suppressed>,
    /// Things the user must know: expired suppressions, suppressions that matched nothing.
    pub notices: Vec<String>,
    pub failed: bool,
}

fn show_date(d: u32) -> String {
    format!("{:04}-{:02}-{:02}", d / 10000, (d / 100) % 100, d % 100)
}

/// Applies suppressions, the baseline and the threshold.
pub(crate) fn apply(gate: &Gate, findings: Vec<Finding>) -> GateResult {
    let mut kept = Vec::new();
    let mut suppressed = Vec::new();
    let mut notices = Vec::new();
    let mut used: BTreeSet<usize> = BTreeSet::new();
    let baseline: Option<BTreeSet<(&str, &str)>> = gate.baseline.as_ref().map(|b| {
        b.findings
            .iter()
            .map(|e| (e.rule_id.as_str(), e.fingerprint.as_str()))
            .collect()
    });
    'finding: for mut f in findings {
        for (i, s) in gate.suppressions.iter().enumerate() {
            if s.rule != f.rule_id {
                continue;
            }
            // A path-scoped suppression needs inputs to match: a finding with none does not.
            if let Some(glob) = &s.path {
                let glob = normalize_path(glob, None);
                let base = gate.base.as_deref();
                if f.paths.is_empty()
                    || !f
                        .paths
                        .iter()
                        .all(|p| glob_match(&glob, &normalize_path(p, base)))
                {
                    continue;
                }
            }
            used.insert(i);
            if let Some(exp) = s.expires
                && exp < gate.today
            {
                notices.push(format!(
                    "the suppression of {} ({}) expired on {}; the finding is reported again (reason was: {})",
                    s.rule,
                    s.source,
                    show_date(exp),
                    s.reason
                ));
                continue;
            }
            suppressed.push(Suppressed {
                rule_id: f.rule_id.clone(),
                severity: f.severity,
                title: f.title.clone(),
                count: f.count,
                paths: f.paths.clone(),
                fingerprint: f.fingerprint.clone(),
                reason: s.reason.clone(),
                expires: s.expires.map(show_date),
                source: s.source.clone(),
            });
            continue 'finding;
        }
        if let Some(b) = &baseline {
            f.baseline_state = Some(
                if b.contains(&(f.rule_id.as_str(), f.fingerprint.as_str())) {
                    BaselineState::Unchanged
                } else {
                    BaselineState::New
                },
            );
        }
        kept.push(f);
    }
    for (i, s) in gate.suppressions.iter().enumerate() {
        if !used.contains(&i) && s.source != "--ignore" {
            notices.push(format!(
                "the suppression of {} ({}) matched no finding; remove it if the problem is gone",
                s.rule, s.source
            ));
        }
    }
    // Symptoms of suppressed causes keep their links only to what is still reported.
    let present: BTreeSet<String> = kept.iter().map(|f| f.rule_id.clone()).collect();
    for f in &mut kept {
        f.caused_by.retain(|c| present.contains(c));
        f.symptoms.retain(|c| present.contains(c));
    }
    for f in &mut kept {
        f.failing =
            gate.fail_on.trips(f.severity) && f.baseline_state != Some(BaselineState::Unchanged);
    }
    let failed = kept.iter().any(|f| f.failing);
    GateResult {
        findings: kept,
        suppressed,
        notices,
        failed,
    }
}

/// Whether `path` matches `glob`: `*` any run without `/`, `**` any run, `?` one char.
pub(crate) fn glob_match(glob: &str, path: &str) -> bool {
    fn go(g: &[u8], p: &[u8]) -> bool {
        match g.split_first() {
            None => p.is_empty(),
            Some((b'*', rest)) if rest.first() == Some(&b'*') => {
                let rest = rest[1..].strip_prefix(b"/").unwrap_or(&rest[1..]);
                (0..=p.len()).any(|i| go(rest, &p[i..]))
            }
            Some((b'*', rest)) => (0..=p.len())
                .take_while(|i| *i == 0 || p[i - 1] != b'/')
                .any(|i| go(rest, &p[i..])),
            Some((b'?', rest)) => !p.is_empty() && p[0] != b'/' && go(rest, &p[1..]),
            Some((c, rest)) => p.first() == Some(c) && go(rest, &p[1..]),
        }
    }
    go(glob.as_bytes(), path.as_bytes())
}

/// Civil date (`YYYYMMDD`, UTC) of a Unix time.
pub(crate) fn yyyymmdd_from_unix(secs: u64) -> u32 {
    let Some(date) = i64::try_from(secs)
        .ok()
        .and_then(|s| jiff::Timestamp::from_second(s).ok())
        .map(|t| jiff::tz::TimeZone::UTC.to_datetime(t).date())
    else {
        return 0;
    };
    let ymd =
        i32::from(date.year()) * 10_000 + i32::from(date.month()) * 100 + i32::from(date.day());
    u32::try_from(ymd).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finding::Severity;
    use std::collections::BTreeMap;

    fn finding(id: &str, severity: Severity, path: &str) -> Finding {
        Finding {
            rule_id: id.into(),
            severity,
            layer: crate::finding::Layer::Signature,
            family: "x".into(),
            title: id.into(),
            count: 2,
            inputs: 1,
            evidence: vec![],
            facts: BTreeMap::new(),
            names: BTreeMap::new(),
            remediation: String::new(),
            commands: vec![],
            docs: vec![],
            caused_by: vec![],
            symptoms: vec![],
            edits: Vec::new(),
            paths: vec![path.into()],
            failing: false,
            fingerprint: format!("fp-{id}"),
            baseline_state: None,
        }
    }

    fn gate(suppressions: Vec<Suppression>) -> Gate {
        Gate {
            fail_on: FailOn::Error,
            suppressions,
            baseline: None,
            today: 20261129,
            base: Some(std::path::PathBuf::from("/work")),
        }
    }

    fn sup(rule: &str, expires: Option<u32>, path: Option<&str>) -> Suppression {
        Suppression {
            rule: rule.into(),
            reason: "accepted".into(),
            expires,
            path: path.map(str::to_owned),
            source: ".amldoctor.yaml: suppressions[0]".into(),
        }
    }

    #[test]
    fn suppressions_with_expiry_and_path() {
        let findings = || {
            vec![
                finding("a", Severity::Error, "logs/legacy/x.log"),
                finding("b", Severity::Warning, "logs/new/y.log"),
            ]
        };
        let out = apply(&gate(vec![sup("a", Some(20261129), None)]), findings());
        assert_eq!(out.suppressed.len(), 1);
        assert_eq!(out.suppressed[0].expires.as_deref(), Some("2026-11-29"));
        assert!(!out.failed, "the expiry day itself still suppresses");

        let out = apply(&gate(vec![sup("a", Some(20261128), None)]), findings());
        assert!(out.suppressed.is_empty());
        assert!(out.failed);
        assert!(
            out.notices[0].contains("expired on 2026-11-28"),
            "{:?}",
            out.notices
        );

        let out = apply(
            &gate(vec![sup("a", None, Some("logs/legacy/**"))]),
            findings(),
        );
        assert_eq!(out.suppressed.len(), 1);
        let out = apply(&gate(vec![sup("a", None, Some("logs/new/*"))]), findings());
        assert!(out.suppressed.is_empty());
        // The same input given as ./logs/… or /work/logs/… matches too.
        for p in ["./logs/legacy/x.log", "/work/logs/legacy/x.log"] {
            let out = apply(
                &gate(vec![sup("a", None, Some("logs/legacy/**"))]),
                vec![finding("a", Severity::Error, p)],
            );
            assert_eq!(out.suppressed.len(), 1, "{p}");
        }
        // A finding without inputs is not covered by a path-scoped suppression.
        let mut pathless = finding("a", Severity::Error, "x");
        pathless.paths.clear();
        let out = apply(&gate(vec![sup("a", None, Some("**"))]), vec![pathless]);
        assert!(out.suppressed.is_empty());
        assert!(
            out.notices[0].contains("matched no finding"),
            "{:?}",
            out.notices
        );
    }

    #[test]
    fn baseline_only_new_findings_fail() {
        let base = BaselineFile::from_findings(&[finding("a", Severity::Error, "x")]);
        let text = serde_json::to_string(&base).unwrap();
        let mut g = gate(vec![]);
        g.baseline = Some(BaselineFile::parse(&text).unwrap());
        let out = apply(&g, vec![finding("a", Severity::Error, "x")]);
        assert_eq!(
            out.findings[0].baseline_state,
            Some(BaselineState::Unchanged)
        );
        assert!(!out.failed);
        let out = apply(
            &g,
            vec![
                finding("a", Severity::Error, "x"),
                finding("c", Severity::Error, "x"),
            ],
        );
        assert_eq!(out.findings[1].baseline_state, Some(BaselineState::New));
        assert!(out.failed);
        assert!(BaselineFile::parse("{}").is_err());
        assert!(
            BaselineFile::parse("{\"schema_version\": 9, \"findings\": []}")
                .unwrap_err()
                .contains("not supported")
        );
    }

    #[test]
    fn globs() {
        assert!(glob_match("logs/**", "logs/a/b/c.log"));
        assert!(glob_match("**/*.log", "x/y.log"));
        assert!(glob_match("*.log", "y.log"));
        assert!(!glob_match("*.log", "x/y.log"));
        assert!(glob_match("logs/?.txt", "logs/a.txt"));
        assert!(!glob_match("logs/?.txt", "logs/ab.txt"));
    }

    #[test]
    fn dates() {
        assert_eq!(yyyymmdd_from_unix(0), 19700101);
        assert_eq!(yyyymmdd_from_unix(951_782_400), 20000229);
        assert_eq!(yyyymmdd_from_unix(1_795_910_400), 20261129);
    }
}
