//! `lint --fix-suggestions`: the edits findings carry, turned into the edited lines of
//! each file (a zero-context unified diff a reader can apply by hand or with `patch`).
//! Pure: the command hands in the text of every file it read. Nothing is written.
//!
//! Edits come from rules (`fix:`: a key's new value, a key added, a key or requirement
//! removed) and from lint's own analysers (text replaced, lines inserted). Two edits of
//! one line would not apply together: the first finding's wins and the other is listed
//! as waiting for it.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::finding::{Change, Edit, Finding};

/// What `--fix-suggestions` adds to a lint report.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct FixSuggestions {
    /// Per file, in the order findings name them.
    pub files: Vec<FileEdits>,
    /// Findings shown without an edit, and why.
    pub without_edit: Vec<WithoutEdit>,
}

/// The changed lines of one file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FileEdits {
    pub path: String,
    /// In line order; no two overlap.
    pub hunks: Vec<Hunk>,
}

/// Lines that go and lines that come in their place.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Hunk {
    /// The rules whose findings this edit fixes.
    pub rules: Vec<String>,
    /// The first line removed; with nothing removed, the line the added ones go before
    /// (one past the last line: at the end).
    pub start_line: u64,
    pub removed: Vec<String>,
    pub added: Vec<String>,
}

/// A finding no edit is suggested for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WithoutEdit {
    pub rule_id: String,
    pub reason: String,
}

impl FixSuggestions {
    /// Keeps what concerns the rules `shown` accepts (a report left findings out).
    pub fn retain_rules(&mut self, shown: &dyn Fn(&str) -> bool) {
        for f in &mut self.files {
            f.hunks.retain(|h| h.rules.iter().any(|r| shown(r)));
        }
        self.files.retain(|f| !f.hunks.is_empty());
        self.without_edit.retain(|w| shown(&w.rule_id));
    }

    /// The rules an edit is suggested for.
    pub fn fixes(&self, rule_id: &str) -> impl Iterator<Item = (&str, &Hunk)> {
        self.files.iter().flat_map(move |f| {
            f.hunks
                .iter()
                .filter(move |h| h.rules.iter().any(|r| r == rule_id))
                .map(|h| (f.path.as_str(), h))
        })
    }
}

/// The suggestions for `findings` (in report order: an earlier finding's edit wins a
/// line), against `texts` (each file's text by the path findings name).
pub fn suggest(findings: &[Finding], texts: &BTreeMap<String, String>) -> FixSuggestions {
    let mut files: Vec<FileEdits> = Vec::new();
    let mut without_edit = Vec::new();
    for f in findings {
        let mut made = 0;
        let mut waiting: Option<String> = None;
        for edit in &f.edits {
            let Some(text) = texts.get(&edit.path) else {
                continue;
            };
            let lines: Vec<&str> = text.lines().collect();
            let Some(hunk) = resolve(edit, &lines, &f.rule_id) else {
                continue;
            };
            let file = match files.iter_mut().position(|x| x.path == edit.path) {
                Some(i) => &mut files[i],
                None => {
                    files.push(FileEdits {
                        path: edit.path.clone(),
                        hunks: Vec::new(),
                    });
                    files.last_mut().expect("just pushed")
                }
            };
            match place(&mut file.hunks, hunk) {
                Ok(()) => made += 1,
                Err(other) => {
                    waiting.get_or_insert(format!(
                        "its edit of {}:{} overlaps the one for {other}: apply that one and run lint again",
                        edit.path,
                        edit.line.max(1)
                    ));
                }
            }
        }
        if made == 0 {
            let reason = match (waiting, f.edits.is_empty()) {
                (Some(w), _) => w,
                (None, true) => {
                    "what to write does not follow from the files alone: see the finding's fix"
                        .to_owned()
                }
                (None, false) => {
                    "the lines it names are not in a form lint edits: see the finding's fix"
                        .to_owned()
                }
            };
            without_edit.push(WithoutEdit {
                rule_id: f.rule_id.clone(),
                reason,
            });
        }
    }
    for f in &mut files {
        f.hunks
            .sort_by_key(|h| (h.start_line, !h.removed.is_empty()));
    }
    FixSuggestions {
        files,
        without_edit,
    }
}

/// Adds `hunk` unless it overlaps one already placed: the same edit joins it (and its
/// rule is added), additions at one place go one after the other, anything else is
/// refused with the rule of the edit in the way.
fn place(hunks: &mut Vec<Hunk>, hunk: Hunk) -> Result<(), String> {
    let range = |h: &Hunk| (h.start_line, h.start_line + h.removed.len() as u64);
    let (start, end) = range(&hunk);
    for h in hunks.iter_mut() {
        if h.start_line == hunk.start_line && h.removed == hunk.removed && h.added == hunk.added {
            for r in hunk.rules {
                if !h.rules.contains(&r) {
                    h.rules.push(r);
                }
            }
            return Ok(());
        }
        let (s, e) = range(h);
        let both_insert = s == e && start == end;
        if both_insert && s == start {
            h.added.extend(hunk.added);
            for r in hunk.rules {
                if !h.rules.contains(&r) {
                    h.rules.push(r);
                }
            }
            return Ok(());
        }
        let overlaps = if start == end || s == e {
            // An insertion sits strictly inside the other's removed lines.
            (start > s && start < e) || (s > start && s < end)
        } else {
            start < e && s < end
        };
        if overlaps {
            return Err(h.rules.join(", "));
        }
    }
    hunks.push(hunk);
    Ok(())
}

/// One edit against the file's lines.
fn resolve(edit: &Edit, lines: &[&str], rule: &str) -> Option<Hunk> {
    let hunk = |start_line: u64, removed: Vec<String>, added: Vec<String>| Hunk {
        rules: vec![rule.to_owned()],
        start_line,
        removed,
        added,
    };
    let at = |line: u64| {
        let i = usize::try_from(line).ok()?.checked_sub(1)?;
        lines.get(i).map(|l| (i, *l))
    };
    match &edit.change {
        Change::SetValue { key, value } => {
            let (i, text) = at(edit.line)?;
            let python = std::path::Path::new(&edit.path)
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("py"));
            let new = if python {
                set_argument(text, key, value)?
            } else {
                set_value(text, key, value, lines.get(i + 1..).unwrap_or_default())?
            };
            (new != text).then(|| hunk(edit.line, vec![text.to_owned()], vec![new]))
        }
        Change::RemoveLine => {
            let (i, _) = at(edit.line)?;
            let end = block_end(lines, i);
            Some(hunk(
                edit.line,
                lines[i..end].iter().map(|l| (*l).to_owned()).collect(),
                Vec::new(),
            ))
        }
        Change::AddKey { keys, value } => {
            let (before, added) = add_key(lines, edit.line, keys, value)?;
            Some(hunk(before as u64 + 1, Vec::new(), added))
        }
        Change::AddItem { value } => {
            let (_, text) = at(edit.line)?;
            let body = text.trim_start();
            let mut prefix = text[..text.len() - body.len()].to_owned();
            if let Some(rest) = body.strip_prefix('-') {
                prefix.push('-');
                prefix.push_str(&rest[..rest.len() - rest.trim_start().len()]);
            }
            Some(hunk(
                edit.line + 1,
                Vec::new(),
                vec![format!("{prefix}{value}")],
            ))
        }
        Change::ReplaceText { old, new } => {
            let (_, text) = at(edit.line)?;
            text.contains(old.as_str()).then(|| {
                hunk(
                    edit.line,
                    vec![text.to_owned()],
                    vec![text.replacen(old.as_str(), new, 1)],
                )
            })
        }
        Change::InsertLines { lines: added } => {
            let after = if edit.line == u64::MAX {
                lines.len() as u64
            } else {
                edit.line.min(lines.len() as u64)
            };
            Some(hunk(after + 1, Vec::new(), added.clone()))
        }
    }
}

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
fn block_end(lines: &[&str], i: usize) -> usize {
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
fn key_value(line: &str) -> Option<(&str, &str, &str)> {
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

/// A Python keyword argument `key=value` on the line, given the value (a number,
/// `True`/`False`/`None` as they are, anything else as a string literal).
fn set_argument(line: &str, key: &str, value: &str) -> Option<String> {
    let re = regex::Regex::new(&format!(
        r#"\b{}\s*=\s*(?:"[^"]*"|'[^']*'|[^,)\s]+)"#,
        regex::escape(key)
    ))
    .ok()?;
    let m = re.find(line)?;
    let literal = if value.parse::<f64>().is_ok() || matches!(value, "True" | "False" | "None") {
        value.to_owned()
    } else {
        format!("\"{}\"", value.replace('\\', "\\\\").replace('"', "\\\""))
    };
    Some(format!(
        "{}{key}={literal}{}",
        &line[..m.start()],
        &line[m.end()..]
    ))
}

/// The line with its key's value (or the specifier of the requirement named `key`)
/// replaced; `None` for a key that holds a block (the lines `after` it are deeper), or a
/// line that is not the key's.
fn set_value(line: &str, key: &str, value: &str, after: &[&str]) -> Option<String> {
    if let Some((pre, old, comment)) = key_value(line) {
        let written = pre
            .trim_end_matches(':')
            .trim()
            .trim_start_matches("- ")
            .trim();
        if written.trim_matches(['"', '\'']) != key {
            return None;
        }
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
        return Some(format!("{pre} {quoted}{comment}"));
    }
    let (pre, _, rest) = requirement(line)?;
    let name = pre
        .trim_start()
        .trim_start_matches('-')
        .trim_start()
        .trim_start_matches(['"', '\''])
        .rsplit("::")
        .next()
        .unwrap_or_default();
    let name = name.split('[').next().unwrap_or_default();
    (super::environment::normalise(name) == super::environment::normalise(key))
        .then(|| format!("{pre}{value}{rest}"))
}

/// A value as a plain YAML scalar, single-quoted when plain text would read otherwise.
pub fn scalar(value: &str) -> String {
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
fn add_key(
    lines: &[&str],
    line: u64,
    keys: &[String],
    value: &str,
) -> Option<(usize, Vec<String>)> {
    let (after, column) = if line == 0 {
        let last = lines.iter().rposition(|l| !blank_or_comment(l))?;
        let column = lines
            .iter()
            .find(|l| !blank_or_comment(l) && !l.starts_with("---"))
            .map_or(0, |l| indent(l));
        (last + 1, column)
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

    fn edit(line: u64, change: Change) -> Edit {
        Edit {
            path: "blue.yml".to_owned(),
            line,
            change,
        }
    }

    fn one(text: &str, e: Edit) -> Option<(u64, Vec<String>, Vec<String>)> {
        let lines: Vec<&str> = text.lines().collect();
        resolve(&e, &lines, "r").map(|h| (h.start_line, h.removed, h.added))
    }

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| (*x).to_owned()).collect()
    }

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
            s(&["  request_timeout_ms: 180000   # five minutes"])
        );
        assert_eq!(set(4, "max", "1").unwrap().2, s(&["  max: '1'"]));
        // A key that holds a block takes no scalar; a line of another key is left.
        assert!(set(2, "request_settings", "x").is_none());
        assert!(set(3, "max", "1").is_none());
        assert_eq!(
            set_argument(
                "    process_count_per_node=0, mini_batch_size='1x',",
                "mini_batch_size",
                "10MB"
            )
            .unwrap(),
            "    process_count_per_node=0, mini_batch_size=\"10MB\","
        );
        assert_eq!(
            set_argument(
                "    process_count_per_node=0,",
                "process_count_per_node",
                "2"
            )
            .unwrap(),
            "    process_count_per_node=2,"
        );
    }

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
        assert_eq!(scalar(">=0.7.0"), "'>=0.7.0'");
        assert_eq!(scalar("Standard_DS3_v2"), "Standard_DS3_v2");
        assert_eq!(scalar("-1"), "-1");
        assert_eq!(scalar("- x"), "'- x'");
    }

    #[test]
    fn removal_takes_the_block_and_additions_find_their_place() {
        let text = "name: blue\nscale_settings:\n  type: target_utilization\n  target_utilization_percentage: 70\n\nrequest_settings:\n  request_timeout_ms: 5000\n";
        assert_eq!(
            one(text, edit(2, Change::RemoveLine)).unwrap(),
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
            one(conda, edit(4, Change::RemoveLine)).unwrap().1,
            s(&["  - flask==2.0"])
        );
        assert_eq!(one(conda, edit(1, Change::RemoveLine)).unwrap().1.len(), 5);
    }

    #[test]
    fn overlapping_edits_wait_and_equal_ones_join() {
        let mut hunks = Vec::new();
        let h = |rule: &str, start, removed: &[&str], added: &[&str]| Hunk {
            rules: vec![rule.to_owned()],
            start_line: start,
            removed: s(removed),
            added: s(added),
        };
        place(&mut hunks, h("a", 3, &["x: 1"], &[])).unwrap();
        place(&mut hunks, h("b", 3, &["x: 1"], &[])).unwrap();
        assert_eq!(hunks[0].rules, s(&["a", "b"]));
        assert_eq!(
            place(&mut hunks, h("c", 3, &["x: 1"], &["x: 2"])).unwrap_err(),
            "a, b"
        );
        place(&mut hunks, h("d", 9, &[], &["y: 1"])).unwrap();
        place(&mut hunks, h("e", 9, &[], &["z: 1"])).unwrap();
        assert_eq!(hunks[1].added, s(&["y: 1", "z: 1"]));
        assert_eq!(hunks.len(), 2);
    }
}
