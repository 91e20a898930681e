//! The line-observer hook. An analyser that needs every line of some documents (the
//! ParallelRunStep parser) plugs in here, so one read of each file serves both the rule
//! scanner and the analyser, and the engine never imports an analyser.

use std::io::{self, Read};

use crate::evidence::{DocumentKind, KindSource};

/// Sees every line of one document while the scanner reads it (ripgrep's sink idea).
pub(crate) trait LineObserver {
    /// What the observer concluded, handed back with the document's scan.
    type Output: Send;
    /// One line without its terminator; `number` is 1-based. Lines longer than
    /// [`MAX_OBSERVED_LINE`] are cut.
    fn line(&mut self, number: u64, text: &[u8]);
    fn finish(self) -> Self::Output;
}

/// What a document's place says before it is read.
#[derive(Debug)]
pub(crate) struct Placement<O> {
    /// The kind the document is known to be (overrides detection, not `--kind`).
    pub kind: Option<(DocumentKind, KindSource)>,
    pub observer: Option<O>,
}

/// Gives each document (by its index in the input list) its placement; shared by the
/// scanning threads.
pub(crate) trait Observers: Sync {
    type Observer: LineObserver;
    fn place(&self, index: usize) -> Placement<Self::Observer>;
}

/// Longest line an observer looks at; longer lines are cut (the rule scanner still
/// sees them whole).
pub(crate) const MAX_OBSERVED_LINE: usize = 64 * 1024;

/// Passes every line of the bytes read through it to a [`LineObserver`].
#[derive(Debug)]
pub(crate) struct Tap<'o, O, R> {
    inner: R,
    observer: &'o mut O,
    pending: Vec<u8>,
    number: u64,
    overlong: bool,
}

impl<'o, O: LineObserver, R: Read> Tap<'o, O, R> {
    pub(crate) fn new(inner: R, observer: &'o mut O) -> Self {
        Tap {
            inner,
            observer,
            pending: Vec::new(),
            number: 0,
            overlong: false,
        }
    }

    fn emit(&mut self) {
        self.number += 1;
        self.observer.line(self.number, &self.pending);
        self.pending.clear();
        self.overlong = false;
    }
}

impl<O: LineObserver, R: Read> Read for Tap<'_, O, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        if n == 0 {
            if !self.pending.is_empty() || self.overlong {
                self.emit();
            }
            return Ok(0);
        }
        let mut rest = &buf[..n];
        while let Some(i) = memchr::memchr(b'\n', rest) {
            if self.pending.is_empty() && !self.overlong {
                // A whole line in the buffer goes to the observer as it is, uncopied.
                self.number += 1;
                self.observer
                    .line(self.number, &rest[..i.min(MAX_OBSERVED_LINE)]);
            } else {
                if !self.overlong {
                    let room = MAX_OBSERVED_LINE - self.pending.len().min(MAX_OBSERVED_LINE);
                    self.pending.extend_from_slice(&rest[..room.min(i)]);
                }
                self.emit();
            }
            rest = &rest[i + 1..];
        }
        if !rest.is_empty() && !self.overlong {
            let room = MAX_OBSERVED_LINE.saturating_sub(self.pending.len());
            self.pending
                .extend_from_slice(&rest[..rest.len().min(room)]);
            if rest.len() > room {
                self.overlong = true;
            }
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Default)]
    struct Lines(Vec<(u64, Vec<u8>)>);

    impl LineObserver for Lines {
        type Output = Vec<(u64, Vec<u8>)>;
        fn line(&mut self, number: u64, text: &[u8]) {
            self.0.push((number, text.to_vec()));
        }
        fn finish(self) -> Self::Output {
            self.0
        }
    }

    /// Hands out at most `step` bytes a read, so lines straddle reads.
    struct Trickle<'a> {
        data: &'a [u8],
        step: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.step.min(buf.len()).min(self.data.len());
            buf[..n].copy_from_slice(&self.data[..n]);
            self.data = &self.data[n..];
            Ok(n)
        }
    }

    #[test]
    fn every_line_arrives_once_whole_or_cut_however_the_reads_fall() {
        let long = "x".repeat(MAX_OBSERVED_LINE + 10);
        let text = format!("first\r\n\nthird line\n{long}\nafter the long one\nlast, unterminated");
        let expected: Vec<(u64, Vec<u8>)> = text
            .split('\n')
            .enumerate()
            .map(|(i, l)| {
                let cut = &l.as_bytes()[..l.len().min(MAX_OBSERVED_LINE)];
                (i as u64 + 1, cut.to_vec())
            })
            .collect();
        for step in [1, 3, 7, 64, 4096, usize::MAX] {
            let mut lines = Lines::default();
            let mut sink = Vec::new();
            let reader = Trickle {
                data: text.as_bytes(),
                step,
            };
            Tap::new(reader, &mut lines).read_to_end(&mut sink).unwrap();
            assert_eq!(sink, text.as_bytes(), "step {step}");
            assert_eq!(lines.finish(), expected, "step {step}");
        }
    }
}
