//! The child processes of a rehearsal. Each runs in its own process group, so the
//! inference server's gunicorn workers and the harness's worker processes are stopped
//! with it: on return, on a time limit and on Ctrl-C. A rehearsal that leaves a server
//! listening after amldoctor exits would be worse than none.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Mutex, Once};
use std::time::{Duration, Instant};

use rustix::process::{Pid, Signal, kill_process_group, test_kill_process_group};

use crate::error::{Error, Result};

/// The process groups and folders to clean up when the user presses Ctrl-C.
static LIVE: Mutex<Vec<Cleanup>> = Mutex::new(Vec::new());
static HANDLER: Once = Once::new();

#[derive(Debug, Clone, PartialEq, Eq)]
enum Cleanup {
    Group(i32),
    Dir(PathBuf),
}

fn register(c: Cleanup) {
    if let Ok(mut live) = LIVE.lock() {
        live.push(c);
    }
}

fn unregister(c: &Cleanup) {
    if let Ok(mut live) = LIVE.lock() {
        live.retain(|x| x != c);
    }
}

/// Installs the Ctrl-C handler once: it kills every live group, removes the temporary
/// folders and exits with 130, as a shell reports an interrupted command.
fn install_handler() {
    HANDLER.call_once(|| {
        let _ = ctrlc::set_handler(|| {
            let live = LIVE.lock().map(|l| l.clone()).unwrap_or_default();
            for c in &live {
                match c {
                    Cleanup::Group(g) => signal_group(*g, Signal::KILL),
                    Cleanup::Dir(d) => super::super::local::remove_dir(d),
                }
            }
            std::process::exit(130);
        });
    });
}

/// A temporary folder removed on drop and on Ctrl-C (never a folder the user named).
#[derive(Debug)]
pub(crate) struct TempDir {
    pub(crate) path: PathBuf,
}

impl TempDir {
    pub(crate) fn create(command: &str) -> Result<TempDir> {
        install_handler();
        let path = super::super::local::temporary_dir(command);
        std::fs::create_dir_all(&path).map_err(|e| {
            Error::input(format!(
                "cannot create a working folder {}: {e}",
                path.display()
            ))
        })?;
        register(Cleanup::Dir(path.clone()));
        Ok(TempDir { path })
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        super::super::local::remove_dir(&self.path);
        unregister(&Cleanup::Dir(self.path.clone()));
    }
}

fn signal_group(group: i32, signal: Signal) {
    if let Some(pid) = Pid::from_raw(group) {
        let _ = kill_process_group(pid, signal);
    }
}

fn group_alive(group: i32) -> bool {
    Pid::from_raw(group).is_some_and(|pid| test_kill_process_group(pid).is_ok())
}

/// A child process leading its own group, with its output in a log file.
#[derive(Debug)]
pub(crate) struct Group {
    child: Child,
    group: i32,
    pub(crate) started: Instant,
    status: Option<ExitStatus>,
}

impl Group {
    /// Starts `command` in a new process group, stdout and stderr appended to `log`.
    pub(crate) fn spawn(mut command: Command, log: &Path, what: &str) -> Result<Group> {
        install_handler();
        let file = std::fs::File::create(log)
            .map_err(|e| Error::input(format!("cannot create {}: {e}", log.display())))?;
        let err = file
            .try_clone()
            .map_err(|e| Error::input(format!("cannot write {}: {e}", log.display())))?;
        use std::os::unix::process::CommandExt;
        command
            .stdin(Stdio::null())
            .stdout(file)
            .stderr(err)
            .process_group(0);
        let child = command
            .spawn()
            .map_err(|e| Error::input(format!("cannot start {what}: {e}")))?;
        let group = i32::try_from(child.id()).unwrap_or(0);
        register(Cleanup::Group(group));
        Ok(Group {
            child,
            group,
            started: Instant::now(),
            status: None,
        })
    }

    /// Its exit status once it has exited (reaped here).
    pub(crate) fn exited(&mut self) -> Option<ExitStatus> {
        if self.status.is_none() {
            self.status = self.child.try_wait().ok().flatten();
        }
        self.status
    }

    /// Waits until it exits or `deadline` passes; its status when it exited.
    pub(crate) fn wait_until(&mut self, deadline: Instant) -> Option<ExitStatus> {
        loop {
            if let Some(s) = self.exited() {
                return Some(s);
            }
            if Instant::now() >= deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Stops the whole group: SIGTERM, up to `grace` for it to go, then SIGKILL.
    pub(crate) fn stop(&mut self, grace: Duration) {
        signal_group(self.group, Signal::TERM);
        let deadline = Instant::now() + grace;
        while Instant::now() < deadline {
            let _ = self.exited();
            if self.status.is_some() && !group_alive(self.group) {
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        signal_group(self.group, Signal::KILL);
        if self.status.is_none() {
            self.status = self.child.wait().ok();
        }
        unregister(&Cleanup::Group(self.group));
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        if self.status.is_none() || group_alive(self.group) {
            self.stop(Duration::from_secs(2));
        }
    }
}

/// A free TCP port on 127.0.0.1 (the server binds it a moment later).
pub(crate) fn free_port() -> Result<u16> {
    let listener = std::net::TcpListener::bind(("127.0.0.1", 0))
        .map_err(|e| Error::input(format!("cannot find a free port on 127.0.0.1: {e}")))?;
    listener
        .local_addr()
        .map(|a| a.port())
        .map_err(|e| Error::input(format!("cannot find a free port on 127.0.0.1: {e}")))
}

/// The exit code, or the signal that ended it, as a sentence's end.
pub(crate) fn describe_exit(status: ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exited with code {code}"),
        (None, Some(signal)) => format!("was killed by signal {signal}"),
        (None, None) => "exited".to_owned(),
    }
}
