//! Reading rule files: the built-in catalogue as files, and each file's YAML into a
//! [`RuleSpec`], refused with the file (and the rule id when it could be read) on an
//! unknown key or a syntax error.

use crate::rules::builtin_files;
use crate::rules::error::RuleError;
use crate::rules::model::RuleSpec;
use crate::yaml_error::YamlError;

/// A rule file's path, text and whether it ships with amldoctor.
#[derive(Debug, Clone)]
pub struct RuleFile {
    pub path: String,
    pub text: String,
    pub builtin: bool,
}

/// The files of the built-in catalogue, embedded at build time.
pub(crate) fn builtin_rule_files() -> Vec<RuleFile> {
    builtin_files()
        .iter()
        .map(|(path, text)| RuleFile {
            path: (*path).to_owned(),
            text: (*text).to_owned(),
            builtin: true,
        })
        .collect()
}

/// The rule a file holds, as written.
pub(super) fn read(file: &RuleFile) -> Result<RuleSpec, RuleError> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::load::tests::{VALID, file};

    #[test]
    fn a_rule_file_with_an_unknown_key_is_refused_naming_the_file_and_the_key() {
        let text = VALID.replace("severity: error", "severity: error\ncolour: red");
        let err = read(&file("rules/mine/boot.yaml", &text)).unwrap_err();
        assert_eq!(err.path, "rules/mine/boot.yaml");
        assert_eq!(err.rule_id.as_deref(), Some("worker-boot-failed"));
        assert!(err.message.starts_with("unknown key 'colour'"), "{err}");
        assert!(
            err.to_string().starts_with(
                "rules/mine/boot.yaml: rule 'worker-boot-failed': unknown key 'colour'"
            ),
            "{err}"
        );
    }

    #[test]
    fn a_file_that_is_no_rule_is_refused_naming_the_file() {
        let err = read(&file("notes.yaml", "just: [unclosed")).unwrap_err();
        assert_eq!(
            (err.path.as_str(), err.rule_id.as_deref()),
            ("notes.yaml", None)
        );
        assert!(!err.message.is_empty());
        assert_eq!(
            read(&file("ok.yaml", VALID)).unwrap().id,
            "worker-boot-failed"
        );
    }

    #[test]
    fn the_builtin_files_are_marked_builtin() {
        let files = builtin_rule_files();
        assert!(!files.is_empty());
        assert!(
            files
                .iter()
                .all(|f| f.builtin && f.path.starts_with("rules/")),
            "{:?}",
            files[0].path
        );
    }
}
