//! The one integration-test binary: runs the built `amldoctor` and checks stdout,
//! stderr and the exit code, in a sandbox with its own HOME, az config folder and
//! working directory so the developer's machine never leaks in.

// Test helpers panic on purpose: a failed setup step is a failed test.
#![allow(clippy::unwrap_used)]
// The 100-line limit is for src/: a scenario test reads best as one story.
#![allow(clippy::too_many_lines)]

mod architecture;
mod articles;
mod az_commands;
mod check;
mod ci_examples;
mod client_messages;
mod completions;
mod context;
mod diagnose;
mod dns;
mod dns_server;
mod explain;
mod fake_azure;
mod fix_suggestions;
mod fixtures;
mod fleet;
mod help;
mod hostile;
mod injection;
mod layout;
mod lint;
mod live;
mod log_analytics;
mod logs;
mod mcp;
mod names;
mod prs;
mod prs_nodes;
mod prs_perf;
mod readme;
mod rehearse;
mod replicas;
mod reports;
mod rules;
mod sarif;
mod schemas;
mod score;
mod sign_in;
mod wild;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// A throwaway HOME/working directory, removed on drop.
#[derive(Debug)]
pub struct Sandbox {
    pub root: PathBuf,
    vars: Vec<(String, String)>,
}

impl Sandbox {
    pub fn new(name: &str) -> Sandbox {
        let root =
            std::env::temp_dir().join(format!("amldoctor-cli-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("home/.azure")).unwrap();
        std::fs::create_dir_all(root.join("work")).unwrap();
        Sandbox {
            root,
            vars: Vec::new(),
        }
    }

    pub fn home(&self) -> PathBuf {
        self.root.join("home")
    }

    pub fn work(&self) -> PathBuf {
        self.root.join("work")
    }

    pub fn write(&self, relative: &str, contents: &str) -> PathBuf {
        let path = self.root.join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, contents).unwrap();
        path
    }

    pub fn env(mut self, key: &str, value: &str) -> Sandbox {
        self.vars.push((key.to_owned(), value.to_owned()));
        self
    }

    pub fn command(&self, args: &[&str]) -> Command {
        self.command_in(&self.work(), args)
    }

    pub fn command_in(&self, dir: &Path, args: &[&str]) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_amldoctor"));
        cmd.args(args)
            .current_dir(dir)
            .env_clear()
            .env("HOME", self.home())
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            // DNS lookups never leave this machine: the "system" resolver is a server
            // here that refuses every name.
            .env(
                "AMLDOCTOR_SYSTEM_RESOLVER",
                dns_server::refusing().to_string(),
            )
            .stdin(Stdio::null());
        for (k, v) in &self.vars {
            cmd.env(k, v);
        }
        cmd
    }

    pub fn run(&self, args: &[&str]) -> Run {
        Run::from(self.command(args).output().unwrap())
    }

    /// `diagnose ARGS… -o json --fail-on never`, which must exit 0: the parsed document.
    pub fn diagnose_json(&self, args: &[&str]) -> serde_json::Value {
        let mut full = vec!["diagnose"];
        full.extend_from_slice(args);
        full.extend(["-o", "json", "--fail-on", "never"]);
        self.run(&full).ok().json()
    }

    /// Runs with stdout closed before the child writes (as `| head -0` would): the exit
    /// code and what went to stderr.
    pub fn run_with_closed_stdout(&self, args: &[&str]) -> (Option<i32>, String) {
        use std::io::Read;
        let mut child = self
            .command(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let mut stderr = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut stderr)
            .unwrap();
        (child.wait().unwrap().code(), stderr)
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// A finished run with its output decoded.
#[derive(Debug)]
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl From<Output> for Run {
    fn from(o: Output) -> Run {
        Run {
            code: o.status.code().expect("exited normally, not by a signal"),
            stdout: String::from_utf8(o.stdout).unwrap(),
            stderr: String::from_utf8(o.stderr).unwrap(),
        }
    }
}

impl Run {
    pub fn ok(&self) -> &Run {
        assert_eq!(
            self.code, 0,
            "stdout:\n{}\nstderr:\n{}",
            self.stdout, self.stderr
        );
        self
    }

    /// Exit 2, nothing on stdout, and an error line on stderr mentioning each needle.
    pub fn usage_error(&self, needles: &[&str]) -> &Run {
        assert_eq!(
            self.code, 2,
            "stdout:\n{}\nstderr:\n{}",
            self.stdout, self.stderr
        );
        assert_eq!(self.stdout, "", "nothing on stdout for an error");
        assert!(
            self.stderr.starts_with("error: "),
            "stderr: {}",
            self.stderr
        );
        for n in needles {
            assert!(
                self.stderr.contains(n),
                "stderr lacks {n:?}:\n{}",
                self.stderr
            );
        }
        assert!(!self.stderr.contains("panicked"), "{}", self.stderr);
        self
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| panic!("{e}: {}", self.stdout))
    }
}

/// The finding of rule `id` in a JSON report (the test fails when there is none).
pub(crate) fn finding<'a>(v: &'a serde_json::Value, id: &str) -> &'a serde_json::Value {
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule_id"] == id)
        .unwrap_or_else(|| panic!("no {id} in {v}"))
}

/// The rule ids of a JSON report's findings, in report order.
pub(crate) fn rule_ids(v: &serde_json::Value) -> Vec<String> {
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["rule_id"].as_str().unwrap().to_owned())
        .collect()
}

pub fn fixture(relative: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(relative)
        .to_string_lossy()
        .into_owned()
}

/// Table output with each command broken over lines (` \\` continuations) joined back
/// into the one line a shell reads.
/// Output with every run of whitespace made one space, so a phrase is found
/// wherever the layout broke its line (paths differ in length between machines).
pub fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

pub fn joined(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        match line.strip_suffix(" \\") {
            Some(head) if lines.peek().is_some() => {
                out.push_str(head);
                out.push(' ');
                if let Some(next) = lines.peek_mut() {
                    *next = next.trim_start();
                }
            }
            _ => {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    out
}

/// Asserts `actual` against the insta snapshot `tests/snapshots/{dir}/{name}.snap`
/// (`dir` may be empty). `INSTA_UPDATE=always cargo test --test cli` rewrites a changed
/// one; without it a changed snapshot fails with the diff and leaves `.snap.new` beside it.
pub fn assert_snapshot(dir: &str, name: &str, actual: &str) {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/snapshots")
            .join(dir),
    );
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings.bind(|| insta::assert_snapshot!(name, actual));
}

/// The content of the snapshot `tests/snapshots/{name}.snap`, without insta's header.
pub fn snapshot_content(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/snapshots")
        .join(format!("{name}.snap"));
    let text = std::fs::read_to_string(&path).unwrap();
    let body = text
        .strip_prefix("---\n")
        .and_then(|rest| rest.split_once("\n---\n"))
        .map_or(text.as_str(), |(_, body)| body);
    body.to_owned()
}

/// A file generated from the code and checked in (completions, rule and design docs,
/// the report schema): fails when `path` does not hold `fresh`, and rewrites it under
/// `AMLDOCTOR_UPDATE_GENERATED=1`.
pub fn assert_generated(path: &Path, fresh: &[u8]) {
    if std::env::var_os("AMLDOCTOR_UPDATE_GENERATED").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, fresh).unwrap();
    }
    assert!(
        std::fs::read(path).ok().as_deref() == Some(fresh),
        "{} is stale; run AMLDOCTOR_UPDATE_GENERATED=1 cargo test --test cli and review the diff",
        path.display()
    );
}
