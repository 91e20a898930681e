//! Rule documentation as markdown (`rules docs` and the checked-in docs/rules.md,
//! verified by a test), and the same text laid out for a terminal (`rules show`).

use std::fmt::Write as _;

use crate::rules::resource::{Each, FieldTest, Related, ResourceMatch, Test};
use crate::rules::template::{Placeholders, fill, show_missing};
use crate::rules::{PatternRole, Rule, RuleSet};

fn patterns(set: &RuleSet, rule: &Rule, role: PatternRole) -> Vec<String> {
    let ids = match role {
        PatternRole::Any => &rule.any,
        PatternRole::All => &rule.all,
        PatternRole::Unless => &rule.unless,
    };
    ids.iter()
        .map(|i| set.patterns[*i].regex.as_str().to_owned())
        .collect()
}

/// The fix, the commands and the references of a rule.
fn fix_commands_docs(s: &mut String, rule: &Rule, known: &Placeholders) {
    let fix = show_missing(&fill(&rule.remediation, &Default::default(), known));
    let _ = writeln!(s, "**Fix**\n\n{}\n", fix.trim_end());
    if !rule.commands.is_empty() {
        let _ = writeln!(s, "**Commands**\n\n```sh");
        for c in &rule.commands {
            let _ = writeln!(s, "{}", show_missing(&fill(c, &Default::default(), known)));
        }
        let _ = writeln!(s, "```\n");
    }
    for (surface, fix) in &rule.surfaces {
        let text = show_missing(&fill(&fix.remediation, &Default::default(), known));
        let _ = writeln!(
            s,
            "**Fix on a {}**\n\n{}\n",
            surface.describe(),
            text.trim_end()
        );
        if !fix.commands.is_empty() {
            let _ = writeln!(s, "```sh");
            for c in &fix.commands {
                let _ = writeln!(s, "{}", show_missing(&fill(c, &Default::default(), known)));
            }
            let _ = writeln!(s, "```\n");
        }
    }
    if !rule.fix.is_empty() {
        let _ = writeln!(s, "**Suggested edit** (`lint --fix-suggestions`)\n");
        for f in &rule.fix {
            let keys: Vec<String> = f.alternatives.iter().map(|a| a.join(".")).collect();
            let what = match &f.action {
                crate::rules::fix::FixAction::Set(v) => format!("set to `{v}`"),
                crate::rules::fix::FixAction::Remove => "removed".to_owned(),
            };
            let when = f.if_matches.as_ref().map_or(String::new(), |re| {
                format!(" when its value matches `{re}`")
            });
            let _ = writeln!(s, "- `{}` {what}{when}", keys.join(" | "));
        }
        let _ = writeln!(s);
    }
    if !rule.docs.is_empty() {
        let _ = writeln!(s, "**References**\n");
        for d in &rule.docs {
            let _ = writeln!(s, "- <{d}>");
        }
        let _ = writeln!(s);
    }
}

/// `rules show` on a terminal: [`rule_markdown`] laid out at `width` columns, prose
/// reflowed and plain, `sh` commands continued with ` \` so they paste as one; example
/// log lines and URLs stay whole, since a broken one no longer matches or opens.
pub fn rule_terminal(set: &RuleSet, rule: &Rule, known: &Placeholders, width: usize) -> String {
    let markdown = rule_markdown(set, rule, "#", known);
    let mut lines: Vec<String> = Vec::new();
    let mut prose = String::new();
    let flush = |prose: &mut String, lines: &mut Vec<String>| {
        if !prose.trim().is_empty() {
            if !lines.is_empty() {
                lines.push(String::new());
            }
            lines.extend(super::text::reflow(prose, width, 0));
        }
        prose.clear();
    };
    let mut in_sh = false;
    for line in markdown.lines() {
        if in_sh {
            if line == "```" {
                in_sh = false;
            } else {
                lines.extend(super::text::command_lines(line, width, 2));
            }
            continue;
        }
        if line == "```sh" {
            flush(&mut prose, &mut lines);
            in_sh = true;
            continue;
        }
        // A pattern is one code span: broken at its spaces it reads as two.
        if line.starts_with("- `") && line.ends_with('`') && line.matches('`').count() == 2 {
            let item = line.to_owned();
            flush(&mut prose, &mut lines);
            if lines.last().is_some_and(|l| !l.starts_with("- `")) {
                lines.push(String::new());
            }
            lines.push(item);
            continue;
        }
        prose.push_str(line.strip_prefix("# ").unwrap_or(line));
        prose.push('\n');
    }
    flush(&mut prose, &mut lines);
    lines
        .iter()
        .map(|l| format!("{}\n", l.trim_end()))
        .collect()
}

/// One rule, fully: what it matches, why, the fix, the commands, examples.
/// Commands show `{placeholders}` filled from `known` (the run's context); the
/// generated reference passes none.
pub fn rule_markdown(set: &RuleSet, rule: &Rule, heading: &str, known: &Placeholders) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "{heading} {}\n", rule.id);
    let _ = writeln!(s, "**{}**\n", rule.title);
    let _ = writeln!(
        s,
        "- severity: {}\n- family: {}\n- reads: {}",
        rule.severity,
        rule.family,
        if rule.resource_kinds == 0 {
            rule.kind_names().join(", ")
        } else {
            format!("resources: {}", rule.resource_kind_names().join(", "))
        }
    );
    if let Some(area) = rule.check {
        let _ = writeln!(s, "- check: `amldoctor check {area}`");
    }
    if !rule.codes.is_empty() {
        let _ = writeln!(s, "- error codes: {}", rule.codes.join(", "));
    }
    if !rule.caused_by.is_empty() {
        let causes: Vec<&str> = rule
            .caused_by
            .iter()
            .map(|c| {
                if c == "*" {
                    "any specific error found in the same input"
                } else {
                    c.as_str()
                }
            })
            .collect();
        let _ = writeln!(s, "- symptom of: {}", causes.join(", "));
    }
    let _ = writeln!(s);
    if rule.computed {
        let what = if rule.resource_kinds == 0 {
            "the counts, settings and resource data of a ParallelRunStep log tree (not matched from a single line)".to_owned()
        } else {
            format!(
                "several settings of the {} resource together (not a single field test)",
                rule.resource_kind_names().join(" or ")
            )
        };
        let _ = writeln!(s, "Computed by amldoctor from {what}.\n");
        fix_commands_docs(&mut s, rule, known);
        return s;
    }
    if let Some(m) = &rule.resource {
        describe_resource_match(&mut s, rule, m);
        fix_commands_docs(&mut s, rule, known);
        examples(&mut s, rule, "json");
        return s;
    }
    let _ = writeln!(s, "Matches a line like any of:\n");
    for p in patterns(set, rule, PatternRole::Any) {
        let _ = writeln!(s, "- `{p}`");
    }
    let all = patterns(set, rule, PatternRole::All);
    if !all.is_empty() {
        let _ = writeln!(s, "\nand, in the same input, every one of:\n");
        for p in all {
            let _ = writeln!(s, "- `{p}`");
        }
    }
    let unless = patterns(set, rule, PatternRole::Unless);
    if !unless.is_empty() {
        let _ = writeln!(s, "\nunless the input also has a line like:\n");
        for p in unless {
            let _ = writeln!(s, "- `{p}`");
        }
    }
    if !rule.when.is_empty() {
        let _ = writeln!(s, "\nwhen:\n");
        for c in &rule.when {
            let _ = writeln!(
                s,
                "- `{}` {:?} `{}` ({:?})",
                c.fact, c.op, c.value, c.value_type
            );
        }
    }
    let _ = writeln!(s);
    fix_commands_docs(&mut s, rule, known);
    examples(&mut s, rule, "text");
    s
}

fn examples(s: &mut String, rule: &Rule, lang: &str) {
    let _ = writeln!(
        s,
        "**Example that matches**\n\n```{lang}\n{}\n```\n",
        rule.examples.matching[0].trim_end()
    );
    let _ = writeln!(
        s,
        "**Example that does not**\n\n```{lang}\n{}\n```\n",
        rule.examples.no_match[0].trim_end()
    );
}

/// The field tests of a rule over resources, in words.
fn describe_resource_match(s: &mut String, rule: &Rule, m: &ResourceMatch) {
    let kinds = rule.resource_kind_names().join(" or ");
    let article = if kinds.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    };
    let _ = writeln!(s, "Fires on {article} {kinds} resource when:\n");
    for t in &m.all {
        let _ = writeln!(s, "- {}", describe_test(t));
    }
    if !m.any.is_empty() {
        let parts: Vec<String> = m.any.iter().map(describe_test).collect();
        let _ = writeln!(s, "- one of: {}", parts.join("; or "));
    }
    for r in &m.with {
        let _ = writeln!(
            s,
            "- and a {} resource was read where {}",
            r.kind,
            describe_related(r)
        );
    }
    for r in &m.without {
        let _ = writeln!(
            s,
            "- and {} resources were read, none where {}",
            r.kind,
            describe_related(r)
        );
    }
    for r in &m.unless_with {
        let _ = writeln!(
            s,
            "- and no {} resource was read where {}",
            r.kind,
            describe_related(r)
        );
    }
    if !m.with_finding.is_empty() {
        let _ = writeln!(
            s,
            "- and one of these fired too: {}",
            m.with_finding.join(", ")
        );
    }
    if !rule.when.is_empty() {
        for c in &rule.when {
            let _ = writeln!(
                s,
                "- and `{}` {:?} `{}` ({:?})",
                c.fact, c.op, c.value, c.value_type
            );
        }
    }
    let _ = writeln!(s);
}

fn describe_related(r: &Related) -> String {
    let mut parts: Vec<String> = r.all.iter().map(describe_test).collect();
    if !r.any.is_empty() {
        let any: Vec<String> = r.any.iter().map(describe_test).collect();
        parts.push(format!("one of ({})", any.join("; or ")));
    }
    parts.join(", and ")
}

/// One field test in words: `` `path` is `Deny` ``.
fn describe_test(t: &FieldTest) -> String {
    match t {
        FieldTest::AnyOf(group) => {
            let parts: Vec<String> = group.iter().map(describe_test).collect();
            format!("({})", parts.join("; or "))
        }
        FieldTest::Field {
            path, tests, each, ..
        } => {
            let subject = match (each, path.has_each()) {
                (Each::All, _) => format!("every `{}`", path.text),
                (Each::None, _) => format!("no `{}`", path.text),
                (Each::Any, true) => format!("some `{}`", path.text),
                (Each::Any, false) => format!("`{}`", path.text),
            };
            let tests: Vec<String> = tests.iter().map(describe_value_test).collect();
            format!("{subject} {}", tests.join(" and "))
        }
    }
}

fn describe_value_test(t: &Test) -> String {
    let list = |l: &[String]| {
        l.iter()
            .map(|v| format!("`{v}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match t {
        Test::Equals(v) => format!("is `{v}`"),
        Test::NotEquals(v) => format!("is set and is not `{v}`"),
        Test::OneOf(l) => format!("is one of {}", list(l)),
        Test::NotOneOf(l) => format!("is none of {}", list(l)),
        Test::Exists(true) => "is set".to_owned(),
        Test::Exists(false) => "is not set".to_owned(),
        Test::Matches(p) => format!("matches `{}`", p.template),
        Test::NotMatches(p) => format!("does not match `{}`", p.template),
        Test::Compare {
            value_type,
            op,
            value,
        } => format!("{op:?} `{value}` ({value_type:?})"),
        Test::Where(nested) => {
            let parts: Vec<String> = nested.iter().map(describe_test).collect();
            format!("has {}", parts.join(" and "))
        }
    }
}

/// The whole catalogue: an index table, then every rule, grouped by family.
pub fn catalogue_markdown(set: &RuleSet) -> String {
    let mut rules: Vec<&Rule> = set.rules.iter().collect();
    rules.sort_by(|a, b| a.family.cmp(&b.family).then_with(|| a.id.cmp(&b.id)));
    let mut s = String::from(
        "# Rule reference\n\n<!-- Generated by `amldoctor rules docs`; do not edit by hand. Regenerate with `AMLDOCTOR_UPDATE_GENERATED=1 cargo test --test cli`. -->\n\n",
    );
    let _ = writeln!(s, "{} rules.\n", rules.len());
    let _ = writeln!(
        s,
        "| id | severity | family | codes | title |\n|---|---|---|---|---|"
    );
    for r in &rules {
        let _ = writeln!(
            s,
            "| [{id}](#{id}) | {} | {} | {} | {} |",
            r.severity,
            r.family,
            r.codes.join(", "),
            r.title.replace('|', "\\|"),
            id = r.id
        );
    }
    let _ = writeln!(s);
    let mut family = "";
    for r in rules {
        if r.family != family {
            family = &r.family;
            let _ = writeln!(s, "## {family}\n");
        }
        s.push_str(&rule_markdown(set, r, "###", &Placeholders::new()));
    }
    s
}
