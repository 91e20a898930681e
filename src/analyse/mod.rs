//! One way from evidence to findings for every findings command. A command resolves
//! its options, has a source gather the [`Evidence`] (local paths, a bundle read from
//! Azure, Resource Graph rows, Log Analytics lines, a scoring probe's answers), calls
//! [`analyse`], and hands the result to the shared tail (gate, report, exit code).
//! Nothing here prints or talks to Azure.

mod advisory;
pub(crate) mod analyser;
pub(crate) mod dns_hosts;
pub(crate) mod fleet;
pub(crate) mod gather;
pub(crate) mod incidents;
pub(crate) mod log_analytics;
pub(crate) mod origins;
pub(crate) mod placeholders;
pub(crate) mod replicas;
mod scan;
pub(crate) mod selection;
pub(crate) mod spec_commands;
mod wrappers;

use crate::checks::CheckOptions;
use crate::engine::Analysis;
use crate::error::Error;
use crate::evidence::DocumentKind;
use crate::finding::NotAnalysed;
use crate::finding::{Evidence as EvidenceLine, Finding};
use crate::report::findings::{InputReport, ResourceReport, RuleRef};
use crate::report::section::{Section, Sections};
use crate::rules::RuleSet;
use crate::rules::template::Placeholders;

use analyser::{ANALYSERS, Phase, Sink, Subject};
pub(crate) use gather::{Evidence, ReadMode, gather};
pub(crate) use selection::Selection;

/// How a run analyses, resolved from its flags before any work.
#[derive(Debug, Clone)]
pub(crate) struct Options {
    pub(crate) selection: Selection,
    /// `--rps`, `--latency` and the time of the run, for the configuration checks.
    pub(crate) checks: CheckOptions,
    /// The run's values for command placeholders (flags, project file, bundle).
    pub(crate) names: Placeholders,
    /// Documents scanned at once.
    pub(crate) jobs: usize,
    /// `--kind`: every text input read as this kind.
    pub(crate) kind: Option<DocumentKind>,
    /// The cloud's name, for the DNS suffixes its hosts must have.
    pub(crate) cloud: String,
    /// `--expect-cidr`: where private answers must fall.
    pub(crate) expect_cidrs: Vec<ipnet::IpNet>,
    /// Azure's own workspace diagnosis among the resources becomes findings.
    pub(crate) workspace_diagnosis: bool,
}

impl Options {
    pub(crate) fn new(selection: Selection, names: Placeholders) -> Options {
        Options {
            selection,
            checks: CheckOptions::default(),
            names,
            jobs: 1,
            kind: None,
            cloud: String::new(),
            expect_cidrs: Vec::new(),
            workspace_diagnosis: false,
        }
    }
}

/// What a run found and read, before the gate.
#[derive(Debug, Default)]
pub(crate) struct Analysed {
    pub(crate) findings: Vec<Finding>,
    pub(crate) inputs: Vec<InputReport>,
    pub(crate) resources: Vec<ResourceReport>,
    pub(crate) not_analysed: Vec<NotAnalysed>,
    pub(crate) sections: Sections,
    /// Inputs a service answered rather than files.
    pub(crate) remote_inputs: u64,
    /// The last error-like lines seen, shown when nothing was found.
    pub(crate) error_lines: Vec<EvidenceLine>,
    /// Inputs the user named that could not be used: each one `error:` line, exit 2.
    pub(crate) input_errors: Vec<Error>,
    /// Each one `warning:` line on stderr.
    pub(crate) warnings: Vec<String>,
    /// Rules the run applied (JUnit lists the ones that passed).
    pub(crate) rules: Vec<RuleRef>,
    /// The run's values for command placeholders.
    pub(crate) names: Placeholders,
    /// Azure names the inputs hold (`(input, placeholder, value)`, each once).
    pub(crate) names_seen: Vec<(String, &'static str, String)>,
    /// Placeholders no input or flag filled, each with where to get it.
    pub(crate) missing_names: Vec<crate::rules::template::MissingName>,
    /// `lint --fix-suggestions`: the text of every file read, by the path findings
    /// name, to turn the findings' edits into edited lines once the gate has run.
    pub(crate) fix_texts: Option<std::collections::BTreeMap<String, String>>,
}

impl Analysed {
    /// Inputs analysed: files and standard input, resources, the hosts DNS answers are
    /// about, and what a service answered (a scoring probe's endpoint).
    pub(crate) fn inputs_analysed(&self) -> u64 {
        let mut hosts: Vec<&str> = self
            .sections
            .dns()
            .iter()
            .map(|o| o.host.as_str())
            .collect();
        hosts.sort_unstable();
        hosts.dedup();
        (self.inputs.len() + self.resources.len() + hosts.len()) as u64 + self.remote_inputs
    }
}

/// The engine and every analyser over `evidence`.
pub(crate) fn analyse(set: &RuleSet, evidence: Evidence, options: &Options) -> Analysed {
    let mut a = Analysed {
        names: options.names.clone(),
        remote_inputs: evidence.remote_inputs,
        not_analysed: evidence.notes,
        input_errors: evidence.errors,
        ..Analysed::default()
    };
    let mut analysis = Analysis::new();
    let scanned = if evidence.scan {
        scan::scan(set, options, &evidence.inputs, &mut analysis, &mut a)
    } else {
        scan::Scanned::default()
    };
    a.not_analysed.extend(gather::bundle_gaps(&evidence.inputs));
    let bundles: Vec<String> = evidence
        .inputs
        .bundles
        .iter()
        .map(|(dir, _)| dir.display().to_string())
        .collect();
    let resources = evidence.resources;
    let mut subject = Subject {
        set,
        options,
        resources: &resources.resources,
        dns: &resources.dns,
        documents: &scanned.documents,
        trees: scanned.trees,
        lint: evidence.lint,
        scoring: evidence.scoring,
        rehearsal: evidence.rehearsal,
    };
    let mut sink = Sink::default();
    run_phase(
        Phase::BeforeResourceRules,
        &mut subject,
        &mut sink,
        &mut analysis,
    );
    let selection = options.selection;
    analysis.add_resources(set, &resources.resources, &|r| selection.resource_rule(r));
    run_phase(
        Phase::AfterResourceRules,
        &mut subject,
        &mut sink,
        &mut analysis,
    );
    for s in sink.sections {
        a.sections.push(s);
    }
    let trees: Vec<&crate::prs::summary::PrsSummary> = a.sections.prs().collect();
    let incidents = incidents::Incidents::new(
        bundles,
        trees.iter().map(|t| t.root.clone()),
        resources.resources.iter().map(|r| r.path.clone()),
    );
    let mut findings = analysis.finish(set, &|x, y| incidents.share(x, y));
    for f in &mut findings {
        if f.rule_id == crate::checks::unrecognised::RULE_ID {
            f.layer = crate::finding::Layer::Unrecognised;
        }
    }
    // Findings Azure explained join the engine's; then every template is filled once.
    findings.extend(sink.findings);
    wrappers::fold(&mut findings, set);
    if selection == Selection::Lint {
        spec_commands::apply(&mut findings);
    }
    let tree_files: Vec<&str> = a
        .inputs
        .iter()
        .filter(|i| i.prs_tree.is_some())
        .map(|i| i.path.as_str())
        .collect();
    a.missing_names = placeholders::fill(
        &mut findings,
        &placeholders::Sources {
            run: &options.names,
            seen: &a.names_seen,
            incidents: &incidents,
            trees: &trees,
            tree_files: &tree_files,
        },
    );
    advisory::calibrate(&mut findings, set);
    a.findings = crate::engine::order(findings);
    let judged_dns = !resources.dns.is_empty();
    if judged_dns {
        a.sections.push(Section::Dns(resources.dns));
    }
    let rps = options.checks.rps.is_some();
    a.rules = rule_refs(set, &|r| selection.applied(r, rps, judged_dns));
    a.resources.extend(resources.reports);
    a.not_analysed.extend(resources.not_analysed);
    a.input_errors.extend(resources.errors);
    a.warnings.extend(resources.warnings);
    a
}

/// Runs the analysers of `phase`, adding what they conclude to `analysis`.
fn run_phase(phase: Phase, subject: &mut Subject<'_>, sink: &mut Sink, analysis: &mut Analysis) {
    for analyser in ANALYSERS.iter().filter(|a| a.phase() == phase) {
        analyser.check(subject, sink);
        for c in sink.computed.drain(..) {
            if let Some(index) = subject.set.index_of(c.rule_id) {
                analysis.add_computed(index, c);
            }
        }
    }
}

/// The rules a run applied, for reports.
pub(crate) fn rule_refs(
    set: &RuleSet,
    selected: &dyn Fn(&crate::rules::Rule) -> bool,
) -> Vec<RuleRef> {
    set.rules
        .iter()
        .filter(|r| selected(r))
        .map(|rule| {
            // A DNS check reads answers, not documents of any kind.
            let dns = rule.resource_kinds == 0
                && rule.check == Some(crate::rules::resource::CheckArea::Dns);
            RuleRef {
                id: rule.id.clone(),
                family: rule.family.clone(),
                severity: rule.severity,
                title: rule.title.clone(),
                reads: DocumentKind::ALL
                    .into_iter()
                    .filter(|k| !dns && rule.applies_to(*k))
                    .collect(),
                resources: crate::evidence::resource::ResourceKind::ALL
                    .into_iter()
                    .filter(|k| rule.reads_resource(*k))
                    .collect(),
                dns,
            }
        })
        .collect()
}
