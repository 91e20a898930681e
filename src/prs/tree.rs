//! Recognises ParallelRunStep log trees among the inputs and says what each file is.
//!
//! A tree is the `logs/` folder a ParallelRunStep (or a v2 parallel job / batch
//! endpoint) run writes, found from the files inside it: the progress overview, the job
//! result, the master role log, the per-node folders. Its parent may hold
//! `azureml-logs/70_driver_log.txt` (v1) or `user_logs/std_log.txt` (v2). Both the
//! current layout (node ids, `sys/node/…`) and the ≈2020 one (node IPs, `overview.txt`,
//! `sys/worker/…`) are recognised.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// What one file of a tree holds.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Role {
    /// `job_progress_overview.<YYYYMMDDHH>.txt` (the key orders rotated files) or the
    /// legacy `overview.txt`.
    Overview {
        key: String,
    },
    JobResult,
    JobError,
    /// `sys/master_role.txt` (legacy `sys/master.txt`).
    Master,
    /// `sys/node/<node>/_main.txt`.
    NodeMain {
        node: String,
    },
    /// `sys/node/<node>/processNNN.txt` (legacy `sys/worker/<ip>/Process-N.txt`).
    Process {
        node: String,
        process: String,
    },
    /// Driver errors and warnings under `sys/error`, `sys/warning`.
    SysError,
    /// `user/error.txt`.
    UserErrorSummary,
    /// `user/error/<node>/<process>.txt`.
    UserError {
        node: String,
        process: String,
    },
    /// Entry-script logger, stdout and stderr files under `user/`.
    UserLog,
    /// `sys/job_report/processed_mini-batches.csv` (legacy `sys/report/processed_tasks.csv`
    /// and per-process `Process-N.task.csv`).
    MiniBatchCsv {
        node: Option<String>,
        process: Option<String>,
    },
    /// `process_summary.csv`, `node_summary.csv` and other report CSVs.
    SummaryCsv,
    /// `perf/<node>/node_resource_usage.csv`.
    NodePerf {
        node: String,
    },
    /// `perf/<node>/processes_resource_usage.csv`.
    ProcessPerf {
        node: String,
    },
    /// `perf/<node>/node_disk_usage.csv`.
    DiskPerf {
        node: String,
    },
    /// `perf/<node>/os/<YYYYMMDDHH>/processes_<MM>`: the process list (`ps`, `tasklist`)
    /// taken at `time` (`YYYY-MM-DDTHH:MM`).
    ProcessSnapshot {
        node: String,
        time: String,
    },
    /// `azureml-logs/70_driver_log*.txt` or `user_logs/std_log*.txt`.
    DriverLog,
    /// `readme.txt`, profiles and anything unknown: scanned by the rules only.
    Other,
}

impl Role {
    /// Whether the PRS parser reads this file line by line.
    pub(crate) fn parsed(&self) -> bool {
        !matches!(self, Role::Other | Role::UserLog)
    }
}

/// Files whose presence marks a `logs/` folder as a ParallelRunStep tree.
pub(crate) fn is_marker(relative: &str) -> bool {
    let r = relative;
    r.starts_with("job_progress_overview")
        || r == "overview.txt"
        || r == "job_result.txt"
        || r == "sys/master_role.txt"
        || r == "sys/master.txt"
        || r.starts_with("sys/node/")
        || r.starts_with("sys/worker/")
        || r.starts_with("sys/job_report/")
}

fn components(path: &Path) -> Vec<String> {
    path.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect()
}

/// The PRS `logs/` folders among these files: a folder is one when a marker file sits
/// at its place in it (`job_result.txt` at the top, `sys/node/…` below). The folder is
/// usually called `logs`, but a downloaded or renamed copy (`job-123-logs/`, or `.` when
/// run from inside it) is found the same way.
pub(crate) fn find_roots(files: &[PathBuf]) -> Vec<PathBuf> {
    let mut roots = BTreeSet::new();
    for f in files {
        let parts = components(f);
        // Markers are at most four levels below the root.
        for i in (0..parts.len()).rev().take(5) {
            let relative = parts[i..].join("/");
            if is_marker(&relative) {
                let root: PathBuf = parts[..i].iter().collect();
                roots.insert(if root.as_os_str().is_empty() {
                    PathBuf::from(".")
                } else {
                    root
                });
                break;
            }
        }
    }
    // A root inside another root (a `logs/` folder in a job folder) is the same tree.
    let list: Vec<PathBuf> = roots.into_iter().collect();
    list.iter()
        .filter(|r| {
            !list
                .iter()
                .any(|o| o != *r && r.starts_with(o) && o != &PathBuf::from("."))
        })
        .cloned()
        .collect()
}

/// The tree a file belongs to, and its role there.
pub(crate) fn classify(roots: &[PathBuf], file: &Path) -> Option<(usize, Role)> {
    for (i, root) in roots.iter().enumerate() {
        let relative = if root == Path::new(".") {
            Ok(file.strip_prefix("./").unwrap_or(file))
        } else {
            file.strip_prefix(root)
        };
        if let Ok(rel) = relative {
            return Some((i, role_in_logs(&components(rel))));
        }
        if let Some(parent) = root.parent()
            && let Ok(rel) = file.strip_prefix(parent)
        {
            let parts = components(rel);
            let name = parts.last().map(String::as_str).unwrap_or("");
            let top = parts.first().map(String::as_str).unwrap_or("");
            if (top == "azureml-logs" && name.starts_with("70_driver_log"))
                || (top == "user_logs" && name.starts_with("std_log"))
            {
                return Some((i, Role::DriverLog));
            }
        }
    }
    None
}

/// Whether `path` matches `pattern`, where `*` and a placeholder (`<node>`, `{node}`)
/// stand for any run of characters within one path segment.
fn path_matches(pattern: &str, path: &str) -> bool {
    let mut parts: Vec<String> = vec![String::new()];
    let mut rest = pattern;
    while let Some(c) = rest.chars().next() {
        if c == '*' {
            parts.push(String::new());
            rest = &rest[1..];
        } else if let Some(end) = match c {
            '<' => rest.find('>'),
            '{' => rest.find('}'),
            _ => None,
        } {
            parts.push(String::new());
            rest = &rest[end + 1..];
        } else {
            if let Some(p) = parts.last_mut() {
                p.push(c);
            }
            rest = &rest[c.len_utf8()..];
        }
    }
    let (first, others) = parts
        .split_first()
        .map_or(("", &[][..]), |(f, o)| (f.as_str(), o));
    let Some(mut at) = path.strip_prefix(first) else {
        return false;
    };
    for (i, part) in others.iter().enumerate() {
        let last = i + 1 == others.len();
        let found = if last {
            at.ends_with(part.as_str()).then(|| at.len() - part.len())
        } else {
            at.find(part.as_str())
        };
        let Some(pos) = found else { return false };
        // A wildcard does not cross a folder.
        if at[..pos].contains('/') {
            return false;
        }
        at = &at[pos + part.len()..];
    }
    // Without a wildcard the whole path must be the pattern.
    !others.is_empty() || at.is_empty()
}

/// A command as it can run against the tree at `root`, whose files are `files`: a
/// path of the tree that names no file of it (the other layout's file) drops the
/// command; a path with a `<placeholder>` that one file matches gets that file.
pub(crate) fn command_for_files(command: &str, root: &str, files: &[&str]) -> Option<String> {
    let root = root.trim_end_matches('/');
    let mut words: Vec<String> = Vec::new();
    for word in command.split(' ') {
        let bare = word.trim_matches(|c| c == '"' || c == '\'');
        if !bare.starts_with(&format!("{root}/")) {
            words.push(word.to_owned());
            continue;
        }
        if bare.ends_with('/') {
            if !files.iter().any(|f| f.starts_with(bare)) {
                return None;
            }
            words.push(word.to_owned());
            continue;
        }
        let matching: Vec<&&str> = files.iter().filter(|f| path_matches(bare, f)).collect();
        match matching.as_slice() {
            [] => return None,
            [one] if bare.contains(['<', '{']) => words.push(word.replace(bare, one)),
            _ => words.push(word.to_owned()),
        }
    }
    Some(words.join(" "))
}

/// A `.yaml` / `.yml` file inside a tree or its job folder that is none of the tree's
/// logs: a job definition, or notes kept beside a downloaded tree.
pub(crate) fn is_side_file(roots: &[PathBuf], file: &Path) -> bool {
    let yaml = file
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("yaml") || e.eq_ignore_ascii_case("yml"));
    yaml && roots.iter().any(|root| {
        let job = root.parent().filter(|p| !p.as_os_str().is_empty());
        file.starts_with(root) || job.is_some_and(|j| file.starts_with(j))
    })
}

// ParallelRunStep writes these names in lower case; a differently cased file is not one
// of its files.
#[allow(clippy::case_sensitive_file_extension_comparisons)]
fn role_in_logs(parts: &[String]) -> Role {
    let p: Vec<&str> = parts.iter().map(String::as_str).collect();
    let name = p.last().copied().unwrap_or("");
    let stem = |n: &str| n.trim_end_matches(".txt").to_owned();
    match p.as_slice() {
        [n] if n.starts_with("job_progress_overview") => Role::Overview {
            key: n
                .trim_start_matches("job_progress_overview")
                .trim_matches('.')
                .to_owned(),
        },
        ["overview.txt"] => Role::Overview { key: String::new() },
        ["job_result.txt"] => Role::JobResult,
        ["job_error.txt"] | ["user", "job_error.txt"] => Role::JobError,
        ["sys", "master_role.txt"] | ["sys", "master.txt"] => Role::Master,
        ["sys", "node", node, "_main.txt"] => Role::NodeMain {
            node: (*node).to_owned(),
        },
        ["sys", "node", node, f] if is_process_log(f) => Role::Process {
            node: (*node).to_owned(),
            process: stem(f),
        },
        ["sys", "worker", node, f] if f.ends_with(".task.csv") => Role::MiniBatchCsv {
            node: Some((*node).to_owned()),
            process: Some(f.trim_end_matches(".task.csv").to_owned()),
        },
        ["sys", "worker", node, f] if f.ends_with(".txt") => Role::Process {
            node: (*node).to_owned(),
            process: stem(f),
        },
        ["sys", "error", ..]
        | ["sys", "warning", ..]
        | ["sys", "error.txt"]
        | ["sys", "warning.txt"] => Role::SysError,
        ["user", "error.txt"] => Role::UserErrorSummary,
        ["user", "error", node, f] => Role::UserError {
            node: (*node).to_owned(),
            process: stem(f),
        },
        ["user", ..] => Role::UserLog,
        ["sys", "job_report", "processed_mini-batches.csv"] => Role::MiniBatchCsv {
            node: None,
            process: None,
        },
        ["sys", "job_report", _] | ["sys", "report", _] => Role::SummaryCsv,
        [.., node, "node_resource_usage.csv"] if p.contains(&"perf") => Role::NodePerf {
            node: (*node).to_owned(),
        },
        [.., node, "processes_resource_usage.csv"] if p.contains(&"perf") => Role::ProcessPerf {
            node: (*node).to_owned(),
        },
        [.., node, "node_disk_usage.csv"] if p.contains(&"perf") => Role::DiskPerf {
            node: (*node).to_owned(),
        },
        [.., node, "os", hour, file] if p.contains(&"perf") => {
            match super::perf::snapshot_time(hour, file) {
                Some(time) => Role::ProcessSnapshot {
                    node: (*node).to_owned(),
                    time,
                },
                None => Role::Other,
            }
        }
        _ if name.ends_with(".csv")
            && p.first() == Some(&"sys")
            && p.get(1) == Some(&"job_report") =>
        {
            Role::SummaryCsv
        }
        _ => Role::Other,
    }
}

/// `process000.txt`, not `process000.stdout.txt` or a profile.
fn is_process_log(name: &str) -> bool {
    let Some(stem) = name.strip_suffix(".txt") else {
        return false;
    };
    stem.strip_prefix("process")
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> PathBuf {
        PathBuf::from(s)
    }

    #[test]
    fn roots_from_markers_current_and_legacy() {
        let files = vec![
            p("run1/logs/job_progress_overview.2023051622.txt"),
            p("run1/logs/sys/node/0/process000.txt"),
            p("run1/azureml-logs/70_driver_log.txt"),
            p("old/logs/overview.txt"),
            p("old/logs/sys/worker/10.0.0.4/Process-1.txt"),
            p("unrelated/logs/app.log"),
            p("job-123-logs/job_result.txt"),
            p("job-123-logs/sys/node/0/_main.txt"),
        ];
        assert_eq!(
            find_roots(&files),
            vec![p("job-123-logs"), p("old/logs"), p("run1/logs")]
        );
        assert_eq!(
            find_roots(&[p("job_result.txt"), p("sys/master_role.txt")]),
            vec![p(".")]
        );
    }

    #[test]
    fn commands_name_only_files_the_tree_has() {
        let files = [
            "t/logs/overview.txt",
            "t/logs/user/error/10.0.0.4/Process-1.txt",
            "t/logs/sys/node/0/process000.txt",
        ];
        assert_eq!(
            command_for_files("cat t/logs/job_result.txt", "t/logs", &files),
            None
        );
        assert_eq!(
            command_for_files(
                "cat t/logs/user/error/<node>/<process>.txt",
                "t/logs",
                &files
            )
            .as_deref(),
            Some("cat t/logs/user/error/10.0.0.4/Process-1.txt")
        );
        assert_eq!(
            command_for_files("grep -c x t/logs/sys/node/*/process*.txt", "t/logs", &files)
                .as_deref(),
            Some("grep -c x t/logs/sys/node/*/process*.txt")
        );
        assert_eq!(
            command_for_files("ls -R t/logs/user/error/", "t/logs", &files).as_deref(),
            Some("ls -R t/logs/user/error/")
        );
        assert_eq!(
            command_for_files("ls t/logs/sys/report/", "t/logs", &files),
            None
        );
        assert_eq!(
            command_for_files("az ml job show -n x", "t/logs", &files).as_deref(),
            Some("az ml job show -n x")
        );
    }

    #[test]
    fn yaml_beside_a_tree_is_a_side_file() {
        let roots = vec![p("jobs/run-1/logs")];
        assert!(is_side_file(&roots, &p("jobs/run-1/job.yaml")));
        assert!(is_side_file(&roots, &p("jobs/run-1/logs/notes.YML")));
        assert!(!is_side_file(
            &roots,
            &p("jobs/run-1/logs/sys/node/0/_main.txt")
        ));
        assert!(!is_side_file(&roots, &p("elsewhere/job.yaml")));
    }

    #[test]
    fn roles() {
        let roots = vec![p("t/logs")];
        let role = |f: &str| classify(&roots, &p(f)).map(|(_, r)| r);
        assert_eq!(
            role("t/logs/job_progress_overview.2023051623.txt"),
            Some(Role::Overview {
                key: "2023051623.txt".into()
            })
        );
        assert_eq!(
            role("t/logs/sys/node/1/_main.txt"),
            Some(Role::NodeMain { node: "1".into() })
        );
        assert_eq!(
            role("t/logs/sys/node/1/process002.txt"),
            Some(Role::Process {
                node: "1".into(),
                process: "process002".into()
            })
        );
        assert_eq!(
            role("t/logs/sys/node/1/process002.stdout.txt"),
            Some(Role::Other)
        );
        assert_eq!(
            role("t/logs/user/error/0/process000.txt"),
            Some(Role::UserError {
                node: "0".into(),
                process: "process000".into()
            })
        );
        assert_eq!(
            role("t/logs/user/stdout/0/process000.stdout.txt"),
            Some(Role::UserLog)
        );
        assert_eq!(
            role("t/logs/sys/job_report/processed_mini-batches.csv"),
            Some(Role::MiniBatchCsv {
                node: None,
                process: None
            })
        );
        assert_eq!(
            role("t/logs/sys/job_report/node_summary.csv"),
            Some(Role::SummaryCsv)
        );
        assert_eq!(
            role("t/logs/perf/1/node_resource_usage.csv"),
            Some(Role::NodePerf { node: "1".into() })
        );
        assert_eq!(
            role("t/logs/sys/perf/1/processes_resource_usage.csv"),
            Some(Role::ProcessPerf { node: "1".into() })
        );
        assert_eq!(
            role("t/logs/perf/2/os/2024031410/processes_05"),
            Some(Role::ProcessSnapshot {
                node: "2".into(),
                time: "2024-03-14T10:05".into()
            })
        );
        assert_eq!(
            role("t/logs/perf/2/os/notes/processes_05"),
            Some(Role::Other)
        );
        assert_eq!(
            role("t/azureml-logs/70_driver_log.txt"),
            Some(Role::DriverLog)
        );
        assert_eq!(role("t/user_logs/std_log.txt"), Some(Role::DriverLog));
        assert_eq!(
            role("t/logs/sys/worker/10.0.0.4/Process-1.task.csv"),
            Some(Role::MiniBatchCsv {
                node: Some("10.0.0.4".into()),
                process: Some("Process-1".into())
            })
        );
        assert_eq!(
            role("t/logs/sys/worker/10.0.0.4/Process-1.txt"),
            Some(Role::Process {
                node: "10.0.0.4".into(),
                process: "Process-1".into()
            })
        );
        assert_eq!(
            role("t/logs/overview.txt"),
            Some(Role::Overview { key: String::new() })
        );
        assert_eq!(role("elsewhere/x.txt"), None);
    }
}
