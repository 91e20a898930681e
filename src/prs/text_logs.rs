//! The lines of the text logs (overview, master, driver log, node and process sys logs,
//! job result and error): their times, the last lines of the files that show them, and
//! which of the job's messages (`job_messages.rs`) a line is read for. Lines are judged
//! from their bytes; only a line whose literals select a message is cleaned.

use super::facts::FileFacts;
use super::job_messages;
use super::line::evidence;
use super::message::{self, Shape, Wanted};
use super::tree::Role;

/// What a text log's reader keeps between lines.
#[derive(Debug, Default)]
pub(super) struct TextLog {
    /// The time of the last sys line of a node's file (see `note_sys_time`).
    last_sys_time: [u8; 19],
    last_sys_line: u64,
    /// The last lines of a file that shows them, as read (cleaned at the end).
    last_raw: Vec<(u64, Vec<u8>)>,
}

/// A message with nothing but whitespace.
fn is_blank(message: &[u8]) -> bool {
    if message.is_ascii() {
        message.trim_ascii().is_empty()
    } else {
        String::from_utf8_lossy(message).trim().is_empty()
    }
}

impl TextLog {
    /// A line of a log whose facts are in its messages. Its shape and the literals of
    /// its message are read from the bytes; only a line whose literals select a
    /// message pattern is cleaned and matched, and only the last lines of the files
    /// that show them are kept (raw, cleaned when the file ends).
    pub(super) fn line(&mut self, f: &mut FileFacts, role: &Role, number: u64, raw: &[u8]) {
        // The whole line is searched for the literals (a superset of its message's): a
        // line with none, in a file whose other lines are not kept, is only counted.
        let mut wanted = message::wanted(raw);
        let args = match role {
            Role::DriverLog => true,
            Role::Master => memchr::memmem::find(raw, b"Namespace(").is_some(),
            _ => false,
        };
        let keeps_last = matches!(
            role,
            Role::JobResult | Role::JobError | Role::Overview { .. } | Role::Master
        );
        if !wanted.any() && !args && !keeps_last {
            if message::is_sys(raw) {
                f.recognised += 1;
                self.note_sys_time(f, role, number, raw);
            } else if let Some(time_end) = message::overview_time_end(raw) {
                self.note_time(f, role, number, raw, Shape::Overview { time_end });
            }
            return;
        }
        let shape = message::shape(raw);
        self.note_time(f, role, number, raw, shape);
        let message = &raw[shape.message_start()..];
        if is_blank(message) {
            return;
        }
        if keeps_last {
            if self.last_raw.len() == 3 {
                self.last_raw.remove(0);
            }
            // Whole (the tap bounds it): redaction must see a secret whole before the
            // evidence is cut.
            self.last_raw.push((number, raw.to_vec()));
        }
        // The driver's arguments: every line of its log, the `Namespace(…)` line of the
        // master's.
        if args {
            wanted = wanted | message::wanted_args(message);
        }
        if !matches!(role, Role::DriverLog) {
            wanted = wanted.without(Wanted::SYSTEM_EXIT);
        }
        if !wanted.any() {
            return;
        }
        let lossy = String::from_utf8_lossy(raw);
        let cleaned = crate::redact::clean(&lossy);
        let text: &str = &cleaned;
        // Cleaning leaves the time and level fields as they were; the message is found
        // again in the cleaned text.
        let message = &text[message::shape(text.as_bytes()).message_start()..];
        job_messages::read(f, number, text, message, wanted);
    }

    /// Counts a structured line as recognised and keeps the overview's times for the
    /// duration (the 2020 overview writes sys lines).
    fn note_time(&mut self, f: &mut FileFacts, role: &Role, number: u64, raw: &[u8], shape: Shape) {
        let time = match shape {
            Shape::Plain => return,
            Shape::Sys { .. } => {
                f.recognised += 1;
                self.note_sys_time(f, role, number, raw);
                if !matches!(role, Role::Overview { .. }) {
                    return;
                }
                String::from_utf8_lossy(&raw[..23])
                    .replacen(' ', "T", 1)
                    .replacen(',', ".", 1)
            }
            Shape::Overview { time_end } => {
                f.recognised += 1;
                String::from_utf8_lossy(&raw[..time_end]).into_owned()
            }
        };
        if f.first_time.is_none() {
            f.first_time = Some(time.clone());
        }
        f.last_time = Some(time);
    }

    /// The first and last times of a node's logs, which show a node that stopped while
    /// the others went on. Only the bytes of the last line's time are kept per line.
    fn note_sys_time(&mut self, f: &mut FileFacts, role: &Role, number: u64, raw: &[u8]) {
        if !matches!(role, Role::NodeMain { .. } | Role::Process { .. }) {
            return;
        }
        self.last_sys_time.copy_from_slice(&raw[..19]);
        self.last_sys_line = number;
        if f.first_sys.is_none() {
            f.first_sys = Some((String::from_utf8_lossy(&raw[..19]).into_owned(), number));
        }
    }

    /// Leaves the node's last sys time and the last lines (cleaned now) in `f`.
    pub(super) fn finish(&mut self, f: &mut FileFacts) {
        if self.last_sys_line > 0 {
            f.last_sys = Some((
                String::from_utf8_lossy(&self.last_sys_time).into_owned(),
                self.last_sys_line,
            ));
        }
        f.last_lines = std::mem::take(&mut self.last_raw)
            .into_iter()
            .map(|(number, raw)| {
                let text = crate::redact::clean(&String::from_utf8_lossy(&raw)).into_owned();
                evidence(number, &text)
            })
            .collect();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prs::parse::read;

    #[test]
    fn only_dispatched_lines_are_cleaned_and_their_secrets_stay_out() {
        let f = read(
            Role::Master,
            "2024-03-05T14:54:18.041 Uploading to https://acct.blob.core.windows.net/c/x?sv=2021&sig=SECRETSIG\n2024-03-05T14:54:19.000 The master role failed with error: https://acct.blob.core.windows.net/c?sig=SECRETSIG2\n",
        );
        let shown: Vec<&str> = f
            .last_lines
            .iter()
            .map(|l| l.text.as_str())
            .chain(f.system_error.iter().map(|l| l.text.as_str()))
            .collect();
        assert_eq!(shown.len(), 3, "{shown:?}");
        for text in shown {
            assert!(!text.contains("SECRETSIG"), "{text}");
        }
    }

    #[test]
    fn sys_lines_current_and_legacy() {
        let f = read(
            Role::NodeMain { node: "1".into() },
            "2021-04-15 22:05:26,715|ERROR|255|139773019682560|stderr: terminate called without an active exception\n2021-04-15 22:06:00,000|INFO|255|process001 exits with returncode -9.\n2020-09-17 09:43:39,318|ParallelRunStep.TaskManager|ERROR|230|Failed to process\n",
        );
        assert_eq!(f.recognised, 3);
        assert_eq!(
            f.process_exits
                .iter()
                .map(|(p, c, _)| (p.as_str(), *c))
                .collect::<Vec<_>>(),
            [("process001", -9)]
        );
    }
}
