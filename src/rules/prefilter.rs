//! The literal prefilter shared by every rule pattern.
//!
//! Scanning a large tree is dominated by finding the few lines any rule cares about.
//! Case-sensitive literals are split into groups small enough for SIMD "Teddy"
//! searchers (`aho_corasick::packed`), which skip through text at several GB/s; the few
//! case-insensitive literals get an Aho-Corasick automaton of their own. A document
//! is searched only for the literals its kinds' rules need. Once a line is known to
//! contain some literal, overlapping automata over the rest of that line say exactly
//! which literals (and so which patterns) to confirm.

use aho_corasick::packed;
use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, AhoCorasickKind, MatchKind};

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

/// The searchers over one subset of the literals: finds where the next candidate line
/// is, not which literal it holds.
#[derive(Debug, Clone)]
pub struct Searchers {
    searchers: Vec<Searcher>,
    literals: usize,
    lookbehind: usize,
}

/// Where the shorter literal `b` occurs in `a`, when every occurrence of `a` is one of
/// `b` (a case-insensitive `b` is found in either case).
fn inside(a: &Literal, b: &Literal) -> Option<usize> {
    if b.bytes.len() >= a.bytes.len() || (a.ascii_case_insensitive && !b.ascii_case_insensitive) {
        return None;
    }
    // Literals are short and there are hundreds of pairs: a plain window search, no
    // searcher built per pair.
    let at = |hay: &[u8]| hay.windows(b.bytes.len()).position(|w| w == b.bytes);
    if b.ascii_case_insensitive {
        at(&a.bytes.to_ascii_lowercase())
    } else {
        at(&a.bytes)
    }
}

/// For each literal, the furthest place in it where a shorter literal first occurs
/// ([`inside`] of every pair): one pass of an automaton over all literals through each
/// literal, not a window search per pair (a million of them for the catalogue).
fn containment(literals: &[&Literal]) -> Vec<Option<usize>> {
    let automaton = |ci: bool| {
        let index: Vec<usize> = (0..literals.len())
            .filter(|i| literals[*i].ascii_case_insensitive == ci)
            .collect();
        AhoCorasick::builder()
            .ascii_case_insensitive(ci)
            .kind(Some(AhoCorasickKind::NoncontiguousNFA))
            .match_kind(MatchKind::Standard)
            .build(index.iter().map(|i| &literals[*i].bytes))
            .ok()
            .map(|ac| (ac, index))
    };
    let (Some(sensitive), Some(insensitive)) = (automaton(false), automaton(true)) else {
        return literals
            .iter()
            .map(|a| literals.iter().filter_map(|b| inside(a, b)).max())
            .collect();
    };
    literals
        .iter()
        .map(|a| {
            let mut first: std::collections::HashMap<usize, usize> = Default::default();
            // A case-insensitive literal is not found through a case-sensitive one.
            let searched = if a.ascii_case_insensitive {
                vec![&insensitive]
            } else {
                vec![&sensitive, &insensitive]
            };
            for (ac, index) in searched {
                for m in ac.find_overlapping_iter(&a.bytes) {
                    let b = index[m.pattern().as_usize()];
                    if literals[b].bytes.len() < a.bytes.len() {
                        let at = first.entry(b).or_insert(m.start());
                        *at = (*at).min(m.start());
                    }
                }
            }
            first.into_values().max()
        })
        .collect()
}

impl Searchers {
    /// Searchers that find nothing: what a set no automaton holds falls back to.
    fn none() -> Searchers {
        Searchers {
            searchers: Vec::new(),
            literals: 0,
            lookbehind: 0,
        }
    }

    fn build(literals: &[&Literal]) -> Result<Searchers, String> {
        // A literal that contains another one is found through it: every line holding
        // `ImportError: cannot import name '` holds `Error:` too. Fewer literals, fewer
        // SIMD passes; the line's literals are then identified from `lookbehind` bytes
        // before the one found, where the longer literal may start.
        let mut lookbehind = 0;
        let contained = containment(literals);
        let searched: Vec<&Literal> = literals
            .iter()
            .zip(&contained)
            .filter_map(|(a, offset)| match offset {
                Some(offset) => {
                    lookbehind = lookbehind.max(*offset);
                    None
                }
                None => Some(*a),
            })
            .collect();
        let (ci, cs): (Vec<&Literal>, Vec<&Literal>) =
            searched.into_iter().partition(|l| l.ascii_case_insensitive);
        // Literals shorter than three bytes (the `\"` and `\n` of JSON escapes) get
        // searchers of their own: in a shared group they would shrink every literal's
        // fingerprint to their length and flood the scan with false candidates. The
        // rest go by length, so a group's fingerprint is as long as its literals allow.
        let (short, mut cs): (Vec<&Literal>, Vec<&Literal>) =
            cs.into_iter().partition(|l| l.bytes.len() < 3);
        cs.sort_by_key(|l| l.bytes.len());
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
        Ok(Searchers {
            searchers,
            literals: literals.len(),
            lookbehind,
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

    /// How many literals are searched for.
    pub fn literals(&self) -> usize {
        self.literals
    }

    /// How far before a candidate's position another literal of its line may start:
    /// the longest offset of a searched literal inside one found through it.
    pub fn lookbehind(&self) -> usize {
        self.lookbehind
    }

    /// A fresh per-buffer cache for [`Searchers::next_candidate`].
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
}

/// Kind sets a document can be read as: one bit per `DocumentKind`, and
/// `KindSet::STANDALONE`.
const KIND_SETS: usize = 1 << 8;

/// All rule literals, searchable as one.
#[derive(Debug, Clone)]
pub struct Prefilter {
    /// Every literal, in the order of the per-literal tables below.
    literals: Vec<Literal>,
    /// Searchers over every literal, built when the first document is scanned (a
    /// command that scans nothing never pays for them).
    all: OnceLock<Searchers>,
    /// Searchers over the literals a document read as a kind set needs (indexed by the
    /// set's bits), built on first use: a ParallelRunStep file needs a third of the
    /// catalogue's literals, and the search costs about one SIMD pass per 48 literals.
    by_kinds: Box<[OnceLock<Searchers>]>,
    /// Which literals a candidate line holds: first a quickly built NFA, then, once a
    /// run has confirmed [`DFA_AFTER`] candidate lines, a DFA (slow to build, fast to
    /// run), so a small input never pays for the DFA and a large one runs on it.
    line: OnceLock<Option<LineAutomata>>,
    line_dfa: OnceLock<Option<LineAutomata>>,
    candidates: Count,
    /// For each literal: the patterns it selects (empty for error literals).
    pub literal_patterns: Vec<Vec<u32>>,
    /// For each literal: whether it marks an error-like line.
    pub literal_is_error: Vec<bool>,
    /// For each literal: the kinds of section it opens (a `KindSet`'s bits; 0 for none).
    pub literal_section: Vec<u8>,
    /// For each literal: whether its line may name an Azure resource (`evidence::azure_names`).
    pub literal_is_name: Vec<bool>,
    /// For each literal: the kinds of document whose rules need it (a `KindSet`'s
    /// bits); every kind for the error, section, name and escape literals.
    pub literal_kinds: Vec<u8>,
}

impl Prefilter {
    /// Builds from literals with the patterns each selects and whether it is an
    /// error-line marker.
    pub fn build(literals: Vec<(Literal, Vec<u32>, bool)>) -> Result<Prefilter, String> {
        Ok(Prefilter {
            all: OnceLock::new(),
            by_kinds: (0..KIND_SETS).map(|_| OnceLock::new()).collect(),
            line: OnceLock::new(),
            line_dfa: OnceLock::new(),
            candidates: Count::default(),
            literal_patterns: literals.iter().map(|(_, p, _)| p.clone()).collect(),
            literal_is_error: literals.iter().map(|(_, _, e)| *e).collect(),
            literal_section: vec![0; literals.len()],
            literal_is_name: vec![false; literals.len()],
            literal_kinds: vec![u8::MAX; literals.len()],
            literals: literals.into_iter().map(|(l, _, _)| l).collect(),
        })
    }

    /// The literals that select a rule pattern for a document of the kinds in `bits`:
    /// what a remote engine must find for any of those rules to hit (`diagnose
    /// --log-analytics` pushes them down as one filter). Error and name markers, which
    /// select no pattern, are left out.
    pub fn pushdown_literals(&self, bits: u8) -> Vec<(usize, &Literal)> {
        self.literals
            .iter()
            .enumerate()
            .filter(|(i, _)| {
                !self.literal_patterns[*i].is_empty() && self.literal_kinds[*i] & bits != 0
            })
            .collect()
    }

    /// The patterns literal `index` selects.
    pub fn patterns_of(&self, index: usize) -> &[u32] {
        &self.literal_patterns[index]
    }

    /// The bytes of literal `index`.
    pub fn literal(&self, index: usize) -> &[u8] {
        &self.literals[index].bytes
    }

    fn literal_refs(&self) -> Vec<&Literal> {
        self.literals.iter().collect()
    }

    /// Builds the searchers now: a user's rule set is checked when it is loaded, so a
    /// literal set no automaton holds is an error there, not a silent scan later.
    pub fn check(&self) -> Result<(), String> {
        let literals = self.literal_refs();
        if self.all.get().is_none() {
            let _ = self.all.set(Searchers::build(&literals)?);
        }
        if self.line.get().is_none() {
            let _ = self.line.set(Some(LineAutomata::build(&literals, NFA)?));
        }
        Ok(())
    }

    /// The searchers over every literal.
    pub fn all(&self) -> &Searchers {
        // The built-in set builds (its tests build it); a user's was checked.
        self.all.get_or_init(|| {
            Searchers::build(&self.literal_refs()).unwrap_or_else(|_| Searchers::none())
        })
    }

    /// The searchers over the literals a document read as the kinds in `bits` needs.
    pub fn for_kinds(&self, bits: u8) -> &Searchers {
        let Some(slot) = self.by_kinds.get(usize::from(bits)) else {
            return self.all();
        };
        slot.get_or_init(|| {
            let needed: Vec<&Literal> = self
                .literals
                .iter()
                .zip(&self.literal_kinds)
                .filter(|(_, k)| *k & bits != 0)
                .map(|(l, _)| l)
                .collect();
            // A subset of literals that built once builds again; the fallback is a
            // clone of the full set, slower but never wrong.
            Searchers::build(&needed).unwrap_or_else(|_| self.all().clone())
        })
    }

    /// Every literal occurring in `line`, with repeats.
    pub fn line_literals<'h>(&'h self, line: &'h [u8]) -> impl Iterator<Item = usize> + 'h {
        use std::sync::atomic::Ordering;
        let seen = self.candidates.0.fetch_add(1, Ordering::Relaxed);
        let (slot, kind) = if seen < DFA_AFTER {
            (&self.line, NFA)
        } else {
            (&self.line_dfa, AhoCorasickKind::DFA)
        };
        slot.get_or_init(|| LineAutomata::build(&self.literal_refs(), kind).ok())
            .iter()
            .flat_map(move |automata| automata.find(line))
    }
}

/// Which literals a candidate line holds: one automaton for the case-sensitive
/// literals, one for the others, each mapping back to the literal's index.
#[derive(Debug, Clone)]
struct LineAutomata {
    sensitive: (AhoCorasick, Vec<usize>),
    insensitive: Option<(AhoCorasick, Vec<usize>)>,
}

/// A counter shared by the scan's threads (a clone starts from the same count).
#[derive(Debug, Default)]
struct Count(std::sync::atomic::AtomicUsize);

impl Clone for Count {
    fn clone(&self) -> Count {
        use std::sync::atomic::{AtomicUsize, Ordering};
        Count(AtomicUsize::new(self.0.load(Ordering::Relaxed)))
    }
}

/// Candidate lines confirmed before the line automata switch to a DFA.
const DFA_AFTER: usize = 20_000;
const NFA: AhoCorasickKind = AhoCorasickKind::ContiguousNFA;

impl LineAutomata {
    fn build(literals: &[&Literal], kind: AhoCorasickKind) -> Result<LineAutomata, String> {
        let automaton = |ci: bool| -> Result<(AhoCorasick, Vec<usize>), String> {
            let index: Vec<usize> = (0..literals.len())
                .filter(|i| literals[*i].ascii_case_insensitive == ci)
                .collect();
            let ac = AhoCorasick::builder()
                .ascii_case_insensitive(ci)
                .kind(Some(kind))
                .prefilter(false)
                .match_kind(MatchKind::Standard)
                .build(index.iter().map(|i| &literals[*i].bytes))
                .map_err(|e| e.to_string())?;
            Ok((ac, index))
        };
        let any_ci = literals.iter().any(|l| l.ascii_case_insensitive);
        Ok(LineAutomata {
            sensitive: automaton(false)?,
            insensitive: if any_ci { Some(automaton(true)?) } else { None },
        })
    }

    fn find<'h>(&'h self, line: &'h [u8]) -> impl Iterator<Item = usize> + 'h {
        let (cs, cs_index) = &self.sensitive;
        let sensitive = cs
            .find_overlapping_iter(line)
            .map(|m| cs_index[m.pattern().as_usize()]);
        let insensitive = self.insensitive.iter().flat_map(move |(ci, ci_index)| {
            ci.find_overlapping_iter(line)
                .map(|m| ci_index[m.pattern().as_usize()])
        });
        sensitive.chain(insensitive)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn containment_by_automaton_is_the_pairwise_search() {
        let set = crate::rules::load::builtin_for_tests();
        let literals: Vec<&Literal> = set.prefilter.literals.iter().collect();
        let pairwise: Vec<Option<usize>> = literals
            .iter()
            .map(|a| literals.iter().filter_map(|b| inside(a, b)).max())
            .collect();
        assert_eq!(containment(&literals), pairwise);
        assert!(pairwise.iter().any(Option::is_some));
    }

    #[test]
    fn a_case_insensitive_literal_is_not_found_through_a_sensitive_one() {
        let lit = |t: &str, ci: bool| Literal {
            bytes: t.as_bytes().to_vec(),
            ascii_case_insensitive: ci,
        };
        let (a, b, c) = (
            lit("Killed process", true),
            lit("Killed", false),
            lit("KILL", true),
        );
        let all = [&a, &b, &c];
        assert_eq!(containment(&all), vec![Some(0), Some(0), None]);
    }

    #[test]
    fn the_line_automata_agree_before_and_after_the_switch_to_a_dfa() {
        let set = crate::rules::load::builtin_for_tests();
        let line = b"ERROR: (OutOfQuota) Not enough quota available for Standard_DS3_v2; ImageBuildFailure".as_slice();
        let mut before: Vec<usize> = set.prefilter.line_literals(line).collect();
        set.prefilter
            .candidates
            .0
            .store(DFA_AFTER, std::sync::atomic::Ordering::Relaxed);
        let mut after: Vec<usize> = set.prefilter.line_literals(line).collect();
        before.sort_unstable();
        after.sort_unstable();
        assert!(!before.is_empty());
        assert_eq!(before, after);
    }
}
