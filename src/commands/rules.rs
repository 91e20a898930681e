//! `amldoctor rules list | show ID | test [DIR] | docs`.

use std::fmt::Write as _;
use std::io::Write;

use serde::Serialize;

use crate::cli::{RulesAction, RulesArgs};
use crate::context::Context;
use crate::engine::examples;
use crate::error::{Error, Result};
use crate::exit_code::ExitCode;
use crate::report::OutputFormat;
use crate::report::rule_doc::{catalogue_markdown, rule_terminal};
use crate::report::rule_list::{self, summary};
use crate::rules::Rule;

use super::support::load_rules;

fn emit<T: Serialize>(
    ctx: &Context,
    out: &mut dyn Write,
    command: &'static str,
    body: &T,
) -> Result<()> {
    crate::report::emit(ctx.output.value, command, body, out).map_err(Error::write)
}

/// Every `amldoctor …` command a rule prints (in its commands or its fix) that does not
/// parse, as one sentence naming the file, the rule and the command.
pub fn command_failures(set: &crate::rules::RuleSet) -> Vec<String> {
    let mut out = Vec::new();
    for rule in &set.rules {
        let texts = rule
            .commands
            .iter()
            .map(|c| ("commands", c.as_str()))
            .chain(std::iter::once(("remediation", rule.remediation.as_str())));
        for (key, text) in texts {
            for command in super::printed::amldoctor_commands(text) {
                if let Err(e) = super::printed::check(&command) {
                    out.push(format!(
                        "{}: rule '{}': {key}: `{command}` is not a command amldoctor has: {e}",
                        rule.source.path, rule.id
                    ));
                }
            }
        }
    }
    out
}

/// `rules test [DIR]`: every rule against its own examples, and every command it prints.
fn test(ctx: &Context, dir: Option<&std::path::PathBuf>, out: &mut dyn Write) -> Result<ExitCode> {
    let extra: Vec<std::path::PathBuf> = dir.into_iter().cloned().collect();
    let set = load_rules(ctx, &extra)?;
    let failures = examples::check(&set, |_| true);
    let commands = command_failures(&set);
    let tested = set.rules.len();
    let examples_count: usize = set
        .rules
        .iter()
        .map(|r| r.examples.matching.len() + r.examples.no_match.len())
        .sum();
    if ctx.output.value == OutputFormat::Table {
        let mut text = String::new();
        for f in &failures {
            let _ = writeln!(text, "FAIL {f}");
        }
        for c in &commands {
            let _ = writeln!(text, "FAIL {c}");
        }
        let _ = writeln!(
            text,
            "{} rules, {} examples: {} passed, {} failed",
            tested,
            examples_count,
            examples_count - failures.len(),
            failures.len()
        );
        out.write_all(text.as_bytes()).map_err(Error::write)?;
    } else {
        let list: Vec<_> = failures
                .iter()
                .map(|f| serde_json::json!({"rule_id": f.rule_id, "path": f.path, "list": f.list, "index": f.index, "example": f.example}))
                .collect();
        emit(
            ctx,
            out,
            "rules test",
            &serde_json::json!({"rules": tested, "examples": examples_count, "failures": list, "command_failures": commands}),
        )?;
    }
    Ok(if failures.is_empty() && commands.is_empty() {
        ExitCode::Clean
    } else {
        ExitCode::Findings
    })
}

/// `rules example ID [--no-match] [--number N]`: one of a rule's own example logs.
fn example(
    ctx: &Context,
    id: &str,
    no_match: bool,
    number: u32,
    rule_dirs: &[std::path::PathBuf],
    out: &mut dyn Write,
) -> Result<ExitCode> {
    let set = load_rules(ctx, rule_dirs)?;
    let rule = super::support::find_rule(&set, id)?;
    let (list, which) = if no_match {
        (&rule.examples.no_match, "no-match")
    } else {
        (&rule.examples.matching, "match")
    };
    let index = usize::try_from(number).unwrap_or(usize::MAX) - 1;
    let text = list.get(index).ok_or_else(|| {
        let have = match list.len() {
            0 => format!("no {which} example"),
            1 => format!("1 {which} example"),
            n => format!("{n} {which} examples"),
        };
        Error::input(format!("--number {number}: rule '{}' has {have}", rule.id))
    })?;
    let mut text = text.clone();
    if !text.ends_with('\n') {
        text.push('\n');
    }
    out.write_all(text.as_bytes()).map_err(Error::write)?;
    Ok(ExitCode::Clean)
}

/// `rules list --search TEXT`: the words a user (or an agent) would look a rule up by.
fn mentions(rule: &Rule, text: &str) -> bool {
    let needle = text.trim().to_lowercase();
    [&rule.id, &rule.title, &rule.family, &rule.remediation]
        .into_iter()
        .chain(&rule.codes)
        .any(|field| field.to_lowercase().contains(&needle))
}

pub fn run(ctx: &Context, args: &RulesArgs, out: &mut dyn Write) -> Result<ExitCode> {
    crate::report::require_plain(ctx.output.value, "rules")?;
    match &args.action {
        RulesAction::List {
            search,
            family,
            rule_dirs,
        } => {
            let set = load_rules(ctx, rule_dirs)?;
            if let Some(f) = family
                && !set.rules.iter().any(|r| r.family.eq_ignore_ascii_case(f))
            {
                let mut families: Vec<&str> = set.rules.iter().map(|r| r.family.as_str()).collect();
                families.sort_unstable();
                families.dedup();
                return Err(Error::input(format!(
                    "--family {f}: no rule is of that family; the families are {}",
                    families.join(", ")
                )));
            }
            let mut rules: Vec<&Rule> = set
                .rules
                .iter()
                .filter(|r| {
                    family
                        .as_ref()
                        .is_none_or(|f| r.family.eq_ignore_ascii_case(f))
                })
                .filter(|r| search.as_ref().is_none_or(|t| mentions(r, t)))
                .collect();
            rules.sort_by(|a, b| a.family.cmp(&b.family).then_with(|| a.id.cmp(&b.id)));
            if ctx.output.value == OutputFormat::Table && ctx.quiet {
                let ids: String = rules.iter().map(|r| format!("{}\n", r.id)).collect();
                out.write_all(ids.as_bytes()).map_err(Error::write)?;
            } else if ctx.output.value == OutputFormat::Table {
                out.write_all(rule_list::table(&rules, ctx.width).as_bytes())
                    .map_err(Error::write)?;
            } else {
                let list: Vec<_> = rules.iter().map(|r| summary(r)).collect();
                emit(
                    ctx,
                    out,
                    "rules list",
                    &serde_json::json!({ "rules": list }),
                )?;
            }
            Ok(ExitCode::Clean)
        }
        RulesAction::Show { id, rule_dirs } => {
            let set = load_rules(ctx, rule_dirs)?;
            let rule = super::support::find_rule(&set, id)?;
            if ctx.output.value == OutputFormat::Table {
                out.write_all(
                    rule_terminal(
                        &set,
                        rule,
                        &crate::analyse::placeholders::of_context(ctx),
                        ctx.width,
                    )
                    .as_bytes(),
                )
                .map_err(Error::write)?;
            } else {
                emit(ctx, out, "rules show", &summary(rule))?;
            }
            Ok(ExitCode::Clean)
        }
        RulesAction::Test { dir } => test(ctx, dir.as_ref(), out),
        RulesAction::Example {
            id,
            no_match,
            number,
            rule_dirs,
        } => example(ctx, id, *no_match, *number, rule_dirs, out),
        RulesAction::Docs { rule_dirs } => {
            let set = load_rules(ctx, rule_dirs)?;
            out.write_all(catalogue_markdown(&set).as_bytes())
                .map_err(Error::write)?;
            Ok(ExitCode::Clean)
        }
    }
}
