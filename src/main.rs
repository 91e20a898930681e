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
    // The MCP server writes the protocol to stdout from its own threads (and a panic
    // hook may write to stderr from any): it must not find either locked here.
    let serves = matches!(cli.command, amldoctor::cli::Command::Mcp(_));
    let (mut out, mut err): (Box<dyn Write>, Box<dyn Write>) = if serves {
        (Box::new(std::io::sink()), Box::new(std::io::stderr()))
    } else {
        (
            Box::new(std::io::stdout().lock()),
            Box::new(std::io::stderr().lock()),
        )
    };
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
