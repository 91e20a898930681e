//! `amldoctor diagnose` on local inputs: output, gate exit codes, bad inputs.

use std::io::Write;
use std::process::Stdio;

use crate::{Run, Sandbox, fixture};

const FLASK2: &str = "logs/server-0.4.13-old-image-flask2.log";

#[test]
fn main_job_example_reports_cause_before_symptom() {
    let sb = Sandbox::new("diag-main");
    let run = sb.run(&["diagnose", &fixture(FLASK2)]);
    assert_eq!(run.code, 1, "errors fail the default gate: {}", run.stderr);
    assert_eq!(run.stderr, "");
    let out = &run.stdout;
    let cause = out.find("error[flask2-register-typeerror]").expect(out);
    let symptom = out.find("error[gunicorn-worker-boot-failed]").expect(out);
    assert!(cause < symptom, "cause first:\n{out}");
    assert!(
        out.contains("symptom of: flask2-register-typeerror"),
        "{out}"
    );
    assert!(
        out.contains("TypeError: register() takes 3 positional arguments but 4 were given"),
        "{out}"
    );
    assert!(
        out.contains("server-0.4.13-old-image-flask2.log:"),
        "evidence has path:line:\n{out}"
    );
    assert!(
        crate::flat(out).contains("inference-server (detected)"),
        "{out}"
    );
    assert!(out.contains("gate failed (--fail-on error)"), "{out}");
}

#[test]
fn json_output_snapshot() {
    let sb = Sandbox::new("diag-json");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let run = Run::from(
        sb.command_in(
            root,
            &[
                "diagnose",
                &format!("tests/fixtures/{FLASK2}"),
                "-o",
                "json",
            ],
        )
        .output()
        .unwrap(),
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    let v = run.json();
    assert_eq!(v["schema_version"], 1);
    assert_eq!(v["command"], "diagnose");
    assert_eq!(v["inputs"][0]["kind"], "inference-server");
    assert_eq!(v["inputs"][0]["kind_source"], "detected");
    let mut actual = serde_json::to_string_pretty(&v).unwrap();
    actual.push('\n');
    super::assert_snapshot("", "diagnose-flask2.json", &actual);
}

#[test]
fn fail_on_sets_the_exit_code() {
    let sb = Sandbox::new("diag-gate");
    let flask = fixture(FLASK2);
    let healthy = fixture("logs/server-0.6.1-healthy.log");
    for (args, code) in [
        (vec![flask.as_str()], 1),
        (vec![flask.as_str(), "--fail-on", "error"], 1),
        (vec![flask.as_str(), "--fail-on", "never"], 0),
        (vec![healthy.as_str()], 0),
        // A healthy start-up's advice about its old server is info, not a warning.
        (vec![healthy.as_str(), "--fail-on", "warning"], 0),
        (vec![healthy.as_str(), "--fail-on", "info"], 1),
        (vec![healthy.as_str(), "--fail-on", "never"], 0),
    ] {
        let mut full = vec!["diagnose"];
        full.extend(args.iter().copied());
        let run = sb.run(&full);
        assert_eq!(run.code, code, "{args:?}: {}", run.stderr);
    }
    sb.run(&["diagnose", &flask, "--fail-on", "sometimes"])
        .usage_error(&["--fail-on"]);
}

#[test]
fn stdin_and_forced_kind() {
    let sb = Sandbox::new("diag-stdin");
    let mut child = sb
        .command(&["diagnose", "-", "-o", "json", "--fail-on", "never"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"ERROR: (None) ResourceNotReady: User container has crashed or terminated: Liveness probe failed: HTTP probe failed with statuscode: 502.\nCode: None\n")
        .unwrap();
    let run = Run::from(child.wait_with_output().unwrap());
    let v = run.ok().json();
    assert_eq!(v["inputs"][0]["path"], "<stdin>");
    assert_eq!(v["inputs"][0]["kind"], "cli");
    let ids: Vec<&str> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["rule_id"].as_str().unwrap())
        .collect();
    assert!(ids.contains(&"resource-not-ready"), "{ids:?}");
    assert_eq!(v["findings"][0]["evidence"][0]["path"], "<stdin>");

    let path = sb.write("work/plain.txt", "Reason: Worker failed to boot.\n");
    let v = sb.diagnose_json(&[path.to_str().unwrap(), "--kind", "inference-server"]);
    assert_eq!(v["inputs"][0]["kind"], "inference-server");
    assert_eq!(v["inputs"][0]["kind_source"], "forced");
}

#[test]
fn nothing_matched_shows_the_last_error_lines() {
    use std::fmt::Write as _;
    let sb = Sandbox::new("diag-nothing");
    // A handled error, then an hour of normal work: nothing failed.
    let mut log = String::from(
        "2025-01-01 10:00:00,000 I [1] azmlinfsrv - starting\nValueError: could not convert string to float: 'abc'\n",
    );
    for i in 0..60 {
        let _ = writeln!(
            log,
            "2025-01-01 10:{:02}:00,000 I [1] azmlinfsrv - 200 POST /score",
            i % 60
        );
    }
    let path = sb.write("work/app.log", &log);
    let run = sb.run(&["diagnose", path.to_str().unwrap()]);
    let out = &run.ok().stdout;
    assert!(out.contains("No known problem found in 1 input"), "{out}");
    assert!(
        out.contains("app.log:2\n    ValueError: could not convert string to float: 'abc'"),
        "{out}"
    );
    let v = sb
        .run(&["diagnose", path.to_str().unwrap(), "-o", "json"])
        .ok()
        .json();
    assert_eq!(v["last_error_lines"][0]["line"], 2);
    assert_eq!(v["summary"]["errors"], 0);
}

#[test]
fn a_log_that_ends_in_an_error_no_rule_knows_is_an_unrecognised_failure() {
    let sb = Sandbox::new("diag-unrecognised");
    let path = sb.write(
        "work/app.log",
        "2025-01-01 10:00:00,000 I [1] azmlinfsrv - starting\nTraceback (most recent call last):\n  File \"/var/azureml-app/score.py\", line 9, in init\n    model.cuda()\nRuntimeError: CUDA error: no kernel image is available for execution on the device\n",
    );
    let v = sb.diagnose_json(&[path.to_str().unwrap()]);
    let f = &v["findings"][0];
    assert_eq!(f["rule_id"], "unrecognised-failure", "{v}");
    // A log that ends in a failure fails the default gate: never "0 errors, gate passed".
    assert_eq!(f["severity"], "error");
    let gate = sb.run(&["diagnose", path.to_str().unwrap()]);
    assert_eq!(gate.code, 1, "{}", gate.stdout);
    assert_eq!(
        f["facts"]["last_error"],
        "RuntimeError: CUDA error: no kernel image is available for execution on the device"
    );
    assert_eq!(f["evidence"].as_array().unwrap().last().unwrap()["line"], 5);
    assert!(
        f["commands"][0]
            .as_str()
            .unwrap()
            .starts_with("az ml online-deployment get-logs"),
        "{f}"
    );
    // A healthy log with a deprecation warning at the end stays clean.
    let healthy = sb.write(
        "work/ok.log",
        "2025-01-01 10:00:00,000 I [1] azmlinfsrv - starting\n2025-01-01 10:00:01,000 W [1] py.warnings - DeprecationWarning: pkg_resources is deprecated\n2025-01-01 10:00:02,000 I [1] azmlinfsrv - 200 GET /\n",
    );
    let v = sb.diagnose_json(&[healthy.to_str().unwrap()]);
    assert!(
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .all(|f| f["rule_id"] != "unrecognised-failure"),
        "{v}"
    );
}

#[test]
fn bad_inputs() {
    let sb = Sandbox::new("diag-bad");
    // A missing path: exit 2, named on stderr; nothing analysed.
    let run = sb.run(&["diagnose", "no-such.log"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("error: cannot analyse no-such.log: no such file or directory"),
        "{}",
        run.stderr
    );

    // A missing path next to a good one: the good one is still analysed, exit 2.
    let good = sb.write("work/good.log", "Reason: Worker failed to boot.\n");
    let run = sb.run(&[
        "diagnose",
        good.to_str().unwrap(),
        "no-such.log",
        "-o",
        "json",
    ]);
    assert_eq!(run.code, 2);
    let v = run.json();
    assert_eq!(v["not_analysed"][0]["path"], "no-such.log");
    assert_eq!(v["findings"][0]["rule_id"], "gunicorn-worker-boot-failed");

    // A directory without files.
    std::fs::create_dir_all(sb.work().join("empty")).unwrap();
    let run = sb.run(&["diagnose", sb.work().join("empty").to_str().unwrap()]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("the directory contains no files"),
        "{}",
        run.stderr
    );

    // A binary file alone: not analysed, exit 2; next to a log: a note.
    let bin = sb.root.join("work/model.pkl");
    std::fs::write(&bin, b"\x80\x04\x95\x00\x00binary").unwrap();
    let run = sb.run(&["diagnose", bin.to_str().unwrap()]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("none of the inputs could be analysed"),
        "{}",
        run.stderr
    );
    // Nothing analysed: no report on stdout, the reason on stderr.
    assert_eq!(run.stdout, "");
    assert!(
        run.stderr.contains("not analysed: binary file"),
        "{}",
        run.stderr
    );
    let run = sb.run(&[
        "diagnose",
        bin.to_str().unwrap(),
        good.to_str().unwrap(),
        "--fail-on",
        "never",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);

    // Invalid UTF-8 is analysed.
    let latin1 = sb.root.join("work/latin1.log");
    std::fs::write(
        &latin1,
        b"Mod\xe8le charg\xe9\nReason: Worker failed to boot.\n",
    )
    .unwrap();
    let v = sb.diagnose_json(&[latin1.to_str().unwrap()]);
    assert_eq!(v["inputs"][0]["lines"], 2);
    assert_eq!(v["findings"][0]["evidence"][0]["line"], 2);
    // An empty file or empty standard input is nothing to analyse: exit 2, no report
    // (a failed `az … | amldoctor diagnose -` must not look healthy).
    let empty = sb.write("work/empty.log", "");
    let run = sb.run(&["diagnose", empty.to_str().unwrap()]);
    assert_eq!(run.code, 2);
    assert_eq!(run.stdout, "");
    assert!(
        run.stderr
            .contains("empty.log: it is empty: nothing to analyse"),
        "{}",
        run.stderr
    );
    let run = sb.run(&["diagnose", "-"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("cannot analyse <stdin>: it is empty"),
        "{}",
        run.stderr
    );
    // Next to a log, an empty file named on the command line is still an error.
    let run = sb.run(&[
        "diagnose",
        latin1.to_str().unwrap(),
        empty.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 2, "{}", run.stderr);
}

#[test]
fn a_fifty_megabyte_line() {
    let sb = Sandbox::new("diag-long");
    let path = sb.root.join("work/long.log");
    let mut f = std::fs::File::create(&path).unwrap();
    f.write_all(b"start\n").unwrap();
    let chunk = vec![b'a'; 1 << 20];
    for _ in 0..50 {
        f.write_all(&chunk).unwrap();
    }
    f.write_all(b" Reason: Worker failed to boot.\nend\n")
        .unwrap();
    drop(f);
    let v = sb.diagnose_json(&[path.to_str().unwrap()]);
    assert_eq!(v["inputs"][0]["lines"], 3);
    assert_eq!(v["inputs"][0]["long_lines"], 1);
    assert_eq!(v["findings"][0]["rule_id"], "gunicorn-worker-boot-failed");
    assert_eq!(v["findings"][0]["evidence"][0]["line"], 2);
    assert!(
        v["findings"][0]["evidence"][0]["text"]
            .as_str()
            .unwrap()
            .len()
            <= 400
    );
}

#[test]
fn broken_user_rules_exit_2_naming_file_rule_and_key() {
    let sb = Sandbox::new("diag-userrules");
    sb.write(
        "work/team-rules/bad.yaml",
        "id: team-oom\ntitle: OOM\nseverity: error\nfamily: inference-server\nmatch:\n  any: ['(out of memory']\nremediation: x\nexamples:\n  match: ['out of memory']\n  no-match: ['fine']\n",
    );
    let good = sb.write("work/good.log", "fine\n");
    let rules = sb.work().join("team-rules");
    sb.run(&[
        "diagnose",
        good.to_str().unwrap(),
        "--rules",
        rules.to_str().unwrap(),
    ])
    .usage_error(&["bad.yaml: rule 'team-oom': match.any[0]: invalid regex"]);

    sb.write(
        "work/team-rules/bad.yaml",
        "id: team-oom\ntitle: CUDA out of memory\nseverity: error\nfamily: inference-server\nmatch:\n  any: ['CUDA out of memory\\. Tried to allocate (?P<amount>[\\d.]+ [GM]iB)']\nremediation: Use a larger GPU SKU.\nexamples:\n  match: ['torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB']\n  no-match: ['CUDA available: True']\n",
    );
    let log = sb.write(
        "work/gpu.log",
        "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n",
    );
    let v = sb
        .run(&[
            "diagnose",
            log.to_str().unwrap(),
            "--rules",
            rules.to_str().unwrap(),
            "-o",
            "json",
        ])
        .json();
    assert_eq!(v["findings"][0]["rule_id"], "team-oom");
    assert_eq!(v["findings"][0]["facts"]["amount"], "2.00 GiB");

    sb.run(&["diagnose", good.to_str().unwrap(), "--rules", "nowhere"])
        .usage_error(&["cannot read rule directory nowhere"]);
}

#[test]
fn project_file_adds_rule_directories() {
    let sb = Sandbox::new("diag-project-rules");
    sb.write(".amldoctor.yaml", "rules: [ci/rules]\n");
    sb.write(
        "ci/rules/team.yaml",
        "id: team-marker\ntitle: Team marker\nseverity: warning\nfamily: inference-server\nmatch:\n  any: ['TEAM-MARKER-42']\nremediation: x\nexamples:\n  match: ['TEAM-MARKER-42']\n  no-match: ['TEAM-MARKER-41']\n",
    );
    let log = sb.write("work/a.log", "TEAM-MARKER-42\n");
    let v = sb
        .run(&["diagnose", log.to_str().unwrap(), "-o", "json"])
        .ok()
        .json();
    assert_eq!(v["findings"][0]["rule_id"], "team-marker");
    // A folder the project file names that is not there: the file and key are named.
    let other = Sandbox::new("diag-project-rules-missing");
    other.write(".amldoctor.yaml", "rules: [ci/no-such-rules]\n");
    let log = other.write("work/a.log", "TEAM-MARKER-42\n");
    let run = other.run(&["diagnose", log.to_str().unwrap()]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains(".amldoctor.yaml: rules: cannot read rule directory")
            && run.stderr.contains("no-such-rules"),
        "{}",
        run.stderr
    );
}

#[test]
fn secrets_never_reach_the_output() {
    let sb = Sandbox::new("diag-secrets");
    let log = sb.write(
        "work/storage.log",
        "storage-initializer: downloading model from https://acct.blob.core.windows.net/models/m.pkl?sv=2021-08-06&sr=b&sig=SuperSecretSig%2Babc%3D\nThis request is not authorized to perform this operation using this permission. https://acct.blob.core.windows.net/models/m.pkl?sv=2021-08-06&sig=SuperSecretSig%2Babc%3D\nAuthorization: Bearer eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.eyJhdWQiOiJodHRwczovL3N0b3JhZ2UifQ.c2lnbmF0dXJlX3ZhbHVl failed\n",
    );
    for format in ["table", "json", "yaml"] {
        let run = sb.run(&[
            "diagnose",
            log.to_str().unwrap(),
            "-o",
            format,
            "--fail-on",
            "never",
        ]);
        run.ok();
        assert!(
            !run.stdout.contains("SuperSecretSig"),
            "{format}:\n{}",
            run.stdout
        );
        assert!(
            !run.stdout.contains("eyJ0eXAi"),
            "{format}:\n{}",
            run.stdout
        );
    }
}

#[test]
fn review_regressions() {
    let sb = Sandbox::new("diag-review");
    // A long line: the secret sits where the evidence window would cut it.
    let pad = "p".repeat(500);
    let lead = format!(
        "{}&sig=SuperSecretSig123 {}",
        "q".repeat(30),
        "r".repeat(50)
    );
    let log = sb.write(
        "work/long.log",
        &format!("{lead}TypeError: register() takes 3 positional arguments but 4 were given {pad}\nAuthorization: Bearer abcdefghijklmnopqrstuvwxyz0123456789 {}TypeError: register() takes 3 positional arguments but 4 were given\n", "s".repeat(90)),
    );
    let run = sb.run(&[
        "diagnose",
        log.to_str().unwrap(),
        "-o",
        "json",
        "--fail-on",
        "never",
    ]);
    assert!(
        !run.stdout.contains("SuperSecretSig123") && !run.stdout.contains("abcdefghijklmnop"),
        "{}",
        run.stdout
    );

    // Values from logs are not pasted into commands when they carry shell syntax.
    let evil = sb.write(
        "work/evil.log",
        "ERROR: No matching distribution found for x\"$(touch${IFS}/tmp/pwned)\"\n",
    );
    let v = sb
        .run(&[
            "diagnose",
            evil.to_str().unwrap(),
            "-o",
            "json",
            "--fail-on",
            "never",
        ])
        .json();
    let commands = v["findings"][0]["commands"].to_string();
    assert!(
        !commands.contains("$(touch") && commands.contains("<requirement>"),
        "{commands}"
    );

    // The same file named twice is analysed once.
    let one = sb.write("work/one.log", "Reason: Worker failed to boot.\n");
    let dot = format!("{}/./one.log", sb.work().display());
    let v = sb
        .run(&[
            "diagnose",
            one.to_str().unwrap(),
            &dot,
            sb.work().to_str().unwrap(),
            "-o",
            "json",
            "--fail-on",
            "never",
        ])
        .json();
    let boot = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule_id"] == "gunicorn-worker-boot-failed")
        .unwrap();
    assert_eq!(boot["count"], 1);

    // A named file that exists but cannot be opened: exit 2 with an error line.
    let sock = sb.root.join("work/app.sock");
    let _listener = std::os::unix::net::UnixListener::bind(&sock).unwrap();
    let run = sb.run(&["diagnose", sock.to_str().unwrap(), one.to_str().unwrap()]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("error: cannot analyse") && run.stderr.contains("app.sock"),
        "{}",
        run.stderr
    );

    // UTF-16 (PowerShell redirection) is read as check reads it: the same findings as
    // the UTF-8 text, at the same lines.
    let text = std::fs::read_to_string(fixture("logs/server-0.4.13-old-image-flask2.log")).unwrap();
    let utf8 = sb.write("work/ps-utf8.log", &text);
    for (name, bom, unit) in [
        (
            "work/ps-le.log",
            [0xFF, 0xFE],
            u16::to_le_bytes as fn(u16) -> [u8; 2],
        ),
        (
            "work/ps-be.log",
            [0xFE, 0xFF],
            u16::to_be_bytes as fn(u16) -> [u8; 2],
        ),
    ] {
        let utf16 = sb.root.join(name);
        let mut bytes = bom.to_vec();
        for c in text.encode_utf16() {
            bytes.extend(unit(c));
        }
        std::fs::write(&utf16, bytes).unwrap();
        let wide = sb.run(&["diagnose", utf16.to_str().unwrap(), "-q"]);
        let narrow = sb.run(&["diagnose", utf8.to_str().unwrap(), "-q"]);
        assert_eq!(wide.code, 1, "{}", wide.stderr);
        assert_eq!(
            wide.stdout.replace(utf16.to_str().unwrap(), "F"),
            narrow.stdout.replace(utf8.to_str().unwrap(), "F"),
            "{name}"
        );
    }

    // Terminal escapes in logs do not reach the terminal.
    let esc = sb.write(
        "work/esc.log",
        "\u{1b}[2J\u{1b}]0;owned\u{7}Reason: Worker failed to boot.\n",
    );
    let run = sb.run(&["diagnose", esc.to_str().unwrap(), "--fail-on", "never"]);
    assert!(!run.stdout.contains('\u{1b}'), "{}", run.stdout);
}

#[test]
fn closed_stdout_keeps_the_gate_exit_code() {
    let sb = Sandbox::new("diag-pipe");
    let big: String = (0..20_000)
        .map(|i| format!("line {i}\n"))
        .collect::<String>()
        + "Reason: Worker failed to boot.\n";
    let log = sb.write("work/big.log", &big);
    let (code, stderr) = sb.run_with_closed_stdout(&[
        "diagnose",
        log.to_str().unwrap(),
        &fixture(FLASK2),
        "-o",
        "junit",
    ]);
    assert_eq!(code, Some(1), "findings still fail the gate: {stderr}");
    assert_eq!(stderr, "");
}

#[test]
fn a_wrapper_code_folds_into_the_specific_error_it_wraps() {
    let sb = Sandbox::new("diag-nested");
    // An outer InternalServerError whose details name the user's error, with the
    // correlation block support asks for.
    let path = sb.write(
        "work/nested.txt",
        r#"azure.core.exceptions.HttpResponseError: (InternalServerError) An unexpected error occurred while creating the deployment.
Code: InternalServerError
Message: An unexpected error occurred while creating the deployment.
Exception Details:	(EnvironmentDetailsFetchFailedUserError) No environment exists for name: sklearn-env, version: 7
	Code: EnvironmentDetailsFetchFailedUserError
	Message: No environment exists for name: sklearn-env, version: 7
Additional Information:Type: ComponentName
Info: {"correlation": {"operation": "5f0d3ab2c1e94b7a8d6f2e1c0b9a8d7e", "request": "b1c2d3e4f5a6b7c8"}}
"#,
    );
    let v = sb.diagnose_json(&[path.to_str().unwrap()]);
    let ids: Vec<&str> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["rule_id"].as_str().unwrap())
        .collect();
    // The specific error is the finding; the wrapper's advice (a support request) would
    // point the wrong way, so it is not reported on its own.
    assert_eq!(ids, ["environment-details-fetch-failed"], "{ids:?}");
    let found = &v["findings"][0];
    assert_eq!(found["facts"]["environment"], "sklearn-env");
    assert_eq!(found["symptoms"], serde_json::json!([]));
    // The identifiers the wrapper captured for support join the specific finding.
    assert_eq!(
        found["facts"]["operation_id"], "5f0d3ab2c1e94b7a8d6f2e1c0b9a8d7e",
        "{found:#}"
    );
    // Alone, the wrapper is the finding.
    let alone = sb.write(
        "work/alone.txt",
        "ERROR: (InternalServerError) An unexpected error occurred while creating the deployment.\nCode: InternalServerError\n",
    );
    let v = sb.diagnose_json(&[alone.to_str().unwrap()]);
    assert_eq!(
        v["findings"][0]["rule_id"], "internal-server-error",
        "{v:#}"
    );
    // A wrapper whose message states the cause, quoted as pasted in a thread: the cause
    // is the finding, and the wrapper's explanation is not offered as the next step.
    let quota = sb.write(
        "work/quota.txt",
        "> HttpResponseError: (InferencingClientCallFailed) \"Endpoint Quota reached for subscription ***. Current usage/limit: 300/300. Please clean up existing endpoints and try again\"\n> Code: InferencingClientCallFailed\n",
    );
    let v = sb.diagnose_json(&[quota.to_str().unwrap()]);
    assert_eq!(crate::rule_ids(&v), ["cause-quota"], "{v:#}");
    let commands = v["findings"][0]["commands"].to_string();
    assert!(!commands.contains("amldoctor explain"), "{commands}");
}

#[test]
fn standard_input_on_a_terminal_says_it_is_waiting() {
    // A pseudo-terminal from util-linux `script`; skipped where it is not installed.
    if std::process::Command::new("script")
        .arg("--version")
        .output()
        .is_err()
    {
        return;
    }
    use std::io::Write as _;
    let sb = Sandbox::new("diag-tty");
    let bin = env!("CARGO_BIN_EXE_amldoctor");
    let mut script = std::process::Command::new("script")
        .args([
            "-qec",
            &format!("{bin} diagnose - --fail-on never --no-color"),
            "/dev/null",
        ])
        .env("HOME", sb.home())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = script.stdin.take().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    stdin
        .write_all(b"Reason: Worker failed to boot.\n\x04")
        .unwrap();
    drop(stdin);
    let out = script.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("reading the log from standard input"),
        "{text}"
    );
    assert!(text.contains("gunicorn-worker-boot-failed"), "{text}");
}

#[cfg(unix)]
#[test]
fn linked_folders_are_followed_and_loops_named() {
    let sb = Sandbox::new("diag-links");
    sb.write("work/other/a.log", "Reason: Worker failed to boot.\n");
    sb.write("work/tree/sub/b.log", "hello\n");
    std::os::unix::fs::symlink(sb.work().join("other"), sb.work().join("tree/linked")).unwrap();
    std::os::unix::fs::symlink(sb.work().join("tree"), sb.work().join("tree/sub/loop")).unwrap();
    let v = sb.diagnose_json(&[sb.work().join("tree").to_str().unwrap()]);
    assert_eq!(
        v["findings"][0]["rule_id"], "gunicorn-worker-boot-failed",
        "{v}"
    );
    assert_eq!(v["inputs"].as_array().unwrap().len(), 2);
    let skipped = &v["not_analysed"][0];
    assert!(
        skipped["path"].as_str().unwrap().ends_with("tree/sub/loop"),
        "{v}"
    );
    assert!(
        skipped["reason"].as_str().unwrap().contains("a loop"),
        "{v}"
    );
}

#[test]
fn a_folder_of_unrelated_logs_keeps_each_incident_to_itself() {
    // Two deployments' logs side by side: a Flask 2 crash (its workers fail to boot) and
    // another deployment's init() failure pasted without its boot lines. The boot
    // failure is not a symptom of the other file's init(), and the model the Flask 2 log
    // names (churn-model) is not the one the init failure should download.
    let sb = Sandbox::new("diag-incidents");
    let flask =
        std::fs::read_to_string(fixture("logs/server-0.4.13-old-image-flask2.log")).unwrap();
    sb.write("work/logs/blue-flask2.log", &flask);
    sb.write(
        "work/logs/green-init.log",
        "2025-02-03 10:14:07,511 E [88] azmlinfsrv - User's init function failed\n\
         2025-02-03 10:14:07,512 E [88] azmlinfsrv - Encountered Exception Traceback (most recent call last):\n\
         \x20 File \"/var/azureml-app/src/score.py\", line 21, in init\n\
         \x20   threshold = float(os.environ[\"SCORE_THRESHOLD\"])\n\
         \x20 File \"/opt/miniconda/envs/userenv/lib/python3.10/os.py\", line 680, in __getitem__\n\
         \x20   raise KeyError(key) from None\n\
         KeyError: 'SCORE_THRESHOLD'\n",
    );
    let dir = sb.work().join("logs");
    let run = sb.run(&["diagnose", dir.to_str().unwrap(), "-o", "json"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let doc = run.json();
    let find = |id: &str| {
        doc["findings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["rule_id"] == id)
            .unwrap_or_else(|| panic!("{id} missing: {doc:#}"))
            .clone()
    };
    let boot = find("gunicorn-worker-boot-failed");
    assert_eq!(
        boot["caused_by"],
        serde_json::json!(["flask2-register-typeerror"]),
        "{boot:#}"
    );
    let init = find("user-init-failed");
    assert_eq!(init["symptoms"], serde_json::json!([]), "{init:#}");
    let commands: Vec<&str> = init["commands"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c.as_str())
        .collect();
    assert!(
        commands
            .iter()
            .any(|c| c.starts_with("az ml model download --name <model>")),
        "{commands:#?}"
    );
    assert!(
        !commands.iter().any(|c| c.contains("churn-model")),
        "{commands:#?}"
    );
    // The Flask 2 log alone still names its own model where a command asks for it.
    let flask = dir.join("blue-flask2.log");
    let flask = flask.to_str().unwrap();
    let alone = sb.run(&["diagnose", flask, "-o", "json"]);
    assert_eq!(alone.json()["findings"], run_findings_of(&doc, flask));
}

/// The findings of `doc` whose every input is `path`, as a JSON array.
fn run_findings_of(doc: &serde_json::Value, path: &str) -> serde_json::Value {
    let only: Vec<serde_json::Value> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["paths"].as_array().unwrap().iter().all(|p| p == path))
        .cloned()
        .collect();
    serde_json::Value::Array(only)
}

#[test]
fn storage_refusal_commands_take_the_identity_and_account_the_log_names() {
    let sb = Sandbox::new("diag-storage-identity");
    let log = fixture("logs/storage-initializer-auth-failure.log");
    let run = sb.run(&["diagnose", &log, "-o", "json"]);
    let v = run.json();
    let f = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule_id"] == "storage-authorization-failure")
        .unwrap();
    let commands = f["commands"].to_string();
    // The identity the storage initializer signed in with, and the account's own id
    // (not the workspace's group, which may not hold this account).
    assert!(
        commands.contains("az role assignment create --assignee 6b3f0d1e-2a4c-4f7b-9e81-0c5d2a7f4b19 --role \\\"Storage Blob Data Reader\\\" --scope $(az storage account show -n mlwsprod7f3a --subscription <subscription> --query id -o tsv)"),
        "{commands}"
    );
    assert!(!commands.contains("principal-id"), "{commands}");
    assert!(
        !f["remediation"]
            .as_str()
            .unwrap()
            .contains("workspace's storage account (")
    );
}

#[test]
fn what_fails_the_gate_is_shown_even_when_quiet() {
    let sb = Sandbox::new("diag-quiet-info");
    let healthy = fixture("logs/server-0.6.1-healthy.log");
    let run = sb.run(&["diagnose", &healthy, "-q", "--fail-on", "info"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stdout.lines().any(|l| l.starts_with("info")),
        "the info findings that failed the gate are shown:\n{}",
        run.stdout
    ); // A line without facts ends at its title, not with an empty column.
    assert!(
        !run.stdout.lines().any(|l| l.ends_with('\t')),
        "{:?}",
        run.stdout
    );
}

#[test]
fn one_ctrl_d_ends_typed_standard_input() {
    // A real terminal: Python's pty module (the test is skipped where python3 is not).
    let Ok(python) = which_python() else {
        eprintln!("python3 not found: the terminal test is skipped");
        return;
    };
    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scripts/pty_ctrl_d.py");
    let out = std::process::Command::new(python)
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_amldoctor"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("gunicorn-worker-boot-failed"), "{text}");
}

fn which_python() -> Result<String, ()> {
    for p in ["python3", "/usr/bin/python3", "/usr/local/bin/python3"] {
        if std::process::Command::new(p)
            .arg("-c")
            .arg("import pty")
            .output()
            .is_ok_and(|o| o.status.success())
        {
            return Ok(p.to_owned());
        }
    }
    Err(())
}

/// An empty file named to any command that reads files is one sentence naming it as
/// empty and saying what was expected, exit 2: not a parser's "EOF at line 1", not
/// "not one JSON document".
#[test]
fn an_empty_file_is_one_error_naming_it_empty_in_every_command() {
    let sb = Sandbox::new("empty-everywhere").env("K", "k");
    sb.write("work/empty.json", "");
    sb.write("work/blank.yml", "\n  \n");
    sb.write("work/ok.log", "INFO started\n");
    sb.write("work/b.json", "{}");
    let cases: &[&[&str]] = &[
        &["diagnose", "empty.json"],
        &["check", "keyvault", "--from", "empty.json"],
        &["check", "all", "--from", "empty.json"],
        &["diagnose", "ok.log", "--baseline", "empty.json"],
        &[
            "score",
            "--from",
            "empty.json",
            "--key-env",
            "K",
            "--data",
            "b.json",
        ],
        &["lint", "blank.yml"],
        &["replicas", "--rps", "2", "-f", "blank.yml"],
    ];
    for args in cases {
        let run = crate::Run::from(sb.command_in(&sb.work(), args).output().unwrap());
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        let errors: Vec<&str> = run
            .stderr
            .lines()
            .filter(|l| l.starts_with("error:"))
            .collect();
        assert_eq!(errors.len(), 1, "{args:?}:\n{}", run.stderr);
        assert!(
            errors[0].contains("empty")
                && (errors[0].contains("empty.json") || errors[0].contains("blank.yml")),
            "{args:?}: {}",
            errors[0]
        );
        assert!(!errors[0].contains("EOF"), "{args:?}: {}", errors[0]);
    }
}

/// The Inputs list is a column: every label on its path's line starts at the same
/// place; a path too long for that puts its label on the line below.
#[test]
fn inputs_labels_start_in_one_column() {
    let sb = Sandbox::new("inputs-column");
    for name in ["a.log", "a-much-longer-name-for-a-log.log", "mid-name.log"] {
        sb.write(&format!("work/logs/{name}"), "INFO started\n");
    }
    sb.write(
        "work/logs/an-extremely-long-file-name-that-no-80-column-line-keeps-beside-its-label.log",
        "INFO started\n",
    );
    let mut cmd = sb.command_in(&sb.work(), &["diagnose", "logs"]);
    cmd.env("COLUMNS", "80");
    let run = crate::Run::from(cmd.output().unwrap());
    let out = run.ok().stdout.clone();
    let inputs: Vec<&str> = out
        .split("Inputs\n")
        .nth(1)
        .unwrap()
        .lines()
        .take_while(|l| !l.is_empty())
        .collect();
    let starts: Vec<usize> = inputs
        .iter()
        .filter(|l| l.contains("  generic"))
        .map(|l| l.find("generic").unwrap())
        .filter(|at| *at > 6)
        .collect();
    assert_eq!(starts.len(), 3, "{out}");
    assert!(starts.windows(2).all(|w| w[0] == w[1]), "{out}");
    assert!(
        inputs
            .iter()
            .any(|l| l.starts_with("      generic (detected), 1 line")),
        "the long path's label goes below it:\n{out}"
    );
}

/// Advice about an old image or server is `info` on a healthy start-up, so `--fail-on
/// warning` passes it; beside a real failure in the same input it stays a warning.
#[test]
fn advisories_are_info_on_healthy_start_ups_and_warnings_beside_a_failure() {
    let sb = Sandbox::new("advisory-calibrated");
    for healthy in [
        "logs/old-image-iot-noise-healthy.log",
        "logs/server-0.6.1-healthy.log",
    ] {
        let run = sb.run(&["diagnose", &crate::fixture(healthy), "--fail-on", "warning"]);
        assert_eq!(run.code, 0, "{healthy}:\n{}", run.stdout);
        let v = sb.diagnose_json(&[&crate::fixture(healthy)]);
        let banner = v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["rule_id"] == "image-without-runtime-banner")
            .unwrap_or_else(|| panic!("{v}"));
        assert_eq!(banner["severity"], "info", "{healthy}");
    }
    let failing = sb.run(&[
        "diagnose",
        &crate::fixture("logs/server-0.4.13-old-image-flask2.log"),
        "-q",
        "--fail-on",
        "info",
    ]);
    assert!(
        failing
            .stdout
            .contains("warning\timage-without-runtime-banner"),
        "{}",
        failing.stdout
    );
    assert!(
        failing
            .stdout
            .contains("warning\tinference-server-flask1-only"),
        "{}",
        failing.stdout
    );
}

/// The ways one line reaches amldoctor: alone, quoted in an issue, fenced, inside a
/// JSON log record, behind a CI timestamp, cut off at 40 characters.
fn mutations(line: &str) -> Vec<String> {
    let escaped = serde_json::to_string(&format!("{line}\n")).unwrap();
    let cut: String = line.chars().take(40).collect();
    vec![
        format!("{line}\n"),
        format!("> {line}\n"),
        format!("```\n{line}\n```\n"),
        format!("{{\"time\": \"2025-03-04T10:22:31Z\", \"log\": {escaped}}}\n"),
        format!("2025-03-04T10:22:31.4567890Z {line}\n"),
        format!("{cut}\n"),
    ]
}

/// A paste that shows a failure never comes out with no warning or error, however the
/// line was pasted; the same mutations of healthy lines stay free of them.
#[test]
fn a_failure_line_is_never_silent_however_it_is_pasted() {
    let sb = Sandbox::new("never-silent");
    let has_problem = |text: &str| {
        let file = sb.write("work/paste.txt", text);
        let v = sb.diagnose_json(&[file.to_str().unwrap()]);
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["severity"] == "error" || f["severity"] == "warning")
    };
    let failures = [
        "ValueError: could not convert string to float: 'abc'",
        "ERROR: (WeirdNewCode) The thing broke in a way nobody wrote down.",
        "Container exited with code 137",
        "HTTP/1.1 503 Service Unavailable",
        "Execution failed. User process python exited with status code 1.",
        r#""provisioningState": "Failed""#,
    ];
    let mut silent = Vec::new();
    for line in failures {
        for m in mutations(line) {
            if !has_problem(&m) {
                silent.push(m);
            }
        }
    }
    assert!(silent.is_empty(), "silent on:\n{}", silent.join("---\n"));
    let healthy = [
        "INFO retry 1 of 3 failed. retrying",
        "HTTP/1.1 200 OK",
        r#""provisioningState": "Succeeded""#,
        "Container exited with code 0",
    ];
    for line in healthy {
        for m in mutations(line) {
            assert!(!has_problem(&m), "a problem in a healthy line:\n{m}");
        }
    }
}

/// A failure no signature knows is still placed in the cause category its message
/// names, whatever wrapper code it came under; each category is one rule.
#[test]
fn unknown_failures_land_in_the_category_their_message_names() {
    let sb = Sandbox::new("cause-categories");
    let cases = [
        (
            "ERROR: (BadRequest) Not enough quota available for Standard_NC6s_v3 in westeurope; current usage 24 of 24.",
            "cause-quota",
        ),
        (
            "azure.core.exceptions.HttpResponseError: (TooManyRequests) Too many requests, retry after 30 seconds.",
            "cause-throttling",
        ),
        (
            "azure.identity._exceptions.ClientAuthenticationError: AADSTS7000215: Invalid client secret provided.",
            "cause-authentication",
        ),
        (
            "ERROR: (AuthorizationFailed) The client 'ci-sp' does not have authorization to perform action 'Microsoft.MachineLearningServices/workspaces/onlineEndpoints/write'.",
            "cause-authorization",
        ),
        (
            "socket.gaierror: [Errno -2] Name or service not known",
            "cause-dns",
        ),
        (
            "requests.exceptions.SSLError: HTTPSConnectionPool(host='mlw.api.azureml.ms', port=443): certificate verify failed: self signed certificate in certificate chain",
            "cause-tls",
        ),
        (
            "concurrent.futures._base.TimeoutError: the operation timed out after 1800 seconds",
            "cause-timeout",
        ),
        (
            "ERROR: (UserError) Failed to read datastore workspaceartifactstore: the path was refused by the account.",
            "cause-storage",
        ),
        (
            "RuntimeError: Failed to load model from /var/azureml-app/azureml-models/m/1/model.onnx: invalid protobuf",
            "cause-model-loading",
        ),
        (
            "subprocess.CalledProcessError: Command 'pip install -r requirements.txt' returned non-zero exit status 1.",
            "cause-dependency",
        ),
        (
            "TypeError: ManagedOnlineDeployment.__init__() got an unexpected keyword argument 'scale_settings'",
            "cause-sdk-version",
        ),
        (
            "ERROR: failed to solve: process did not complete successfully; the Docker image build failed",
            "cause-image-build",
        ),
        (
            "docker.errors.DockerException: Error while fetching server API version: Cannot connect to the Docker daemon at unix:///var/run/docker.sock.",
            "cause-container-runtime",
        ),
        (
            "MemoryError: Unable to allocate 12.0 GiB for an array with shape (40000, 40000) and data type float64",
            "cause-capacity",
        ),
        (
            "urllib3.exceptions.MaxRetryError: HTTPSConnectionPool(host='10.0.0.5', port=443): Max retries exceeded (Caused by NewConnectionError: Connection refused)",
            "cause-network",
        ),
        (
            "FileNotFoundError: [Errno 2] No such file or directory: '/mnt/data/config.json'",
            "cause-not-found",
        ),
        (
            "Traceback (most recent call last):\n  File \"/var/azureml-app/src/score.py\", line 52, in run\n    rows = payload[\"rows\"]\nKeyError: 'rows'",
            "cause-user-script",
        ),
        (
            "azure.ai.ml.exceptions.ValidationException: Validation failed: the value of 'mini_batch_size' is not valid, expected an integer or a size such as '10kb'",
            "cause-invalid-input",
        ),
        // A cut traceback at import time: something raised while modules were imported.
        (
            "  File \"/azureml-envs/env/lib/python3.9/site-packages/sklearn/__init__.py\", line 82, in <module>\n    from .base import clone\n  File \"/azureml-envs/env/lib/python3.9/site-packages/sklearn/base.py\", line 17, in <module>\n    from .utils import _IS_32BIT",
            "cause-dependency",
        ),
    ];
    let mut wrong = Vec::new();
    for (line, want) in cases {
        let file = sb.write("work/paste.txt", &format!("{line}\n"));
        let v = sb.diagnose_json(&[file.to_str().unwrap()]);
        let ids: Vec<String> = v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["severity"] != "info")
            .map(|f| f["rule_id"].as_str().unwrap().to_owned())
            .collect();
        if !ids.iter().any(|id| id == want) {
            wrong.push(format!("{want}: got {ids:?} for {line}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Every output format says which layer named a finding, so a reader knows how
/// specific it is: a signature, the service's error, a cause category.
#[test]
fn every_format_says_which_layer_named_the_finding() {
    let sb = Sandbox::new("layers");
    let file = sb.write(
        "work/paste.txt",
        "socket.gaierror: [Errno -2] Name or service not known\n",
    );
    let path = file.to_str().unwrap();
    let v = sb.diagnose_json(&[path]);
    let f = &v["findings"][0];
    assert_eq!(
        (f["rule_id"].as_str(), f["layer"].as_str()),
        (Some("cause-dns"), Some("category")),
        "{v}"
    );
    let signature = sb.diagnose_json(&[&crate::fixture(FLASK2)]);
    assert!(
        signature["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["layer"] == "signature"),
        "{signature}"
    );
    let out = |format: &str| {
        sb.run(&["diagnose", path, "-o", format, "--fail-on", "never"])
            .ok()
            .stdout
            .clone()
    };
    assert!(out("yaml").contains("layer: category"));
    let sarif: serde_json::Value = serde_json::from_str(&out("sarif")).unwrap();
    assert_eq!(
        sarif["runs"][0]["results"][0]["properties"]["layer"],
        "category"
    );
    assert!(out("markdown").contains("*(category)*"));
    assert!(out("junit").contains("found by: category"));
    assert!(out("table").contains("classified by its message or traceback"));
}

/// A category finding quotes the failure once, and `Error with code: Can't …` is
/// prose, not a service error with the code `Can`.
#[test]
fn a_category_finding_quotes_its_failure_once_and_prose_is_no_code() {
    let sb = Sandbox::new("category-once");
    let dns = sb.write(
        "work/dns.txt",
        "socket.gaierror: [Errno -2] Name or service not known\n",
    );
    let v = sb.diagnose_json(&[dns.to_str().unwrap()]);
    let f = &v["findings"][0];
    assert_eq!(f["rule_id"], "cause-dns", "{v}");
    assert!(f["facts"].get("last_error").is_none(), "{f}");
    assert_eq!(
        f["facts"]["message"],
        "socket.gaierror: [Errno -2] Name or service not known"
    );
    let ssl = sb.write(
        "work/ssl.txt",
        "ERROR: Error with code: Can't connect to HTTPS URL because the SSL module is not available.\n",
    );
    let v = sb.diagnose_json(&[ssl.to_str().unwrap()]);
    assert_eq!(crate::rule_ids(&v), ["cause-tls"], "{v}");
}

/// A category's fix and commands fit what the failure was seen on: the same quota
/// message from a batch endpoint invocation and from a local endpoint's Docker gets the
/// batch deployment's commands and Docker's, each saying which fix it is.
#[test]
fn category_fixes_fit_the_surface_the_failure_was_seen_on() {
    let sb = Sandbox::new("surfaces");
    let batch = sb.write(
        "work/batch.txt",
        "$ az ml batch-endpoint invoke --name churn-batch -g rg-ml -w ws-prod --input azureml:churn:3\n\
         (BadRequest) The request would exceed the number of compute nodes allowed in eastus (limit: 24).\n\
         Code: BadRequest\n\
         Message: The request would exceed the number of compute nodes allowed in eastus (limit: 24).\n",
    );
    let local = sb.write(
        "work/local.txt",
        "$ az ml online-deployment create -f blue.yml --local\n\
         Error: the operation timed out waiting for the container to answer on port 5001\n",
    );
    let plain = sb.write(
        "work/plain.txt",
        "Error: the operation timed out waiting for the service to answer\n",
    );
    let finding = |path: &std::path::Path, id: &str| {
        let v = sb.diagnose_json(&[path.to_str().unwrap()]);
        crate::finding(&v, id).clone()
    };
    let b = finding(&batch, "cause-quota");
    assert_eq!(b["facts"]["seen_on"], "batch endpoint", "{b}");
    assert!(
        b["remediation"]
            .as_str()
            .unwrap()
            .contains("compute cluster"),
        "{b}"
    );
    let runs = |f: &serde_json::Value, command: &str| {
        f["commands"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c == command)
    };
    assert!(
        runs(&b, "az ml compute list -g rg-ml -w ws-prod -o table"),
        "{b}"
    );
    let l = finding(&local, "cause-timeout");
    assert_eq!(l["facts"]["seen_on"], "local endpoint", "{l}");
    assert!(runs(&l, "docker ps -a"), "{l}");
    // Seen on nothing in particular: the rule's own fix, and no claim about a surface.
    let p = finding(&plain, "cause-timeout");
    assert!(p["facts"].get("seen_on").is_none(), "{p}");
    assert!(!runs(&p, "docker ps -a"), "{p}");
    // The links are the troubleshooting page of what the failure was seen on, not the
    // online endpoints' page the category's entry falls back to.
    let docs = |f: &serde_json::Value| -> Vec<String> {
        serde_json::from_value(f["docs"].clone()).unwrap()
    };
    let learn = "https://learn.microsoft.com/azure/machine-learning/";
    assert_eq!(
        docs(&b)[0],
        format!("{learn}how-to-troubleshoot-batch-endpoints"),
        "{b}"
    );
    assert!(
        !docs(&b).contains(&format!("{learn}how-to-troubleshoot-online-endpoints")),
        "{b}"
    );
    assert_eq!(
        docs(&l),
        [format!(
            "{learn}how-to-troubleshoot-online-endpoints#deploy-locally"
        )],
        "{l}"
    );
    assert_eq!(
        docs(&p),
        [format!("{learn}how-to-troubleshoot-online-endpoints")],
        "{p}"
    );
}

/// A refusal because another operation holds the resource is its own category, with the
/// online endpoint's state to wait for; the `(Code) Message` a paste ends on is read as
/// the service's error even when no error word is on its line, and a line that only
/// looks like one (`(Optional) …` in a healthy log) is not.
#[test]
fn a_busy_resource_and_a_bare_service_code_are_named() {
    let sb = Sandbox::new("conflict");
    let busy = sb.write(
        "work/busy.txt",
        "$ az ml online-deployment create -f green.yml -e churn-ep -g rg-ml -w ws-prod\n\
         (Conflict) Operation on endpoint churn-ep is not allowed: another operation is in progress on it.\n\
         Code: Conflict\n\
         Message: Operation on endpoint churn-ep is not allowed: another operation is in progress on it.\n",
    );
    let v = sb.diagnose_json(&[busy.to_str().unwrap()]);
    let f = crate::finding(&v, "cause-conflict");
    assert_eq!(f["layer"], "category", "{f}");
    assert!(
        f["commands"].as_array().unwrap().iter().any(|c| c
            == "az ml online-endpoint show -n churn-ep -g rg-ml -w ws-prod --query provisioning_state -o tsv"),
        "{f}"
    );
    let bare = sb.write(
        "work/bare.txt",
        "{'node_name': 'answer', 'error_type_and_message': \"(ToolLoadMissing) The tool package could not be loaded; make sure it is installed.\"}\n",
    );
    let v = sb.diagnose_json(&[bare.to_str().unwrap()]);
    let f = crate::finding(&v, "cause-dependency");
    assert_eq!(f["facts"]["code"], "ToolLoadMissing", "{f}");
    assert!(
        f["facts"]["message"]
            .as_str()
            .unwrap()
            .ends_with("make sure it is installed."),
        "{f}"
    );
    let healthy = sb.write(
        "work/healthy.txt",
        "2026-12-01 10:00:01 Starting worker\n(Optional) Set WORKER_COUNT to change the number of workers.\n",
    );
    let v = sb.diagnose_json(&[healthy.to_str().unwrap()]);
    assert!(crate::rule_ids(&v).is_empty(), "{v}");
}

/// A category's fix quotes the line whose words placed the failure: the certificate
/// refused above the `ServiceRequestError` that ended the paste, which stays quoted as
/// the last error; a message that cannot stand in prose as it is (`<… object at 0x…>`)
/// is shown, never left as a placeholder.
#[test]
fn a_category_quotes_the_line_that_decided_it() {
    let sb = Sandbox::new("deciding");
    let paste = sb.write(
        "work/tls.txt",
        "Traceback (most recent call last):\n\
         \x20 File \"/usr/lib/python3.10/ssl.py\", line 1342, in do_handshake\n\
         ssl.SSLCertVerificationError: [SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: unable to get local issuer certificate (_ssl.c:1007)\n\
         \n\
         During handling of the above exception, another exception occurred:\n\
         \n\
         Traceback (most recent call last):\n\
         \x20 File \"/home/me/submit.py\", line 12, in <module>\n\
         \x20   ml_client.jobs.create_or_update(job)\n\
         azure.core.exceptions.ServiceRequestError: <urllib3.connection.HTTPSConnection object at 0x7f3>: Failed to establish a new connection\n",
    );
    let v = sb.diagnose_json(&[paste.to_str().unwrap()]);
    let f = crate::finding(&v, "cause-tls");
    assert!(
        f["facts"]["message"]
            .as_str()
            .unwrap()
            .starts_with("ssl.SSLCertVerificationError"),
        "{f}"
    );
    assert!(
        f["facts"]["last_error"]
            .as_str()
            .unwrap()
            .starts_with("azure.core.exceptions.ServiceRequestError"),
        "{f}"
    );
    let fix = f["remediation"].as_str().unwrap();
    assert!(fix.contains("CERTIFICATE_VERIFY_FAILED"), "{fix}");
    assert!(
        !fix.contains("<message>") && !fix.contains("{message}"),
        "{fix}"
    );
}
