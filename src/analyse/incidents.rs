//! Which inputs belong to one incident: a bundle (its manifest says it holds one
//! deployment or one run) or a ParallelRunStep tree is one; every other file or paste is
//! its own. A folder of unrelated logs is several incidents, so a cause links to a
//! symptom, and a name read in one input fills another's commands, only within one.
//! Resource JSON (the workspace, its endpoints, its Key Vault) describes where every
//! input of the run ran, so it belongs to every incident.

use std::path::Path;

/// The roots of the inputs that are one incident each.
#[derive(Debug, Clone, Default)]
pub(crate) struct Incidents {
    roots: Vec<String>,
    /// Inputs of every incident: resource documents.
    everywhere: Vec<String>,
}

impl Incidents {
    pub(crate) fn new(
        roots: impl IntoIterator<Item = String>,
        everywhere: impl IntoIterator<Item = String>,
    ) -> Incidents {
        Incidents {
            roots: roots.into_iter().collect(),
            everywhere: everywhere.into_iter().collect(),
        }
    }

    /// Whether a finding in `paths` is about the whole run: computed from no input, or
    /// read only from resources.
    fn everywhere(&self, paths: &[String]) -> bool {
        paths.iter().all(|p| self.everywhere.contains(p))
    }

    /// The incident `path` belongs to: the bundle or tree holding it, else itself.
    pub(crate) fn of<'a>(&'a self, path: &'a str) -> &'a str {
        self.roots
            .iter()
            .find(|r| Path::new(path).starts_with(r.as_str()))
            .map_or(path, String::as_str)
    }

    /// Whether two findings (by the inputs each was found in) share an incident. A
    /// finding about the whole run shares every one.
    pub(crate) fn share(&self, a: &[String], b: &[String]) -> bool {
        self.everywhere(a)
            || self.everywhere(b)
            || a.iter().any(|x| b.iter().any(|y| self.of(x) == self.of(y)))
    }

    /// Whether `path` is in one of the incidents of a finding found in `paths`.
    pub(crate) fn holds(&self, paths: &[String], path: &str) -> bool {
        self.everywhere(paths)
            || self.everywhere.iter().any(|p| p == path)
            || paths.iter().any(|p| self.of(p) == self.of(path))
    }
}

/// The job folder a ParallelRunStep `logs/` tree stands in: its driver logs
/// (`azureml-logs/`, `user_logs/`) are its siblings, and of the same run.
pub(crate) fn job_folder(tree_root: &str) -> String {
    let root = Path::new(tree_root);
    match (root.file_name(), root.parent()) {
        (Some(name), Some(parent)) if name == "logs" && !parent.as_os_str().is_empty() => {
            parent.display().to_string()
        }
        _ => tree_root.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(paths: &[&str]) -> Vec<String> {
        paths.iter().map(|p| (*p).to_owned()).collect()
    }

    #[test]
    fn files_are_their_own_incident_and_a_bundle_is_one() {
        let i = Incidents::new(["dl/bundle".to_owned()], ["res/ws.json".to_owned()]);
        assert!(!i.share(&v(&["logs/a.log"]), &v(&["logs/b.log"])));
        assert!(i.share(&v(&["logs/a.log", "logs/b.log"]), &v(&["logs/b.log"])));
        assert!(i.share(
            &v(&["dl/bundle/containers/blue/inference-server.log"]),
            &v(&["dl/bundle/containers/blue/storage-initializer.log"])
        ));
        assert!(!i.share(&v(&["dl/bundle/x.log"]), &v(&["dl/bundle-2/x.log"])));
        assert!(i.share(&[], &v(&["logs/a.log"])));
        assert!(i.holds(&v(&["dl/bundle/x.log"]), "dl/bundle/y.log"));
        assert!(!i.holds(&v(&["logs/a.log"]), "logs/b.log"));
        assert!(i.share(&v(&["res/ws.json"]), &v(&["logs/a.log"])));
        assert!(i.holds(&v(&["logs/a.log"]), "res/ws.json"));
        assert_eq!(job_folder("runs/job-1/logs"), "runs/job-1");
        assert_eq!(job_folder("logs"), "logs");
        assert_eq!(job_folder("runs/job-1/tree"), "runs/job-1/tree");
    }
}
