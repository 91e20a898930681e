//! A rule's `fix:`: the edits `lint --fix-suggestions` shows for a file the rule fired
//! on, as data beside the rule's tests (the key to change and its new value, or the key
//! to delete). The engine turns them into [`crate::finding::Edit`]s for the resource the
//! rule fired on; `lint` turns those into edited lines.

use std::collections::BTreeSet;

use super::error::{KeyError, key_err};
use super::model::RuleSpec;
use super::placeholder_names::{RESOURCE_PLACEHOLDERS, placeholders};
use super::resource::{FieldPath, Step};

/// What one fix does to its key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FixAction {
    /// The key takes this value (a template that may name facts); a file without the
    /// key gains it.
    Set(String),
    /// The key (or the requirement it names) is deleted.
    Remove,
}

/// One compiled `fix:` entry.
#[derive(Debug, Clone)]
pub struct Fix {
    /// Each alternative as its object keys, outermost first.
    pub alternatives: Vec<Vec<String>>,
    pub action: FixAction,
    /// The value (as text) must match this for the fix to apply.
    pub if_matches: Option<regex::Regex>,
}

/// The `fix:` entries of a rule over resources, checked: one action each, keys without
/// `*` or indexes, placeholders that are captured facts or the resource's names.
pub(crate) fn compile(
    spec: &RuleSpec,
    resource_kinds: u16,
    captures: &BTreeSet<String>,
) -> Result<Vec<Fix>, KeyError> {
    if !spec.fix.is_empty() && (resource_kinds == 0 || spec.computed) {
        return Err(key_err(
            "fix",
            "only rules with field tests over resources take fix: (computed rules make their edits in code)",
        ));
    }
    spec.fix
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let at = format!("fix[{i}]");
            let path = FieldPath::parse(&f.key).map_err(|e| key_err(&format!("{at}.key"), e))?;
            let alternatives = path
                .alternatives
                .iter()
                .map(|steps| {
                    steps
                        .iter()
                        .map(|s| match s {
                            Step::Key(k) if !k.contains('{') => Ok(k.clone()),
                            _ => Err(key_err(
                                &format!("{at}.key"),
                                format!(
                                    "'{}': a fix names plain keys (no *, [n] or {{fact}})",
                                    f.key
                                ),
                            )),
                        })
                        .collect::<Result<Vec<String>, KeyError>>()
                })
                .collect::<Result<Vec<_>, KeyError>>()?;
            let action = match (&f.set, f.remove) {
                (Some(value), false) => {
                    let value = value.text();
                    for name in placeholders(&value) {
                        let known =
                            captures.contains(name) || RESOURCE_PLACEHOLDERS.contains(&name);
                        if !known {
                            return Err(key_err(
                                &format!("{at}.set"),
                                format!("unknown placeholder {{{name}}}; use a captured fact"),
                            ));
                        }
                    }
                    FixAction::Set(value)
                }
                (None, true) => FixAction::Remove,
                _ => {
                    return Err(key_err(
                        &at,
                        "needs exactly one of set: VALUE or remove: true",
                    ));
                }
            };
            let if_matches = f
                .if_matches
                .as_deref()
                .map(|p| {
                    regex::Regex::new(p)
                        .map_err(|e| key_err(&format!("{at}.if-matches"), e.to_string()))
                })
                .transpose()?;
            Ok(Fix {
                alternatives,
                action,
                if_matches,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(fix: &str) -> RuleSpec {
        serde_saphyr::from_str(&format!(
            "id: x\ntitle: t\nseverity: error\nfamily: deployment\nremediation: r\nfix:\n{fix}"
        ))
        .unwrap()
    }

    #[test]
    fn fixes_name_plain_keys_and_one_action() {
        let captures: BTreeSet<String> = ["limit".to_owned()].into();
        let got = compile(
            &spec("  - key: request_settings.request_timeout_ms | requestTimeout\n    set: '{limit}'\n  - key: packages.flask\n    remove: true\n"),
            1,
            &captures,
        )
        .unwrap();
        assert_eq!(
            got[0].alternatives,
            vec![
                vec![
                    "request_settings".to_owned(),
                    "request_timeout_ms".to_owned()
                ],
                vec!["requestTimeout".to_owned()]
            ]
        );
        assert_eq!(got[0].action, FixAction::Set("{limit}".to_owned()));
        assert_eq!(got[1].action, FixAction::Remove);
        let err = |fix: &str, kinds: u16| compile(&spec(fix), kinds, &captures).unwrap_err();
        assert_eq!(
            err("  - key: a\n    remove: true\n    if-matches: '('\n", 1).0,
            "fix[0].if-matches"
        );
        assert_eq!(
            err("  - key: a\n    set: 1\n    remove: true\n", 1).0,
            "fix[0]"
        );
        assert_eq!(err("  - key: a\n", 1).0, "fix[0]");
        assert_eq!(
            err("  - key: traffic.*\n    remove: true\n", 1).0,
            "fix[0].key"
        );
        assert!(
            err("  - key: a\n    set: '{nope}'\n", 1)
                .1
                .contains("{nope}")
        );
        assert_eq!(err("  - key: a\n    remove: true\n", 0).0, "fix");
    }
}
