//! Scans many documents on all cores. Each worker owns a [`Scanner`] (and so one
//! buffer); documents are handed out through a shared counter, and results come back
//! in input order so reports are deterministic.

use std::io::{self, Read};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::detect::{Detector, HEAD_BYTES};
use crate::evidence::{DocumentKind, KindSet, KindSource, Origin};
use crate::rules::RuleSet;

use super::evaluate::{RuleHit, evaluate};
use super::observe::{LineObserver, Observers, Placement, Tap};
use super::scan::{DocumentScan, Scanner};

/// What happened to one document.
#[derive(Debug)]
// Skipped documents are rare; boxing the common variant would cost every document.
#[allow(clippy::large_enum_variant)]
pub(crate) enum ScanOutcome<T> {
    Scanned {
        kind: DocumentKind,
        /// The kinds of the document's other sections, besides `kind`.
        sections: KindSet,
        kind_source: KindSource,
        scan: DocumentScan,
        hits: Vec<RuleHit>,
        /// What the document's line observer concluded, if it had one.
        observed: Option<T>,
    },
    /// Not analysed (binary, unreadable); the reason is one sentence.
    Skipped(String),
    /// No bytes at all: nothing to analyse (a failed `az … | amldoctor diagnose -` too).
    Empty,
    /// The bytes could not be read (permission, device, I/O error): an input error.
    Unreadable(String),
}

/// A document's origin with its outcome.
#[derive(Debug)]
pub(crate) struct DocumentResult<T> {
    pub origin: Origin,
    pub outcome: ScanOutcome<T>,
}

/// How to get at documents' bytes; supplied by `source`, so the engine does no I/O
/// of its own.
pub(crate) type Opener<'a> = dyn Fn(&Origin) -> io::Result<Box<dyn Read + Send>> + Sync + 'a;

/// What the observer of `O` concludes about one document.
type Observed<O> = <<O as Observers>::Observer as LineObserver>::Output;

/// Scans `documents` with up to `threads` workers; `observers` places each document
/// and may give it a line observer.
pub(crate) fn scan_all<O: Observers>(
    set: &RuleSet,
    documents: &[Origin],
    observers: &O,
    forced_kind: Option<DocumentKind>,
    threads: usize,
    open: &Opener<'_>,
) -> Vec<DocumentResult<Observed<O>>> {
    let detector = Detector::new();
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<ScanOutcome<Observed<O>>>>> =
        Mutex::new((0..documents.len()).map(|_| None).collect());
    let workers = threads.clamp(1, documents.len().max(1));
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| {
                let mut scanner = Scanner::new(set);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(origin) = documents.get(i) else {
                        break;
                    };
                    let placement = observers.place(i);
                    // A bug in one parser must cost one input, not the whole run.
                    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        scan_one(&mut scanner, &detector, origin, placement, forced_kind, open, set)
                    }))
                    .unwrap_or_else(|_| {
                        scanner = Scanner::new(set);
                        ScanOutcome::Skipped("amldoctor failed while reading it (an internal error; please report it)".to_owned())
                    });
                    if let Ok(mut r) = results.lock() {
                        r[i] = Some(outcome);
                    }
                }
            });
        }
    });
    let results = results.into_inner().unwrap_or_else(|p| p.into_inner());
    documents
        .iter()
        .cloned()
        .zip(results)
        .map(|(origin, outcome)| DocumentResult {
            origin,
            outcome: outcome.unwrap_or_else(|| ScanOutcome::Skipped("not scanned".to_owned())),
        })
        .collect()
}

/// Documents up to this size are read whole before scanning, to tell a cut paste.
const PASTE_BYTES: usize = 256 * 1024;
/// A whole input of at most this many lines is a quote, too short for its kind to say
/// which rules may read it.
const SHORT_PASTE_LINES: usize = 40;

/// The sections a detected document is read as, with [`KindSet::STANDALONE`] when it
/// lacks the context kind gating relies on: no grammar detected its kind, or it is a
/// short quote. The rules that stand alone then read it whatever kinds they list.
fn standalone(kind: DocumentKind, sections: KindSet, whole: bool, head: &[u8]) -> KindSet {
    let short = whole && memchr::memchr_iter(b'\n', head).count() < SHORT_PASTE_LINES;
    if kind == DocumentKind::Generic || short {
        sections.standalone()
    } else {
        sections
    }
}

fn scan_one<L: LineObserver>(
    scanner: &mut Scanner<'_>,
    detector: &Detector,
    origin: &Origin,
    placement: Placement<L>,
    forced_kind: Option<DocumentKind>,
    open: &Opener<'_>,
    set: &RuleSet,
) -> ScanOutcome<L::Output> {
    let reason = |e: io::Error| ScanOutcome::Unreadable(crate::error::io_reason(&e));
    let mut reader = match open(origin) {
        Ok(r) => r,
        Err(e) => return reason(e),
    };
    let mut head = Vec::new();
    if let Err(e) = (&mut reader)
        .take(PASTE_BYTES as u64)
        .read_to_end(&mut head)
    {
        return reason(e);
    }
    if head.is_empty() {
        return ScanOutcome::Empty;
    }
    // UTF-16 (PowerShell's `>`): decoded as it streams, then read like any log.
    if let Some(endian) = crate::evidence::utf16::byte_order(&head) {
        let mut decoded = crate::evidence::utf16::Utf16Reader::new(
            io::Cursor::new(std::mem::take(&mut head)).chain(reader),
            endian,
        );
        if let Err(e) = (&mut decoded)
            .take(PASTE_BYTES as u64)
            .read_to_end(&mut head)
        {
            return reason(e);
        }
        reader = Box::new(decoded);
    }
    // A head shorter than asked for was the whole input: the reader is not read again.
    // At a terminal a second read would wait for a second Ctrl-D.
    if head.len() < PASTE_BYTES {
        reader = Box::new(io::empty());
    }
    if let Some(why) = crate::detect::unreadable_text(&head[..head.len().min(HEAD_BYTES)]) {
        return ScanOutcome::Skipped(why.to_owned());
    }
    // A paste read whole whose long lines a terminal cut at one width is read with
    // them joined (the line numbers stay). Log tree files are never pastes.
    if head.len() < PASTE_BYTES
        && placement.kind.is_none()
        && let Some(joined) = crate::evidence::normalize::unwrap_terminal(&head)
    {
        head = joined;
    }
    let (kind, sections, kind_source) = match (forced_kind, placement.kind) {
        (Some(k), _) => (k, k.into(), KindSource::Forced),
        (None, Some((k, source))) => (k, k.into(), source),
        (None, None) => {
            let name = match origin {
                Origin::File(p) => p.file_name().map(|n| n.to_string_lossy().into_owned()),
                Origin::Stdin | Origin::Text(_) => None,
            };
            let first = &head[..head.len().min(HEAD_BYTES)];
            let (kind, sections) = detector.detect_sections(first, name.as_deref());
            let whole = head.len() < PASTE_BYTES;
            (
                kind,
                standalone(kind, sections, whole, &head),
                KindSource::Detected,
            )
        }
    };
    let stream = io::Cursor::new(head).chain(reader);
    let mut observer = placement.observer;
    let result = match observer.as_mut() {
        // One read serves both the rule scanner and the observer.
        Some(o) => scanner.scan(sections, &mut Tap::new(stream, o)),
        None => scanner.scan(sections, &mut { stream }),
    };
    match result {
        Ok(mut scan) => {
            let sections = scan.kinds;
            let hits = evaluate(set, sections, &scan);
            // Evaluated: the per-pattern details are no longer needed, and thousands of
            // documents wait here until all are scanned.
            scan.hits = Default::default();
            scan.context = Default::default();
            ScanOutcome::Scanned {
                kind,
                sections,
                kind_source,
                scan,
                hits,
                observed: observer.map(LineObserver::finish),
            }
        }
        Err(e) => reason(e),
    }
}
