//! The one seam every analyser plugs into (cargo-deny's `check(ctx, sink)`): an analyser
//! names the computed rules it owns and pushes what it concludes into a [`Sink`]. The
//! rule loader takes its computed ids from [`ANALYSERS`], so rules never import an
//! analyser, and `analyse` runs them all in one place, so findings are ordered once.

use crate::evidence::DocumentKind;
use crate::evidence::dns::DnsObservation;
use crate::evidence::resource::{Resource, ResourceKind};
use crate::finding::{Computed, Evidence, Finding};
use crate::prs;
use crate::report::section::Section;
use crate::rules::RuleSet;

use super::Options;
use super::gather::Scoring;

/// What the analysers look at: the scan's results and the evidence gathered.
#[derive(Debug)]
pub(crate) struct Subject<'a> {
    pub(crate) set: &'a RuleSet,
    pub(crate) options: &'a Options,
    pub(crate) resources: &'a [Resource],
    pub(crate) dns: &'a [DnsObservation],
    /// Every text document scanned, in input order.
    pub(crate) documents: &'a [ScannedDocument],
    /// The ParallelRunStep trees among the inputs, with their parsed files.
    pub(crate) trees: Vec<ParsedTree>,
    /// What `lint` concluded while reading the files.
    pub(crate) lint: Vec<Computed>,
    pub(crate) scoring: Option<Scoring>,
    pub(crate) rehearsal: Option<crate::rehearsal::computed::RehearsalRun>,
}

/// One scanned text document, as the analysers need it.
#[derive(Debug)]
pub(crate) struct ScannedDocument {
    pub(crate) kind: DocumentKind,
    /// Its first lines that name Azure resources or run `az ml`, for what the failure
    /// was seen on.
    pub(crate) name_lines: Vec<String>,
    /// Its last line that is not blank.
    pub(crate) final_line: Option<Evidence>,
    pub(crate) lines: u64,
    /// Its last error-like lines.
    pub(crate) last_errors: Vec<Evidence>,
    /// The lines right after them, which often say why.
    pub(crate) after_errors: Vec<Evidence>,
    /// The rules that fired on it.
    pub(crate) fired: Vec<usize>,
    /// It is a file of a ParallelRunStep tree (the tree's analyser speaks for it).
    pub(crate) in_tree: bool,
}

impl ScannedDocument {
    /// What its failure was seen on, from the lines the scan kept: the commands run and
    /// resources named, the error lines and those after them, and the document's kind. Asked only of a
    /// failure no rule explained, so no document pays for it otherwise.
    pub(crate) fn surface(&self) -> Option<crate::evidence::surface::Surface> {
        let kept = self.last_errors.iter().chain(&self.after_errors);
        let lines = self
            .name_lines
            .iter()
            .map(String::as_str)
            .chain(kept.map(|e| e.text.as_str()));
        crate::evidence::surface::Surface::detect(self.kind, lines)
    }
}

/// A ParallelRunStep tree: its `logs/` root and its files as the parser read them.
#[derive(Debug)]
pub(crate) struct ParsedTree {
    pub(crate) root: std::path::PathBuf,
    pub(crate) files: Vec<prs::summary::ParsedFile>,
}

/// Where analysers put what they conclude.
#[derive(Debug, Default)]
pub(crate) struct Sink {
    /// Findings under a computed rule of the catalogue.
    pub(crate) computed: Vec<Computed>,
    /// Findings the service itself explained (codes no rule file has).
    pub(crate) findings: Vec<Finding>,
    pub(crate) sections: Vec<Section>,
}

/// When an analyser runs, relative to the field tests of the resource rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Phase {
    /// Before: rules that need another finding (`with-finding`) see these.
    BeforeResourceRules,
    AfterResourceRules,
}

/// An analyser: code that decides what patterns cannot.
pub(crate) trait Analyser: Sync {
    /// The computed rules it reports under (each has a rule file with `computed: true`).
    fn rule_ids(&self) -> Vec<&'static str>;
    fn phase(&self) -> Phase {
        Phase::BeforeResourceRules
    }
    fn check(&self, subject: &mut Subject<'_>, sink: &mut Sink);
}

/// Every analyser, in the order they run within a phase.
pub(crate) static ANALYSERS: &[&dyn Analyser] = &[
    &Unrecognised,
    &ParallelRunStep,
    &ConfigChecks,
    &Scoring_,
    &Rehearsal,
    &Lint,
    &Dns,
    &WorkspaceDiagnosis,
];

/// The ids every analyser computes, handed to the rule loader.
pub(crate) fn computed_rule_ids() -> Vec<&'static str> {
    ANALYSERS.iter().flat_map(|a| a.rule_ids()).collect()
}

/// A failing input no rule explained, whose error block names the service's code,
/// gets a finding for that code; without one, the unrecognised-failure finding.
struct Unrecognised;

impl Analyser for Unrecognised {
    fn rule_ids(&self) -> Vec<&'static str> {
        let mut ids = vec![
            crate::checks::unrecognised::RULE_ID,
            crate::checks::service_errors::RULE_ID,
        ];
        ids.extend(crate::checks::cause_category::rule_ids());
        ids
    }

    fn check(&self, subject: &mut Subject<'_>, sink: &mut Sink) {
        use crate::checks::unrecognised;
        for d in subject.documents.iter().filter(|d| !d.in_tree) {
            // A wrapper code's rule (`caused-by: ['*']`) and an advisory do not explain
            // a failure: the message under the wrapper may still name the cause.
            let rules = || d.fired.iter().map(|i| &subject.set.rules[*i]);
            let explained = rules().any(|rule| {
                rule.severity >= crate::finding::Severity::Warning
                    && !rule.is_wrapper()
                    && !rule.advisory
                    || unrecognised::EXPLAINS_NOISE.contains(&rule.id.as_str())
            });
            let wrapped = rules().any(|r| r.severity >= crate::finding::Severity::Warning);
            if !explained && d.kind != crate::evidence::DocumentKind::Prs {
                unexplained_failure(subject.set, d, wrapped, sink);
            }
        }
    }
}

/// What a document no rule explained shows: each error the service reported, else its
/// last failure; each under the rule that claims its code, else the cause category its
/// words name, else under the service-error or unrecognised-failure rule.
/// With `wrapped` (a wrapper code's rule or an advisory fired), only a claiming rule or
/// a cause category is added: the generic service-error and unrecognised findings would
/// repeat it.
fn unexplained_failure(set: &RuleSet, d: &ScannedDocument, wrapped: bool, sink: &mut Sink) {
    use crate::checks::{cause_category, service_errors, unrecognised};
    use crate::evidence::service_error;
    let rule = |id: &str| set.index_of(id).map(|i| &set.rules[i]);
    let known = |code: &str| {
        set.rules
            .iter()
            .any(|r| r.codes.iter().any(|c| c.eq_ignore_ascii_case(code)))
    };
    // A paste that ends on `(Code) Message`, or a short one that ends on an error's
    // code key, ended on the service's error, though no error literal kept that line.
    let mut errors = std::borrow::Cow::Borrowed(d.last_errors.as_slice());
    let short = d.lines <= unrecognised::SHORT_PASTE;
    if let Some(f) = &d.final_line
        && (service_error::holds_paren_code(&f.text)
            || short && service_error::holds_code_key(&f.text))
        && !errors
            .iter()
            .any(|e| e.location.line() == f.location.line())
    {
        errors.to_mut().push(f.clone());
    }
    let said = service_errors::check(&errors, &known);
    let last_failure = || {
        unrecognised::check(d.kind, d.lines, &d.last_errors, d.final_line.as_ref())
            .filter(|f| !unrecognised::answered(f, &d.after_errors))
            .or_else(|| unrecognised::template_failure(d.kind, &d.last_errors, &d.after_errors))
    };
    if !said.is_empty() {
        for (error, mut c) in said {
            if unrecognised::answered(&c, &d.after_errors) {
                continue;
            }
            // The codes are the service's own classification; the message, read after
            // them, decides when they are wrappers that say nothing; when neither says
            // what kind of failure it was, the lines around it may (a `Connection error`
            // whose traceback holds the certificate that was refused).
            let codes = error.codes.join(" ");
            let id = match claiming_rule(set, error.specific())
                .or_else(|| {
                    let said = std::iter::once(&error.message).chain(&error.details);
                    cause_category::rank(&codes, said.map(String::as_str))
                })
                .or_else(|| last_failure().and_then(|f| failure_category(d, &f)))
            {
                Some(id) => id,
                // Only the wrapper's own code: its rule already said it.
                None if wrapped && service_error::WRAPPERS.contains(&error.specific()) => continue,
                None => service_errors::RULE_ID,
            };
            // A wrapper code's explanation is what the message just overruled.
            if id != service_errors::RULE_ID && service_error::WRAPPERS.contains(&error.specific())
            {
                c.commands.retain(|cmd| *cmd != service_errors::EXPLAIN);
            }
            if let Some(r) = rule(id).filter(|r| !d.fired.iter().any(|i| set.rules[*i].id == r.id))
            {
                sink.findings
                    .push(service_errors::as_finding(r, c, d.surface()));
            }
        }
        return;
    }
    let Some(mut found) = last_failure() else {
        return;
    };
    match failure_category(d, &found).and_then(rule) {
        Some(r) => {
            // The category rules quote `message`: the line whose words placed the failure
            // (a certificate refused, above the `ConnectionError` that ended the paste),
            // else the failing line, which is then not repeated as `last_error`.
            let last = found.facts.get("last_error").cloned().unwrap_or_default();
            let first = found.evidence.first().map_or(0, |e| e.location.line());
            let after = d.after_errors.iter().filter(|e| e.location.line() > first);
            let lines = std::iter::once(last.as_str()).chain(
                found
                    .evidence
                    .iter()
                    .chain(after)
                    .chain(&d.last_errors)
                    .map(|e| e.text.as_str()),
            );
            let message = cause_category::deciding_line(&r.id, lines)
                .unwrap_or(&last)
                .trim()
                .to_owned();
            if message == last.trim() {
                found.facts.remove("last_error");
            }
            found.facts.insert("message".to_owned(), message);
            sink.findings
                .push(service_errors::as_finding(r, found, d.surface()));
        }
        None if wrapped => {}
        None => sink.computed.push(found),
    }
}

/// The cause category of a document's last failure (`found`, the unrecognised-failure
/// finding): its failing line weighs most, the lines before and right after it count
/// too, since the sentence that names the cause is often one line above the exception
/// that ends the paste; an exception no words place is the user's when their own code
/// raised it.
fn failure_category(d: &ScannedDocument, found: &Computed) -> Option<&'static str> {
    use crate::checks::cause_category;
    let last = found.facts.get("last_error").map_or("", String::as_str);
    let first = found.evidence.first().map_or(0, |e| e.location.line());
    let after = d.after_errors.iter().filter(|e| e.location.line() > first);
    let context = || {
        found
            .evidence
            .iter()
            .chain(after.clone())
            .map(|e| e.text.as_str())
    };
    let user = || {
        let lines = d.last_errors.iter().map(|e| e.text.as_str());
        cause_category::user_script(last, lines).then_some(cause_category::USER_SCRIPT)
    };
    // A wrapper that ends the paste (`ActivityFailedException: Activity Failed`) leaves
    // the cause to an error further up: the document's error lines, last.
    let earlier = || cause_category::rank("", d.last_errors.iter().map(|e| e.text.as_str()));
    cause_category::classify(last)
        .and_then(|_| cause_category::rank(last, context()))
        .or_else(user)
        .or_else(|| cause_category::rank("", context()))
        .or_else(earlier)
}

/// The rule whose `codes` claim `code`: the only one, or the one marked `usual`.
fn claiming_rule<'s>(set: &'s RuleSet, code: &str) -> Option<&'s str> {
    let claims: Vec<&crate::rules::Rule> = set
        .rules
        .iter()
        .filter(|r| !r.computed && r.codes.iter().any(|c| c.eq_ignore_ascii_case(code)))
        .collect();
    let wrapper = crate::evidence::service_error::WRAPPERS.contains(&code);
    match claims.as_slice() {
        _ if wrapper => None,
        [one] => Some(one.id.as_str()),
        many => many.iter().find(|r| r.usual).map(|r| r.id.as_str()),
    }
}

/// The job summary and computed findings of each ParallelRunStep tree.
struct ParallelRunStep;

impl Analyser for ParallelRunStep {
    fn rule_ids(&self) -> Vec<&'static str> {
        prs::computed_rule_ids()
    }

    fn check(&self, subject: &mut Subject<'_>, sink: &mut Sink) {
        for tree in std::mem::take(&mut subject.trees) {
            // Computed findings without a line of their own point at the job's result
            // file (or the first file read), so every report format has a location.
            let anchor = tree
                .files
                .iter()
                .find(|f| f.role == prs::tree::Role::JobResult)
                .or_else(|| tree.files.first())
                .map(|f| f.path.clone());
            let root_name = tree.root.display().to_string();
            let (summary, computed) = prs::aggregate::analyze(&root_name, tree.files);
            for mut c in computed {
                if c.evidence.is_empty()
                    && let Some(path) = &anchor
                {
                    c.evidence.push(Evidence::computed_in(
                        path.clone(),
                        format!("computed from the ParallelRunStep tree {root_name}"),
                    ));
                }
                sink.computed.push(c);
            }
            sink.sections.push(Section::Prs(Box::new(summary)));
        }
    }
}

/// Configuration checks that need arithmetic over several settings.
struct ConfigChecks;

impl Analyser for ConfigChecks {
    fn rule_ids(&self) -> Vec<&'static str> {
        crate::checks::REGISTRY.iter().map(|c| c.rule_id).collect()
    }

    fn check(&self, subject: &mut Subject<'_>, sink: &mut Sink) {
        let (set, selection) = (subject.set, subject.options.selection);
        let selected = |id: &str| set.get(id).is_some_and(|r| selection.resource_rule(r));
        sink.computed.extend(crate::checks::run(
            subject.resources,
            &subject.options.checks,
            &selected,
        ));
    }
}

/// What a scoring probe's answers say.
struct Scoring_;

impl Analyser for Scoring_ {
    fn rule_ids(&self) -> Vec<&'static str> {
        crate::scoring::computed_rule_ids()
    }

    fn check(&self, subject: &mut Subject<'_>, sink: &mut Sink) {
        if let Some(s) = subject.scoring.take() {
            sink.computed
                .extend(crate::scoring::computed::compute(&s.summary, &s.samples));
            sink.sections.push(Section::Score(Box::new(s.summary)));
        }
    }
}

/// What a local rehearsal recorded: its section, and what only a run shows.
struct Rehearsal;

impl Analyser for Rehearsal {
    fn rule_ids(&self) -> Vec<&'static str> {
        crate::rehearsal::COMPUTED_RULES.to_vec()
    }

    fn check(&self, subject: &mut Subject<'_>, sink: &mut Sink) {
        if let Some(r) = subject.rehearsal.take() {
            sink.computed
                .extend(crate::rehearsal::computed::compute(&r));
            sink.sections.push(Section::Rehearsal(Box::new(r.summary)));
        }
    }
}

/// What `lint` found in the files of a deployment (scripts, environments, GPUs).
struct Lint;

impl Analyser for Lint {
    fn rule_ids(&self) -> Vec<&'static str> {
        crate::lint::computed_rule_ids().collect()
    }

    // Lint's own findings never fed the resource rules' `with-finding`.
    fn phase(&self) -> Phase {
        Phase::AfterResourceRules
    }

    fn check(&self, subject: &mut Subject<'_>, sink: &mut Sink) {
        sink.computed.append(&mut subject.lint);
    }
}

/// DNS answers judged against what the resources say they must be.
struct Dns;

impl Analyser for Dns {
    fn rule_ids(&self) -> Vec<&'static str> {
        crate::checks::dns::RULE_IDS.to_vec()
    }

    fn phase(&self) -> Phase {
        Phase::AfterResourceRules
    }

    fn check(&self, subject: &mut Subject<'_>, sink: &mut Sink) {
        use crate::evidence::dns::{CloudSuffixes, private_endpoint_addresses, private_roles};
        let (dns, resources) = (subject.dns, subject.resources);
        if dns.is_empty() {
            return;
        }
        // The workspace's names fill the zone commands (`-g {group}`).
        let names = resources
            .iter()
            .find(|r| r.kind == ResourceKind::Workspace)
            .map(|r| {
                r.names()
                    .into_iter()
                    .filter(|(k, _)| matches!(k.as_str(), "group" | "workspace" | "subscription"))
                    .collect()
            })
            .unwrap_or_default();
        let expect = crate::checks::dns::Expectations {
            private_roles: private_roles(resources),
            cidrs: subject.options.expect_cidrs.clone(),
            endpoint_addresses: private_endpoint_addresses(resources),
            suffixes: CloudSuffixes::of(&subject.options.cloud),
            names,
        };
        sink.computed
            .extend(crate::checks::dns::findings(dns, &expect));
    }
}

/// The workspace diagnose API's own results: Azure's codes, Azure's words.
struct WorkspaceDiagnosis;

impl Analyser for WorkspaceDiagnosis {
    fn rule_ids(&self) -> Vec<&'static str> {
        Vec::new()
    }

    fn phase(&self) -> Phase {
        Phase::AfterResourceRules
    }

    fn check(&self, subject: &mut Subject<'_>, sink: &mut Sink) {
        if subject.options.workspace_diagnosis {
            sink.findings
                .extend(crate::checks::diagnosis::findings(subject.resources));
        }
    }
}
