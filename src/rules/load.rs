//! Loading rules: parse each YAML file, validate every key, compile the patterns and
//! build the shared prefilter. Every problem is reported with the file, the rule id and
//! the key, in one sentence.

use std::collections::{BTreeSet, HashMap};
use std::fmt;

use regex::bytes::{Regex, RegexBuilder};

use super::compare::{Op, ValueType};
use super::literal;
use super::model::{FAMILIES, RuleSpec};
use super::{
    Condition, ContextCapture, ERROR_LITERALS, Examples, Pattern, Role, Rule, RuleSet, RuleSource,
};
use crate::evidence::DocumentKind;
use crate::yaml_error::YamlError;

/// Placeholders the report fills from the run's context rather than from facts.
pub const CONTEXT_PLACEHOLDERS: &[&str] = &[
    "endpoint",
    "deployment",
    "workspace",
    "group",
    "subscription",
    "region",
];

/// A rule file that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleError {
    pub path: String,
    pub rule_id: Option<String>,
    pub key: Option<String>,
    pub message: String,
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path)?;
        if let Some(id) = &self.rule_id {
            write!(f, ": rule '{id}'")?;
        }
        if let Some(key) = &self.key {
            write!(f, ": {key}")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for RuleError {}

/// A rule file's path, text and whether it ships with amldoctor.
#[derive(Debug, Clone)]
pub struct RuleFile {
    pub path: String,
    pub text: String,
    pub builtin: bool,
}

/// The built-in catalogue.
pub fn load_builtin() -> Result<RuleSet, RuleError> {
    compile(builtin_rule_files())
}

pub fn builtin_rule_files() -> Vec<RuleFile> {
    super::builtin_files()
        .iter()
        .map(|(path, text)| RuleFile {
            path: (*path).to_owned(),
            text: (*text).to_owned(),
            builtin: true,
        })
        .collect()
}

/// The built-in catalogue plus user rule files (already read by `source`).
pub fn load_dir(user: Vec<RuleFile>) -> Result<RuleSet, RuleError> {
    let mut files = builtin_rule_files();
    files.extend(user);
    compile(files)
}

fn is_kebab(id: &str) -> bool {
    !id.is_empty()
        && id.split('-').all(|part| {
            !part.is_empty()
                && part
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

fn is_snake(name: &str) -> bool {
    name.bytes().next().is_some_and(|b| b.is_ascii_lowercase())
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
}

/// Compiles a pattern in the rules' ASCII mode.
pub fn compile_regex(pattern: &str) -> Result<Regex, String> {
    RegexBuilder::new(pattern)
        .unicode(false)
        .size_limit(4 * 1024 * 1024)
        .build()
        .map_err(|e| {
            let text = e.to_string();
            text.lines()
                .rev()
                .find(|l| l.starts_with("error:"))
                .map(|l| format!("invalid regex: {}", l.trim_start_matches("error:").trim()))
                .unwrap_or_else(|| format!("invalid regex: {}", text.replace('\n', " ")))
        })
}

struct Builder {
    rules: Vec<Rule>,
    patterns: Vec<Pattern>,
    pattern_literals: Vec<Vec<literal::Literal>>,
}

/// Validates and compiles rule files into one set.
pub fn compile(files: Vec<RuleFile>) -> Result<RuleSet, RuleError> {
    let mut b = Builder {
        rules: Vec::new(),
        patterns: Vec::new(),
        pattern_literals: Vec::new(),
    };
    let mut seen: HashMap<String, String> = HashMap::new();
    for file in &files {
        let spec = parse_spec(file)?;
        if let Some(first) = seen.get(&spec.id) {
            return Err(RuleError {
                path: file.path.clone(),
                rule_id: Some(spec.id.clone()),
                key: Some("id".to_owned()),
                message: format!("duplicate id; it is already defined in {first}"),
            });
        }
        seen.insert(spec.id.clone(), file.path.clone());
        b.add(file, spec)?;
    }
    // caused-by must name rules that exist.
    for rule in &b.rules {
        for (i, cause) in rule.caused_by.iter().enumerate() {
            if !seen.contains_key(cause) {
                return Err(RuleError {
                    path: rule.source.path.clone(),
                    rule_id: Some(rule.id.clone()),
                    key: Some(format!("caused-by[{i}]")),
                    message: format!("no rule has the id '{cause}'"),
                });
            }
        }
    }
    b.finish()
}

fn parse_spec(file: &RuleFile) -> Result<RuleSpec, RuleError> {
    serde_saphyr::from_str::<RuleSpec>(&file.text).map_err(|e| {
        let y = YamlError::from_saphyr(&e);
        // Name the rule when the id could be read, so the error points at it.
        let rule_id = file
            .text
            .lines()
            .find_map(|l| l.strip_prefix("id:"))
            .map(|v| v.trim().trim_matches(['\'', '"']).to_owned());
        let message = match y.unknown_key() {
            Some(key) => format!("unknown key '{key}'{}", y.position()),
            None => y.to_string(),
        };
        RuleError {
            path: file.path.clone(),
            rule_id,
            key: None,
            message,
        }
    })
}

impl Builder {
    fn add(&mut self, file: &RuleFile, spec: RuleSpec) -> Result<(), RuleError> {
        let err = |key: &str, message: String| RuleError {
            path: file.path.clone(),
            rule_id: Some(spec.id.clone()),
            key: Some(key.to_owned()),
            message,
        };
        if !is_kebab(&spec.id) {
            return Err(err(
                "id",
                "expected kebab-case such as flask2-register-typeerror".to_owned(),
            ));
        }
        if spec.title.trim().is_empty() {
            return Err(err("title", "must not be empty".to_owned()));
        }
        if spec.remediation.trim().is_empty() {
            return Err(err("remediation", "must not be empty".to_owned()));
        }
        if !FAMILIES.contains(&spec.family.as_str()) {
            return Err(err(
                "family",
                format!("expected one of: {}", FAMILIES.join(", ")),
            ));
        }
        let kinds = match &spec.applies_to {
            None => DocumentKind::ALL.iter().fold(0u8, |acc, k| acc | k.bit()),
            Some(list) if list.is_empty() => {
                return Err(err(
                    "applies-to",
                    "must list at least one kind, or be omitted".to_owned(),
                ));
            }
            Some(list) => {
                let mut bits = 0u8;
                for (i, name) in list.iter().enumerate() {
                    let kind = DocumentKind::parse(name).ok_or_else(|| {
                        err(
                            &format!("applies-to[{i}]"),
                            format!("unknown kind '{name}'; expected one of: {}", kind_names()),
                        )
                    })?;
                    bits |= kind.bit();
                }
                bits
            }
        };
        if spec.computed {
            if !crate::prs::analyze::COMPUTED_RULES.contains(&spec.id.as_str()) {
                return Err(err(
                    "computed",
                    format!(
                        "no code computes this id; computed rules are: {}",
                        crate::prs::analyze::COMPUTED_RULES.join(", ")
                    ),
                ));
            }
            if !spec.matcher.any.is_empty()
                || !spec.matcher.all.is_empty()
                || !spec.unless.is_empty()
            {
                return Err(err("match", "a computed rule has no patterns".to_owned()));
            }
        } else if spec.matcher.any.is_empty() && spec.matcher.all.is_empty() {
            return Err(err(
                "match",
                "needs at least one pattern under 'any' or 'all'".to_owned(),
            ));
        }
        for (i, link) in spec.docs.iter().enumerate() {
            if !link.starts_with("https://") {
                return Err(err(
                    &format!("docs[{i}]"),
                    "expected an https:// link".to_owned(),
                ));
            }
        }

        let rule_index = self.rules.len();
        let mut captures: BTreeSet<String> = BTreeSet::new();
        let mut add_patterns = |list: &[String],
                                role: Role,
                                key: &str,
                                this: &mut Builder|
         -> Result<Vec<usize>, RuleError> {
            let mut ids = Vec::new();
            for (i, p) in list.iter().enumerate() {
                let key = format!("{key}[{i}]");
                let regex = compile_regex(p).map_err(|m| err(&key, m))?;
                for name in regex.capture_names().flatten() {
                    if !is_snake(name) {
                        return Err(err(
                            &key,
                            format!("capture name '{name}' must be snake_case"),
                        ));
                    }
                    captures.insert(name.to_owned());
                }
                let hir =
                    literal::parse(p).map_err(|m| err(&key, format!("invalid regex: {m}")))?;
                let literals = literal::required_literals(&hir).ok_or_else(|| {
                    err(
                        &key,
                        format!(
                            "the pattern has no literal text of at least {} characters that every match contains; add one (amldoctor selects candidate lines by literal text)",
                            literal::MIN_LITERAL
                        ),
                    )
                })?;
                ids.push(this.patterns.len());
                this.patterns.push(Pattern {
                    regex,
                    rule: rule_index,
                    role,
                });
                this.pattern_literals.push(literals);
            }
            Ok(ids)
        };
        let any = add_patterns(&spec.matcher.any, Role::Any, "match.any", self)?;
        let all = add_patterns(&spec.matcher.all, Role::All, "match.all", self)?;
        let unless = add_patterns(&spec.unless, Role::Unless, "unless", self)?;

        let context = match &spec.context {
            None => None,
            Some(c) => {
                if !(1..=500).contains(&c.lines) {
                    return Err(err(
                        "context.lines",
                        format!("expected 1 to 500, found {}", c.lines),
                    ));
                }
                let mut extract = Vec::new();
                for (i, p) in c.extract.iter().enumerate() {
                    let key = format!("context.extract[{i}]");
                    let regex = compile_regex(p).map_err(|m| err(&key, m))?;
                    let mut named = 0;
                    for name in regex.capture_names().flatten() {
                        if !is_snake(name) {
                            return Err(err(
                                &key,
                                format!("capture name '{name}' must be snake_case"),
                            ));
                        }
                        captures.insert(name.to_owned());
                        named += 1;
                    }
                    if named == 0 {
                        return Err(err(
                            &key,
                            "needs at least one named capture (?P<name>…)".to_owned(),
                        ));
                    }
                    extract.push(regex);
                }
                Some(ContextCapture {
                    lines: c.lines,
                    extract,
                })
            }
        };

        let mut when = Vec::new();
        for (i, c) in spec.when.iter().enumerate() {
            let key = format!("when[{i}]");
            let value_type = ValueType::parse(&c.value_type).ok_or_else(|| {
                err(
                    &format!("{key}.is"),
                    "expected version, date, number or text".to_owned(),
                )
            })?;
            let op = Op::parse(&c.op).ok_or_else(|| {
                err(
                    &format!("{key}.op"),
                    "expected <, <=, >, >=, == or !=".to_owned(),
                )
            })?;
            value_type
                .validate(&c.value)
                .map_err(|m| err(&format!("{key}.value"), m))?;
            if !captures.contains(&c.fact) {
                return Err(err(
                    &format!("{key}.fact"),
                    format!("no pattern of this rule captures '{}'", c.fact),
                ));
            }
            when.push(Condition {
                fact: c.fact.clone(),
                value_type,
                op,
                value: c.value.clone(),
            });
        }

        for (i, command) in spec.commands.iter().enumerate() {
            for name in placeholders(command) {
                // Computed rules get their facts from code, which the loader cannot see.
                if !spec.computed
                    && !CONTEXT_PLACEHOLDERS.contains(&name)
                    && !captures.contains(name)
                {
                    return Err(err(
                        &format!("commands[{i}]"),
                        format!(
                            "unknown placeholder {{{name}}}; use a captured fact or one of {}",
                            CONTEXT_PLACEHOLDERS.join(", ")
                        ),
                    ));
                }
            }
        }

        if spec.examples.matching.is_empty() && !spec.computed {
            return Err(err(
                "examples.match",
                "needs at least one example that must match".to_owned(),
            ));
        }
        if spec.examples.no_match.is_empty() && !spec.computed {
            return Err(err(
                "examples.no-match",
                "needs at least one example that must not match".to_owned(),
            ));
        }
        let example_kind = match &spec.examples.kind {
            Some(name) => DocumentKind::parse(name).ok_or_else(|| {
                err(
                    "examples.kind",
                    format!("unknown kind '{name}'; expected one of: {}", kind_names()),
                )
            })?,
            // The first kind the rule lists; all kinds read generic text too.
            None => spec
                .applies_to
                .as_ref()
                .and_then(|l| l.first())
                .and_then(|n| DocumentKind::parse(n))
                .unwrap_or(DocumentKind::Generic),
        };
        if kinds & example_kind.bit() == 0 {
            return Err(err(
                "examples.kind",
                format!("'{example_kind}' is not in applies-to"),
            ));
        }
        for (i, cause) in spec.caused_by.iter().enumerate() {
            if cause == &spec.id {
                return Err(err(
                    &format!("caused-by[{i}]"),
                    "a rule cannot be caused by itself".to_owned(),
                ));
            }
        }

        self.rules.push(Rule {
            id: spec.id.clone(),
            title: spec.title.trim().to_owned(),
            severity: spec.severity,
            family: spec.family.clone(),
            kinds,
            codes: spec.codes.clone(),
            any,
            all,
            unless,
            when,
            context,
            caused_by: spec.caused_by.clone(),
            remediation: spec.remediation.trim_end().to_owned(),
            commands: spec.commands.clone(),
            docs: spec.docs.clone(),
            examples: Examples {
                matching: spec.examples.matching.clone(),
                no_match: spec.examples.no_match.clone(),
                kind: example_kind,
            },
            source: RuleSource {
                path: file.path.clone(),
                builtin: file.builtin,
            },
            computed: spec.computed,
        });
        Ok(())
    }

    fn finish(self) -> Result<RuleSet, RuleError> {
        let mut index: HashMap<literal::Literal, usize> = HashMap::new();
        let mut literals: Vec<(literal::Literal, Vec<u32>, bool)> = Vec::new();
        let mut slot =
            |lit: literal::Literal, literals: &mut Vec<(literal::Literal, Vec<u32>, bool)>| {
                *index.entry(lit.clone()).or_insert_with(|| {
                    literals.push((lit, Vec::new(), false));
                    literals.len() - 1
                })
            };
        for (pattern_id, set) in self.pattern_literals.iter().enumerate() {
            for lit in set {
                let i = slot(lit.clone(), &mut literals);
                let id = u32::try_from(pattern_id).unwrap_or(u32::MAX);
                if !literals[i].1.contains(&id) {
                    literals[i].1.push(id);
                }
            }
        }
        for text in ERROR_LITERALS {
            let lit = literal::Literal {
                bytes: text.as_bytes().to_vec(),
                ascii_case_insensitive: false,
            };
            let i = slot(lit, &mut literals);
            literals[i].2 = true;
        }
        let prefilter = super::prefilter::Prefilter::build(literals).map_err(|e| RuleError {
            path: "<rules>".to_owned(),
            rule_id: None,
            key: None,
            message: format!("cannot build the literal prefilter: {e}"),
        })?;
        Ok(RuleSet {
            rules: self.rules,
            patterns: self.patterns,
            prefilter,
        })
    }
}

fn kind_names() -> String {
    DocumentKind::ALL
        .iter()
        .map(|k| k.name())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The `{name}` placeholders of a command template.
pub fn placeholders(template: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = template;
    while let Some(start) = rest.find('{') {
        let after = &rest[start + 1..];
        match after.find('}') {
            Some(end) => {
                let name = &after[..end];
                if !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
                {
                    out.push(name);
                }
                rest = &after[end + 1..];
            }
            None => break,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn builtin_literals_all_go_to_the_fast_searchers() {
        // A fully case-insensitive literal needs a slower automaton over every byte of
        // every log (measured: 8x slower scans). Built-in rules keep a case-sensitive
        // literal in each pattern.
        let set = super::load_builtin().unwrap();
        let (packed, automata) = set.prefilter.shape();
        assert!(packed >= 1);
        assert_eq!(
            automata, 0,
            "a built-in pattern has only case-insensitive literal text"
        );
    }
}
