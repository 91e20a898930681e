//! Rules over resources, compiled: field paths, the tests on the values they select,
//! and the other resources a rule needs. The engine evaluates them
//! (`engine::resource`); this module only says what a rule asks.

use std::fmt;

use regex::Regex;

use super::compare::{Op, ValueType};
use super::model::{FieldSpec, RelatedSpec, Scalar};
use crate::evidence::resource::ResourceKind;

/// The area of `amldoctor check` a resource rule belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CheckArea {
    Workspace,
    Keyvault,
    PrivateEndpoint,
    Deployment,
    /// Name resolution of the workspace's hosts: answers, not resource settings.
    Dns,
}

impl CheckArea {
    pub const ALL: [CheckArea; 5] = [
        CheckArea::Workspace,
        CheckArea::Keyvault,
        CheckArea::PrivateEndpoint,
        CheckArea::Deployment,
        CheckArea::Dns,
    ];

    pub fn name(self) -> &'static str {
        match self {
            CheckArea::Workspace => "workspace",
            CheckArea::Keyvault => "keyvault",
            CheckArea::PrivateEndpoint => "private-endpoint",
            CheckArea::Deployment => "deployment",
            CheckArea::Dns => "dns",
        }
    }

    pub fn parse(name: &str) -> Option<CheckArea> {
        CheckArea::ALL.into_iter().find(|a| a.name() == name.trim())
    }

    /// The resource kinds a check of this area is about: at least one must be given.
    pub fn subjects(self) -> &'static [ResourceKind] {
        match self {
            CheckArea::Workspace => &[ResourceKind::Workspace],
            CheckArea::Keyvault => &[ResourceKind::KeyVault],
            CheckArea::PrivateEndpoint => &[
                ResourceKind::PrivateEndpointConnection,
                ResourceKind::OnlineDeployment,
                ResourceKind::ContainerRegistry,
                ResourceKind::StorageAccount,
                ResourceKind::PrivateDnsRecordSet,
                ResourceKind::Workspace,
            ],
            CheckArea::Deployment => {
                &[ResourceKind::OnlineDeployment, ResourceKind::OnlineEndpoint]
            }
            // Hosts can come from --host alone: no resource is required (the zone's
            // links are read when given, and checked).
            CheckArea::Dns => &[],
        }
    }
}

impl fmt::Display for CheckArea {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One step of a field path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// An object key; may hold `{fact}` placeholders filled at evaluation.
    Key(String),
    /// Every element of an array, or every value of an object.
    Each,
    Index(usize),
}

/// A field path with its alternatives (the first that resolves is used).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldPath {
    pub text: String,
    pub alternatives: Vec<Vec<Step>>,
}

impl FieldPath {
    /// Parses `a.b[*].c | x.y`, `traffic.*`, `items[0].name`, `"odd.key"` is not needed
    /// by Azure documents and is not supported.
    pub fn parse(text: &str) -> Result<FieldPath, String> {
        let mut alternatives = Vec::new();
        for alt in text.split('|') {
            let alt = alt.trim();
            if alt.is_empty() {
                return Err(format!("'{text}' has an empty alternative"));
            }
            let mut steps = Vec::new();
            for part in alt.split('.') {
                let (name, mut rest) = match part.find('[') {
                    Some(at) => (&part[..at], &part[at..]),
                    None => (part, ""),
                };
                match name {
                    "" if rest.is_empty() => return Err(format!("'{alt}' has an empty segment")),
                    "" => {}
                    "*" => steps.push(Step::Each),
                    n => steps.push(Step::Key(n.to_owned())),
                }
                while let Some(inner) = rest.strip_prefix('[') {
                    let end = inner
                        .find(']')
                        .ok_or_else(|| format!("'{alt}' has a '[' without ']'"))?;
                    match &inner[..end] {
                        "*" => steps.push(Step::Each),
                        n => steps.push(Step::Index(n.parse().map_err(|_| {
                            format!("'{alt}': expected [*] or [number], found [{n}]")
                        })?)),
                    }
                    rest = &inner[end + 1..];
                }
                if !rest.is_empty() {
                    return Err(format!("'{alt}': unexpected '{rest}'"));
                }
            }
            alternatives.push(steps);
        }
        Ok(FieldPath {
            text: text.trim().to_owned(),
            alternatives,
        })
    }

    pub fn has_each(&self) -> bool {
        self.alternatives.iter().any(|a| a.contains(&Step::Each))
    }
}

/// What must hold of a selected value.
#[derive(Debug, Clone)]
pub enum Test {
    /// Compared as text, enums without regard to case, `_` or an SDK class prefix.
    Equals(String),
    NotEquals(String),
    OneOf(Vec<String>),
    NotOneOf(Vec<String>),
    Exists(bool),
    Matches(TextPattern),
    NotMatches(TextPattern),
    Compare {
        value_type: ValueType,
        op: Op,
        value: String,
    },
    /// Every nested test holds with the value as their root.
    Where(Vec<FieldTest>),
}

/// A `matches` regex. It may hold `{fact}` placeholders, filled (escaped) when the
/// rule is evaluated, so a test can name what an earlier one captured.
#[derive(Debug, Clone)]
pub struct TextPattern {
    pub template: String,
    /// The compiled regex when the template has no placeholder.
    pub fixed: Option<Regex>,
    /// Whether the regex has named groups (they become facts).
    pub has_groups: bool,
}

impl TextPattern {
    /// Compiles `template`; with placeholders, a trial fill checks that it compiles.
    pub fn new(template: &str) -> Result<TextPattern, String> {
        let build = |p: &str| {
            regex::RegexBuilder::new(p)
                .size_limit(1024 * 1024)
                .build()
                .map_err(|e| format!("invalid regex: {e}"))
        };
        let placeholders = has_placeholder(template);
        let trial = if placeholders {
            fill_template(template, &|_| Some("x".to_owned()), regex::escape).unwrap_or_default()
        } else {
            template.to_owned()
        };
        let compiled = build(&trial)?;
        Ok(TextPattern {
            template: template.to_owned(),
            has_groups: compiled.capture_names().flatten().next().is_some(),
            fixed: (!placeholders).then_some(compiled),
        })
    }

    /// The regex with `facts` filled in; `None` when one is unknown.
    pub fn regex(&self, facts: &dyn Fn(&str) -> Option<String>) -> Option<Regex> {
        if let Some(r) = &self.fixed {
            return Some(r.clone());
        }
        let text = fill_template(&self.template, facts, regex::escape)?;
        // The same filled pattern comes back for every candidate of a subject: compile
        // it once (a small cache per thread, emptied when full).
        thread_local! {
            static CACHE: std::cell::RefCell<std::collections::HashMap<String, Regex>> =
                std::cell::RefCell::new(std::collections::HashMap::new());
        }
        CACHE.with(|c| {
            let mut cache = c.borrow_mut();
            if let Some(r) = cache.get(&text) {
                return Some(r.clone());
            }
            let r = regex::Regex::new(&text).ok()?;
            if cache.len() >= 256 {
                cache.clear();
            }
            cache.insert(text, r.clone());
            Some(r)
        })
    }

    /// Named groups of the regex: they become facts.
    pub fn capture_names(&self) -> Vec<String> {
        let trial = fill_template(&self.template, &|_| Some("x".to_owned()), regex::escape)
            .unwrap_or_default();
        regex::Regex::new(&trial)
            .map(|r| r.capture_names().flatten().map(str::to_owned).collect())
            .unwrap_or_default()
    }
}

/// Whether `text` holds a `{name}` placeholder (a regex repetition such as `{36}` or
/// `{2,3}` is not one).
pub(crate) fn has_placeholder(text: &str) -> bool {
    placeholder_spans(text).next().is_some()
}

fn placeholder_spans(text: &str) -> impl Iterator<Item = (usize, usize)> + '_ {
    let bytes = text.as_bytes();
    let mut at = 0;
    std::iter::from_fn(move || {
        while let Some(off) = text[at..].find('{') {
            let start = at + off;
            let end = text[start..].find('}').map(|e| start + e)?;
            at = end + 1;
            // `\p{greek}`, `\x{e9}`, `\u{…}` are regex syntax, not placeholders.
            let escaped = start >= 2
                && bytes[start - 2] == b'\\'
                && matches!(bytes[start - 1], b'p' | b'P' | b'x' | b'u' | b'N');
            if escaped {
                continue;
            }
            let name = &bytes[start + 1..end];
            let is_name = name.first().is_some_and(u8::is_ascii_lowercase)
                && name
                    .iter()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'_');
            if is_name {
                return Some((start, end));
            }
        }
        None
    })
}

/// Fills `{name}` placeholders with `value(name)` passed through `escape`; `None` when a
/// value is unknown.
pub(crate) fn fill_template(
    template: &str,
    value: &dyn Fn(&str) -> Option<String>,
    escape: fn(&str) -> String,
) -> Option<String> {
    let mut out = String::with_capacity(template.len());
    let mut last = 0;
    for (start, end) in placeholder_spans(template) {
        out.push_str(&template[last..start]);
        out.push_str(&escape(&value(&template[start + 1..end])?));
        last = end + 1;
    }
    out.push_str(&template[last..]);
    Some(out)
}

/// Over the elements a `*` selects, which must pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Each {
    Any,
    All,
    None,
}

/// A test on a field, or a group of alternatives.
#[derive(Debug, Clone)]
pub enum FieldTest {
    Field {
        path: FieldPath,
        tests: Vec<Test>,
        each: Each,
        capture: Option<String>,
        capture_key: Option<String>,
    },
    AnyOf(Vec<FieldTest>),
}

impl FieldTest {
    /// Whether the test reads a fact (a `{name}` in a path or value).
    pub fn uses_facts(&self) -> bool {
        match self {
            FieldTest::AnyOf(group) => group.iter().any(FieldTest::uses_facts),
            FieldTest::Field { path, tests, .. } => {
                has_placeholder(&path.text) || tests.iter().any(Test::uses_facts)
            }
        }
    }
}

impl Test {
    fn uses_facts(&self) -> bool {
        match self {
            Test::Equals(v) | Test::NotEquals(v) => has_placeholder(v),
            Test::OneOf(l) | Test::NotOneOf(l) => l.iter().any(|v| has_placeholder(v)),
            Test::Matches(p) | Test::NotMatches(p) => p.fixed.is_none(),
            Test::Where(nested) => nested.iter().any(FieldTest::uses_facts),
            Test::Exists(_) | Test::Compare { .. } => false,
        }
    }
}

/// Another resource a rule needs, or must not find.
#[derive(Debug, Clone)]
pub struct Related {
    pub kind: ResourceKind,
    pub all: Vec<FieldTest>,
    pub any: Vec<FieldTest>,
    /// Whether a path or value names a fact: then it is tested for each subject,
    /// otherwise once per run.
    pub uses_facts: bool,
}

/// Everything a resource rule tests.
#[derive(Debug, Clone, Default)]
pub struct ResourceMatch {
    pub all: Vec<FieldTest>,
    pub any: Vec<FieldTest>,
    pub with: Vec<Related>,
    pub without: Vec<Related>,
    pub unless_with: Vec<Related>,
    pub with_finding: Vec<String>,
}

/// Compiles field tests; `key` names the place for errors, `captures` collects the
/// fact names they capture.
pub(crate) fn compile_tests(
    specs: &[FieldSpec],
    key: &str,
    captures: &mut Vec<String>,
) -> Result<Vec<FieldTest>, (String, String)> {
    specs
        .iter()
        .enumerate()
        .map(|(i, s)| compile_test(s, &format!("{key}[{i}]"), captures))
        .collect()
}

fn compile_test(
    spec: &FieldSpec,
    key: &str,
    captures: &mut Vec<String>,
) -> Result<FieldTest, (String, String)> {
    let err = |k: &str, m: String| (format!("{key}{k}"), m);
    if !spec.any_of.is_empty() {
        if spec.field.is_some() {
            return Err(err(
                ".any-of",
                "a group has no 'field' of its own".to_owned(),
            ));
        }
        return Ok(FieldTest::AnyOf(compile_tests(
            &spec.any_of,
            &format!("{key}.any-of"),
            captures,
        )?));
    }
    let field = spec
        .field
        .as_deref()
        .ok_or_else(|| err("", "needs 'field' (or 'any-of')".to_owned()))?;
    let path = FieldPath::parse(field).map_err(|m| err(".field", m))?;
    let tests = compile_value_tests(spec, key, captures)?;
    let each = match spec.each.as_deref() {
        None | Some("any") => Each::Any,
        Some("all") => Each::All,
        Some("none") => Each::None,
        Some(other) => {
            return Err(err(
                ".each",
                format!("expected any, all or none, found '{other}'"),
            ));
        }
    };
    if spec.each.is_some() && !path.has_each() {
        return Err(err(
            ".each",
            "the field has no [*] or * to range over".to_owned(),
        ));
    }
    for name in spec.capture.iter().chain(&spec.capture_key) {
        if !super::placeholder_names::is_snake(name) {
            return Err(err(".capture", format!("'{name}' must be snake_case")));
        }
        captures.push(name.clone());
    }
    Ok(FieldTest::Field {
        path,
        tests,
        each,
        capture: spec.capture.clone(),
        capture_key: spec.capture_key.clone(),
    })
}

fn compile_value_tests(
    spec: &FieldSpec,
    key: &str,
    captures: &mut Vec<String>,
) -> Result<Vec<Test>, (String, String)> {
    let err = |k: &str, m: String| (format!("{key}{k}"), m);
    let texts = |list: &[Scalar]| list.iter().map(Scalar::text).collect::<Vec<_>>();
    let mut tests = Vec::new();
    if let Some(v) = &spec.equals {
        tests.push(Test::Equals(v.text()));
    }
    if let Some(v) = &spec.not_equals {
        tests.push(Test::NotEquals(v.text()));
    }
    if !spec.one_of.is_empty() {
        tests.push(Test::OneOf(texts(&spec.one_of)));
    }
    if !spec.not_one_of.is_empty() {
        tests.push(Test::NotOneOf(texts(&spec.not_one_of)));
    }
    if let Some(e) = spec.exists {
        tests.push(Test::Exists(e));
    }
    if let Some(p) = &spec.matches {
        let pattern = TextPattern::new(p).map_err(|m| err(".matches", m))?;
        for name in pattern.capture_names() {
            if !super::placeholder_names::is_snake(&name) {
                return Err(err(
                    ".matches",
                    format!("capture name '{name}' must be snake_case"),
                ));
            }
            captures.push(name);
        }
        tests.push(Test::Matches(pattern));
    }
    if let Some(p) = &spec.not_matches {
        tests.push(Test::NotMatches(
            TextPattern::new(p).map_err(|m| err(".not-matches", m))?,
        ));
    }
    if let Some(t) = &spec.value_type {
        let value_type = ValueType::parse(t)
            .ok_or_else(|| err(".is", "expected version, date, number or text".to_owned()))?;
        let op = spec
            .op
            .as_deref()
            .and_then(Op::parse)
            .ok_or_else(|| err(".op", "expected <, <=, >, >=, == or !=".to_owned()))?;
        let value = spec
            .value
            .as_ref()
            .map(Scalar::text)
            .ok_or_else(|| err(".value", "a typed comparison needs 'value'".to_owned()))?;
        value_type.validate(&value).map_err(|m| err(".value", m))?;
        tests.push(Test::Compare {
            value_type,
            op,
            value,
        });
    } else if spec.op.is_some() || spec.value.is_some() {
        return Err(err(".is", "'op' and 'value' need 'is'".to_owned()));
    }
    if !spec.where_all.is_empty() {
        tests.push(Test::Where(compile_tests(
            &spec.where_all,
            &format!("{key}.where"),
            captures,
        )?));
    }
    if tests.is_empty() {
        return Err(err(
            "",
            "needs a test: equals, not-equals, one-of, not-one-of, exists, matches, not-matches, is/op/value or where".to_owned(),
        ));
    }
    Ok(tests)
}

/// Compiles a `with`/`without` entry.
pub(crate) fn compile_related(
    spec: &RelatedSpec,
    key: &str,
    captures: &mut Vec<String>,
) -> Result<Related, (String, String)> {
    let kind = ResourceKind::parse(&spec.kind).ok_or_else(|| {
        (
            format!("{key}.kind"),
            format!(
                "unknown resource kind '{}'; expected one of: {}",
                spec.kind,
                resource_kind_names()
            ),
        )
    })?;
    if spec.all.is_empty() && spec.any.is_empty() {
        return Err((
            key.to_owned(),
            "needs field tests under 'all' or 'any'".to_owned(),
        ));
    }
    let all = compile_tests(&spec.all, &format!("{key}.all"), captures)?;
    let any = compile_tests(&spec.any, &format!("{key}.any"), captures)?;
    let uses_facts = all.iter().chain(&any).any(FieldTest::uses_facts);
    Ok(Related {
        kind,
        all,
        any,
        uses_facts,
    })
}

pub(crate) fn resource_kind_names() -> String {
    ResourceKind::ALL
        .iter()
        .map(|k| k.name())
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_names_in_braces_only() {
        assert!(has_placeholder("^/subscriptions/{subscription}/"));
        for regex in [
            r"^[0-9a-f-]{36}$",
            r"a{2,3}",
            r"\p{greek}",
            r"\x{e9}",
            r"\P{L}",
        ] {
            assert!(!has_placeholder(regex), "{regex}");
        }
        assert!(TextPattern::new(r"^\p{greek}+$").is_ok());
    }

    #[test]
    fn paths_parse_with_alternatives_and_wildcards() {
        let p = FieldPath::parse("properties.privateEndpointConnections[*].properties.status | privateEndpointConnections[*].status").unwrap();
        assert_eq!(p.alternatives.len(), 2);
        assert_eq!(
            p.alternatives[0],
            vec![
                Step::Key("properties".into()),
                Step::Key("privateEndpointConnections".into()),
                Step::Each,
                Step::Key("properties".into()),
                Step::Key("status".into())
            ]
        );
        assert!(p.has_each());
        let q = FieldPath::parse("traffic.* ").unwrap();
        assert_eq!(
            q.alternatives[0],
            vec![Step::Key("traffic".into()), Step::Each]
        );
        assert_eq!(
            FieldPath::parse("a[0][2].b").unwrap().alternatives[0],
            vec![
                Step::Key("a".into()),
                Step::Index(0),
                Step::Index(2),
                Step::Key("b".into())
            ]
        );
        assert!(FieldPath::parse("a..b").is_err());
        assert!(FieldPath::parse("a[x]").is_err());
        assert!(FieldPath::parse("a[0").is_err());
        assert!(FieldPath::parse("a | ").is_err());
    }
}
