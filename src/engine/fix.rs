//! A rule's `fix:` applied to the resource it fired on: which key of which file, at
//! which line, takes which value. Pure; the text of the file is not needed here (`lint`
//! turns these edits into edited lines).

use serde_json::Value;

use crate::evidence::json_lines::escape_token;
use crate::evidence::resource::Resource;
use crate::finding::{Change, Edit};
use crate::rules::Rule;
use crate::rules::fix::FixAction;

use super::resource::Facts;

/// The edits of `rule`'s fix for resource `r`, with values filled from `facts` (and the
/// resource's names). A value naming an unknown fact, or a key to remove that the file
/// lacks, gives no edit.
pub(crate) fn edits(rule: &Rule, r: &Resource, facts: &Facts) -> Vec<Edit> {
    let names = r.names();
    let value = |name: &str| facts.get(name).or_else(|| names.get(name)).cloned();
    let mut out = Vec::new();
    for fix in &rule.fix {
        let present = fix
            .alternatives
            .iter()
            .find(|keys| set(&r.json, keys).is_some());
        if let Some(re) = &fix.if_matches {
            let text = present
                .and_then(|keys| set(&r.json, keys))
                .map(|v| match v {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                });
            if !text.is_some_and(|t| re.is_match(&t)) {
                continue;
            }
        }
        let edit = match (&fix.action, present) {
            (FixAction::Remove, Some(keys)) => Some(Edit {
                path: r.path.clone(),
                line: r.line_of(&pointer(keys)),
                change: Change::Remove {
                    key: keys.last().cloned().unwrap_or_default(),
                },
            }),
            (FixAction::Remove, None) => None,
            (FixAction::Set(template), present) => {
                let Some(value) =
                    crate::rules::resource::fill_template(template, &value, |v| v.to_owned())
                else {
                    continue;
                };
                match present {
                    Some(keys) => Some(set_key(r, &pointer(keys), value)),
                    None => fix.alternatives.first().map(|keys| add(r, keys, value)),
                }
            }
        };
        out.extend(edit);
    }
    out
}

/// The edit giving the key at `pointer` (relative to the resource) `value`; analysers
/// that compute a setting's new value make their edits with it too.
pub(crate) fn set_key(r: &Resource, pointer: &str, value: String) -> Edit {
    Edit {
        path: r.path.clone(),
        line: r.line_of(pointer),
        change: Change::SetValue {
            key: crate::evidence::json_lines::last_key(pointer),
            value,
        },
    }
}

/// The value at `keys`, when set (not absent, not `null`).
fn set<'v>(root: &'v Value, keys: &[String]) -> Option<&'v Value> {
    root.pointer(&pointer(keys)).filter(|v| !v.is_null())
}

fn pointer(keys: &[String]) -> String {
    keys.iter()
        .map(|k| format!("/{}", escape_token(k)))
        .collect()
}

/// The key added under its deepest ancestor the file has (line 0: the top level).
fn add(r: &Resource, keys: &[String], value: String) -> Edit {
    let depth = (1..keys.len())
        .rev()
        .find(|d| {
            r.json
                .pointer(&pointer(&keys[..*d]))
                .is_some_and(Value::is_object)
        })
        .unwrap_or(0);
    let line = if depth == 0 && r.base.is_empty() {
        0
    } else {
        r.line_of(&pointer(&keys[..depth]))
    };
    Edit {
        path: r.path.clone(),
        line,
        change: Change::AddKey {
            keys: keys[depth..].to_vec(),
            value,
        },
    }
}
