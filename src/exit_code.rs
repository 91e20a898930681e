//! The process exit codes, fixed here and nowhere else.
//!
//! CI pipelines branch on these numbers, so they are part of the public contract
//! (README "Exit codes" and `amldoctor --help` list the same table).

use std::fmt::Write as _;

/// What a run of amldoctor ended with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ExitCode {
    /// Ran; no finding at or above `--fail-on`.
    Clean,
    /// Ran; findings at or above `--fail-on` (the CI gate).
    Findings,
    /// Usage or input error: bad flag, unreadable path, invalid rule file, malformed input.
    Usage,
    /// Azure or network access error: no credential, 401/403, not found, throttled, unreachable.
    Access,
}

impl ExitCode {
    pub const ALL: [ExitCode; 4] = [
        ExitCode::Clean,
        ExitCode::Findings,
        ExitCode::Usage,
        ExitCode::Access,
    ];

    pub fn code(self) -> u8 {
        match self {
            ExitCode::Clean => 0,
            ExitCode::Findings => 1,
            ExitCode::Usage => 2,
            ExitCode::Access => 3,
        }
    }

    pub fn meaning(self) -> &'static str {
        match self {
            ExitCode::Clean => "ran; no finding at or above --fail-on",
            ExitCode::Findings => "ran; findings at or above --fail-on (the CI gate)",
            ExitCode::Usage => {
                "usage or input error (bad flag, unreadable path, invalid rule file, malformed JSON/YAML input)"
            }
            ExitCode::Access => {
                "Azure or network access error (no credential, 401/403, resource not found, throttled past retries, unreachable)"
            }
        }
    }

    /// The code to exit with when several outcomes occurred in one run: an error that
    /// stopped work outranks findings, and access errors outrank input errors because
    /// they say the environment, not the command line, needs attention.
    pub fn merge(self, other: ExitCode) -> ExitCode {
        self.max(other)
    }

    /// The table printed in `--help` and README, wrapped for an 80-column terminal
    /// with each meaning's continuation lines indented under its first word (clap
    /// leaves lines that already fit alone, and cannot hang-indent them itself).
    pub fn help_table() -> String {
        const WIDTH: usize = 80;
        const INDENT: &str = "     ";
        let mut out = String::from("Exit codes:\n");
        for code in ExitCode::ALL {
            let mut line = format!("  {} ", code.code());
            for word in code.meaning().split(' ') {
                if line.len() + 1 + word.len() > WIDTH {
                    let _ = writeln!(out, "{line}");
                    line = INDENT.to_owned() + word;
                } else {
                    line.push(' ');
                    line.push_str(word);
                }
            }
            let _ = writeln!(out, "{line}");
        }
        out
    }
}

impl From<ExitCode> for std::process::ExitCode {
    fn from(code: ExitCode) -> Self {
        std::process::ExitCode::from(code.code())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_the_documented_ones() {
        let numbers: Vec<u8> = ExitCode::ALL.iter().map(|c| c.code()).collect();
        assert_eq!(numbers, [0, 1, 2, 3]);
    }

    #[test]
    fn merge_keeps_the_most_serious() {
        use ExitCode::*;
        assert_eq!(Clean.merge(Clean), Clean);
        assert_eq!(Clean.merge(Findings), Findings);
        assert_eq!(Findings.merge(Usage), Usage);
        assert_eq!(Access.merge(Usage), Access);
        assert_eq!(Usage.merge(Clean), Usage);
    }

    #[test]
    fn help_table_lists_every_code() {
        let table = ExitCode::help_table();
        let joined = table.replace("\n     ", " ");
        for code in ExitCode::ALL {
            assert!(joined.contains(&format!("  {}  {}", code.code(), code.meaning())));
        }
        assert!(table.lines().all(|l| l.len() <= 80), "{table}");
        assert!(
            table.contains("\n     malformed JSON/YAML input)"),
            "{table}"
        );
    }
}
