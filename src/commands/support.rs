//! What several commands share: loading the rule set (built-in, user directories and
//! the analysers' computed ids), an unknown rule id named, the time of the run, and the
//! `error:`, `warning:`, `note:` and `debug:` lines on stderr.

use std::path::PathBuf;

use crate::context::Context;
use crate::error::{Error, Result};
use crate::rules::RuleSet;
use crate::rules::load::RuleFile;
use crate::source;

/// The built-in catalogue alone.
pub fn builtin_rules() -> std::result::Result<RuleSet, crate::rules::RuleError> {
    crate::rules::load_builtin(&crate::analyse::analyser::computed_rule_ids())
}

/// The built-in rules plus the user's rule directories (flags, then project file).
pub fn load_rules(ctx: &Context, extra: &[PathBuf]) -> Result<RuleSet> {
    let mut user = Vec::new();
    let from_project = extra.len();
    for (n, dir) in extra.iter().chain(&ctx.project_rule_dirs).enumerate() {
        let files = source::inputs::read_rule_dir(dir).map_err(|e| {
            // A folder the project file names: say which file and key to fix.
            match (&ctx.project_file, n >= from_project) {
                (Some(file), true) => Error::input(format!("{}: rules: {e}", file.display())),
                _ => Error::input(e),
            }
        })?;
        user.extend(files.into_iter().map(|(path, text)| RuleFile {
            path: path.display().to_string(),
            text,
            builtin: false,
        }));
    }
    crate::rules::load_dir(user, &crate::analyse::analyser::computed_rule_ids()).map_err(|e| {
        Error::input(e.to_string())
            .with_hint("see docs/rule-format.md, or run 'amldoctor rules test DIR'")
    })
}

/// An `--ignore` or suppression naming a rule that does not exist.
pub fn unknown_rule(set: &RuleSet, id: &str, key: &str) -> Error {
    let names: Vec<&str> = set.rules.iter().map(|r| r.id.as_str()).collect();
    let near = crate::suggest::closest(id, &names);
    let e = Error::input(format!("{key}: no rule has the id '{id}'"));
    if near.is_empty() {
        e.with_hint("run 'amldoctor rules list'")
    } else {
        e.with_hint(format!("did you mean {}?", near.join(", ")))
    }
}

/// The rule `id` names (in any case), or an error with the closest ids.
pub(crate) fn find_rule<'s>(set: &'s RuleSet, id: &str) -> Result<&'s crate::rules::Rule> {
    set.rules
        .iter()
        .find(|r| r.id.eq_ignore_ascii_case(id.trim()))
        .ok_or_else(|| {
            let names: Vec<&str> = set.rules.iter().map(|r| r.id.as_str()).collect();
            let near = crate::suggest::closest(id, &names);
            let e = Error::input(format!("no rule has the id '{id}'"));
            if near.is_empty() {
                e.with_hint("run 'amldoctor rules list'")
            } else {
                e.with_hint(format!("did you mean {}?", near.join(", ")))
            }
        })
}

/// The time of the run, in Unix seconds: the clock, or `AMLDOCTOR_NOW` (RFC 3339).
pub fn now_unix(ctx: &Context) -> Result<i64> {
    match &ctx.overrides.now {
        Some(text) => text
            .trim()
            .parse::<jiff::Timestamp>()
            .map(|t| t.as_second())
            .map_err(|_| {
                Error::input(format!(
                    "AMLDOCTOR_NOW: '{text}' is not a time such as 2026-11-30T18:00:00Z"
                ))
            }),
        None => Ok(i64::try_from(source::local::now_unix()).unwrap_or(i64::MAX)),
    }
}

/// An `error:` line on stderr (with its `hint:`), for an error the run goes on past.
pub fn error(err: &mut dyn std::io::Write, e: &Error) {
    // Diagnostics are best effort: a closed stderr must not fail the command.
    let _ = writeln!(err, "error: {e}");
    if let Some(hint) = &e.hint {
        let _ = writeln!(err, "hint: {hint}");
    }
}

/// A `warning:` line on stderr: something the user should know that does not stop the run.
pub fn warning(err: &mut dyn std::io::Write, text: &str) {
    let _ = writeln!(err, "warning: {text}");
}

/// A `note:` line on stderr: where something was saved, what was resolved.
pub fn note(err: &mut dyn std::io::Write, text: &str) {
    let _ = writeln!(err, "note: {text}");
}

/// A `debug:` line on stderr (`--debug`): where a setting came from, a request made.
pub fn debug(err: &mut dyn std::io::Write, text: &str) {
    let _ = writeln!(err, "debug: {text}");
}
