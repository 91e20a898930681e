//! `amldoctor explain` as an answer: the best-matching case first (its fix, the
//! commands with the run's names filled in, its references), the HTTP status
//! meanings, then the other rules of that code one line each. The table printer
//! renders the rule text for a terminal; the markdown printer keeps it as markdown.
//! Patterns are not shown here: `rules show` has them.

use std::fmt::Write as _;
use std::io::{self, Write};

use crate::catalogue::HttpStatus;
use crate::rules::Rule;
use crate::rules::template::{MissingName, missing_in};
use crate::rules::template::{Placeholders, fill, show_missing};

use super::style::Style;
use super::{Detail, text};

/// What `explain QUERY` found, best match first.
#[derive(Debug)]
pub(crate) struct Answer<'a> {
    pub query: &'a str,
    pub statuses: &'a [HttpStatus],
    pub rules: Vec<&'a Rule>,
    /// The run's values for command placeholders.
    pub names: &'a Placeholders,
}

impl Answer<'_> {
    /// A command or a text with the run's names filled in and the rest shown `<name>`.
    pub(crate) fn filled(&self, template: &str) -> String {
        show_missing(&fill(template, &Default::default(), self.names))
    }

    /// The values the printed commands still need, and where to get each.
    pub(crate) fn missing(&self) -> Vec<MissingName> {
        let best = self.rules.first();
        let commands: Vec<String> = best
            .map(|r| r.commands.as_slice())
            .unwrap_or_default()
            .iter()
            .chain(self.statuses.iter().flat_map(|s| s.commands.iter()))
            .map(|c| self.filled(c))
            .collect();
        let fixes: Vec<String> = best
            .map(|r| self.filled(&r.remediation))
            .into_iter()
            .chain(self.statuses.iter().map(|s| self.filled(&s.meaning)))
            .collect();
        missing_in(
            commands.iter().map(String::as_str),
            fixes.iter().map(String::as_str),
        )
    }
}

/// For a terminal: prose reflowed at the style's width, commands continued with ` \`.
pub(crate) fn write_table(
    out: &mut dyn Write,
    a: &Answer,
    style: Style,
    detail: Detail,
) -> io::Result<()> {
    let width = style.width();
    let mut first = true;
    if let Some(rule) = a.rules.first() {
        let head = heading(a.query, &rule.title);
        for line in text::wrap(&head, width, "", "  ") {
            writeln!(out, "{}", style.bold(&line))?;
        }
        writeln!(
            out,
            "{}",
            style.dim(&format!("rule {}, {}", rule.id, rule.severity))
        )?;
        if detail != Detail::Quiet {
            writeln!(out)?;
            lines(out, &text::reflow(&a.filled(&rule.remediation), width, 2))?;
        }
        write_commands(out, a, &rule.commands, style)?;
        if detail != Detail::Quiet {
            write_docs(out, &rule.docs)?;
        }
        first = false;
    }
    for s in a.statuses {
        if !first {
            writeln!(out)?;
        }
        first = false;
        write_status(out, a, s, style, detail)?;
    }
    let missing = a.missing();
    if !missing.is_empty() && detail != Detail::Quiet {
        writeln!(out)?;
        super::table::write_missing_names(out, &missing, style)?;
    }
    write_others(out, a, style)
}

/// Every answer's heading reads `WHAT: title`, what was asked and what it is; a
/// title that ends by naming the code asked about (`… (CrashLoopBackOff)`) drops
/// that ending rather than say it twice.
fn heading(query: &str, title: &str) -> String {
    let named = format!(" ({query})");
    let title = match title.len().checked_sub(named.len()) {
        Some(at) if title.is_char_boundary(at) && title[at..].eq_ignore_ascii_case(&named) => {
            &title[..at]
        }
        _ => title,
    };
    format!("{query}: {title}")
}

fn lines(out: &mut dyn Write, lines: &[String]) -> io::Result<()> {
    for l in lines {
        writeln!(out, "{l}")?;
    }
    Ok(())
}

fn write_commands(
    out: &mut dyn Write,
    a: &Answer,
    commands: &[String],
    style: Style,
) -> io::Result<()> {
    if commands.is_empty() {
        return Ok(());
    }
    writeln!(out)?;
    writeln!(out, "{}", style.bold("Run:"))?;
    for c in commands {
        for line in text::command_lines(&a.filled(c), style.width(), 2) {
            writeln!(out, "{}", style.cyan(&line))?;
        }
    }
    Ok(())
}

fn write_docs(out: &mut dyn Write, docs: &[String]) -> io::Result<()> {
    if docs.is_empty() {
        return Ok(());
    }
    writeln!(out)?;
    writeln!(out, "Docs:")?;
    for d in docs {
        writeln!(out, "  {d}")?;
    }
    Ok(())
}

pub(crate) fn write_status(
    out: &mut dyn Write,
    a: &Answer,
    s: &HttpStatus,
    style: Style,
    detail: Detail,
) -> io::Result<()> {
    let width = style.width();
    let endpoint = if s.endpoint == "managed" {
        "managed online endpoints"
    } else {
        "Kubernetes online endpoints"
    };
    let head = format!("HTTP {}: {} ({endpoint})", s.status, s.reason);
    for line in text::wrap(&head, width, "", "  ") {
        writeln!(out, "{}", style.bold(&line))?;
    }
    if detail != Detail::Quiet {
        writeln!(out)?;
        lines(out, &text::reflow(&a.filled(&s.meaning), width, 2))?;
        let list = |title: &str, items: &[String], numbered: bool| -> Vec<String> {
            let mut md = String::new();
            for (i, item) in items.iter().enumerate() {
                let marker = if numbered {
                    format!("{}.", i + 1)
                } else {
                    "-".to_owned()
                };
                let _ = writeln!(md, "{marker} {}", a.filled(item));
            }
            let mut v = vec![String::new(), format!("{title}:")];
            v.extend(text::reflow(&md, width, 2));
            v
        };
        if !s.causes.is_empty() {
            lines(out, &list("Likely causes", &s.causes, false))?;
        }
        if !s.checks.is_empty() {
            lines(out, &list("Check", &s.checks, true))?;
        }
    }
    write_commands(out, a, &s.commands, style)?;
    if detail != Detail::Quiet && !s.see_also.is_empty() {
        writeln!(out)?;
        lines(
            out,
            &text::wrap(&s.see_also.join(", "), width, "See also: ", "  "),
        )?;
    }
    Ok(())
}

/// The other rules of the code, one line each.
fn write_others(out: &mut dyn Write, a: &Answer, style: Style) -> io::Result<()> {
    let others = a.rules.get(1..).unwrap_or_default();
    if others.is_empty() {
        return Ok(());
    }
    writeln!(out)?;
    let head = format!(
        "Other cases of {} (amldoctor explain RULE shows one):",
        a.query
    );
    for line in text::wrap(&head, style.width(), "", "  ") {
        writeln!(out, "{}", style.bold(&line))?;
    }
    let id_width = others.iter().map(|r| r.id.len()).max().unwrap_or(0);
    for r in others {
        let first = format!("  {:id_width$}  ", r.id);
        // One line each, as the heading promises: a long title is shortened.
        let room = style.width().saturating_sub(first.len()).max(20);
        writeln!(out, "{first}{}", text::shorten(&r.title, room, 0))?;
    }
    Ok(())
}

/// As markdown: the same answer, for an issue or a wiki page.
pub(crate) fn write_markdown(out: &mut dyn Write, a: &Answer) -> io::Result<()> {
    if let Some(rule) = a.rules.first() {
        writeln!(out, "## {}\n", heading(a.query, &rule.title))?;
        writeln!(out, "_rule `{}`, {}_\n", rule.id, rule.severity)?;
        writeln!(
            out,
            "{}\n",
            super::markdown_escape::placeholders_as_code(a.filled(&rule.remediation).trim_end())
        )?;
        markdown_commands(out, a, &rule.commands)?;
        if !rule.docs.is_empty() {
            for d in &rule.docs {
                writeln!(out, "- <{d}>")?;
            }
            writeln!(out)?;
        }
    }
    for s in a.statuses {
        let endpoint = if s.endpoint == "managed" {
            "managed online endpoints"
        } else {
            "Kubernetes online endpoints"
        };
        writeln!(out, "## HTTP {}: {} ({endpoint})\n", s.status, s.reason)?;
        writeln!(out, "{}\n", a.filled(&s.meaning).trim_end())?;
        if !s.causes.is_empty() {
            writeln!(out, "**Likely causes**\n")?;
            for c in &s.causes {
                writeln!(out, "- {}", a.filled(c))?;
            }
            writeln!(out)?;
        }
        if !s.checks.is_empty() {
            writeln!(out, "**Check**\n")?;
            for (i, c) in s.checks.iter().enumerate() {
                writeln!(out, "{}. {}", i + 1, a.filled(c))?;
            }
            writeln!(out)?;
        }
        markdown_commands(out, a, &s.commands)?;
        if !s.see_also.is_empty() {
            writeln!(out, "See also: {}\n", s.see_also.join(", "))?;
        }
    }
    super::markdown::write_missing_names(out, &a.missing())?;
    let others = a.rules.get(1..).unwrap_or_default();
    if !others.is_empty() {
        writeln!(out, "**Other cases of {}**\n", a.query)?;
        for r in others {
            writeln!(out, "- `{}`: {}", r.id, r.title)?;
        }
        writeln!(out)?;
    }
    Ok(())
}

fn markdown_commands(out: &mut dyn Write, a: &Answer, commands: &[String]) -> io::Result<()> {
    if commands.is_empty() {
        return Ok(());
    }
    writeln!(out, "```sh")?;
    for c in commands {
        writeln!(out, "{}", a.filled(c))?;
    }
    writeln!(out, "```\n")
}
