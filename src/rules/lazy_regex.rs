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
    compiled: OnceLock<Option<Regex>>,
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
        LazyRegex {
            source: regex.as_str().to_owned(),
            compiled: OnceLock::from(Some(regex)),
        }
    }

    /// The compiled pattern; `None` only for a built-in pattern that does not compile,
    /// which the rule tests rule out (it then matches no line).
    pub fn get(&self) -> Option<&Regex> {
        self.compiled
            .get_or_init(|| crate::rules::load::compile_regex(&self.source).ok())
            .as_ref()
    }

    /// The pattern's text.
    pub fn as_str(&self) -> &str {
        &self.source
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_built_in_pattern_compiles() {
        let set = crate::rules::load::builtin_for_tests();
        for p in &set.patterns {
            let compiled = p
                .regex
                .get()
                .unwrap_or_else(|| panic!("{}", p.regex.as_str()));
            assert_eq!(compiled.as_str(), p.regex.as_str());
        }
    }
}
