//! The `amldoctor` binary: parse, run, print errors, exit with the documented code.

use std::io::Write;

use clap::Parser;

use amldoctor::cli::Cli;
use amldoctor::error::ErrorKind;

fn main() -> std::process::ExitCode {
    // Never a raw panic dump: one line, and the run goes on where it can.
    std::panic::set_hook(Box::new(|info| {
        let place = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        let _ = writeln!(
            std::io::stderr(),
            "error: internal error{place}; please report it"
        );
    }));
    // clap prints usage errors itself and exits 2, the documented code for bad flags.
    let cli = Cli::parse();
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    let mut out = stdout.lock();
    let mut err = stderr.lock();
    let code = match amldoctor::commands::run(cli, &mut out, &mut err) {
        Ok(code) => code,
        Err(e) => {
            if e.kind != ErrorKind::ClosedOutput {
                let _ = writeln!(err, "error: {e}");
                if let Some(hint) = &e.hint {
                    let _ = writeln!(err, "hint: {hint}");
                }
            }
            e.exit_code()
        }
    };
    // A reader that went away after the report was written is not an error either.
    let _ = out.flush();
    code.into()
}
