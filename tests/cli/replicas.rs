use crate::{Sandbox, fixture, flat};

#[test]
fn article_example_prints_286_with_its_reasoning() {
    let sb = Sandbox::new("replicas-article");
    let run = sb.run(&["replicas", "--rps", "20"]);
    run.ok();
    assert_eq!(run.stderr, "");
    let out = &run.stdout;
    assert!(
        out.starts_with("286 instances needed for 20 requests/s\n"),
        "{out}"
    );
    assert!(out.contains("= 20 × 10 s / 70 % ≈ 285.714"), "{out}");
    assert!(
        out.contains("ceil(285.714 / 1 concurrent request per instance) = 286"),
        "{out}"
    );
    assert!(out.contains("2 × 1 × 286 = 572 requests pending"), "{out}");
    assert!(out.contains("429 Too Many Requests"), "{out}");
    assert!(
        out.contains("defaulted: --latency, --max-concurrent, --utilization"),
        "{out}"
    );
    // 10 s requests outlast the platform's default 5 s timeout: said, and the command
    // raises it with the instance count.
    assert!(
        flat(out).contains("warning: requests take 10 s but the request timeout is 5000 ms"),
        "{out}"
    );
    assert!(super::joined(out).contains("az ml online-deployment update --name <deployment> --endpoint-name <endpoint> --set instance_count=286 request_settings.request_timeout_ms=13000 -g <group> -w <workspace>"), "{out}");
    assert!(
        !out.contains('\x1b'),
        "no colour when stdout is not a terminal"
    );
}

#[test]
fn json_carries_every_input_with_its_origin_and_every_result() {
    let sb = Sandbox::new("replicas-json");
    let v = sb
        .run(&["replicas", "--rps", "20", "-o", "json"])
        .ok()
        .json();
    assert_eq!(v["schema_version"], 1);
    assert_eq!(v["command"], "replicas");
    assert_eq!(v["inputs"]["rps"]["value"], 20);
    assert_eq!(v["inputs"]["rps"]["origin"]["kind"], "flag");
    assert_eq!(v["inputs"]["rps"]["origin"]["flag"], "--rps");
    assert_eq!(v["inputs"]["request_time_seconds"]["value"], 10);
    assert_eq!(
        v["inputs"]["request_time_seconds"]["origin"]["kind"],
        "default"
    );
    assert_eq!(
        v["inputs"]["max_concurrent_requests_per_instance"]["value"],
        1
    );
    assert_eq!(v["inputs"]["target_utilization"]["value"], 0.7);
    assert_eq!(v["inputs"]["instance_count"], serde_json::Value::Null);
    assert_eq!(v["results"]["instances_required"], 286);
    assert_eq!(v["results"]["concurrent_requests_exact"], "2000/7");
    assert_eq!(v["results"]["concurrent_requests"], 285.714286);
    assert_eq!(v["results"]["pending_request_ceiling"], 572);
    assert_eq!(v["results"]["evaluation"], serde_json::Value::Null);
    assert_eq!(
        v["defaulted_inputs"],
        serde_json::json!(["--latency", "--max-concurrent", "--utilization"])
    );
    assert_eq!(v["warnings"][0]["code"], "request-timeout-exceeded");
}

#[test]
fn yaml_has_the_same_document() {
    let sb = Sandbox::new("replicas-yaml");
    let run = sb.run(&[
        "replicas",
        "--rps",
        "20",
        "--latency",
        "250ms",
        "-o",
        "yaml",
    ]);
    run.ok();
    let v: serde_json::Value = serde_saphyr::from_str(&run.stdout).unwrap();
    assert_eq!(v["schema_version"], 1);
    assert_eq!(v["inputs"]["request_time_seconds"]["value"], 0.25);
    assert_eq!(v["results"]["instances_required"], 8); // ceil(20 × 0.25 / 0.7) = ceil(7.14)
}

#[test]
fn whole_results_are_not_rounded_up() {
    // 2.1 × 10 / 0.7 is 30.000000000000004 in binary floating point.
    let sb = Sandbox::new("replicas-exact");
    let v = sb
        .run(&[
            "replicas",
            "--rps",
            "2.1",
            "--latency",
            "10s",
            "--utilization",
            "70%",
            "-o",
            "json",
        ])
        .ok()
        .json();
    assert_eq!(v["results"]["instances_required"], 30);
    assert_eq!(v["results"]["concurrent_requests_exact"], "30");
    let run = sb.run(&[
        "replicas",
        "--rps",
        "2.1",
        "--latency",
        "PT10S",
        "--utilization",
        "70",
    ]);
    assert!(
        run.ok().stdout.contains("= 2.1 × 10 s / 70 % = 30\n"),
        "{}",
        run.stdout
    );
}

#[test]
fn quiet_prints_only_the_count() {
    let sb = Sandbox::new("replicas-quiet");
    let run = sb.run(&["replicas", "--rps", "20", "--latency", "1s", "-q"]);
    assert_eq!(run.ok().stdout, "29\n");
    assert_eq!(run.stderr, "");
    // When no instance count serves the requests, quiet prints no count to act on.
    let slow = sb.run(&["replicas", "--rps", "20", "--latency", "1h", "-q"]);
    assert_eq!(slow.code, 0, "{}", slow.stderr);
    assert_eq!(slow.stdout, "");
    assert!(
        slow.stderr
            .contains("no instance count or setting makes them succeed"),
        "{}",
        slow.stderr
    );
}

#[test]
fn evaluating_an_existing_instance_count() {
    let sb = Sandbox::new("replicas-eval");
    let run = sb.run(&["replicas", "--rps", "20", "--instances", "3"]);
    let out = &run.ok().stdout;
    assert!(
        out.contains("Existing instance count: 3 (--instances)"),
        "{out}"
    );
    assert!(
        out.contains(
            "sustains 0.21 requests/s at 70 % utilization: short of 20 requests/s by 283 instances"
        ),
        "{out}"
    );
    assert!(out.contains("2 × 1 × 3 = 6 pending requests"), "{out}");

    let v = sb
        .run(&[
            "replicas",
            "--rps",
            "20",
            "--instances",
            "300",
            "-o",
            "json",
        ])
        .ok()
        .json();
    assert_eq!(v["results"]["evaluation"]["meets_target"], true);
    assert_eq!(v["results"]["evaluation"]["sustained_rps"], 21);
    assert_eq!(v["results"]["evaluation"]["pending_request_ceiling"], 600);
    // Enough instances, but 10 s requests need a longer timeout: only that is set.
    assert_eq!(
        v["next_command"],
        "az ml online-deployment update --name <deployment> --endpoint-name <endpoint> --set request_settings.request_timeout_ms=13000 -g <group> -w <workspace>"
    );
    let run = sb.run(&[
        "replicas",
        "--rps",
        "1",
        "--latency",
        "4s",
        "--instances",
        "10",
    ]);
    assert!(
        run.ok().stdout.contains("No change needed"),
        "{}",
        run.stdout
    );
}

#[test]
fn deployment_file_supplies_values_and_flags_override_it() {
    let sb = Sandbox::new("replicas-file");
    let file = fixture("deployments/blue-managed.yml");
    let v = sb
        .run(&["replicas", "--rps", "20", "-f", &file, "-o", "json"])
        .ok()
        .json();
    assert_eq!(
        v["inputs"]["max_concurrent_requests_per_instance"]["value"],
        2
    );
    let origin = &v["inputs"]["max_concurrent_requests_per_instance"]["origin"];
    assert_eq!(origin["kind"], "deployment-file");
    assert_eq!(
        origin["key"],
        "request_settings.max_concurrent_requests_per_instance"
    );
    assert!(
        origin["path"]
            .as_str()
            .unwrap()
            .ends_with("blue-managed.yml")
    );
    assert_eq!(v["inputs"]["instance_count"]["value"], 3);
    assert_eq!(v["inputs"]["request_timeout_ms"]["value"], 5000);
    assert_eq!(v["results"]["instances_required"], 143); // ceil(285.71 / 2)
    assert_eq!(v["results"]["evaluation"]["instances"], 3);
    assert_eq!(
        v["defaulted_inputs"],
        serde_json::json!(["--latency", "--utilization"])
    );
    // 10 s default latency against a 5 s timeout: 408 before capacity matters.
    assert_eq!(v["warnings"][0]["code"], "request-timeout-exceeded");
    assert!(
        v["warnings"][0]["message"]
            .as_str()
            .unwrap()
            .contains("408")
    );
    assert_eq!(
        v["next_command"],
        "az ml online-deployment update --name blue --endpoint-name churn-endpoint --set instance_count=143 request_settings.request_timeout_ms=13000 -g <group> -w <workspace>"
    );

    let v = sb
        .run(&[
            "replicas",
            "--rps",
            "20",
            "-f",
            &file,
            "--max-concurrent",
            "1",
            "--latency",
            "2s",
            "-o",
            "json",
        ])
        .ok()
        .json();
    assert_eq!(
        v["inputs"]["max_concurrent_requests_per_instance"]["origin"]["kind"],
        "flag"
    );
    assert_eq!(v["results"]["instances_required"], 58); // ceil(20 × 2 / 0.7)
    // No timeout warning; 58 is past the default 50 instances a deployment may have.
    assert_eq!(v["warnings"].as_array().unwrap().len(), 1, "{v}");
    assert_eq!(v["warnings"][0]["code"], "instances-over-deployment-limit");
}

#[test]
fn table_shows_the_408_warning() {
    let sb = Sandbox::new("replicas-408");
    let file = fixture("deployments/blue-managed.yml");
    let run = sb.run(&["replicas", "--rps", "20", "--latency", "6s", "-f", &file]);
    let out = &run.ok().stdout;
    assert!(
        flat(out).contains("warning: requests take 6 s but the request timeout is 5000 ms"),
        "{out}"
    );
    assert!(flat(out).contains("408 Request Timeout"), "{out}");
    // Quiet keeps stdout to the number and the warning on stderr.
    let run = sb.run(&[
        "replicas",
        "--rps",
        "20",
        "--latency",
        "6s",
        "-f",
        &file,
        "-q",
    ]);
    assert_eq!(run.ok().stdout, "86\n");
    assert!(
        run.stderr.starts_with("warning: requests take 6 s"),
        "{}",
        run.stderr
    );
}

#[test]
fn an_autoscale_maximum_that_covers_the_need_is_never_lowered() {
    let sb = Sandbox::new("replicas-autoscale-covered");
    let file = fixture("deployments/green-kubernetes.yml");
    // The file's autoscaler allows up to 10 instances; 2 are needed here.
    let v = sb
        .run(&[
            "replicas",
            "--rps",
            "2",
            "--latency",
            "0.4s",
            "-f",
            &file,
            "-o",
            "json",
        ])
        .ok()
        .json();
    assert_eq!(v["results"]["instances_required"], 2);
    assert_eq!(v["next_command"], serde_json::Value::Null, "{v}");
    assert!(
        v["no_command_reason"]
            .as_str()
            .unwrap()
            .contains("already covers the 2 needed"),
        "{v}"
    );
}

#[test]
fn requests_longer_than_the_platform_maximum_get_no_update_command() {
    let sb = Sandbox::new("replicas-over-max");
    let run = sb.run(&["replicas", "--rps", "1", "--latency", "200s"]);
    let out = &run.ok().stdout;
    assert!(
        flat(out).contains("longer than the 180 s request timeout"),
        "{out}"
    );
    assert!(!out.contains("az ml online-deployment update"), "{out}");
    assert!(out.contains("No update command"), "{out}");
    // The headline does not promise a count that cannot help, and says "1 request/s".
    let head = out.lines().next().unwrap_or_default();
    assert!(head.starts_with("No instance count helps"), "{out}");
    assert!(!flat(out).contains("1 requests/s"), "{out}");
}

#[test]
fn kubernetes_autoscaler_settings() {
    let sb = Sandbox::new("replicas-k8s");
    let file = fixture("deployments/green-kubernetes.yml");
    let v = sb
        .run(&["replicas", "--rps", "20", "-f", &file, "-o", "json"])
        .ok()
        .json();
    assert_eq!(v["inputs"]["target_utilization"]["value"], 0.6);
    assert_eq!(
        v["inputs"]["target_utilization"]["origin"]["key"],
        "scale_settings.target_utilization_percentage"
    );
    assert_eq!(v["results"]["instances_required"], 334); // ceil(200 / 0.6)
    assert_eq!(v["warnings"][0]["code"], "autoscale-max-below-required");
    assert!(
        v["next_command"]
            .as_str()
            .unwrap()
            .contains("--set scale_settings.max_instances=334")
    );
}

#[test]
fn every_invalid_input_exits_2_naming_the_option() {
    let sb = Sandbox::new("replicas-invalid");
    let cases: &[(&[&str], &[&str])] = &[
        (&["replicas"], &["--rps"]),
        (&["replicas", "--rps", "0"], &["--rps", "greater than 0"]),
        (
            &["replicas", "--rps", "-5"],
            &["invalid value '-5' for '--rps <RPS>'"],
        ),
        (&["replicas", "--rps", "lots"], &["--rps", "decimal number"]),
        (&["replicas", "--rps", "1e3"], &["--rps"]),
        (
            &["replicas", "--rps", "20", "--latency", "10x"],
            &["--latency", "250ms", "PT10S"],
        ),
        (
            &["replicas", "--rps", "20", "--latency", "0s"],
            &["--latency"],
        ),
        (
            &["replicas", "--rps", "20", "--latency", "PT"],
            &["--latency"],
        ),
        (
            &["replicas", "--rps", "20", "--utilization", "150"],
            &["--utilization", "70%"],
        ),
        (
            &["replicas", "--rps", "20", "--utilization", "0"],
            &["--utilization"],
        ),
        (
            &["replicas", "--rps", "20", "--utilization", "high"],
            &["--utilization"],
        ),
        (
            &["replicas", "--rps", "20", "--max-concurrent", "0"],
            &["--max-concurrent", "whole number"],
        ),
        (
            &["replicas", "--rps", "20", "--max-concurrent", "1.5"],
            &["--max-concurrent"],
        ),
        (
            &["replicas", "--rps", "20", "--instances", "-1"],
            &["invalid value '-1' for '--instances <N>'", "at least 1"],
        ),
        (
            &["replicas", "--rps", "20", "--instances", "many"],
            &["--instances"],
        ),
        (&["replicas", "--rps", "20", "--bogus"], &["--bogus"]),
        (
            &["replicas", "--rps", "20", "-o", "xml"],
            &["--output", "table"],
        ),
        (
            &["replicas", "--rps", "20", "--cloud", "Mars"],
            &["--cloud", "AzureCloud"],
        ),
        (
            &["replicas", "--rps", "20", "-w", "x"],
            &["--workspace-name", "3 to 33"],
        ),
        (
            &["replicas", "--rps", "20", "-g", "rg."],
            &["--resource-group"],
        ),
        (
            &["replicas", "--rps", "20", "-f", "no-such.yml"],
            &["no-such.yml", "no such file"],
        ),
        (
            &[
                "replicas",
                "--rps",
                &"9".repeat(30),
                "--latency",
                &"9".repeat(30),
                "--utilization",
                "0.000001",
            ],
            &["too large"],
        ),
    ];
    for (args, needles) in cases {
        let run = sb.run(args);
        assert_eq!(run.code, 2, "{args:?}: {run:?}");
        assert_eq!(run.stdout, "", "{args:?}");
        assert!(
            run.stderr.starts_with("error: "),
            "{args:?}: {}",
            run.stderr
        );
        for n in *needles {
            assert!(
                run.stderr.contains(n),
                "{args:?}: stderr lacks {n:?}:\n{}",
                run.stderr
            );
        }
    }
}

#[test]
fn bad_deployment_files_name_file_and_key() {
    let sb = Sandbox::new("replicas-badfile");
    let cases = [
        ("bad-yaml.yml", "name: [blue\n", "invalid YAML at line 1"),
        (
            "bad-key.yml",
            "name: blue\nrequest_settings:\n  request_timeout_ms: soon\n",
            "request_settings.request_timeout_ms must be a whole number of at least 1, found 'soon'",
        ),
        (
            "bad-util.yml",
            "scale_settings:\n  type: target_utilization\n  target_utilization_percentage: 0\n",
            "scale_settings.target_utilization_percentage must be a whole number from 1 to 100",
        ),
        ("empty.yml", "", "the file is empty"),
        ("list.yml", "- name: blue\n", "expected a YAML mapping"),
    ];
    for (name, text, message) in cases {
        let path = sb.write(&format!("work/{name}"), text);
        let run = sb.run(&["replicas", "--rps", "20", "-f", path.to_str().unwrap()]);
        run.usage_error(&[name, message]);
    }
    let path = sb.root.join("work/binary.yml");
    std::fs::write(&path, b"name: \xff\xfe\x00\n").unwrap();
    sb.run(&["replicas", "--rps", "20", "-f", path.to_str().unwrap()])
        .usage_error(&["binary.yml", "not UTF-8"]);
    sb.run(&["replicas", "--rps", "20", "-f", sb.work().to_str().unwrap()])
        .usage_error(&["is a directory"]);
}

#[test]
fn negative_latency_and_tiny_rates_read_clearly() {
    let sb = Sandbox::new("replicas-edges");
    sb.run(&["replicas", "--rps", "20", "--latency", "-1s"])
        .usage_error(&[
            "invalid value '-1s' for '--latency <DURATION>': expected a duration greater than 0",
        ]);
    let run = sb.run(&["replicas", "--rps", "0.0000001"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("for 0.0000001 requests/s"),
        "{}",
        run.stdout
    );
    let run = sb.run(&["replicas", "--rps", "99999999999999999999999999"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("too large"), "{}", run.stderr);
}

#[test]
fn a_yaml_that_is_not_a_deployment_is_an_error() {
    let sb = Sandbox::new("replicas-not-deployment");
    let env = sb.write(
        "work/env.yml",
        "$schema: https://azuremlschemas.azureedge.net/latest/environment.schema.json\nname: my-env\nimage: mcr.microsoft.com/azureml/openmpi4.1.0-ubuntu20.04\nconda_file: conda.yaml\n",
    );
    sb.run(&["replicas", "--rps", "10", "-f", env.to_str().unwrap()])
        .usage_error(&["env.yml: this is not an online deployment YAML (its $schema is environment.schema.json)"]);
}

/// A result past the service's default limits says so: a rate over what one
/// managed endpoint takes, a count over what one deployment (or endpoint) may have.
#[test]
fn a_count_past_the_service_limits_is_said_to_be() {
    let sb = Sandbox::new("replicas-limits");
    let v = sb
        .run(&["replicas", "--rps", "1000000000", "-o", "json"])
        .ok()
        .json();
    let codes: Vec<&str> = v["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["code"].as_str().unwrap())
        .collect();
    assert!(codes.contains(&"rps-over-endpoint-limit"), "{codes:?}");
    assert!(
        codes.contains(&"instances-over-deployment-limit"),
        "{codes:?}"
    );
    let run = sb.run(&["replicas", "--rps", "1000000000", "-q"]);
    assert_eq!(run.ok().stdout, "14285714286\n");
    assert!(
        flat(&run.stderr).contains("more than the 50 a managed online deployment may have"),
        "{}",
        run.stderr
    );
    assert!(
        flat(&run.stderr).contains("at least 14285715 endpoints"),
        "{}",
        run.stderr
    );
    // Within the limits: not a word about them.
    let v = sb
        .run(&[
            "replicas",
            "--rps",
            "20",
            "--latency",
            "250ms",
            "-o",
            "json",
        ])
        .ok()
        .json();
    assert_eq!(v["warnings"], serde_json::json!([]), "{v}");
}

/// Fewer instances running than needed, with an autoscale maximum that covers the
/// need: one story (autoscale may add them), not "short by 5" beside "no change".
#[test]
fn autoscale_that_covers_the_need_explains_a_shortfall_now() {
    let sb = Sandbox::new("replicas-autoscale-short");
    let file = sb.write(
        "work/green.yml",
        "name: green\nendpoint_name: ep1\ninstance_count: 3\nscale_settings:\n  type: target_utilization\n  min_instances: 1\n  max_instances: 10\n  target_utilization_percentage: 70\nrequest_settings:\n  request_timeout_ms: 5000\n  max_concurrent_requests_per_instance: 2\n",
    );
    let run = sb.run(&[
        "replicas",
        "--rps",
        "5",
        "--latency",
        "2s",
        "-f",
        file.to_str().unwrap(),
    ]);
    let out = flat(&run.ok().stdout);
    assert!(
        out.contains("short of 5 requests/s by 5 instances until autoscale adds them"),
        "{out}"
    );
    assert!(!out.contains("No change needed"), "{out}");
    assert!(
        out.contains("autoscale may grow the 3 running now to the 8 needed"),
        "{out}"
    );
}
