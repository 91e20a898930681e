//! The rules' required literals as one KQL filter, so Log Analytics scans the volume
//! and only candidate lines travel. KQL's `has` matches whole indexed terms (runs of
//! letters and digits), not substrings, so only a literal that is one such term goes to
//! `has_any`; every other literal is a `contains` (`contains_cs` when the rule is case
//! sensitive). The filter is a superset: candidates are confirmed with the full rules.

use super::literal::Literal;

/// A KQL string literal.
pub(crate) fn kql_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Whether KQL indexes `text` as one term: letters and digits only, at least 3.
fn is_term(text: &str) -> bool {
    text.len() >= 3 && text.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// Whether `literal` stands as a whole word in `pattern`: `\b` (or a character that is
/// no letter or digit) on both sides, so `has` cannot miss a line the pattern matches
/// (`has "Killed"` does not find `OOMKilled`).
pub(crate) fn bounded_in(pattern: &str, literal: &str) -> bool {
    let p = pattern.to_ascii_lowercase();
    let l = literal.to_ascii_lowercase();
    let mut found = false;
    for (at, _) in p.match_indices(&l) {
        found = true;
        let before = &p[..at];
        let after = &p[at + l.len()..];
        let left = before.ends_with("\\b")
            || before.chars().last().is_some_and(|c| {
                matches!(
                    c,
                    ' ' | ':' | '\'' | '"' | '=' | '/' | ',' | '[' | '<' | '>' | '^'
                )
            });
        let right = after.starts_with("\\b")
            || after.chars().next().is_some_and(|c| {
                matches!(
                    c,
                    ' ' | ':' | '\'' | '"' | '=' | '/' | ',' | ']' | '<' | '>' | '$'
                )
            });
        if !(left && right) {
            return false;
        }
    }
    found
}

/// `column has_any (…) or column contains "…" or …` over `literals`, each with whether
/// every pattern it serves bounds it as a word. `None` when there is nothing to filter.
pub(crate) fn filter(column: &str, literals: &[(&Literal, bool)]) -> Option<String> {
    let mut terms: Vec<String> = Vec::new();
    let mut substrings: Vec<String> = Vec::new();
    for (l, bounded) in literals {
        let Ok(text) = std::str::from_utf8(&l.bytes) else {
            continue;
        };
        if text.trim().is_empty() {
            continue;
        }
        if *bounded && is_term(text) {
            if !terms.iter().any(|t| t.eq_ignore_ascii_case(text)) {
                terms.push(text.to_owned());
            }
        } else if !substrings.iter().any(|s| s.eq_ignore_ascii_case(text)) {
            // `contains` ignores case: one entry serves every spelling of a literal.
            substrings.push(text.to_owned());
        }
    }
    let mut parts = Vec::new();
    if !terms.is_empty() {
        let list: Vec<String> = terms.iter().map(|t| kql_string(t)).collect();
        parts.push(format!("{column} has_any ({})", list.join(", ")));
    }
    for s in substrings {
        parts.push(format!("{column} contains {}", kql_string(&s)));
    }
    (!parts.is_empty()).then(|| parts.join(" or "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(text: &str, insensitive: bool) -> Literal {
        Literal {
            bytes: text.as_bytes().to_vec(),
            ascii_case_insensitive: insensitive,
        }
    }

    #[test]
    fn bounded_terms_go_to_has_any_and_the_rest_to_contains() {
        let a = lit("OutOfQuota", false);
        let b = lit("No space left on device", false);
        let c = lit("Killed", false);
        let d = lit("outofquota", true);
        let e = lit("say \"hi\"", false);
        let f = filter(
            "Message",
            &[
                (&a, true),
                (&b, false),
                (&c, false),
                (&d, true),
                (&e, false),
            ],
        )
        .unwrap();
        assert_eq!(
            f,
            r#"Message has_any ("OutOfQuota") or Message contains "No space left on device" or Message contains "Killed" or Message contains "say \"hi\"""#
        );
        assert!(filter("Message", &[]).is_none());
        assert!(!is_term("ab") && is_term("abc") && !is_term("a-b-c"));
    }

    #[test]
    fn a_literal_is_bounded_only_where_every_occurrence_is() {
        assert!(bounded_in(r"\bOutOfQuota\b", "OutOfQuota"));
        assert!(bounded_in(r"Reason: OOMKilled$", "OOMKilled"));
        assert!(bounded_in(r"Reason: OOMKilled ", "OOMKilled"));
        assert!(!bounded_in(r"(?:Killed|Terminated)", "Killed"));
        assert!(!bounded_in(r"OOMKilled", "Killed"));
        assert!(!bounded_in(r"abc", "xyz"));
    }
}
