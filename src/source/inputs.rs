//! Local inputs for `diagnose`: files, directories walked recursively, and stdin.
//! Problems with one input are collected and reported; the others are still analysed.

use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::error::io_reason;
use crate::evidence::Origin;

/// An input that could not be analysed, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Unreadable {
    pub path: String,
    pub reason: String,
    /// Named on the command line (an error), rather than found inside a directory.
    pub explicit: bool,
}

/// The documents found for the given arguments, in a stable order.
#[derive(Debug, Clone, Default)]
pub(crate) struct InputSet {
    pub documents: Vec<Origin>,
    pub unreadable: Vec<Unreadable>,
    /// Documents named on the command line (not found inside a directory).
    pub explicit: Vec<Origin>,
    /// The bundles among the directories, with their manifests: the manifest itself and
    /// unfinished downloads (`*.part`) are not documents.
    pub bundles: Vec<(PathBuf, crate::source::bundle::Manifest)>,
}

impl InputSet {
    /// Adds a file once, however often it is named (`a.log ./a.log dir/ dir/a.log`).
    fn push(&mut self, origin: Origin, seen: &mut std::collections::HashSet<PathBuf>) -> bool {
        if let Origin::File(p) = &origin {
            let key = std::fs::canonicalize(p).unwrap_or_else(|_| p.clone());
            if !seen.insert(key) {
                return false;
            }
        }
        self.documents.push(origin);
        true
    }
}

/// Expands `args` (`-` is stdin, or `text` when the caller hands it over in memory)
/// into documents. Directories are walked recursively in name order without following
/// symbolic links to directories.
pub(crate) fn collect(args: &[String], text: Option<&std::sync::Arc<[u8]>>) -> InputSet {
    let mut set = InputSet::default();
    let mut seen = std::collections::HashSet::new();
    let mut stdin_seen = false;
    for arg in args {
        if arg == "-" {
            if !stdin_seen {
                let origin = text.map_or(Origin::Stdin, |t| Origin::Text(t.clone()));
                set.documents.push(origin.clone());
                set.explicit.push(origin);
                stdin_seen = true;
            }
            continue;
        }
        let path = PathBuf::from(arg);
        match std::fs::metadata(&path) {
            Err(e) => set.unreadable.push(Unreadable {
                path: arg.clone(),
                reason: io_reason(&e),
                explicit: true,
            }),
            Ok(meta) if meta.is_dir() => {
                let mut found = Vec::new();
                let unreadable_before = set.unreadable.len();
                let bundles_before = set.bundles.len();
                walk(&path, &mut found, &mut set.unreadable);
                match crate::source::bundle::read_manifest(&path) {
                    Ok(Some(manifest)) => {
                        let own = path.join(crate::source::bundle::MANIFEST);
                        found.retain(|f| *f != own && f.extension().is_none_or(|e| e != "part"));
                        set.bundles.push((path.clone(), manifest));
                    }
                    Ok(None) => {}
                    Err(e) => set.unreadable.push(Unreadable {
                        path: path
                            .join(crate::source::bundle::MANIFEST)
                            .display()
                            .to_string(),
                        reason: e.to_string(),
                        explicit: true,
                    }),
                }
                let any_file = !found.is_empty();
                for f in found {
                    set.push(Origin::File(f), &mut seen);
                }
                // A bundle whose every piece failed still says why, in its manifest.
                if !any_file
                    && set.unreadable.len() == unreadable_before
                    && set.bundles.len() == bundles_before
                {
                    set.unreadable.push(Unreadable {
                        path: arg.clone(),
                        reason: "the directory contains no files".to_owned(),
                        explicit: true,
                    });
                }
            }
            Ok(_) => {
                let origin = Origin::File(path);
                if set.push(origin.clone(), &mut seen) {
                    set.explicit.push(origin);
                }
            }
        }
    }
    set
}

fn walk(dir: &Path, found: &mut Vec<PathBuf>, unreadable: &mut Vec<Unreadable>) {
    let mut visited = std::collections::HashSet::new();
    if let Ok(real) = std::fs::canonicalize(dir) {
        visited.insert(real);
    }
    walk_in(dir, found, unreadable, &mut visited);
}

/// Walks `dir`, following links to folders once each: a link back to a folder already
/// walked (a loop) is named as skipped.
fn walk_in(
    dir: &Path,
    found: &mut Vec<PathBuf>,
    unreadable: &mut Vec<Unreadable>,
    visited: &mut std::collections::HashSet<PathBuf>,
) {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => {
            unreadable.push(Unreadable {
                path: dir.display().to_string(),
                reason: io_reason(&e),
                explicit: false,
            });
            return;
        }
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        if meta.is_dir() {
            walk_in(&path, found, unreadable, visited);
        } else if meta.file_type().is_symlink() && path.is_dir() {
            match std::fs::canonicalize(&path) {
                Ok(real) if visited.insert(real.clone()) => {
                    walk_in(&path, found, unreadable, visited);
                }
                _ => unreadable.push(Unreadable {
                    path: path.display().to_string(),
                    reason: "a link to a folder already read (a loop); skipped".to_owned(),
                    explicit: false,
                }),
            }
        } else if meta.is_file() || (meta.file_type().is_symlink() && path.is_file()) {
            found.push(path);
        }
    }
}

/// What a reader (`json::read_json`) already consumed of standard input, which can be
/// read only once: served again by [`open`] before the rest.
static STDIN_HEAD: Mutex<Vec<u8>> = Mutex::new(Vec::new());

/// Keeps `consumed`, the bytes read of stdin so far, for [`open`] to serve first.
pub(crate) fn replay_stdin(consumed: Vec<u8>) {
    if let Ok(mut head) = STDIN_HEAD.lock() {
        *head = consumed;
    }
}

/// The bytes of stdin already consumed, taken once.
fn take_stdin_head() -> Vec<u8> {
    STDIN_HEAD
        .lock()
        .map(|mut h| std::mem::take(&mut *h))
        .unwrap_or_default()
}

/// Opens an input file. A named pipe is opened without waiting for a writer and then
/// read as any file: `diagnose <(az ml online-deployment get-logs …)` streams what the
/// command writes, and a pipe nobody writes to is an empty input, not a hang.
pub(crate) fn open_file(path: &Path) -> io::Result<File> {
    use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
    let fifo = std::fs::metadata(path).is_ok_and(|m| m.file_type().is_fifo());
    if !fifo {
        return File::open(path);
    }
    let nonblocking = rustix::fs::OFlags::NONBLOCK;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(i32::try_from(nonblocking.bits()).unwrap_or(0))
        .open(path)?;
    let flags = rustix::fs::fcntl_getfl(&file)?;
    rustix::fs::fcntl_setfl(&file, flags - nonblocking)?;
    Ok(file)
}

/// Opens a document for streaming.
pub(crate) fn open(origin: &Origin) -> io::Result<Box<dyn Read + Send>> {
    match origin {
        // Whatever `json::read_json` already read of stdin comes first.
        Origin::Stdin => Ok(Box::new(
            io::Cursor::new(take_stdin_head()).chain(io::stdin()),
        )),
        Origin::File(path) => Ok(Box::new(open_file(path)?)),
        Origin::Text(text) => Ok(Box::new(io::Cursor::new(text.clone()))),
    }
}

/// Reads every rule file (`*.yaml`, `*.yml`) below `dir`.
pub(crate) fn read_rule_dir(dir: &Path) -> Result<Vec<(PathBuf, String)>, String> {
    let meta = std::fs::metadata(dir).map_err(|e| {
        format!(
            "cannot read rule directory {}: {}",
            dir.display(),
            io_reason(&e)
        )
    })?;
    if !meta.is_dir() {
        return Err(format!(
            "{} is not a directory of rule files",
            dir.display()
        ));
    }
    let mut found = Vec::new();
    let mut unreadable = Vec::new();
    walk(dir, &mut found, &mut unreadable);
    if let Some(u) = unreadable.first() {
        return Err(format!("cannot read {}: {}", u.path, u.reason));
    }
    let mut out = Vec::new();
    for path in found {
        if !matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("yaml" | "yml")
        ) {
            continue;
        }
        let loaded = super::local::read_config_file(&path, false).map_err(|e| e.message)?;
        if let Some(f) = loaded {
            out.push((f.path, f.text));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walks_directories_in_order_and_reports_missing_paths() {
        let root = std::env::temp_dir().join(format!("amldoctor-inputs-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("b/c")).unwrap();
        std::fs::create_dir_all(root.join("empty")).unwrap();
        std::fs::write(root.join("b/c/z.log"), "z").unwrap();
        std::fs::write(root.join("a.log"), "a").unwrap();
        let args = vec![
            root.display().to_string(),
            "-".into(),
            "-".into(),
            root.join("a.log").display().to_string(),
            root.join("missing.log").display().to_string(),
            root.join("empty").display().to_string(),
        ];
        let set = collect(&args, None);
        assert_eq!(
            set.documents,
            vec![
                Origin::File(root.join("a.log")),
                Origin::File(root.join("b/c/z.log")),
                Origin::Stdin
            ]
        );
        let reasons: Vec<&str> = set.unreadable.iter().map(|u| u.reason.as_str()).collect();
        assert_eq!(
            reasons,
            [
                "no such file or directory",
                "the directory contains no files"
            ]
        );
        assert!(set.unreadable.iter().all(|u| u.explicit));
        std::fs::remove_dir_all(root).unwrap();
    }
}
