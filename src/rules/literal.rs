//! Finds text every match of a pattern must contain, so the scanner can select
//! candidate lines for all rules with one multi-literal search and run each full
//! regex only on its candidates. This is what keeps one expensive rule (a Unicode
//! `\b`, a leading `.*`) from slowing the scan of a whole log tree.

use regex_syntax::hir::{Class, Hir, HirKind};

/// Shortest literal worth prefiltering on.
pub(crate) const MIN_LITERAL: usize = 3;
/// More alternatives than this make the prefilter useless for the pattern.
const MAX_ALTERNATIVES: usize = 64;

/// Parses `pattern` the way rules are compiled (ASCII mode).
pub(crate) fn parse(pattern: &str) -> Result<Hir, String> {
    regex_syntax::ParserBuilder::new()
        .unicode(false)
        .utf8(false)
        .build()
        .parse(pattern)
        .map_err(|e| {
            // regex-syntax renders a multi-line diagram; the last line states the problem.
            let text = e.to_string();
            text.lines()
                .rev()
                .find(|l| l.starts_with("error:"))
                .map(|l| l.trim_start_matches("error:").trim().to_owned())
                .unwrap_or(text)
        })
}

/// Text every match contains.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Literal {
    /// The bytes; lower-cased where `ascii_case_insensitive`.
    pub bytes: Vec<u8>,
    /// Part of it came from a `(?i)` pattern, so it must be searched ignoring ASCII case.
    pub ascii_case_insensitive: bool,
}

impl Literal {
    fn sensitive(bytes: Vec<u8>) -> Literal {
        Literal {
            bytes,
            ascii_case_insensitive: false,
        }
    }

    fn len(&self) -> usize {
        self.bytes.len()
    }
}

/// A set of literals, at least one of which occurs in every match; `None` when no
/// literal of [`MIN_LITERAL`] bytes is required.
pub(crate) fn required_literals(hir: &Hir) -> Option<Vec<Literal>> {
    let set = required(hir)?;
    let usable = set.iter().all(|l| l.len() >= MIN_LITERAL) && set.len() <= MAX_ALTERNATIVES;
    usable.then_some(set)
}

/// The exact bytes a node matches, if it matches exactly one string (up to ASCII case).
fn exact(hir: &Hir) -> Option<Literal> {
    match hir.kind() {
        HirKind::Literal(lit) => Some(Literal::sensitive(lit.0.to_vec())),
        HirKind::Class(class) => single_byte(class).map(|(b, ci)| Literal {
            bytes: vec![b],
            ascii_case_insensitive: ci,
        }),
        HirKind::Capture(cap) => exact(&cap.sub),
        HirKind::Concat(subs) => {
            let mut out = Literal::sensitive(Vec::new());
            for s in subs {
                out.extend(exact(s)?);
            }
            Some(out)
        }
        HirKind::Repetition(rep) if rep.min == 1 && rep.max == Some(1) => exact(&rep.sub),
        _ => None,
    }
}

impl Literal {
    fn extend(&mut self, other: Literal) {
        if other.ascii_case_insensitive && !self.ascii_case_insensitive {
            self.bytes.make_ascii_lowercase();
            self.ascii_case_insensitive = true;
        }
        if self.ascii_case_insensitive {
            self.bytes.extend(other.bytes.to_ascii_lowercase());
        } else {
            self.bytes.extend(other.bytes);
        }
    }
}

/// The bytes of a class of at most `max` ASCII bytes.
fn class_bytes(class: &Class, max: usize) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let mut push = |b: u32| {
        let b = u8::try_from(b).ok().filter(u8::is_ascii)?;
        (out.len() < max).then(|| out.push(b))
    };
    match class {
        Class::Bytes(c) => {
            for r in c.ranges() {
                for b in r.start()..=r.end() {
                    push(u32::from(b))?;
                }
            }
        }
        Class::Unicode(c) => {
            for r in c.ranges() {
                for ch in r.start()..=r.end() {
                    push(u32::from(ch))?;
                }
            }
        }
    }
    Some(out)
}

/// A class that matches one byte (`false`), or one ASCII letter in either case (`true`).
fn single_byte(class: &Class) -> Option<(u8, bool)> {
    let mut bytes = class_bytes(class, 2)?;
    if bytes.len() == 1 {
        return Some((bytes[0], false));
    }
    bytes.iter_mut().for_each(|b| *b = b.to_ascii_lowercase());
    bytes.dedup();
    (bytes.len() == 1 && bytes[0].is_ascii_alphabetic()).then(|| (bytes[0], true))
}

/// Most strings a node's [`variants`] may number; each becomes a literal to search for.
const MAX_VARIANTS: usize = 8;

/// Literal length past which a longer one is not worth more literals: three digits
/// (`408`) or `HTTP/1.` occur on many lines of a busy log, twelve exact bytes seldom.
const SELECTIVE: usize = 12;

/// Every string a node matches, when they are few: `HTTP/1\.[01]" ?` is four,
/// `[Ss]tatus [Cc]ode` is four.
fn variants(hir: &Hir) -> Option<Vec<Vec<u8>>> {
    let mut out = match hir.kind() {
        HirKind::Literal(lit) => vec![lit.0.to_vec()],
        HirKind::Class(class) => class_bytes(class, MAX_VARIANTS)?
            .into_iter()
            .map(|b| vec![b])
            .collect(),
        HirKind::Capture(cap) => variants(&cap.sub)?,
        HirKind::Concat(subs) => subs
            .iter()
            .try_fold(vec![Vec::new()], |acc, s| cross(&acc, &variants(s)?))?,
        HirKind::Alternation(alts) => {
            let mut all = Vec::new();
            for a in alts {
                all.extend(variants(a)?);
            }
            all
        }
        HirKind::Repetition(rep) if rep.max.is_some_and(|m| m <= 1) => {
            let mut v = if rep.max == Some(1) {
                variants(&rep.sub)?
            } else {
                Vec::new()
            };
            if rep.min == 0 {
                v.push(Vec::new());
            }
            v
        }
        _ => return None,
    };
    out.sort();
    out.dedup();
    (out.len() <= MAX_VARIANTS).then_some(out)
}

/// Every `a` followed by every `b`, unless there would be too many.
fn cross(a: &[Vec<u8>], b: &[Vec<u8>]) -> Option<Vec<Vec<u8>>> {
    if a.len() * b.len() > MAX_VARIANTS {
        return None;
    }
    let mut out: Vec<Vec<u8>> = a
        .iter()
        .flat_map(|x| b.iter().map(move |y| [x.as_slice(), y].concat()))
        .collect();
    out.sort();
    out.dedup();
    Some(out)
}

/// Prefer literals long enough to use, then case-sensitive ones (they go to the SIMD
/// searchers; case-insensitive ones need a slower automaton), then longer up to
/// [`SELECTIVE`] bytes, then fewer, then longer.
fn score(set: &[Literal]) -> (bool, bool, usize, std::cmp::Reverse<usize>, usize) {
    let shortest = set.iter().map(Literal::len).min().unwrap_or(0);
    let sensitive = set.iter().all(|l| !l.ascii_case_insensitive);
    (
        shortest >= MIN_LITERAL,
        sensitive,
        shortest.min(SELECTIVE),
        std::cmp::Reverse(set.len()),
        shortest,
    )
}

/// Whether the literal set `a` is a better prefilter than `b`. A set whose every literal
/// extends one of `b`'s (`HTTP/1.0" 408 ` against `HTTP/1.`) selects only lines `b`
/// would, so it wins whatever the lengths; otherwise [`score`] decides.
fn better(a: &[Literal], b: &[Literal]) -> bool {
    let extends = |x: &[Literal], y: &[Literal]| {
        x.iter().all(|l| {
            !l.ascii_case_insensitive
                && y.iter().any(|m| {
                    !m.ascii_case_insensitive
                        && l.len() > m.len()
                        && memchr::memmem::find(&l.bytes, &m.bytes).is_some()
                })
        })
    };
    let usable = |x: &[Literal]| score(x).0;
    if usable(a) && extends(a, b) {
        return true;
    }
    if usable(b) && extends(b, a) {
        return false;
    }
    score(a) > score(b)
}

fn required(hir: &Hir) -> Option<Vec<Literal>> {
    if let Some(e) = exact(hir) {
        return (!e.bytes.is_empty()).then(|| vec![e]);
    }
    match hir.kind() {
        HirKind::Capture(cap) => required(&cap.sub),
        HirKind::Repetition(rep) if rep.min >= 1 => required(&rep.sub),
        HirKind::Concat(subs) => {
            // Adjacent exact children form one longer literal; other children offer
            // their own requirement. Keep the most selective candidate.
            let mut best: Option<Vec<Literal>> = None;
            let mut run = Literal::sensitive(Vec::new());
            let consider = |candidate: Vec<Literal>, best: &mut Option<Vec<Literal>>| {
                if best.as_ref().is_none_or(|b| better(&candidate, b)) {
                    *best = Some(candidate);
                }
            };
            // The case-sensitive tail of the current run is offered on its own too:
            // `[Ff]lask==` yields `lask==` besides the case-insensitive `flask==`.
            let offer_sensitive = |sensitive: &mut Vec<u8>, best: &mut Option<Vec<Literal>>| {
                if sensitive.len() >= MIN_LITERAL {
                    consider(vec![Literal::sensitive(std::mem::take(sensitive))], best);
                }
                sensitive.clear();
            };
            let mut sensitive = Vec::new();
            // Runs of few variants (`HTTP/1\.[01]" ?408`) are offered as sets.
            let offer_runs = |runs: &mut Vec<Vec<u8>>, best: &mut Option<Vec<Literal>>| {
                let taken = std::mem::replace(runs, vec![Vec::new()]);
                if taken.iter().all(|r| !r.is_empty()) {
                    consider(taken.into_iter().map(Literal::sensitive).collect(), best);
                }
            };
            let mut runs: Vec<Vec<u8>> = vec![Vec::new()];
            for s in subs {
                match variants(s) {
                    Some(v) => {
                        if let Some(longer) = cross(&runs, &v) {
                            runs = longer;
                        } else {
                            offer_runs(&mut runs, &mut best);
                            runs = v;
                        }
                    }
                    None => offer_runs(&mut runs, &mut best),
                }
                if let Some(e) = exact(s) {
                    if e.ascii_case_insensitive {
                        offer_sensitive(&mut sensitive, &mut best);
                    } else {
                        sensitive.extend_from_slice(&e.bytes);
                    }
                    run.extend(e);
                    continue;
                }
                offer_sensitive(&mut sensitive, &mut best);
                if !run.bytes.is_empty() {
                    consider(
                        vec![std::mem::replace(&mut run, Literal::sensitive(Vec::new()))],
                        &mut best,
                    );
                }
                if let Some(r) = required(s) {
                    consider(r, &mut best);
                }
            }
            offer_sensitive(&mut sensitive, &mut best);
            offer_runs(&mut runs, &mut best);
            if !run.bytes.is_empty() {
                consider(vec![run], &mut best);
            }
            best
        }
        HirKind::Alternation(alts) => {
            let mut all = Vec::new();
            for a in alts {
                all.extend(required(a)?);
            }
            all.sort();
            all.dedup();
            Some(all)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lits(p: &str) -> Option<Vec<String>> {
        required_literals(&parse(p).unwrap()).map(|set| {
            set.into_iter()
                .map(|l| {
                    let text = String::from_utf8(l.bytes).unwrap();
                    if l.ascii_case_insensitive {
                        format!("(?i){text}")
                    } else {
                        text
                    }
                })
                .collect()
        })
    }

    #[test]
    fn plain_and_escaped_literals() {
        assert_eq!(
            lits(r"Reason: Worker failed to boot\."),
            Some(vec!["Reason: Worker failed to boot.".into()])
        );
        assert_eq!(lits(r"\bOutOfQuota\b"), Some(vec!["OutOfQuota".into()]));
        assert_eq!(
            lits(r"TypeError: register\(\) takes 3"),
            Some(vec!["TypeError: register() takes 3".into()])
        );
    }

    #[test]
    fn picks_the_longest_required_piece() {
        assert_eq!(
            lits(
                r"^\d{4}-\d\d \| gunicorn/run \| AzureML image information: (?P<image>[^,]+), Materiali[sz]ati?on Build:(?P<d>\d{8})"
            ),
            Some(vec![" | gunicorn/run | AzureML image information: ".into()])
        );
        assert_eq!(
            lits(r"Worker \(pid:\d+\) was sent SIGKILL!"),
            Some(vec![") was sent SIGKILL!".into()])
        );
    }

    #[test]
    fn alternations_become_sets() {
        assert_eq!(
            lits(r"(?:Liveness|Readiness) probe failed: "),
            Some(vec![
                "Liveness probe failed: ".into(),
                "Readiness probe failed: ".into()
            ])
        );
        assert_eq!(
            lits(r"BlobNotFound|The specified blob does not exist"),
            Some(vec![
                "BlobNotFound".into(),
                "The specified blob does not exist".into()
            ])
        );
    }

    #[test]
    fn few_variants_beat_a_short_or_common_piece() {
        // `HTTP/1.` is on every access-log line; the four spellings of the status are not.
        assert_eq!(
            lits(r#"HTTP/1\.[01]" ?(?P<status>408) "#),
            Some(vec![
                "HTTP/1.0\" 408 ".into(),
                "HTTP/1.0\"408 ".into(),
                "HTTP/1.1\" 408 ".into(),
                "HTTP/1.1\"408 ".into(),
            ])
        );
        // Three digits are in every other number; the names before them are rarer.
        let set = lits(
            r#"(?:Response Code|[Ss]tatus [Cc]ode|statusCode|HTTP Error)"?:? ?(?P<status>408)\b"#,
        )
        .unwrap();
        assert!(!set.contains(&"408".to_owned()), "{set:?}");
        assert!(set.contains(&"status code".to_owned()), "{set:?}");
        assert_eq!(set.len(), 7, "{set:?}");
        // Too many spellings: the literal piece stays.
        assert_eq!(
            lits(r"[a-k]x[a-k] reached the limit"),
            Some(vec![" reached the limit".into()])
        );
    }

    #[test]
    fn case_insensitive_letters_count() {
        assert_eq!(
            lits(r"^\s*[Ff]lask==2"),
            Some(vec!["Flask==2".into(), "flask==2".into()]),
            "both spellings, case-sensitive"
        );
        assert_eq!(
            lits(r"^\s*[Ff]lask-Cors=="),
            Some(vec!["Flask-Cors==".into(), "flask-Cors==".into()]),
            "each extends the one-case literal"
        );
        assert_eq!(
            lits(r"\bBadArgument\b.*(?i:subscription)"),
            Some(vec!["BadArgument".into()])
        );
        assert_eq!(
            lits(r"(?i)out of memory"),
            Some(vec!["(?i)out of memory".into()])
        );
    }

    #[test]
    fn patterns_without_literals_are_refused() {
        assert_eq!(lits(r"^\s*$"), None);
        assert_eq!(lits(r"\d+/\d+"), None);
        assert_eq!(lits(r"ab|\w+"), None);
        assert_eq!(
            lits(r"(?:foo)?bar"),
            Some(vec!["bar".into()]),
            "foo is optional, bar is not"
        );
        assert_eq!(lits(r"(?:foo)?ba"), None, "two bytes are too few");
    }

    #[test]
    fn parse_errors_are_one_line() {
        let e = parse(r"(unclosed").unwrap_err();
        assert!(!e.contains('\n'), "{e}");
        assert!(e.contains("unclosed"), "{e}");
    }
}
