//! A rule's line pattern, compiled the first time the prefilter hands it a candidate
//! line. Most runs touch a few of the catalogue's ~300 patterns (`explain`, `rules` and
//! a small `diagnose` none or a handful), so compiling them all before reading a byte
//! was most of the start-up. A built-in pattern is known to compile (the rule tests
//! compile every one); a user's is compiled when it is loaded, so a bad one is still
//! an error that names its file and key.

use std::sync::OnceLock;

use regex::bytes::Regex;

/// A pattern's source and, once it was needed, its compiled form.
#[derive(Debug, Clone)]
pub struct LazyRegex {
    source: String,
    compiled: OnceLock<Regex>,
}

impl LazyRegex {
    /// A pattern compiled on first use.
    pub(crate) fn new(source: &str) -> LazyRegex {
        LazyRegex {
            source: source.to_owned(),
            compiled: OnceLock::new(),
        }
    }

    /// A pattern already compiled (a user's rule, checked when it was loaded).
    pub(crate) fn compiled(regex: Regex) -> LazyRegex {
        let source = regex.as_str().to_owned();
        let compiled = OnceLock::new();
        let _ = compiled.set(regex);
        LazyRegex { source, compiled }
    }

    /// The compiled pattern.
    pub fn get(&self) -> &Regex {
        self.compiled.get_or_init(|| {
            crate::rules::load::compile_regex(&self.source).unwrap_or_else(|_| never())
        })
    }

    /// The pattern's text.
    pub fn as_str(&self) -> &str {
        &self.source
    }
}

/// A pattern that matches nothing (a 0xFF byte before the start of the text): what a
/// built-in pattern that failed to compile would be, which its tests rule out.
fn never() -> Regex {
    regex::bytes::RegexBuilder::new(r"(?-u:\xFF)\A")
        .unicode(false)
        .build()
        .unwrap_or_else(|_| unreachable_regex())
}

#[allow(clippy::unwrap_used)]
fn unreachable_regex() -> Regex {
    // A literal pattern always compiles.
    Regex::new("a^").unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_built_in_pattern_compiles() {
        let set = crate::rules::load::builtin_for_tests();
        for p in &set.patterns {
            let direct = crate::rules::load::compile_regex(p.regex.as_str());
            assert!(direct.is_ok(), "{}: {direct:?}", p.regex.as_str());
            assert_eq!(p.regex.get().as_str(), p.regex.as_str());
        }
    }

    #[test]
    fn the_fallback_matches_nothing() {
        let n = never();
        for hay in [&b""[..], b"a", b"\xFF", b"\xFF\xFF any text"] {
            assert!(!n.is_match(hay));
        }
    }
}
