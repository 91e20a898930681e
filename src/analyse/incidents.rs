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
    /// A folder and the incident it belongs to.
    roots: Vec<(String, String)>,
    /// Inputs of every incident: resource documents.
    everywhere: Vec<String>,
}

impl Incidents {
    /// `bundles` are one incident each; so is each ParallelRunStep tree with the job's
    /// driver logs beside it (`trees` are the trees' `logs/` folders).
    pub(crate) fn new(
        bundles: impl IntoIterator<Item = String>,
        trees: impl IntoIterator<Item = String>,
        everywhere: impl IntoIterator<Item = String>,
    ) -> Incidents {
        let mut roots: Vec<(String, String)> =
            bundles.into_iter().map(|b| (b.clone(), b)).collect();
        for tree in trees {
            roots.extend(job_folders(&tree).into_iter().map(|f| (f, tree.clone())));
        }
        Incidents {
            roots,
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
            .find(|(folder, _)| Path::new(path).starts_with(folder.as_str()))
            .map_or(path, |(_, incident)| incident.as_str())
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

/// The folders of one ParallelRunStep job: its `logs/` tree and, when the tree is a
/// job's `logs/`, the driver logs beside it (`azureml-logs/`, `user_logs/`).
fn job_folders(tree_root: &str) -> Vec<String> {
    let root = Path::new(tree_root);
    let mut folders = vec![tree_root.to_owned()];
    if root.file_name().is_some_and(|n| n == "logs") {
        let parent = root.parent().unwrap_or(Path::new(""));
        for sibling in ["azureml-logs", "user_logs"] {
            folders.push(parent.join(sibling).display().to_string());
        }
    }
    folders
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(paths: &[&str]) -> Vec<String> {
        paths.iter().map(|p| (*p).to_owned()).collect()
    }

    #[test]
    fn files_are_their_own_incident_and_a_bundle_is_one() {
        let i = Incidents::new(
            ["dl/bundle".to_owned()],
            ["runs/job-1/logs".to_owned(), "logs".to_owned()],
            ["res/ws.json".to_owned()],
        );
        assert!(!i.share(&v(&["app/a.log"]), &v(&["app/b.log"])));
        assert!(i.share(&v(&["app/a.log", "app/b.log"]), &v(&["app/b.log"])));
        assert!(i.share(
            &v(&["dl/bundle/containers/blue/inference-server.log"]),
            &v(&["dl/bundle/containers/blue/storage-initializer.log"])
        ));
        assert!(!i.share(&v(&["dl/bundle/x.log"]), &v(&["dl/bundle-2/x.log"])));
        assert!(i.share(&[], &v(&["app/a.log"])));
        assert!(i.holds(&v(&["dl/bundle/x.log"]), "dl/bundle/y.log"));
        assert!(!i.holds(&v(&["app/a.log"]), "app/b.log"));
        assert!(i.share(&v(&["res/ws.json"]), &v(&["app/a.log"])));
        assert!(i.holds(&v(&["app/a.log"]), "res/ws.json"));
        // A job's tree and its driver logs, passed as one folder or side by side.
        assert!(i.share(
            &v(&["runs/job-1/logs/job_result.txt"]),
            &v(&["runs/job-1/azureml-logs/70_driver_log.txt"])
        ));
        assert!(i.share(
            &v(&["logs/job_result.txt"]),
            &v(&["azureml-logs/70_driver_log.txt"])
        ));
        assert!(!i.share(
            &v(&["runs/job-1/logs/x.txt"]),
            &v(&["runs/job-2/logs/x.txt"])
        ));
        assert!(!i.share(&v(&["logs/x.txt"]), &v(&["other.log"])));
    }
}
