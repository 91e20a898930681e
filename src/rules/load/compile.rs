//! Compiling validated rules: line patterns in the rules' ASCII mode, each with the
//! literal every match contains (refused without one: the scanner selects candidate
//! lines by literal), capture names, `context`, `when`, field tests over resources and
//! `fix:`; then the shared prefilter over every literal of every rule.

use std::collections::{BTreeSet, HashMap};

use regex::bytes::{Regex, RegexBuilder};

use crate::evidence::KindSet;
use crate::rules::compare::{Op, ValueType};
use crate::rules::error::{KeyError, RuleError, key_err};
use crate::rules::lazy_regex::LazyRegex;
use crate::rules::literal;
use crate::rules::model::{RelatedSpec, RuleSpec};
use crate::rules::placeholder_names::is_snake;
use crate::rules::resource::{ResourceMatch, compile_related, compile_tests};
use crate::rules::{
    Condition, ContextCapture, ERROR_LITERALS, Pattern, PatternRole, Rule, RuleSet, RuleSource,
};

use super::read::RuleFile;
use super::validate::{
    check_basics, check_commands, check_shape, compile_examples, compile_surfaces, parse_applies_to,
};

/// The literal length that makes a one-line signature specific (`OutOfQuota`,
/// `ImageBuildFailure`, `No module named`): shorter ones (`Killed`, `ERROR`) need the
/// context of a detected kind.
const STANDALONE_LITERAL: usize = 10;

/// Compiles a pattern in the rules' ASCII mode.
pub(crate) fn compile_regex(pattern: &str) -> Result<Regex, String> {
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

/// The rules compiled so far, their patterns and each pattern's literals.
#[derive(Debug)]
pub(super) struct Builder<'c> {
    rules: Vec<Rule>,
    patterns: Vec<Pattern>,
    pattern_literals: Vec<Vec<literal::Literal>>,
    computed: &'c [&'c str],
    /// The rule being added is built in (its patterns compile when first used).
    builtin: bool,
    /// A user's rule is in the set: the prefilter is built at load, to refuse there.
    any_user: bool,
}

impl<'c> Builder<'c> {
    /// An empty set; `computed` lists the ids analysers compute.
    pub(super) fn new(computed: &'c [&'c str]) -> Builder<'c> {
        Builder {
            rules: Vec::new(),
            patterns: Vec::new(),
            pattern_literals: Vec::new(),
            computed,
            builtin: false,
            any_user: false,
        }
    }

    /// The rules added so far.
    pub(super) fn rules(&self) -> &[Rule] {
        &self.rules
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
    let mut related = |list: &[RelatedSpec], key: &str| {
        list.iter()
            .enumerate()
            .map(|(i, r)| compile_related(r, &format!("match.{key}[{i}]"), &mut names))
            .collect::<Result<Vec<_>, _>>()
    };
    let with = related(&m.with, "with")?;
    let without = related(&m.without, "without")?;
    let unless_with = related(&m.unless_with, "unless-with")?;
    captures.extend(names);
    Ok(Some(ResourceMatch {
        all,
        any,
        with,
        without,
        unless_with,
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
    check_capture_names(
        regex.capture_names().flatten().map(str::to_owned).collect(),
        key,
        captures,
    )
}

/// The named groups of a parsed pattern, in order.
fn hir_capture_names(hir: &regex_syntax::hir::Hir) -> Vec<String> {
    use regex_syntax::hir::HirKind;
    let mut names = Vec::new();
    let mut pending = vec![hir];
    while let Some(h) = pending.pop() {
        match h.kind() {
            HirKind::Capture(c) => {
                if let Some(n) = &c.name {
                    names.push(n.to_string());
                }
                pending.push(&c.sub);
            }
            HirKind::Concat(list) | HirKind::Alternation(list) => pending.extend(list.iter().rev()),
            HirKind::Repetition(r) => pending.push(&r.sub),
            _ => {}
        }
    }
    names
}

fn check_capture_names(
    names: Vec<String>,
    key: &str,
    captures: &mut BTreeSet<String>,
) -> Result<usize, KeyError> {
    let mut named = 0;
    for name in &names {
        if !is_snake(name) {
            return Err(key_err(
                key,
                format!("capture name '{name}' must be snake_case"),
            ));
        }
        captures.insert(name.clone());
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

impl Builder<'_> {
    /// Validates and compiles the rule of one file, refused naming the file, rule and key.
    pub(super) fn add(&mut self, file: &RuleFile, spec: RuleSpec) -> Result<(), RuleError> {
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
        self.builtin = file.builtin;
        self.any_user |= !file.builtin;
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
        let surfaces = compile_surfaces(spec)?;
        let fix = crate::rules::fix::compile(spec, resource_kinds, &captures)?;
        let examples = compile_examples(spec, if resource_kinds != 0 { 0 } else { kinds })?;
        let kinds = match (resource_kinds, self.stands_alone(&any, &all)) {
            (0, true) => kinds | KindSet::STANDALONE,
            (0, false) => kinds,
            _ => 0,
        };
        Ok(Rule {
            id: spec.id.clone(),
            title: spec.title.trim().to_owned(),
            severity: spec.severity,
            family: spec.family.clone(),
            kinds,
            resource_kinds,
            resource,
            check,
            codes: spec.codes.clone(),
            usual: spec.usual,
            advisory: spec.advisory,
            any,
            all,
            unless,
            when,
            context,
            caused_by: spec.caused_by.clone(),
            remediation: spec.remediation.trim_end().to_owned(),
            fix,
            commands: spec.commands.clone(),
            surfaces,
            docs: spec.docs.clone(),
            examples,
            source: RuleSource {
                path: file.path.clone(),
                builtin: file.builtin,
            },
            computed: spec.computed,
        })
    }

    /// Whether a rule's signature is specific enough to read a document without context
    /// (see [`KindSet::STANDALONE`]): it is one line (no `all` pattern needs another), and
    /// every `any` pattern needs a literal of [`STANDALONE_LITERAL`] bytes, such as an
    /// error code or a message's words, not a level or a bare exception name.
    fn stands_alone(&self, any: &[usize], all: &[usize]) -> bool {
        all.is_empty()
            && !any.is_empty()
            && any.iter().all(|p| {
                self.pattern_literals[*p]
                    .iter()
                    .all(|l| l.bytes.len() >= STANDALONE_LITERAL)
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
            let hir =
                literal::parse(p).map_err(|m| key_err(&key, format!("invalid regex: {m}")))?;
            // A built-in pattern compiles when it is first needed; a user's now, so a
            // bad one is refused with its file and key.
            let regex = if self.builtin {
                LazyRegex::new(p)
            } else {
                LazyRegex::compiled(compile_regex(p).map_err(|m| key_err(&key, m))?)
            };
            check_capture_names(hir_capture_names(&hir), &key, captures)?;
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

    /// The set, with the prefilter over every pattern's literals and the markers.
    pub(super) fn finish(self) -> Result<RuleSet, RuleError> {
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
        for text in crate::evidence::azure_names::MARKERS {
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
        let refused = |e: String| RuleError {
            path: "<rules>".to_owned(),
            rule_id: None,
            key: None,
            message: format!("cannot build the literal prefilter: {e}"),
        };
        let mut prefilter = crate::rules::prefilter::Prefilter::build(literals).map_err(refused)?;
        if self.any_user {
            prefilter.check().map_err(refused)?;
        }
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

#[cfg(test)]
mod tests {
    use crate::rules::load::compile;
    use crate::rules::load::tests::{VALID, file};

    fn refusal(text: &str) -> (Option<String>, String) {
        let err = compile(vec![file("r.yaml", text)], &[]).unwrap_err();
        (err.key, err.message)
    }

    #[test]
    fn a_valid_rule_compiles_and_its_literal_is_searched_for() {
        let set = compile(vec![file("r.yaml", VALID)], &[]).unwrap();
        let rule = &set.rules[0];
        assert_eq!(
            (rule.id.as_str(), rule.any.as_slice()),
            ("worker-boot-failed", &[0][..])
        );
        assert_eq!(set.patterns[0].rule, 0);
        let found = (0..set.prefilter.literal_patterns.len())
            .find(|i| set.prefilter.literal(*i) == b"Worker failed to boot")
            .expect("the pattern's literal is in the prefilter");
        assert_eq!(set.prefilter.patterns_of(found), &[0]);
    }

    #[test]
    fn a_pattern_without_a_literal_of_three_characters_is_refused() {
        let (key, message) =
            refusal(&VALID.replace("any: ['Worker failed to boot']", r"any: ['\d+ ab?\w*']"));
        assert_eq!(key.as_deref(), Some("match.any[0]"));
        assert!(
            message.starts_with("the pattern has no literal text of at least 3 characters"),
            "{message}"
        );
    }

    #[test]
    fn invalid_regexes_and_capture_names_are_refused_at_their_key() {
        let (key, message) = refusal(&VALID.replace(
            "any: ['Worker failed to boot']",
            "any: ['Worker failed (to boot']",
        ));
        assert_eq!(key.as_deref(), Some("match.any[0]"));
        assert!(message.starts_with("invalid regex: "), "{message}");
        let (key, message) = refusal(&VALID.replace(
            "any: ['Worker failed to boot']",
            r"any: ['Worker (?P<Why>\w+) failed to boot']",
        ));
        assert_eq!(key.as_deref(), Some("match.any[0]"));
        assert_eq!(message, "capture name 'Why' must be snake_case");
    }

    #[test]
    fn when_needs_a_fact_the_rule_captures() {
        let when = "when:\n  - fact: version\n    is: version\n    op: '<'\n    value: '2.0'\nremediation:";
        let (key, message) = refusal(&VALID.replace("remediation:", when));
        assert_eq!(key.as_deref(), Some("when[0].fact"));
        assert_eq!(message, "no pattern of this rule captures 'version'");
        let captured = VALID
            .replace(
                "any: ['Worker failed to boot']",
                r"any: ['Worker failed to boot (?P<version>[\d.]+)']",
            )
            .replace("remediation:", when)
            .replace(
                "match: ['[2024] Worker failed to boot.']",
                "match: ['Worker failed to boot 1.5']",
            );
        compile(vec![file("r.yaml", &captured)], &[]).unwrap();
    }
}
