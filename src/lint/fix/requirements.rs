//! Edits of requirement lines, in pip files (`Flask==2.0.3  # web`) and in conda files
//! (`- conda-forge::python=3.8`, the `pip:` items): which package a line names, and its
//! version specifier replaced, keeping the name's spelling, markers and comment.

use crate::lint::environment::normalise;

/// Whether the line is a requirement of the package `key` (names compared normalised).
pub(super) fn names(line: &str, key: &str) -> bool {
    requirement(line).is_some_and(|(pre, _, _)| requirement_name(pre) == normalise(key))
}

/// The requirement on the line with its specifier replaced by `value`.
pub(super) fn set_specifier(line: &str, value: &str) -> Option<String> {
    let (pre, _, rest) = requirement(line)?;
    Some(format!("{pre}{value}{rest}"))
}

/// The normalised package name at the end of a requirement's prefix.
fn requirement_name(pre: &str) -> String {
    let name = pre
        .trim_start()
        .trim_start_matches('-')
        .trim_start()
        .trim_start_matches(['"', '\''])
        .rsplit("::")
        .next()
        .unwrap_or_default();
    normalise(name.split('[').next().unwrap_or_default())
}

/// A requirement (`Flask==2.0.3`, `- flask=2.0.3`, `"jinja2>=3.1"  # note`): prefix with
/// the name, the specifier, and the rest (markers, quote, comment).
fn requirement(line: &str) -> Option<(&str, &str, &str)> {
    static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let re = RE.get_or_init(|| {
        regex::Regex::new(
            r#"^(?P<pre>\s*(?:-\s+)?["']?(?:[\w.-]+::)?[A-Za-z0-9][A-Za-z0-9._-]*(?:\[[^\]]*\])?)(?P<spec>[^#;"']*?)(?P<rest>\s*(?:;[^#]*?)?["']?(?:\s+#.*)?)$"#,
        )
        .expect("valid regex")
    });
    let c = re.captures(line)?;
    let g = |n: &str| c.name(n).map_or("", |m| m.as_str());
    Some((g("pre"), g("spec"), g("rest")))
}

#[cfg(test)]
mod tests {
    use crate::lint::fix::set_value;

    #[test]
    fn requirements_take_a_specifier_in_every_spelling() {
        let set = |line: &str, key: &str, v: &str| set_value(line, key, v, &[]);
        assert_eq!(
            set(
                "    - azureml-inference-server-http==0.4.13",
                "azureml-inference-server-http",
                ">=0.7.0"
            )
            .unwrap(),
            "    - azureml-inference-server-http>=0.7.0"
        );
        assert_eq!(
            set("Flask==2.0.3  # web", "flask", ">=2").unwrap(),
            "Flask>=2  # web"
        );
        assert_eq!(
            set("  - conda-forge::python=3.8", "python", "=3.10").unwrap(),
            "  - conda-forge::python=3.10"
        );
        assert_eq!(
            set(
                "azureml-defaults==1.38 ; python_version >= '3.8'",
                "azureml-defaults",
                ">=1.44"
            )
            .unwrap(),
            "azureml-defaults>=1.44 ; python_version >= '3.8'"
        );
        assert!(set("numpy==1.26", "flask", ">=2").is_none());
    }
}
