//! Edits of YAML lines: a key's scalar value set, a key's block found (to remove it),
//! keys added under a parent or at the top level. Line-based on purpose: the file is
//! edited as written, keeping its comments, quotes and indentation, which a YAML
//! round trip would not.

fn indent(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

fn blank_or_comment(line: &str) -> bool {
    let t = line.trim();
    t.is_empty() || t.starts_with('#')
}

/// Where the text of a line's key starts: after its indent and any `- `.
fn key_column(line: &str) -> usize {
    let mut col = indent(line);
    while line[col..].starts_with("- ") {
        col += 2;
        col += indent(&line[col..]);
    }
    col
}

/// One past the last line of the block that starts at `i`: the lines indented deeper,
/// and for a key without an inline value, a list at its own indent.
pub(super) fn block_end(lines: &[&str], i: usize) -> usize {
    let own = indent(lines[i]);
    let bare_key = lines[i].trim_end().ends_with(':');
    let mut end = i + 1;
    let mut j = i + 1;
    while j < lines.len() {
        let l = lines[j];
        if blank_or_comment(l) {
            j += 1;
            continue;
        }
        let deeper =
            indent(l) > own || (bare_key && indent(l) == own && l.trim_start().starts_with("- "));
        if !deeper {
            break;
        }
        j += 1;
        end = j;
    }
    end
}

/// `key: value` lines: the part up to the colon, the value, and a trailing comment.
pub(super) fn key_value(line: &str) -> Option<(&str, &str, &str)> {
    let re = key_value_regex();
    let c = re.captures(line)?;
    let g = |n: &str| c.name(n).map_or("", |m| m.as_str());
    Some((g("pre"), g("val"), g("comment")))
}

fn key_value_regex() -> &'static regex::Regex {
    static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    RE.get_or_init(|| {
        regex::Regex::new(
            r#"^(?P<pre>\s*(?:-\s+)?(?:"[^"]*"|'[^']*'|[A-Za-z_$][\w.$-]*)\s*:)(?:[ \t]+(?P<val>[^#]*?))?(?P<comment>[ \t]+#.*)?\s*$"#,
        )
        .expect("valid regex")
    })
}

/// The key a `key:` line's part up to the colon names, without its quotes and any `- `.
pub(super) fn key_name(pre: &str) -> &str {
    let written = pre
        .trim_end_matches(':')
        .trim()
        .trim_start_matches("- ")
        .trim();
    written.trim_matches(['"', '\''])
}

/// The `key: value` line with the value replaced (`parts` from [`key_value`]), quoted as
/// the old value was; `None` for a key that holds a block (the lines `after` it are
/// deeper) or a flow or block scalar.
pub(super) fn set_scalar(
    line: &str,
    (pre, old, comment): (&str, &str, &str),
    value: &str,
    after: &[&str],
) -> Option<String> {
    let holds_block = old.is_empty()
        && after
            .iter()
            .find(|l| !blank_or_comment(l))
            .is_some_and(|l| indent(l) > indent(line));
    if holds_block || old.starts_with(['{', '[', '|', '>']) {
        return None;
    }
    let quoted = match old.chars().next() {
        Some(q @ ('\'' | '"')) => format!("{q}{value}{q}"),
        _ => scalar(value),
    };
    Some(format!("{pre} {quoted}{}", restated(comment, old)))
}

/// A trailing comment beside a value that changes most likely describes the old one
/// (`# 4 minutes`): it is kept, said to be about the value that was there.
fn restated(comment: &str, old: &str) -> String {
    let Some((space, text)) = comment.split_once('#') else {
        return comment.to_owned();
    };
    let text = text.trim();
    if old.is_empty() || text.is_empty() {
        return comment.to_owned();
    }
    format!("{space}# was {old}: {text}")
}

/// A value as a plain YAML scalar, single-quoted when plain text would read otherwise.
fn scalar(value: &str) -> String {
    let number = value.parse::<f64>().is_ok() && !value.contains(char::is_alphabetic);
    let plain = number
        || !value.is_empty()
            && !value.starts_with(|c: char| "-?:,[]{}#&*!|>'\"%@`".contains(c) || c == ' ')
            && !value.contains(": ")
            && !value.contains(" #")
            && !value.ends_with([' ', ':']);
    if plain {
        value.to_owned()
    } else {
        format!("'{}'", value.replace('\'', "''"))
    }
}

/// Where `keys` go (the index of the line they follow) and their lines: under the key on
/// line `line` (0: the top level), after its block, at its children's indent.
pub(super) fn add_key(
    lines: &[&str],
    line: u64,
    keys: &[String],
    value: &str,
) -> Option<(usize, Vec<String>)> {
    let (after, column) = if line == 0 {
        let first = lines
            .iter()
            .find(|l| !blank_or_comment(l) && !l.starts_with("---"))?;
        if first.trim_start().starts_with(['{', '[']) {
            // A flow mapping: block keys cannot follow it.
            return None;
        }
        // Before a closing `...`, which would start a document of their own.
        let last = lines
            .iter()
            .rposition(|l| !blank_or_comment(l) && l.trim_end() != "...")?;
        (last + 1, indent(first))
    } else {
        let i = usize::try_from(line).ok()?.checked_sub(1)?;
        let parent = *lines.get(i)?;
        let (_, inline, _) = key_value(parent)?;
        if !inline.is_empty() {
            // A flow mapping (`{a: 1}`) or a scalar: not a place to add keys.
            return None;
        }
        let end = block_end(lines, i);
        let column = lines[i + 1..end]
            .iter()
            .find(|l| !blank_or_comment(l))
            .map_or(key_column(parent) + 2, |l| key_column(l));
        (end, column)
    };
    let mut out = Vec::new();
    for (depth, key) in keys.iter().enumerate() {
        let pad = " ".repeat(column + 2 * depth);
        if depth + 1 == keys.len() {
            out.push(format!("{pad}{key}: {}", scalar(value)));
        } else {
            out.push(format!("{pad}{key}:"));
        }
    }
    Some((after, out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finding::Change;
    use crate::lint::fix::tests::{edit, one, s};

    #[test]
    fn values_keep_the_key_its_quotes_and_comment() {
        let text = "name: blue\nrequest_settings:\n  request_timeout_ms: 300000   # five minutes\n  max: '3'\n";
        let set = |line, key: &str, v: &str| {
            one(
                text,
                edit(
                    line,
                    Change::SetValue {
                        key: key.to_owned(),
                        value: v.to_owned(),
                    },
                ),
            )
        };
        assert_eq!(
            set(3, "request_timeout_ms", "180000").unwrap().2,
            s(&["  request_timeout_ms: 180000   # was 300000: five minutes"])
        );
        assert_eq!(set(4, "max", "1").unwrap().2, s(&["  max: '1'"]));
        // A key that holds a block takes no scalar; a line of another key is left.
        assert!(set(2, "request_settings", "x").is_none());
        assert!(set(3, "max", "1").is_none());
    }

    #[test]
    fn scalars_are_quoted_only_when_plain_text_would_read_otherwise() {
        assert_eq!(scalar(">=0.7.0"), "'>=0.7.0'");
        assert_eq!(scalar("Standard_DS3_v2"), "Standard_DS3_v2");
        assert_eq!(scalar("-1"), "-1");
        assert_eq!(scalar("- x"), "'- x'");
    }

    #[test]
    fn removal_takes_the_block_and_additions_find_their_place() {
        let text = "name: blue\nscale_settings:\n  type: target_utilization\n  target_utilization_percentage: 70\n\nrequest_settings:\n  request_timeout_ms: 5000\n";
        assert_eq!(
            one(
                text,
                edit(
                    2,
                    Change::Remove {
                        key: "scale_settings".to_owned()
                    }
                )
            )
            .unwrap(),
            (
                2,
                s(&[
                    "scale_settings:",
                    "  type: target_utilization",
                    "  target_utilization_percentage: 70"
                ]),
                vec![]
            )
        );
        let add = |line, keys: &[&str]| {
            one(
                text,
                edit(
                    line,
                    Change::AddKey {
                        keys: s(keys),
                        value: "4".to_owned(),
                    },
                ),
            )
        };
        assert_eq!(
            add(6, &["max_concurrent_requests_per_instance"]).unwrap(),
            (8, vec![], s(&["  max_concurrent_requests_per_instance: 4"]))
        );
        assert_eq!(
            add(0, &["liveness_probe", "initial_delay"]).unwrap(),
            (8, vec![], s(&["liveness_probe:", "  initial_delay: 4"]))
        );
        let conda = "dependencies:\n- python=3.8\n- pip:\n  - flask==2.0\n  - numpy\n";
        assert_eq!(
            one(
                conda,
                edit(
                    4,
                    Change::Remove {
                        key: "flask".to_owned()
                    }
                )
            )
            .unwrap()
            .1,
            s(&["  - flask==2.0"])
        );
        assert_eq!(
            one(
                conda,
                edit(
                    1,
                    Change::Remove {
                        key: "dependencies".to_owned()
                    }
                )
            )
            .unwrap()
            .1
            .len(),
            5
        );
    }
}
