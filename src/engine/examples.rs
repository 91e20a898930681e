//! Checks every rule against its own examples: each `match` example must make the rule
//! fire and each `no-match` example must not. Runs the real scanner, so examples test
//! the prefilter, the regexes, `all`/`unless`/`when` and context together.

use std::io::Cursor;

use crate::evidence::DocumentKind;
use crate::rules::RuleSet;

use super::evaluate::evaluate_rule;
use super::scan::Scanner;

/// One example that did not behave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExampleFailure {
    pub rule_id: String,
    pub path: String,
    /// `match` or `no-match`.
    pub list: &'static str,
    pub index: usize,
    pub example: String,
}

impl std::fmt::Display for ExampleFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let verb = if self.list == "match" {
            "did not fire on"
        } else {
            "fired on"
        };
        let first = self.example.lines().next().unwrap_or("");
        write!(
            f,
            "{}: rule '{}': examples.{}[{}]: the rule {verb} this example: {first}",
            self.path, self.rule_id, self.list, self.index
        )
    }
}

/// Whether rule `index` fires on `text` read as `kind`; for a rule over resources,
/// `text` is JSON: the resource under test, then any other documents it needs.
pub fn fires(set: &RuleSet, index: usize, kind: DocumentKind, text: &str) -> bool {
    if set.rules[index].resource.is_some() {
        return fires_on_resources(set, index, text);
    }
    let mut scanner = Scanner::new(set);
    match scanner.scan(kind, &mut Cursor::new(text.as_bytes())) {
        Ok(scan) => evaluate_rule(index, &set.rules[index], kind.into(), &scan).is_some(),
        Err(_) => false,
    }
}

/// Every failing example of the rules `select` accepts.
pub fn check(set: &RuleSet, select: impl Fn(&crate::rules::Rule) -> bool) -> Vec<ExampleFailure> {
    let mut failures = Vec::new();
    for (i, rule) in set.rules.iter().enumerate().filter(|(_, r)| select(r)) {
        let kind = rule.examples.kind;
        for (n, e) in rule.examples.matching.iter().enumerate() {
            if !fires(set, i, kind, e) {
                failures.push(ExampleFailure {
                    rule_id: rule.id.clone(),
                    path: rule.source.path.clone(),
                    list: "match",
                    index: n,
                    example: e.clone(),
                });
            }
        }
        for (n, e) in rule.examples.no_match.iter().enumerate() {
            // A resource example that is not a resource would pass without testing.
            let untestable = rule.resource.is_some() && example_resources(e).is_none();
            if untestable || fires(set, i, kind, e) {
                failures.push(ExampleFailure {
                    rule_id: rule.id.clone(),
                    path: rule.source.path.clone(),
                    list: "no-match",
                    index: n,
                    example: e.clone(),
                });
            }
        }
    }
    failures
}

/// The resources of a resource example: one or more JSON documents one after another;
/// the resources of the first are the subjects. `None` when the text is not JSON or the
/// first document holds no resource amldoctor knows (such an example tests nothing).
fn example_resources(text: &str) -> Option<(Vec<crate::evidence::resource::Resource>, usize)> {
    use crate::evidence::json_lines::JsonText;
    use crate::evidence::resource::{JsonDocument, classify};

    let mut all = Vec::new();
    let mut subjects = 0;
    let stream = serde_json::Deserializer::from_str(text).into_iter::<serde_json::Value>();
    for (n, value) in stream.enumerate() {
        let value = value.ok()?;
        let bytes = serde_json::to_vec_pretty(&value).unwrap_or_default();
        if let JsonDocument::Resources(list) = classify("example.json", value, JsonText::new(bytes))
        {
            if n == 0 {
                subjects = list.len();
            }
            all.extend(list);
        }
    }
    (subjects > 0).then_some((all, subjects))
}

/// Whether resource rule `index` fires on a subject of the example. Rules with
/// `with-finding` are tested as if the findings they need were there.
fn fires_on_resources(set: &RuleSet, index: usize, text: &str) -> bool {
    let Some((all, subjects)) = example_resources(text) else {
        return false;
    };
    let fired = |_: &str| Some(super::resource::Facts::new());
    let only = |r: &crate::rules::Rule| std::ptr::eq(r, &set.rules[index]);
    super::resource::evaluate(set, &all, &fired, &only)
        .iter()
        .any(|h| h.rule == index && h.resource < subjects)
}
