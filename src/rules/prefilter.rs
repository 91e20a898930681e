//! The literal prefilter shared by every rule pattern.
//!
//! Scanning a large tree is dominated by finding the few lines any rule cares about.
//! Case-sensitive literals are split into groups small enough for SIMD "Teddy"
//! searchers (`aho_corasick::packed`), which skip through text at several GB/s; the few
//! case-insensitive literals get an Aho-Corasick automaton of their own. Once a line
//! is known to contain some literal, one overlapping automaton over that line alone
//! says exactly which literals (and so which patterns) to confirm.

use aho_corasick::packed;
use aho_corasick::{AhoCorasick, MatchKind};

use super::literal::Literal;

/// Literals per packed searcher; Teddy is fastest at or below 64.
const GROUP: usize = 48;

#[derive(Debug, Clone)]
enum Searcher {
    Packed(packed::Searcher),
    Automaton(AhoCorasick),
}

impl Searcher {
    fn find(&self, haystack: &[u8]) -> Option<usize> {
        match self {
            Searcher::Packed(s) => s.find(haystack).map(|m| m.start()),
            Searcher::Automaton(a) => a.find(haystack).map(|m| m.start()),
        }
    }
}

/// Where a searcher's next match is, within the current buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next {
    Unknown,
    At(usize),
    None,
}

/// All rule literals, searchable as one.
#[derive(Debug, Clone)]
pub struct Prefilter {
    searchers: Vec<Searcher>,
    line: AhoCorasick,
    /// For each literal: the patterns it selects (empty for error literals).
    pub literal_patterns: Vec<Vec<u32>>,
    /// For each literal: whether it marks an error-like line.
    pub literal_is_error: Vec<bool>,
    /// For each literal: the kinds of section it opens (a `KindSet`'s bits; 0 for none).
    pub literal_section: Vec<u8>,
    /// For each literal: whether its line may name an Azure resource (`evidence::names`).
    pub literal_is_name: Vec<bool>,
}

impl Prefilter {
    /// Builds from literals with the patterns each selects and whether it is an
    /// error-line marker.
    pub fn build(literals: Vec<(Literal, Vec<u32>, bool)>) -> Result<Prefilter, String> {
        let (ci, cs): (Vec<&Literal>, Vec<&Literal>) = literals
            .iter()
            .map(|(l, _, _)| l)
            .partition(|l| l.ascii_case_insensitive);
        // Literals shorter than three bytes (the `\"` and `\n` of JSON escapes) get
        // searchers of their own: in a shared group they would shrink every literal's
        // fingerprint to their length and flood the scan with false candidates.
        let (short, cs): (Vec<&Literal>, Vec<&Literal>) =
            cs.into_iter().partition(|l| l.bytes.len() < 3);
        let mut searchers = Vec::new();
        for group in short.chunks(GROUP).chain(cs.chunks(GROUP)) {
            let mut b = packed::Config::new().builder();
            for l in group {
                b.add(&l.bytes);
            }
            match b.build() {
                Some(s) => searchers.push(Searcher::Packed(s)),
                None => searchers.push(Searcher::Automaton(
                    AhoCorasick::builder()
                        .match_kind(MatchKind::LeftmostFirst)
                        .build(group.iter().map(|l| &l.bytes))
                        .map_err(|e| e.to_string())?,
                )),
            }
        }
        if !ci.is_empty() {
            searchers.push(Searcher::Automaton(
                AhoCorasick::builder()
                    .ascii_case_insensitive(true)
                    .match_kind(MatchKind::LeftmostFirst)
                    .build(ci.iter().map(|l| &l.bytes))
                    .map_err(|e| e.to_string())?,
            ));
        }
        // Per line, a superset is fine (patterns confirm), so ignore case throughout.
        let line = AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .match_kind(MatchKind::Standard)
            .build(literals.iter().map(|(l, _, _)| &l.bytes))
            .map_err(|e| e.to_string())?;
        Ok(Prefilter {
            searchers,
            line,
            literal_patterns: literals.iter().map(|(_, p, _)| p.clone()).collect(),
            literal_is_error: literals.iter().map(|(_, _, e)| *e).collect(),
            literal_section: vec![0; literals.len()],
            literal_is_name: vec![false; literals.len()],
        })
    }

    /// How the literals were split: (packed searchers, automaton searchers), for tests
    /// and diagnostics.
    pub fn shape(&self) -> (usize, usize) {
        let packed = self
            .searchers
            .iter()
            .filter(|s| matches!(s, Searcher::Packed(_)))
            .count();
        (packed, self.searchers.len() - packed)
    }

    /// A fresh per-buffer cache for [`Prefilter::next_candidate`].
    pub fn cache(&self) -> Vec<Next> {
        vec![Next::Unknown; self.searchers.len()]
    }

    /// The start of the first literal occurrence at or after `from` in `haystack`.
    /// `cache` remembers each searcher's next match so text is searched once per buffer.
    pub fn next_candidate(
        &self,
        haystack: &[u8],
        from: usize,
        cache: &mut [Next],
    ) -> Option<usize> {
        let mut best: Option<usize> = None;
        for (s, slot) in self.searchers.iter().zip(cache.iter_mut()) {
            let at = match *slot {
                Next::At(p) if p >= from => Some(p),
                Next::None => None,
                _ => {
                    let found = s.find(&haystack[from..]).map(|p| p + from);
                    *slot = found.map_or(Next::None, Next::At);
                    found
                }
            };
            if let Some(p) = at {
                best = Some(best.map_or(p, |b| b.min(p)));
            }
        }
        best
    }

    /// Every literal occurring in `line` (ignoring case), with repeats.
    pub fn line_literals<'h>(&'h self, line: &'h [u8]) -> impl Iterator<Item = usize> + 'h {
        self.line
            .find_overlapping_iter(line)
            .map(|m| m.pattern().as_usize())
    }
}
