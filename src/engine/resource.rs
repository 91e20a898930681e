//! Evaluates resource rules over the resources of a run. Pure: resources arrive parsed,
//! and each hit carries evidence that points at the JSON key (pointer and line).

use std::collections::BTreeMap;

use serde_json::Value;

use crate::evidence::json_lines::escape_token;
use crate::evidence::resource::Resource;
use crate::finding::{Evidence, Location};
use crate::rules::resource::{Each, FieldTest, Related, ResourceMatch, Step, Test};
use crate::rules::{Rule, RuleSet};

/// Facts of a hit: captured values and the names read from resource ids.
pub type Facts = BTreeMap<String, String>;

/// A resource rule that fired on one resource.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceHit {
    pub rule: usize,
    /// The index of the resource it fired on.
    pub resource: usize,
    pub evidence: Vec<Evidence>,
    /// What the tests captured (and the facts of `with-finding` rules).
    pub facts: Facts,
    /// Names from the ids of the resources involved, for filling commands.
    pub names: Facts,
}

/// A place in a resource that a test looked at: pointer (relative to the resource)
/// and what it shows.
#[derive(Debug, Clone)]
struct Spot {
    pointer: String,
    text: String,
}

/// Every resource rule over every resource it applies to. `fired` gives the facts of a
/// rule that already fired in this run (for `with-finding`).
pub fn evaluate(
    set: &RuleSet,
    resources: &[Resource],
    fired: &dyn Fn(&str) -> Option<Facts>,
) -> Vec<ResourceHit> {
    let mut hits = Vec::new();
    for (index, rule) in set.rules.iter().enumerate() {
        let Some(m) = &rule.resource else { continue };
        for (at, r) in resources.iter().enumerate() {
            if !rule.reads_resource(r.kind) {
                continue;
            }
            if let Some(mut hit) = evaluate_one(index, rule, m, r, resources, fired) {
                hit.resource = at;
                hits.push(hit);
            }
        }
    }
    hits
}

fn evaluate_one(
    index: usize,
    rule: &Rule,
    m: &ResourceMatch,
    r: &Resource,
    all: &[Resource],
    fired: &dyn Fn(&str) -> Option<Facts>,
) -> Option<ResourceHit> {
    let mut names = r.names();
    // Tests see the names too (paths such as `traffic.{deployment}`, `when`).
    let mut facts = names.clone();
    if !m.with_finding.is_empty() {
        let found = m.with_finding.iter().find_map(|id| fired(id))?;
        for (k, v) in found {
            facts.entry(k).or_insert(v);
        }
    }
    let mut evidence = Vec::new();
    let spots = tests_hold(&m.all, &m.any, &r.json, &mut facts)?;
    evidence.extend(spots.into_iter().map(|s| at(r, s)));
    for related in &m.with {
        let (other, spots) = all
            .iter()
            .filter(|o| o.kind == related.kind && !std::ptr::eq(*o, r))
            .find_map(|o| {
                let mut f = facts.clone();
                let spots = related_holds(related, o, &mut f)?;
                facts = f;
                Some((o, spots))
            })?;
        for (k, v) in other.names() {
            facts.entry(k.clone()).or_insert(v.clone());
            names.entry(k).or_insert(v);
        }
        evidence.extend(spots.into_iter().map(|s| at(other, s)));
    }
    for related in &m.without {
        let mut candidates = all.iter().filter(|o| o.kind == related.kind).peekable();
        // Nothing of that kind was read: the rule cannot tell, so it does not fire.
        candidates.peek()?;
        let mut shown = Vec::new();
        for o in candidates {
            if related_holds(related, o, &mut facts.clone()).is_some() {
                return None;
            }
            shown.push(at(
                o,
                Spot {
                    pointer: String::new(),
                    text: format!(
                        "{} {}: none matches",
                        o.kind,
                        o.name.as_deref().unwrap_or("")
                    ),
                },
            ));
        }
        evidence.extend(shown);
    }
    if !rule.when.iter().all(|c| c.holds(&facts)) {
        return None;
    }
    // Names from resource ids fill commands; only what the tests captured is a fact.
    let (names, facts): (Facts, Facts) = facts
        .into_iter()
        .partition(|(k, v)| names.get(k) == Some(v));
    Some(ResourceHit {
        rule: index,
        resource: 0,
        evidence,
        facts,
        names,
    })
}

fn related_holds(related: &Related, o: &Resource, facts: &mut Facts) -> Option<Vec<Spot>> {
    tests_hold(&related.all, &related.any, &o.json, facts)
}

/// `all` hold and, if `any` is given, one of it holds.
fn tests_hold(
    all: &[FieldTest],
    any: &[FieldTest],
    root: &Value,
    facts: &mut Facts,
) -> Option<Vec<Spot>> {
    let mut spots = Vec::new();
    for t in all {
        spots.extend(test_holds(t, root, facts)?);
    }
    if !any.is_empty() {
        spots.extend(any.iter().find_map(|t| test_holds(t, root, facts))?);
    }
    Some(spots)
}

fn at(r: &Resource, s: Spot) -> Evidence {
    let pointer = r.absolute(&s.pointer);
    Evidence {
        location: Location::Pointer {
            path: r.path.clone(),
            line: r.line_of(&s.pointer),
            pointer: if pointer.is_empty() {
                "/".to_owned()
            } else {
                pointer
            },
        },
        text: shown_safely(&s.pointer, &s.text),
    }
}

/// Text from a resource fit for a report: masked whole when the key it belongs to names
/// a secret, else cleaned like log text.
fn shown_safely(pointer: &str, text: &str) -> String {
    let key = pointer.rsplit('/').next().unwrap_or("");
    if crate::redact::is_secret_key(&key.replace("~1", "/").replace("~0", "~")) {
        crate::redact::MASK.to_owned()
    } else {
        crate::redact::clean(text).into_owned()
    }
}

/// One field test against `root`. Returns the spots that show it held.
fn test_holds(t: &FieldTest, root: &Value, facts: &mut Facts) -> Option<Vec<Spot>> {
    match t {
        FieldTest::AnyOf(group) => group.iter().find_map(|g| test_holds(g, root, facts)),
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
                .find(|r| r.present())
                .unwrap_or_else(|| resolve(root, &path.alternatives[0], facts));
            let Resolution::Found { values, container } = resolved else {
                // Not set at all: only `exists: false` holds.
                let Resolution::Missing { deepest } = resolved else {
                    return None;
                };
                return tests
                    .iter()
                    .all(|t| matches!(t, Test::Exists(false)))
                    .then(|| {
                        vec![Spot {
                            pointer: deepest,
                            text: format!("{} is not set", path.text),
                        }]
                    });
            };
            let mut passing = Vec::new();
            for (pointer, value, key) in &values {
                let mut nested = facts.clone();
                if let Some(spots) = value_passes(tests, value, pointer, &mut nested) {
                    passing.push((pointer.clone(), *value, key.clone(), spots, nested));
                }
            }
            let ok = match each {
                Each::Any => !passing.is_empty(),
                Each::All => passing.len() == values.len(),
                Each::None => passing.is_empty(),
            };
            if !ok {
                return None;
            }
            match (*each, passing.into_iter().next()) {
                (Each::None, _) | (_, None) => Some(vec![Spot {
                    pointer: container.clone(),
                    text: quantified(*each, values.len()),
                }]),
                (_, Some((pointer, value, key, mut spots, nested))) => {
                    *facts = nested;
                    if let Some(name) = capture {
                        facts.insert(name.clone(), shown_safely(&pointer, &text_of(value)));
                    }
                    if let (Some(name), Some(key)) = (capture_key, key) {
                        facts.insert(name.clone(), key);
                    }
                    spots.insert(
                        0,
                        Spot {
                            text: shown(value),
                            pointer,
                        },
                    );
                    Some(spots)
                }
            }
        }
    }
}

/// What an `each: none` or `each: all` test saw, for the evidence line.
fn quantified(each: Each, n: usize) -> String {
    match (each, n) {
        (_, 0) => "the list is empty".to_owned(),
        (Each::None, 1) => "its one element does not match".to_owned(),
        (Each::None, n) => format!("none of its {n} elements matches"),
        (_, 1) => "its one element matches".to_owned(),
        (_, n) => format!("all {n} elements match"),
    }
}

/// Whether every test holds for `value` (at `pointer`); nested `where` spots come back.
fn value_passes(
    tests: &[Test],
    value: &Value,
    pointer: &str,
    facts: &mut Facts,
) -> Option<Vec<Spot>> {
    let mut spots = Vec::new();
    for t in tests {
        let ok = match t {
            Test::Exists(e) => value.is_null() != *e,
            Test::Equals(want) => !value.is_null() && same(value, want),
            Test::NotEquals(want) => !value.is_null() && !same(value, want),
            Test::OneOf(list) => !value.is_null() && list.iter().any(|w| same(value, w)),
            Test::NotOneOf(list) => !value.is_null() && !list.iter().any(|w| same(value, w)),
            Test::Matches(re) => !value.is_null() && re.is_match(&text_of(value)),
            Test::NotMatches(re) => !value.is_null() && !re.is_match(&text_of(value)),
            Test::Compare {
                value_type,
                op,
                value: want,
            } => value_type
                .compare(&text_of(value), want)
                .is_some_and(|o| op.holds(o)),
            Test::Where(nested) => match tests_hold(nested, &[], value, facts) {
                Some(inner) => {
                    spots.extend(inner.into_iter().map(|s| Spot {
                        pointer: format!("{pointer}{}", s.pointer),
                        text: s.text,
                    }));
                    true
                }
                None => false,
            },
        };
        if !ok {
            return None;
        }
    }
    Some(spots)
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
                    let Some(k) = fill(k, facts) else { continue };
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
                    // An empty container still counts as present: `each: none` holds.
                    if !ranged {
                        ranged = true;
                        if next.is_empty() {
                            return Resolution::Found {
                                values: Vec::new(),
                                container,
                            };
                        }
                    }
                }
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

/// Fills `{fact}` placeholders of a path key; `None` when a fact is unknown.
fn fill(key: &str, facts: &Facts) -> Option<String> {
    if !key.contains('{') {
        return Some(key.to_owned());
    }
    let mut out = String::new();
    let mut rest = key;
    while let Some(start) = rest.find('{') {
        out.push_str(&rest[..start]);
        let end = rest[start..].find('}')? + start;
        out.push_str(facts.get(&rest[start + 1..end])?);
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    Some(out)
}

/// The text of a value as tests see it.
fn text_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

fn shown(v: &Value) -> String {
    let mut s = match v {
        Value::Object(map) => match map.get("name").and_then(Value::as_str) {
            Some(name) => format!("{{\"name\": {}, …}}", Value::from(name)),
            None => "{…}".to_owned(),
        },
        Value::Array(items) => format!("[{} items]", items.len()),
        other => other.to_string(),
    };
    if s.len() > 160 {
        let cut = crate::engine::scan::floor_char_boundary(&s, 157);
        s.truncate(cut);
        s.push('…');
    }
    s
}

/// Equality as Azure means it: numbers by value; enum-like text without regard to
/// case or `_`, and without the `ClassName.` prefix some az ml builds print
/// (`DeploymentProvisioningState.FAILED` is `Failed`).
fn same(value: &Value, want: &str) -> bool {
    let have = text_of(value);
    if let (Ok(a), Ok(b)) = (have.trim().parse::<f64>(), want.trim().parse::<f64>()) {
        return a == b;
    }
    enum_form(&have) == enum_form(want)
}

pub fn enum_form(text: &str) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::resource::FieldPath;
    use serde_json::json;

    fn field(path: &str, tests: Vec<Test>, each: Each) -> FieldTest {
        FieldTest::Field {
            path: FieldPath::parse(path).unwrap(),
            tests,
            each,
            capture: Some("got".into()),
            capture_key: Some("key".into()),
        }
    }

    fn holds(t: &FieldTest, v: &Value) -> Option<(Vec<String>, Facts)> {
        let mut facts = Facts::new();
        test_holds(t, v, &mut facts).map(|s| (s.into_iter().map(|s| s.pointer).collect(), facts))
    }

    #[test]
    fn values_of_secret_keys_never_show() {
        let dep = json!({"environment_variables": {
            "AZURE_CLIENT_SECRET": "q~8Xz", "STORAGE": "DefaultEndpointsProtocol=https;AccountName=a;AccountKey=bm90LWEta2V5", "MODE": "fast"}});
        let t = field(
            "environment_variables.*",
            vec![Test::Exists(true)],
            Each::Any,
        );
        let mut facts = Facts::new();
        let spots = test_holds(&t, &dep, &mut facts).unwrap();
        assert_eq!(
            shown_safely(&spots[0].pointer, &spots[0].text),
            crate::redact::MASK
        );
        assert_eq!(facts["got"], crate::redact::MASK);
        assert!(
            !shown_safely(
                "/environment_variables/STORAGE",
                "DefaultEndpointsProtocol=https;AccountName=a;AccountKey=bm90LWEta2V5"
            )
            .contains("bm90")
        );
        assert_eq!(
            shown_safely("/environment_variables/MODE", "\"fast\""),
            "\"fast\""
        );
        assert!(
            crate::redact::is_secret_key("accountKey") && !crate::redact::is_secret_key("keyVault")
        );
    }

    #[test]
    fn enums_compare_as_azure_means_them() {
        assert_eq!(enum_form("DeploymentProvisioningState.FAILED"), "failed");
        assert_eq!(
            enum_form("allow_only_approved_outbound"),
            "allowonlyapprovedoutbound"
        );
        assert_eq!(enum_form("a.b.c"), "a.b.c");
        assert!(same(&json!("Disabled"), "disabled"));
        assert!(same(&json!(true), "true"));
        assert!(same(&json!(5000), "5000.0"));
        assert!(!same(&json!("AzureServices"), "None"));
    }

    #[test]
    fn paths_alternatives_and_quantifiers() {
        let arm =
            json!({"properties": {"networkAcls": {"bypass": "None", "defaultAction": "Deny"}}});
        let t = field(
            "properties.networkAcls.bypass | networkAcls.bypass",
            vec![Test::NotEquals("AzureServices".into())],
            Each::Any,
        );
        let (spots, facts) = holds(&t, &arm).unwrap();
        assert_eq!(spots, ["/properties/networkAcls/bypass"]);
        assert_eq!(facts["got"], "None");
        // Missing: only exists:false holds, pointing at the deepest part that exists.
        let t = field(
            "properties.networkAcls.ipRules",
            vec![Test::Exists(false)],
            Each::Any,
        );
        assert_eq!(holds(&t, &arm).unwrap().0, ["/properties/networkAcls"]);
        let t = field(
            "properties.missing",
            vec![Test::NotEquals("x".into())],
            Each::Any,
        );
        assert!(holds(&t, &arm).is_none());

        let traffic = json!({"traffic": {"blue": 0, "green": 100}, "conns": []});
        let zero = field("traffic.*", vec![Test::Equals("0".into())], Each::Any);
        let (spots, facts) = holds(&zero, &traffic).unwrap();
        assert_eq!(
            (spots[0].as_str(), facts["key"].as_str()),
            ("/traffic/blue", "blue")
        );
        let all_zero = field("traffic.*", vec![Test::Equals("0".into())], Each::All);
        assert!(holds(&all_zero, &traffic).is_none());
        // An empty list: none and all hold, any does not; a missing list: none holds not.
        let none = field(
            "conns[*].status",
            vec![Test::Equals("Approved".into())],
            Each::None,
        );
        assert_eq!(holds(&none, &traffic).unwrap().0, ["/conns"]);
        let any = field(
            "conns[*].status",
            vec![Test::Equals("Approved".into())],
            Each::Any,
        );
        assert!(holds(&any, &traffic).is_none());
        let missing = field(
            "other[*].status",
            vec![Test::Equals("Approved".into())],
            Each::None,
        );
        assert!(holds(&missing, &traffic).is_none());
    }

    #[test]
    fn where_tests_one_element_and_placeholders_fill_keys() {
        let reg = json!({"privateEndpointConnections": [
            {"name": "a", "privateLinkServiceConnectionState": {"description": "other", "status": "Pending"}},
            {"name": "b", "privateLinkServiceConnectionState": {"description": "Egress for x", "status": "Pending"}}
        ]});
        let t = FieldTest::Field {
            path: FieldPath::parse("privateEndpointConnections[*]").unwrap(),
            tests: vec![Test::Where(vec![
                field(
                    "privateLinkServiceConnectionState.description",
                    vec![Test::Matches(regex::Regex::new("^Egress for").unwrap())],
                    Each::Any,
                ),
                FieldTest::Field {
                    path: FieldPath::parse("name").unwrap(),
                    tests: vec![Test::Exists(true)],
                    each: Each::Any,
                    capture: Some("connection".into()),
                    capture_key: None,
                },
            ])],
            each: Each::Any,
            capture: None,
            capture_key: None,
        };
        let (spots, facts) = holds(&t, &reg).unwrap();
        assert_eq!(facts["connection"], "b");
        assert_eq!(
            spots,
            [
                "/privateEndpointConnections/1",
                "/privateEndpointConnections/1/privateLinkServiceConnectionState/description",
                "/privateEndpointConnections/1/name"
            ]
        );
        let mut facts = Facts::from([("deployment".to_owned(), "blue".to_owned())]);
        let ep = json!({"traffic": {"blue": 0}});
        let t = field(
            "traffic.{deployment}",
            vec![Test::Equals("0".into())],
            Each::Any,
        );
        assert!(test_holds(&t, &ep, &mut facts).is_some());
        let mut facts = Facts::new();
        assert!(test_holds(&t, &ep, &mut facts).is_none());
    }
}
