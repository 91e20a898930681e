//! Evaluates resource rules over the resources of a run. Pure: resources arrive parsed;
//! a hit names the places (resource and JSON pointer) that show it, and the caller turns
//! the few it keeps into evidence lines.

mod field;

use std::collections::BTreeMap;

use serde_json::Value;

pub(crate) use field::enum_form;

use crate::evidence::resource::Resource;
use crate::finding::{Evidence, Location};
use crate::rules::resource::{Related, ResourceMatch};
use crate::rules::{Rule, RuleSet};

use field::{Way, ways};

/// Facts of a hit: captured values and the names read from resource ids.
pub(crate) type Facts = BTreeMap<String, String>;

/// A resource rule that fired on one resource.
#[derive(Debug, Clone)]
pub(crate) struct ResourceHit {
    pub rule: usize,
    /// The index of the resource it fired on.
    pub resource: usize,
    /// What shows it: the resource (an index) and the place in it.
    pub spots: Vec<(usize, Spot)>,
    /// What the tests captured (and the facts of `with-finding` rules).
    pub facts: Facts,
    /// Names from the ids of the resources involved, for filling commands.
    pub names: Facts,
}

/// A place in a resource that a test looked at: pointer (relative to the resource)
/// and what it shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Spot {
    pub pointer: String,
    pub text: String,
}

impl Spot {
    fn new(pointer: String, text: String) -> Spot {
        Spot { pointer, text }
    }
}

/// `with`/`without` clauses that read no fact: decided once per rule, not per subject.
struct Fixed<'r> {
    /// For each `with`: the resource and way that satisfy it, if any.
    with: Vec<Option<Option<(usize, Way)>>>,
    /// For each `without`: whether it holds.
    without: Vec<Option<bool>>,
    /// For each `without` that reads facts through one equality: the values to look up.
    without_index: Vec<Option<field::EqualsIndex<'r>>>,
}

/// Every resource rule `select` accepts over every resource it applies to. `fired`
/// gives the facts of a rule that already fired in this run (for `with-finding`).
pub(crate) fn evaluate(
    set: &RuleSet,
    resources: &[Resource],
    fired: &dyn Fn(&str) -> Option<Facts>,
    select: &dyn Fn(&Rule) -> bool,
) -> Vec<ResourceHit> {
    let mut hits = Vec::new();
    for (index, rule) in set.rules.iter().enumerate().filter(|(_, r)| select(r)) {
        let Some(m) = &rule.resource else { continue };
        if !resources.iter().any(|r| rule.reads_resource(r.kind)) {
            continue;
        }
        let fixed = Fixed {
            with: m
                .with
                .iter()
                .map(|rel| {
                    (!rel.uses_facts).then(|| find_related(rel, resources, None, &Facts::new()))
                })
                .collect(),
            without: m
                .without
                .iter()
                .map(|rel| (!rel.uses_facts).then(|| none_related(rel, resources, &Facts::new())))
                .collect(),
            without_index: m
                .without
                .iter()
                .map(|rel| {
                    let candidates: Vec<&Value> = resources
                        .iter()
                        .filter(|o| o.kind == rel.kind)
                        .map(|o| &o.json)
                        .collect();
                    if candidates.is_empty() {
                        return None;
                    }
                    field::EqualsIndex::build(rel, &candidates)
                })
                .collect(),
        };
        for (at, r) in resources.iter().enumerate() {
            if !rule.reads_resource(r.kind) {
                continue;
            }
            if let Some(mut hit) = evaluate_one(rule, m, (at, r), resources, fired, &fixed) {
                hit.rule = index;
                hits.push(hit);
            }
        }
    }
    hits
}

fn evaluate_one(
    rule: &Rule,
    m: &ResourceMatch,
    (at, r): (usize, &Resource),
    all: &[Resource],
    fired: &dyn Fn(&str) -> Option<Facts>,
    fixed: &Fixed,
) -> Option<ResourceHit> {
    let names = r.names();
    // Tests see the names too (paths such as `traffic.{deployment}`, `when`).
    let mut start = names.clone();
    if !m.with_finding.is_empty() {
        let found = m.with_finding.iter().find_map(|id| fired(id))?;
        for (k, v) in found {
            start.entry(k).or_insert(v);
        }
    }
    // Each way the subject's tests hold is tried against the rest of the rule.
    for (spots, facts) in ways(&m.all, &m.any, &r.json, &start) {
        let spots = spots.into_iter().map(|s| (at, s)).collect();
        if let Some(hit) = complete(rule, m, all, fixed, (at, spots), facts, names.clone()) {
            return Some(hit);
        }
    }
    None
}

/// The `with`, `without` and `when` parts for one way of the subject's tests.
fn complete(
    rule: &Rule,
    m: &ResourceMatch,
    all: &[Resource],
    fixed: &Fixed,
    (at, mut spots): (usize, Vec<(usize, Spot)>),
    mut facts: Facts,
    mut names: Facts,
) -> Option<ResourceHit> {
    for (i, rel) in m.with.iter().enumerate() {
        let (other, (more, f)) = match &fixed.with[i] {
            Some(found) => found.clone()?,
            None => find_related(rel, all, Some(at), &facts)?,
        };
        for (k, v) in f {
            facts.entry(k).or_insert(v);
        }
        for (k, v) in all[other].names() {
            facts.entry(k.clone()).or_insert(v.clone());
            names.entry(k).or_insert(v);
        }
        spots.extend(more.into_iter().map(|s| (other, s)));
    }
    if m.unless_with
        .iter()
        .any(|rel| find_related(rel, all, Some(at), &facts).is_some())
    {
        return None;
    }
    for (i, rel) in m.without.iter().enumerate() {
        let indexed = fixed.without_index[i]
            .as_ref()
            .and_then(|index| index.contains(&facts));
        let holds = match (fixed.without[i], indexed) {
            (Some(holds), _) => holds,
            (None, Some(found)) => !found,
            (None, None) => none_related(rel, all, &facts),
        };
        if !holds {
            return None;
        }
        // Show the first resource of that kind (not all of them).
        if let Some(first) = all.iter().position(|o| o.kind == rel.kind) {
            let n = all.iter().filter(|o| o.kind == rel.kind).count();
            let text = if n == 1 {
                format!("the one {} read does not match", rel.kind)
            } else {
                format!("none of the {n} {} resources read matches", rel.kind)
            };
            spots.push((first, Spot::new(String::new(), text)));
        }
    }
    if !rule.when.iter().all(|c| c.holds(&facts)) {
        return None;
    }
    // Names from resource ids fill commands; only what the tests captured is a fact.
    let (names, facts): (Facts, Facts) = facts
        .into_iter()
        .partition(|(k, v)| names.get(k) == Some(v));
    Some(ResourceHit {
        rule: 0,
        resource: at,
        spots,
        facts,
        names,
    })
}

/// The first resource of the kind (other than `subject`) that satisfies `rel`, and how.
fn find_related(
    rel: &Related,
    all: &[Resource],
    subject: Option<usize>,
    facts: &Facts,
) -> Option<(usize, Way)> {
    all.iter()
        .enumerate()
        .filter(|(i, o)| o.kind == rel.kind && Some(*i) != subject)
        .find_map(|(i, o)| {
            ways(&rel.all, &rel.any, &o.json, facts)
                .into_iter()
                .next()
                .map(|way| (i, way))
        })
}

/// Resources of the kind were read, and none satisfies `rel`. When none of that kind was
/// read, the rule cannot tell, so this does not hold.
fn none_related(rel: &Related, all: &[Resource], facts: &Facts) -> bool {
    let mut candidates = all.iter().filter(|o| o.kind == rel.kind).peekable();
    candidates.peek().is_some()
        && candidates.all(|o| ways(&rel.all, &rel.any, &o.json, facts).is_empty())
}

/// Evidence for a place in a resource: its file, the line of the key and its pointer.
pub(crate) fn evidence(r: &Resource, s: &Spot) -> Evidence {
    let pointer = crate::redact::clean(&r.absolute(&s.pointer)).into_owned();
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
        at: 0,
        computed: false,
        columns: None,
    }
}

/// Text from a resource fit for a report: masked whole when the key it belongs to names
/// a secret, else cleaned like log text.
pub(super) fn shown_safely(pointer: &str, text: &str) -> String {
    if crate::redact::is_secret_key(&crate::evidence::json_lines::last_key(pointer)) {
        crate::redact::MASK.to_owned()
    } else {
        crate::redact::clean(text).into_owned()
    }
}

/// A value as a fact: scalars as text, objects and lists as JSON with the values of
/// secret-named keys masked; never a secret, never a control character.
fn captured(pointer: &str, value: &Value) -> String {
    let text = match value {
        Value::Object(_) | Value::Array(_) => masked(value).to_string(),
        other => field::text_of(other),
    };
    shown_safely(pointer, &text)
}

/// A copy of `value` with the values of secret-named keys replaced, at every depth.
fn masked(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| {
                    let v = if crate::redact::is_secret_key(k) {
                        Value::from(crate::redact::MASK)
                    } else {
                        masked(v)
                    };
                    (k.clone(), v)
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(masked).collect()),
        other => other.clone(),
    }
}

/// A value as an evidence line shows it: scalars as JSON, containers summarised.
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

#[cfg(test)]
mod tests {
    use super::field::same;
    use super::*;
    use crate::rules::resource::{Each, FieldPath, FieldTest, Test, TextPattern};
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

    fn holds_with(t: &FieldTest, v: &Value, facts: &Facts) -> Option<(Vec<String>, Facts)> {
        ways(std::slice::from_ref(t), &[], v, facts)
            .into_iter()
            .next()
            .map(|(s, f)| (s.into_iter().map(|s| s.pointer).collect(), f))
    }

    fn holds(t: &FieldTest, v: &Value) -> Option<(Vec<String>, Facts)> {
        holds_with(t, v, &Facts::new())
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
        let (spots, facts) = ways(std::slice::from_ref(&t), &[], &dep, &Facts::new())
            .into_iter()
            .next()
            .unwrap();
        assert_eq!(
            shown_safely(&spots[0].pointer, &spots[0].text),
            crate::redact::MASK
        );
        assert_eq!(facts["got"], crate::redact::MASK);
        // A captured object keeps no secret at any depth.
        let whole = field("environment_variables", vec![Test::Exists(true)], Each::Any);
        let doc =
            json!({"environment_variables": {"HF_TOKEN": "hf_x1", "nested": {"password": "p4"}}});
        let (_, facts) = holds(&whole, &doc).unwrap();
        assert!(
            !facts["got"].contains("hf_x1") && !facts["got"].contains("p4"),
            "{}",
            facts["got"]
        );
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
            enum_form("Deployment_Provisioning.x"),
            "deploymentprovisioning.x"
        );
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
                    vec![Test::Matches(TextPattern::new("^Egress for").unwrap())],
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
        let facts = Facts::from([("deployment".to_owned(), "blue".to_owned())]);
        let ep = json!({"traffic": {"blue": 0}});
        let t = field(
            "traffic.{deployment}",
            vec![Test::Equals("0".into())],
            Each::Any,
        );
        assert!(holds_with(&t, &ep, &facts).is_some());
        assert!(holds(&t, &ep).is_none());
    }
}
