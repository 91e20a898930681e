//! Field tests against one JSON value. A test can hold in several ways (several list
//! elements pass, each capturing different facts); the ways come back in document
//! order, so a later test, a `with` clause or a `when` condition that rejects one way
//! can try the next.

use serde_json::Value;

use crate::evidence::json_lines::escape_token;
use crate::rules::resource::{Each, FieldTest, Step, Test, fill_template};

use super::{Facts, Spot};

/// How many ways of one test are tried, at most: enough for every realistic list in a
/// resource, and a bound on the work a hostile document can cause.
const MAX_WAYS: usize = 64;

/// One way the tests hold: the spots that show it, and the facts it leaves.
pub(super) type Way = (Vec<Spot>, Facts);

/// Every way `all` hold and, when given, one of `any` holds, starting from `facts`.
pub(super) fn ways(all: &[FieldTest], any: &[FieldTest], root: &Value, facts: &Facts) -> Vec<Way> {
    let mut out = conjunction(all, root, (Vec::new(), facts.clone()));
    if !any.is_empty() {
        out = out
            .into_iter()
            .flat_map(|way| {
                any.iter()
                    .flat_map(|t| extend(way.clone(), test_ways(t, root, &way.1)))
                    .collect::<Vec<_>>()
            })
            .take(MAX_WAYS)
            .collect();
    }
    out
}

/// Every way all of `tests` hold together, each later test seeing the facts of the
/// earlier ones (backtracking over their ways).
fn conjunction(tests: &[FieldTest], root: &Value, start: Way) -> Vec<Way> {
    let Some((first, rest)) = tests.split_first() else {
        return vec![start];
    };
    let mut out = Vec::new();
    for way in extend(start.clone(), test_ways(first, root, &start.1)) {
        out.extend(conjunction(rest, root, way));
        if out.len() >= MAX_WAYS {
            out.truncate(MAX_WAYS);
            break;
        }
    }
    out
}

/// `base` followed by each of `more`: spots appended, facts replaced by the later ones.
fn extend(base: Way, more: Vec<Way>) -> Vec<Way> {
    more.into_iter()
        .map(|(spots, facts)| {
            let mut all = base.0.clone();
            all.extend(spots);
            (all, facts)
        })
        .collect()
}

/// Every way one test holds.
fn test_ways(t: &FieldTest, root: &Value, facts: &Facts) -> Vec<Way> {
    match t {
        FieldTest::AnyOf(group) => group
            .iter()
            .flat_map(|g| test_ways(g, root, facts))
            .take(MAX_WAYS)
            .collect(),
        FieldTest::Field {
            path,
            tests,
            each,
            capture,
            capture_key,
        } => {
            let resolved = path
                .alternatives
                .iter()
                .map(|steps| resolve(root, steps, facts))
                .find(Resolution::present)
                .unwrap_or_else(|| resolve(root, &path.alternatives[0], facts));
            let (values, container) = match resolved {
                Resolution::Found { values, container } => (values, container),
                // Not set at all: only `exists: false` holds.
                Resolution::Missing { deepest } => {
                    let unset = tests.iter().all(|t| matches!(t, Test::Exists(false)));
                    return if unset {
                        // The path as resolved: `mirror_traffic.blue`, not its template.
                        let shown =
                            crate::rules::template::fill(&path.text, facts, &Default::default());
                        let text = format!("{shown} is not set");
                        vec![(vec![Spot::new(deepest, text)], facts.clone())]
                    } else {
                        Vec::new()
                    };
                }
            };
            let mut passing = Vec::new();
            // Without captures every passing element leaves the same facts: one way is
            // enough, and later tests are not run once per element.
            let distinct = capture.is_some() || capture_key.is_some() || changes_facts(tests);
            'values: for (pointer, value, key) in &values {
                if *each == Each::Any && !distinct && !passing.is_empty() {
                    break;
                }
                for (mut spots, mut f) in value_ways(tests, value, pointer, facts) {
                    if let Some(name) = capture {
                        f.insert(name.clone(), super::captured(pointer, value));
                    }
                    if let (Some(name), Some(key)) = (capture_key, key) {
                        f.insert(name.clone(), crate::redact::clean(key).into_owned());
                    }
                    spots.insert(0, Spot::new(pointer.clone(), super::shown(value)));
                    passing.push((spots, f));
                    if passing.len() >= MAX_WAYS {
                        break 'values;
                    }
                }
            }
            let whole = |n: usize| {
                vec![(
                    vec![Spot::new(container.clone(), quantified(*each, n))],
                    facts.clone(),
                )]
            };
            match each {
                Each::Any => passing,
                Each::All
                    if values
                        .iter()
                        .all(|(p, v, _)| !value_ways(tests, v, p, facts).is_empty()) =>
                {
                    whole(values.len())
                }
                Each::None if passing.is_empty() => whole(values.len()),
                Each::All | Each::None => Vec::new(),
            }
        }
    }
}

/// Whether passing `tests` can leave different facts for different values.
fn changes_facts(tests: &[Test]) -> bool {
    tests.iter().any(|t| match t {
        Test::Where(_) => true,
        Test::Matches(p) => p.has_groups,
        _ => false,
    })
}

/// What an `each: none` or `each: all` test saw, for the evidence line.
fn quantified(each: Each, n: usize) -> String {
    match (each, n) {
        (_, 0) => "the list is empty".to_owned(),
        (Each::None, 1) => "the only entry does not match".to_owned(),
        (Each::None, n) => format!("none of the {n} entries matches"),
        (_, 1) => "the only entry matches".to_owned(),
        (_, n) => format!("all {n} entries match"),
    }
}

/// Every way all `tests` hold for `value` (at `pointer`); nested `where` spots come back
/// under the value's pointer.
fn value_ways(tests: &[Test], value: &Value, pointer: &str, facts: &Facts) -> Vec<Way> {
    let mut ways: Vec<Way> = vec![(Vec::new(), facts.clone())];
    for t in tests {
        ways = match t {
            Test::Where(nested) => ways
                .into_iter()
                .flat_map(|(spots, f)| {
                    conjunction(nested, value, (Vec::new(), f))
                        .into_iter()
                        .map(|(inner, f)| {
                            let mut all = spots.clone();
                            all.extend(
                                inner
                                    .into_iter()
                                    .map(|s| Spot::new(format!("{pointer}{}", s.pointer), s.text)),
                            );
                            (all, f)
                        })
                        .collect::<Vec<_>>()
                })
                .take(MAX_WAYS)
                .collect(),
            simple => ways
                .into_iter()
                .filter_map(|(spots, mut f)| {
                    simple_holds(simple, value, pointer, &mut f).then_some((spots, f))
                })
                .collect(),
        };
        if ways.is_empty() {
            break;
        }
    }
    ways
}

/// A test without nesting; `matches` adds its named groups to `facts`.
fn simple_holds(t: &Test, value: &Value, pointer: &str, facts: &mut Facts) -> bool {
    if value.is_null() {
        return matches!(t, Test::Exists(false));
    }
    let fill = |v: &str| fill_template(v, &|name| facts.get(name).cloned(), str::to_owned);
    let same_as = |want: &str| fill(want).is_some_and(|w| same(value, &w));
    match t {
        Test::Exists(e) => *e,
        Test::Equals(want) => same_as(want),
        Test::NotEquals(want) => fill(want).is_some_and(|w| !same(value, &w)),
        Test::OneOf(list) => list.iter().any(|w| same_as(w)),
        Test::NotOneOf(list) => !list.iter().any(|w| same_as(w)),
        Test::Matches(p) => {
            let Some(re) = p.regex(&|name| facts.get(name).cloned()) else {
                return false;
            };
            let text = text_of(value);
            let Some(caps) = re.captures(&text) else {
                return false;
            };
            for name in re.capture_names().flatten() {
                if let Some(m) = caps.name(name) {
                    facts.insert(name.to_owned(), super::shown_safely(pointer, m.as_str()));
                }
            }
            true
        }
        Test::NotMatches(p) => p
            .regex(&|name| facts.get(name).cloned())
            .is_some_and(|re| !re.is_match(&text_of(value))),
        Test::Compare {
            value_type,
            op,
            value: want,
        } => value_type
            .compare(&text_of(value), want)
            .is_some_and(|o| op.holds(o)),
        Test::Where(_) => false,
    }
}

/// The values a path selects.
enum Resolution<'v> {
    /// `values` are (pointer, value, key or index); `container` is where a `*` ranged
    /// (or the value's own pointer without one).
    Found {
        values: Vec<(String, &'v Value, Option<String>)>,
        container: String,
    },
    /// Not set; `deepest` is the pointer of the deepest part that exists.
    Missing { deepest: String },
}

impl Resolution<'_> {
    fn present(&self) -> bool {
        matches!(self, Resolution::Found { .. })
    }
}

fn resolve<'v>(root: &'v Value, steps: &[Step], facts: &Facts) -> Resolution<'v> {
    let mut current: Vec<(String, &'v Value, Option<String>)> = vec![(String::new(), root, None)];
    let mut container = String::new();
    let mut deepest = String::new();
    let mut ranged = false;
    for step in steps {
        let mut next = Vec::new();
        for (pointer, value, key) in &current {
            match step {
                Step::Key(k) => {
                    let Some(k) = fill_template(k, &|n| facts.get(n).cloned(), str::to_owned)
                    else {
                        continue;
                    };
                    if let Some(v) = value.get(&k).filter(|v| !v.is_null()) {
                        next.push((format!("{pointer}/{}", escape_token(&k)), v, key.clone()));
                    }
                }
                Step::Index(i) => {
                    if let Some(v) = value.get(i).filter(|v| !v.is_null()) {
                        next.push((format!("{pointer}/{i}"), v, Some(i.to_string())));
                    }
                }
                Step::Each => {
                    if !ranged {
                        container.clone_from(pointer);
                    }
                    match value {
                        Value::Array(items) => next.extend(
                            items
                                .iter()
                                .enumerate()
                                .map(|(i, v)| (format!("{pointer}/{i}"), v, Some(i.to_string()))),
                        ),
                        Value::Object(map) => next.extend(map.iter().map(|(k, v)| {
                            (format!("{pointer}/{}", escape_token(k)), v, Some(k.clone()))
                        })),
                        _ => continue,
                    }
                }
            }
        }
        // An empty list still counts as present: `each: none` and `each: all` hold.
        if matches!(step, Step::Each) && !ranged {
            ranged = true;
            if next.is_empty()
                && current
                    .iter()
                    .any(|(_, v, _)| v.is_array() || v.is_object())
            {
                return Resolution::Found {
                    values: Vec::new(),
                    container,
                };
            }
        }
        if next.is_empty() {
            return Resolution::Missing { deepest };
        }
        deepest.clone_from(&next[0].0);
        current = next;
    }
    if !ranged {
        container.clone_from(&current[0].0);
    }
    Resolution::Found {
        values: current,
        container,
    }
}

/// The text of a value as tests see it.
pub(super) fn text_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// Equality as Azure means it: numbers by value; enum-like text without regard to
/// case or `_`, and without the `ClassName.` prefix some az ml builds print
/// (`DeploymentProvisioningState.FAILED` is `Failed`).
pub(super) fn same(value: &Value, want: &str) -> bool {
    let have = text_of(value);
    if let (Ok(a), Ok(b)) = (have.trim().parse::<f64>(), want.trim().parse::<f64>()) {
        return a == b;
    }
    enum_form(&have) == enum_form(want)
}

pub(crate) fn enum_form(text: &str) -> String {
    let t = text.trim();
    let t = match t.split_once('.') {
        Some((class, member))
            if !class.is_empty()
                && class.bytes().all(|b| b.is_ascii_alphabetic())
                && !member.is_empty()
                && member.bytes().all(|b| b.is_ascii_uppercase() || b == b'_') =>
        {
            member
        }
        _ => t,
    };
    t.chars()
        .filter(|c| *c != '_')
        .flat_map(char::to_lowercase)
        .collect()
}

/// For a related clause that is one `field equals '{fact}…'` test (no list, no capture):
/// the template and the set of values the candidates have, so each subject is one
/// lookup instead of a pass over every candidate (a private DNS zone shared by a
/// thousand workspaces has thousands of record sets).
pub(super) struct EqualsIndex<'r> {
    template: &'r str,
    values: std::collections::HashSet<String>,
}

impl<'r> EqualsIndex<'r> {
    pub(super) fn build(
        rel: &'r crate::rules::resource::Related,
        candidates: &[&Value],
    ) -> Option<EqualsIndex<'r>> {
        let (
            [
                FieldTest::Field {
                    path,
                    tests,
                    capture: None,
                    capture_key: None,
                    ..
                },
            ],
            [],
        ) = (rel.all.as_slice(), rel.any.as_slice())
        else {
            return None;
        };
        let [Test::Equals(template)] = tests.as_slice() else {
            return None;
        };
        if path.has_each() || crate::rules::resource::has_placeholder(&path.text) {
            return None;
        }
        let mut values = std::collections::HashSet::new();
        for root in candidates {
            let found = path
                .alternatives
                .iter()
                .map(|steps| resolve(root, steps, &Facts::new()))
                .find(Resolution::present);
            if let Some(Resolution::Found { values: v, .. }) = found {
                values.extend(
                    v.iter()
                        .filter(|(_, x, _)| !x.is_null())
                        .map(|(_, x, _)| enum_form(&text_of(x))),
                );
            }
        }
        Some(EqualsIndex { template, values })
    }

    /// Whether some candidate equals the template filled from `facts`; `None` when the
    /// filled value is a number (numbers compare by value: ask the candidates).
    pub(super) fn contains(&self, facts: &Facts) -> Option<bool> {
        let Some(want) = fill_template(self.template, &|n| facts.get(n).cloned(), str::to_owned)
        else {
            // An unknown fact: no candidate can equal it.
            return Some(false);
        };
        if want.trim().parse::<f64>().is_ok() {
            return None;
        }
        Some(self.values.contains(&enum_form(&want)))
    }
}
