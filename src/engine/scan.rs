//! The streaming scanner: one pass over a document with a reusable buffer.
//!
//! The shared literal prefilter (`rules/prefilter.rs`) jumps from one line containing a
//! rule literal to the next; only those lines are split out and checked against the full
//! regexes of the patterns whose literal occurred there. Lines nobody asked about are never touched
//! beyond counting newlines, which is what keeps a scan of gigabytes fast and its
//! memory bounded by the buffer size, whatever the input.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::io::{self, Read};

use crate::evidence::KindSet;
use crate::evidence::normalize::Normalized;
use crate::rules::{PatternRole, RuleSet};

/// Bytes read per buffer fill; also the longest piece of one line scanned as a unit.
pub(crate) const CHUNK: usize = 1 << 20;
/// Bytes of an overlong line's piece repeated at the start of the next piece.
pub(crate) const OVERLAP: usize = 8 * 1024;
/// How many hits of a pattern keep their text (the rest are only counted).
pub(crate) const HITS_KEPT: usize = 3;
/// Longest evidence text kept from one line.
pub(crate) const MAX_TEXT: usize = 400;
/// An error line keeps more: the service's code often ends a long message line
/// (`… over scope '/subscriptions/…'\nCode: AuthorizationFailed`).
const ERROR_TEXT: usize = 2000;
/// Longest captured fact value.
pub(crate) const MAX_FACT: usize = 300;
/// Error-like lines remembered for "nothing matched" reports.
pub(crate) const ERROR_LINES_KEPT: usize = 24;

/// One matching line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hit {
    pub line: u64,
    pub text: String,
    /// Where the match starts in `text` (bytes), so a report can shorten around it.
    pub at: usize,
    /// The match's columns on the file's line (see `Evidence::columns`).
    pub columns: Option<(u64, u64)>,
}

/// Everything one pattern matched in a document.
#[derive(Debug, Clone, Default)]
pub(crate) struct PatternHits {
    pub count: u64,
    pub first: Vec<Hit>,
    /// Named captures of the first hit.
    pub captures: Vec<(String, String)>,
    /// The line of the latest hit.
    pub last_line: u64,
}

/// What the lines after a rule's first hit yielded.
#[derive(Debug, Clone, Default)]
pub(crate) struct ContextResult {
    pub facts: BTreeMap<String, String>,
    pub lines: Vec<Hit>,
}

/// The result of scanning one document.
#[derive(Debug, Clone, Default)]
pub(crate) struct DocumentScan {
    pub lines: u64,
    pub bytes: u64,
    /// Lines longer than [`CHUNK`], scanned in pieces.
    pub long_lines: u64,
    pub hits: HashMap<u32, PatternHits>,
    pub context: HashMap<usize, ContextResult>,
    /// The kinds the document was read as in the end: those it started with and those of
    /// the sections it opened on the way.
    pub kinds: KindSet,
    /// The last error-like lines, oldest first.
    pub error_lines: VecDeque<Hit>,
    /// The lines right after error lines, which often say why (`Full error can be found
    /// here:` / `Please make sure Docker Engine is installed and running.`), oldest first.
    pub after_errors: VecDeque<Hit>,
    /// Azure names read from the first lines that may hold one
    /// (`evidence::azure_names::MARKERS`), each `(placeholder, value)` once.
    pub names: Vec<(&'static str, String)>,
    /// The first [`NAME_LINES_KEPT`] lines read for names (redacted): a command run or a
    /// resource id (`az ml batch-endpoint invoke`, `…/onlineEndpoints/ep`) says what the
    /// failure was seen on.
    pub name_lines: Vec<String>,
    /// The document's last line that is not blank (redacted): a one-line paste of an
    /// exception whose name says neither Error nor Exception (`BadInput: …`) is kept by
    /// no literal, and is still how the input ended.
    pub final_line: Option<Hit>,
}

/// Lines read for names per document: the names repeat, a few lines suffice.
pub(crate) const NAME_LINES_READ: u32 = 16;
/// Of those, the lines kept as they are.
const NAME_LINES_KEPT: usize = 4;

struct Window {
    rule: usize,
    remaining: u32,
}

/// A reusable scanner; one per thread.
#[derive(Debug)]
pub(crate) struct Scanner<'a> {
    set: &'a RuleSet,
    buf: Vec<u8>,
}

struct Walk<'s> {
    set: &'s RuleSet,
    /// The literals of the current line (a buffer kept between lines).
    literals: Vec<usize>,
    kinds: KindSet,
    kind_ok: Vec<bool>,
    scan: DocumentScan,
    windows: Vec<Window>,
    /// Number of the line that starts at the current region position.
    line: u64,
    candidates: Vec<u32>,
    error_line: bool,
    /// Lines left in a multi-line error object (`"error": {` and the lines after it),
    /// whose `"code"` and `"message"` lines are error lines too.
    error_block: u32,
    /// Lines left to keep as [`DocumentScan::after_errors`].
    after_error: u32,
    name_line: bool,
    name_lines_read: u32,
    /// The region starts inside an overlong line (its earlier pieces came before):
    /// offsets on its first line are not the line's columns.
    continued: bool,
}

impl<'a> Scanner<'a> {
    pub(crate) fn new(set: &'a RuleSet) -> Scanner<'a> {
        Scanner {
            set,
            buf: Vec::new(),
        }
    }

    /// Scans `reader` to the end as a document read as `kinds`.
    pub(crate) fn scan(
        &mut self,
        kinds: impl Into<KindSet>,
        reader: &mut dyn Read,
    ) -> io::Result<DocumentScan> {
        let set = self.set;
        let kinds = kinds.into();
        let kind_ok = set
            .patterns
            .iter()
            .map(|p| set.rules[p.rule].applies_to_any(kinds))
            .collect();
        let mut walk = Walk {
            set,
            literals: Vec::new(),
            kinds,
            kind_ok,
            scan: DocumentScan::default(),
            windows: Vec::new(),
            line: 1,
            candidates: Vec::new(),
            error_line: false,
            error_block: 0,
            after_error: 0,
            name_line: false,
            name_lines_read: 0,
            continued: false,
        };
        // The buffer keeps its length; `filled` says how much of it holds data, so no
        // read ever pays for zeroing memory.
        if self.buf.len() != CHUNK {
            self.buf = vec![0; CHUNK];
        }
        let mut filled = 0usize;
        let mut in_long_line = false;
        let mut after_piece = false;
        let mut eof = false;
        let mut any_byte = false;
        let mut last_byte = b'\n';
        while !eof {
            while filled < CHUNK {
                let n = match reader.read(&mut self.buf[filled..]) {
                    Ok(n) => n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) => return Err(e),
                };
                if n == 0 {
                    eof = true;
                    break;
                }
                filled += n;
                walk.scan.bytes += n as u64;
                any_byte = true;
                last_byte = self.buf[filled - 1];
            }
            let end = if eof {
                filled
            } else {
                match memchr::memrchr(b'\n', &self.buf[..filled]) {
                    Some(i) => i + 1,
                    None => {
                        // A line longer than the buffer: scan this piece, keep the line open.
                        if !in_long_line {
                            walk.scan.long_lines += 1;
                        }
                        in_long_line = true;
                        filled
                    }
                }
            };
            let piece_of_long_line = !eof && (end == 0 || self.buf[end - 1] != b'\n');
            if !piece_of_long_line {
                in_long_line = false;
            }
            walk.continued = after_piece;
            walk.region(&self.buf[..end]);
            if !piece_of_long_line && let Some((line, newlines)) = last_line(&self.buf[..end]) {
                let number = walk.line.saturating_sub(newlines);
                walk.scan.final_line = Some(hit(number, text_of(line, 0, 0, MAX_TEXT)));
            }
            after_piece = piece_of_long_line;
            if piece_of_long_line {
                // Keep the tail of this piece in front of the next one, so a match or a
                // secret (`…&sig=` | `value`) spanning the cut is seen whole. Hits on the
                // repeated bytes are counted once: they are on the same line.
                let keep = OVERLAP.min(filled);
                self.buf.copy_within(filled - keep..filled, 0);
                filled = keep;
            } else {
                self.buf.copy_within(end..filled, 0);
                filled -= end;
            }
        }
        // Lines: every newline ends one, plus a final unterminated line.
        walk.scan.lines = walk.line - 1 + u64::from(any_byte && last_byte != b'\n');
        walk.scan.kinds = walk.kinds;
        Ok(walk.scan)
    }
}

/// The last line of `region` that is not blank, if one starts in its last
/// [`FINAL_LINE_BYTES`], and how many newlines follow its start.
fn last_line(region: &[u8]) -> Option<(&[u8], u64)> {
    let mut end = region.iter().rposition(|b| !b.is_ascii_whitespace())? + 1;
    let mut from = end.saturating_sub(FINAL_LINE_BYTES);
    let mut start = memchr::memrchr(b'\n', &region[from..end]).map_or(from, |i| from + i + 1);
    // A paste's closing fence (```` ``` ````, `~~~`) is not how it ended: the line above is.
    let fence = |l: &[u8]| l.len() >= 3 && l.iter().all(|b| matches!(b, b'`' | b'~'));
    if start > 0 && fence(region[start..end].trim_ascii()) {
        end = region[..start]
            .iter()
            .rposition(|b| !b.is_ascii_whitespace())?
            + 1;
        from = end.saturating_sub(FINAL_LINE_BYTES);
        start = memchr::memrchr(b'\n', &region[from..end]).map_or(from, |i| from + i + 1);
    }
    if start == from && from > 0 {
        // The line is longer than the window: not a line anyone pasted to be read.
        return None;
    }
    let newlines = memchr::memchr_iter(b'\n', &region[start..]).count() as u64;
    Some((&region[start..end], newlines))
}

/// How far back from a region's end its last line is looked for.
const FINAL_LINE_BYTES: usize = 2048;

/// The evidence text of a line: secrets redacted on the whole line *before* it is
/// shortened (a cut must never turn `sig=…` into an unrecognisable `ig=…`), terminal
/// control characters replaced, and at most `max` bytes kept around the match.
fn text_of(line: &[u8], at: usize, end: usize, max: usize) -> (String, usize) {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let lossy = String::from_utf8_lossy(line);
    let clean = crate::redact::clean(&lossy);
    // Find the match in the cleaned text; fall back to the start.
    let needle =
        String::from_utf8_lossy(&line[at.min(line.len())..end.min(line.len())]).into_owned();
    let pos = if needle.is_empty() {
        0
    } else {
        clean.find(&needle).unwrap_or(0)
    };
    if clean.len() <= max {
        return (clean.into_owned(), pos);
    }
    let start = floor_char_boundary(&clean, pos.saturating_sub(max / 4));
    let stop = floor_char_boundary(&clean, (start + max).min(clean.len()));
    (clean[start..stop].to_owned(), pos - start)
}

/// A [`Hit`] on `line` from [`text_of`]'s text and match offset.
fn hit(line: u64, (text, at): (String, usize)) -> Hit {
    Hit {
        line,
        text,
        at,
        columns: None,
    }
}

/// Lines at least this long may be pieces of a longer one: their columns are unknown.
const COLUMNS_UP_TO: usize = 256 * 1024;

/// Bytes `at..end` of `line` as SARIF columns: 1-based UTF-16 code units.
fn columns(line: &[u8], at: usize, end: usize) -> Option<(u64, u64)> {
    if line.len() >= COLUMNS_UP_TO || at > end || end > line.len() {
        return None;
    }
    let units = |upto: usize| {
        String::from_utf8_lossy(&line[..upto])
            .encode_utf16()
            .count() as u64
    };
    Some((units(at) + 1, units(end) + 1))
}

impl Walk<'_> {
    /// Processes a region that ends at a line boundary (or inside an overlong line).
    fn region(&mut self, region: &[u8]) {
        let set = self.set;
        let mut bits = self.kinds.bits();
        let mut searchers = set.prefilter.for_kinds(bits);
        let mut cache = searchers.cache();
        let mut pos = 0usize;
        while pos < region.len() {
            if self.kinds.bits() != bits {
                // A section of another kind opened: its rules' literals join the search.
                bits = self.kinds.bits();
                searchers = set.prefilter.for_kinds(bits);
                cache = searchers.cache();
            }
            let Some(at) = searchers.next_candidate(region, pos, &mut cache) else {
                break;
            };
            let line_start = memchr::memrchr(b'\n', &region[pos..at]).map_or(pos, |i| pos + i + 1);
            let line_end = memchr::memchr(b'\n', &region[at..]).map_or(region.len(), |i| at + i);
            if line_start > 0 {
                // Past the region's first line: lines start here.
                self.continued = false;
            }
            self.advance(region, pos, line_start);
            let line = &region[line_start..line_end];
            let bare = line.strip_suffix(b"\r").unwrap_or(line);
            match crate::evidence::normalize::normalize(bare) {
                None => {
                    // No searched literal starts before `at`, and one found through it
                    // starts at most `lookbehind` bytes earlier.
                    let from = (at - line_start).saturating_sub(searchers.lookbehind());
                    self.select(&line[from..]);
                    self.finish_line(line, None);
                }
                // Artefacts removed: the rules read each logical line of the clean text,
                // the evidence shows the user's own line.
                Some(clean) => {
                    // `Error: ` before a brace or a code is dropped as a wrapper's prefix,
                    // but it still says the line is an error.
                    let prefix = crate::evidence::normalize::prefix_len(bare);
                    let said_error = crate::evidence::normalize::find(&bare[..prefix], b"Error: ");
                    for (i, (a, b)) in clean.lines().enumerate() {
                        let logical = &clean.text[a..b];
                        self.select(logical);
                        if i == 0 && said_error.is_some() {
                            self.error_line = true;
                        }
                        self.finish_line(logical, Some((bare, &clean, a)));
                    }
                }
            }
            if line_end < region.len() {
                self.line += 1;
                pos = line_end + 1;
            } else {
                pos = region.len();
            }
        }
        self.advance(region, pos, region.len());
    }

    /// Makes the patterns whose literals occur in `line` (and apply to the document's
    /// kind) the line's candidates.
    fn select(&mut self, line: &[u8]) {
        let set = self.set;
        let mut literals = std::mem::take(&mut self.literals);
        literals.clear();
        literals.extend(set.prefilter.line_literals(line));
        // A section of another kind starts here: its rules read from this line on.
        let opened = literals
            .iter()
            .fold(0u8, |bits, lit| bits | set.prefilter.literal_section[*lit]);
        if opened != 0 && !self.kinds.meets_all(opened) {
            self.kinds = self.kinds.with_bits(opened);
            for (ok, p) in self.kind_ok.iter_mut().zip(&set.patterns) {
                *ok = set.rules[p.rule].applies_to_any(self.kinds);
            }
        }
        for &lit in &literals {
            if set.prefilter.literal_is_error[lit] {
                self.error_line = true;
            }
            if set.prefilter.literal_is_name[lit] {
                self.name_line = true;
            }
            for &p in &set.prefilter.literal_patterns[lit] {
                if self.kind_ok[p as usize] && !self.candidates.contains(&p) {
                    self.candidates.push(p);
                }
            }
        }
        self.literals = literals;
    }

    /// Moves from `from` (a line start) to `to`, feeding context windows line by line
    /// while any is open, and only counting newlines otherwise.
    fn advance(&mut self, region: &[u8], mut from: usize, to: usize) {
        while (!self.windows.is_empty() || self.error_block > 0 || self.after_error > 0)
            && from < to
        {
            let end = memchr::memchr(b'\n', &region[from..to]).map_or(to, |i| from + i);
            if !self.windows.is_empty() {
                self.feed_windows(&region[from..end]);
            }
            self.feed_block(&region[from..end]);
            if end < to {
                self.line += 1;
                from = end + 1;
            } else {
                // An unterminated piece: the line continues in the next region.
                return;
            }
        }
        if from < to {
            self.line += memchr::memchr_iter(b'\n', &region[from..to]).count() as u64;
        }
    }

    /// Feeds a line to the open context windows, read without its paste artefacts (a
    /// quote mark or CI timestamp would defeat the extract patterns' `^`).
    fn feed_windows(&mut self, line: &[u8]) {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        match crate::evidence::normalize::normalize(line) {
            None => self.feed_logical(line),
            Some(clean) => {
                for (a, b) in clean.lines() {
                    self.feed_logical(&clean.text[a..b]);
                }
            }
        }
    }

    fn feed_logical(&mut self, line: &[u8]) {
        let set = self.set;
        let number = self.line;
        self.windows.retain_mut(|w| {
            let Some(ctx) = &set.rules[w.rule].context else {
                return false;
            };
            let result = self.scan.context.entry(w.rule).or_default();
            for re in &ctx.extract {
                if let Some(caps) = re.captures(line) {
                    let mut took = false;
                    let cleaned = crate::redact::clean(&String::from_utf8_lossy(line)).into_owned();
                    for name in re.capture_names().flatten() {
                        if let Some(m) = caps.name(name)
                            && !result.facts.contains_key(name)
                        {
                            result
                                .facts
                                .insert(name.to_owned(), fact_text(m.as_bytes(), &cleaned));
                            took = true;
                        }
                    }
                    if took && result.lines.len() < HITS_KEPT {
                        result
                            .lines
                            .push(hit(number, text_of(line, 0, 0, MAX_TEXT)));
                    }
                }
            }
            w.remaining -= 1;
            w.remaining > 0
        });
    }

    /// Confirms the candidates on `line`. For a normalised line, `shown` is the original
    /// line, its normalised text and where `line` starts in it: evidence is cut from the
    /// original.
    /// The first hit of a rule's main pattern opens its context window.
    fn open_window(&mut self, pattern: &crate::rules::Pattern) {
        let rule = &self.set.rules[pattern.rule];
        let main = pattern.role == PatternRole::Any
            || (pattern.role == PatternRole::All && rule.any.is_empty());
        if main
            && rule.context.is_some()
            && !self.scan.context.contains_key(&pattern.rule)
            && !self.windows.iter().any(|w| w.rule == pattern.rule)
        {
            self.scan
                .context
                .insert(pattern.rule, ContextResult::default());
            self.windows.push(Window {
                rule: pattern.rule,
                remaining: rule.context.as_ref().map_or(0, |c| c.lines),
            });
        }
    }

    /// The Azure names a line holds (ids, URIs, pasted flags), each kept once.
    fn harvest_names(&mut self, bare: &[u8]) {
        self.name_lines_read += 1;
        let text = crate::redact::clean(&String::from_utf8_lossy(bare)).into_owned();
        for pair in crate::evidence::azure_names::harvest(&text) {
            if !self.scan.names.contains(&pair) {
                self.scan.names.push(pair);
            }
        }
        if self.scan.name_lines.len() < NAME_LINES_KEPT {
            self.scan.name_lines.push(text);
        }
    }

    /// Keeps a line of an open error object that holds its code or message, and the
    /// lines right after an error line.
    fn feed_block(&mut self, line: &[u8]) {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        // Blank lines do not count: `Met error …:` is often followed by an empty line
        // or two before the sentence that says what.
        if self.after_error > 0 && !line.trim_ascii().is_empty() {
            self.after_error -= 1;
            let kept = hit(self.line, text_of(line, 0, 0, MAX_TEXT));
            push_bounded(&mut self.scan.after_errors, kept);
        }
        if self.error_block == 0 {
            return;
        }
        self.error_block -= 1;
        let lower = line[..line.len().min(ERROR_TEXT)].to_ascii_lowercase();
        let key = [&b"\"code\""[..], b"\"message\"", b"'code'", b"'message'"]
            .iter()
            .any(|k| crate::evidence::normalize::find(&lower, k).is_some());
        if key {
            let kept = hit(self.line, text_of(line, 0, 0, ERROR_TEXT));
            push_bounded(&mut self.scan.error_lines, kept);
        }
    }

    fn finish_line(&mut self, line: &[u8], shown: Option<(&[u8], &Normalized, usize)>) {
        if !self.windows.is_empty() {
            self.feed_windows(line);
        }
        self.feed_block(line);
        let bare = line.strip_suffix(b"\r").unwrap_or(line);
        let (line_no, continued) = (self.line, self.continued);
        let evidence = |at: usize, end: usize, max: usize| -> Hit {
            let (text, start, columns) = match shown {
                None => {
                    let (text, start) = text_of(bare, at, end, max);
                    (text, start, columns(bare, at, end).filter(|_| !continued))
                }
                Some((original, clean, offset)) => {
                    let (a, e) = (
                        clean.original(offset + at, original.len()),
                        clean.original(offset + end, original.len()),
                    );
                    let (text, start) = text_of(original, a, e, max);
                    (text, start, columns(original, a, e).filter(|_| !continued))
                }
            };
            Hit {
                columns,
                ..hit(line_no, (text, start))
            }
        };
        let set = self.set;
        let mut candidates = std::mem::take(&mut self.candidates);
        for &p in &candidates {
            let pattern = &set.patterns[p as usize];
            let Some(regex) = pattern.regex.get() else {
                continue;
            };
            let entry_exists = self.scan.hits.contains_key(&p);
            let matched_at = if entry_exists {
                regex.find(bare).map(|m| (m.start(), m.end()))
            } else {
                regex.captures(bare).map(|caps| {
                    let entry = self.scan.hits.entry(p).or_default();
                    let cleaned = crate::redact::clean(&String::from_utf8_lossy(bare)).into_owned();
                    for name in regex.capture_names().flatten() {
                        if let Some(m) = caps.name(name) {
                            entry
                                .captures
                                .push((name.to_owned(), fact_text(m.as_bytes(), &cleaned)));
                        }
                    }
                    caps.get(0).map_or((0, 0), |m| (m.start(), m.end()))
                })
            };
            let Some((at, end)) = matched_at else {
                continue;
            };
            let entry = self.scan.hits.entry(p).or_default();
            // Pieces of one overlong line share its number: count the line once.
            if entry.count > 0 && entry.last_line == self.line {
                continue;
            }
            entry.count += 1;
            entry.last_line = self.line;
            if entry.first.len() < HITS_KEPT {
                entry.first.push(evidence(at, end, MAX_TEXT));
            }
            self.open_window(pattern);
        }
        candidates.clear();
        self.candidates = candidates;
        if std::mem::take(&mut self.name_line) && self.name_lines_read < NAME_LINES_READ {
            self.harvest_names(bare);
        }
        // The line's literals were identified exactly (case and all), so an error
        // literal among them is on the line.
        let errors = self
            .literals
            .iter()
            .filter(|l| set.prefilter.literal_is_error[**l])
            .map(|l| set.prefilter.literal(*l));
        if std::mem::take(&mut self.error_line) && !only_zero_failed(bare, errors) {
            // A repeated piece of the same overlong line is not a new line (and its text
            // is not cut and redacted again).
            if self
                .scan
                .error_lines
                .back()
                .is_none_or(|h| h.line != self.line)
            {
                push_bounded(&mut self.scan.error_lines, evidence(0, 0, ERROR_TEXT));
            }
            if opens_block(bare) {
                self.error_block = ERROR_BLOCK_LINES;
            }
            self.after_error = AFTER_ERROR_LINES;
        }
    }
}

/// Whether an error line opens a body on the lines after it: `"error": {`, or a line
/// that introduces what follows (`Error:`, `Activity Failed:`).
fn opens_block(line: &[u8]) -> bool {
    let end = line.trim_ascii_end();
    end.ends_with(b":")
        || end.ends_with(b"{")
        || OPENERS
            .iter()
            .any(|o| crate::evidence::normalize::find(line, o).is_some())
}

/// How an error object spread over lines starts (`"error": {` in `az`'s or a REST
/// body's pretty JSON), and how many lines after it may hold its code and message.
const OPENERS: &[&[u8]] = &[
    b"\"error\": {",
    b"\"error\":{",
    b"{\"error\":",
    b"'error': {",
    b"\"Error\": {",
    b"\"Error\":{",
    b"'Error': {",
];
const ERROR_BLOCK_LINES: u32 = 16;
/// Lines kept after each error line.
const AFTER_ERROR_LINES: u32 = 2;

/// Appends `hit`, dropping the oldest beyond [`ERROR_LINES_KEPT`]; a piece of the line
/// last kept is not kept again.
fn push_bounded(lines: &mut VecDeque<Hit>, hit: Hit) {
    if lines.back().is_some_and(|h| h.line == hit.line) {
        return;
    }
    if lines.len() == ERROR_LINES_KEPT {
        lines.pop_front();
    }
    lines.push_back(hit);
}

/// A progress line that counts failures, all of them zero (`… 8 items succeeded, 0
/// failed.`): nothing failed, so it is not an error-like line, however often a healthy
/// job writes it. `errors` are the error literals found on the line.
fn only_zero_failed<'l>(line: &[u8], mut errors: impl Iterator<Item = &'l [u8]>) -> bool {
    if !errors.all(|l| l == b"failed") {
        return false;
    }
    let mut any = false;
    for at in crate::evidence::normalize::find_iter(line, b"failed") {
        any = true;
        let before = &line[..at];
        let zero = before.ends_with(b" 0 ") || before == b"0 " || before.ends_with(b"(0 ");
        if !zero {
            return false;
        }
    }
    any
}

/// A captured value: cleaned, trimmed, bounded. A value that redaction of its whole
/// `line` changes (a token captured without its `sig=` key) is masked entirely.
fn fact_text(bytes: &[u8], line: &str) -> String {
    let lossy = String::from_utf8_lossy(bytes);
    let value = lossy.trim();
    if !value.is_empty() && !line.contains(value) {
        return crate::redact::MASK.to_owned();
    }
    let mut v = crate::redact::clean(value).into_owned();
    v.truncate(floor_char_boundary(&v, MAX_FACT));
    v
}

/// The largest index ≤ `max` on a char boundary of `s`.
pub(crate) fn floor_char_boundary(s: &str, max: usize) -> usize {
    if max >= s.len() {
        return s.len();
    }
    (0..=max)
        .rev()
        .find(|i| s.is_char_boundary(*i))
        .unwrap_or(0)
}

#[cfg(test)]
mod zero_failed_tests {
    use crate::rules::ERROR_LITERALS;

    fn only_zero_failed(line: &[u8]) -> bool {
        let found = ERROR_LITERALS
            .iter()
            .map(|l| l.as_bytes())
            .filter(|l| crate::evidence::normalize::find(line, l).is_some());
        super::only_zero_failed(line, found)
    }

    #[test]
    fn zero_failures_are_not_an_error() {
        assert!(only_zero_failed(
            b"Mini batch 7 processed in 3.1 seconds, 8 items succeeded, 0 failed."
        ));
        assert!(!only_zero_failed(
            b"Mini batch 7 processed, 2 succeeded, 3 failed."
        ));
        assert!(!only_zero_failed(b"ERROR|0 failed"));
        assert!(!only_zero_failed(b"Download failed: 10 failed"));
        assert!(!only_zero_failed(b"all good"));
    }
}
