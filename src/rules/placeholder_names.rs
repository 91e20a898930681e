//! The names rules write and the checks of their form: snake_case capture names, the
//! `{name}` placeholders of commands and fix values, and the names every resource
//! provides. Shared by the loader, the `fix:` compiler and the resource-test compiler.

/// A capture or fact name: lower-case letters, digits and `_`, starting with a letter.
pub(super) fn is_snake(name: &str) -> bool {
    name.bytes().next().is_some_and(|b| b.is_ascii_lowercase())
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
}

/// The `{name}` placeholders of a command template.
pub(crate) fn placeholders(template: &str) -> Vec<&str> {
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

/// Names resource rules may use in commands besides their captures: what every
/// resource provides (see `Resource::names`).
pub(crate) use crate::evidence::resource::NAME_FACTS as RESOURCE_PLACEHOLDERS;
