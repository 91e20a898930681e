//! SARIF as GitHub code scanning reads it: the line hash it tracks alerts by (stable
//! when only timestamps and pids change), suppressed and baselined findings left out
//! unless kept (then every result says both), URIs relative to SRCROOT and
//! percent-encoded, stdin and DNS names as URNs, the run's category and each rule's
//! problem.severity.

use super::Sandbox;

fn sarif(sb: &Sandbox, args: &[&str]) -> serde_json::Value {
    let mut full = vec!["diagnose"];
    full.extend_from_slice(args);
    full.extend(["-o", "sarif", "--fail-on", "never"]);
    sb.run(&full).ok().json()
}

fn results(v: &serde_json::Value) -> &Vec<serde_json::Value> {
    v["runs"][0]["results"].as_array().unwrap()
}

const OOM_1: &str = "2025-03-09 22:41:07,513 E [7] gunicorn.error - Worker (pid:81) was sent SIGKILL! Perhaps out of memory?\n";
const OOM_2: &str = "2025-04-26 11:50:37,650 E [12] gunicorn.error - Worker (pid:294) was sent SIGKILL! Perhaps out of memory?\n";

#[test]
fn the_line_hash_survives_new_timestamps_and_pids() {
    let sb = Sandbox::new("sarif-hash");
    let hashes = |args: &[&str]| -> Vec<(String, String)> {
        let v = sarif(&sb, args);
        results(&v)
            .iter()
            .filter(|r| r["ruleId"] == "gunicorn-worker-oom-killed")
            .map(|r| {
                (
                    r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                        .as_str()
                        .unwrap()
                        .to_owned(),
                    r["partialFingerprints"]["primaryLocationLineHash"]
                        .as_str()
                        .unwrap()
                        .to_owned(),
                )
            })
            .collect()
    };
    // Monday's log, then Tuesday's in its place: the same alert.
    sb.write("work/app.log", OOM_1);
    let monday = hashes(&["app.log"]);
    sb.write("work/app.log", OOM_2);
    assert_eq!(monday, hashes(&["app.log"]));
    let (_, hash) = &monday[0];
    assert!(hash.ends_with(":1") && hash.len() == 18, "{hash}");
    // The same failure in two files is two alerts, one per file: fixing one closes
    // its own.
    sb.write("work/other.log", OOM_2);
    let both = hashes(&["app.log", "other.log"]);
    assert_eq!(both.len(), 2, "{both:?}");
    assert_ne!(both[0].1, both[1].1);
    assert_eq!(both[0].0, "app.log");
    assert_eq!(both[1].0, "other.log");
    // Another failure hashes differently.
    sb.write("work/boot.log", "2025-04-26 11:50:37,650 E [12] gunicorn.error - Worker (pid:294) exited with code 3\nReason: Worker failed to boot.\n");
    let v = sarif(&sb, &["boot.log"]);
    assert!(
        results(&v)
            .iter()
            .all(|r| r["partialFingerprints"]["primaryLocationLineHash"] != *hash)
    );
}

#[test]
fn suppressed_findings_stay_out_unless_kept_and_then_say_so() {
    let sb = Sandbox::new("sarif-suppressed");
    sb.write(
        "work/oom.log",
        &format!("{OOM_1}Reason: Worker failed to boot.\n"),
    );
    let ids = |v: &serde_json::Value| -> Vec<String> {
        results(v)
            .iter()
            .map(|r| r["ruleId"].as_str().unwrap().to_owned())
            .collect()
    };
    let v = sarif(&sb, &["oom.log", "--ignore", "gunicorn-worker-oom-killed"]);
    assert!(
        !ids(&v).contains(&"gunicorn-worker-oom-killed".to_owned()),
        "{v}"
    );
    assert!(results(&v).iter().all(|r| r.get("suppressions").is_none()));
    let v = sarif(
        &sb,
        &[
            "oom.log",
            "--ignore",
            "gunicorn-worker-oom-killed",
            "--sarif-keep-suppressed",
        ],
    );
    assert!(
        ids(&v).contains(&"gunicorn-worker-oom-killed".to_owned()),
        "{v}"
    );
    // §3.27.23: on every result or none; an empty list for an active one.
    for r in results(&v) {
        let s = r["suppressions"].as_array().unwrap();
        assert_eq!(
            s.is_empty(),
            r["ruleId"] != "gunicorn-worker-oom-killed",
            "{r}"
        );
    }
}

#[test]
fn uris_are_relative_to_srcroot_encoded_and_honest_about_stdin() {
    let sb = Sandbox::new("sarif-uris");
    sb.write("work/logs/[node 1]|pod's naïve.log", OOM_1);
    let v = sarif(&sb, &["logs"]);
    let run = &v["runs"][0];
    let work = sb.work().canonicalize().unwrap();
    let root = run["originalUriBaseIds"]["SRCROOT"]["uri"]
        .as_str()
        .unwrap();
    assert!(
        root.starts_with("file:///") && root.ends_with('/'),
        "{root}"
    );
    assert_eq!(run["invocations"][0]["workingDirectory"]["uri"], root);
    assert!(
        root.contains(work.file_name().unwrap().to_str().unwrap()),
        "{root}"
    );
    let loc = &results(&v)[0]["locations"][0]["physicalLocation"]["artifactLocation"];
    assert_eq!(loc["uri"], "logs/%5Bnode%201%5D%7Cpod%27s%20na%C3%AFve.log");
    assert_eq!(loc["uriBaseId"], "SRCROOT");
    assert_eq!(run["automationDetails"]["id"], "amldoctor/diagnose/");
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    assert!(rules.iter().all(|r| {
        ["error", "warning", "recommendation"]
            .contains(&r["properties"]["problem.severity"].as_str().unwrap())
    }));
    // Standard input is no file of the repository.
    let mut cmd = sb.command(&[
        "diagnose",
        "-",
        "-o",
        "sarif",
        "--fail-on",
        "never",
        "--sarif-category",
        "nightly/prs",
    ]);
    cmd.stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    {
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(OOM_1.as_bytes())
            .unwrap();
    }
    let out = child.wait_with_output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let loc = &results(&v)[0]["locations"][0]["physicalLocation"]["artifactLocation"];
    assert_eq!(loc["uri"], "urn:amldoctor:stdin");
    assert!(loc.get("uriBaseId").is_none());
    assert_eq!(v["runs"][0]["automationDetails"]["id"], "nightly/prs");
}

#[test]
fn regions_give_the_columns_of_the_matched_text() {
    let sb = Sandbox::new("sarif-columns");
    // Non-ASCII before the match: columns count UTF-16 code units, as SARIF does.
    let line = "  naïve 🚀 2025-03-09 22:41:07,513 E [7] gunicorn.error - Worker (pid:81) was sent SIGKILL! Perhaps out of memory?";
    sb.write("work/oom.log", &format!("first line\n{line}\n"));
    let v = sarif(&sb, &["oom.log"]);
    let r = results(&v)
        .iter()
        .find(|r| r["ruleId"] == "gunicorn-worker-oom-killed")
        .unwrap();
    let region = &r["locations"][0]["physicalLocation"]["region"];
    assert_eq!(region["startLine"], 2);
    let before = &line[..line.find("Worker").unwrap()];
    let start = before.encode_utf16().count() as u64 + 1;
    assert_eq!(region["startColumn"].as_u64(), Some(start), "{region}");
    assert_eq!(
        region["endColumn"].as_u64(),
        Some(line.encode_utf16().count() as u64 + 1),
        "{region}"
    );
}
