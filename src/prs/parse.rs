//! The file parser of a ParallelRunStep tree: each file's lines go through a
//! [`FileParser`] as the scanner streams them (the engine's line-observer hook), so a
//! tree is read once. The parser only dispatches by the file's role; each kind of line
//! has its reader: the text logs' lines (`text_logs.rs`, the job's messages in
//! `job_messages.rs`), the processed mini-batches CSV (`mini_batches.rs`), the user
//! error files (`user_errors.rs`) and the resource monitor's files (`perf.rs`), all
//! leaving what they read in a [`FileFacts`].
//! Formats marked UNCONFIRMED in the reference are keyed on substrings; a line that
//! fits nothing is ignored, and a file that fits nothing is noted, never fatal.

use super::facts::FileFacts;
use super::mini_batches::MiniBatchRows;
use super::perf::PerfParser;
use super::text_logs::TextLog;
use super::tree::Role;
use super::user_errors::UserErrors;
use crate::engine::observe::{LineObserver, Observers, Placement};
use crate::evidence::{DocumentKind, KindSource};

/// Kept at this path for the PRS table, which shows each error group's method.
pub(crate) use super::user_errors::Phase;

/// Parses the lines of one file according to its role.
#[derive(Debug)]
pub(crate) struct FileParser {
    role: Role,
    facts: FileFacts,
    text: TextLog,
    rows: MiniBatchRows,
    errors: UserErrors,
    perf: PerfParser,
}

impl FileParser {
    pub(crate) fn new(role: Role) -> FileParser {
        FileParser {
            role,
            facts: FileFacts::default(),
            text: TextLog::default(),
            rows: MiniBatchRows::default(),
            errors: UserErrors::default(),
            perf: PerfParser::default(),
        }
    }

    pub(crate) fn finish(mut self) -> FileFacts {
        self.errors.finish(&mut self.facts.errors);
        self.perf.finish(&mut self.facts.perf);
        self.text.finish(&mut self.facts);
        self.facts
    }

    /// Feeds one line (without its terminator); `number` is 1-based.
    pub(crate) fn line(&mut self, number: u64, raw: &[u8]) {
        self.facts.lines = number;
        let mut raw = raw;
        while let Some(r) = raw.strip_suffix(b"\r") {
            raw = r;
        }
        let whole_lines = matches!(
            self.role,
            Role::MiniBatchCsv { .. }
                | Role::NodePerf { .. }
                | Role::ProcessPerf { .. }
                | Role::DiskPerf { .. }
                | Role::ProcessSnapshot { .. }
                | Role::SummaryCsv
                | Role::UserError { .. }
                | Role::UserErrorSummary
        );
        if !whole_lines {
            self.text.line(&mut self.facts, &self.role, number, raw);
            return;
        }
        // Everything the summary shows comes from here: redact secrets and neutralise
        // terminal control characters once, at the source.
        let lossy = String::from_utf8_lossy(raw);
        let cleaned = crate::redact::clean(&lossy);
        let text: &str = &cleaned;
        match &self.role {
            Role::MiniBatchCsv { .. } => {
                let read = self
                    .rows
                    .line(&mut self.facts.attempts, &self.role, number, text);
                self.facts.recognised += u64::from(read);
            }
            Role::NodePerf { .. } => {
                let read = self.perf.node_line(&mut self.facts.perf, number, text);
                self.facts.recognised += u64::from(read);
            }
            Role::ProcessPerf { .. } => {
                let read = self.perf.process_line(&mut self.facts.perf, number, text);
                self.facts.recognised += u64::from(read);
            }
            Role::DiskPerf { .. } => {
                let read = self.perf.disk_line(&mut self.facts.perf, number, text);
                self.facts.recognised += u64::from(read);
            }
            Role::ProcessSnapshot { time, .. } => {
                let read = self
                    .perf
                    .snapshot_line(&mut self.facts.perf, number, text, time);
                self.facts.recognised += u64::from(read);
            }
            Role::UserError { .. } | Role::UserErrorSummary => {
                let read = self.errors.line(&mut self.facts.errors, number, text);
                self.facts.recognised += u64::from(read);
            }
            _ => {
                if text.contains(',') {
                    self.facts.recognised += 1;
                }
            }
        }
    }
}

impl LineObserver for FileParser {
    type Output = FileFacts;

    fn line(&mut self, number: u64, text: &[u8]) {
        FileParser::line(self, number, text);
    }

    fn finish(self) -> FileFacts {
        FileParser::finish(self)
    }
}

/// The placement of every input for the scan: files of a tree with a known role are
/// PRS documents, and those the parser reads get a [`FileParser`].
#[derive(Debug)]
pub(crate) struct PrsObservers<'a>(pub &'a [Option<Role>]);

impl Observers for PrsObservers<'_> {
    type Observer = FileParser;

    fn place(&self, index: usize) -> Placement<FileParser> {
        let role = self.0.get(index).cloned().flatten();
        Placement {
            // Anything else in the tree (a container log someone copied in) is
            // detected by content.
            kind: role
                .as_ref()
                .filter(|r| **r != Role::Other)
                .map(|_| (DocumentKind::Prs, KindSource::PrsTree)),
            observer: role.filter(Role::parsed).map(FileParser::new),
        }
    }
}

/// The facts of `text` read as a file of `role`, as the scan feeds it (for the readers'
/// tests).
#[cfg(test)]
pub(super) fn read(role: Role, text: &str) -> FileFacts {
    use std::io::Read;
    let mut p = FileParser::new(role);
    let mut tap = crate::engine::observe::Tap::new(text.as_bytes(), &mut p);
    let mut sink = Vec::new();
    tap.read_to_end(&mut sink).unwrap();
    p.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncated_or_empty_files() {
        let empty = read(Role::JobResult, "");
        assert_eq!((empty.lines, empty.recognised), (0, 0));
        let truncated = read(
            Role::MiniBatchCsv {
                node: None,
                process: None,
            },
            "Mini-batch Id,Status\n3,RUN_DO",
        );
        assert_eq!(
            truncated.attempts.rows, 1,
            "a cut-off last row still counts"
        );
        let garbled = read(
            Role::NodePerf { node: "0".into() },
            "\u{0}\u{1}binary junk\nmore junk",
        );
        assert_eq!(garbled.recognised, 0);
    }

    #[test]
    fn perf_peaks() {
        let f = read(
            Role::NodePerf { node: "1".into() },
            "Utc Time,Cpu Percent,Memory Total (MB),Memory Available (MB),Memory Used (MB),Memory Used Percent\n2023-05-16 22:00:00,50.0,16000,8000,8000,50.0\n2023-05-16 22:10:00,99.5,16000,500,15500,96.9\n2023-05-16 22:20:00,20.0,16000,12000,4000,25.0\n",
        );
        assert_eq!(
            f.perf.peak_memory,
            Some((96.9, "2023-05-16 22:10:00".to_owned(), 3))
        );
        assert_eq!(f.perf.peak_cpu, Some(99.5));
    }
}
