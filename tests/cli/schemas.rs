//! Report formats checked against what no one here wrote: SARIF against the OASIS 2.1.0
//! schema, JUnit against Jenkins xUnit's junit-10.xsd (both vendored under
//! tests/schemas/, with their sources in tests/schemas/README.md), over the outputs
//! of the whole fixture set.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::Sandbox;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every command of the fixture set whose report is checked, run from the crate root.
const RUNS: &[&[&str]] = &[
    &["diagnose", "tests/fixtures/logs"],
    &["diagnose", "tests/fixtures/prs/failed-job"],
    &["diagnose", "tests/fixtures/prs"],
    &["check", "all", "--from", "tests/fixtures/resources/"],
    &["lint", "tests/fixtures/lint", "--fix-suggestions"],
    &[
        "lint",
        "tests/fixtures/lint/bad-env",
        "--ignore",
        "env-unpinned-packages",
        "--sarif-keep-suppressed",
    ],
];

/// The report of `args` in `format` (exit 0, 1 or 2 all give one).
fn report(sb: &Sandbox, args: &[&str], format: &str) -> String {
    let mut full: Vec<&str> = args.to_vec();
    full.extend(["-o", format, "--fail-on", "never", "--min-severity", "info"]);
    let out = sb.command_in(root(), &full).output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        !stdout.is_empty(),
        "{args:?} -o {format}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

#[test]
fn sarif_of_the_fixture_set_is_valid_sarif_2_1_0() {
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("tests/schemas/sarif-schema-2.1.0.json")).unwrap(),
    )
    .unwrap();
    let validator = jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .unwrap();
    // The validator reads the schema: a level SARIF does not have is refused.
    let bad = serde_json::json!({"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"message": {"text": "m"}, "level": "fatal"}]}]});
    assert!(!validator.is_valid(&bad));
    let sb = Sandbox::new("schemas-sarif");
    for args in RUNS {
        let doc: serde_json::Value = serde_json::from_str(&report(&sb, args, "sarif")).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(&doc)
            .take(5)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{args:?}: {errors:#?}");
        assert!(
            !doc["runs"][0]["results"].as_array().unwrap().is_empty(),
            "{args:?}"
        );
    }
}

/// What an XSD declares of one element: its attributes (and which are required), the
/// elements it may hold, and whether it holds text only.
#[derive(Debug, Default)]
struct Declared {
    attributes: BTreeMap<String, (bool, Option<String>)>,
    children: BTreeSet<String>,
    text_only: bool,
}

/// The global elements of junit-10.xsd, read from the file: the subset of XSD it uses
/// (named complex types, element refs under sequence/choice, attributes with `use`, and
/// simple types restricted by a pattern).
fn read_xsd(text: &str) -> (BTreeMap<String, Declared>, BTreeMap<String, regex::Regex>) {
    let doc = roxmltree::Document::parse(text).unwrap();
    let xs = |n: &roxmltree::Node, name: &str| n.is_element() && n.tag_name().name() == name;
    let mut patterns = BTreeMap::new();
    for t in doc
        .root_element()
        .children()
        .filter(|n| xs(n, "simpleType"))
    {
        if let Some(p) = t.descendants().find(|n| xs(n, "pattern")) {
            let re =
                regex::Regex::new(&format!("^(?:{})$", p.attribute("value").unwrap())).unwrap();
            patterns.insert(t.attribute("name").unwrap().to_owned(), re);
        }
    }
    let types: BTreeMap<&str, roxmltree::Node> = doc
        .root_element()
        .children()
        .filter(|n| xs(n, "complexType"))
        .map(|n| (n.attribute("name").unwrap(), n))
        .collect();
    let mut elements = BTreeMap::new();
    for e in doc.root_element().children().filter(|n| xs(n, "element")) {
        let mut d = Declared::default();
        let body = match e.attribute("type") {
            Some("xs:string") => {
                d.text_only = true;
                None
            }
            Some(t) => types.get(t).copied(),
            None => e.children().find(|n| xs(n, "complexType")),
        };
        if let Some(body) = body {
            for n in body.descendants() {
                if xs(&n, "attribute") {
                    let ty = n.attribute("type").filter(|t| !t.starts_with("xs:"));
                    d.attributes.insert(
                        n.attribute("name").unwrap().to_owned(),
                        (
                            n.attribute("use") == Some("required"),
                            ty.map(str::to_owned),
                        ),
                    );
                } else if xs(&n, "element") {
                    let name = n.attribute("ref").or(n.attribute("name")).unwrap();
                    d.children.insert(name.to_owned());
                }
            }
        }
        elements.insert(e.attribute("name").unwrap().to_owned(), d);
    }
    (elements, patterns)
}

/// Every element of `node`'s tree against the declarations: known element, allowed
/// where it is, attributes declared, required ones present, typed ones matching.
fn check_element(
    node: roxmltree::Node,
    elements: &BTreeMap<String, Declared>,
    patterns: &BTreeMap<String, regex::Regex>,
    problems: &mut Vec<String>,
) {
    let name = node.tag_name().name();
    let Some(d) = elements.get(name) else {
        problems.push(format!("<{name}> is not declared"));
        return;
    };
    for a in node.attributes() {
        match d.attributes.get(a.name()) {
            None => problems.push(format!("<{name} {}=…>: attribute not declared", a.name())),
            Some((_, Some(ty))) if !patterns[ty].is_match(a.value()) => {
                problems.push(format!(
                    "<{name} {}=\"{}\">: not a {ty}",
                    a.name(),
                    a.value()
                ));
            }
            Some(_) => {}
        }
    }
    for (attr, (required, _)) in &d.attributes {
        if *required && node.attribute(attr.as_str()).is_none() {
            problems.push(format!("<{name}> lacks required {attr}"));
        }
    }
    for child in node.children().filter(roxmltree::Node::is_element) {
        let c = child.tag_name().name();
        if d.text_only || !d.children.contains(c) {
            problems.push(format!("<{c}> is not allowed in <{name}>"));
        }
        check_element(child, elements, patterns, problems);
    }
}

#[test]
fn junit_of_the_fixture_set_is_valid_for_jenkins_xunit() {
    let xsd = std::fs::read_to_string(root().join("tests/schemas/junit-10.xsd")).unwrap();
    let (elements, patterns) = read_xsd(&xsd);
    // The reading itself: what the file says of the elements that matter.
    assert!(elements["testcase"].attributes["name"].0);
    assert!(!elements["testcase"].attributes.contains_key("file"));
    assert!(!elements["testsuites"].attributes.contains_key("skipped"));
    assert_eq!(
        elements["testsuite"].attributes["time"].1.as_deref(),
        Some("SUREFIRE_TIME")
    );
    let mut problems = Vec::new();
    let old = roxmltree::Document::parse("<testsuites skipped=\"0\"><testsuite name=\"a\" tests=\"1\" failures=\"0\" errors=\"0\" time=\"1,5\"><testcase name=\"r\" file=\"a.log\"/></testsuite></testsuites>").unwrap();
    check_element(old.root_element(), &elements, &patterns, &mut problems);
    assert_eq!(problems.len(), 3, "{problems:?}");
    let sb = Sandbox::new("schemas-junit");
    for args in RUNS {
        let text = report(&sb, args, "junit");
        let doc = roxmltree::Document::parse(&text).unwrap();
        let top = doc.root_element();
        assert_eq!(top.tag_name().name(), "testsuites");
        let mut problems = Vec::new();
        check_element(top, &elements, &patterns, &mut problems);
        problems.dedup();
        assert!(problems.is_empty(), "{args:?}: {problems:#?}");
        // Every suite has a time, and the totals add up.
        let suites: Vec<_> = top
            .children()
            .filter(|n| n.has_tag_name("testsuite"))
            .collect();
        assert!(suites.iter().all(|s| s.attribute("time").is_some()));
        let sum = |attr: &str| -> u64 {
            suites
                .iter()
                .map(|s| s.attribute(attr).unwrap().parse::<u64>().unwrap())
                .sum()
        };
        for attr in ["tests", "failures", "errors"] {
            assert_eq!(
                sum(attr).to_string(),
                top.attribute(attr).unwrap(),
                "{args:?} {attr}"
            );
        }
    }
    // GitLab's dialect: a file on every testcase, on request.
    let text = report(
        &sb,
        &["lint", "tests/fixtures/lint/bad", "--junit-file-attribute"],
        "junit",
    );
    let doc = roxmltree::Document::parse(&text).unwrap();
    assert!(
        doc.descendants()
            .filter(|n| n.has_tag_name("testcase"))
            .all(|c| c.attribute("file").is_some())
    );
}

#[test]
fn fix_texts_show_the_values_of_the_facts_they_name() {
    let sb = Sandbox::new("schemas-fact-values");
    let mut checked = 0;
    for args in RUNS {
        let doc: serde_json::Value = serde_json::from_str(&report(&sb, args, "json")).unwrap();
        for f in doc["findings"].as_array().unwrap() {
            let fix = f["remediation"].as_str().unwrap();
            let flat = fix.split_whitespace().collect::<Vec<_>>().join(" ");
            for (name, value) in f["facts"].as_object().unwrap() {
                // A value too long or odd for prose (a traceback) is named instead.
                let v = value.as_str().unwrap_or_default();
                if v.len() > 200 || v.contains(['`', '\n', '{', '}', '<']) {
                    continue;
                }
                for named in [
                    format!("fact `{name}`"),
                    format!("facts `{name}`"),
                    format!("(`{name}`)"),
                ] {
                    assert!(
                        !flat.contains(&named),
                        "{}: the fix names {named} instead of its value:\n{fix}",
                        f["rule_id"]
                    );
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 20, "{checked}");
    // The markdown and table show the same text.
    let md = report(
        &sb,
        &[
            "diagnose",
            "tests/fixtures/logs/server-0.4.13-old-image-flask2.log",
        ],
        "markdown",
    );
    assert!(md.contains("non-zero code (`3`)"), "{md}");
}

#[test]
fn json_reports_follow_the_published_schema() {
    let path = root().join("docs/report.schema.json");
    let fresh = amldoctor::report::schema::findings_report();
    crate::assert_generated(&path, fresh.as_bytes());
    let schema: serde_json::Value = serde_json::from_str(&fresh).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let check = |what: &str, doc: &serde_json::Value| {
        let errors: Vec<String> = validator
            .iter_errors(doc)
            .take(5)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{what}: {errors:#?}");
    };
    // The schema is not vacuous: a finding without its rule id is refused.
    let mut broken: serde_json::Value =
        serde_json::from_str(&crate::snapshot_content("report-flask2.json")).unwrap();
    broken["findings"][0]
        .as_object_mut()
        .unwrap()
        .remove("rule_id");
    assert!(!validator.is_valid(&broken));
    for snapshot in ["report-flask2.json", "diagnose-flask2.json"] {
        let text = crate::snapshot_content(snapshot);
        check(snapshot, &serde_json::from_str(&text).unwrap());
    }
    let sb = Sandbox::new("schemas-json");
    for args in RUNS {
        let doc: serde_json::Value = serde_json::from_str(&report(&sb, args, "json")).unwrap();
        check(&format!("{args:?}"), &doc);
    }
    let mut with_baseline = RUNS[0].to_vec();
    let baseline = sb.work().join("baseline.json");
    let written = format!("{}", baseline.display());
    with_baseline.extend(["--write-baseline", &written]);
    check(
        "baseline",
        &serde_json::from_str(&report(&sb, &with_baseline, "json")).unwrap(),
    );
}
