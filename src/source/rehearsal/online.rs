//! `rehearse online`: the real inference server (`azmlinfsrv`) on a free port of
//! 127.0.0.1, with the scoring script and model folder the platform would give it. It
//! waits for the liveness route, reads the schema's sample, sends each request, and
//! stops the server's whole process group, whatever happened.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use super::Interpreter;
use super::http::{self, Answer};
use super::process::{Group, describe_exit, free_port};
use crate::error::Result;

const LAUNCHER: &str = include_str!("../../../assets/rehearse/online_launcher.py");

/// What to run.
#[derive(Debug, Clone)]
pub(crate) struct OnlineSetup<'a> {
    pub(crate) python: &'a Interpreter,
    pub(crate) entry_script: PathBuf,
    pub(crate) model_dir: Option<PathBuf>,
    /// Each request body with the name it is shown by.
    pub(crate) requests: Vec<(String, Vec<u8>)>,
    pub(crate) content_type: String,
    /// Environment variables the deployment sets (`WORKER_COUNT` …).
    pub(crate) env: Vec<(String, String)>,
    /// The most start-up and each request may take.
    pub(crate) timeout: Duration,
    /// Where the launcher and the server log go.
    pub(crate) work_dir: PathBuf,
}

/// What the server did.
#[derive(Debug, Clone)]
pub(crate) struct OnlineOutcome {
    pub(crate) ready: bool,
    pub(crate) startup: Duration,
    pub(crate) exit: Option<String>,
    /// Each request by its name: the answer, or why there was none.
    pub(crate) answers: Vec<(String, std::result::Result<Answer, String>)>,
    pub(crate) log: PathBuf,
}

/// Starts the server, sends the requests, stops it.
pub(crate) fn run(setup: &OnlineSetup<'_>) -> Result<OnlineOutcome> {
    let launcher = super::write_asset(&setup.work_dir, "online_launcher.py", LAUNCHER)?;
    let log = setup.work_dir.join("server.log");
    let port = free_port()?;
    let script_dir = setup
        .entry_script
        .parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    let mut command = Command::new(&setup.python.path);
    command
        .arg(&launcher)
        .arg("--entry_script")
        .arg(&setup.entry_script)
        .arg("--port")
        .arg(port.to_string())
        .current_dir(&script_dir)
        .env("PYTHONUNBUFFERED", "1")
        // No __pycache__ left in the user's project by a rehearsal.
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .env_remove("AZUREML_MODEL_DIR")
        .envs(setup.env.iter().map(|(k, v)| (k, v)));
    if let Some(dir) = &setup.model_dir {
        command
            .arg("--model_dir")
            .arg(dir)
            .env("AZUREML_MODEL_DIR", dir);
    }
    let mut server = Group::spawn(command, &log, "the inference server")?;
    let (ready, exit) = wait_ready(&mut server, port, setup.timeout);
    let startup = server.started.elapsed();
    let mut answers = Vec::new();
    if ready {
        let requests = if setup.requests.is_empty() {
            swagger_sample(port, setup.timeout).into_iter().collect()
        } else {
            setup.requests.clone()
        };
        for (name, body) in requests {
            let answer = http::request(
                port,
                "POST",
                "/score",
                Some((&body, &setup.content_type)),
                setup.timeout,
            );
            answers.push((name, answer));
        }
    }
    server.stop(Duration::from_secs(5));
    Ok(OnlineOutcome {
        ready,
        startup,
        exit,
        answers,
        log,
    })
}

/// Polls `GET /` until it answers 200, the server exits, or `timeout` passes.
fn wait_ready(server: &mut Group, port: u16, timeout: Duration) -> (bool, Option<String>) {
    let deadline = server.started + timeout;
    loop {
        if let Some(status) = server.exited() {
            return (false, Some(describe_exit(status)));
        }
        if let Ok(a) = http::request(port, "GET", "/", None, Duration::from_secs(2))
            && a.status == 200
        {
            return (true, None);
        }
        if Instant::now() >= deadline {
            return (false, None);
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The example input of the script's schema (`/swagger.json`), when it declares one.
fn swagger_sample(port: u16, timeout: Duration) -> Option<(String, Vec<u8>)> {
    let answer = http::request(port, "GET", "/swagger.json", None, timeout).ok()?;
    if answer.status != 200 {
        return None;
    }
    let doc: serde_json::Value = serde_json::from_slice(&answer.body).ok()?;
    let example = doc
        .pointer("/definitions/ServiceInput/example")
        .or_else(|| {
            doc.pointer("/components/schemas/ServiceInput/example")
                .filter(|v| !v.is_null())
        })
        .filter(|v| !is_empty_json(v))?; // a script without a schema gets the server's placeholder `{}`
    Some((
        "swagger sample".to_owned(),
        example.to_string().into_bytes(),
    ))
}

fn is_empty_json(v: &serde_json::Value) -> bool {
    match v {
        serde_json::Value::Null => true,
        serde_json::Value::Object(o) => o.is_empty(),
        serde_json::Value::Array(a) => a.is_empty(),
        serde_json::Value::String(t) => t.is_empty(),
        _ => false,
    }
}
