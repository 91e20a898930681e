//! The one error type commands return; `main` prints it as `error: …` plus an optional
//! `hint: …` and exits with the code its kind maps to.

use std::fmt;
use std::path::Path;

use crate::exit_code::ExitCode;

/// Which exit code an error ends the run with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// Bad flag value, unreadable or malformed input file: exit 2.
    Input,
    /// Azure or network access failed: exit 3.
    Access,
    /// Whoever read stdout went away (`amldoctor … | head -1`): exit quietly.
    ClosedOutput,
}

/// A failure explained in one sentence, with an optional next step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    pub kind: ErrorKind,
    pub message: String,
    pub hint: Option<String>,
    /// What a service answered, when the failure is an answer (status, request id).
    pub service: Option<ServiceAnswer>,
}

/// The parts of a service's error answer a user quotes to support.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServiceAnswer {
    pub status: u16,
    /// The service's own error code (`ResourceNotFound`, `AuthorizationFailed`).
    pub code: Option<String>,
    /// `x-ms-request-id` (or the correlation id) of the failed request.
    pub request_id: Option<String>,
}

impl fmt::Display for Error {
    /// The message, then what the service answered: `… (HTTP 404 ResourceNotFound,
    /// request id 0f…)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        if let Some(s) = &self.service {
            write!(f, " (HTTP {}", s.status)?;
            if let Some(code) = &s.code {
                write!(f, " {code}")?;
            }
            if let Some(id) = &s.request_id {
                write!(f, ", request id {id}")?;
            }
            f.write_str(")")?;
        }
        Ok(())
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    pub fn input(message: impl Into<String>) -> Error {
        Error {
            kind: ErrorKind::Input,
            message: message.into(),
            hint: None,
            service: None,
        }
    }

    pub fn access(message: impl Into<String>) -> Error {
        Error {
            kind: ErrorKind::Access,
            message: message.into(),
            hint: None,
            service: None,
        }
    }

    /// Adds what the service answered.
    pub fn with_service(mut self, answer: ServiceAnswer) -> Error {
        self.service = Some(answer);
        self
    }

    pub fn with_hint(mut self, hint: impl Into<String>) -> Error {
        self.hint = Some(hint.into());
        self
    }

    /// An I/O failure on `path`, worded for a person: "cannot read x: permission denied".
    pub fn io(action: &str, path: &Path, err: &std::io::Error) -> Error {
        Error::input(format!(
            "cannot {action} {}: {}",
            path.display(),
            io_reason(err)
        ))
    }

    /// A failure writing the report to stdout or an output file.
    pub fn write(err: std::io::Error) -> Error {
        if err.kind() == std::io::ErrorKind::BrokenPipe {
            Error {
                kind: ErrorKind::ClosedOutput,
                message: String::new(),
                hint: None,
                service: None,
            }
        } else {
            Error::input(format!("cannot write output: {}", io_reason(&err)))
        }
    }

    pub fn exit_code(&self) -> ExitCode {
        match self.kind {
            ErrorKind::Input => ExitCode::Usage,
            ErrorKind::Access => ExitCode::Access,
            ErrorKind::ClosedOutput => ExitCode::Clean,
        }
    }
}

/// The OS error without Rust's "(os error 2)" suffix.
pub fn io_reason(err: &std::io::Error) -> String {
    use std::io::ErrorKind as K;
    match err.kind() {
        K::NotFound => "no such file or directory".to_owned(),
        K::PermissionDenied => "permission denied".to_owned(),
        K::IsADirectory => "it is a directory".to_owned(),
        K::InvalidData => "it is not valid UTF-8 text".to_owned(),
        _ => {
            let text = err.to_string();
            match text.find(" (os error") {
                Some(at) => text[..at].to_owned(),
                None => text,
            }
        }
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn service_answers_are_kept_for_the_message() {
        let e = Error::access("the endpoint 'ep9' was not found in workspace 'ws'").with_service(
            ServiceAnswer {
                status: 404,
                code: Some("ResourceNotFound".into()),
                request_id: Some("0f4c2e1a".into()),
            },
        );
        assert_eq!(
            e.to_string(),
            "the endpoint 'ep9' was not found in workspace 'ws' (HTTP 404 ResourceNotFound, request id 0f4c2e1a)"
        );
        assert_eq!(e.exit_code(), ExitCode::Access);
        assert_eq!(Error::input("x").to_string(), "x");
    }

    #[test]
    fn kinds_map_to_exit_codes() {
        assert_eq!(Error::input("x").exit_code(), ExitCode::Usage);
        assert_eq!(Error::access("x").exit_code(), ExitCode::Access);
        let pipe = Error::write(std::io::Error::from(std::io::ErrorKind::BrokenPipe));
        assert_eq!(
            (pipe.kind, pipe.exit_code()),
            (ErrorKind::ClosedOutput, ExitCode::Clean)
        );
        let full = Error::write(std::io::Error::from_raw_os_error(28));
        assert_eq!(full.exit_code(), ExitCode::Usage);
        assert!(
            full.message.starts_with("cannot write output: "),
            "{}",
            full.message
        );
    }

    #[test]
    fn io_errors_read_like_sentences() {
        let err = std::io::Error::from(std::io::ErrorKind::NotFound);
        let e = Error::io("read", Path::new("deploy.yml"), &err);
        assert_eq!(
            e.message,
            "cannot read deploy.yml: no such file or directory"
        );
        let raw = std::io::Error::from_raw_os_error(5);
        assert!(!io_reason(&raw).contains("os error"));
    }
}
