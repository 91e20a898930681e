//! The line a conclusion cites, as it is kept (trimmed, at most 400 bytes), and the
//! numbers lines write. Every reader of a tree's files makes its evidence here, and the
//! summary and the computed findings turn it into a finding's evidence the same way.

use crate::finding::Evidence;

/// A line that supports a conclusion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Line {
    pub line: u64,
    pub text: String,
}

/// A line kept as evidence: without trailing whitespace, cut to 400 bytes on a character
/// boundary.
pub(super) fn evidence(number: u64, text: &str) -> Line {
    let mut t = text.trim_end().to_owned();
    if t.len() > 400 {
        t.truncate(crate::engine::scan::floor_char_boundary(&t, 400));
    }
    Line {
        line: number,
        text: t,
    }
}

/// The evidence of `l` in the file at `path`.
pub(super) fn ev(path: &str, l: &Line) -> Evidence {
    Evidence::at_line(path.to_owned(), l.line, l.text.clone())
}

pub(super) fn num(s: &str) -> Option<u64> {
    s.trim().parse().ok()
}

pub(super) fn float(s: &str) -> Option<f64> {
    s.trim().parse::<f64>().ok().filter(|f| f.is_finite())
}
