//! `lint --fix-suggestions`: the edits findings carry, turned into the edited lines of
//! each file (a zero-context unified diff a reader can apply by hand or with `patch`).
//! Pure: the command hands in the text of every file it read. Nothing is written.
//!
//! Edits come from rules (`fix:`: a key's new value, a key added, a key or requirement
//! removed) and from lint's own analysers (text replaced, lines inserted). Two edits of
//! one line would not apply together: the first finding's wins and the other is listed
//! as waiting for it.
//!
//! The edits are made in the grammar of the lines they touch: YAML keys (`yaml.rs`),
//! requirement lines of pip and conda files (`requirements.rs`), and keyword arguments
//! of Python calls (`python_kwargs.rs`); this file places them in each file's hunks.

mod python_kwargs;
mod requirements;
mod yaml;

use std::collections::BTreeMap;

use serde::Serialize;

use crate::finding::{Change, Edit, Finding};

use python_kwargs::set_argument;
use yaml::{add_key, block_end};

/// What `--fix-suggestions` adds to a lint report.
#[derive(Debug, Clone, Default, PartialEq, Serialize, schemars::JsonSchema)]
pub struct FixSuggestions {
    /// Per file, in the order findings name them.
    pub files: Vec<FileEdits>,
    /// Findings shown without an edit, and why.
    pub without_edit: Vec<WithoutEdit>,
}

/// The changed lines of one file.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct FileEdits {
    pub path: String,
    /// `crlf` or `lf`: how the file ends its lines (removed and added lines are shown
    /// without the ending; the diff and SARIF write it back).
    pub line_ending: &'static str,
    /// How many lines the file has.
    pub lines: u64,
    /// Whether its last line ends with a line ending.
    pub ends_with_newline: bool,
    /// In line order; no two overlap.
    pub hunks: Vec<Hunk>,
}

impl FileEdits {
    /// Whether `h` replaces the file's last line, which has no line ending.
    pub fn touches_unterminated_end(&self, h: &Hunk) -> bool {
        !self.ends_with_newline
            && !h.removed.is_empty()
            && h.start_line + h.removed.len() as u64 - 1 == self.lines
    }
}

/// Lines that go and lines that come in their place.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Hunk {
    /// The rules whose findings this edit fixes.
    pub rules: Vec<String>,
    /// The first line removed; with nothing removed, the line the added ones go before
    /// (one past the last line: at the end).
    pub start_line: u64,
    pub removed: Vec<String>,
    pub added: Vec<String>,
}

impl Hunk {
    fn join_rules(&mut self, rules: Vec<String>) {
        for r in rules {
            if !self.rules.contains(&r) {
                self.rules.push(r);
            }
        }
    }
}

/// A finding no edit is suggested for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct WithoutEdit {
    pub rule_id: String,
    pub reason: String,
}

impl WithoutEdit {
    /// The line a report prints for it.
    pub fn line(&self) -> String {
        format!("{}: no edit: {}", self.rule_id, self.reason)
    }
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

    /// The edits that fix `rule_id`'s finding, file by file.
    pub fn fixes(&self, rule_id: &str) -> Vec<(&FileEdits, Vec<&Hunk>)> {
        self.files
            .iter()
            .map(|f| {
                let hunks = f
                    .hunks
                    .iter()
                    .filter(|h| h.rules.iter().any(|r| r == rule_id))
                    .collect::<Vec<_>>();
                (f, hunks)
            })
            .filter(|(_, hunks)| !hunks.is_empty())
            .collect()
    }
}

/// A file's text as lines without their endings.
struct Source<'t> {
    lines: Vec<&'t str>,
    crlf: bool,
    ends_with_newline: bool,
}

impl<'t> Source<'t> {
    fn new(text: &'t str) -> Source<'t> {
        let body = text.strip_suffix('\n').unwrap_or(text);
        let lines = if text.is_empty() {
            Vec::new()
        } else {
            body.split('\n')
                .map(|l| l.strip_suffix('\r').unwrap_or(l))
                .collect()
        };
        Source {
            lines,
            crlf: text.contains("\r\n"),
            ends_with_newline: text.is_empty() || text.ends_with('\n'),
        }
    }

    fn file(&self, path: &str) -> FileEdits {
        FileEdits {
            path: path.to_owned(),
            line_ending: if self.crlf { "crlf" } else { "lf" },
            lines: self.lines.len() as u64,
            ends_with_newline: self.ends_with_newline,
            hunks: Vec::new(),
        }
    }
}

/// The suggestions for `findings` (in report order: an earlier finding's edit wins a
/// line), against `texts` (each file's text by the path findings name).
pub(crate) fn suggest(findings: &[Finding], texts: &BTreeMap<String, String>) -> FixSuggestions {
    let sources: BTreeMap<&str, Source> = texts
        .iter()
        .map(|(p, t)| (p.as_str(), Source::new(t)))
        .collect();
    let mut files: Vec<FileEdits> = Vec::new();
    let mut without_edit = Vec::new();
    for f in findings {
        let mut made = 0;
        let mut waiting: Option<String> = None;
        for edit in &f.edits {
            let Some(source) = sources.get(edit.path.as_str()) else {
                continue;
            };
            let i = files
                .iter()
                .position(|x| x.path == edit.path)
                .unwrap_or_else(|| {
                    files.push(source.file(&edit.path));
                    files.len() - 1
                });
            let file = &mut files[i];
            if also_on_its_line(file, edit, &f.rule_id) {
                made += 1;
                continue;
            }
            let Some(hunk) = resolve(edit, &source.lines, &f.rule_id) else {
                continue;
            };
            match place(&mut file.hunks, hunk) {
                Ok(()) => made += 1,
                Err(other) => {
                    waiting.get_or_insert(format!(
                        "its edit of {}:{} overlaps the one for {other}: apply that one and run lint again",
                        edit.path,
                        edit.line.clamp(1, source.lines.len().max(1) as u64)
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
    files.retain(|f| !f.hunks.is_empty());
    for f in &mut files {
        f.hunks
            .sort_by_key(|h| (h.start_line, !h.removed.is_empty()));
        let last = sources
            .get(f.path.as_str())
            .and_then(|s| s.lines.last().copied());
        append_to_unterminated_end(f, last);
    }
    FixSuggestions {
        files,
        without_edit,
    }
}

/// A second text replacement of the same finding on a line it already changes (two
/// model paths on one line) is made in that line's new text.
fn also_on_its_line(file: &mut FileEdits, edit: &Edit, rule: &str) -> bool {
    let Change::ReplaceText { old, new } = &edit.change else {
        return false;
    };
    let Some(h) = file.hunks.iter_mut().find(|h| {
        h.start_line == edit.line
            && h.removed.len() == 1
            && h.added.len() == 1
            && h.rules.iter().any(|r| r == rule)
    }) else {
        return false;
    };
    if !h.added[0].contains(old.as_str()) {
        return false;
    }
    h.added[0] = h.added[0].replacen(old.as_str(), new, 1);
    true
}

/// Lines added after a last line that has no line ending: that line is replaced by
/// itself (now ended) and the new lines, as a diff must show it.
fn append_to_unterminated_end(f: &mut FileEdits, last: Option<&str>) {
    let end = f.lines + 1;
    if f.ends_with_newline || f.lines == 0 {
        return;
    }
    let Some(at) = f
        .hunks
        .iter()
        .position(|h| h.removed.is_empty() && h.start_line == end)
    else {
        return;
    };
    let tail = f.hunks.remove(at);
    if let Some(last) = f
        .hunks
        .iter_mut()
        .find(|h| !h.removed.is_empty() && h.start_line + h.removed.len() as u64 - 1 == f.lines)
    {
        last.added.extend(tail.added);
        last.join_rules(tail.rules);
        return;
    }
    let Some(text) = last.map(str::to_owned) else {
        f.hunks.push(tail);
        return;
    };
    f.hunks.push(Hunk {
        start_line: f.lines,
        removed: vec![text.clone()],
        added: std::iter::once(text).chain(tail.added).collect(),
        rules: tail.rules,
    });
}

/// Adds `hunk` unless it overlaps one already placed: the same edit joins it (and its
/// rule is added), additions at one place go one after the other, anything else is
/// refused with the rule of the edit in the way.
fn place(hunks: &mut Vec<Hunk>, hunk: Hunk) -> Result<(), String> {
    let range = |h: &Hunk| (h.start_line, h.start_line + h.removed.len() as u64);
    let (start, end) = range(&hunk);
    for h in hunks.iter_mut() {
        if h.start_line == hunk.start_line && h.removed == hunk.removed && h.added == hunk.added {
            h.join_rules(hunk.rules);
            return Ok(());
        }
        let (s, e) = range(h);
        if s == e && start == end && s == start {
            h.added.extend(hunk.added);
            h.join_rules(hunk.rules);
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
    let python = std::path::Path::new(&edit.path)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("py"));
    match &edit.change {
        Change::SetValue { key, value } => {
            let (i, text) = at(edit.line)?;
            let new = if python {
                set_argument(text, key, value)?
            } else {
                set_value(text, key, value, lines.get(i + 1..).unwrap_or_default())?
            };
            (new != text).then(|| hunk(edit.line, vec![text.to_owned()], vec![new]))
        }
        // YAML and requirement edits; a Python file takes text edits only.
        Change::Remove { .. } | Change::AddKey { .. } | Change::AddItem { .. } if python => None,
        Change::Remove { key } => {
            let (i, text) = at(edit.line)?;
            if !names_key(text, key) {
                return None;
            }
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
            if text.contains('[') {
                // A flow list (`- pip: [a, b]`): an item is not a line of its own.
                return None;
            }
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

/// Whether the line is `key:` (or the item `- key: …`), or the requirement named `key`.
/// A line that reads as a YAML key is judged as a key only.
fn names_key(line: &str, key: &str) -> bool {
    match yaml::key_value(line) {
        Some((pre, _, _)) => yaml::key_name(pre) == key,
        None => requirements::names(line, key),
    }
}

/// The line with its key's value (or the specifier of the requirement named `key`)
/// replaced; `None` for a key that holds a block (the lines `after` it are deeper), or a
/// line that is not the key's.
fn set_value(line: &str, key: &str, value: &str, after: &[&str]) -> Option<String> {
    if !names_key(line, key) {
        return None;
    }
    match yaml::key_value(line) {
        Some(parts) => yaml::set_scalar(line, parts, value, after),
        None => requirements::set_specifier(line, value),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(super) fn edit(line: u64, change: Change) -> Edit {
        Edit {
            path: "blue.yml".to_owned(),
            line,
            change,
        }
    }

    pub(super) fn one(text: &str, e: Edit) -> Option<(u64, Vec<String>, Vec<String>)> {
        let lines: Vec<&str> = text.lines().collect();
        resolve(&e, &lines, "r").map(|h| (h.start_line, h.removed, h.added))
    }

    pub(super) fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| (*x).to_owned()).collect()
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

    #[test]
    fn edits_refuse_lines_that_are_not_theirs() {
        let conda = "dependencies:\n  - python=3.8\n  - pip: [flask==2.0, numpy]\n";
        let remove = |line, key: &str| {
            one(
                conda,
                edit(
                    line,
                    Change::Remove {
                        key: key.to_owned(),
                    },
                ),
            )
        };
        // The flask pin sits in a flow list on the pip line: removing that line would
        // take numpy too.
        assert!(remove(3, "flask").is_none());
        assert!(remove(2, "python").is_some());
        let item = Change::AddItem {
            value: "pyyaml".to_owned(),
        };
        assert!(one(conda, edit(3, item)).is_none());
        let add = |text: &str| {
            one(
                text,
                edit(
                    0,
                    Change::AddKey {
                        keys: s(&["instance_count"]),
                        value: "1".to_owned(),
                    },
                ),
            )
        };
        assert_eq!(add("name: blue\n...\n").unwrap().0, 2);
        assert!(add("{name: blue, model: m}\n").is_none());
        let py = Edit {
            path: "score.py".to_owned(),
            ..edit(
                1,
                Change::Remove {
                    key: "x".to_owned(),
                },
            )
        };
        assert!(one("x: 1\n", py).is_none());
    }

    #[test]
    fn line_endings_and_an_unterminated_last_line_are_kept() {
        let text = "a: 1\r\nb: 2";
        let src = Source::new(text);
        assert_eq!(src.lines, vec!["a: 1", "b: 2"]);
        assert!(src.crlf && !src.ends_with_newline);
        let mut f = src.file("x.yml");
        f.hunks.push(Hunk {
            rules: s(&["r"]),
            start_line: 3,
            removed: vec![],
            added: s(&["c: 3"]),
        });
        append_to_unterminated_end(&mut f, src.lines.last().copied());
        assert_eq!(
            f.hunks,
            vec![Hunk {
                rules: s(&["r"]),
                start_line: 2,
                removed: s(&["b: 2"]),
                added: s(&["b: 2", "c: 3"]),
            }]
        );
        assert!(f.touches_unterminated_end(&f.hunks[0]));
        assert!(Source::new("").lines.is_empty());
    }
}
