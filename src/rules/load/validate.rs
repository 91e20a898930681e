//! Validating a rule: its id, title, links and kinds, which of patterns, field tests or
//! code decides it (computed ids are handed in, so rules never import an analyser), its
//! commands' placeholders and its examples; across files, that ids are unique and that
//! `caused-by` and `with-finding` name rules that exist. Every refusal names the key.

use std::collections::{BTreeSet, HashMap};

use crate::evidence::DocumentKind;
use crate::evidence::resource::ResourceKind;
use crate::evidence::surface::Surface;
use crate::rules::error::{KeyError, RuleError, key_err};
use crate::rules::model::{FAMILIES, RuleSpec};
use crate::rules::placeholder_names::{RESOURCE_PLACEHOLDERS, placeholders};
use crate::rules::resource::{CheckArea, resource_kind_names};
use crate::rules::{Examples, Rule};

use super::read::RuleFile;

/// Placeholders the report fills from the run's context rather than from facts.
pub(crate) const CONTEXT_PLACEHOLDERS: &[&str] = &[
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
    // The managed identity a storage initializer signs in with.
    "identity_client_id",
    // `score --rps`: the request rate the deployment must serve.
    "rps",
    // One per ParallelRunStep job, whichever finding of its tree read them.
    "entry_module",
    "failing_input",
    // `rehearse parallel --job-file`: the job YAML to submit once the rehearsal is clean.
    "job_yaml",
];

/// Placeholders amldoctor derives from a captured fact: `{package}`, the pip package
/// of a captured `module`.
pub(crate) const DERIVED_PLACEHOLDERS: &[(&str, &str)] = &[("package", "module")];

/// `caused-by: ['*']`: the rule is a wrapper (`InternalServerError`, `DeploymentFailed`)
/// whose cause is any other error-level finding on the same input.
pub(crate) const ANY_CAUSE: &str = "*";

fn is_kebab(id: &str) -> bool {
    !id.is_empty()
        && id.split('-').all(|part| {
            !part.is_empty()
                && part
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

/// Title, remediation, family, id and links.
pub(super) fn check_basics(spec: &RuleSpec) -> Result<(), KeyError> {
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

/// What a rule reads: document kinds (log rules) and resource kinds.
pub(super) fn parse_applies_to(spec: &RuleSpec) -> Result<(u8, u16), KeyError> {
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

/// Which of patterns, field tests or code decides the rule, and that they agree with
/// `applies-to`, `computed` and `check`.
pub(super) fn check_shape(
    spec: &RuleSpec,
    resources: u16,
    computed: &[&str],
) -> Result<Option<CheckArea>, KeyError> {
    let m = &spec.matcher;
    let has_patterns = !m.any.is_empty() || !m.all.is_empty() || !spec.unless.is_empty();
    let has_fields = m.fields.is_some();
    let has_related = !m.with.is_empty()
        || !m.without.is_empty()
        || !m.unless_with.is_empty()
        || !m.with_finding.is_empty();
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

/// Every `{name}` of every command is a captured fact or a value the run knows.
pub(super) fn check_commands(
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
            crate::rules::template::unfilled(&spec.remediation),
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

/// The `surfaces:` of a computed rule, each completed with what it leaves to the rule:
/// known surface names, a fix that is not empty, placeholders as in `commands`.
pub(super) fn compile_surfaces(
    spec: &RuleSpec,
) -> Result<Vec<(Surface, crate::rules::SurfaceFix)>, KeyError> {
    if !spec.surfaces.is_empty() && !spec.computed {
        return Err(key_err(
            "surfaces",
            "only computed rules take surfaces: (the analysis that reports them knows what the failure was seen on)",
        ));
    }
    let names = || Surface::ALL.map(Surface::name).join(", ");
    let mut out = Vec::new();
    for (name, entry) in &spec.surfaces {
        let key = format!("surfaces.{name}");
        let surface = Surface::parse(name).ok_or_else(|| {
            key_err(
                &key,
                format!("unknown surface '{name}'; expected one of: {}", names()),
            )
        })?;
        if entry.remediation.is_none() && entry.commands.is_none() {
            return Err(key_err(&key, "needs a remediation, commands or both"));
        }
        let remediation = entry.remediation.as_deref().unwrap_or(&spec.remediation);
        if remediation.trim().is_empty() {
            return Err(key_err(&format!("{key}.remediation"), "must not be empty"));
        }
        out.push((
            surface,
            crate::rules::SurfaceFix {
                remediation: remediation.trim_end().to_owned(),
                commands: entry
                    .commands
                    .clone()
                    .unwrap_or_else(|| spec.commands.clone()),
            },
        ));
    }
    out.sort_by_key(|(s, _)| *s);
    Ok(out)
}

/// Both kinds of example (computed rules need none), and the kind log examples are
/// read as.
pub(super) fn compile_examples(spec: &RuleSpec, kinds: u8) -> Result<Examples, KeyError> {
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

fn kind_names() -> String {
    DocumentKind::ALL
        .iter()
        .map(|k| k.name())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Refuses a second rule with an id already defined; records the id's file otherwise.
pub(super) fn unique_id(
    seen: &mut HashMap<String, String>,
    file: &RuleFile,
    spec: &RuleSpec,
) -> Result<(), RuleError> {
    if let Some(first) = seen.get(&spec.id) {
        return Err(RuleError {
            path: file.path.clone(),
            rule_id: Some(spec.id.clone()),
            key: Some("id".to_owned()),
            message: format!("duplicate id; it is already defined in {first}"),
        });
    }
    seen.insert(spec.id.clone(), file.path.clone());
    Ok(())
}

/// `caused-by` and `with-finding` must name rules that exist (`ids`: every rule's).
pub(super) fn check_links(rules: &[Rule], ids: &HashMap<String, String>) -> Result<(), RuleError> {
    for rule in rules {
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
            if !ids.contains_key(target) {
                return Err(RuleError {
                    path: rule.source.path.clone(),
                    rule_id: Some(rule.id.clone()),
                    key: Some(key),
                    message: format!("no rule has the id '{target}'"),
                });
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::load::read::read;
    use crate::rules::load::tests::{VALID, file};

    fn spec(text: &str) -> RuleSpec {
        read(&file("r.yaml", text)).unwrap()
    }

    #[test]
    fn ids_are_kebab_case_and_links_https() {
        assert_eq!(check_basics(&spec(VALID)), Ok(()));
        let bad = spec(&VALID.replace("id: worker-boot-failed", "id: Worker_Boot"));
        assert_eq!(check_basics(&bad).unwrap_err().0, "id");
        let http = spec(&VALID.replace("remediation:", "docs: ['http://x.y']\nremediation:"));
        assert_eq!(check_basics(&http).unwrap_err().0, "docs[0]");
        let own = spec(&VALID.replace(
            "remediation:",
            "caused-by: [worker-boot-failed]\nremediation:",
        ));
        assert_eq!(check_basics(&own).unwrap_err().0, "caused-by[0]");
    }

    #[test]
    fn duplicate_ids_are_refused_naming_the_first_file() {
        let mut seen = HashMap::new();
        let s = spec(VALID);
        unique_id(&mut seen, &file("a.yaml", VALID), &s).unwrap();
        let err = unique_id(&mut seen, &file("b.yaml", VALID), &s).unwrap_err();
        assert_eq!(
            (err.path.as_str(), err.key.as_deref()),
            ("b.yaml", Some("id"))
        );
        assert_eq!(err.message, "duplicate id; it is already defined in a.yaml");
    }

    #[test]
    fn computed_ids_handed_in_are_accepted_and_no_others() {
        let computed = VALID
            .replace("match:\n  any: ['Worker failed to boot']\n", "computed: true\n")
            .replace("examples:\n  match: ['[2024] Worker failed to boot.']\n  no-match: ['Worker booted']\n", "");
        let s = spec(&computed);
        assert_eq!(check_shape(&s, 0, &["worker-boot-failed"]), Ok(None));
        let (key, message) = check_shape(&s, 0, &["prs-a", "prs-b"]).unwrap_err();
        assert_eq!(key, "computed");
        assert!(
            message.ends_with("computed rules are: prs-a, prs-b"),
            "{message}"
        );
        // Computed rules need no examples; matched ones need both kinds.
        assert!(compile_examples(&s, 0).is_ok());
        let no_examples = spec(&VALID.replace("  no-match: ['Worker booted']\n", ""));
        assert_eq!(
            compile_examples(&no_examples, 0).unwrap_err().0,
            "examples.no-match"
        );
    }

    #[test]
    fn a_rule_needs_patterns_or_field_tests_of_the_kinds_it_reads() {
        let s = spec(VALID);
        let (docs, resources) = parse_applies_to(&s).unwrap();
        assert!(docs != 0 && resources == 0);
        assert_eq!(check_shape(&s, resources, &[]), Ok(None));
        let none = spec(&VALID.replace("match:\n  any: ['Worker failed to boot']\n", ""));
        assert_eq!(check_shape(&none, 0, &[]).unwrap_err().0, "match");
        let unknown = spec(&VALID.replace("family:", "applies-to: [nonsense]\nfamily:"));
        let (key, message) = parse_applies_to(&unknown).unwrap_err();
        assert_eq!(key, "applies-to[0]");
        assert!(message.starts_with("unknown kind 'nonsense'"), "{message}");
    }

    #[test]
    fn commands_use_captured_facts_or_values_the_run_knows() {
        let s = spec(VALID);
        assert_eq!(check_commands(&s, 0, &BTreeSet::new()), Ok(()));
        let fact = spec(&VALID.replace("{deployment}'", "{deployment} --x {exception}'"));
        let (key, message) = check_commands(&fact, 0, &BTreeSet::new()).unwrap_err();
        assert_eq!(key, "commands[0]");
        assert!(
            message.starts_with("unknown placeholder {exception}"),
            "{message}"
        );
        let captured = BTreeSet::from(["exception".to_owned()]);
        assert_eq!(check_commands(&fact, 0, &captured), Ok(()));
    }
}
