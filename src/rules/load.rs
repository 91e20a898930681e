//! Loading rules: parse each YAML file, validate every key, compile the patterns and
//! build the shared prefilter. Every problem is reported with the file, the rule id and
//! the key, in one sentence.

use std::collections::{BTreeSet, HashMap};
use std::fmt;

use regex::bytes::{Regex, RegexBuilder};

use super::compare::{Op, ValueType};
use super::literal;
use super::model::{FAMILIES, RuleSpec};
use super::resource::{
    CheckArea, ResourceMatch, compile_related, compile_tests, resource_kind_names,
};
use super::{
    Condition, ContextCapture, ERROR_LITERALS, Examples, Pattern, PatternRole, Rule, RuleSet,
    RuleSource,
};
use crate::evidence::DocumentKind;
use crate::evidence::resource::ResourceKind;
use crate::yaml_error::YamlError;

/// Placeholders the report fills from the run's context rather than from facts.
pub const CONTEXT_PLACEHOLDERS: &[&str] = &[
    "endpoint",
    "deployment",
    "workspace",
    "group",
    "subscription",
    "region",
    "storage_account",
    "registry",
    "namespace",
    "pod",
    "run_id",
    "model",
    "model_version",
    "deployment_yaml",
    "logs",
];

/// Placeholders amldoctor derives from a captured fact: `{package}`, the pip package
/// of a captured `module`.
pub const DERIVED_PLACEHOLDERS: &[(&str, &str)] = &[("package", "module")];

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

/// The built-in catalogue. `computed` lists the rule ids that analysers compute.
pub fn load_builtin(computed: &[&str]) -> Result<RuleSet, RuleError> {
    compile(builtin_rule_files(), computed)
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
pub fn load_dir(user: Vec<RuleFile>, computed: &[&str]) -> Result<RuleSet, RuleError> {
    let mut files = builtin_rule_files();
    files.extend(user);
    compile(files, computed)
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

pub(crate) fn is_snake(name: &str) -> bool {
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

struct Builder<'c> {
    rules: Vec<Rule>,
    patterns: Vec<Pattern>,
    pattern_literals: Vec<Vec<literal::Literal>>,
    computed: &'c [&'c str],
}

/// Validates and compiles rule files into one set. `computed` lists the ids analysers
/// compute (handed in, so rules never import an analyser).
pub fn compile(files: Vec<RuleFile>, computed: &[&str]) -> Result<RuleSet, RuleError> {
    let mut b = Builder {
        rules: Vec::new(),
        patterns: Vec::new(),
        pattern_literals: Vec::new(),
        computed,
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
    // caused-by and with-finding must name rules that exist.
    for rule in &b.rules {
        let finding_links = rule.resource.iter().flat_map(|m| &m.with_finding);
        let links = rule
            .caused_by
            .iter()
            .enumerate()
            // `*`: whatever specific error the same input shows (a wrapper code).
            .filter(|(_, id)| id.as_str() != ANY_CAUSE)
            .map(|(i, id)| (format!("caused-by[{i}]"), id))
            .chain(
                finding_links
                    .enumerate()
                    .map(|(i, id)| (format!("match.with-finding[{i}]"), id)),
            );
        for (key, target) in links {
            if !seen.contains_key(target) {
                return Err(RuleError {
                    path: rule.source.path.clone(),
                    rule_id: Some(rule.id.clone()),
                    key: Some(key),
                    message: format!("no rule has the id '{target}'"),
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

/// Names resource rules may use in commands besides their captures: what every
/// resource provides (see `Resource::names`).
pub use crate::evidence::resource::NAME_FACTS as RESOURCE_PLACEHOLDERS;

/// A rule error without the file and id, which the caller adds.
pub(super) type KeyError = (String, String);

pub(super) fn key_err(key: &str, message: impl Into<String>) -> KeyError {
    (key.to_owned(), message.into())
}

/// What a rule reads: document kinds (log rules) and resource kinds.
fn parse_applies_to(spec: &RuleSpec) -> Result<(u8, u16), KeyError> {
    let Some(list) = &spec.applies_to else {
        return Ok((
            DocumentKind::ALL.iter().fold(0u8, |acc, k| acc | k.bit()),
            0,
        ));
    };
    if list.is_empty() {
        return Err(key_err(
            "applies-to",
            "must list at least one kind, or be omitted",
        ));
    }
    let (mut docs, mut resources) = (0u8, 0u16);
    for (i, name) in list.iter().enumerate() {
        if let Some(kind) = DocumentKind::parse(name) {
            docs |= kind.bit();
        } else if let Some(kind) = ResourceKind::parse(name) {
            resources |= kind.bit();
        } else {
            return Err(key_err(
                &format!("applies-to[{i}]"),
                format!(
                    "unknown kind '{name}'; expected a document kind ({}) or a resource kind ({})",
                    kind_names(),
                    resource_kind_names()
                ),
            ));
        }
    }
    if docs != 0 && resources != 0 {
        return Err(key_err(
            "applies-to",
            "lists both document and resource kinds; a rule reads one or the other",
        ));
    }
    Ok((docs, resources))
}

/// Title, remediation, family, id and links.
fn check_basics(spec: &RuleSpec) -> Result<(), KeyError> {
    if !is_kebab(&spec.id) {
        return Err(key_err(
            "id",
            "expected kebab-case such as flask2-register-typeerror",
        ));
    }
    if spec.title.trim().is_empty() {
        return Err(key_err("title", "must not be empty"));
    }
    if spec.remediation.trim().is_empty() {
        return Err(key_err("remediation", "must not be empty"));
    }
    if !FAMILIES.contains(&spec.family.as_str()) {
        return Err(key_err(
            "family",
            format!("expected one of: {}", FAMILIES.join(", ")),
        ));
    }
    for (i, link) in spec.docs.iter().enumerate() {
        if !link.starts_with("https://") {
            return Err(key_err(&format!("docs[{i}]"), "expected an https:// link"));
        }
    }
    for (i, cause) in spec.caused_by.iter().enumerate() {
        if cause == &spec.id {
            return Err(key_err(
                &format!("caused-by[{i}]"),
                "a rule cannot be caused by itself",
            ));
        }
    }
    Ok(())
}

/// `caused-by: ['*']`: the rule is a wrapper (`InternalServerError`, `DeploymentFailed`)
/// whose cause is any other error-level finding on the same input.
pub const ANY_CAUSE: &str = "*";

/// Which of patterns, field tests or code decides the rule, and that they agree with
/// `applies-to`, `computed` and `check`.
fn check_shape(
    spec: &RuleSpec,
    resources: u16,
    computed: &[&str],
) -> Result<Option<CheckArea>, KeyError> {
    let m = &spec.matcher;
    let has_patterns = !m.any.is_empty() || !m.all.is_empty() || !spec.unless.is_empty();
    let has_fields = m.fields.is_some();
    let has_related = !m.with.is_empty() || !m.without.is_empty() || !m.with_finding.is_empty();
    if spec.computed {
        if !computed.contains(&spec.id.as_str()) {
            return Err(key_err(
                "computed",
                format!(
                    "no code computes this id; computed rules are: {}",
                    computed.join(", ")
                ),
            ));
        }
        if has_patterns || has_fields || has_related {
            return Err(key_err(
                "match",
                "a computed rule has no patterns or field tests",
            ));
        }
    } else if has_fields || has_related {
        if has_patterns {
            return Err(key_err(
                "match",
                "a rule has line patterns or field tests, not both",
            ));
        }
        if resources == 0 {
            return Err(key_err(
                "applies-to",
                format!(
                    "field tests need resource kinds ({})",
                    resource_kind_names()
                ),
            ));
        }
        if !has_fields {
            return Err(key_err(
                "match.fields",
                "a rule over resources needs field tests",
            ));
        }
    } else if resources != 0 {
        return Err(key_err(
            "match.fields",
            "a rule that applies to resources needs field tests",
        ));
    } else if !has_patterns || (m.any.is_empty() && m.all.is_empty()) {
        return Err(key_err(
            "match",
            "needs at least one pattern under 'any' or 'all'",
        ));
    }
    match (&spec.check, resources != 0) {
        (Some(area), true) => CheckArea::parse(area).map(Some).ok_or_else(|| {
            key_err(
                "check",
                format!(
                    "expected one of: {}",
                    CheckArea::ALL.map(CheckArea::name).join(", ")
                ),
            )
        }),
        // Files `lint` reads (environments) are no Azure resource `check` reads.
        (None, true) if resources & !crate::evidence::resource::LINTED_ONLY == 0 => Ok(None),
        (None, true) => Err(key_err(
            "check",
            "a rule over resources names the 'amldoctor check' area it belongs to",
        )),
        // A computed check (DNS answers) belongs to an area without reading resources.
        (Some(area), false) if spec.computed => CheckArea::parse(area).map(Some).ok_or_else(|| {
            key_err(
                "check",
                format!(
                    "expected one of: {}",
                    CheckArea::ALL.map(CheckArea::name).join(", ")
                ),
            )
        }),
        (Some(_), false) => Err(key_err(
            "check",
            "only rules over resources and computed checks have a check area",
        )),
        (None, false) => Ok(None),
    }
}

/// Compiles `match.fields`, `with`, `without` and `with-finding`.
fn compile_resource_match(
    spec: &RuleSpec,
    captures: &mut BTreeSet<String>,
) -> Result<Option<ResourceMatch>, KeyError> {
    let m = &spec.matcher;
    let Some(fields) = &m.fields else {
        return Ok(None);
    };
    let mut names = Vec::new();
    let all = compile_tests(&fields.all, "match.fields.all", &mut names)?;
    let any = compile_tests(&fields.any, "match.fields.any", &mut names)?;
    if all.is_empty() && any.is_empty() {
        return Err(key_err("match.fields", "needs tests under 'all' or 'any'"));
    }
    let mut related = |list: &[super::model::RelatedSpec], key: &str| {
        list.iter()
            .enumerate()
            .map(|(i, r)| compile_related(r, &format!("match.{key}[{i}]"), &mut names))
            .collect::<Result<Vec<_>, _>>()
    };
    let with = related(&m.with, "with")?;
    let without = related(&m.without, "without")?;
    captures.extend(names);
    Ok(Some(ResourceMatch {
        all,
        any,
        with,
        without,
        with_finding: m.with_finding.clone(),
    }))
}

fn compile_context(
    spec: &RuleSpec,
    captures: &mut BTreeSet<String>,
) -> Result<Option<ContextCapture>, KeyError> {
    let Some(c) = &spec.context else {
        return Ok(None);
    };
    if !(1..=500).contains(&c.lines) {
        return Err(key_err(
            "context.lines",
            format!("expected 1 to 500, found {}", c.lines),
        ));
    }
    let mut extract = Vec::new();
    for (i, p) in c.extract.iter().enumerate() {
        let key = format!("context.extract[{i}]");
        let regex = compile_regex(p).map_err(|m| key_err(&key, m))?;
        let named = capture_names(&regex, &key, captures)?;
        if named == 0 {
            return Err(key_err(
                &key,
                "needs at least one named capture (?P<name>…)",
            ));
        }
        extract.push(regex);
    }
    Ok(Some(ContextCapture {
        lines: c.lines,
        extract,
    }))
}

/// Adds a regex's capture names to `captures`; returns how many it has.
fn capture_names(
    regex: &Regex,
    key: &str,
    captures: &mut BTreeSet<String>,
) -> Result<usize, KeyError> {
    let mut named = 0;
    for name in regex.capture_names().flatten() {
        if !is_snake(name) {
            return Err(key_err(
                key,
                format!("capture name '{name}' must be snake_case"),
            ));
        }
        captures.insert(name.to_owned());
        named += 1;
    }
    Ok(named)
}

fn compile_when(spec: &RuleSpec, captures: &BTreeSet<String>) -> Result<Vec<Condition>, KeyError> {
    let mut when = Vec::new();
    for (i, c) in spec.when.iter().enumerate() {
        let key = format!("when[{i}]");
        let value_type = ValueType::parse(&c.value_type).ok_or_else(|| {
            key_err(
                &format!("{key}.is"),
                "expected version, date, number or text",
            )
        })?;
        let op = Op::parse(&c.op)
            .ok_or_else(|| key_err(&format!("{key}.op"), "expected <, <=, >, >=, == or !="))?;
        value_type
            .validate(&c.value)
            .map_err(|m| key_err(&format!("{key}.value"), m))?;
        // Facts of `with-finding` rules are only known at run time.
        if !captures.contains(&c.fact) && spec.matcher.with_finding.is_empty() {
            return Err(key_err(
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
    Ok(when)
}

/// Every `{name}` of every command is a captured fact or a value the run knows.
fn check_commands(
    spec: &RuleSpec,
    resources: u16,
    captures: &BTreeSet<String>,
) -> Result<(), KeyError> {
    let texts = spec
        .commands
        .iter()
        .enumerate()
        .map(|(i, c)| (format!("commands[{i}]"), placeholders(c)))
        .chain(std::iter::once((
            "remediation".to_owned(),
            super::template::unfilled(&spec.remediation),
        )));
    for (key, names) in texts {
        for name in names {
            // Computed rules and `with-finding` get facts the loader cannot see.
            let known = spec.computed
                || !spec.matcher.with_finding.is_empty()
                || CONTEXT_PLACEHOLDERS.contains(&name)
                || (resources != 0 && RESOURCE_PLACEHOLDERS.contains(&name))
                || captures.contains(name)
                || DERIVED_PLACEHOLDERS
                    .iter()
                    .any(|(derived, from)| *derived == name && captures.contains(*from));
            if !known {
                return Err(key_err(
                    &key,
                    format!(
                        "unknown placeholder {{{name}}}; use a captured fact or one of {}",
                        CONTEXT_PLACEHOLDERS.join(", ")
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Both kinds of example (computed rules need none), and the kind log examples are
/// read as.
fn compile_examples(spec: &RuleSpec, kinds: u8) -> Result<Examples, KeyError> {
    if spec.examples.matching.is_empty() && !spec.computed {
        return Err(key_err(
            "examples.match",
            "needs at least one example that must match",
        ));
    }
    if spec.examples.no_match.is_empty() && !spec.computed {
        return Err(key_err(
            "examples.no-match",
            "needs at least one example that must not match",
        ));
    }
    let kind = match &spec.examples.kind {
        Some(name) => DocumentKind::parse(name).ok_or_else(|| {
            key_err(
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
    if kinds != 0 && kinds & kind.bit() == 0 {
        return Err(key_err(
            "examples.kind",
            format!("'{kind}' is not in applies-to"),
        ));
    }
    Ok(Examples {
        matching: spec.examples.matching.clone(),
        no_match: spec.examples.no_match.clone(),
        kind,
    })
}

impl Builder<'_> {
    fn add(&mut self, file: &RuleFile, spec: RuleSpec) -> Result<(), RuleError> {
        let rule = self
            .build(file, &spec)
            .map_err(|(key, message)| RuleError {
                path: file.path.clone(),
                rule_id: Some(spec.id.clone()),
                key: Some(key),
                message,
            })?;
        self.rules.push(rule);
        Ok(())
    }

    fn build(&mut self, file: &RuleFile, spec: &RuleSpec) -> Result<Rule, KeyError> {
        check_basics(spec)?;
        let (kinds, resource_kinds) = parse_applies_to(spec)?;
        let check = check_shape(spec, resource_kinds, self.computed)?;
        let rule_index = self.rules.len();
        let mut captures: BTreeSet<String> = BTreeSet::new();
        let any = self.add_patterns(
            &spec.matcher.any,
            PatternRole::Any,
            "match.any",
            rule_index,
            &mut captures,
        )?;
        let all = self.add_patterns(
            &spec.matcher.all,
            PatternRole::All,
            "match.all",
            rule_index,
            &mut captures,
        )?;
        let unless = self.add_patterns(
            &spec.unless,
            PatternRole::Unless,
            "unless",
            rule_index,
            &mut captures,
        )?;
        let context = compile_context(spec, &mut captures)?;
        let resource = compile_resource_match(spec, &mut captures)?;
        let when = compile_when(spec, &captures)?;
        check_commands(spec, resource_kinds, &captures)?;
        let fix = super::fix::compile(spec, resource_kinds, &captures)?;
        let examples = compile_examples(spec, if resource_kinds != 0 { 0 } else { kinds })?;
        Ok(Rule {
            id: spec.id.clone(),
            title: spec.title.trim().to_owned(),
            severity: spec.severity,
            family: spec.family.clone(),
            kinds: if resource_kinds != 0 { 0 } else { kinds },
            resource_kinds,
            resource,
            check,
            codes: spec.codes.clone(),
            usual: spec.usual,
            any,
            all,
            unless,
            when,
            context,
            caused_by: spec.caused_by.clone(),
            remediation: spec.remediation.trim_end().to_owned(),
            fix,
            commands: spec.commands.clone(),
            docs: spec.docs.clone(),
            examples,
            source: RuleSource {
                path: file.path.clone(),
                builtin: file.builtin,
            },
            computed: spec.computed,
        })
    }

    /// Compiles line patterns, each with the literal the prefilter looks for.
    fn add_patterns(
        &mut self,
        list: &[String],
        role: PatternRole,
        key: &str,
        rule: usize,
        captures: &mut BTreeSet<String>,
    ) -> Result<Vec<usize>, KeyError> {
        let mut ids = Vec::new();
        for (i, p) in list.iter().enumerate() {
            let key = format!("{key}[{i}]");
            let regex = compile_regex(p).map_err(|m| key_err(&key, m))?;
            capture_names(&regex, &key, captures)?;
            let hir =
                literal::parse(p).map_err(|m| key_err(&key, format!("invalid regex: {m}")))?;
            let literals = literal::required_literals(&hir).ok_or_else(|| {
                key_err(
                    &key,
                    format!(
                        "the pattern has no literal text of at least {} characters that every match contains; add one (amldoctor selects candidate lines by literal text)",
                        literal::MIN_LITERAL
                    ),
                )
            })?;
            ids.push(self.patterns.len());
            self.patterns.push(Pattern { regex, rule, role });
            self.pattern_literals.push(literals);
        }
        Ok(ids)
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
        // A line that opens a section of another kind (pod events after `az` output)
        // makes that kind's rules read the rest of the document.
        let mut sections = Vec::new();
        for (text, kind) in crate::detect::SECTION_MARKERS {
            let lit = literal::Literal {
                bytes: text.as_bytes().to_vec(),
                ascii_case_insensitive: false,
            };
            sections.push((slot(lit, &mut literals), kind.bit()));
        }
        // Lines that may name the endpoint, workspace or storage account are kept (a
        // few a document) to fill printed commands.
        let mut names = Vec::new();
        for text in crate::evidence::names::MARKERS {
            let lit = literal::Literal {
                bytes: text.as_bytes().to_vec(),
                ascii_case_insensitive: false,
            };
            names.push(slot(lit, &mut literals));
        }
        // Lines with escapes or entities are visited too: normalised, they may hold a
        // literal their raw bytes hide.
        for text in crate::evidence::normalize::TRIGGERS {
            let lit = literal::Literal {
                bytes: text.as_bytes().to_vec(),
                ascii_case_insensitive: false,
            };
            slot(lit, &mut literals);
        }
        let mut prefilter =
            super::prefilter::Prefilter::build(literals).map_err(|e| RuleError {
                path: "<rules>".to_owned(),
                rule_id: None,
                key: None,
                message: format!("cannot build the literal prefilter: {e}"),
            })?;
        for (index, bits) in sections {
            prefilter.literal_section[index] |= bits;
        }
        for index in names {
            prefilter.literal_is_name[index] = true;
        }
        // A literal only some rules' patterns need is searched for in the documents
        // those rules read; the markers above are searched for everywhere.
        for (index, patterns) in prefilter.literal_patterns.iter().enumerate() {
            let marker = prefilter.literal_is_error[index]
                || prefilter.literal_section[index] != 0
                || prefilter.literal_is_name[index];
            if !marker && !patterns.is_empty() {
                prefilter.literal_kinds[index] = patterns.iter().fold(0, |bits, p| {
                    bits | self.rules[self.patterns[*p as usize].rule].kinds
                });
            }
        }
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
