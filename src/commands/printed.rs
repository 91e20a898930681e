//! Commands amldoctor prints for the user to run must run as printed. This finds every
//! `amldoctor …` command in a text (a rule's commands and remediation, an `explain`
//! page, a hint, a `--help` example) and parses it with the real command line, so a
//! command that does not exist, or a flag it lacks, is caught by `rules test` and by
//! the test suite instead of by a user at 2 a.m.

use clap::Parser;

use crate::cli::Cli;

/// Every `amldoctor …` command in `text`: a line that starts with one (after a prompt
/// `$ ` or list dash), or a `` `amldoctor …` `` span in prose. Trailing comments
/// (`# …`) and pipes into other programs are left off.
pub fn amldoctor_commands(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    // A command continued with ` \` (written `\\` in a Rust literal) is one line.
    let mut joined: Vec<String> = Vec::new();
    let mut open = false;
    for line in text.lines() {
        let piece = if open { line.trim_start() } else { line };
        match joined.last_mut() {
            Some(last) if open => {
                last.push(' ');
                last.push_str(piece);
            }
            _ => joined.push(piece.to_owned()),
        }
        let end = line.trim_end();
        open = end.ends_with(" \\") || end.ends_with(" \\\\");
        if open && let Some(last) = joined.last_mut() {
            let cut = last.trim_end().trim_end_matches('\\').trim_end().len();
            last.truncate(cut);
        }
    }
    for line in joined.iter().map(String::as_str) {
        let t = line
            .trim_start()
            .trim_start_matches("$ ")
            .trim_start_matches("- ");
        // A sentence that starts with the tool's name is prose, not a command.
        let prose = t.trim_end().ends_with('.') || t.contains("; ") || t.contains(". ");
        if t.starts_with("amldoctor ") && !prose {
            out.push(clean(t));
        }
        let mut rest = line;
        while let Some(start) = rest.find("`amldoctor ") {
            let after = &rest[start + 1..];
            let Some(end) = after.find('`') else { break };
            let span = &after[..end];
            if !out.iter().any(|c| c == &clean(span)) {
                out.push(clean(span));
            }
            rest = &after[end + 1..];
        }
    }
    // A command names a subcommand: `amldoctor findings\` in a format string is none.
    out.retain(|c| {
        c.split_whitespace()
            .nth(1)
            .is_some_and(|w| w.bytes().all(|b| b.is_ascii_lowercase() || b == b'-'))
    });
    out
}

/// A command without its comment, and only up to a pipe or a `&&` into another program.
fn clean(command: &str) -> String {
    let mut c = command;
    for cut in ["  #", " | ", " && ", " >> ", " > ", " 2>", " || "] {
        if let Some(i) = c.find(cut) {
            c = &c[..i];
        }
    }
    c.trim().to_owned()
}

/// Whether `command` parses with the real command line once its placeholders
/// (`{name}`, `<name>`, `…`) are given a value; the error when it does not.
pub fn check(command: &str) -> Result<(), String> {
    // `amldoctor diagnose` named in prose refers to the command, not to a run of it.
    let bare = command.split_whitespace().count() == 2;
    // A slot takes a number, a name or a choice (`all`); one of them parses wherever a
    // slot is valid.
    let mut last = String::new();
    for value in ["", "3", "abc1", "all"] {
        let words = crate::rules::template::shell_split(&fill(command, value));
        match Cli::try_parse_from(&words) {
            Ok(_) => return Ok(()),
            Err(e) if e.kind() == clap::error::ErrorKind::DisplayHelp => return Ok(()),
            Err(e) if bare && e.kind() == clap::error::ErrorKind::MissingRequiredArgument => {
                return Ok(());
            }
            Err(e) => {
                last = e.to_string().lines().next().unwrap_or_default().to_owned();
            }
        }
    }
    Err(last)
}

/// `command` with each placeholder replaced by `value`; with `""`, by a value its name
/// suggests (a number for `<requests-per-second>`, a name for `{endpoint}`).
fn fill(command: &str, value: &str) -> String {
    let mut out = String::new();
    let mut slot = None;
    let mut name = String::new();
    for ch in command.chars() {
        match (slot, ch) {
            (None, '{') => slot = Some('}'),
            (None, '<') => slot = Some('>'),
            (Some(close), c) if c == close => {
                slot = None;
                out.push_str(if !value.is_empty() {
                    value
                } else if numeric(&name) {
                    "3"
                } else {
                    "abc1"
                });
                name.clear();
            }
            (Some(_), c) => name.push(c),
            (None, '…') => out.push_str(value),
            (None, c) => out.push(c),
        }
    }
    out
}

/// Whether a placeholder's name asks for a number.
fn numeric(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    [
        "rps",
        "second",
        "count",
        "millis",
        "lines",
        "latency",
        "instances",
        "percent",
        "number",
    ]
    .iter()
    .any(|w| n.contains(w))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_are_found_in_lists_prose_and_examples() {
        let text = "run:\n  $ amldoctor diagnose -e {endpoint} -n {deployment}   # live\nthen `amldoctor explain OutOfQuota` or\n  - amldoctor rules test ./team | less";
        assert_eq!(
            amldoctor_commands(text),
            [
                "amldoctor diagnose -e {endpoint} -n {deployment}",
                "amldoctor explain OutOfQuota",
                "amldoctor rules test ./team"
            ]
        );
        // A command continued with ` \` is read whole.
        assert_eq!(
            amldoctor_commands("  amldoctor completions bash \\\n      > ~/x/amldoctor\n"),
            ["amldoctor completions bash"]
        );
    }

    #[test]
    fn real_commands_parse_and_invented_ones_do_not() {
        assert_eq!(
            check("amldoctor diagnose -e {endpoint} -n <deployment> --save DIR"),
            Ok(())
        );
        assert_eq!(
            check("amldoctor replicas --rps {rps} --latency 250ms"),
            Ok(())
        );
        assert_eq!(check("amldoctor lint deployment.yml"), Ok(()));
        assert!(check("amldoctor lint --no-such-flag").is_err());
        assert!(check("amldoctor score -e ep").is_err(), "not built yet");
        assert!(check("amldoctor diagnose --no-such-flag x").is_err());
        assert_eq!(
            crate::rules::template::shell_split("a 'b c' \"d\""),
            ["a", "b c", "d"]
        );
    }
}
