//! The files of a project `lint` reads: the paths named, and under each directory the
//! files a deployment is made of (YAML specs and environments, requirements files,
//! Python entry scripts), skipping version control, virtual environments and caches.

use std::path::{Path, PathBuf};

use crate::error::Error;

/// One file found, with its text or why it could not be read.
#[derive(Debug)]
pub(crate) struct ProjectFile {
    pub path: PathBuf,
    pub text: Result<String, Error>,
    /// Named on the command line (not found by walking a directory).
    pub named: bool,
}

/// What walking the named paths found.
#[derive(Debug, Default)]
pub(crate) struct ProjectFiles {
    pub files: Vec<ProjectFile>,
    /// Named paths that do not exist or cannot be listed: `(path, reason)`.
    pub unreadable: Vec<(String, String)>,
}

impl ProjectFiles {
    /// The text of every file read, by its path as findings name it.
    pub(crate) fn texts(&self) -> std::collections::BTreeMap<String, String> {
        self.files
            .iter()
            .filter_map(|f| Some((f.path.display().to_string(), f.text.as_ref().ok()?.clone())))
            .collect()
    }
}

/// Directories never walked into: they hold no deployment files of the user's.
const SKIPPED_DIRS: &[&str] = &[
    "node_modules",
    "__pycache__",
    "site-packages",
    "target",
    "mlruns",
];

/// A Python virtual environment (`pyvenv.cfg`) or conda environment (`conda-meta/`),
/// whatever its name: thousands of library files, none the user's.
fn is_environment_dir(dir: &Path) -> bool {
    dir.join("pyvenv.cfg").is_file() || dir.join("conda-meta").is_dir()
}

/// Directories deeper than this are not walked (a project's deployment files sit near
/// its root; a mistaken `lint /` must end).
const MAX_DEPTH: usize = 8;

/// Whether a file found by walking is one `lint` reads.
pub(crate) fn is_candidate(path: &Path) -> bool {
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default()
        .to_ascii_lowercase();
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or_default()
        .to_ascii_lowercase();
    matches!(ext.as_str(), "yml" | "yaml" | "py")
        || (name.starts_with("requirements") && ext == "txt")
}

/// Walks `paths` (files or directories) in a stable order.
pub(crate) fn collect(paths: &[PathBuf]) -> ProjectFiles {
    let mut out = ProjectFiles::default();
    for path in paths {
        match std::fs::metadata(path) {
            Ok(meta) if meta.is_dir() => walk(path, 0, &mut out),
            Ok(_) => out.files.push(read(path, true)),
            Err(e) => out
                .unreadable
                .push((path.display().to_string(), crate::error::io_reason(&e))),
        }
    }
    out
}

fn walk(dir: &Path, depth: usize, out: &mut ProjectFiles) {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) => {
            out.unreadable
                .push((dir.display().to_string(), crate::error::io_reason(&e)));
            return;
        }
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_owned();
        // Symbolic links are not followed: a link cycle must not hang a CI job.
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        if meta.is_dir() {
            let skipped = name.starts_with('.')
                || SKIPPED_DIRS.contains(&name.as_str())
                || is_environment_dir(&path);
            if !skipped && depth < MAX_DEPTH {
                walk(&path, depth + 1, out);
            }
        } else if meta.is_file() && is_candidate(&path) {
            out.files.push(read(&path, false));
        }
    }
}

fn read(path: &Path, named: bool) -> ProjectFile {
    let text = super::local::read_config_file(path, false)
        .map(|loaded| loaded.map(|l| l.text).unwrap_or_default());
    ProjectFile {
        path: path.to_path_buf(),
        text,
        named,
    }
}

/// Whether `path` names an existing file or directory.
pub(crate) fn exists(path: &Path) -> bool {
    path.exists()
}

/// The Python modules importable from `dir` itself: its `*.py` files and its folders
/// (packages, namespace packages), by name.
pub(crate) fn local_modules(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<String> = entries
        .filter_map(Result::ok)
        .filter_map(|e| {
            let path = e.path();
            if path.is_dir() {
                path.file_name()?.to_str().map(str::to_owned)
            } else if path.extension().is_some_and(|x| x == "py") {
                path.file_stem()?.to_str().map(str::to_owned)
            } else {
                None
            }
        })
        .collect();
    out.sort();
    out
}
