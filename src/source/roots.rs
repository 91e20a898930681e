//! The folders an MCP client may make amldoctor read (`amldoctor mcp --root DIR`).
//! An agent names paths the user never typed, so every path is resolved to where it
//! really is — through `..` and every symbolic link, a link inside a walked folder
//! included — and refused unless that place is under one of the roots.

use std::path::{Path, PathBuf};

use crate::error::io_reason;

/// The resolved roots.
#[derive(Debug, Clone)]
pub(crate) struct Roots {
    /// As given, for messages.
    given: Vec<PathBuf>,
    /// What relative paths are taken from: the first root given, else (None) the
    /// working directory, where they already are.
    base: Option<PathBuf>,
    /// Where each really is.
    real: Vec<PathBuf>,
}

/// How many entries of a folder are looked at for links that leave the roots; a tree
/// larger than this is refused rather than read without the look.
const MAX_WALK: usize = 200_000;

impl Roots {
    /// Resolves `dirs` (the working directory when empty); each must be a folder.
    pub(crate) fn new(dirs: &[PathBuf]) -> Result<Roots, String> {
        let base = dirs.first().cloned();
        let dirs = if dirs.is_empty() {
            vec![
                std::env::current_dir()
                    .map_err(|e| format!("cannot read the working directory: {}", io_reason(&e)))?,
            ]
        } else {
            dirs.to_vec()
        };
        let mut real = Vec::with_capacity(dirs.len());
        for d in &dirs {
            let r = std::fs::canonicalize(d)
                .map_err(|e| format!("--root {}: {}", d.display(), io_reason(&e)))?;
            if !r.is_dir() {
                return Err(format!("--root {}: not a directory", d.display()));
            }
            real.push(r);
        }
        Ok(Roots {
            given: dirs,
            base,
            real,
        })
    }

    /// The roots as given, for the server's instructions and refusals.
    pub(crate) fn names(&self) -> Vec<String> {
        self.given.iter().map(|d| d.display().to_string()).collect()
    }

    /// `path` (relative ones from the first root) if it, and everything a folder there
    /// links to, is under a root; else one sentence saying why not.
    pub(crate) fn confine(&self, path: &str) -> Result<PathBuf, String> {
        let given = Path::new(path);
        let joined = match &self.base {
            Some(base) if !given.is_absolute() => base.join(given),
            _ => given.to_path_buf(),
        };
        let real = std::fs::canonicalize(&joined)
            .map_err(|e| format!("cannot read {path}: {}", io_reason(&e)))?;
        if !self.holds(&real) {
            return Err(self.outside(path, &real));
        }
        if real.is_dir() {
            self.check_links(&joined, path)?;
        }
        Ok(joined)
    }

    fn holds(&self, real: &Path) -> bool {
        self.real.iter().any(|r| real.starts_with(r))
    }

    fn outside(&self, path: &str, real: &Path) -> String {
        let shown = if Path::new(path) == real {
            String::new()
        } else {
            format!(" (it is {})", real.display())
        };
        format!(
            "{path} is outside the folders this server may read{shown}; it reads only under {}",
            self.names().join(", ")
        )
    }

    /// Every symbolic link below `dir` must lead under a root too: the scanner reads a
    /// linked file as its own.
    fn check_links(&self, dir: &Path, path: &str) -> Result<(), String> {
        let mut pending = vec![dir.to_path_buf()];
        let mut seen = 0usize;
        while let Some(d) = pending.pop() {
            let Ok(entries) = std::fs::read_dir(&d) else {
                continue; // the scanner reports an unreadable folder itself
            };
            for entry in entries.flatten() {
                seen += 1;
                if seen > MAX_WALK {
                    return Err(format!(
                        "{path} holds more than {MAX_WALK} entries; name a smaller folder"
                    ));
                }
                let p = entry.path();
                let Ok(kind) = entry.file_type() else {
                    continue;
                };
                if kind.is_symlink() {
                    if let Ok(target) = std::fs::canonicalize(&p)
                        && !self.holds(&target)
                    {
                        return Err(self.outside(&p.display().to_string(), &target));
                    }
                } else if kind.is_dir() {
                    pending.push(p);
                }
            }
        }
        Ok(())
    }
}
