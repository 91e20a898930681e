//! The wild corpus (tests/fixtures/wild): excerpts users pasted in public threads, each
//! with its source, the cause the thread established and expectations written from that
//! resolution before amldoctor ran on it. This is the yardstick of how well the analysis
//! generalises: it reports recall (a failure is named by one of the findings its
//! expectation lists), false positives (a warning or error on a healthy excerpt, or a
//! finding the expectation rules out) and silent failures (a failure excerpt with no
//! warning or error), and fails below the targets. Misses are printed, not hidden.
//!
//! It also mutates the failing line of every failure the way pastes mangle it (alone,
//! quoted, fenced, JSON-escaped, cut by a terminal) and requires each mutation to give
//! a warning or an error: never silent on a failure.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::{Sandbox, assert_generated};

/// Issue 28's targets are recall >= 90 %, no false positive and no silent failure. False
/// positives must stay at zero; the recall floor and the silent ceiling are what the
/// analysis reaches now (one excerpt, a bare directory listing of the container's code
/// folder, still shows nothing amldoctor reads as a failure), so the test fails on any
/// regression and each improvement tightens them (never loosen one).
/// Recall the corpus must reach, in per mille of its failures. (Held-out sets 8 to 12
/// joined the corpus after they were scored unseen, at 27.7 %, 62.5 %, 88.8 %, 71.4 % and
/// 55.5 %; their misses that remain lower the corpus's figure from 93.8 % to what it is
/// now.)
const RECALL_FLOOR: usize = 930;
/// Failure excerpts without any warning or error.
const MAX_SILENT: usize = 1;
/// Mangled failing lines (a JSON-escaped envelope, a terminal cut inside a code) without
/// any warning or error. Five of them are one excerpt of held-out set 9, an az issue
/// report whose failure is the user's own sentence under the form's `**Errors:**`
/// heading ("the build fails immediately"): read with its heading it is a failure,
/// alone it is prose, however mangled.
const MAX_SILENT_MUTATIONS: usize = 14;
const MIN_EXCERPTS: usize = 150;
const MIN_HEALTHY: usize = 25;

const SURFACES: &[&str] = &[
    "online-deployment",
    "kubernetes-deployment",
    "batch-endpoint",
    "job",
    "prs",
    "local-endpoint",
    "build",
    "sdk",
    "prompt-flow",
    "mlflow",
    "scoring",
];

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct Expect {
    source: String,
    surface: String,
    cause: String,
    healthy: bool,
    #[serde(default)]
    names: Vec<String>,
    #[serde(default)]
    must_not: Vec<String>,
}

struct Excerpt {
    slug: String,
    text: PathBuf,
    expect: Expect,
}

fn wild_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/wild")
}

fn corpus() -> Vec<Excerpt> {
    corpus_in(&wild_dir())
}

/// The excerpts of `dir`: each `slug.yaml` with its `slug.txt`.
fn corpus_in(dir: &Path) -> Vec<Excerpt> {
    let mut out = Vec::new();
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    names.sort();
    for path in names {
        let slug = path.file_stem().unwrap().to_string_lossy().into_owned();
        let text = dir.join(format!("{slug}.txt"));
        assert!(text.exists(), "{}: no {slug}.txt beside it", path.display());
        let expect: Expect = serde_saphyr::from_str(&std::fs::read_to_string(&path).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        out.push(Excerpt { slug, text, expect });
    }
    out
}

/// What one run said: the rule ids with their severities, and each finding's lines.
#[derive(Debug, Default)]
struct Outcome {
    findings: BTreeMap<String, String>,
    lines: Vec<String>,
    /// A warning or error carries the service's own code and message: the service-error
    /// rule's, or that of the category or catalogue rule that took the error over.
    reports_service_error: bool,
}

impl Outcome {
    fn loud(&self) -> Vec<&str> {
        self.findings
            .iter()
            .filter(|(_, s)| *s == "error" || *s == "warning")
            .map(|(id, _)| id.as_str())
            .collect()
    }
}

fn outcome(v: &serde_json::Value) -> Outcome {
    let mut out = Outcome::default();
    for f in v["findings"].as_array().unwrap() {
        let id = f["rule_id"].as_str().unwrap().to_owned();
        out.findings
            .insert(id, f["severity"].as_str().unwrap().to_owned());
        if matches!(f["severity"].as_str(), Some("error" | "warning")) {
            // The line that shows the failure: a signature's or service error's hit opens
            // its evidence; a category or unrecognised finding quotes its failing line.
            let lines: Vec<&str> = f["evidence"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|e| e["text"].as_str())
                .collect();
            let quoted = ["last_error", "message"]
                .iter()
                .find_map(|k| f["facts"][k].as_str());
            let from_service = f["facts"]["code"].is_string();
            out.reports_service_error |= from_service;
            let line = match f["layer"].as_str() {
                Some("category" | "unrecognised") if !from_service => {
                    quoted.or(lines.last().copied()).map(str::to_owned)
                }
                // A service error is its message and code lines together (a pretty
                // body puts them on lines of their own).
                _ if from_service => Some(lines.join("\n")).filter(|l| !l.is_empty()),
                _ => lines
                    .iter()
                    .find(|l| !l.trim_start().starts_with("File \""))
                    .map(|l| (*l).to_owned()),
            };
            out.lines.extend(line);
        }
    }
    out
}

/// Runs every excerpt (two at a time: the machine has two cores), in corpus order.
fn run_all(sb: &Sandbox, corpus: &[Excerpt]) -> Vec<Outcome> {
    let half = corpus.len().div_ceil(2);
    std::thread::scope(|s| {
        let parts: Vec<_> = corpus
            .chunks(half.max(1))
            .map(|chunk| {
                s.spawn(move || {
                    chunk
                        .iter()
                        .map(|e| outcome(&sb.diagnose_json(&[e.text.to_str().unwrap()])))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        parts.into_iter().flat_map(|p| p.join().unwrap()).collect()
    })
}

#[derive(Default)]
struct Score {
    failures: usize,
    named: usize,
    healthy: usize,
    misses: Vec<String>,
    false_positives: Vec<String>,
    silent: Vec<String>,
}

fn score(corpus: &[Excerpt], outcomes: &[Outcome]) -> Score {
    let mut s = Score::default();
    for (e, o) in corpus.iter().zip(outcomes) {
        let found: Vec<&str> = o.findings.keys().map(String::as_str).collect();
        for m in &e.expect.must_not {
            if found.contains(&m.as_str()) {
                s.false_positives
                    .push(format!("{}: {m} (ruled out)", e.slug));
            }
        }
        if e.expect.healthy {
            s.healthy += 1;
            for id in o.loud() {
                s.false_positives
                    .push(format!("{}: {id} on a healthy excerpt", e.slug));
            }
            continue;
        }
        s.failures += 1;
        if o.loud().is_empty() {
            s.silent.push(format!("{}: found {found:?}", e.slug));
        }
        // `service-error` asks that the service's own error be reported, under whatever
        // rule explains it best.
        let met = |n: &String| {
            o.loud().contains(&n.as_str()) || n == "service-error" && o.reports_service_error
        };
        if e.expect.names.iter().any(met) {
            s.named += 1;
        } else {
            s.misses.push(format!(
                "{} [{}]: expected one of {:?}, found {found:?}",
                e.slug, e.expect.surface, e.expect.names
            ));
        }
    }
    s
}

#[test]
// The corpus's score is this test's report, printed under `--nocapture` when it passes.
#[allow(clippy::print_stderr)]
fn the_wild_corpus_is_named_without_false_positives_or_silence() {
    let corpus = corpus();
    check_shape(&corpus);
    let sb = Sandbox::new("wild");
    let outcomes = run_all(&sb, &corpus);
    let s = score(&corpus, &outcomes);
    let recall = s.named * 1000 / s.failures.max(1);
    let report = s.report("wild corpus");
    eprintln!("{report}");
    assert!(
        recall >= RECALL_FLOOR && s.false_positives.is_empty() && s.silent.len() <= MAX_SILENT,
        "{report}"
    );
    mutations_are_never_silent(&sb, &corpus, &outcomes);
}

/// A held-out set (a folder in the corpus's format kept outside the repository, named
/// by `AMLDOCTOR_BLIND_DIR`) scored against issue 28's targets for excerpts the
/// analysis was not written from: recall >= 85 %, no false positive, no silent failure.
/// Run by hand: `AMLDOCTOR_BLIND_DIR=/path cargo test --test cli blind -- --ignored
/// --nocapture`.
#[test]
#[ignore = "needs a held-out set outside the repository (AMLDOCTOR_BLIND_DIR)"]
#[allow(clippy::print_stderr)]
fn a_held_out_set_meets_the_unseen_targets() {
    let dir = PathBuf::from(
        std::env::var_os("AMLDOCTOR_BLIND_DIR")
            .expect("AMLDOCTOR_BLIND_DIR names the held-out folder"),
    );
    let corpus = corpus_in(&dir);
    assert!(!corpus.is_empty(), "no excerpts in {}", dir.display());
    let sb = Sandbox::new("blind");
    let outcomes = run_all(&sb, &corpus);
    let s = score(&corpus, &outcomes);
    let report = s.report(&format!("held-out set {}", dir.display()));
    eprintln!("{report}");
    let recall = s.named * 1000 / s.failures.max(1);
    assert!(
        recall >= 850 && s.false_positives.is_empty() && s.silent.is_empty(),
        "{report}"
    );
}

impl Score {
    fn report(&self, name: &str) -> String {
        let s = self;
        let recall = s.named * 1000 / s.failures.max(1);
        format!(
            "{name}: {} failures, {} healthy; recall {}.{} % ({} named), {} false positives, {} silent\n\
         misses:\n  {}\nfalse positives:\n  {}\nsilent:\n  {}",
            s.failures,
            s.healthy,
            recall / 10,
            recall % 10,
            s.named,
            s.false_positives.len(),
            s.silent.len(),
            s.misses.join("\n  "),
            s.false_positives.join("\n  "),
            s.silent.join("\n  "),
        )
    }
}

/// Every expectation is well formed, names rules that exist, and the corpus is as
/// broad as issue 28 asks; SOURCES.md lists every excerpt's thread.
fn check_shape(corpus: &[Excerpt]) {
    assert!(corpus.len() >= MIN_EXCERPTS, "{} excerpts", corpus.len());
    let healthy = corpus.iter().filter(|e| e.expect.healthy).count();
    assert!(healthy >= MIN_HEALTHY, "{healthy} healthy excerpts");
    let sb = Sandbox::new("wild-rules");
    let known = sb.run(&["rules", "list", "-q"]).stdout;
    let known: Vec<&str> = known.lines().collect();
    for e in corpus {
        let x = &e.expect;
        assert!(
            SURFACES.contains(&x.surface.as_str()),
            "{}: surface {}",
            e.slug,
            x.surface
        );
        assert!(
            x.source.starts_with("https://"),
            "{}: source {}",
            e.slug,
            x.source
        );
        assert!(!x.cause.trim().is_empty(), "{}: no cause", e.slug);
        assert!(
            x.healthy == x.names.is_empty(),
            "{}: healthy xor names",
            e.slug
        );
        for id in x.names.iter().chain(&x.must_not) {
            assert!(known.contains(&id.as_str()), "{}: no rule {id}", e.slug);
        }
    }
    for surface in SURFACES {
        assert!(
            corpus.iter().any(|e| e.expect.surface == *surface),
            "no excerpt of surface {surface}"
        );
    }
    assert_generated(&wild_dir().join("SOURCES.md"), sources(corpus).as_bytes());
}

fn sources(corpus: &[Excerpt]) -> String {
    let mut out = String::from(
        "# Wild corpus sources\n\n\
         Generated from the `*.yaml` beside each excerpt by `tests/cli/wild.rs`\n\
         (`AMLDOCTOR_UPDATE_GENERATED=1 cargo test --test cli` rewrites it). Every excerpt is\n\
         text a user pasted in the public thread named here, trimmed to the failure and\n\
         otherwise as pasted (secrets replaced by `REDACTED`); the cause is the thread's\n\
         resolution in our words, or what the error itself states where the thread never\n\
         settled it.\n\n\
         | excerpt | surface | healthy | source | cause |\n|---|---|---|---|---|\n",
    );
    for e in corpus {
        let x = &e.expect;
        let _ = writeln!(
            out,
            "| {} | {} | {} | <{}> | {} |",
            e.slug,
            x.surface,
            if x.healthy { "yes" } else { "" },
            x.source,
            x.cause.trim().replace('|', "\\|").replace('\n', " ")
        );
    }
    out
}

/// The mangled forms of one failing line.
fn mutations(line: &str) -> Vec<(&'static str, String)> {
    let escaped = serde_json::to_string(line).unwrap();
    let wrapped: Vec<String> = line
        .chars()
        .collect::<Vec<_>>()
        .chunks(80)
        .map(|c| c.iter().collect())
        .collect();
    vec![
        ("alone", format!("{line}\n")),
        ("quoted", format!("> {line}\n")),
        ("fenced", format!("got this:\n```\n{line}\n```\n")),
        ("json-escaped", format!("{{\"message\": {escaped}}}\n")),
        ("cut", format!("{}\n", wrapped.join("\n"))),
    ]
}

/// Each failure's failing line, mangled every way, in one folder run.
#[allow(clippy::print_stderr)]
fn mutations_are_never_silent(sb: &Sandbox, corpus: &[Excerpt], outcomes: &[Outcome]) {
    let mut written = Vec::new();
    for (e, o) in corpus.iter().zip(outcomes) {
        let Some(line) = o.lines.first().filter(|_| !e.expect.healthy) else {
            continue;
        };
        for (how, text) in mutations(line) {
            let name = format!("{}--{how}.txt", e.slug);
            sb.write(&format!("work/mutations/{name}"), &text);
            written.push(name);
        }
    }
    assert!(written.len() >= 5 * 100, "{} mutations", written.len());
    let v = sb.diagnose_json(&["mutations"]);
    let mut loud: Vec<String> = Vec::new();
    for f in v["findings"].as_array().unwrap() {
        if matches!(f["severity"].as_str(), Some("error" | "warning")) {
            for i in f["paths"].as_array().into_iter().flatten() {
                loud.push(i.as_str().unwrap_or_default().to_owned());
            }
        }
    }
    let silent: Vec<&String> = written
        .iter()
        .filter(|n| !loud.iter().any(|i| i.ends_with(n.as_str())))
        .collect();
    eprintln!("{} mutations, silent: {silent:#?}", written.len());
    assert!(
        silent.len() <= MAX_SILENT_MUTATIONS,
        "{} silent mutations (at most {MAX_SILENT_MUTATIONS}): {silent:#?}",
        silent.len()
    );
}
