//! Command templates of rules: `{name}` placeholders filled from facts and the run's
//! values, only where the value is safe to paste into a shell.

use std::collections::BTreeMap;

/// Values for command placeholders that come from the run, not from the evidence.
pub type Placeholders = BTreeMap<&'static str, String>;

/// Whether a value can be pasted into a shell command as it is. Values come from logs,
/// which an attacker may write: anything with quotes, spaces, `$`, backticks or other
/// shell syntax is not filled in, and the placeholder stays visible instead.
pub fn shell_safe(value: &str) -> bool {
    !value.is_empty()
        && value.bytes().all(|b| {
            b.is_ascii_alphanumeric()
                || matches!(
                    b,
                    b'_' | b'.' | b':' | b'/' | b'=' | b'@' | b'%' | b'+' | b',' | b'~' | b'-'
                )
        })
}

/// `value` as one shell word: as it is when [`shell_safe`], else single-quoted.
pub fn shell_word(value: &str) -> String {
    if shell_safe(value) {
        value.to_owned()
    } else {
        format!("'{}'", value.replace('\'', "'\\''"))
    }
}

/// Fills `{name}` placeholders from facts, then from the run, when the value is
/// [`shell_safe`]; unknown or unsafe ones stay visible.
pub fn fill(template: &str, facts: &BTreeMap<String, String>, run: &Placeholders) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(start) = rest.find('{') {
        out.push_str(&rest[..start]);
        let after = &rest[start + 1..];
        match after.find('}') {
            Some(end) => {
                let name = &after[..end];
                match facts
                    .get(name)
                    .or_else(|| run.get(name))
                    .filter(|v| shell_safe(v))
                {
                    Some(v) => out.push_str(v),
                    None => {
                        out.push('{');
                        out.push_str(name);
                        out.push('}');
                    }
                }
                rest = &after[end + 1..];
            }
            None => {
                out.push_str(&rest[start..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}
