//! `amldoctor rehearse` driving the real runtime: the inference server
//! (azureml-inference-server-http) and pandas from the virtual environment
//! `.ci/python-env` creates in target/rehearse-venv (or AMLDOCTOR_TEST_PYTHON). Each
//! fixture project under tests/fixtures/rehearse must give its finding; the server must
//! listen on 127.0.0.1 only, and no child process may outlive the command.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{Run, Sandbox};

fn python() -> String {
    if let Some(p) = std::env::var_os("AMLDOCTOR_TEST_PYTHON") {
        return p.to_string_lossy().into_owned();
    }
    let venv = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/rehearse-venv/bin/python");
    assert!(
        venv.exists(),
        "the rehearse tests drive the real inference server: run .ci/python-env first (it creates {})",
        venv.display()
    );
    venv.display().to_string()
}

fn fixture(relative: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/rehearse")
        .join(relative)
        .display()
        .to_string()
}

fn rehearse(sandbox: &Sandbox, args: &[&str]) -> (Run, Value) {
    let py = python();
    let mut full = vec!["rehearse"];
    full.extend_from_slice(args);
    full.extend(["--python", &py, "-o", "json"]);
    let run = sandbox.run(&full);
    assert!(
        run.code == 0 || run.code == 1,
        "exit {}: {}",
        run.code,
        run.stderr
    );
    let doc: Value =
        serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{e}: {}", run.stdout));
    (run, doc)
}

fn ids(doc: &Value) -> Vec<String> {
    doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["rule_id"].as_str().unwrap().to_owned())
        .collect()
}

fn online(name: &str, extra: &[&str]) -> (Run, Value) {
    let sandbox = Sandbox::new(&format!("rehearse-online-{name}"));
    let script = fixture(&format!("online/{name}/score.py"));
    let mut args = vec!["online", "--entry-script", &script];
    args.extend_from_slice(extra);
    rehearse(&sandbox, &args)
}

#[test]
fn a_healthy_scoring_script_is_ready_and_answers_its_schema_sample_and_data() {
    let model = fixture("online-model");
    let data = fixture("online/healthy/request.json");
    let (run, doc) = online("healthy", &["--model-dir", &model, "--data", &data]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    let r = &doc["rehearsal"];
    assert_eq!(r["startup"]["ready"], true);
    assert!(r["server_version"].as_str().is_some_and(|v| !v.is_empty()));
    assert_eq!(r["requests"][0]["status"], 200);
    assert_eq!(r["requests"][0]["body_start"], "[4.1, 1.475]");
    assert!(
        ids(&doc).contains(&"rehearse-online-ready".to_owned()),
        "{:?}",
        ids(&doc)
    );
    // Without --data the schema's sample is sent.
    let (_, doc) = online("healthy", &["--model-dir", &model]);
    assert_eq!(doc["rehearsal"]["requests"][0]["input"], "swagger sample");
    assert_eq!(doc["rehearsal"]["requests"][0]["status"], 200);
}

#[test]
fn each_broken_scoring_script_gets_its_finding() {
    let model = fixture("online-model");
    let cases: &[(&str, bool, &[&str])] = &[
        (
            "missing-module",
            true,
            &["rehearse-server-not-started", "python-module-not-found"],
        ),
        (
            "init-raises",
            true,
            &["rehearse-server-not-started", "user-init-failed"],
        ),
        (
            "no-model-dir",
            false,
            &["rehearse-server-not-started", "rehearse-model-dir-missing"],
        ),
        (
            "needs-azure",
            false,
            &["rehearse-server-not-started", "rehearse-init-needs-azure"],
        ),
    ];
    for (name, with_model, want) in cases {
        let extra: Vec<&str> = if *with_model {
            vec!["--model-dir", &model]
        } else {
            Vec::new()
        };
        let (run, doc) = online(name, &extra);
        assert_eq!(run.code, 1, "{name}: {}", run.stdout);
        let got = ids(&doc);
        for id in *want {
            assert!(got.iter().any(|g| g == id), "{name}: {id} not in {got:?}");
        }
        assert_eq!(doc["rehearsal"]["startup"]["ready"], false, "{name}");
        assert!(!got.contains(&"rehearse-online-ready".to_owned()), "{name}");
    }
}

#[test]
fn run_raising_on_the_request_is_a_424_to_the_caller() {
    let model = fixture("online-model");
    let data = fixture("online/run-raises/request.json");
    let (run, doc) = online("run-raises", &["--model-dir", &model, "--data", &data]);
    assert_eq!(run.code, 1);
    let req = &doc["rehearsal"]["requests"][0];
    assert_eq!(
        (req["status"].as_u64(), req["caller_status"].as_u64()),
        (Some(500), Some(424))
    );
    assert_eq!(req["run_function_failed"], true);
    let got = ids(&doc);
    assert!(
        got.contains(&"rehearse-request-failed".to_owned()),
        "{got:?}"
    );
    assert!(got.contains(&"user-run-exception".to_owned()), "{got:?}");
}

#[test]
fn a_slow_init_is_judged_against_the_deployment_files_probes() {
    let sandbox = Sandbox::new("rehearse-online-slow");
    let dep = fixture("online/slow-init/deployment.yml");
    let (run, doc) = rehearse(&sandbox, &["online", "--deployment-file", &dep]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    let startup = &doc["rehearsal"]["startup"];
    assert_eq!(startup["ready"], true);
    assert_eq!(startup["budget"]["millis"], 4000);
    assert!(startup["millis"].as_u64().unwrap() > 4000);
    assert_eq!(doc["rehearsal"]["environment"][0], "WORKER_COUNT");
    let got = ids(&doc);
    assert!(
        got.contains(&"rehearse-startup-over-probe-budget".to_owned()),
        "{got:?}"
    );
    // The deployment file names the endpoint and deployment the printed commands need.
    let commands = doc["findings"].to_string();
    assert!(commands.contains("-e slow-ep -n blue"), "{commands}");
    assert!(!commands.contains("<endpoint>"), "{commands}");
    // Neither --data nor a schema: run() was not tried, and the report says so.
    assert!(got.contains(&"rehearse-no-request".to_owned()), "{got:?}");
}

#[test]
fn a_request_slower_than_request_timeout_ms_is_a_408_to_the_caller() {
    let sandbox = Sandbox::new("rehearse-online-slow-run");
    let dep = fixture("online/slow-run/deployment.yml");
    let data = fixture("online/slow-run/request.json");
    let (run, doc) = rehearse(
        &sandbox,
        &["online", "--deployment-file", &dep, "--data", &data],
    );
    assert_eq!(run.code, 1, "{}", run.stdout);
    let req = &doc["rehearsal"]["requests"][0];
    assert_eq!(
        (req["status"].as_u64(), req["caller_status"].as_u64()),
        (Some(200), Some(408))
    );
    assert!(ids(&doc).contains(&"rehearse-request-over-timeout".to_owned()));
    let f = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule_id"] == "rehearse-request-over-timeout")
        .unwrap();
    assert!(
        f["facts"]["request_timeout"]
            .as_str()
            .unwrap()
            .contains("250 ms (the deployment file's)"),
        "{f}"
    );
}

/// The listening sockets of `port` in a copy of /proc/net/tcp (hex address:port, state 0A).
fn listeners(table: &str, port: u16) -> Vec<String> {
    table
        .lines()
        .skip(1)
        .filter_map(|l| {
            let cols: Vec<&str> = l.split_whitespace().collect();
            let (addr, p) = cols.get(1)?.split_once(':')?;
            (u16::from_str_radix(p, 16).ok()? == port && cols.get(3)? == &"0A")
                .then(|| addr.to_owned())
        })
        .collect()
}

#[test]
fn the_server_listens_on_loopback_only_and_leaves_no_process_behind() {
    let sandbox = Sandbox::new("rehearse-online-contained");
    let pids = sandbox.root.join("pids");
    std::fs::create_dir_all(&pids).unwrap();
    let sandbox = sandbox.env("AMLDOCTOR_FIXTURE_PID_DIR", &pids.display().to_string());
    let out = sandbox.root.join("out");
    let (script, model, out_s) = (
        fixture("online/healthy/score.py"),
        fixture("online-model"),
        out.display().to_string(),
    );
    let (run, _) = rehearse(
        &sandbox,
        &[
            "online",
            "--entry-script",
            &script,
            "--model-dir",
            &model,
            "--out",
            &out_s,
        ],
    );
    assert_eq!(run.code, 0);
    let log = std::fs::read_to_string(out.join("server.log")).unwrap();
    let at = log
        .find("Listening at: http://127.0.0.1:")
        .expect("the server says where it listens");
    let port: u16 = log[at + "Listening at: http://127.0.0.1:".len()..]
        .split(|c: char| !c.is_ascii_digit())
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let v4 = std::fs::read_to_string(pids.join("tcp")).unwrap();
    assert_eq!(
        listeners(&v4, port),
        ["0100007F"],
        "listening on 127.0.0.1 only"
    );
    if let Ok(v6) = std::fs::read_to_string(pids.join("tcp6")) {
        assert!(listeners(&v6, port).is_empty(), "nothing on IPv6");
    }
    assert_no_survivors(&pids);
}

/// Every pid the fixture recorded is gone (or a zombie its parent has not reaped).
fn assert_no_survivors(dir: &Path) {
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Ok(pid) = name.parse::<u32>() else {
            continue;
        };
        seen += 1;
        if let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            let state = stat
                .rsplit(')')
                .next()
                .unwrap_or("")
                .split_whitespace()
                .next();
            assert_eq!(
                state,
                Some("Z"),
                "process {pid} outlived the rehearsal: {stat}"
            );
        }
    }
    assert!(seen >= 2, "the fixture recorded the server's pids");
}

#[test]
fn without_the_server_package_one_sentence_names_it_and_the_pip_command() {
    let sandbox = Sandbox::new("rehearse-no-runtime");
    let script = fixture("online/healthy/score.py");
    let run = sandbox.run(&[
        "rehearse",
        "online",
        "--entry-script",
        &script,
        "--python",
        "/usr/bin/python3",
    ]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("azureml-inference-server-http"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains("/usr/bin/python3 -m pip install azureml-inference-server-http"),
        "{}",
        run.stderr
    );
    assert!(run.stdout.is_empty());
    let run = sandbox.run(&[
        "rehearse",
        "online",
        "--entry-script",
        "nope.py",
        "--python",
        &python(),
    ]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("--entry-script nope.py: no such file"),
        "{}",
        run.stderr
    );
}

fn parallel(name: &str, extra: &[&str]) -> (Run, Value) {
    let sandbox = Sandbox::new(&format!("rehearse-parallel-{name}"));
    let script = fixture(&format!("parallel/{name}/score.py"));
    let files = fixture("parallel-inputs/files");
    let mut args = vec![
        "parallel",
        "--entry-script",
        &script,
        "--input",
        &files,
        "--mini-batch-size",
        "2",
    ];
    args.extend_from_slice(extra);
    rehearse(&sandbox, &args)
}

fn outcomes(doc: &Value) -> Vec<String> {
    doc["rehearsal"]["mini_batches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["outcome"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn a_healthy_entry_script_over_files_and_over_a_table_passes() {
    let (run, doc) = parallel("healthy", &["--arg=--threshold=2"]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert_eq!(outcomes(&doc), ["succeeded"; 4]);
    assert!(ids(&doc).contains(&"rehearse-parallel-ready".to_owned()));
    assert_eq!(doc["prs"][0]["items"]["succeeded"], 7, "{}", doc["prs"]);
    let sandbox = Sandbox::new("rehearse-parallel-tabular");
    let (script, table) = (
        fixture("parallel/tabular/score.py"),
        fixture("parallel-inputs/tables/customers.csv"),
    );
    let (run, doc) = rehearse(
        &sandbox,
        &[
            "parallel",
            "--entry-script",
            &script,
            "--input",
            &table,
            "--input-type",
            "tabular",
            "--mini-batch-size",
            "4KB",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stdout);
    let batches = doc["rehearsal"]["mini_batches"].as_array().unwrap();
    assert!(
        batches.len() >= 2,
        "4KB of a 7KB table is cut in two or more"
    );
    let rows: u64 = batches.iter().map(|b| b["results"].as_u64().unwrap()).sum();
    assert_eq!(rows, 300);
}

#[test]
fn tabular_inputs_in_parquet_and_json_lines_become_data_frames() {
    let sandbox = Sandbox::new("rehearse-parallel-formats");
    let csv = fixture("parallel-inputs/tables/customers.csv");
    let dir = sandbox.root.join("tables");
    std::fs::create_dir_all(&dir).unwrap();
    // The real pandas and pyarrow write the files the platform would hand over.
    let convert = format!(
        "import pandas as pd; d = pd.read_csv({csv:?}); d.to_parquet({:?}); d.head(40).to_json({:?}, orient='records', lines=True)",
        dir.join("part-0.parquet"),
        dir.join("part-1.jsonl")
    );
    assert!(
        std::process::Command::new(python())
            .args(["-c", &convert])
            .status()
            .unwrap()
            .success()
    );
    let (script, tables) = (
        fixture("parallel/tabular/score.py"),
        dir.display().to_string(),
    );
    let (run, doc) = rehearse(
        &sandbox,
        &[
            "parallel",
            "--entry-script",
            &script,
            "--input",
            &tables,
            "--input-type",
            "tabular",
            "--mini-batch-size",
            "100",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stdout);
    let batches = doc["rehearsal"]["mini_batches"].as_array().unwrap();
    let rows: u64 = batches.iter().map(|b| b["results"].as_u64().unwrap()).sum();
    assert_eq!(rows, 340, "300 Parquet rows and 40 JSON lines");
    assert!(
        batches
            .iter()
            .any(|b| b["detail"].as_str().unwrap().starts_with("part-1.jsonl"))
    );
}

#[test]
fn each_broken_entry_script_gets_the_finding_a_cloud_run_would() {
    let cases: &[(&str, &[&str], &str, &str)] = &[
        (
            "fewer-results",
            &[],
            "prs-fewer-results-than-inputs",
            "fewer-results",
        ),
        ("init-race", &[], "prs-init-folder-exists", "succeeded"),
        ("run-raises", &[], "prs-run-exception", "failed"),
        (
            "timeout",
            &["--run-invocation-timeout", "2"],
            "prs-run-timeout",
            "timed-out",
        ),
        ("no-run", &[], "prs-entry-script-run-missing", "failed"),
    ];
    for (name, extra, id, outcome) in cases {
        let (_, doc) = parallel(name, extra);
        let got = ids(&doc);
        assert!(got.iter().any(|g| g == id), "{name}: {id} not in {got:?}");
        assert!(
            outcomes(&doc).iter().any(|o| o == outcome),
            "{name}: {:?}",
            outcomes(&doc)
        );
        assert!(
            !got.contains(&"rehearse-parallel-ready".to_owned()),
            "{name}"
        );
        assert!(
            !got.contains(&"prs-oom-killed".to_owned()),
            "{name}: a timeout kill is not an OOM"
        );
    }
}

#[test]
fn the_whole_run_limit_stops_the_harness_and_says_so() {
    let started = std::time::Instant::now();
    let (run, doc) = parallel(
        "timeout",
        &["--run-invocation-timeout", "600", "--timeout", "4s"],
    );
    assert_eq!(run.code, 1);
    assert!(
        started.elapsed() < std::time::Duration::from_secs(60),
        "the limit was kept"
    );
    assert!(
        ids(&doc).contains(&"rehearse-stopped".to_owned()),
        "{:?}",
        ids(&doc)
    );
    assert!(
        doc["rehearsal"]["stopped"]
            .as_str()
            .unwrap()
            .contains("--timeout (4 s)")
    );
}

#[test]
fn ctrl_c_stops_every_worker_and_removes_the_working_folder() {
    let sandbox = Sandbox::new("rehearse-parallel-ctrl-c");
    let pids = sandbox.root.join("pids");
    std::fs::create_dir_all(&pids).unwrap();
    let sandbox = sandbox.env("AMLDOCTOR_FIXTURE_PID_DIR", &pids.display().to_string());
    let (script, files, py) = (
        fixture("parallel/timeout/score.py"),
        fixture("parallel-inputs/files"),
        python(),
    );
    let mut child = sandbox
        .command(&[
            "rehearse",
            "parallel",
            "--entry-script",
            &script,
            "--input",
            &files,
            "--mini-batch-size",
            "2",
            "--run-invocation-timeout",
            "600",
            "--python",
            &py,
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Both workers have run init() (the hung mini-batch is then in run()).
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while std::fs::read_dir(&pids).unwrap().count() < 2 {
        assert!(
            std::time::Instant::now() < deadline,
            "the workers never started"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    std::thread::sleep(std::time::Duration::from_millis(500));
    let status = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let code = child.wait().unwrap().code();
    assert_eq!(
        code,
        Some(130),
        "a Ctrl-C exits as an interrupted command does"
    );
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert_no_survivors(&pids);
    let temp = std::env::temp_dir();
    let prefix = format!("amldoctor-rehearse-{}-", child.id());
    let left = std::fs::read_dir(temp)
        .unwrap()
        .flatten()
        .any(|e| e.file_name().to_string_lossy().starts_with(&prefix));
    assert!(!left, "the temporary working folder was removed");
}

#[test]
fn a_job_file_gives_the_entry_script_arguments_and_settings() {
    let sandbox = Sandbox::new("rehearse-parallel-job");
    let job = fixture("parallel/job-file/parallel-job.yml");
    let files = fixture("parallel-inputs/files");
    let out = sandbox.root.join("out").display().to_string();
    let (run, doc) = rehearse(
        &sandbox,
        &[
            "parallel",
            "--job-file",
            &job,
            "--input",
            &files,
            "--out",
            &out,
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stdout);
    let settings = doc["rehearsal"]["settings"].to_string();
    for want in [
        "mini_batch_size 3 (job file)",
        "3 worker processes (job file)",
        "run_invocation_timeout 30 s (job file)",
        "2 tries",
        "error threshold 5 (job file",
        "program arguments: --threshold 2",
    ] {
        assert!(settings.contains(want), "{want} not in {settings}");
    }
    assert_eq!(
        doc["rehearsal"]["mini_batches"].as_array().unwrap().len(),
        3
    );
    // The tree is kept, in the driver's layout, and says the threshold came through.
    let entry_log = PathBuf::from(&out).join("logs/user/entry_script_log/0/process000.log.txt");
    assert!(
        std::fs::read_to_string(entry_log)
            .unwrap()
            .contains("init() read threshold 2.0")
    );
    let next = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule_id"] == "rehearse-parallel-ready")
        .unwrap();
    assert!(
        next["commands"][0]
            .as_str()
            .unwrap()
            .starts_with(&format!("az ml job create -f {job}")),
        "{next}"
    );
}
