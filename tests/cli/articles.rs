//! What the two troubleshooting articles teach, checked through the binary on logs as
//! users paste them: the Flask 2 image cut-off against the server that really runs, the
//! "cannot score" entry point, bandwidth headers in any order, certificate failures, the
//! container that needs more than its instance type, and near misses that must stay quiet.

use serde_json::Value;

use crate::Sandbox;

fn ids(sb: &Sandbox, name: &str, text: &str) -> Vec<String> {
    let file = sb.write(name, text);
    let run = sb.run(&[
        "diagnose",
        file.to_str().unwrap(),
        "-o",
        "json",
        "--fail-on",
        "never",
        "--min-severity",
        "info",
    ]);
    assert_eq!(run.code, 0, "{name}: {}", run.stderr);
    let v: Value = run.json();
    crate::rule_ids(&v)
}

fn container_log(build: &str, server: &str) -> String {
    let banner = if server.starts_with('0') {
        format!("Azure ML Inferencing HTTP server v{server}\n")
    } else {
        format!(
            "\nAzure ML Inferencing HTTP server v{server}\n\nServer Settings\n---------------\n"
        )
    };
    format!(
        "2022-08-01T08:14:51,101355411+00:00 | gunicorn/run | AzureML image information: openmpi4.1.0-ubuntu20.04, Materializaton Build:{build}.v1\n\
         2022-08-01T08:14:51,120000000+00:00 | gunicorn/run | Pip Dependencies (before dynamic installation)\n\n\
         azureml-inference-server-http=={server}\nflask==2.2.5\nnumpy==1.21.6\n\n{banner}"
    )
}

#[test]
fn the_flask2_cut_off_is_july_2022_and_only_for_an_old_server() {
    let sb = Sandbox::new("articles-flask2");
    for (build, server, flagged) in [
        ("20220630", "0.4.13", true),
        ("20220701", "0.4.13", false),
        ("20220708", "0.4.13", false),
        ("20220630", "1.3.2", false),
        ("20220701", "1.3.2", false),
        ("20220708", "1.3.2", false),
    ] {
        let found = ids(
            &sb,
            &format!("{build}-{server}.log"),
            &container_log(build, server),
        );
        let image_rules = found
            .iter()
            .any(|id| id == "image-predates-flask2" || id == "image-predates-flask2-with-flask2");
        assert_eq!(
            image_rules, flagged,
            "{build} with server {server}: {found:?}"
        );
    }
}

#[test]
fn a_failed_scoring_call_is_an_entry_point_with_get_logs_first() {
    let sb = Sandbox::new("articles-score");
    let curl = "> POST /score HTTP/1.1\n> Host: churn-ep.eastus2.inference.ml.azure.com\n> Authorization: Bearer <redacted>\n>\n< HTTP/1.1 404 Not Found\n< content-type: application/json\n< x-request-id: 5d1e7a3c-9f0b-4c2d-8e6a-1b2c3d4e5f60\n";
    let file = sb.write("curl.txt", curl);
    let run = sb.run(&["diagnose", file.to_str().unwrap(), "--fail-on", "never"]);
    assert!(
        run.stdout.contains("error[scoring-request-failed]"),
        "{}",
        run.stdout
    );
    let commands: Vec<&str> = run
        .stdout
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("run:"))
        .skip(1)
        .take(2)
        .map(str::trim)
        .collect();
    assert!(
        commands[0].starts_with("az ml online-deployment get-logs -e churn-ep"),
        "{commands:?}"
    );
    assert_eq!(commands[1], "amldoctor explain 404");
    // A healthy call, a 429 (its own rule) and the server's own access log are not it.
    let ok = ids(&sb, "ok.txt", &curl.replace("404 Not Found", "200 OK"));
    assert!(!ok.contains(&"scoring-request-failed".to_owned()), "{ok:?}");
    let throttled = ids(
        &sb,
        "429.txt",
        &curl.replace("404 Not Found", "429 Too Many Requests"),
    );
    assert!(
        !throttled.contains(&"scoring-request-failed".to_owned()),
        "{throttled:?}"
    );
    let access = ids(
        &sb,
        "access.log",
        "127.0.0.1 - - [16/May/2023:22:10:03 +0000] \"POST /score HTTP/1.1\" 404 52 \"-\" \"python-requests/2.31.0\"\n",
    );
    assert!(
        !access.contains(&"scoring-request-failed".to_owned()),
        "{access:?}"
    );
    // `explain scoring` is the same entry point.
    let explain = sb.run(&["explain", "scoring"]);
    assert_eq!(explain.code, 0, "{}", explain.stderr);
    assert!(
        explain.stdout.contains("az ml online-deployment get-logs"),
        "{}",
        explain.stdout
    );
}

#[test]
fn bandwidth_delays_are_found_in_any_header_order_and_shape() {
    let sb = Sandbox::new("articles-bandwidth");
    for (name, text, throttled) in [
        (
            "curl.txt",
            "< HTTP/1.1 200 OK\n< ms-azureml-bandwidth-request-delay-ms: 0\n< ms-azureml-bandwidth-response-delay-ms: 350\n",
            true,
        ),
        (
            "dict.txt",
            "{'content-type': 'application/json', 'ms-azureml-bandwidth-request-delay-ms': '0', 'ms-azureml-bandwidth-response-delay-ms': '420'}\n",
            true,
        ),
        (
            "zero.txt",
            "< ms-azureml-bandwidth-request-delay-ms: 0\n< ms-azureml-bandwidth-response-delay-ms: 0\n",
            false,
        ),
    ] {
        let found = ids(&sb, name, text);
        assert_eq!(
            found.contains(&"scoring-bandwidth-throttled".to_owned()),
            throttled,
            "{name}: {found:?}"
        );
    }
    let explain = sb.run(&["explain", "ms-azureml-bandwidth-response-delay-ms"]);
    assert_eq!(explain.code, 0, "{}", explain.stderr);
    assert!(
        explain.stdout.contains("Network bytes"),
        "{}",
        explain.stdout
    );
}

#[test]
fn certificate_failures_and_the_container_too_big_for_its_instance() {
    let sb = Sandbox::new("articles-tls");
    let tls = ids(
        &sb,
        "tls.txt",
        "curl -X POST https://ml.contoso.com/api/v1/endpoint/churn-ep/score -d @sample.json\ncurl: (60) SSL certificate problem: certificate has expired\n",
    );
    assert!(
        tls.contains(&"scoring-tls-handshake-failed".to_owned()),
        "{tls:?}"
    );
    let pip = ids(
        &sb,
        "pip.txt",
        "curl: (60) SSL certificate problem: unable to get local issuer certificate while fetching https://pypi.org/simple/numpy/\n",
    );
    assert!(
        !pip.contains(&"scoring-tls-handshake-failed".to_owned()),
        "{pip:?}"
    );
    let quota = ids(
        &sb,
        "quota.txt",
        "ERROR: (None) OutOfQuota: Container terminated due to insufficient resources. Please see troubleshooting guide, available here: https://aka.ms/oe-tsg#error-outofquota\nCode: None\n",
    );
    assert!(
        quota.contains(&"out-of-quota-container-resources".to_owned()),
        "{quota:?}"
    );
    assert!(!quota.contains(&"out-of-quota".to_owned()), "{quota:?}");
    let explain = sb.run(&["explain", "OutOfQuota"]);
    assert!(
        explain.stdout.contains("out-of-quota-container-resources"),
        "{}",
        explain.stdout
    );
}

#[test]
fn an_argparse_error_is_a_parallel_run_step_one_only_with_the_drivers_arguments() {
    let sb = Sandbox::new("articles-argparse");
    let az = ids(
        &sb,
        "az.txt",
        "usage: az ml online-deployment show [-h]\naz: error: unrecognized arguments: --deployment blue\n",
    );
    assert!(
        !az.contains(&"prs-entry-script-unrecognized-arguments".to_owned()),
        "{az:?}"
    );
    let prs = ids(
        &sb,
        "prs.txt",
        "usage: score.py [-h] [--model_name MODEL_NAME]\nscore.py: error: unrecognized arguments: --client_sdk_version 1.51.0 --scoring_module_name score.py\n",
    );
    assert!(
        prs.contains(&"prs-entry-script-unrecognized-arguments".to_owned()),
        "{prs:?}"
    );
}
