//! The byte-level reading of one ParallelRunStep log line, done on every line of a
//! tree: where its time and message are (no regex), and which message patterns its
//! literals make worth trying (one automaton over all of them). A busy job's logs are
//! almost all progress, heartbeat and upload lines; on those this is all that runs.

use std::sync::OnceLock;

use aho_corasick::AhoCorasick;

/// The message patterns a line may match, as bits; see [`wanted`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) struct Wanted(u32);

impl Wanted {
    pub(super) const SCHEDULED: Wanted = Wanted(1);
    pub(super) const PROGRESS: Wanted = Wanted(1 << 1);
    pub(super) const ALL_PROCESSED: Wanted = Wanted(1 << 2);
    pub(super) const FINAL_COUNTS: Wanted = Wanted(1 << 3);
    pub(super) const THRESHOLD: Wanted = Wanted(1 << 4);
    pub(super) const STOPPED: Wanted = Wanted(1 << 5);
    pub(super) const NO_PROGRESS: Wanted = Wanted(1 << 6);
    pub(super) const TIMES: Wanted = Wanted(1 << 7);
    pub(super) const NO_SUCCEEDED: Wanted = Wanted(1 << 8);
    pub(super) const BAD_RETURN: Wanted = Wanted(1 << 9);
    pub(super) const SYSTEM_ERROR: Wanted = Wanted(1 << 10);
    pub(super) const SLOW_TASKS: Wanted = Wanted(1 << 11);
    pub(super) const PROCESS_EXIT: Wanted = Wanted(1 << 12);
    pub(super) const RUN_TIMEOUT: Wanted = Wanted(1 << 13);
    /// The driver's arguments (`--node_count 2`, `'node_count': 2`, `node_count=2`).
    pub(super) const ARGS: Wanted = Wanted(1 << 14);
    /// `SystemExit: N` closing a driver log.
    pub(super) const SYSTEM_EXIT: Wanted = Wanted(1 << 15);
    /// `The overviewer on <node> started.` / `stopped.`
    pub(super) const OVERVIEWER: Wanted = Wanted(1 << 16);

    pub(super) fn has(self, other: Wanted) -> bool {
        self.0 & other.0 != 0
    }

    pub(super) fn any(self) -> bool {
        self.0 != 0
    }

    pub(super) fn without(self, other: Wanted) -> Wanted {
        Wanted(self.0 & !other.0)
    }
}

impl std::ops::BitOr for Wanted {
    type Output = Wanted;
    fn bitor(self, other: Wanted) -> Wanted {
        Wanted(self.0 | other.0)
    }
}

/// Each literal a message pattern needs, with the patterns it selects. Every pattern
/// contains one of its literals (a test checks each against the pattern's examples).
const DISPATCH: &[(&str, Wanted)] = &[
    ("Scheduled ", Wanted::SCHEDULED),
    (
        "Processed ",
        Wanted(Wanted::PROGRESS.0 | Wanted::FINAL_COUNTS.0),
    ),
    ("All ", Wanted::ALL_PROCESSED),
    ("There are ", Wanted::FINAL_COUNTS),
    ("The number of failed items", Wanted::THRESHOLD),
    ("Progress update stopped", Wanted::STOPPED),
    ("No progress update", Wanted::NO_PROGRESS),
    ("entry scipt had", Wanted::TIMES),
    ("There is no succeeded", Wanted::NO_SUCCEEDED),
    ("The run() method", Wanted::BAD_RETURN),
    ("DriverException", Wanted::SYSTEM_ERROR),
    ("The master role failed", Wanted::SYSTEM_ERROR),
    (
        "SystemExit",
        Wanted(Wanted::SYSTEM_ERROR.0 | Wanted::SYSTEM_EXIT.0),
    ),
    ("Unable to create any task", Wanted::SLOW_TASKS),
    ("First task creation", Wanted::SLOW_TASKS),
    ("exits with returncode", Wanted::PROCESS_EXIT),
    ("Stop for run()", Wanted::RUN_TIMEOUT),
    ("did not finish in", Wanted::RUN_TIMEOUT),
    ("The overviewer on ", Wanted::OVERVIEWER),
];

/// The literals of the driver's arguments, searched for only in the logs that hold
/// them: `process_count_per_node` and `mini_batch_size` start like the `process000`
/// and `mini batch` of every busy line, which would cost every line a check.
const ARGS_DISPATCH: &[(&str, Wanted)] = &[
    ("node_count", Wanted::ARGS),
    ("process_count_per_node", Wanted::ARGS),
    ("run_invocation_timeout", Wanted::ARGS),
    ("run_max_try", Wanted::ARGS),
    ("error_threshold", Wanted::ARGS),
    ("mini_batch_size", Wanted::ARGS),
    ("output_action", Wanted::ARGS),
    ("append_row_file_name", Wanted::ARGS),
    ("logging_level", Wanted::ARGS),
    ("scoring_module_name", Wanted::ARGS),
    ("resource_monitor_interval", Wanted::ARGS),
    ("progress_update_timeout", Wanted::ARGS),
];

/// A dispatch table's searchers: a SIMD one that says whether a line holds any literal
/// (most lines hold none), and an automaton that lists them when it does.
struct Dispatch {
    table: &'static [(&'static str, Wanted)],
    packed: Option<aho_corasick::packed::Searcher>,
    all: AhoCorasick,
}

impl Dispatch {
    fn new(table: &'static [(&'static str, Wanted)]) -> Dispatch {
        let literals = table.iter().map(|(l, _)| l);
        Dispatch {
            table,
            // Every literal is four bytes or longer, which keeps the SIMD search's false
            // positives rare.
            packed: aho_corasick::packed::Config::new()
                .builder()
                .extend(literals.clone())
                .build(),
            all: AhoCorasick::new(literals)
                .unwrap_or_else(|e| unreachable!("PRS dispatch literals: {e}")),
        }
    }

    fn wanted(&self, message: &[u8]) -> Wanted {
        if let Some(p) = &self.packed
            && p.find(message).is_none()
        {
            return Wanted::default();
        }
        self.all
            .find_overlapping_iter(message)
            .fold(Wanted::default(), |w, m| {
                w | self.table[m.pattern().as_usize()].1
            })
    }
}

/// The message patterns worth trying on `message`.
pub(super) fn wanted(message: &[u8]) -> Wanted {
    static D: OnceLock<Dispatch> = OnceLock::new();
    D.get_or_init(|| Dispatch::new(DISPATCH)).wanted(message)
}

/// [`Wanted::ARGS`] when `message` may hold one of the driver's arguments.
pub(super) fn wanted_args(message: &[u8]) -> Wanted {
    static D: OnceLock<Dispatch> = OnceLock::new();
    D.get_or_init(|| Dispatch::new(ARGS_DISPATCH))
        .wanted(message)
}

fn digits(b: &[u8]) -> bool {
    b.iter().all(u8::is_ascii_digit)
}

/// `YYYY-MM-DD{sep}HH:MM:SS` in exactly 19 bytes.
fn date_time(t: &[u8], sep: u8) -> bool {
    t.len() == 19
        && digits(&t[0..4])
        && t[4] == b'-'
        && digits(&t[5..7])
        && t[7] == b'-'
        && digits(&t[8..10])
        && t[10] == sep
        && digits(&t[11..13])
        && t[13] == b':'
        && digits(&t[14..16])
        && t[16] == b':'
        && digits(&t[17..19])
}

/// A log level as the sys lines write it; compared by length first (this runs on
/// every line of a busy job's logs).
fn is_level(field: &[u8]) -> bool {
    match field.len() {
        4 => field == b"INFO",
        5 => field == b"DEBUG" || field == b"ERROR",
        7 => field == b"WARNING",
        8 => field == b"CRITICAL",
        _ => false,
    }
}

/// A logger name field (`[\w. ]+`; any non-ASCII byte is taken for a word character).
fn is_name(field: &[u8]) -> bool {
    !field.is_empty()
        && field
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b' ') || *b >= 0x80)
}

/// A function field (`\w+\(\)`).
fn is_function(field: &[u8]) -> bool {
    field.strip_suffix(b"()").is_some_and(|name| {
        !name.is_empty()
            && name
                .iter()
                .all(|b| b.is_ascii_alphanumeric() || *b == b'_' || *b >= 0x80)
    })
}

/// The `|`-terminated field of `line` starting at `at`, if `ok` accepts it: the
/// position after its `|`.
fn field(line: &[u8], at: usize, ok: impl Fn(&[u8]) -> bool) -> Option<usize> {
    let rest = line.get(at..)?;
    let end = memchr::memchr(b'|', rest)?;
    ok(&rest[..end]).then_some(at + end + 1)
}

/// Where a line's time and message are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Shape {
    /// `YYYY-MM-DD HH:MM:SS,mmm|[Name|]LEVEL|[pid|][tid|][func()|]message`: the time is
    /// the first 23 bytes.
    Sys { message: usize },
    /// `YYYY-MM-DDTHH:MM:SS[.ffffff] message`: the time is `..time_end`.
    Overview { time_end: usize },
    /// Anything else: the whole line is the message.
    Plain,
}

impl Shape {
    /// Where the message starts.
    pub(super) fn message_start(self) -> usize {
        match self {
            Shape::Sys { message } => message,
            Shape::Overview { time_end } => time_end + 1,
            Shape::Plain => 0,
        }
    }
}

/// The shape of `line` (without its terminator): the fields a sys line's pattern
/// takes, split on `|`, or an overview line's time.
pub(super) fn shape(line: &[u8]) -> Shape {
    if let Some(message) = sys_message(line) {
        return Shape::Sys { message };
    }
    match overview_time_end(line) {
        Some(time_end) => Shape::Overview { time_end },
        None => Shape::Plain,
    }
}

/// Whether `line` is a sys line: the check [`shape`] makes, without looking for where
/// the message starts (this runs on every line of a busy job's logs).
pub(super) fn is_sys(line: &[u8]) -> bool {
    sys_time(line) && (field(line, 24, is_level).is_some() || sys_message(line).is_some())
}

/// `YYYY-MM-DD HH:MM:SS,mmm|`
fn sys_time(line: &[u8]) -> bool {
    line.len() >= 25
        && line[23] == b'|'
        && date_time(&line[..19], b' ')
        && line[19] == b','
        && digits(&line[20..23])
}

fn sys_message(line: &[u8]) -> Option<usize> {
    if !sys_time(line) {
        return None;
    }
    // `Name|LEVEL|` first: the pattern's optional name is tried before a bare level.
    let after_level = field(line, 24, is_name)
        .and_then(|at| field(line, at, is_level))
        .or_else(|| field(line, 24, is_level))?;
    let mut at = after_level;
    at = field(line, at, |f| !f.is_empty() && digits(f)).unwrap_or(at);
    at = field(line, at, |f| f.len() >= 6 && digits(f)).unwrap_or(at);
    at = field(line, at, is_function).unwrap_or(at);
    Some(at)
}

/// The end of an overview line's time (`YYYY-MM-DDTHH:MM:SS[.ffffff]` then a space).
pub(super) fn overview_time_end(line: &[u8]) -> Option<usize> {
    if line.len() < 20 || !date_time(&line[..19], b'T') {
        return None;
    }
    let mut end = 19;
    if line[end] == b'.' {
        let frac = line[end + 1..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        if frac == 0 {
            return None;
        }
        end += 1 + frac;
    }
    (line.get(end) == Some(&b' ')).then_some(end)
}

#[cfg(test)]
mod tests {
    use super::*;
    use regex::Regex;

    #[test]
    fn shapes_agree_with_the_patterns_they_replace() {
        // The patterns the parser used before it read the bytes.
        let sys = Regex::new(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3})\|(?:[\w. ]+\|)?(DEBUG|INFO|WARNING|ERROR|CRITICAL)\|(?:\d+\|)?(?:\d{6,}\|)?(?:\w+\(\)\|)?(.*)$").unwrap();
        let overview = Regex::new(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?) (.*)$").unwrap();
        for line in [
            "2023-05-16 22:57:26,145|ERROR|229|process001 exits with returncode -9.",
            "2021-04-15 22:05:26,715|ERROR|255|139773019682560|stderr: terminate called",
            "2021-04-15 22:05:26,715|INFO|1395773019682560|run()|started",
            "2021-04-15 22:05:26,715|INFO|12|run()|started",
            "2020-09-17 09:43:39,318|ParallelRunStep.TaskManager|INFO|230|Started",
            "2020-09-17 09:43:39,318|INFO|ERROR|230|a level as the name",
            "2024-03-05 14:54:18,041|INFO|10.0.0.4|process000|139000000670680|task_runner.py:run_task:212|Start processing",
            "2024-03-05 14:54:18,041|INFO|",
            "2024-03-05 14:54:18,041|INFO",
            "2024-03-05 14:54:18,041|NOTICE|1|x",
            "2024-03-05 14:54:18,041|Nöde 1|INFO|x",
            "2024-03-05T14:54:18.041 Start",
            "2023-05-16T22:20:53 Start",
            "2023-05-16T22:20:53. x",
            "2023-05-16T22:20:53",
            "2023-05-16T22:20:53 ",
            "plain text",
            "",
        ] {
            let expected = if let Some(c) = sys.captures(line) {
                Shape::Sys {
                    message: c.get(3).unwrap().start(),
                }
            } else if let Some(c) = overview.captures(line) {
                Shape::Overview {
                    time_end: c.get(1).unwrap().end(),
                }
            } else {
                Shape::Plain
            };
            assert_eq!(shape(line.as_bytes()), expected, "{line}");
            let sys_shape = matches!(expected, Shape::Sys { .. });
            assert_eq!(is_sys(line.as_bytes()), sys_shape, "{line}");
        }
    }
}
