//! `amldoctor lint --fix-suggestions`: the edits it prints, applied to copies of the
//! fixture projects, make the findings they name go away on the next run; nothing is
//! written by lint itself; the table's diff is one `patch` accepts; SARIF carries the
//! same edits as fixes.

use std::collections::BTreeSet;
use std::path::Path;

use super::{Sandbox, assert_snapshot, fixture};

/// The projects with edits to suggest.
const PROJECTS: &[&str] = &[
    "bad",
    "bad-env",
    "bad-script",
    "kubernetes",
    "parallel",
    "pipeline-v1",
    "gpu",
    "old-python",
    "bad-endpoint",
];

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// A copy of fixture project `name` in the sandbox's working directory.
fn project(sb: &Sandbox, name: &str) {
    copy_dir(
        Path::new(&fixture(&format!("lint/{name}"))),
        &sb.work().join(name),
    );
}

fn lint_json(sb: &Sandbox, name: &str, extra: &[&str]) -> serde_json::Value {
    let mut args = vec![
        "lint",
        name,
        "-o",
        "json",
        "--fail-on",
        "never",
        "--min-severity",
        "info",
    ];
    args.extend_from_slice(extra);
    sb.run(&args).ok().json()
}

fn rule_ids(report: &serde_json::Value) -> BTreeSet<String> {
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["rule_id"].as_str().unwrap().to_owned())
        .collect()
}

/// Applies the hunks of a JSON report's `fix_suggestions`, bottom up, checking that
/// each removes the lines the file holds. Returns the rules the edits fix.
fn apply(sb: &Sandbox, report: &serde_json::Value) -> BTreeSet<String> {
    let mut fixed = BTreeSet::new();
    for file in report["fix_suggestions"]["files"].as_array().unwrap() {
        let path = sb.work().join(file["path"].as_str().unwrap());
        let text = std::fs::read_to_string(&path).unwrap();
        let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
        let mut hunks: Vec<&serde_json::Value> = file["hunks"].as_array().unwrap().iter().collect();
        hunks.sort_by_key(|h| std::cmp::Reverse(h["start_line"].as_u64().unwrap()));
        for h in hunks {
            let start = usize::try_from(h["start_line"].as_u64().unwrap()).unwrap() - 1;
            let strings = |k: &str| -> Vec<String> {
                h[k].as_array()
                    .unwrap()
                    .iter()
                    .map(|l| l.as_str().unwrap().to_owned())
                    .collect()
            };
            let removed = strings("removed");
            assert_eq!(
                lines[start..start + removed.len()],
                removed[..],
                "{}: the hunk at {} removes other lines",
                path.display(),
                start + 1
            );
            lines.splice(start..start + removed.len(), strings("added"));
            for r in h["rules"].as_array().unwrap() {
                fixed.insert(r.as_str().unwrap().to_owned());
            }
        }
        std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    }
    fixed
}

#[test]
fn applied_edits_fix_the_findings_they_name() {
    for name in PROJECTS {
        let sb = Sandbox::new(&format!("fix-{name}"));
        project(&sb, name);
        let before = lint_json(&sb, name, &[]);
        let report = lint_json(&sb, name, &["--fix-suggestions"]);
        // Lint never writes: the second run saw the same files as the first.
        assert_eq!(rule_ids(&before), rule_ids(&report), "{name}");
        assert!(before.get("fix_suggestions").is_none(), "{name}");
        let suggestions = &report["fix_suggestions"];
        let fixed = apply(&sb, &report);
        assert!(!fixed.is_empty(), "{name}: no edit suggested");
        // Every finding shown has an edit or says why it has none.
        let without: BTreeSet<String> = suggestions["without_edit"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w["rule_id"].as_str().unwrap().to_owned())
            .collect();
        for id in rule_ids(&report) {
            assert!(
                fixed.contains(&id) || without.contains(&id),
                "{name}: {id} has neither an edit nor a reason"
            );
        }
        let after = rule_ids(&lint_json(&sb, name, &[]));
        let still: Vec<&String> = fixed.intersection(&after).collect();
        assert!(
            still.is_empty(),
            "{name}: still found after the edits: {still:?}"
        );
    }
}

#[test]
fn the_table_shows_a_diff_patch_accepts() {
    let sb = Sandbox::new("fix-table");
    project(&sb, "bad");
    let run = sb.run(&["lint", "bad", "--fix-suggestions", "--no-color"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let section: String = run
        .stdout
        .lines()
        .skip_while(|l| !l.contains("Suggested edits"))
        .take_while(|l| !l.starts_with("Inputs"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_snapshot("", "lint-fix-suggestions.txt", &section);
    let md = sb.run(&["lint", "bad", "--fix-suggestions", "-o", "markdown"]);
    assert!(md.stdout.contains("**Suggested edits**"), "{}", md.stdout);
    assert!(
        md.stdout
            .contains("```diff\n--- bad/blue.yml\n+++ bad/blue.yml\n"),
        "{}",
        md.stdout
    );
    // The diff lines alone, fed to patch, change the file as the JSON edits say.
    if Path::new("/usr/bin/patch").exists() {
        patch(&sb, &run.stdout);
        let text = std::fs::read_to_string(sb.work().join("bad/blue.yml")).unwrap();
        assert!(text.contains("request_timeout_ms: 180000"), "{text}");
        assert!(text.contains("  timeout: 9"), "{text}");
    }
}

#[test]
fn sarif_results_carry_the_edits_as_fixes() {
    let sb = Sandbox::new("fix-sarif");
    project(&sb, "bad-env");
    let sarif = sb
        .run(&[
            "lint",
            "bad-env",
            "--fix-suggestions",
            "-o",
            "sarif",
            "--fail-on",
            "never",
        ])
        .ok()
        .json();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    // One result per file the finding was found in, each with one complete fix (SARIF
    // §3.55) that changes that file only.
    let mut changes: Vec<(String, u64, u64, String)> = Vec::new();
    for r in results
        .iter()
        .filter(|r| r["ruleId"] == "env-pins-server-owned-package")
    {
        let own = r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].clone();
        let fixes = r["fixes"].as_array().unwrap();
        assert_eq!(fixes.len(), 1, "{fixes:?}");
        for c in fixes[0]["artifactChanges"].as_array().unwrap() {
            assert_eq!(c["artifactLocation"]["uri"], own, "{r}");
            let uri = c["artifactLocation"]["uri"].as_str().unwrap().to_owned();
            for x in c["replacements"].as_array().unwrap() {
                changes.push((
                    uri.clone(),
                    x["deletedRegion"]["startLine"].as_u64().unwrap(),
                    x["deletedRegion"]["endLine"].as_u64().unwrap(),
                    x["insertedContent"]["text"].as_str().unwrap().to_owned(),
                ));
            }
        }
    }
    let flask_line = |file: &str| {
        std::fs::read_to_string(sb.work().join("bad-env").join(file))
            .unwrap()
            .lines()
            .position(|l| l.to_ascii_lowercase().contains("flask=="))
            .unwrap() as u64
            + 1
    };
    // Each pin's line is deleted whole: the region runs to the start of the next line.
    let conda = flask_line("conda.yml");
    let requirements = flask_line("requirements.txt");
    assert!(
        changes.contains(&(
            "bad-env/conda.yml".to_owned(),
            conda,
            conda + 1,
            String::new()
        )),
        "{changes:?}"
    );
    assert!(
        changes.contains(&(
            "bad-env/requirements.txt".to_owned(),
            requirements,
            requirements + 1,
            String::new()
        )),
        "{changes:?}"
    );
    let plain = sb
        .run(&["lint", "bad-env", "-o", "sarif", "--fail-on", "never"])
        .ok()
        .json();
    assert!(
        plain["runs"][0]["results"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r.get("fixes").is_none())
    );
}

/// Applies the diff a table run printed with `patch -p0` in the sandbox.
/// The diff lines of a report, as a user copies them into a patch file.
fn bare_diff(stdout: &str) -> String {
    // Split on newlines only: a CRLF file's lines keep their carriage return.
    stdout
        .split_inclusive('\n')
        .skip_while(|l| !l.starts_with("--- "))
        .filter(|l| l.starts_with(['-', '+', '@', '\\']) && !l.starts_with("──"))
        .collect()
}

fn patch(sb: &Sandbox, stdout: &str) {
    let diff = bare_diff(stdout);
    let file = sb.write("fix.patch", &diff);
    let out = std::process::Command::new("/usr/bin/patch")
        .args(["-p0", "--batch", "-i"])
        .arg(&file)
        .current_dir(sb.work())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}\n{diff}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn crlf_unterminated_and_spaced_files_get_edits_that_apply() {
    if !Path::new("/usr/bin/patch").exists() {
        return;
    }
    let sb = Sandbox::new("fix-odd");
    // CRLF line endings, no newline after the last line, a space in the folder name.
    let spec = "name: blue\r\nendpoint_name: churn-api\r\nmodel: azureml:churn:3\r\ninstance_type: Standard_DS3_v2\r\ninstance_count: 0\r\nrequest_settings:\r\n  request_timeout_ms: 300000";
    sb.write("work/odd dir/blue.yml", spec);
    let script = "from sklearn.pipeline import (\n    Pipeline,\n)\nfrom os import path\nimport joblib\n\n\ndef init():\n    global model, encoder\n    model, encoder = joblib.load(\"model/model.pkl\"), joblib.load(\"model/encoder.pkl\")\n    extra = joblib.load(f\"models/{path.sep}extra.pkl\")\n\n\ndef run(raw_data):\n    return raw_data\n";
    sb.write("work/odd dir/score.py", script);
    let run = sb.run(&["lint", "odd dir", "--fix-suggestions", "--no-color"]);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("--- odd dir/blue.yml\t"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("\\ No newline at end of file"),
        "{}",
        run.stdout
    );
    patch(&sb, &run.stdout);
    let spec = std::fs::read_to_string(sb.work().join("odd dir/blue.yml")).unwrap();
    assert_eq!(
        spec,
        "name: blue\r\nendpoint_name: churn-api\r\nmodel: azureml:churn:3\r\ninstance_type: Standard_DS3_v2\r\ninstance_count: 1\r\nrequest_settings:\r\n  request_timeout_ms: 180000"
    );
    let script = std::fs::read_to_string(sb.work().join("odd dir/score.py")).unwrap();
    // `import os` after the whole first import; both literals of one line joined to
    // the model folder; the f-string left as it is.
    assert!(
        script.starts_with("from sklearn.pipeline import (\n    Pipeline,\n)\nimport os\n"),
        "{script}"
    );
    assert!(
        script.contains("model, encoder = joblib.load(os.path.join(os.environ[\"AZUREML_MODEL_DIR\"], \"model.pkl\")), joblib.load(os.path.join(os.environ[\"AZUREML_MODEL_DIR\"], \"encoder.pkl\"))"),
        "{script}"
    );
    assert!(
        script.contains("joblib.load(f\"models/{path.sep}extra.pkl\")"),
        "{script}"
    );
    if Path::new("/usr/bin/python3").exists() {
        let parsed = std::process::Command::new("/usr/bin/python3")
            .args(["-c", "import ast, sys; ast.parse(open(sys.argv[1]).read())"])
            .arg(sb.work().join("odd dir/score.py"))
            .output()
            .unwrap();
        assert!(
            parsed.status.success(),
            "{}",
            String::from_utf8_lossy(&parsed.stderr)
        );
    }
    let after = lint_json(&sb, "odd dir", &[]);
    let ids = rule_ids(&after);
    assert!(
        !ids.contains("deployment-request-timeout-over-limit"),
        "{ids:?}"
    );
    assert!(
        !ids.contains("deployment-spec-value-out-of-range"),
        "{ids:?}"
    );
}

#[test]
fn quiet_output_ends_with_the_bare_diff() {
    let sb = Sandbox::new("fix-quiet");
    project(&sb, "bad");
    let run = sb.run(&["lint", "bad", "--fix-suggestions", "-q"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let diff: String = run
        .stdout
        .lines()
        .skip_while(|l| !l.starts_with("--- "))
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(
        diff.starts_with("--- bad/blue.yml\n+++ bad/blue.yml\n@@ "),
        "{}",
        run.stdout
    );
    // Every line before it is a finding's tab-separated line (facts last, when any).
    assert!(
        run.stdout
            .lines()
            .take_while(|l| !l.starts_with("--- "))
            .all(|l| (4..=5).contains(&l.split('\t').count()) && !l.ends_with('\t'))
    );
    if Path::new("/usr/bin/patch").exists() {
        patch(&sb, &run.stdout);
    }
}

#[test]
fn the_diff_of_a_dot_slash_path_applies_with_git_apply_as_the_readme_says() {
    let sb = Sandbox::new("fix-git-apply");
    project(&sb, "bad");
    let run = sb.run(&[
        "lint",
        "./bad",
        "--fix-suggestions",
        "--no-color",
        "--fail-on",
        "never",
    ]);
    assert!(run.stdout.contains("--- bad/blue.yml\n"), "{}", run.stdout);
    assert!(!run.stdout.contains("--- ./"), "{}", run.stdout);
    let git = ["/usr/bin/git", "/usr/local/bin/git"]
        .into_iter()
        .find(|g| Path::new(g).exists());
    let Some(git) = git else { return };
    let diff = bare_diff(&run.stdout);
    let file = sb.write("work/fix.diff", &diff);
    let out = std::process::Command::new(git)
        .args(["apply", "-p0", "--unidiff-zero"])
        .arg(&file)
        .current_dir(sb.work())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}\n{diff}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(sb.work().join("bad/blue.yml")).unwrap();
    assert!(text.contains("request_timeout_ms: 180000"), "{text}");
}
