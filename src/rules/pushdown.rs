//! The rules' required literals as one KQL filter, so Log Analytics scans the volume
//! and only candidate lines travel. KQL's `has` matches whole indexed terms (runs of
//! letters and digits), not substrings, so only a literal that is one such term goes to
//! `has_any`; every other literal is a `contains` (`contains_cs` when the rule is case
//! sensitive). The filter is a superset: candidates are confirmed with the full rules.

use super::literal::Literal;

/// A KQL string literal.
pub fn kql_string(text: &str) -> String {
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

/// `column has_any (…) or column contains_cs "…" or …` over `literals` (deduplicated).
/// `None` when there is nothing to filter on.
pub fn filter(column: &str, literals: &[&Literal]) -> Option<String> {
    let mut terms: Vec<String> = Vec::new();
    let mut substrings: Vec<(String, bool)> = Vec::new();
    for l in literals {
        let Ok(text) = std::str::from_utf8(&l.bytes) else {
            continue;
        };
        let text = text.trim();
        if text.is_empty() {
            continue;
        }
        if is_term(text) {
            if !terms.iter().any(|t| t.eq_ignore_ascii_case(text)) {
                terms.push(text.to_owned());
            }
        } else if !substrings.iter().any(|(s, _)| s == text) {
            substrings.push((text.to_owned(), l.ascii_case_insensitive));
        }
    }
    let mut parts = Vec::new();
    if !terms.is_empty() {
        let list: Vec<String> = terms.iter().map(|t| kql_string(t)).collect();
        parts.push(format!("{column} has_any ({})", list.join(", ")));
    }
    for (s, insensitive) in substrings {
        let op = if insensitive {
            "contains"
        } else {
            "contains_cs"
        };
        parts.push(format!("{column} {op} {}", kql_string(&s)));
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
    fn whole_terms_go_to_has_any_and_the_rest_to_contains() {
        let a = lit("OutOfQuota", false);
        let b = lit("No space left on device", false);
        let c = lit("exits with returncode", true);
        let d = lit("outofquota", true);
        let e = lit("say \"hi\"", false);
        let f = filter("Message", &[&a, &b, &c, &d, &e]).unwrap();
        assert_eq!(
            f,
            r#"Message has_any ("OutOfQuota") or Message contains_cs "No space left on device" or Message contains "exits with returncode" or Message contains_cs "say \"hi\"""#
        );
        assert!(filter("Message", &[]).is_none());
        assert!(!is_term("ab") && is_term("abc") && !is_term("a-b-c"));
    }
}
