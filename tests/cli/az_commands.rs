//! Every `az` command amldoctor can print exists, with only flags that exist: each
//! command in the rules, the error catalogue and the source is checked against the
//! command tables in `tests/az-commands/` (azure-cli from its PyPI package, the `ml`
//! extension from its published reference; each file's first line says which version
//! and where from, and the scripts beside them make them again).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Command path (`ml online-deployment get-logs`) → the option strings it takes.
fn tables() -> BTreeMap<String, BTreeSet<String>> {
    let mut table: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in [
        "azure-cli-core.tsv",
        "azure-cli-core-hidden.tsv",
        "azure-cli-ml.tsv",
        "azure-cli-k8s-extension.tsv",
    ] {
        let text = std::fs::read_to_string(root().join("tests/az-commands").join(file)).unwrap();
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let (command, options) = line.split_once('\t').unwrap_or((line, ""));
            table.entry(command.to_owned()).or_default().extend(
                options
                    .split(' ')
                    .filter(|o| !o.is_empty())
                    .map(str::to_owned),
            );
        }
    }
    table
}

/// Splits a shell line into words, quotes removed (enough for the commands printed).
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut quote: Option<char> = None;
    let mut any = false;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                any = true;
            }
            (None, c) if c.is_whitespace() => {
                if any || !word.is_empty() {
                    out.push(std::mem::take(&mut word));
                }
                any = false;
            }
            (None, c) => word.push(c),
        }
    }
    if any || !word.is_empty() {
        out.push(word);
    }
    out
}

/// The `az …` invocations in one printed command line: pipelines, `&&`, `;` and
/// `$( … )` split it.
fn invocations(command: &str) -> Vec<Vec<String>> {
    let mut parts = vec![command.to_owned()];
    for sep in ["$(", ")", "|", "&&", ";", "`"] {
        parts = parts
            .iter()
            .flat_map(|p| p.split(sep).map(str::to_owned).collect::<Vec<_>>())
            .collect();
    }
    parts
        .iter()
        .map(|p| words(p.trim()))
        .filter(|w| w.first().is_some_and(|f| f == "az"))
        .collect()
}

/// What is wrong with one `az` invocation, if anything.
fn check(table: &BTreeMap<String, BTreeSet<String>>, words: &[String]) -> Option<String> {
    let path: Vec<&str> = words[1..]
        .iter()
        .map(String::as_str)
        .take_while(|w| {
            !w.starts_with('-')
                && w.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        })
        .collect();
    let command = (1..=path.len())
        .rev()
        .map(|n| path[..n].join(" "))
        .find(|c| table.contains_key(c));
    let named = path.join(" ");
    let flags = words.iter().any(|w| w.starts_with('-'));
    // A fix may name a group (`az ml` calls) or a retired v1 command the user ran.
    if !flags
        && (RETIRED.contains(&named.as_str())
            || table.keys().any(|c| c.starts_with(&format!("{named} "))))
    {
        return None;
    }
    let Some(command) = command else {
        return Some(format!("`az {named}` is no az command"));
    };
    let used = command.split(' ').count();
    if used < path.len() && !POSITIONAL.contains(&command.as_str()) {
        return Some(format!("`az {command}` has no subcommand `{}`", path[used]));
    }
    let options = &table[&command];
    for w in &words[1..] {
        if !w.starts_with('-') || w == "-" || w.starts_with("--") && w.len() == 2 {
            continue;
        }
        let flag = w.split('=').next().unwrap_or(w);
        // A placeholder shown for a value (`-<n>`) is no flag.
        if flag.contains(['{', '<']) || flag.parse::<f64>().is_ok() {
            continue;
        }
        if !options.contains(flag) {
            return Some(format!("`az {command}` takes no `{flag}`"));
        }
    }
    None
}

/// Commands that take a positional argument after their path.
const POSITIONAL: &[&str] = &["rest", "extension add", "find"];

/// The `az …` spans of prose: in backticks (a span may wrap) and in fenced code.
fn in_prose(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced && line.trim_start().starts_with("az ") {
            out.push(line.trim().to_owned());
        }
    }
    let joined = text.split_whitespace().collect::<Vec<_>>().join(" ");
    for (i, span) in joined.split('`').enumerate() {
        if i % 2 == 1 && span.starts_with("az ") {
            out.push(span.to_owned());
        }
    }
    out
}

/// The commands a rule prints: its `commands`, and those its fix names.
fn rule_commands() -> Vec<(String, String)> {
    let set = amldoctor::commands::support::builtin_rules().unwrap();
    let mut out = Vec::new();
    for r in &set.rules {
        let surfaces = r
            .surfaces
            .iter()
            .flat_map(|(_, f)| f.commands.iter().cloned().chain(in_prose(&f.remediation)));
        for c in r
            .commands
            .iter()
            .cloned()
            .chain(in_prose(&r.remediation))
            .chain(surfaces)
        {
            out.push((format!("rule {}", r.id), c));
        }
    }
    out
}

/// Every string under a `commands` key, and the spans of every other string.
fn yaml_commands(v: &serde_json::Value, under_commands: bool, out: &mut Vec<String>) {
    match v {
        serde_json::Value::String(s) if under_commands => out.push(s.clone()),
        serde_json::Value::String(s) => out.extend(in_prose(s)),
        serde_json::Value::Array(items) => {
            for i in items {
                yaml_commands(i, under_commands, out);
            }
        }
        serde_json::Value::Object(map) => {
            for (k, i) in map {
                yaml_commands(i, k == "commands", out);
            }
        }
        _ => {}
    }
}

/// The `az …` commands in the source's string literals: a literal that is a command,
/// or a command quoted inside one (`run 'az login'`). Tests at a file's end are left out.
fn source_commands(path: &Path) -> Vec<(usize, String)> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("#[cfg(test)]") {
            break;
        }
        if line.trim_start().starts_with("//") {
            continue;
        }
        for (at, _) in line.match_indices("az ") {
            // `az CLI shape` is prose; a command's group is lower case.
            if !line[at + 3..].starts_with(|c: char| c.is_ascii_lowercase()) {
                continue;
            }
            let before = line[..at].chars().last();
            let close = match before {
                Some('"') => '"',
                Some('\'') => '\'',
                Some('`') => '`',
                _ => continue,
            };
            let rest = &line[at..];
            // The literal (or the quoted command in it) ends at its closing quote.
            let mut end = rest.len();
            let mut escaped = false;
            for (i, c) in rest.char_indices() {
                match c {
                    '\\' if !escaped => escaped = true,
                    c if !escaped && (c == close || c == '"') => {
                        end = i;
                        break;
                    }
                    _ => escaped = false,
                }
            }
            out.push((
                n + 1,
                rest[..end].replace("\\\"", "\"").replace("\\\\", "\\"),
            ));
        }
    }
    out
}

fn files_under(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files_under(&path, ext, out);
        } else if path.extension().is_some_and(|e| e == ext) {
            out.push(path);
        }
    }
}

/// Commands of the retired v1 extension, named in fixes as what the user ran.
const RETIRED: &[&str] = &["ml model deploy", "ml service get-logs"];

#[test]
fn every_printed_az_command_and_flag_exists() {
    let table = tables();
    let mut printed: Vec<(String, String)> = rule_commands();
    let catalogue: serde_json::Value = serde_saphyr::from_str(
        &std::fs::read_to_string(root().join("catalogue/http-status.yaml")).unwrap(),
    )
    .unwrap();
    let mut texts = Vec::new();
    yaml_commands(&catalogue, false, &mut texts);
    printed.extend(
        texts
            .into_iter()
            .map(|c| ("catalogue/http-status.yaml".to_owned(), c)),
    );
    let mut files = Vec::new();
    files_under(&root().join("src"), "rs", &mut files);
    files.sort();
    for file in &files {
        let shown = file
            .strip_prefix(root())
            .unwrap_or(file)
            .display()
            .to_string();
        for (line, text) in source_commands(file) {
            printed.push((format!("{shown}:{line}"), text));
        }
    }
    let mut checked = 0;
    let mut wrong = Vec::new();
    for (place, text) in &printed {
        for words in invocations(text) {
            checked += 1;
            if let Some(why) = check(&table, &words) {
                wrong.push(format!("{place}: {why}: {text}"));
            }
        }
    }
    assert!(checked > 300, "only {checked} az commands found");
    assert!(
        wrong.is_empty(),
        "{} wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

#[test]
fn the_checker_refuses_what_az_would() {
    let table = tables();
    let bad = |c: &str| check(&table, &invocations(c)[0]);
    assert_eq!(
        bad("az ml online-endpoint list-sizes -g rg -w ws").as_deref(),
        Some("`az ml online-endpoint list-sizes` is no az command")
    );
    assert_eq!(
        bad("az monitor metrics list --resource x --metric RequestsPerMinute").as_deref(),
        Some("`az monitor metrics list` takes no `--metric`")
    );
    assert_eq!(
        bad("az ml online-deployment get-logs -e ep -n blue --tail 5").as_deref(),
        Some("`az ml online-deployment get-logs` takes no `--tail`")
    );
    assert_eq!(
        bad(
            "az ml online-deployment get-logs -e ep -n blue -l 200 --container storage-initializer"
        ),
        None
    );
    assert_eq!(bad("az vm list-usage -l westeurope -o table"), None);
    assert_eq!(
        bad("x=$(az ml workspace show -n ws -g rg --query location -o tsv)"),
        None
    );
}
