//! Loading rules: read each YAML file (`read.rs`), validate every key (`validate.rs`),
//! compile the patterns and build the shared prefilter (`compile.rs`). Every problem is
//! reported with the file, the rule id and the key, in one sentence.

mod compile;
mod read;
mod validate;

use std::collections::HashMap;

use super::RuleSet;
use compile::Builder;

// The paths callers (the engine, the commands, `rules`' own re-exports) use.
pub use super::error::RuleError;
pub(crate) use compile::compile_regex;
pub(crate) use read::{RuleFile, builtin_rule_files};
pub(crate) use validate::{ANY_CAUSE, CONTEXT_PLACEHOLDERS};

/// The built-in catalogue. `computed` lists the rule ids that analysers compute.
pub fn load_builtin(computed: &[&str]) -> Result<RuleSet, RuleError> {
    compile(builtin_rule_files(), computed)
}

/// The built-in catalogue plus user rule files (already read by `source`).
pub fn load_dir(user: Vec<RuleFile>, computed: &[&str]) -> Result<RuleSet, RuleError> {
    let mut files = builtin_rule_files();
    files.extend(user);
    compile(files, computed)
}

/// Validates and compiles rule files into one set. `computed` lists the ids analysers
/// compute (handed in, so rules never import an analyser). The first problem, in file
/// order, is the error.
pub(crate) fn compile(files: Vec<RuleFile>, computed: &[&str]) -> Result<RuleSet, RuleError> {
    let mut b = Builder::new(computed);
    let mut seen: HashMap<String, String> = HashMap::new();
    for file in &files {
        let spec = read::read(file)?;
        validate::unique_id(&mut seen, file, &spec)?;
        b.add(file, spec)?;
    }
    validate::check_links(b.rules(), &seen)?;
    b.finish()
}

/// The built-in catalogue for unit tests, its computed rules taken as computed.
#[cfg(test)]
pub(crate) fn builtin_for_tests() -> RuleSet {
    let files = builtin_rule_files();
    let specs: Vec<_> = files.iter().filter_map(|f| read::read(f).ok()).collect();
    load_builtin(&computed_of(&specs)).unwrap_or_else(|e| panic!("{e}"))
}

/// The ids of the computed rules among `specs`, as the analysers would hand them in.
#[cfg(test)]
fn computed_of(specs: &[crate::rules::model::RuleSpec]) -> Vec<&str> {
    specs
        .iter()
        .filter(|s| s.computed)
        .map(|s| s.id.as_str())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A rule every part accepts; tests change one key of it.
    pub(super) const VALID: &str = "id: worker-boot-failed
title: The worker failed to boot
severity: error
family: inference-server
match:
  any: ['Worker failed to boot']
remediation: See the cause.
commands: ['az ml online-deployment get-logs -e {endpoint} -n {deployment}']
examples:
  match: ['[2024] Worker failed to boot.']
  no-match: ['Worker booted']
";

    pub(super) fn file(path: &str, text: &str) -> RuleFile {
        RuleFile {
            path: path.to_owned(),
            text: text.to_owned(),
            builtin: false,
        }
    }

    #[test]
    fn a_user_rule_with_the_id_of_a_builtin_one_is_refused_naming_both_files() {
        let builtin = builtin_rule_files();
        // The catalogue's computed rules, as the analysers would hand their ids in.
        let specs: Vec<_> = builtin.iter().map(|f| read::read(f).unwrap()).collect();
        let computed = computed_of(&specs);
        assert_eq!(load_builtin(&computed).unwrap().rules.len(), builtin.len());
        let first = &builtin[0];
        let copy = VALID.replace("worker-boot-failed", &specs[0].id);
        let err = load_dir(vec![file("mine/copy.yaml", &copy)], &computed).unwrap_err();
        assert_eq!(err.path, "mine/copy.yaml");
        assert_eq!(err.key.as_deref(), Some("id"));
        assert!(err.message.contains(&first.path), "{err}");
    }

    #[test]
    fn links_must_name_rules_that_exist() {
        let wrapper = VALID.replace("worker-boot-failed", "boot-wrapper").replace(
            "remediation:",
            "caused-by: [worker-boot-failed, '*']\nremediation:",
        );
        let set = compile(vec![file("a.yaml", VALID), file("b.yaml", &wrapper)], &[]).unwrap();
        assert_eq!(set.rules.len(), 2);
        let err = compile(vec![file("b.yaml", &wrapper)], &[]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "b.yaml: rule 'boot-wrapper': caused-by[0]: no rule has the id 'worker-boot-failed'"
        );
    }
}
