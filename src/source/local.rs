//! Local files and the process environment.

use std::io::{IsTerminal, Read};
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

use super::{Environment, LoadedFile};

/// The project file amldoctor looks for in the working directory and its parents.
pub(crate) const PROJECT_FILE_NAME: &str = ".amldoctor.yaml";

/// Configuration files larger than this are not configuration: refuse rather than
/// read gigabytes into memory by mistake.
pub(crate) const MAX_CONFIG_BYTES: u64 = 4 * 1024 * 1024;

/// Environment variables and whether stdout is a terminal.
pub(crate) fn environment() -> Environment {
    Environment {
        vars: std::env::vars_os()
            .filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?)))
            .collect(),
        stdout_is_terminal: std::io::stdout().is_terminal(),
        terminal_columns: terminal_size::terminal_size_of(std::io::stdout())
            .map(|(w, _)| usize::from(w.0)),
    }
}

/// Whether standard input is a terminal (nothing piped in: a person must type or paste).
pub(crate) fn stdin_is_terminal() -> bool {
    std::io::stdin().is_terminal()
}

/// Reads a small UTF-8 text file (a config or deployment YAML). `Ok(None)` when it
/// does not exist and `missing_ok` is set.
pub(crate) fn read_config_file(path: &Path, missing_ok: bool) -> Result<Option<LoadedFile>> {
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if missing_ok && e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Error::io("read", path, &e)),
    };
    let meta = file.metadata().map_err(|e| Error::io("read", path, &e))?;
    if meta.is_dir() {
        return Err(Error::input(format!(
            "cannot read {}: it is a directory, expected a file",
            path.display()
        )));
    }
    let mut bytes = Vec::new();
    file.take(MAX_CONFIG_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io("read", path, &e))?;
    if bytes.len() as u64 > MAX_CONFIG_BYTES {
        return Err(Error::input(format!(
            "{} is larger than {} MiB; expected a configuration file",
            path.display(),
            MAX_CONFIG_BYTES / 1024 / 1024
        )));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        Error::input(format!(
            "{} is not UTF-8 text (invalid byte at offset {})",
            path.display(),
            e.utf8_error().valid_up_to()
        ))
    })?;
    Ok(Some(LoadedFile {
        path: path.to_owned(),
        text,
    }))
}

/// The nearest `.amldoctor.yaml` in `start` or one of its parents.
pub(crate) fn find_project_file(start: &Path) -> Result<Option<LoadedFile>> {
    for dir in start.ancestors() {
        let candidate = dir.join(PROJECT_FILE_NAME);
        if candidate.is_file() {
            return read_config_file(&candidate, false);
        }
    }
    Ok(None)
}

/// Writes a report or baseline file, creating nothing but the file itself.
pub(crate) fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    std::fs::write(path, bytes).map_err(|e| Error::io("write", path, &e))
}

/// A fresh folder name under the system's temporary directory, for a live run's
/// bundle when the user keeps none.
pub(crate) fn temporary_dir(command: &str) -> PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    std::env::temp_dir().join(format!(
        "amldoctor-{command}-{}-{nanos}",
        std::process::id()
    ))
}

/// Removes a temporary bundle; best effort.
pub(crate) fn remove_dir(dir: &Path) {
    let _ = std::fs::remove_dir_all(dir);
}

/// The clock, in seconds since the Unix epoch.
pub(crate) fn now_unix() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// The working directory, for project file discovery.
/// The root of the git repository `dir` is in (the nearest folder up that holds
/// `.git`), if any: code scanning resolves SARIF paths against it.
pub(crate) fn repository_root(dir: &Path) -> Option<PathBuf> {
    dir.ancestors()
        .find(|d| d.join(".git").exists())
        .map(Path::to_path_buf)
}

pub(crate) fn current_dir() -> Result<PathBuf> {
    std::env::current_dir().map_err(|e| {
        Error::input(format!(
            "cannot determine the working directory: {}",
            crate::error::io_reason(&e)
        ))
    })
}

/// The largest request body `score` sends (managed endpoints take at most 100 MB).
pub(crate) const MAX_REQUEST_BODY: u64 = 100 * 1024 * 1024;

/// A request body for `score`: a file, or standard input for `-`; any bytes.
pub(crate) fn read_request_body(spec: &str) -> Result<Vec<u8>> {
    let limit = MAX_REQUEST_BODY;
    let (what, bytes) = if spec == "-" {
        if stdin_is_terminal() {
            return Err(Error::input(
                "--data -: standard input is a terminal; pipe the request body in, or pass --data FILE",
            ));
        }
        let mut bytes = Vec::new();
        std::io::stdin()
            .lock()
            .take(limit + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| Error::input(format!("--data -: cannot read standard input: {e}")))?;
        ("standard input".to_owned(), bytes)
    } else {
        let path = Path::new(spec);
        let file = std::fs::File::open(path).map_err(|e| Error::io("read", path, &e))?;
        let meta = file.metadata().map_err(|e| Error::io("read", path, &e))?;
        if meta.is_dir() {
            return Err(Error::input(format!(
                "--data {spec}: it is a directory, expected the request body's file"
            )));
        }
        let mut bytes = Vec::new();
        file.take(limit + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| Error::io("read", path, &e))?;
        (spec.to_owned(), bytes)
    };
    if bytes.len() as u64 > limit {
        return Err(Error::input(format!(
            "--data {what} is larger than {} MiB, more than an online endpoint accepts",
            limit / 1024 / 1024
        )));
    }
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(Error::input(format!(
            "--data {what} is empty; expected the request body the scoring script reads (for example a JSON document)"
        )));
    }
    Ok(bytes)
}

/// The resources of one JSON file (an endpoint or deployment `az` saved).
pub(crate) fn resources_in(
    path: &Path,
) -> crate::error::Result<Vec<crate::evidence::resource::Resource>> {
    use crate::error::Error;
    use crate::evidence::json_lines::JsonText;
    use crate::evidence::resource::{JsonDocument, classify};
    let loaded = read_config_file(path, false)?
        .ok_or_else(|| Error::input(format!("cannot read {}", path.display())))?;
    let shown = path.display().to_string();
    if loaded.text.trim().is_empty() {
        return Err(Error::input(format!(
            "{shown} is empty; expected what az ml online-endpoint show -o json prints"
        )));
    }
    let value: serde_json::Value = serde_json::from_str(&loaded.text).map_err(|e| {
        Error::input(format!(
            "{shown}:{}: not JSON ({e}); expected what az ml online-endpoint show -o json prints",
            e.line()
        ))
    })?;
    match classify(&shown, value, JsonText::new(loaded.text.into_bytes())) {
        JsonDocument::Resources(list) => Ok(list),
        _ => Err(Error::input(format!(
            "{shown}: not an online endpoint or deployment; expected what az ml online-endpoint show -o json prints"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("amldoctor-local-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn project_file_found_in_a_parent() {
        let root = temp_dir("project");
        let nested = root.join("a/b");
        std::fs::create_dir_all(&nested).unwrap();
        std::fs::write(root.join(PROJECT_FILE_NAME), "workspace: ws1\n").unwrap();
        let found = find_project_file(&nested).unwrap().unwrap();
        assert_eq!(found.path, root.join(PROJECT_FILE_NAME));
        assert_eq!(found.text, "workspace: ws1\n");
        std::fs::remove_dir_all(root).unwrap();
    }

    #[test]
    fn config_file_errors() {
        let root = temp_dir("errors");
        assert_eq!(read_config_file(&root.join("missing"), true).unwrap(), None);
        let err = read_config_file(&root.join("missing"), false).unwrap_err();
        assert!(
            err.message.ends_with("missing: no such file or directory"),
            "{}",
            err.message
        );
        let err = read_config_file(&root, false).unwrap_err();
        assert!(err.message.contains("it is a directory"), "{}", err.message);
        std::fs::write(root.join("bin"), b"name: \xff\xfe\n").unwrap();
        let err = read_config_file(&root.join("bin"), false).unwrap_err();
        assert!(
            err.message
                .contains("is not UTF-8 text (invalid byte at offset 6)"),
            "{}",
            err.message
        );
        std::fs::remove_dir_all(root).unwrap();
    }
}
