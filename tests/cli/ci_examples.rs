//! The CI examples under docs/ci must keep working: every `amldoctor` command in them is
//! run with the real binary against a sample log tree, with the pipelines' variables
//! filled in, and must not fail with a usage error.

use std::path::Path;

use crate::{Run, Sandbox, fixture};

/// Every script string in a workflow (`run:` in GitHub Actions, `inlineScript:` in Azure).
fn scripts(v: &serde_json::Value, out: &mut Vec<String>) {
    match v {
        serde_json::Value::Object(map) => {
            for (k, v) in map {
                if (k == "run" || k == "inlineScript")
                    && let Some(s) = v.as_str()
                {
                    out.push(s.to_owned());
                }
                scripts(v, out);
            }
        }
        serde_json::Value::Array(items) => items.iter().for_each(|i| scripts(i, out)),
        _ => {}
    }
}

fn load(name: &str) -> (String, Vec<String>) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("docs/ci")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    let v: serde_json::Value =
        serde_saphyr::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut out = Vec::new();
    scripts(&v, &mut out);
    let commands = out
        .iter()
        .flat_map(|s| s.lines())
        .map(str::trim)
        .filter(|l| l.starts_with("amldoctor "))
        .map(str::to_owned)
        .collect();
    (text, commands)
}

/// Runs one `amldoctor …` line: variables substituted, `> file` honoured.
fn run_line(sb: &Sandbox, line: &str) -> Run {
    let staging = sb.work().join("staging");
    std::fs::create_dir_all(&staging).unwrap();
    let line = line
        .replace(
            "$(Build.ArtifactStagingDirectory)",
            staging.to_str().unwrap(),
        )
        .replace("\"$ENDPOINT\"", "churn-endpoint")
        .replace("\"$DEPLOYMENT\"", "blue");
    let (command, redirect) = match line.split_once(" > ") {
        Some((c, r)) => (c.to_owned(), Some(r.trim().trim_matches('"').to_owned())),
        None => (line.clone(), None),
    };
    let words: Vec<&str> = command.split_whitespace().skip(1).collect();
    let run = Run::from(sb.command(&words).output().unwrap());
    if let Some(file) = redirect {
        std::fs::write(sb.work().join(file), &run.stdout).unwrap();
    }
    run
}

fn prepare(sb: &Sandbox) {
    std::fs::create_dir_all(sb.work().join("logs")).unwrap();
    std::fs::create_dir_all(sb.work().join("ci")).unwrap();
    std::fs::copy(
        fixture("logs/server-1.5.1-oom-kill.log"),
        sb.work().join("logs/inference-server.log"),
    )
    .unwrap();
    std::fs::copy(
        fixture("logs/storage-initializer-auth-failure.log"),
        sb.work().join("logs/storage-initializer.log"),
    )
    .unwrap();
    let run = sb.run(&[
        "diagnose",
        "logs/",
        "--write-baseline",
        "ci/amldoctor-baseline.json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
}

fn check(name: &str, must_contain: &[&str]) {
    let (text, commands) = load(name);
    for needle in must_contain {
        assert!(text.contains(needle), "{name} lacks {needle}");
    }
    assert!(!commands.is_empty(), "{name} runs amldoctor");
    let sb = Sandbox::new(&format!("ci-{}", name.replace('.', "-")));
    prepare(&sb);
    for line in &commands {
        let run = run_line(&sb, line);
        assert!(
            run.code == 0 || run.code == 1,
            "{name}: `{line}` exited {}: {}",
            run.code,
            run.stderr
        );
        assert!(
            !run.stderr.contains("error:"),
            "{name}: `{line}`: {}",
            run.stderr
        );
    }
}

#[test]
fn github_actions_example() {
    check(
        "github-actions.yml",
        &[
            "id-token: write",
            "azure/login@v2",
            "github/codeql-action/upload-sarif@v3",
            "GITHUB_STEP_SUMMARY",
            "security-events: write",
        ],
    );
    let sb = Sandbox::new("ci-gha-output");
    prepare(&sb);
    let (_, commands) = load("github-actions.yml");
    for line in &commands {
        run_line(&sb, line);
    }
    let sarif: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(sb.work().join("amldoctor.sarif")).unwrap())
            .unwrap();
    assert_eq!(sarif["version"], "2.1.0");
    assert!(
        std::fs::read_to_string(sb.work().join("amldoctor.md"))
            .unwrap()
            .starts_with("## amldoctor:")
    );
}

#[test]
fn azure_pipelines_example() {
    check(
        "azure-pipelines.yml",
        &[
            "PublishTestResults@2",
            "testResultsFormat: JUnit",
            "AzureCLI@2",
        ],
    );
    let sb = Sandbox::new("ci-azp-output");
    prepare(&sb);
    let (_, commands) = load("azure-pipelines.yml");
    for line in &commands {
        run_line(&sb, line);
    }
    let xml = std::fs::read_to_string(sb.work().join("staging/amldoctor-junit.xml")).unwrap();
    roxmltree::Document::parse(&xml).unwrap();
}
