//! What a live run read from Azure into a temporary folder, shown by where it came
//! from. Without `--save` the folder is deleted when the command returns, so a path
//! under it would point nowhere: evidence names the deployment and container (or the
//! run and the file's place in it) instead, and commands that would read those files
//! are left out, with one note saying how to keep them.

use crate::finding::{Evidence, Location};
use crate::source::bundle::Manifest;

use super::Analysed;

/// The temporary folder and what each file in it is.
#[derive(Debug, Clone)]
pub(crate) struct Origins {
    root: String,
    /// What the whole folder is (`endpoint 'ep1' of workspace 'ws1'`).
    whole: String,
    /// A run's files are named by the run; other files by what the manifest says.
    run: Option<String>,
    files: Vec<(String, String)>,
}

impl Origins {
    /// The origins of a bundle written to `root`, a folder that will not be kept.
    pub(crate) fn of_bundle(root: &str, manifest: &Manifest) -> Origins {
        Origins {
            root: root.trim_end_matches('/').to_owned(),
            whole: manifest.source.describe(),
            run: manifest.source.run.clone(),
            files: manifest
                .collected
                .iter()
                .map(|f| (f.path.clone(), f.what.clone()))
                .collect(),
        }
    }

    /// A working folder of this run (a rehearsal's) that will not be kept, its files
    /// shown as `WHOLE, relative/path`.
    pub(crate) fn of_folder(root: &str, whole: &str) -> Origins {
        Origins {
            root: root.trim_end_matches('/').to_owned(),
            whole: whole.to_owned(),
            run: None,
            files: Vec::new(),
        }
    }

    /// What a file of the folder (by its path relative to it) is.
    fn label(&self, relative: &str) -> String {
        if let Some(run) = &self.run
            && relative.starts_with("logs/")
                | relative.starts_with("azureml-logs/")
                | relative.starts_with("user_logs/")
        {
            return format!("run {run}, {relative}");
        }
        match self.files.iter().find(|(path, _)| path == relative) {
            Some((_, what)) => what.clone(),
            None => format!("{}, {relative}", self.whole),
        }
    }

    /// `text` with every path under the folder shown by its origin.
    pub(crate) fn show(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(at) = rest.find(&self.root) {
            out.push_str(&rest[..at]);
            let after = &rest[at + self.root.len()..];
            let Some(path) = after.strip_prefix('/') else {
                out.push_str(&self.whole);
                rest = after;
                continue;
            };
            let end = path
                .find(|c: char| {
                    c.is_whitespace() || matches!(c, '\'' | '"' | '`' | ':' | ')' | ',')
                })
                .unwrap_or(path.len());
            let relative = path[..end].trim_end_matches('/');
            out.push_str(&if relative.is_empty() {
                self.whole.clone()
            } else {
                self.label(relative)
            });
            rest = &path[end..];
        }
        out.push_str(rest);
        out
    }

    fn under(&self, text: &str) -> bool {
        text.contains(&self.root)
    }

    fn evidence(&self, e: &mut Evidence) {
        e.text = self.show(&e.text);
        // A resource document read from Azure and deleted: its line numbers point
        // nowhere (a log's line is still the line of what `get-logs` prints).
        let gone = self.under(e.location.path())
            && (e.location.pointer().is_some() || has_extension(e.location.path(), "json"));
        match &mut e.location {
            Location::Line { path, .. } | Location::Pointer { path, .. } => {
                *path = self.show(path);
            }
            Location::Dns { .. } => {}
        }
        if gone {
            e.location.without_line();
        }
    }

    /// Shows every path of `a` by its origin and drops the commands that would read
    /// the folder; returns how many were dropped.
    pub(crate) fn relabel(&self, a: &mut Analysed) -> usize {
        let mut dropped = 0;
        for f in &mut a.findings {
            let before = f.commands.len();
            f.commands.retain(|c| !self.under(c));
            dropped += before - f.commands.len();
            f.remediation = self.show(&f.remediation);
            f.title = self.show(&f.title);
            for p in &mut f.paths {
                *p = self.show(p);
            }
            for e in &mut f.evidence {
                self.evidence(e);
            }
            for v in f.facts.values_mut() {
                *v = self.show(v);
            }
        }
        for i in &mut a.inputs {
            i.path = self.show(&i.path);
            if let Some(t) = &mut i.prs_tree {
                *t = self.show(t);
            }
        }
        for r in &mut a.resources {
            r.path = self.show(&r.path);
        }
        for n in &mut a.not_analysed {
            n.path = self.show(&n.path);
            n.reason = self.show(&n.reason);
        }
        for w in &mut a.warnings {
            *w = self.show(w);
        }
        for l in &mut a.error_lines {
            self.evidence(l);
        }
        a.sections.relabel(&|s| self.show(s));
        dropped
    }
}

fn has_extension(path: &str, ext: &str) -> bool {
    std::path::Path::new(path)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case(ext))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::bundle::{BundleSource, SavedFile};

    fn manifest(run: Option<&str>) -> Manifest {
        Manifest {
            amldoctor_bundle: 1,
            tool_version: String::new(),
            created: String::new(),
            source: BundleSource {
                workspace: Some("ws1".into()),
                endpoint: run.is_none().then(|| "ep1".into()),
                run: run.map(Into::into),
                ..BundleSource::default()
            },
            collected: vec![SavedFile {
                path: "containers/blue/inference-server.log".into(),
                what: "inference-server log of deployment ep1/blue".into(),
                bytes: 1,
            }],
            failed: Vec::new(),
            redaction: String::new(),
        }
    }

    #[test]
    fn paths_under_the_folder_name_their_origin() {
        let o = Origins::of_bundle("/tmp/amldoctor-x", &manifest(None));
        assert_eq!(
            o.show("/tmp/amldoctor-x/containers/blue/inference-server.log:42"),
            "inference-server log of deployment ep1/blue:42"
        );
        assert_eq!(
            o.show("see `/tmp/amldoctor-x/resources/endpoint-ep1.json`"),
            "see `endpoint 'ep1' of workspace 'ws1', resources/endpoint-ep1.json`"
        );
        assert_eq!(
            o.show("/tmp/amldoctor-x"),
            "endpoint 'ep1' of workspace 'ws1'"
        );
        assert_eq!(o.show("/home/me/a.log:3"), "/home/me/a.log:3");
        let run = Origins::of_bundle("/tmp/amldoctor-y", &manifest(Some("step-prs")));
        assert_eq!(
            run.show("/tmp/amldoctor-y/logs/user/error/0/process000.txt:7"),
            "run step-prs, logs/user/error/0/process000.txt:7"
        );
    }
}
