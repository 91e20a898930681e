//! Engine tests on small, purpose-written rule sets (the built-in catalogue has its
//! own tests through its examples and the fixtures).

use std::io::Cursor;

use crate::evidence::{DocumentKind, KindSet};
use crate::rules::RuleSet;
use crate::rules::load::{RuleFile, compile};

use super::evaluate::evaluate;
use super::scan::{CHUNK, DocumentScan, Scanner};

const INIT_FAILED: &str = r#"
id: user-init-failed
title: init() raised
severity: error
family: inference-server
applies-to: [inference-server, generic]
match:
  any: ['User''s init function failed']
context:
  lines: 40
  extract: ['^(?P<exception>[A-Za-z_][\w.]*(?:Error|Exception)\b.*)$']
remediation: Fix init().
commands: ['az ml online-deployment get-logs -e {endpoint} -n {deployment}']
examples:
  match: ['User''s init function failed']
  no-match: ['Users''s init has completed successfully']
"#;

const BOOT: &str = r#"
id: worker-boot-failed
title: worker failed to boot
severity: error
family: inference-server
match:
  any: ['Reason: Worker failed to boot\.']
caused-by: [user-init-failed]
remediation: See the cause.
examples:
  match: ['Reason: Worker failed to boot.']
  no-match: ['Reason: App failed to load.']
"#;

const OLD_IMAGE: &str = r#"
id: old-image-flask2
title: old image with Flask 2
severity: warning
family: inference-server
match:
  all:
    - 'Materiali[sz]ati?on Build:(?P<build_date>\d{8})'
    - '^[Ff]lask==(?P<flask>2\.[\d.]+)'
unless: ['AML_FLASK_ONE_COMPATIBILITY is set']
when:
  - {fact: build_date, is: date, op: '<', value: '20220708'}
remediation: Use a newer image.
examples:
  match:
    - |
      AzureML image information: openmpi4.1.0-ubuntu20.04, Materializaton Build:20220516.v1
      Flask==2.0.3
  no-match:
    - |
      AzureML image information: openmpi4.1.0-ubuntu20.04, Materializaton Build:20220708.v2
      Flask==2.0.3
"#;

fn set() -> RuleSet {
    let files = [INIT_FAILED, BOOT, OLD_IMAGE]
        .iter()
        .enumerate()
        .map(|(i, t)| RuleFile {
            path: format!("test/{i}.yaml"),
            text: t.to_string(),
            builtin: false,
        })
        .collect();
    compile(files, &[]).unwrap()
}

fn scan(set: &RuleSet, text: &[u8]) -> DocumentScan {
    Scanner::new(set)
        .scan(DocumentKind::InferenceServer, &mut Cursor::new(text))
        .unwrap()
}

fn fired(set: &RuleSet, text: &[u8]) -> Vec<String> {
    let s = scan(set, text);
    evaluate(set, DocumentKind::InferenceServer, &s)
        .into_iter()
        .map(|h| set.rules[h.rule].id.clone())
        .collect()
}

const CHAINED: &str = "\
2025-03-02 09:41:17,100 I [73] azmlinfsrv.user_script - Invoking user's init function
2025-03-02 09:41:17,221 E [73] azmlinfsrv - User's init function failed
2025-03-02 09:41:17,222 E [73] azmlinfsrv - Encountered Exception Traceback (most recent call last):
  File \"/var/azureml-app/onlinescoring/score.py\", line 14, in init
    model = joblib.load(path)
FileNotFoundError: [Errno 2] No such file or directory: '/var/azureml-app/azureml-models/m/1/model.pkl'

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
    raise UserScriptException(ex) from ex
azureml_inference_server_http.server.user_script.UserScriptException: Caught an unhandled exception from the user script
2025-03-02 09:41:17,402 I [12] gunicorn.error - Reason: Worker failed to boot.
";

#[test]
fn hits_context_and_causes() {
    let set = set();
    let s = scan(&set, CHAINED.as_bytes());
    assert_eq!(s.lines, 13);
    let hits = evaluate(&set, DocumentKind::InferenceServer, &s);
    let init = hits
        .iter()
        .find(|h| set.rules[h.rule].id == "user-init-failed")
        .unwrap();
    assert_eq!(init.count, 1);
    assert_eq!(init.evidence[0].line, 2);
    assert_eq!(
        init.facts.get("exception").map(String::as_str),
        Some(
            "FileNotFoundError: [Errno 2] No such file or directory: '/var/azureml-app/azureml-models/m/1/model.pkl'"
        ),
        "the first exception of a chained traceback is the root cause"
    );
    assert!(
        init.evidence.iter().any(|e| e.line == 6),
        "{:?}",
        init.evidence
    );
    let boot = hits
        .iter()
        .find(|h| set.rules[h.rule].id == "worker-boot-failed")
        .unwrap();
    assert_eq!(boot.evidence[0].line, 13);

    let mut analysis = super::Analysis::new();
    analysis.add("blue.log", hits);
    let findings = analysis.finish(&set, &|_, _| true);
    let ids: Vec<&str> = findings.iter().map(|f| f.rule_id.as_str()).collect();
    assert_eq!(ids, ["user-init-failed", "worker-boot-failed"]);
    assert_eq!(findings[0].symptoms, ["worker-boot-failed"]);
    assert_eq!(findings[1].caused_by, ["user-init-failed"]);
    // The engine hands over templates; the placeholder pass fills them once.
    assert_eq!(
        findings[0].commands,
        ["az ml online-deployment get-logs -e {endpoint} -n {deployment}"]
    );
}

#[test]
fn repeated_hits_are_counted_once() {
    let set = set();
    let text = "Reason: Worker failed to boot.\n".repeat(1000);
    let s = scan(&set, text.as_bytes());
    let hits = evaluate(&set, DocumentKind::InferenceServer, &s);
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].count, 1000);
    assert_eq!(
        hits[0].evidence.len(),
        3,
        "only the first few lines keep their text"
    );
    assert_eq!(hits[0].evidence[2].line, 3);
}

#[test]
fn all_unless_when() {
    let set = set();
    let old = "AzureML image information: x, Materializaton Build:20220516.v1\nFlask==2.0.3\n";
    assert_eq!(fired(&set, old.as_bytes()), ["old-image-flask2"]);
    let new = old.replace("20220516", "20220708");
    assert!(
        fired(&set, new.as_bytes()).is_empty(),
        "when: date not older"
    );
    let flask1 = old.replace("Flask==2.0.3", "Flask==1.0.3");
    assert!(
        fired(&set, flask1.as_bytes()).is_empty(),
        "all: flask 2 missing"
    );
    let patched = format!(
        "{old}AML_FLASK_ONE_COMPATIBILITY is set. Patched Flask to ensure compatibility with Flask 1.\n"
    );
    assert!(fired(&set, patched.as_bytes()).is_empty(), "unless");
}

#[test]
fn crlf_invalid_utf8_and_no_trailing_newline() {
    let set = set();
    let mut text = b"caf\xe9 \xff\xfe progress \xe2\x96\x88\r\n".to_vec();
    text.extend_from_slice(b"Reason: Worker failed to boot.\r\n");
    text.extend_from_slice(b"Reason: Worker failed to boot.");
    let s = scan(&set, &text);
    assert_eq!(s.lines, 3);
    let hits = evaluate(&set, DocumentKind::InferenceServer, &s);
    assert_eq!(hits[0].count, 2);
    assert_eq!(hits[0].evidence[0].text, "Reason: Worker failed to boot.");
    assert_eq!(hits[0].evidence[1].line, 3);
}

#[test]
fn lines_longer_than_the_buffer() {
    let set = set();
    let mut text = Vec::new();
    text.extend_from_slice(b"first line\n");
    text.extend(std::iter::repeat_n(b'x', 3 * CHUNK + 17));
    text.extend_from_slice(b" Reason: Worker failed to boot. tail\n");
    text.extend_from_slice(b"Reason: Worker failed to boot.\n");
    let s = scan(&set, &text);
    assert_eq!(s.lines, 3);
    assert_eq!(s.long_lines, 1, "one overlong line, however many pieces");
    let hits = evaluate(&set, DocumentKind::InferenceServer, &s);
    assert_eq!(hits[0].count, 2);
    assert_eq!(hits[0].evidence[0].line, 2);
    assert!(hits[0].evidence[0].text.len() <= super::scan::MAX_TEXT);
    assert!(hits[0].evidence[0].text.contains("Worker failed"));
    assert_eq!(hits[0].evidence[1].line, 3);
}

#[test]
fn empty_and_error_lines() {
    let set = set();
    let s = scan(&set, b"");
    assert_eq!((s.lines, s.bytes), (0, 0));
    let s = scan(&set, b"INFO ok\nValueError: bad value\nok\n2024-10-10 11:06:24,013 E [152] azmlinfsrv - something broke\ngunicorn.error - Booting worker\n");
    let lines: Vec<u64> = s.error_lines.iter().map(|h| h.line).collect();
    assert_eq!(
        lines,
        [2, 4],
        "gunicorn.error is a logger name, not an error"
    );
}

#[test]
fn an_error_body_over_lines_and_the_hint_after_an_error_are_kept() {
    let set = set();
    let text = b"Deploying\nError:\n{\n\"code\": \"InaccessibleImage\",\n\"statusCode\": 400,\n\"message\": \"The image is not accessible.\"\n}\nUnexpected error verifying the endpoint\nFull details:\nPlease make sure Docker Engine is installed and running. sig=abc123secret\ndone\n";
    let s = scan(&set, text);
    let lines: Vec<u64> = s.error_lines.iter().map(|h| h.line).collect();
    // `Error:` opens the body: its code and message lines are error lines; the status
    // line is not.
    assert_eq!(lines, [2, 4, 6, 8], "{:?}", s.error_lines);
    let after: Vec<(u64, &str)> = s
        .after_errors
        .iter()
        .map(|h| (h.line, h.text.as_str()))
        .collect();
    assert!(
        after
            .iter()
            .any(|(n, t)| *n == 10 && t.contains("Docker Engine")),
        "{after:?}"
    );
    assert!(
        after.iter().all(|(_, t)| !t.contains("abc123secret")),
        "redacted: {after:?}"
    );
    // A healthy line after an ordinary line is not kept.
    assert!(!after.iter().any(|(n, _)| *n == 1));
}

#[test]
fn examples_of_test_rules_pass() {
    let set = set();
    assert_eq!(super::examples::check(&set, |_| true), vec![]);
}

fn load_error(text: &str) -> String {
    compile(
        vec![RuleFile {
            path: "user/r.yaml".into(),
            text: text.into(),
            builtin: false,
        }],
        &[],
    )
    .unwrap_err()
    .to_string()
}

#[test]
fn invalid_rules_name_file_rule_and_key() {
    let cases = [
        (
            BOOT.replace("  no-match: ['Reason: App failed to load.']\n", ""),
            "user/r.yaml: rule 'worker-boot-failed': examples.no-match: needs at least one example that must not match",
        ),
        (
            BOOT.replace(r"Worker failed to boot\.", "Worker (failed"),
            "user/r.yaml: rule 'worker-boot-failed': match.any[0]: invalid regex",
        ),
        (
            BOOT.replace(r"'Reason: Worker failed to boot\.'", r"'^\d+$'"),
            "match.any[0]: the pattern has no literal text of at least 3 characters",
        ),
        (
            BOOT.replace("severity: error", "severity: fatal"),
            "user/r.yaml: rule 'worker-boot-failed': invalid YAML",
        ),
        (BOOT.replace("title:", "titel:"), "unknown key 'titel'"),
        (
            BOOT.replace("family: inference-server", "family: gpu"),
            "family: expected one of",
        ),
        (
            BOOT.to_string(),
            "caused-by[0]: no rule has the id 'user-init-failed'",
        ),
        (
            INIT_FAILED.replace("{endpoint}", "{endpont}"),
            "commands[0]: unknown placeholder {endpont}",
        ),
        (
            INIT_FAILED.replace("id: user-init-failed", "id: User_Init"),
            "id: expected kebab-case",
        ),
        (
            OLD_IMAGE.replace("fact: build_date", "fact: built"),
            "when[0].fact: no pattern of this rule captures 'built'",
        ),
        (
            OLD_IMAGE.replace("value: '20220708'", "value: 'July'"),
            "when[0].value: 'July' is not a date",
        ),
        (
            BOOT.replace(
                "family: inference-server",
                "family: inference-server\napplies-to: [pods]",
            ),
            "applies-to[0]: unknown kind 'pods'",
        ),
    ];
    for (text, expected) in cases {
        let e = load_error(&text);
        assert!(e.contains(expected), "expected {expected:?} in:\n{e}");
        assert!(!e.contains('\n'), "one line: {e}");
    }
    let dup = compile(
        vec![
            RuleFile {
                path: "a.yaml".into(),
                text: INIT_FAILED.into(),
                builtin: true,
            },
            RuleFile {
                path: "b.yaml".into(),
                text: INIT_FAILED.into(),
                builtin: false,
            },
        ],
        &[],
    )
    .unwrap_err()
    .to_string();
    assert_eq!(
        dup,
        "b.yaml: rule 'user-init-failed': id: duplicate id; it is already defined in a.yaml"
    );
}

#[test]
fn a_secret_across_the_cut_of_an_overlong_line_is_redacted() {
    let set = set();
    let url = "https://a.blob.core.windows.net/c/m?sv=1&sig=";
    let mut text = Vec::new();
    text.extend(std::iter::repeat_n(b'x', CHUNK - url.len()));
    text.extend_from_slice(url.as_bytes());
    text.extend_from_slice(b"SECRETSIGVALUE123 Reason: Worker failed to boot.\n");
    let s = scan(&set, &text);
    let hits = evaluate(&set, DocumentKind::InferenceServer, &s);
    assert_eq!(hits[0].count, 1);
    assert!(
        !hits[0].evidence[0].text.contains("SECRETSIGVALUE123"),
        "{}",
        hits[0].evidence[0].text
    );
}

#[test]
fn a_fact_captured_without_its_key_is_masked() {
    let rule = r#"
id: token-capture
title: capture after a key
severity: error
family: inference-server
match:
  any: ['upload failed for .*sig=(?P<token>\w+)']
remediation: x
examples:
  match: ['upload failed for x sig=abc']
  no-match: ['upload ok']
"#;
    let set = compile(
        vec![RuleFile {
            path: "t.yaml".into(),
            text: rule.into(),
            builtin: false,
        }],
        &[],
    )
    .unwrap();
    let s = scan(
        &set,
        b"upload failed for https://a.blob.core.windows.net/c?sv=1&sig=SECRETvalue123\n",
    );
    let hits = evaluate(&set, DocumentKind::InferenceServer, &s);
    assert_eq!(hits[0].facts["token"], crate::redact::MASK);
    assert!(!hits[0].evidence[0].text.contains("SECRETvalue123"));
}

/// Rules for two kinds, with more literals than two SIMD groups hold, so a line's
/// literals fall into different searchers.
fn two_kind_set() -> RuleSet {
    let mut files = Vec::new();
    for i in 0..120 {
        let kind = if i % 2 == 0 { "prs" } else { "kubernetes" };
        files.push(RuleFile {
            path: format!("test/r{i}.yaml"),
            text: format!(
                "id: rule-{i}\ntitle: rule {i}\nseverity: error\nfamily: prs\n\
                 applies-to: [{kind}]\nmatch:\n  any: ['marker{i:02}x']\nremediation: Fix it.\n\
                 examples:\n  match: ['marker{i:02}x']\n  no-match: ['marker{i:02}y']\n"
            ),
            builtin: false,
        });
    }
    compile(files, &[]).unwrap()
}

fn fired_as(set: &RuleSet, kinds: impl Into<KindSet>, text: &str) -> Vec<String> {
    let s = Scanner::new(set)
        .scan(kinds, &mut Cursor::new(text.as_bytes()))
        .unwrap();
    let mut ids: Vec<String> = evaluate(set, s.kinds, &s)
        .into_iter()
        .map(|h| set.rules[h.rule].id.clone())
        .collect();
    ids.sort();
    ids
}

#[test]
fn a_document_is_searched_for_its_kinds_literals_only() {
    let set = two_kind_set();
    let prs = crate::evidence::KindSet::from(DocumentKind::Prs).bits();
    let all = set.prefilter.all().literals();
    let narrow = set.prefilter.for_kinds(prs).literals();
    assert_eq!(all - narrow, 60, "{narrow} literals for prs, {all} for all");
    // Every literal on one line, in reverse order: each rule of the document's kind
    // fires, whichever searcher found its literal, and no rule of the other kind.
    let line: String = (0..120).rev().map(|i| format!("marker{i:02}x ")).collect();
    let expected: Vec<String> = {
        let mut v: Vec<String> = (0..120).step_by(2).map(|i| format!("rule-{i}")).collect();
        v.sort();
        v
    };
    assert_eq!(fired_as(&set, DocumentKind::Prs, &line), expected);
    let k8s = fired_as(&set, DocumentKind::Kubernetes, &line);
    assert_eq!(k8s.len(), 60);
    assert!(k8s.iter().all(|id| !expected.contains(id)));
}

#[test]
fn a_section_of_another_kind_widens_the_search_from_its_marker_on() {
    let set = two_kind_set();
    // `marker01x` is a Kubernetes rule's literal: before the section marker it does not
    // count in a ParallelRunStep file, after it it does.
    let before = "marker01x before\nmarker00x\n";
    assert_eq!(fired_as(&set, DocumentKind::Prs, before), ["rule-0"]);
    let text = "marker00x\nContainer events:\n  Warning  BackOff  kubelet  marker01x\n";
    assert_eq!(
        fired_as(&set, DocumentKind::Prs, text),
        ["rule-0", "rule-1"]
    );
}

#[test]
fn a_literal_found_through_a_shorter_one_still_selects_its_rule() {
    // `ImportError: cannot import` holds the error literal `Error:`, and `worker did not
    // start` holds nothing else: the first is searched for through `Error:`, found six
    // bytes before it, and both rules fire on a line that has both.
    let rule = |id: &str, literal: &str| RuleFile {
        path: format!("test/{id}.yaml"),
        text: format!(
            "id: {id}\ntitle: {id}\nseverity: error\nfamily: prs\nmatch:\n  any: ['{literal}']\n\
             remediation: Fix it.\nexamples:\n  match: ['{literal}']\n  no-match: ['nothing']\n"
        ),
        builtin: false,
    };
    let set = compile(
        vec![
            rule("import-failed", "ImportError: cannot import"),
            rule("no-start", "worker did not start"),
        ],
        &[],
    )
    .unwrap();
    let all = set.prefilter.all();
    assert!(all.lookbehind() >= 6, "{}", all.lookbehind());
    let text = "12:00 x ImportError: cannot import name 'Markup'; worker did not start\n";
    assert_eq!(
        fired_as(&set, DocumentKind::Generic, text),
        ["import-failed", "no-start"]
    );
    assert_eq!(
        fired_as(&set, DocumentKind::Generic, "ImportError: cannot import\n"),
        ["import-failed"]
    );
}

fn one_kind_rule(id: &str, kind: &str, literal: &str) -> RuleFile {
    RuleFile {
        path: format!("test/{id}.yaml"),
        text: format!(
            "id: {id}\ntitle: {id}\nseverity: error\nfamily: prs\napplies-to: [{kind}]\n\
             match:\n  any: ['{literal}']\nremediation: Fix it.\n\
             examples:\n  match: ['{literal}']\n  no-match: ['nothing here']\n"
        ),
        builtin: false,
    }
}

#[test]
fn a_paste_without_context_is_read_by_every_rule_specific_enough_to_stand_alone() {
    let set = compile(
        vec![
            one_kind_rule("threshold", "prs", "exceeds error threshold"),
            one_kind_rule("killed", "prs", "Killed"),
            one_kind_rule("cli-module", "cli", "No module named"),
            one_kind_rule("prs-module", "prs", "No module named"),
        ],
        &[],
    )
    .unwrap();
    let text = "(UserError) The number of failed items is 12, which exceeds error threshold 10.\n\
                Killed\nModuleNotFoundError: No module named 'helpers'\n";
    let cli = KindSet::from(DocumentKind::Cli);
    // Read as a long `az` output, the ParallelRunStep rules stay gated.
    assert_eq!(fired_as(&set, cli, text), ["cli-module"]);
    // Read as a quote without context, the specific signature runs whatever its kind;
    // the bare `Killed` needs a ParallelRunStep log to mean the OOM killer; and a line a
    // rule of the document's own kind claimed is not claimed twice.
    assert_eq!(
        fired_as(&set, cli.standalone(), text),
        ["cli-module", "threshold"]
    );
}
