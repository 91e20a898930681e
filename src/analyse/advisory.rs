//! Severity calibrated on healthy inputs: an advisory rule (an old base image, a server
//! older than the current one) is worth a warning when something in the same input
//! failed, and is only `info` on an input that is otherwise healthy, so a healthy
//! start-up never fails a `--fail-on warning` gate.

use crate::finding::{Finding, Severity};
use crate::rules::RuleSet;

/// Lowers each advisory finding to `info` unless an input it was seen in has a warning
/// or error of a rule that is not advisory.
pub(crate) fn calibrate(findings: &mut [Finding], set: &RuleSet) {
    let advisory = |f: &Finding| {
        set.index_of(&f.rule_id)
            .is_some_and(|i| set.rules[i].advisory)
    };
    let failing: Vec<String> = findings
        .iter()
        .filter(|f| f.severity >= Severity::Warning && !advisory(f))
        .flat_map(|f| f.paths.iter().cloned())
        .collect();
    for f in findings.iter_mut() {
        if advisory(f) && !f.paths.iter().any(|p| failing.contains(p)) {
            f.severity = Severity::Info;
        }
    }
}
