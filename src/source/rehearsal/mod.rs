//! The I/O of `amldoctor rehearse`: find the Python interpreter and what it has
//! installed, start the inference server or the ParallelRunStep harness in a process
//! group of their own, talk to the server on 127.0.0.1 only, and stop everything
//! afterwards. What the runs measured is handed back as plain records for
//! `crate::rehearsal` to judge; nothing here decides what a result means.

pub(crate) mod http;
pub(crate) mod online;
pub(crate) mod parallel;
mod process;

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::error::{Error, Result};

pub(crate) use process::TempDir;

/// The Python that runs the rehearsal, and the versions of the packages asked for.
#[derive(Debug, Clone)]
pub(crate) struct Interpreter {
    pub(crate) path: PathBuf,
    pub(crate) version: String,
    /// Distribution name → version, `None` when it cannot be imported.
    pub(crate) packages: Vec<(String, Option<String>)>,
}

impl Interpreter {
    pub(crate) fn package(&self, name: &str) -> Option<&str> {
        self.packages
            .iter()
            .find(|(n, _)| n == name)
            .and_then(|(_, v)| v.as_deref())
    }

    /// The one sentence for a package it lacks.
    pub(crate) fn lacks(&self, package: &str, needed_for: &str) -> Error {
        Error::input(format!(
            "{needed_for} needs the Python package {package}, which {} (Python {}) does not have: install it with `{} -m pip install {package}`, or pass --python with an interpreter that has it",
            self.path.display(),
            self.version,
            self.path.display()
        ))
    }
}

/// Prints the interpreter's version and each package's, as JSON.
const PROBE: &str = r#"
import importlib, json, sys
out = {"version": sys.version.split()[0], "packages": {}}
for pair in sys.argv[1:]:
    name, module = pair.split("=", 1)
    try:
        m = importlib.import_module(module)
        out["packages"][name] = str(getattr(m, "__version__", "") or "installed")
    except Exception:
        out["packages"][name] = None
print(json.dumps(out))
"#;

/// `--python`, else the active conda environment's, else the active virtual
/// environment's, else `python3` on the PATH.
pub(crate) fn interpreter_path(flag: Option<&Path>) -> (PathBuf, &'static str) {
    if let Some(p) = flag {
        // A relative path is the user's, from here: the server runs in the script's folder.
        let path = if p.components().count() > 1 {
            std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf())
        } else {
            p.to_path_buf()
        };
        return (path, "--python");
    }
    let env = super::local::environment();
    for (var, what) in [
        ("CONDA_PREFIX", "$CONDA_PREFIX"),
        ("VIRTUAL_ENV", "$VIRTUAL_ENV"),
    ] {
        if let Some(prefix) = env.var(var) {
            let python = Path::new(prefix).join("bin").join("python");
            if python.is_file() {
                return (python, what);
            }
        }
    }
    (PathBuf::from("python3"), "the PATH")
}

/// Runs the interpreter once to read its version and the packages (`name=module`).
pub(crate) fn probe(flag: Option<&Path>, packages: &[(&str, &str)]) -> Result<Interpreter> {
    let (path, from) = interpreter_path(flag);
    let output = Command::new(&path)
        .arg("-c")
        .arg(PROBE)
        .args(packages.iter().map(|(n, m)| format!("{n}={m}")))
        .output()
        .map_err(|e| {
            Error::input(format!(
                "cannot run the Python interpreter {} (from {from}): {e}; pass --python PATH",
                path.display()
            ))
        })?;
    let text = String::from_utf8_lossy(&output.stdout);
    let json: serde_json::Value = serde_json::from_str(text.trim()).map_err(|_| {
        let why = String::from_utf8_lossy(&output.stderr);
        Error::input(format!(
            "{} (from {from}) is not a Python 3 interpreter amldoctor can use: {}",
            path.display(),
            why.lines().last().unwrap_or("it printed nothing")
        ))
    })?;
    let version = json["version"].as_str().unwrap_or("").to_owned();
    let packages = packages
        .iter()
        .map(|(n, _)| {
            let v = json["packages"][*n].as_str().map(str::to_owned);
            ((*n).to_owned(), v)
        })
        .collect();
    Ok(Interpreter {
        path,
        version,
        packages,
    })
}

/// The last `n` lines of a log file that are not blank, with their line numbers.
pub(crate) fn log_tail(path: &Path, n: usize) -> Vec<(u64, String)> {
    let Ok(bytes) = std::fs::read(path) else {
        return Vec::new();
    };
    let text = String::from_utf8_lossy(&bytes);
    let lines: Vec<(u64, String)> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| (i as u64 + 1, l.to_owned()))
        .collect();
    lines[lines.len().saturating_sub(n)..].to_vec()
}

/// Writes one of the Python files shipped in the binary into `dir`.
fn write_asset(dir: &Path, name: &str, text: &str) -> Result<PathBuf> {
    let path = dir.join(name);
    std::fs::write(&path, text)
        .map_err(|e| Error::input(format!("cannot write {}: {e}", path.display())))?;
    Ok(path)
}

/// A YAML file the user named with `flag`, parsed; one sentence when it cannot be.
pub(crate) fn read_yaml(path: &Path, flag: &str) -> Result<crate::evidence::yaml_doc::YamlDoc> {
    let loaded = super::local::read_config_file(path, false)?
        .ok_or_else(|| Error::input(format!("{flag} {}: cannot read it", path.display())))?;
    crate::evidence::yaml_doc::parse(&loaded.text)
        .map_err(|e| Error::input(format!("{flag} {}: {e}", path.display())))
}

/// The script's text (lossy), for the lines that reach Azure.
pub(crate) fn script_text(path: &Path) -> String {
    std::fs::read(path).map_or_else(
        |_| String::new(),
        |b| String::from_utf8_lossy(&b).into_owned(),
    )
}

/// An existing file the user named with `flag`.
pub(crate) fn require_file(path: &Path, flag: &str) -> Result<PathBuf> {
    match std::fs::metadata(path) {
        Ok(m) if m.is_file() => std::path::absolute(path)
            .map_err(|e| Error::input(format!("{flag} {}: {e}", path.display()))),
        Ok(_) => Err(Error::input(format!(
            "{flag} {}: expected a file, found a folder",
            path.display()
        ))),
        Err(e) => Err(Error::input(format!(
            "{flag} {}: {}",
            path.display(),
            crate::error::io_reason(&e)
        ))),
    }
}

/// An existing file or folder the user named with `flag`, made absolute.
pub(crate) fn require_path(path: &Path, flag: &str, folder: bool) -> Result<PathBuf> {
    match std::fs::metadata(path) {
        Ok(m) if !folder || m.is_dir() => std::path::absolute(path)
            .map_err(|e| Error::input(format!("{flag} {}: {e}", path.display()))),
        Ok(_) => Err(Error::input(format!(
            "{flag} {}: expected a folder",
            path.display()
        ))),
        Err(e) => Err(Error::input(format!(
            "{flag} {}: {}",
            path.display(),
            crate::error::io_reason(&e)
        ))),
    }
}

/// A request body named by `--data`.
pub(crate) fn read_body(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).map_err(|e| {
        Error::input(format!(
            "--data {}: {}",
            path.display(),
            crate::error::io_reason(&e)
        ))
    })
}

/// The folder `--out` names, created when missing.
pub(crate) fn out_dir(path: &Path) -> Result<PathBuf> {
    std::fs::create_dir_all(path)
        .and_then(|()| std::path::absolute(path))
        .map_err(|e| Error::input(format!("--out {}: cannot create it: {e}", path.display())))
}

/// Whether any input (a file, or a file under an input folder) ends in `.ext`.
pub(crate) fn any_with_extension(inputs: &[PathBuf], ext: &str) -> bool {
    fn walk(path: &Path, ext: &str, depth: usize) -> bool {
        if path.is_dir() {
            depth < 16
                && std::fs::read_dir(path)
                    .is_ok_and(|entries| entries.flatten().any(|e| walk(&e.path(), ext, depth + 1)))
        } else {
            path.extension()
                .is_some_and(|e| e.eq_ignore_ascii_case(ext))
        }
    }
    inputs.iter().any(|p| walk(p, ext, 0))
}
