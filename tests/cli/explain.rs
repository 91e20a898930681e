//! `amldoctor explain`: codes, statuses, rule ids, near misses.

use crate::Sandbox;

#[test]
fn every_deployment_error_code_is_explained() {
    let sb = Sandbox::new("explain-codes");
    for code in [
        "ImageBuildFailure",
        "OutOfQuota",
        "BadArgument",
        "ResourceNotReady",
        "ResourceNotFound",
        "OperationCanceled",
        "SecretsInjectionError",
        "InternalServerError",
        "WorkspaceManagedNetworkNotReady",
        "V1LegacyMode",
        "ACRSecretError",
        "TokenRefreshFailed",
        "GetAADTokenFailed",
        "ACRAuthenticationChallengeFailed",
        "ACRTokenExchangeFailed",
        "KubernetesUnaccessible",
        "ImagePullLoopBackOff",
        "DeploymentCrashLoopBackOff",
        "KubernetesCrashLoopBackOff",
        "UserScriptInitFailed",
        "UserScriptImportError",
        "UserScriptFunctionNotFound",
        "NamespaceNotFound",
        "EndpointNotFound",
        "EndpointAlreadyExists",
        "ScoringFeUnhealthy",
        "ValidateScoringFailed",
        "InvalidDeploymentSpec",
        "PodUnschedulable",
        "PodOutOfMemory",
        "InferencingClientCallFailed",
    ] {
        let run = sb.run(&["explain", code]);
        assert_eq!(run.code, 0, "{code}: {}", run.stderr);
        assert!(
            run.stdout.lines().next().is_some_and(|l| l.contains(code))
                && run.stdout.contains("\nrule "),
            "{code}:\n{}",
            run.stdout
        );
        let lower = sb.run(&["explain", &code.to_lowercase()]);
        assert_eq!(lower.stdout, run.stdout, "{code} is case-insensitive");
    }
}

#[test]
fn every_http_status_of_both_tables() {
    let sb = Sandbox::new("explain-status");
    for status in [
        "200", "401", "404", "408", "424", "429", "500", "409", "502", "503", "504",
    ] {
        let run = sb.run(&["explain", status]);
        assert_eq!(run.code, 0, "{status}: {}", run.stderr);
        assert!(
            run.stdout.starts_with(&format!("HTTP {status}: ")),
            "{status}:\n{}",
            run.stdout
        );
    }
    let out = sb.run(&["explain", "429"]).stdout;
    assert_eq!(
        out.matches("\nHTTP 429: ").count() + usize::from(out.starts_with("HTTP 429: ")),
        2,
        "both meanings of 429:\n{out}"
    );
    assert!(
        out.contains("amldoctor replicas"),
        "429 points at replicas:\n{out}"
    );
    let out = sb.run(&["explain", "500"]).stdout;
    assert!(
        out.contains("managed online endpoints") && out.contains("Kubernetes online endpoints"),
        "{out}"
    );
    let v = sb.run(&["explain", "424", "-o", "json"]).ok().json();
    assert_eq!(v["statuses"][0]["status"], 424);
    // Every scoring failure of a Kubernetes endpoint asks the router for the swagger, and
    // only there: a managed endpoint has no azureml-fe pod to exec into.
    for status in ["500", "502", "503", "504"] {
        let v = sb.run(&["explain", status, "-o", "json"]).ok().json();
        for s in v["statuses"].as_array().unwrap() {
            let commands = s["commands"].to_string();
            let asks = commands.contains(
                "deploy/azureml-fe -- curl -sk https://localhost:<port>/api/v1/endpoint/",
            );
            assert_eq!(
                asks,
                s["endpoint"] == "kubernetes",
                "{status} {}: {commands}",
                s["endpoint"]
            );
        }
    }
}

#[test]
fn rule_ids_and_unknown_input() {
    let sb = Sandbox::new("explain-rules");
    let run = sb.run(&["explain", "FLASK2-register-typeerror"]);
    assert!(
        run.ok().stdout.starts_with("flask2-register-typeerror: "),
        "{}",
        run.stdout
    );
    let run = sb.run(&["explain", "OutOfQuta"]);
    run.usage_error(&["'OutOfQuta' is not a known error code, HTTP status or rule id"]);
    assert!(
        run.stderr.contains("hint: did you mean OutOfQuota"),
        "{}",
        run.stderr
    );
    sb.run(&["explain", "418"]).usage_error(&["'418'"]);
}

#[test]
fn forbidden_and_unregistered_providers_are_known() {
    let sb = Sandbox::new("explain-403");
    let run = sb.run(&["explain", "403"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("HTTP 403: Forbidden"), "{}", run.stdout);
    for code in [
        "MissingSubscriptionRegistration",
        "SubscriptionNotRegistered",
    ] {
        let run = sb.run(&["explain", code]);
        assert_eq!(run.code, 0, "{code}: {}", run.stderr);
        assert!(
            run.stdout.contains("resource-provider-not-registered"),
            "{}",
            run.stdout
        );
        assert!(
            run.stdout.contains("az provider register --namespace"),
            "{}",
            run.stdout
        );
    }
}

#[test]
fn client_side_scoring_errors_are_found_by_diagnose() {
    let sb = Sandbox::new("diagnose-scoring-status");
    let log = sb.write(
        "work/client.txt",
        "Scoring batch 3 ...\nResponse Code: 429\nResponse Body: {\"message\": \"Too many pending requests\"}\nScoring batch 4 ...\nResponse Code: 408\nResponse Body: upstream request timeout\n",
    );
    let v = sb.diagnose_json(&[log.to_str().unwrap()]);
    let ids: Vec<&str> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["rule_id"].as_str().unwrap())
        .collect();
    assert!(ids.contains(&"scoring-too-many-requests"), "{ids:?}");
    assert!(ids.contains(&"scoring-request-timeout"), "{ids:?}");
}

#[test]
fn an_answer_not_a_rule_dump() {
    let sb = Sandbox::new("explain-answer");
    let run = sb.run(&["explain", "OutOfQuota"]);
    let out = &run.ok().stdout;
    // The usual case leads; the others follow one line each.
    assert!(
        out.starts_with("OutOfQuota: Not enough vCPU quota for the deployment's VM size\nrule out-of-quota-vm-cores, error\n"),
        "{out}"
    );
    let others = out
        .split("Other cases of OutOfQuota")
        .nth(1)
        .expect("the other cases");
    for id in [
        "out-of-quota-cluster",
        "out-of-quota-disk",
        "out-of-quota-vm-family-none",
    ] {
        assert!(
            others.lines().any(|l| l.trim_start().starts_with(id)),
            "{id}: {others}"
        );
    }
    // Rendered for a terminal: no markdown marks, no regexes.
    for raw in ["**", "```", "<https://", "Matches a line like"] {
        assert!(!out.contains(raw), "{raw} in:\n{out}");
    }
    // -q: the headline and the commands.
    let short = sb.run(&["explain", "OutOfQuota", "-q"]).ok().stdout.clone();
    assert!(
        short.len() < out.len() / 2 && short.contains("az ml compute list-usage"),
        "{short}"
    );
    // -o markdown keeps the text as markdown, for an issue.
    let md = sb
        .run(&["explain", "OutOfQuota", "-o", "markdown"])
        .ok()
        .stdout
        .clone();
    assert!(
        md.starts_with("## OutOfQuota: ") && md.contains("```sh\n"),
        "{md}"
    );
    sb.run(&["explain", "OutOfQuota", "-o", "sarif"])
        .usage_error(&["use table, markdown, json or yaml"]);
    // The names the run knows are filled in; the rest show as <name>.
    let filled = sb
        .run(&["explain", "OutOfQuota", "-g", "rg-x", "-w", "ws-x"])
        .ok()
        .stdout
        .clone();
    assert!(
        filled.contains("az ml compute list-usage -g rg-x -w ws-x -o table"),
        "{filled}"
    );
    assert!(out.contains("-g <group> -w <workspace>"), "{out}");
}

#[test]
fn the_answer_says_which_flag_fills_each_name() {
    let sb = Sandbox::new("explain-fill");
    let out = sb.run(&["explain", "OutOfQuota"]).ok().stdout.clone();
    let block = out
        .split("Fill in before running the commands above:")
        .nth(1)
        .expect("a fill-in list");
    for line in ["<group>", "-g GROUP", "<workspace>", "-w WORKSPACE"] {
        assert!(block.contains(line), "{line}: {out}");
    }
    // Named by flags and the project file, nothing is left to fill.
    sb.write("work/.amldoctor.yaml", "endpoint: ep-x\n");
    let out = sb
        .run(&["explain", "OutOfQuota", "-g", "rg-x", "-w", "ws-x"])
        .ok()
        .stdout
        .clone();
    assert!(out.contains("-g rg-x -w ws-x"), "{out}");
    assert!(!out.contains("Fill in before"), "{out}");
    // The other cases stay one line each at 80 columns.
    let mut cmd = sb.command(&["explain", "OutOfQuota"]);
    cmd.env("COLUMNS", "80");
    let out = crate::Run::from(cmd.output().unwrap()).ok().stdout.clone();
    let others = out
        .split("Other cases of OutOfQuota")
        .nth(1)
        .expect("others");
    for line in others.lines().skip(1) {
        assert!(
            line.is_empty() || line.starts_with("  out-of-quota"),
            "{line:?}"
        );
    }
}

#[test]
fn machine_formats_carry_the_filled_commands_and_what_is_missing() {
    let sb = Sandbox::new("explain-json-filled");
    for code in ["OutOfQuota", "429"] {
        let v = sb
            .run(&["explain", code, "-o", "json", "-g", "rg-x", "-w", "ws-x"])
            .ok()
            .json();
        let text = v.to_string();
        assert!(
            !text.contains("{group}") && !text.contains("{endpoint}"),
            "{code}: {text}"
        );
        assert!(text.contains("-g rg-x -w ws-x"), "{code}: {text}");
        let missing = v["missing_names"].to_string();
        assert!(missing.contains("<endpoint>"), "{code}: {missing}");
        assert!(!missing.contains("<group>"), "{code}: {missing}");
    }
}

#[test]
fn a_findings_format_set_for_ci_falls_back_where_it_does_not_apply() {
    // AMLDOCTOR_OUTPUT=sarif is set for the gates; explain, rules and replicas write
    // their table instead of refusing a -o nobody passed.
    let sb = Sandbox::new("explain-env-output").env("AMLDOCTOR_OUTPUT", "sarif");
    for args in [
        vec!["explain", "OutOfQuota"],
        vec!["rules", "list"],
        vec!["replicas", "--rps", "20"],
    ] {
        let run = sb.run(&args);
        assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
        assert!(
            !run.stdout.trim_start().starts_with('{'),
            "{args:?}: a table"
        );
    }
    // The findings commands still write SARIF.
    let log = crate::fixture("logs/server-0.4.13-old-image-flask2.log");
    let diag = sb.run(&["diagnose", &log]);
    assert!(diag.stdout.contains("\"$schema\""), "{}", diag.stdout);
    // A -o the user typed is still refused where it does not apply.
    let typed = sb.run(&["explain", "OutOfQuota", "-o", "sarif"]);
    assert_eq!(typed.code, 2, "{}", typed.stderr);
    assert!(
        typed.stderr.contains("-o sarif does not apply"),
        "{}",
        typed.stderr
    );
}

#[test]
fn a_status_pasted_with_its_reason_is_explained() {
    let sb = Sandbox::new("explain-status-forms");
    let plain = sb.run(&["explain", "429", "-o", "json"]);
    assert_eq!(plain.code, 0, "{}", plain.stderr);
    for q in ["HTTP 429", "429 Too Many Requests", "HTTP/1.1 429"] {
        let run = sb.run(&["explain", q, "-o", "json"]);
        assert_eq!(run.code, 0, "{q}: {}", run.stderr);
        assert_eq!(run.json()["statuses"], plain.json()["statuses"], "{q}");
        assert!(
            !run.json()["statuses"].as_array().unwrap().is_empty(),
            "{q}"
        );
    }
}

/// Every answer opens the same way, `WHAT: title`, whether the question was a code,
/// a rule id or a status, and says no code twice.
#[test]
fn headings_name_what_was_asked_then_what_it_is() {
    let sb = Sandbox::new("explain-headings");
    for (query, start) in [
        ("OutOfQuota", "OutOfQuota: "),
        ("user-init-failed", "user-init-failed: "),
        ("CrashLoopBackOff", "CrashLoopBackOff: "),
        ("429", "HTTP 429: "),
    ] {
        let out = sb.run(&["explain", query, "-q"]).ok().stdout.clone();
        let head = out.lines().next().unwrap();
        assert!(head.starts_with(start), "{query}: {head}");
        assert_eq!(head.matches(query).count(), 1, "{query} said twice: {head}");
    }
}
