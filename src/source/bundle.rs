//! Bundles: what `logs --out`, `diagnose --save` and live `check` collect from Azure,
//! kept as ordinary files (container logs, a run's log tree, resource JSON) plus a
//! `manifest.json` saying where it came from, what was collected and what failed. A
//! live run analyses its bundle, so `diagnose DIR` and `check --from DIR` on a saved
//! one give the same findings. Every saved byte is redacted first.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::{Error, Result};

/// The manifest's file name, at the top of the bundle.
pub(crate) const MANIFEST: &str = "manifest.json";

/// The manifest format this release writes and reads.
pub(crate) const FORMAT: u32 = 1;

/// What `manifest.json` holds.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub(crate) struct Manifest {
    /// The bundle format; its presence marks the file as an amldoctor manifest.
    pub amldoctor_bundle: u32,
    pub tool_version: String,
    /// When it was collected (RFC 3339, UTC).
    pub created: String,
    pub source: BundleSource,
    pub collected: Vec<SavedFile>,
    pub failed: Vec<Failure>,
    /// What was masked in the saved files.
    pub redaction: String,
}

/// Where the bundle's contents came from.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub(crate) struct BundleSource {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subscription: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource_group: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workspace: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub endpoint: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deployment: Option<String>,
    /// The run whose logs were fetched (a ParallelRunStep step run).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub run: Option<String>,
    /// The run the user named, when it was a pipeline run resolved to its step.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub requested_run: Option<String>,
}

impl BundleSource {
    /// Whether a bundle of `self` may be resumed by a collection of `new` (which names
    /// the run the user asked for, perhaps the pipeline run `self` was resolved from).
    pub(crate) fn same_subject(&self, new: &BundleSource) -> bool {
        let run_matches = new.run.is_none() && self.run.is_none()
            || new.run.is_some() && (new.run == self.run || new.run == self.requested_run);
        self.subscription == new.subscription
            && self.resource_group == new.resource_group
            && self.workspace == new.workspace
            && self.endpoint == new.endpoint
            && run_matches
    }

    /// `run X of workspace W` / `endpoint E of workspace W`, for messages.
    pub(crate) fn describe(&self) -> String {
        let ws = self.workspace.as_deref().unwrap_or("?");
        match (&self.run, &self.endpoint) {
            (Some(run), _) => format!("run '{run}' of workspace '{ws}'"),
            (None, Some(ep)) => format!("endpoint '{ep}' of workspace '{ws}'"),
            (None, None) => format!("workspace '{ws}'"),
        }
    }
}

/// Where a file of the bundle stands before a download.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Slot {
    /// Already saved whole by an earlier run (its size).
    Complete(u64),
    /// To fetch into this path (its folder exists).
    Fetch(PathBuf),
}

/// One saved file.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct SavedFile {
    /// Relative to the bundle, with `/`.
    pub path: String,
    /// What it is (`inference-server log of deployment blue`, `workspace ws1`).
    pub what: String,
    pub bytes: u64,
}

/// Something that could not be collected, and why.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Failure {
    pub what: String,
    pub reason: String,
    /// The file it would have been, when there was one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// The check this left undone (`keyvault`), when it was one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skipped_check: Option<String>,
    /// The check still ran, without this part (`dns` without the private zone's
    /// records still resolves the hosts).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub partial: bool,
}

/// The sentence every manifest carries about redaction.
pub(crate) const REDACTION: &str = "SAS signatures, bearer tokens, JWTs, account keys, connection strings, client secrets and passwords are replaced by ***REDACTED*** in every saved file; secret-named JSON keys are masked whatever their value";

/// A bundle being written.
#[derive(Debug)]
pub(crate) struct BundleWriter {
    root: PathBuf,
    pub manifest: Manifest,
}

impl BundleWriter {
    /// Creates the folder `root`, or reuses it (to resume) when it is empty or holds a
    /// bundle of the same subject; a bundle of something else is never mixed in.
    pub(crate) fn create(
        root: &Path,
        source: BundleSource,
        created: String,
    ) -> Result<BundleWriter> {
        if root.exists() && !root.is_dir() {
            return Err(Error::input(format!(
                "{} is a file: a bundle is saved into a folder (created when missing); name a folder",
                root.display()
            )));
        }
        if let Some(old) = read_manifest(root)?
            && !old.source.same_subject(&source)
        {
            return Err(Error::input(format!(
                "{} already holds a bundle of {}; save this one into another folder",
                root.display(),
                old.source.describe()
            )));
        }
        std::fs::create_dir_all(root).map_err(|e| Error::io("create", root, &e))?;
        Ok(BundleWriter {
            root: root.to_path_buf(),
            manifest: Manifest {
                amldoctor_bundle: FORMAT,
                tool_version: env!("CARGO_PKG_VERSION").to_owned(),
                created,
                source,
                collected: Vec::new(),
                failed: Vec::new(),
                redaction: REDACTION.to_owned(),
            },
        })
    }

    pub(crate) fn root(&self) -> &Path {
        &self.root
    }

    /// Where `relative` (a service-given path) lands, or why it may not be written: it
    /// must stay inside the bundle, also through links already in the folder.
    pub(crate) fn place(&self, relative: &str) -> Result<PathBuf, String> {
        let dest = safe_join(&self.root, relative)?;
        let mut at = self.root.clone();
        for part in dest
            .strip_prefix(&self.root)
            .map_err(|_| relative.to_owned())?
            .components()
        {
            at.push(part);
            if std::fs::symlink_metadata(&at).is_ok_and(|m| m.file_type().is_symlink()) {
                return Err(format!(
                    "the path '{relative}' goes through the link {}; not saved",
                    at.display()
                ));
            }
        }
        Ok(dest)
    }

    /// Prepares `relative` for a download: complete already (when `resume` and a file is
    /// under its final name, which only finished downloads are), or a path whose folder
    /// exists.
    pub(crate) fn slot(&self, relative: &str, resume: bool) -> Result<Slot, String> {
        let dest = self.place(relative)?;
        if resume && let Ok(meta) = std::fs::metadata(&dest) {
            return Ok(Slot::Complete(meta.len()));
        }
        if let Some(dir) = dest.parent() {
            std::fs::create_dir_all(dir).map_err(|e| Error::io("create", dir, &e).to_string())?;
        }
        Ok(Slot::Fetch(dest))
    }

    /// Saves log text, redacted.
    pub(crate) fn write_text(&mut self, relative: &str, what: &str, text: &str) -> Result<()> {
        let clean = crate::redact::redact(text);
        self.save(relative, what, clean.as_bytes())
    }

    /// Saves a resource document as pretty JSON, secrets masked.
    pub(crate) fn write_json(&mut self, relative: &str, what: &str, value: &Value) -> Result<()> {
        let mut value = value.clone();
        crate::redact::json_value(&mut value);
        let mut text = serde_json::to_string_pretty(&value).unwrap_or_default();
        text.push('\n');
        self.save(relative, what, text.as_bytes())
    }

    fn save(&mut self, relative: &str, what: &str, bytes: &[u8]) -> Result<()> {
        let dest = self.place(relative).map_err(Error::input)?;
        if let Some(dir) = dest.parent() {
            std::fs::create_dir_all(dir).map_err(|e| Error::io("create", dir, &e))?;
        }
        std::fs::write(&dest, bytes).map_err(|e| Error::io("write", &dest, &e))?;
        self.collected(relative, what, bytes.len() as u64);
        Ok(())
    }

    /// Records a file saved by someone else (a download).
    pub(crate) fn collected(&mut self, relative: &str, what: &str, bytes: u64) {
        self.manifest.collected.push(SavedFile {
            path: relative.to_owned(),
            what: what.to_owned(),
            bytes,
        });
    }

    /// Records what could not be collected.
    pub(crate) fn failed(&mut self, what: &str, reason: &str, path: Option<&str>) {
        self.manifest.failed.push(Failure {
            what: what.to_owned(),
            reason: crate::redact::redact(reason).into_owned(),
            path: path.map(str::to_owned),
            skipped_check: None,
            partial: false,
        });
    }

    /// Records a check that could not run, and why.
    pub(crate) fn skipped(&mut self, check: &str, what: &str, reason: &str) {
        self.failed(what, reason, None);
        if let Some(last) = self.manifest.failed.last_mut() {
            last.skipped_check = Some(check.to_owned());
        }
    }

    /// Records a part of a check that could not be read; the check runs without it.
    pub(crate) fn part_missing(&mut self, check: &str, what: &str, reason: &str) {
        self.skipped(check, what, reason);
        if let Some(last) = self.manifest.failed.last_mut() {
            last.partial = true;
        }
    }

    /// Writes `manifest.json`.
    pub(crate) fn finish(self) -> Result<Manifest> {
        let mut text = serde_json::to_string_pretty(&self.manifest).unwrap_or_default();
        text.push('\n');
        let path = self.root.join(MANIFEST);
        std::fs::write(&path, text).map_err(|e| Error::io("write", &path, &e))?;
        Ok(self.manifest)
    }
}

/// `root` joined with a path a service handed out, refused when it could land outside
/// `root`: `..`, an absolute path, a drive letter or a Windows separator trick.
pub(crate) fn safe_join(root: &Path, relative: &str) -> Result<PathBuf, String> {
    let refuse = |why: &str| Err(format!("the path '{relative}' {why}; not saved"));
    if relative.is_empty() {
        return refuse("is empty");
    }
    if relative.starts_with('/') || relative.starts_with('\\') {
        return refuse("is absolute");
    }
    let bytes = relative.as_bytes();
    if bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':' {
        return refuse("names a drive");
    }
    let mut out = root.to_path_buf();
    for part in relative.split(['/', '\\']) {
        match part {
            "" | "." => {}
            ".." => return refuse("climbs out of the output folder"),
            p if p.contains(':') || p.contains('\0') => {
                return refuse("has a character a file name cannot hold");
            }
            p => out.push(p),
        }
    }
    if out == root {
        return refuse("names the output folder itself");
    }
    Ok(out)
}

/// The manifest in `dir`, if `dir` is a bundle. A `manifest.json` that is not
/// amldoctor's is not a bundle's; one that is but cannot be read is an error.
pub(crate) fn read_manifest(dir: &Path) -> Result<Option<Manifest>> {
    let path = dir.join(MANIFEST);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Error::io("read", &path, &e)),
    };
    let Ok(value) = serde_json::from_str::<Value>(&text) else {
        return Ok(None);
    };
    if value.get("amldoctor_bundle").is_none() {
        return Ok(None);
    }
    serde_json::from_value(value).map(Some).map_err(|e| {
        Error::input(format!(
            "{}: not a manifest this release can read ({e})",
            path.display()
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_outside_the_folder_are_refused() {
        let root = Path::new("/out");
        assert_eq!(
            safe_join(root, "logs/sys/master_role.txt").unwrap(),
            PathBuf::from("/out/logs/sys/master_role.txt")
        );
        assert_eq!(
            safe_join(root, "./logs//a.txt").unwrap(),
            PathBuf::from("/out/logs/a.txt")
        );
        for bad in [
            "../x",
            "logs/../../x",
            "/etc/passwd",
            "\\\\server\\share",
            "C:/x",
            "c:x",
            "logs\\..\\..\\x",
            "",
            ".",
            "a/b:c",
        ] {
            assert!(safe_join(root, bad).is_err(), "{bad}");
        }
    }
}
