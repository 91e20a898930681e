//! Turns one document's scan into the rules that fired on it.

use std::collections::BTreeMap;

use crate::evidence::KindSet;
use crate::rules::{Rule, RuleSet};

use super::scan::{DocumentScan, Hit};

/// A rule that fired on one document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleHit {
    pub rule: usize,
    pub count: u64,
    /// Matching lines, in line order.
    pub evidence: Vec<Hit>,
    pub facts: BTreeMap<String, String>,
}

fn hits_of<'s>(
    scan: &'s DocumentScan,
    ids: &[usize],
) -> impl Iterator<Item = &'s super::scan::PatternHits> {
    ids.iter()
        .filter_map(|id| u32::try_from(*id).ok())
        .filter_map(|id| scan.hits.get(&id))
}

/// Whether `rule` fires on a document of `kind` with this scan, and with what.
pub(crate) fn evaluate_rule(
    index: usize,
    rule: &Rule,
    kinds: KindSet,
    scan: &DocumentScan,
) -> Option<RuleHit> {
    if !rule.applies_to_any(kinds) || rule.computed {
        return None;
    }
    let any_count: u64 = hits_of(scan, &rule.any).map(|h| h.count).sum();
    if !rule.any.is_empty() && any_count == 0 {
        return None;
    }
    if hits_of(scan, &rule.all).count() != rule.all.len() {
        return None;
    }
    if hits_of(scan, &rule.unless).next().is_some() {
        return None;
    }
    let mut facts = BTreeMap::new();
    for h in hits_of(scan, &rule.any).chain(hits_of(scan, &rule.all)) {
        for (k, v) in &h.captures {
            facts.entry(k.clone()).or_insert_with(|| v.clone());
        }
    }
    let context = scan.context.get(&index);
    if let Some(c) = context {
        for (k, v) in &c.facts {
            facts.entry(k.clone()).or_insert_with(|| v.clone());
        }
    }
    if !rule.when.iter().all(|c| c.holds(&facts)) {
        return None;
    }
    let count = if rule.any.is_empty() {
        hits_of(scan, &rule.all)
            .map(|h| h.count)
            .next()
            .unwrap_or(0)
    } else {
        any_count
    };
    let mut evidence: Vec<Hit> = Vec::new();
    let mut main: Vec<&Hit> = hits_of(scan, &rule.any)
        .flat_map(|h| h.first.iter())
        .collect();
    main.sort_by_key(|h| h.line);
    evidence.extend(main.into_iter().take(super::scan::HITS_KEPT).cloned());
    evidence.extend(
        hits_of(scan, &rule.all)
            .filter_map(|h| h.first.first())
            .cloned(),
    );
    if let Some(c) = context {
        evidence.extend(c.lines.iter().cloned());
    }
    evidence.sort_by_key(|h| h.line);
    evidence.dedup_by_key(|h| h.line);
    Some(RuleHit {
        rule: index,
        count,
        evidence,
        facts,
    })
}

/// Every rule that fires on the document, in rule order.
pub(crate) fn evaluate(
    set: &RuleSet,
    kinds: impl Into<KindSet>,
    scan: &DocumentScan,
) -> Vec<RuleHit> {
    let kinds = kinds.into();
    let hits: Vec<RuleHit> = set
        .rules
        .iter()
        .enumerate()
        .filter_map(|(i, r)| evaluate_rule(i, r, kinds, scan))
        .collect();
    without_repeated_standalone(set, kinds, hits)
}

/// The hits without those of rules that read the document only because it stands
/// alone (a short or undetected paste) on a line a rule of its own kinds already
/// claimed: `ModuleNotFoundError` in a short container log is the inference-server
/// rule's finding, not also the ParallelRunStep rule's.
fn without_repeated_standalone(set: &RuleSet, kinds: KindSet, hits: Vec<RuleHit>) -> Vec<RuleHit> {
    let own = |h: &RuleHit| kinds.meets(set.rules[h.rule].kinds & !KindSet::STANDALONE);
    let claimed: std::collections::BTreeSet<u64> = hits
        .iter()
        .filter(|h| own(h))
        .flat_map(|h| h.evidence.iter().map(|e| e.line))
        .collect();
    hits.into_iter()
        .filter(|h| own(h) || !h.evidence.iter().any(|e| claimed.contains(&e.line)))
        .collect()
}
