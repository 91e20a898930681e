//! The report every findings command prints (`diagnose`, `check`): findings plus the
//! sections a command fills (inputs read, resources read, ParallelRunStep summaries).
//! Every writer (`table.rs`, `json.rs`, `sarif.rs`, …) reads the same [`Report`].

use serde::Serialize;

use crate::evidence::{DocumentKind, KindSource};
use crate::finding::{Evidence, FailOn, Finding, NotAnalysed, Severity};

/// One analysed input and the kind it was read as.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct InputReport {
    pub path: String,
    pub kind: DocumentKind,
    /// The kinds of the input's other sections (a paste of `az` output, pod events and
    /// container lines), whose rules read it too.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub also_read_as: Vec<DocumentKind>,
    pub kind_source: KindSource,
    pub lines: u64,
    pub bytes: u64,
    /// Lines longer than the scanner's buffer, scanned in pieces.
    pub long_lines: u64,
    /// The ParallelRunStep tree (its root) the input belongs to, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prs_tree: Option<String>,
}

impl ResourceReport {
    /// What a report says of a resource read, with control characters neutralised.
    pub fn of(r: &crate::evidence::resource::Resource) -> ResourceReport {
        let clean = |s: &str| crate::redact::clean(s).into_owned();
        ResourceReport {
            path: r.path.clone(),
            pointer: clean(&r.base),
            kind: r.kind,
            shape: r.shape,
            name: r.name.as_deref().map(clean),
            id: r.id.as_deref().map(clean),
        }
    }
}

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Summary {
    pub errors: u64,
    pub warnings: u64,
    pub infos: u64,
    /// Findings taken out by `--ignore` or a suppression.
    pub suppressed: u64,
    /// Findings that are in the baseline (reported, not failing).
    pub baseline_unchanged: u64,
    pub inputs_analysed: u64,
    pub inputs_not_analysed: u64,
    pub rules: u64,
    pub fail_on: FailOn,
    /// Whether the gate failed (exit code 1).
    pub failed: bool,
}

/// A rule as report writers need it (JUnit lists passing rules too).
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct RuleRef {
    pub id: String,
    pub family: String,
    pub severity: Severity,
    pub title: String,
    pub reads: Vec<DocumentKind>,
    /// The resource kinds a rule over resources reads.
    pub resources: Vec<crate::evidence::resource::ResourceKind>,
    /// The rule judges DNS answers (one JUnit case per host).
    pub dns: bool,
}

/// A resource read from JSON, and what it was read as.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct ResourceReport {
    pub path: String,
    /// Where in the file (`/value/0` for a list element; empty for the whole file).
    pub pointer: String,
    pub kind: crate::evidence::resource::ResourceKind,
    pub shape: crate::evidence::resource::Shape,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
}

/// Everything a findings command reports. Command-neutral: a run adds the sections it
/// has; writer options (SARIF, JUnit, markdown) are handed to the writers, not kept here.
#[derive(Debug, Clone)]
pub struct Report {
    /// The command that made it (`diagnose`, `check`).
    pub command: &'static str,
    pub summary: Summary,
    pub findings: Vec<Finding>,
    /// Values the printed commands need that no flag, file or log gave.
    pub missing_names: Vec<crate::rules::template::MissingName>,
    pub suppressed: Vec<crate::finding::Suppressed>,
    /// Expired or unused suppressions and similar things the user must know.
    pub notices: Vec<String>,
    pub inputs: Vec<InputReport>,
    /// Resources read from JSON inputs.
    pub resources: Vec<ResourceReport>,
    pub not_analysed: Vec<NotAnalysed>,
    /// When no rule fired: the last error-like lines seen, so the user has a lead.
    pub last_error_lines: Vec<Evidence>,
    /// The parts only some runs have, in the order writers print them.
    pub sections: super::section::Sections,
    /// The rules that were applied (JUnit uses it for passing cases).
    pub rules: Vec<RuleRef>,
    /// Findings left out of this rendering by `--min-severity`, and that level.
    pub not_shown: Option<(u64, crate::finding::Severity)>,
}

/// The report as `-o json` and `-o yaml` print it: the sections become the document's
/// own keys (`prs` always, the others when present), as schema version 1 has them.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[schemars(rename = "Report")]
pub struct ReportDocument<'a> {
    pub summary: &'a Summary,
    pub findings: &'a [Finding],
    /// Values the printed commands need that no flag, file or log gave.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub missing_names: &'a [crate::rules::template::MissingName],
    pub suppressed: &'a [crate::finding::Suppressed],
    /// Expired or unused suppressions and similar things the user must know.
    pub notices: &'a [String],
    pub inputs: &'a [InputReport],
    /// Resources read from JSON inputs.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub resources: &'a [ResourceReport],
    pub not_analysed: &'a [NotAnalysed],
    /// When no rule fired: the last error-like lines seen, so the user has a lead.
    pub last_error_lines: &'a [Evidence],
    /// One summary per ParallelRunStep log tree found among the inputs.
    pub prs: Vec<&'a crate::prs::summary::PrsSummary>,
    /// `rehearse`: the interpreter, the start-up, each request or mini-batch.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rehearsal: Option<&'a crate::rehearsal::summary::RehearsalSummary>,
    /// `score`: the probe's requests, latency and the explanation of each error status.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<&'a crate::scoring::summary::ScoreSummary>,
    /// `check --fleet`: the Resource Graph query and the workspaces, worst first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fleet: Option<&'a super::fleet::FleetSummary>,
    /// `diagnose --log-analytics`: the query, and the lines read per endpoint,
    /// deployment and instance, by hour.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub log_analytics: Option<&'a crate::evidence::log_analytics::LogAnalyticsSummary>,
    /// What each DNS server answered for each host checked.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub dns: &'a [crate::evidence::dns::DnsObservation],
    /// `lint --fix-suggestions`: the edited lines of each file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix_suggestions: Option<&'a crate::lint::fix::FixSuggestions>,
}

impl Report {
    /// The document `-o json` and `-o yaml` print.
    pub fn document(&self) -> ReportDocument<'_> {
        ReportDocument {
            summary: &self.summary,
            findings: &self.findings,
            missing_names: &self.missing_names,
            suppressed: &self.suppressed,
            notices: &self.notices,
            inputs: &self.inputs,
            resources: &self.resources,
            not_analysed: &self.not_analysed,
            last_error_lines: &self.last_error_lines,
            prs: self.sections.prs().collect(),
            rehearsal: self.sections.rehearsal(),
            score: self.sections.score(),
            fleet: self.sections.fleet(),
            log_analytics: self.sections.log_analytics(),
            dns: self.sections.dns(),
            fix_suggestions: self.sections.fix_suggestions(),
        }
    }
}

impl Report {
    /// The report as a format shows it: findings below `min` left out (and counted),
    /// the summary and the verdict unchanged.
    pub fn shown_from(&self, min: crate::finding::Severity) -> std::borrow::Cow<'_, Report> {
        let below = self.findings.iter().filter(|f| f.severity < min).count() as u64;
        if below == 0 {
            return std::borrow::Cow::Borrowed(self);
        }
        let mut r = self.clone();
        r.findings.retain(|f| f.severity >= min);
        r.not_shown = Some((below, min));
        // Only the names the shown commands and fixes still need.
        let shown = &r.findings;
        r.missing_names.retain(|m| {
            shown.iter().any(|f| {
                f.remediation.contains(&m.placeholder)
                    || f.commands.iter().any(|c| c.contains(&m.placeholder))
            })
        });
        if let Some(fixes) = r.sections.fix_suggestions_mut() {
            let ids: Vec<String> = r.findings.iter().map(|f| f.rule_id.clone()).collect();
            fixes.retain_rules(&|id| ids.iter().any(|i| i == id));
        }
        std::borrow::Cow::Owned(r)
    }
}
