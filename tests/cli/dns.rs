//! `amldoctor check dns` against real DNS servers on 127.0.0.1: answers in and out of
//! range, NXDOMAIN, CNAME chains through and around `privatelink`, servers that
//! disagree, a server that never answers, saved answers judged again, bad flags.

use std::net::SocketAddr;
use std::sync::OnceLock;

use serde_json::Value;

use crate::dns_server::{Rec, silent, start};
use crate::{Run, Sandbox, rule_ids};

const PRIVATE: &str = "ep-private.eastus.inference.ml.azure.com";
const PUBLIC: &str = "ep-public.eastus.inference.ml.azure.com";
const AROUND: &str = "ep-around.eastus.inference.ml.azure.com";
const MISSING: &str = "ep-missing.eastus.inference.ml.azure.com";

/// The view from inside the virtual network: the private endpoint's zone answers.
pub(crate) fn inside() -> SocketAddr {
    static ADDR: OnceLock<SocketAddr> = OnceLock::new();
    *ADDR.get_or_init(|| {
        start(vec![
            (
                "inference.ml.azure.com.",
                vec![
                    Rec::Cname(
                        "ep-private.eastus.inference.ml.azure.com.",
                        "ep-private.eastus.privatelink.api.azureml.ms.",
                    ),
                    Rec::A("ep-public.eastus.inference.ml.azure.com.", [20, 50, 1, 2]),
                    // The endpoint the fake Azure of the live tests serves.
                    Rec::A(
                        "credit-ep.westeurope.inference.ml.azure.com.",
                        [10, 0, 1, 20],
                    ),
                    Rec::Cname(
                        "ep-around.eastus.inference.ml.azure.com.",
                        "ep-around.cloudapp.test.",
                    ),
                ],
            ),
            (
                "privatelink.api.azureml.ms.",
                vec![Rec::A(
                    "ep-private.eastus.privatelink.api.azureml.ms.",
                    [10, 0, 1, 5],
                )],
            ),
            (
                "cloudapp.test.",
                vec![Rec::A("ep-around.cloudapp.test.", [10, 0, 1, 9])],
            ),
        ])
    })
}

/// The view from outside: the same scoring host, its public address.
fn outside() -> SocketAddr {
    static ADDR: OnceLock<SocketAddr> = OnceLock::new();
    *ADDR.get_or_init(|| {
        start(vec![(
            "inference.ml.azure.com.",
            vec![Rec::A(
                "ep-private.eastus.inference.ml.azure.com.",
                [20, 60, 1, 1],
            )],
        )])
    })
}

/// `check dns ARGS… -o json` asking only the given servers.
fn dns(sb: &Sandbox, servers: &[SocketAddr], args: &[&str]) -> Run {
    let mut full: Vec<String> = vec!["check".into(), "dns".into()];
    for s in servers {
        full.push("--nameserver".into());
        full.push(s.to_string());
    }
    full.push("--no-system-resolver".into());
    full.extend(args.iter().map(|a| (*a).to_owned()));
    let refs: Vec<&str> = full.iter().map(String::as_str).collect();
    sb.run(&refs)
}

const WS_ID: &str = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-net/providers/Microsoft.MachineLearningServices/workspaces/ws-net";

/// `work/ws.json`: a private workspace in eastus as `az ml workspace show` prints it,
/// with the `extra` keys.
fn private_workspace(sb: &Sandbox, extra: Value) -> std::path::PathBuf {
    let mut ws = serde_json::json!({
        "id": WS_ID, "name": "ws-net", "location": "eastus", "resource_group": "rg-net",
        "public_network_access": "Disabled",
    });
    for (k, v) in extra.as_object().unwrap() {
        ws[k] = v.clone();
    }
    sb.write("work/ws.json", &ws.to_string())
}

/// `work/NAME.json`: an endpoint of that workspace scored at `host`, with `extra` keys.
fn endpoint(sb: &Sandbox, name: &str, host: &str, extra: Value) -> std::path::PathBuf {
    let mut ep = serde_json::json!({
        "id": format!("{WS_ID}/onlineEndpoints/{name}"), "name": name, "auth_mode": "key",
        "traffic": {"blue": 100}, "scoring_uri": format!("https://{host}/score"),
    });
    for (k, v) in extra.as_object().unwrap() {
        ep[k] = v.clone();
    }
    sb.write(&format!("work/{name}.json"), &ep.to_string())
}

#[test]
fn a_private_answer_through_privatelink_in_range_is_clean() {
    let sb = Sandbox::new("dns-clean");
    let run = dns(
        &sb,
        &[inside()],
        &[
            "--host",
            PRIVATE,
            "--expect-cidr",
            "10.0.0.0/16",
            "-o",
            "json",
        ],
    );
    let v = run.ok().json();
    assert_eq!(rule_ids(&v), Vec::<String>::new());
    let answer = &v["dns"][0];
    assert_eq!(answer["host"], PRIVATE);
    assert_eq!(answer["outcome"], "answer");
    assert_eq!(answer["addresses"][0], "10.0.1.5");
    assert_eq!(
        answer["cnames"][0],
        "ep-private.eastus.privatelink.api.azureml.ms"
    );
    assert_eq!(v["summary"]["inputs_analysed"], 1);
}

#[test]
fn an_address_out_of_range_and_a_missing_name_are_findings() {
    let sb = Sandbox::new("dns-range");
    let run = dns(
        &sb,
        &[inside()],
        &[
            "--host",
            PUBLIC,
            "--host",
            MISSING,
            "--expect-cidr",
            "10.0.0.0/16",
        ],
    );
    assert_eq!(run.code, 1, "{}{}", run.stderr, run.stdout);
    let out = &run.stdout;
    assert!(out.contains("error[dns-address-outside-expected]"), "{out}");
    assert!(out.contains("error[dns-name-not-found]"), "{out}");
    // Located by name and server, with the command filled in.
    assert!(out.contains(&format!("--> {PUBLIC}")), "{out}");
    assert!(
        out.contains(&format!("{} | 20.50.1.2 (outside: 20.50.1.2)", inside())),
        "{out}"
    );
    assert!(out.contains(&format!("nslookup {MISSING}")), "{out}");
    // The DNS section shows every answer.
    let section = out.split("DNS answers").nth(1).expect("a DNS section");
    assert!(section.contains("NXDOMAIN"), "{section}");
}

#[test]
fn two_servers_that_disagree() {
    let sb = Sandbox::new("dns-disagree");
    let run = dns(
        &sb,
        &[inside(), outside()],
        &["--host", PRIVATE, "-o", "json"],
    );
    // A warning: the default gate (errors) passes.
    assert_eq!(run.code, 0, "{}{}", run.stderr, run.stdout);
    let v = run.json();
    assert_eq!(rule_ids(&v), ["dns-servers-disagree"]);
    let servers = v["findings"][0]["facts"]["servers"].as_str().unwrap();
    assert!(servers.contains(&inside().to_string()) && servers.contains(&outside().to_string()));
}

#[test]
fn a_server_that_never_answers_is_a_finding_within_seconds() {
    let sb = Sandbox::new("dns-silent");
    let quiet = silent();
    let started = std::time::Instant::now();
    let run = dns(&sb, &[quiet], &["--host", PRIVATE, "-o", "json"]);
    // A guard against a hang, not a speed target: one query is allowed 3 s.
    assert!(started.elapsed().as_secs() < 30, "{:?}", started.elapsed());
    assert_eq!(run.code, 1, "{}{}", run.stderr, run.stdout);
    let v = run.json();
    assert_eq!(rule_ids(&v), ["dns-server-no-answer"]);
    assert_eq!(v["findings"][0]["facts"]["server"], quiet.to_string());
    let cmds = v["findings"][0]["commands"].to_string();
    assert!(
        cmds.contains(&format!("dig @127.0.0.1 -p {}", quiet.port())),
        "{cmds}"
    );
}

#[test]
fn a_private_workspace_wants_private_answers_through_privatelink() {
    let sb = Sandbox::new("dns-private-ws");
    let ws = private_workspace(
        &sb,
        serde_json::json!({"discovery_url": "https://eastus.api.azureml.ms/discovery"}),
    );
    let mut ids = Vec::new();
    for (host, name) in [(PUBLIC, "ep-public"), (AROUND, "ep-around")] {
        let ep = endpoint(&sb, name, host, serde_json::json!({}));
        let run = dns(
            &sb,
            &[inside()],
            &[
                "--from",
                ws.to_str().unwrap(),
                "--from",
                ep.to_str().unwrap(),
                "-o",
                "json",
            ],
        );
        assert_eq!(run.code, 1, "{}{}", run.stderr, run.stdout);
        let v = run.json();
        // The discovery host is outside the test zones: the server refuses it.
        let found = rule_ids(&v);
        assert!(
            found.contains(&"dns-server-no-answer".to_owned()),
            "{found:?}"
        );
        let scoring: Vec<&Value> = v["dns"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|o| o["host"] == host)
            .collect();
        assert_eq!(scoring[0]["role"], "scoring", "{v}");
        ids.extend(found);
    }
    assert!(
        ids.contains(&"dns-public-address-for-private-host".to_owned()),
        "{ids:?}"
    );
    assert!(
        ids.contains(&"dns-cname-skips-privatelink".to_owned()),
        "{ids:?}"
    );
}

#[test]
fn saved_answers_are_judged_again_without_asking_anyone() {
    let sb = Sandbox::new("dns-saved");
    let saved = sb.write(
        "work/bundle/dns.json",
        &serde_json::json!({
            "amldoctor-dns": 1,
            "observations": [
                {"host": PRIVATE, "role": "scoring", "server": "system", "outcome": "not-found"},
                {"host": PRIVATE, "role": "scoring", "server": "168.63.129.16:53",
                 "outcome": "answer", "addresses": ["10.0.1.5"],
                 "cnames": ["ep-private.eastus.privatelink.api.azureml.ms"]}
            ]
        })
        .to_string(),
    );
    let dir = saved.parent().unwrap().to_str().unwrap();
    for cmd in [&["check", "all", "--from", dir][..], &["diagnose", dir][..]] {
        let mut args = cmd.to_vec();
        args.extend(["-o", "json", "--fail-on", "never"]);
        let v = sb.run(&args).ok().json();
        let ids = rule_ids(&v);
        assert!(
            ids.contains(&"dns-name-not-found".to_owned()),
            "{cmd:?}: {ids:?}"
        );
        assert!(
            ids.contains(&"dns-servers-disagree".to_owned()),
            "{cmd:?}: {ids:?}"
        );
        assert_eq!(v["dns"].as_array().unwrap().len(), 2, "{cmd:?}");
    }
    // Every report format carries the answers or their findings.
    let md = sb.run(&[
        "check",
        "dns",
        "--from",
        dir,
        "-o",
        "markdown",
        "--fail-on",
        "never",
    ]);
    assert!(md.ok().stdout.contains("**DNS answers**"), "{}", md.stdout);
    let junit = sb.run(&[
        "check",
        "dns",
        "--from",
        dir,
        "-o",
        "junit",
        "--fail-on",
        "never",
    ]);
    let xml = &junit.ok().stdout;
    assert!(
        xml.contains(&format!("<testsuite name=\"{PRIVATE}\""))
            && xml.contains("name=\"dns-servers-disagree\"")
            && xml.contains("<property name=\"answer\" value=\"system: NXDOMAIN"),
        "{xml}"
    );
    let sarif = sb.run(&[
        "check",
        "dns",
        "--from",
        dir,
        "-o",
        "sarif",
        "--fail-on",
        "never",
    ]);
    assert!(
        sarif
            .ok()
            .stdout
            .contains(&format!("\"fullyQualifiedName\": \"{PRIVATE}\"")),
        "{}",
        sarif.stdout
    );
}

#[test]
fn bad_flags_name_the_flag_and_exit_2() {
    let sb = Sandbox::new("dns-bad");
    for (args, flag) in [
        (&["--nameserver", "10.0.0"][..], "--nameserver"),
        (&["--nameserver", "10.0.0.4:99999"][..], "--nameserver"),
        (&["--expect-cidr", "10.0.0.0/33"][..], "--expect-cidr"),
        (&["--host", "not a host"][..], "--host"),
        (&["--host=-x.example.org"][..], "--host"),
        (&["--host", "10.0.1.5"][..], "--host"),
        (&["--nameserver", "127.0.0.1:0"][..], "--nameserver"),
    ] {
        let mut full = vec!["check", "dns"];
        full.extend_from_slice(args);
        let run = sb.run(&full);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains(flag), "{args:?}: {}", run.stderr);
        assert!(run.stdout.is_empty(), "{args:?}");
    }
    // Nothing to resolve: said, not guessed.
    let ws = sb.write("work/kv.json", r#"{"id": "/subscriptions/0/resourceGroups/rg/providers/Microsoft.KeyVault/vaults/kv1", "name": "kv1", "type": "Microsoft.KeyVault/vaults", "properties": {}}"#);
    let run = sb.run(&["check", "dns", "--from", ws.to_str().unwrap()]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("no host to resolve"), "{}", run.stderr);
    assert!(run.stderr.contains("--host"), "{}", run.stderr);
}

#[test]
fn the_scoring_host_follows_from_the_endpoint_name_and_the_region() {
    let sb = Sandbox::new("dns-by-name");
    sb.write("work/.amldoctor.yaml", "endpoint: ep-public\n");
    let ws = private_workspace(
        &sb,
        serde_json::json!({
            "key_vault": "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-net/providers/Microsoft.KeyVault/vaults/kv-net",
            "storage_account": "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-net/providers/Microsoft.Storage/storageAccounts/stnet",
        }),
    );
    let run = dns(
        &sb,
        &[inside()],
        &["--from", ws.to_str().unwrap(), "-o", "json"],
    );
    assert_eq!(run.code, 1, "{}{}", run.stderr, run.stdout);
    let v = run.json();
    let scoring: Vec<&Value> = v["dns"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|o| o["role"] == "scoring")
        .collect();
    assert_eq!(scoring[0]["host"], PUBLIC, "{v}");
    assert!(rule_ids(&v).contains(&"dns-public-address-for-private-host".to_owned()));
    // The workspace's Key Vault and storage hosts were asked too.
    let hosts = v["dns"].to_string();
    assert!(
        hosts.contains("kv-net.vault.azure.net") && hosts.contains("stnet.blob.core.windows.net"),
        "{hosts}"
    );
}

#[test]
fn a_public_endpoint_of_a_private_workspace_may_answer_publicly() {
    let sb = Sandbox::new("dns-public-endpoint");
    let ws = private_workspace(&sb, serde_json::json!({}));
    let ep = endpoint(
        &sb,
        "ep-public",
        PUBLIC,
        serde_json::json!({"public_network_access": "enabled"}),
    );
    let run = dns(
        &sb,
        &[inside()],
        &[
            "--from",
            ws.to_str().unwrap(),
            "--from",
            ep.to_str().unwrap(),
            "-o",
            "json",
        ],
    );
    let v = run.json();
    assert!(
        !rule_ids(&v).contains(&"dns-public-address-for-private-host".to_owned()),
        "{v}"
    );
}

#[test]
fn saved_answers_this_version_cannot_read_are_an_input_error() {
    let sb = Sandbox::new("dns-bad-saved");
    let saved = sb.write(
        "work/b/dns.json",
        r#"{"amldoctor-dns": 1, "observations": [{"host": "a.example.org", "role": "scoring", "server": "system", "outcome": "maybe"}]}"#,
    );
    let dir = saved.parent().unwrap().to_str().unwrap();
    for cmd in [
        &["check", "all", "--from", dir][..],
        &["check", "dns", "--from", dir][..],
    ] {
        let run = sb.run(cmd);
        assert_eq!(run.code, 2, "{cmd:?}: {}", run.stderr);
        assert!(
            run.stderr.contains("dns.json") && run.stderr.contains("not in a form"),
            "{}",
            run.stderr
        );
    }
}
