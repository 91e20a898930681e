//! A wrapper code's finding (`caused-by: ['*']`: `InternalServerError`,
//! `DeploymentFailed`, `InferencingClientCallFailed`) says only that something under it
//! failed. When a more specific finding explains the same inputs (a signature for the
//! inner code, the code a rule claims, the cause category the message names), the
//! wrapper folds into it: its remediation would point the wrong way (a support request
//! for a quota the message states), so it is not reported on its own; the identifiers
//! it captured for support join the specific finding.

use crate::finding::{Finding, Layer, Severity};
use crate::rules::RuleSet;

/// Folds every wrapper finding whose inputs a specific error finding all covers.
pub(crate) fn fold(findings: &mut Vec<Finding>, set: &RuleSet) {
    let is_wrapper = |f: &Finding| {
        set.get(&f.rule_id)
            .is_some_and(crate::rules::Rule::is_wrapper)
    };
    let specific = |f: &Finding| {
        f.severity >= Severity::Error && f.layer != Layer::Unrecognised && !is_wrapper(f)
    };
    let mut folded: Vec<String> = Vec::new();
    let mut i = 0;
    while i < findings.len() {
        let w = &findings[i];
        let cause = is_wrapper(w)
            .then(|| {
                let covers = |c: &Finding| w.paths.iter().all(|p| c.paths.contains(p));
                findings.iter().position(|c| specific(c) && covers(c))
            })
            .flatten()
            .filter(|_| !w.paths.is_empty());
        match cause {
            Some(c) => {
                let w = findings.remove(i);
                let c = if c > i { c - 1 } else { c };
                for (k, v) in w.facts {
                    findings[c].facts.entry(k).or_insert(v);
                }
                folded.push(w.rule_id);
            }
            None => i += 1,
        }
    }
    for f in findings.iter_mut() {
        f.symptoms.retain(|s| !folded.contains(s));
        f.caused_by.retain(|s| !folded.contains(s));
    }
}
