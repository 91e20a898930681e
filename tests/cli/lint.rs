//! `amldoctor lint` over fixture projects (`tests/fixtures/lint/`): a good project that
//! yields nothing at `error`, a bad one whose every finding points at the line to
//! change, malformed YAML, and folders with nothing to lint.

use super::{Sandbox, fixture};

/// The `(rule_id, first evidence line)` pairs of a JSON lint report.
fn findings(report: &serde_json::Value) -> Vec<(String, u64)> {
    let mut out: Vec<(String, u64)> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["rule_id"].as_str().unwrap().to_owned(),
                f["evidence"][0]["line"].as_u64().unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}

/// The evidence of finding `id` in a JSON lint report: `(file name, line, text)`.
fn evidence(report: &serde_json::Value, id: &str) -> Vec<(String, u64, String)> {
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule_id"] == id)
        .unwrap_or_else(|| panic!("no {id} in {report}"))["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let path = e["path"].as_str().unwrap();
            (
                path.rsplit('/').next().unwrap().to_owned(),
                e["line"].as_u64().unwrap(),
                e["text"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// One expected `(file name, line, text)` of [`evidence`].
fn ev(file: &str, line: u64, text: &str) -> (String, u64, String) {
    (file.to_owned(), line, text.to_owned())
}

/// The 1-based line of the first line of `path` that starts (after indentation) with
/// `key`, found independently of amldoctor.
fn line_of(path: &str, key: &str) -> u64 {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .position(|l| l.trim_start().starts_with(key))
        .unwrap_or_else(|| panic!("{key} not in {path}")) as u64
        + 1
}

#[test]
fn a_good_project_passes_and_says_what_it_did_not_check() {
    let sb = Sandbox::new("lint-good");
    let run = sb.run(&["lint", &fixture("lint/good")]);
    run.ok();
    assert!(
        run.stdout.contains("No known problem found"),
        "{}",
        run.stdout
    );
    // The endpoint spec is read as one; the scoring script is read (and passes).
    assert!(
        run.stdout
            .lines()
            .any(|l| l.contains("endpoint.yml ")
                && l.ends_with(" online-endpoint churn-ep (spec file)")),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .lines()
            .any(|l| l.ends_with(" python-script score.py (script)")),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("not analysed"), "{}", run.stdout);
    // The scoring script the spec names was checked: it is listed among the inputs.
    let report = sb
        .run(&[
            "lint",
            &fixture("lint/good"),
            "-o",
            "json",
            "--fail-on",
            "info",
        ])
        .ok()
        .json();
    assert_eq!(findings(&report), Vec::<(String, u64)>::new());
}

#[test]
fn a_bad_spec_gets_each_finding_at_its_line() {
    let sb = Sandbox::new("lint-bad");
    let spec = fixture("lint/bad/blue.yml");
    let run = sb.run(&["lint", &fixture("lint/bad"), "-o", "json"]);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    let got = findings(&run.json());
    let expected = vec![
        (
            "deployment-liveness-gives-up-before-readiness".to_owned(),
            line_of(&spec, "initial_delay: 300"),
        ),
        (
            "deployment-probe-timeout-not-below-period".to_owned(),
            line_of(&spec, "timeout: 10"),
        ),
        (
            "deployment-request-timeout-over-limit".to_owned(),
            line_of(&spec, "request_timeout_ms"),
        ),
        (
            "deployment-spec-file-not-found".to_owned(),
            line_of(&spec, "scoring_script"),
        ),
        // A missing key is reported at the top of the spec's mapping.
        (
            "deployment-spec-no-instance-type".to_owned(),
            line_of(&spec, "$schema"),
        ),
    ];
    assert_eq!(got, expected);
    // Every missing path is named, resolved against the spec's (or code) folder.
    let report = run.json();
    let missing = evidence(&report, "deployment-spec-file-not-found");
    let texts: Vec<&str> = missing.iter().map(|(_, _, t)| t.as_str()).collect();
    assert_eq!(texts.len(), 3, "{texts:?}");
    assert!(
        texts[0].starts_with("scoring.py does not exist (looked for "),
        "{texts:?}"
    );
    assert!(texts[0].ends_with("src/scoring.py)"), "{texts:?}");
    // The code folder exists: it is not reported.
    assert!(!texts.iter().any(|t| t.starts_with("./src ")), "{texts:?}");
}

#[test]
fn sarif_points_at_the_spec_line() {
    let sb = Sandbox::new("lint-sarif");
    let spec = fixture("lint/bad/blue.yml");
    let run = sb.run(&["lint", &spec, "-o", "sarif", "--fail-on", "never"]);
    let sarif = run.ok().json();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    let timeout = results
        .iter()
        .find(|r| r["ruleId"] == "deployment-request-timeout-over-limit")
        .unwrap();
    let physical = &timeout["locations"][0]["physicalLocation"];
    assert!(
        physical["artifactLocation"]["uri"]
            .as_str()
            .unwrap()
            .ends_with("lint/bad/blue.yml")
    );
    assert_eq!(
        physical["region"]["startLine"].as_u64().unwrap(),
        line_of(&spec, "request_timeout_ms")
    );
}

#[test]
fn malformed_yaml_is_an_input_error_naming_the_file_and_line() {
    let sb = Sandbox::new("lint-malformed");
    sb.run(&["lint", &fixture("lint/malformed")])
        .usage_error(&["malformed/blue.yml", "invalid YAML at line 5"]);
}

#[test]
fn nothing_to_lint_says_what_was_looked_for() {
    let sb = Sandbox::new("lint-empty");
    sb.write("work/notes/README.md", "# notes\n");
    sb.write("work/.github/workflows/ci.yml", "on: push\njobs: {}\n");
    // The working directory by default; a CI workflow is not a deployment file.
    sb.run(&["lint"]).usage_error(&[
        "no deployable files in .",
        "online deployment specs",
        "requirements*.txt",
    ]);
    sb.run(&["lint", "missing-dir"])
        .usage_error(&["cannot read missing-dir: no such file or directory"]);
}

#[test]
fn a_spec_in_the_working_directory_is_found_by_default() {
    let sb = Sandbox::new("lint-default");
    sb.write(
        "work/deploy/blue.yml",
        "name: blue\nendpoint_name: ep\nmodel: azureml:m:1\ninstance_type: Standard_F4s_v2\nrequest_settings:\n  request_timeout_ms: 200000\n",
    );
    let run = sb.run(&["lint", "-o", "json"]);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    assert_eq!(
        findings(&run.json()),
        vec![("deployment-request-timeout-over-limit".to_owned(), 6)]
    );
}

#[test]
fn environment_files_are_read_with_pep_508_and_conda_specs() {
    let sb = Sandbox::new("lint-env");
    let conda = fixture("lint/bad-env/conda.yml");
    let requirements = fixture("lint/bad-env/requirements.txt");
    let run = sb.run(&["lint", &fixture("lint/bad-env"), "-o", "json"]);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    // An unreadable requirement line is skipped with a warning naming its line.
    assert!(
        run.stderr.contains(
            "requirements.txt:7: 'this is not a requirement!!' is not a requirement pip can read"
        ),
        "{}",
        run.stderr
    );
    let report = run.json();
    let evidence = |id: &str| -> Vec<(String, u64)> {
        evidence(&report, id)
            .into_iter()
            .map(|(file, line, _)| (file, line))
            .collect()
    };
    // Flask 2 with a server release older than 0.7.0 (conda) and azureml-defaults
    // older than 1.44 (requirements), each at the line of the package.
    assert_eq!(
        evidence("env-server-too-old-for-flask2"),
        vec![
            ("conda.yml".to_owned(), line_of(&conda, "- flask==2.0.2")),
            (
                "conda.yml".to_owned(),
                line_of(&conda, "- azureml-inference-server-http")
            ),
            (
                "requirements.txt".to_owned(),
                line_of(&requirements, "Flask==2.1.0")
            ),
            (
                "requirements.txt".to_owned(),
                line_of(&requirements, "azureml-defaults")
            ),
        ]
    );
    assert_eq!(
        evidence("env-unpinned-packages"),
        vec![("conda.yml".to_owned(), line_of(&conda, "- pandas"))]
    );
    assert_eq!(
        evidence("env-server-jinja2-markup")[0].1,
        line_of(&conda, "- azureml-inference-server-http")
    );
    assert_eq!(evidence("env-pins-server-owned-package").len(), 2);
    // The good project's environment (current server, everything pinned) is clean.
    let good = sb
        .run(&[
            "lint",
            &fixture("lint/good/env/conda.yml"),
            "-o",
            "json",
            "--fail-on",
            "info",
        ])
        .ok()
        .json();
    assert_eq!(findings(&good), Vec::<(String, u64)>::new());
}

#[test]
fn the_scoring_script_the_spec_names_is_read_with_a_python_parser() {
    let sb = Sandbox::new("lint-script");
    let script = fixture("lint/bad-script/src/main.py");
    let run = sb.run(&["lint", &fixture("lint/bad-script"), "-o", "json"]);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    let report = run.json();
    let got = findings(&report);
    assert_eq!(
        got,
        vec![
            (
                "score-script-import-not-in-environment".to_owned(),
                line_of(&script, "import cv2")
            ),
            // `init` is only a method of a class: not the module-level function.
            ("score-script-missing-init-or-run".to_owned(), 1),
            (
                "score-script-model-path-without-model-dir".to_owned(),
                line_of(&script, "self.session"),
            ),
            (
                "score-script-run-takes-no-argument".to_owned(),
                line_of(&script, "def run():")
            ),
        ]
    );
    let imports = evidence(&report, "score-script-import-not-in-environment");
    let texts: Vec<&str> = imports.iter().map(|(_, _, t)| t.as_str()).collect();
    // numpy and onnxruntime are in env/conda.yml; helpers.py sits beside the script.
    assert_eq!(texts.len(), 3, "{texts:?}");
    assert!(
        texts[1].starts_with("import yaml: not in ")
            && texts[1].ends_with("(the package is pyyaml)")
    );
    assert!(
        texts
            .iter()
            .all(|t| !t.contains("helpers") && !t.contains("numpy"))
    );
    // A Python file that is no scoring script is listed, not judged.
    let not_analysed = report["not_analysed"].to_string();
    assert!(not_analysed.contains("helpers.py"), "{not_analysed}");
}

#[test]
fn a_kubernetes_request_over_its_limit_is_an_error_at_the_request() {
    let sb = Sandbox::new("lint-k8s");
    let spec = fixture("lint/kubernetes/green.yml");
    let run = sb.run(&["lint", &spec, "-o", "json"]);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    // 2 CPUs against a 1500m limit; 3Gi of memory is within 4Gi. A Kubernetes spec
    // needs no managed instance type.
    assert_eq!(
        findings(&run.json()),
        vec![(
            "deployment-spec-requests-over-limits".to_owned(),
            line_of(&spec, "cpu: \"2\"")
        )]
    );
}

#[test]
fn parallel_jobs_alone_and_as_pipeline_steps() {
    let sb = Sandbox::new("lint-parallel");
    let job = fixture("lint/parallel/batch-job.yml");
    let pipeline = fixture("lint/parallel/pipeline.yml");
    let run = sb.run(&["lint", &fixture("lint/parallel"), "-o", "json"]);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    let report = run.json();
    let mut got: Vec<(String, String, u64)> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let e = &f["evidence"][0];
            let path = e["path"].as_str().unwrap();
            (
                f["rule_id"].as_str().unwrap().to_owned(),
                path.rsplit('/').next().unwrap().to_owned(),
                e["line"].as_u64().unwrap(),
            )
        })
        .collect();
    got.sort();
    let at = |file: &str, path: &str, key: &str| (file.to_owned(), line_of(path, key));
    let entry = fixture("lint/parallel/src/batch_score.py");
    let expected: Vec<(String, String, u64)> = [
        (
            "parallel-job-error-threshold-invalid",
            at("pipeline.yml", &pipeline, "mini_batch_error_threshold: -5"),
        ),
        (
            "parallel-job-file-not-found",
            at("batch-job.yml", &job, "entry_script"),
        ),
        (
            "parallel-job-logging-level-invalid",
            at("batch-job.yml", &job, "logging_level"),
        ),
        (
            "parallel-job-mini-batch-size-invalid",
            at("batch-job.yml", &job, "mini_batch_size"),
        ),
        // The pipeline step's entry script creates its folder without exist_ok=True.
        (
            "prs-entry-script-init-makedirs-not-idempotent",
            at("batch_score.py", &entry, "os.makedirs"),
        ),
    ]
    .into_iter()
    .map(|(id, (file, line))| (id.to_owned(), file, line))
    .collect();
    assert_eq!(got, expected);
    // The pipeline's command step and its valid settings give nothing; the entry
    // script is read as one (its run(mini_batch) is there), not as a scoring script.
    assert!(
        !report["not_analysed"]
            .to_string()
            .contains("batch_score.py")
    );
}

#[test]
fn sdk_v1_parallel_run_settings_are_read_from_the_python_calls() {
    let sb = Sandbox::new("lint-v1");
    let script = fixture("lint/pipeline-v1/build_pipeline.py");
    let run = sb.run(&["lint", &script, "-o", "json"]);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    assert_eq!(
        findings(&run.json()),
        vec![
            (
                "parallel-job-error-threshold-invalid".to_owned(),
                line_of(&script, "error_threshold=")
            ),
            (
                "parallel-job-mini-batch-size-invalid".to_owned(),
                line_of(&script, "mini_batch_size=")
            ),
            (
                "parallel-run-output-action-invalid".to_owned(),
                line_of(&script, "output_action=")
            ),
            (
                "parallel-run-retries-invalid".to_owned(),
                line_of(&script, "run_max_try=")
            ),
            // The rule's first test is the call itself: the finding starts at its line.
            (
                "parallel-run-step-name-invalid".to_owned(),
                line_of(&script, "batch_step = ")
            ),
        ]
    );
}

#[test]
fn sdk_v1_datasets_and_compute_are_followed_through_the_scripts_assignments() {
    let sb = Sandbox::new("lint-v1-data");
    let script = fixture("lint/pipeline-v1-data/build_pipeline.py");
    let run = sb.run(&["lint", &script, "-o", "json"]);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    let report = run.json();
    assert_eq!(
        findings(&report),
        vec![
            (
                "parallel-run-compute-not-amlcompute".to_owned(),
                line_of(&script, "compute_target=dev_box")
            ),
            (
                "parallel-run-inputs-mixed-types".to_owned(),
                line_of(&script, "inputs=[images")
            ),
            (
                "parallel-run-side-input-not-file".to_owned(),
                line_of(&script, "side_inputs=")
            ),
            (
                "parallel-run-sp-dataset-unregistered".to_owned(),
                line_of(&script, "inputs=[images")
            ),
            (
                "parallel-run-tabular-not-partitionable".to_owned(),
                line_of(&script, "inputs=[images")
            ),
        ]
    );
    let facts = |id: &str| {
        report["findings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["rule_id"] == id)
            .unwrap()["facts"]
            .clone()
    };
    assert_eq!(
        facts("parallel-run-compute-not-amlcompute")["compute_type"],
        "ComputeInstance"
    );
    assert_eq!(
        facts("parallel-run-tabular-not-partitionable")["dataset"],
        "sales"
    );
    assert_eq!(
        facts("parallel-run-tabular-not-partitionable")["source"],
        "sql"
    );
    assert_eq!(
        facts("parallel-run-side-input-not-file")["dataset"],
        "regions"
    );
    assert_eq!(
        facts("parallel-run-sp-dataset-unregistered")["dataset"],
        "images"
    );

    // The reviewed script (a cluster, registered data, a mounted file side input, an input
    // passed through a PipelineParameter) and one whose values are all unknown are clean.
    for clean in [
        "lint/pipeline-v1-data/fixed_pipeline.py",
        "lint/pipeline-v1/build_pipeline.py",
    ] {
        let run = sb.run(&["lint", &fixture(clean), "-o", "json"]);
        let ids: Vec<String> = findings(&run.json())
            .into_iter()
            .map(|(id, _)| id)
            .collect();
        for id in [
            "parallel-run-compute-not-amlcompute",
            "parallel-run-inputs-mixed-types",
            "parallel-run-side-input-not-file",
            "parallel-run-sp-dataset-unregistered",
            "parallel-run-tabular-not-partitionable",
        ] {
            assert!(!ids.contains(&id.to_owned()), "{clean}: {id}");
        }
    }
}

#[test]
fn counts_egress_and_scaling_the_service_refuses() {
    let sb = Sandbox::new("lint-values");
    let spec = sb.write(
        "work/blue.yml",
        "name: blue\nendpoint_name: ep\nmodel: azureml:m:1\ninstance_type: Standard_F4s_v2\ninstance_count: 0\negress_public_network_access: private\nscale_settings:\n  type: target_utilization\n  max_instances: 4\n",
    );
    let run = sb.run(&["lint", spec.to_str().unwrap(), "-o", "json"]);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    assert_eq!(
        findings(&run.json()),
        vec![
            ("deployment-spec-egress-value-invalid".to_owned(), 6),
            ("deployment-spec-managed-target-utilization".to_owned(), 8),
            ("deployment-spec-value-out-of-range".to_owned(), 5),
        ]
    );
    // The commands printed name the spec lint read, not a placeholder.
    let table = sb.run(&["lint", spec.to_str().unwrap()]);
    assert!(
        super::joined(&table.stdout).contains(&format!(
            "amldoctor replicas --rps 10 -f {}",
            spec.display()
        )),
        "{}",
        table.stdout
    );
    assert!(
        !table.stdout.contains("<deployment-yaml>"),
        "{}",
        table.stdout
    );
}

#[test]
fn more_processes_than_gpus_on_the_compute_the_job_names() {
    let sb = Sandbox::new("lint-gpu");
    let run = sb.run(&["lint", &fixture("lint/gpu"), "-o", "json"]);
    // A warning: the gate passes at its default level.
    run.ok();
    let report = run.json();
    let ids: Vec<&str> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["rule_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["parallel-job-processes-exceed-gpus"], "{report}");
    let job = fixture("lint/gpu/embed-images.yml");
    let cluster = fixture("lint/gpu/gpu-cluster.yml");
    let v1 = fixture("lint/gpu/v1/pipeline.py");
    let got = evidence(&report, "parallel-job-processes-exceed-gpus");
    assert_eq!(
        got,
        vec![
            ev(
                "embed-images.yml",
                line_of(&job, "max_concurrency_per_instance"),
                "4 worker processes per node"
            ),
            ev(
                "gpu-cluster.yml",
                line_of(&cluster, "size:"),
                "STANDARD_NC12s_v3 has 2 Tesla V100 GPUs"
            ),
            // The v1 script provisions its own cluster: its vm_size is the node's.
            ev(
                "pipeline.py",
                line_of(&v1, "process_count_per_node"),
                "2 worker processes per node"
            ),
            ev(
                "pipeline.py",
                line_of(&v1, "vm_size"),
                "STANDARD_NC6 has 1 Tesla K80 GPU"
            ),
        ]
    );
    // The job on the CPU cluster runs 8 processes a node and is not flagged; the
    // compute specs are listed as read.
    assert!(!report["findings"].to_string().contains("thumbnails"));
    let kinds: Vec<&str> = report["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds.iter().filter(|k| **k == "compute").count(), 2);
    let table = sb.run(&["lint", &fixture("lint/gpu"), "--no-color"]);
    assert!(
        super::flat(&table.stdout)
            .contains("2 of the processes on every node start without the variable"),
        "{}",
        table.stdout
    );
}

#[test]
fn a_spec_that_leaves_its_names_to_the_command_line() {
    let sb = Sandbox::new("lint-unnamed");
    let spec = fixture("lint/unnamed/deployment.yaml");
    let run = sb.run(&["lint", &fixture("lint/unnamed"), "-o", "json"]);
    // Read as a deployment spec although it has neither $schema nor endpoint_name.
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    let report = run.json();
    assert_eq!(
        findings(&report),
        vec![
            (
                "deployment-spec-missing-name".to_owned(),
                line_of(&spec, "model:")
            ),
            (
                "deployment-spec-no-instance-type".to_owned(),
                line_of(&spec, "model:")
            ),
        ]
    );
    // The printed create command names the spec lint read.
    let f = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule_id"] == "deployment-spec-missing-name")
        .unwrap();
    assert!(
        f["commands"][0].as_str().unwrap().starts_with(&format!(
            "az ml online-deployment create -f {spec} -n <deployment>"
        )),
        "{f}"
    );
}

#[test]
fn pins_beyond_the_environments_python_are_errors_at_their_lines() {
    let sb = Sandbox::new("lint-old-python");
    let env = fixture("lint/old-python/environment.yml");
    let run = sb.run(&["lint", &fixture("lint/old-python"), "-o", "json"]);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    let report = run.json();
    let got = evidence(&report, "env-package-needs-newer-python");
    let at = |key: &str| line_of(&env, key);
    assert_eq!(
        got,
        vec![
            ev(
                "environment.yml",
                at("- azureml-inference-server-http"),
                "azureml-inference-server-http 1.4.1 needs Python 3.9 or newer"
            ),
            ev(
                "environment.yml",
                at("- numpy"),
                "numpy 1.26.4 needs Python 3.9 or newer"
            ),
            // A floor counts as its lowest release.
            ev(
                "environment.yml",
                at("- pandas"),
                "pandas 2.1 needs Python 3.9 or newer"
            ),
            ev(
                "environment.yml",
                at("- python="),
                "the environment installs Python 3.8.18"
            ),
        ]
    );
    // scikit-learn 1.3, torch 2.0 and joblib run on 3.8: not named.
    let text = report["findings"].to_string();
    assert!(
        !text.contains("scikit-learn") && !text.contains("torch"),
        "{text}"
    );
}

#[test]
fn endpoint_specs_are_read_for_their_name_auth_mode_and_access() {
    let sb = Sandbox::new("lint-endpoint");
    let spec = fixture("lint/bad-endpoint/endpoint.yml");
    let run = sb.run(&["lint", &spec, "-o", "json"]);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    let report = run.json();
    assert_eq!(
        findings(&report),
        vec![
            (
                "endpoint-spec-auth-mode-invalid".to_owned(),
                line_of(&spec, "auth_mode")
            ),
            (
                "endpoint-spec-name-invalid".to_owned(),
                line_of(&spec, "name:")
            ),
            (
                "endpoint-spec-public-access-invalid".to_owned(),
                line_of(&spec, "public_network_access")
            ),
        ]
    );
    assert_eq!(report["resources"][0]["kind"], "online-endpoint");
    // A valid endpoint spec gives nothing.
    let good = sb
        .run(&[
            "lint",
            &fixture("lint/good/endpoint.yml"),
            "-o",
            "json",
            "--fail-on",
            "info",
        ])
        .ok()
        .json();
    assert_eq!(good["findings"], serde_json::json!([]));
}

/// A parallel job's entry script whose `run()` takes no mini-batch is found at the
/// `def` line before the job is submitted; the same script with `run(mini_batch)` passes.
#[test]
fn an_entry_script_whose_run_takes_no_mini_batch() {
    let job = "$schema: https://azuremlschemas.azureedge.net/latest/parallelJob.schema.json
type: parallel
name: nightly-scoring
compute: azureml:cpu-cluster
inputs:
  job_data_path:
    type: uri_folder
    path: azureml:nightly-images:1
mini_batch_size: \"10\"
resources:
  instance_count: 1
max_concurrency_per_instance: 2
task:
  type: run_function
  code: ./src
  entry_script: batch.py
  environment: azureml:batch-env:3
";
    let script = "import os\n\n\ndef init():\n    global model\n    model = os.environ.get('AZUREML_MODEL_DIR')\n\n\ndef run():\n    return []\n";
    let sb = Sandbox::new("lint-entry-no-run-arg");
    sb.write("work/job/job.yml", job);
    sb.write("work/job/src/batch.py", script);
    let run = sb.run(&["lint", "job", "-o", "json"]);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    let v = run.json();
    let f = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule_id"] == "prs-entry-script-without-run")
        .unwrap_or_else(|| panic!("no prs-entry-script-without-run in {v}"));
    assert_eq!(f["evidence"][0]["line"], 9, "{f}");
    assert!(
        f["evidence"][0]["path"]
            .as_str()
            .unwrap()
            .ends_with("batch.py"),
        "{f}"
    );

    sb.write(
        "work/job/src/batch.py",
        &script.replace("def run():", "def run(mini_batch):"),
    );
    let run = sb.run(&["lint", "job", "-o", "json"]);
    let v = run.json();
    assert!(
        !v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["rule_id"] == "prs-entry-script-without-run"),
        "{v}"
    );
}

#[test]
fn a_lone_scoring_script_is_checked_and_counted() {
    let sb = Sandbox::new("lint-lone-script");
    let text = std::fs::read_to_string(fixture("lint/bad-script/src/main.py")).unwrap();
    let script = sb.write("work/src/score.py", &text);
    for target in [script.clone(), script.parent().unwrap().to_path_buf()] {
        let run = sb.run(&["lint", target.to_str().unwrap(), "-o", "json"]);
        assert_eq!(run.code, 1, "{}", run.stderr);
        let v = run.json();
        assert_eq!(v["summary"]["inputs_analysed"], 1, "{v:#}");
        assert!(
            v["resources"].to_string().contains("score.py"),
            "{}",
            v["resources"]
        );
    }
    // A spec's scoring script is an input of its own, beside the spec.
    let good = sb.run(&["lint", &fixture("lint/good"), "-o", "json"]);
    assert!(
        good.json()["resources"]
            .to_string()
            .contains("python-script"),
        "{}",
        good.stdout
    );
}

/// A spec that may not be deployed yet is fixed in its file: no `update --set` of a
/// live deployment, but the commands that apply the edited file.
#[test]
fn a_spec_finding_applies_the_file_instead_of_editing_a_live_deployment() {
    let sb = Sandbox::new("lint-apply-file");
    let v = sb
        .run(&[
            "lint",
            &crate::fixture("lint/bad"),
            "-o",
            "json",
            "--fail-on",
            "never",
        ])
        .ok()
        .json();
    let commands: Vec<&str> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|f| f["commands"].as_array().unwrap())
        .filter_map(|c| c.as_str())
        .collect();
    assert!(
        !commands
            .iter()
            .any(|c| c.contains("online-deployment update") && c.contains("--set")),
        "{commands:#?}"
    );
    assert!(
        commands
            .iter()
            .any(|c| c.starts_with("az ml online-deployment create --file ")
                && c.ends_with("blue.yml -g <group> -w <workspace>")),
        "{commands:#?}"
    );
}
