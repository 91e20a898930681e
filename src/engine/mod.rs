//! The rule engine: scans documents (`scan.rs`), decides which rules fire on each
//! (`evaluate.rs`) and merges the results of all documents into findings, linked cause
//! to symptom and sorted (`Analysis`). Pure: it reads only the streams it is given.

pub(crate) mod evaluate;
pub mod examples;
pub(crate) mod fix;
pub(crate) mod observe;
pub(crate) mod parallel;
pub(crate) mod resource;
pub(crate) mod scan;

#[cfg(test)]
mod tests;

use std::collections::BTreeMap;

use crate::finding::{Evidence, Finding};
use crate::rules::RuleSet;

use evaluate::RuleHit;

/// How many evidence lines a finding keeps over all inputs.
pub const EVIDENCE_KEPT: usize = 5;

/// Collects rule hits from many documents and produces the findings.
#[derive(Debug, Default)]
pub struct Analysis {
    merged: BTreeMap<usize, Merged>,
}

#[derive(Debug)]
struct Merged {
    count: u64,
    inputs: u64,
    paths: Vec<String>,
    evidence: Vec<Evidence>,
    facts: BTreeMap<String, String>,
    /// Names read from resource ids: they fill commands but are not shown as facts.
    names: BTreeMap<String, String>,
    /// Commands a computation put before the rule's own.
    commands: Vec<&'static str>,
    /// Every edit that would fix it, over all inputs.
    edits: Vec<crate::finding::Edit>,
}

impl Analysis {
    pub fn new() -> Analysis {
        Analysis::default()
    }

    /// Adds the rules that fired on the document at `path`. Documents must be added in
    /// a fixed order (the input order) for the output to be deterministic. Text arrives
    /// cleaned (secrets redacted) from the scanner.
    pub fn add(&mut self, path: &str, hits: Vec<RuleHit>) {
        for hit in hits {
            let evidence = hit
                .evidence
                .into_iter()
                .map(|e| {
                    Evidence::at_line(path.to_owned(), e.line, e.text)
                        .matched_at(e.at)
                        .with_columns(e.columns)
                })
                .collect();
            self.merge(
                hit.rule,
                hit.count,
                evidence,
                hit.facts,
                BTreeMap::new(),
                Vec::new(),
            );
        }
    }

    /// Evaluates every resource rule over `resources` and adds what fires. Call it after
    /// the logs were added, so `with-finding` sees the log findings.
    /// Only the rules `selected` says run (`check AREA` and `lint` apply some).
    pub fn add_resources(
        &mut self,
        set: &RuleSet,
        resources: &[crate::evidence::resource::Resource],
        selected: &dyn Fn(&crate::rules::Rule) -> bool,
    ) {
        // Rules that need another finding go second, so they see resource findings too.
        for second in [false, true] {
            let hits = {
                let fired = |id: &str| {
                    set.index_of(id)
                        .and_then(|i| self.merged.get(&i))
                        .map(|m| m.facts.clone())
                };
                let select = |r: &crate::rules::Rule| {
                    selected(r)
                        && r.resource
                            .as_ref()
                            .is_some_and(|m| m.with_finding.is_empty() != second)
                };
                resource::evaluate(set, resources, &fired, &select)
            };
            for h in hits {
                // Lines are resolved only for the evidence a finding keeps.
                let kept = self.merged.get(&h.rule).map_or(0, |m| m.evidence.len());
                let evidence = h
                    .spots
                    .iter()
                    .take(EVIDENCE_KEPT.saturating_sub(kept))
                    .map(|(i, s)| resource::evidence(&resources[*i], s))
                    .collect();
                let paths = h
                    .spots
                    .iter()
                    .map(|(i, _)| resources[*i].path.clone())
                    .collect();
                let edits = fix::edits(&set.rules[h.rule], &resources[h.resource], &h.facts);
                self.merge(h.rule, 1, evidence, h.facts, h.names, paths);
                if let Some(m) = self.merged.get_mut(&h.rule) {
                    m.edits.extend(edits);
                }
            }
        }
    }

    /// Adds a finding computed by code (with evidence from any files) under `rule`.
    pub fn add_computed(&mut self, rule: usize, c: crate::finding::Computed) {
        self.merge(rule, c.count, c.evidence, c.facts, c.names, Vec::new());
        if let Some(m) = self.merged.get_mut(&rule) {
            m.edits.extend(c.edits);
            for command in c.commands {
                if !m.commands.contains(&command) {
                    m.commands.push(command);
                }
            }
        }
    }

    /// Folds one document's (or one computation's) result into the rule's finding: counts
    /// add up, inputs are listed once, evidence is kept up to [`EVIDENCE_KEPT`] lines and
    /// the first value of each fact wins.
    fn merge(
        &mut self,
        rule: usize,
        count: u64,
        evidence: Vec<Evidence>,
        facts: BTreeMap<String, String>,
        names: BTreeMap<String, String>,
        paths: Vec<String>,
    ) {
        let m = self.merged.entry(rule).or_insert_with(|| Merged {
            count: 0,
            inputs: 0,
            paths: Vec::new(),
            evidence: Vec::new(),
            facts: BTreeMap::new(),
            names: BTreeMap::new(),
            commands: Vec::new(),
            edits: Vec::new(),
        });
        m.count += count;
        m.inputs += 1;
        for e in evidence {
            if !m.paths.iter().any(|p| p == e.path()) {
                m.paths.push(e.path().to_owned());
            }
            if m.evidence.len() < EVIDENCE_KEPT {
                m.evidence.push(e);
            }
        }
        for p in paths {
            if !m.paths.contains(&p) {
                m.paths.push(p);
            }
        }
        // A finding about resources takes the facts and names of its first resource,
        // whole: mixing two resources' values would print a command about a deployment
        // of another endpoint, or approve another registry's connection.
        if !names.is_empty() {
            if !m.names.is_empty() {
                return;
            }
            m.names = names;
        }
        for (k, v) in facts {
            m.facts.entry(k).or_insert(v);
        }
    }

    /// The findings: linked cause → symptom, sorted by severity then rule id, with each
    /// symptom placed right after its cause. `share` says whether two findings (by the
    /// inputs each was found in) are of one incident: only then are they linked.
    pub fn finish(
        self,
        set: &RuleSet,
        share: &dyn Fn(&[String], &[String]) -> bool,
    ) -> Vec<Finding> {
        let present: Vec<(&str, &[String])> = self
            .merged
            .iter()
            .map(|(i, m)| (set.rules[*i].id.as_str(), m.paths.as_slice()))
            .collect();
        let mut findings: Vec<Finding> = self
            .merged
            .iter()
            .map(|(index, m)| {
                let rule = &set.rules[*index];
                let mut caused_by: Vec<String> = rule
                    .caused_by
                    .iter()
                    .filter(|c| {
                        present
                            .iter()
                            .any(|(id, paths)| id == c && share(paths, &m.paths))
                    })
                    .cloned()
                    .collect();
                if rule.is_wrapper() {
                    caused_by.extend(wrapped(set, &self.merged, *index, m));
                }
                Finding {
                    rule_id: rule.id.clone(),
                    severity: rule.severity,
                    layer: if rule.computed {
                        crate::finding::Layer::Computed
                    } else {
                        crate::finding::Layer::Signature
                    },
                    family: rule.family.clone(),
                    title: rule.title.clone(),
                    count: m.count,
                    inputs: m.inputs,
                    evidence: m.evidence.clone(),
                    facts: m.facts.clone(),
                    names: m.names.clone(),
                    // Templates: the placeholder pass fills them once every finding is in.
                    remediation: rule.remediation.clone(),
                    commands: m
                        .commands
                        .iter()
                        .copied()
                        .map(str::to_owned)
                        .chain(rule.commands.iter().cloned())
                        .collect(),
                    docs: rule.docs.clone(),
                    caused_by,
                    symptoms: Vec::new(),
                    edits: {
                        let mut edits = m.edits.clone();
                        edits.sort();
                        edits.dedup();
                        edits
                    },
                    paths: m.paths.clone(),
                    fingerprint: crate::finding::fingerprint(
                        &rule.id,
                        &m.evidence.first().map_or_else(String::new, |e| {
                            match e.location.pointer() {
                                // A resource key: which key, and its value.
                                Some(p) => format!("{p} {}", e.text),
                                None => e.text.clone(),
                            }
                        }),
                    ),
                    failing: false,
                    baseline_state: None,
                }
            })
            .collect();
        // Back links: a cause lists its symptoms.
        let links: Vec<(String, String)> = findings
            .iter()
            .flat_map(|f| f.caused_by.iter().map(|c| (c.clone(), f.rule_id.clone())))
            .collect();
        for (cause, symptom) in links {
            if let Some(f) = findings.iter_mut().find(|f| f.rule_id == cause) {
                f.symptoms.push(symptom);
            }
        }
        order(findings)
    }
}

/// The specific errors a wrapper rule (`caused-by: ['*']`) stands for: every other
/// error-level finding on one of its inputs that is not a wrapper itself.
fn wrapped(
    set: &RuleSet,
    merged: &BTreeMap<usize, Merged>,
    wrapper: usize,
    m: &Merged,
) -> Vec<String> {
    merged
        .iter()
        .filter(|(j, other)| {
            let rule = &set.rules[**j];
            **j != wrapper
                && rule.severity == crate::finding::Severity::Error
                && !rule.is_wrapper()
                && other.paths.iter().any(|p| m.paths.contains(p))
        })
        .map(|(j, _)| set.rules[*j].id.clone())
        .collect()
}

/// Severity (highest first), then rule id; then every symptom moves right after the
/// last of its causes, so a reader meets the cause first.
pub fn order(mut findings: Vec<Finding>) -> Vec<Finding> {
    // Within a severity, what happened most comes first (eleven `run()` exceptions
    // before one killed process); symptoms then follow their causes.
    findings.sort_by(|a, b| {
        b.severity
            .cmp(&a.severity)
            .then_with(|| b.count.cmp(&a.count))
            .then_with(|| a.rule_id.cmp(&b.rule_id))
    });
    let (mut pending, mut out): (Vec<Finding>, Vec<Finding>) =
        findings.into_iter().partition(|f| !f.caused_by.is_empty());
    // Place symptoms whose causes are all placed; repeat, so chains (cause → symptom →
    // symptom of the symptom) come out in order. Cycles fall back to severity order.
    while !pending.is_empty() {
        let ready = pending
            .iter()
            .position(|s| {
                s.caused_by
                    .iter()
                    .all(|c| !pending.iter().any(|p| &p.rule_id == c))
            })
            .unwrap_or(0);
        let s = pending.remove(ready);
        // Next to a cause of the same severity; a cause of another severity is linked
        // ("symptom of") but the severity groups stay whole.
        let at = out
            .iter()
            .rposition(|f| s.caused_by.contains(&f.rule_id) && f.severity == s.severity)
            .map_or_else(
                || severity_slot(&out, &s),
                |i| {
                    // After the cause and the symptoms already placed behind it.
                    let mut j = i + 1;
                    while j < out.len()
                        && out[j]
                            .caused_by
                            .iter()
                            .any(|c| s.caused_by.contains(c) || *c == out[i].rule_id)
                    {
                        j += 1;
                    }
                    j
                },
            );
        out.insert(at, s);
    }
    out
}

/// Where a finding goes when no cause of its severity is placed: the end of its
/// severity group.
fn severity_slot(out: &[Finding], f: &Finding) -> usize {
    out.iter()
        .position(|o| {
            o.severity < f.severity
                || (o.severity == f.severity && o.caused_by.is_empty() && o.rule_id > f.rule_id)
        })
        .unwrap_or(out.len())
}

#[cfg(test)]
mod order_tests {
    use super::*;
    use crate::finding::Severity;
    use crate::rules::template::{Placeholders, fill, shell_safe};

    fn finding(id: &str, severity: Severity, caused_by: &[&str]) -> Finding {
        Finding {
            caused_by: caused_by.iter().map(|s| s.to_string()).collect(),
            ..Finding::bare(id, severity)
        }
    }

    #[test]
    fn causes_come_before_their_symptoms() {
        let out = order(vec![
            finding("a-symptom", Severity::Error, &["z-cause"]),
            finding("b-other", Severity::Error, &[]),
            finding("z-cause", Severity::Error, &[]),
            finding("info-thing", Severity::Info, &[]),
            finding("c-symptom", Severity::Error, &["z-cause"]),
        ]);
        let ids: Vec<&str> = out.iter().map(|f| f.rule_id.as_str()).collect();
        assert_eq!(
            ids,
            ["b-other", "z-cause", "a-symptom", "c-symptom", "info-thing"]
        );
    }

    #[test]
    fn severity_groups_stay_whole() {
        let out = order(vec![
            finding("boot", Severity::Error, &["timeout"]),
            finding("timeout", Severity::Warning, &[]),
            finding("flask", Severity::Error, &[]),
            finding("exit", Severity::Error, &["boot", "timeout"]),
        ]);
        let ids: Vec<&str> = out.iter().map(|f| f.rule_id.as_str()).collect();
        assert_eq!(ids, ["boot", "exit", "flask", "timeout"]);
    }

    #[test]
    fn chains_of_symptoms_keep_their_order() {
        let out = order(vec![
            finding("a-exit", Severity::Error, &["m-boot", "z-root"]),
            finding("m-boot", Severity::Error, &["z-root"]),
            finding("z-root", Severity::Error, &[]),
        ]);
        let ids: Vec<&str> = out.iter().map(|f| f.rule_id.as_str()).collect();
        assert_eq!(ids, ["z-root", "m-boot", "a-exit"]);
    }

    #[test]
    fn values_from_logs_never_inject_shell_syntax() {
        let facts = BTreeMap::from([
            (
                "requirement".to_string(),
                "x\"$(touch${IFS}/tmp/pwned)\"".to_string(),
            ),
            (
                "host".to_string(),
                "ep.westeurope.inference.ml.azure.com".to_string(),
            ),
        ]);
        assert_eq!(
            fill(
                "pip download \"{requirement}\" && nslookup {host}",
                &facts,
                &Placeholders::new()
            ),
            "pip download \"{requirement}\" && nslookup ep.westeurope.inference.ml.azure.com"
        );
        assert!(!shell_safe("a b") && !shell_safe("`x`") && !shell_safe("a;b") && !shell_safe(""));
        assert!(shell_safe("Standard_DS3_v2") && shell_safe("azureml:model:3"));
    }

    #[test]
    fn placeholders_fill_from_facts_then_run() {
        let facts = BTreeMap::from([("vm_size".to_string(), "Standard_DS3_v2".to_string())]);
        let run = Placeholders::from([("group", "rg1".to_string())]);
        assert_eq!(
            fill(
                "az vm list-usage --query {vm_size} -g {group} -w {workspace} {",
                &facts,
                &run
            ),
            "az vm list-usage --query Standard_DS3_v2 -g rg1 -w {workspace} {"
        );
    }
}
