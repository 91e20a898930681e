//! Generates the benchmark corpus: a deterministic log tree with planted errors, plus
//! the catalogue's patterns as files for `rg -f` and `grep -E -f`, plus a deliberately
//! expensive user rule. See bench/run.sh and the README's "Performance" section.
//!
//! Usage: cargo run --release --example bench_corpus -- OUT_DIR TOTAL_MB FILES

use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::Path;

/// xorshift64*: deterministic and dependency-free.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const NOISE: &[&str] = &[
    "{ts} I [294] gunicorn.access - 127.0.0.1 - - [26/Apr/2025:11:50:37 +0000] \"GET / HTTP/1.0\" 200 7 \"-\" \"kube-probe/1.18\"",
    "{ts} I [294] azmlinfsrv - POST /score 200 {n}.459ms 147296",
    "{ts} I [294] azmlinfsrv.print - Scoring batch {n}: 32 rows, mean latency 41.2 ms",
    "{ts} W [294] azmlinfsrv - x-ms-request-id header has been deprecated and will be removed from future versions of the server.",
    "{ts} I [152] azmlinfsrv.user_script - run() is not decorated. Server will invoke it with the input in JSON string.",
    "{ts} I [294] azmlinfsrv.print - Modèle chargé en {n} ms — prédiction terminée, coût estimé 0,{n} €",
    "{ts} I [294] azmlinfsrv.print - 100%|██████████| {n}/{n} [00:01<00:00, 9.53it/s]",
    "{ts} I [294] azmlinfsrv.print - tokenizer: 分词完成 {n} tokens",
    "{ts} I [12] gunicorn.error - Booting worker with pid: {n}",
    "{ts} | root | INFO | Validation Request Content-Type",
    "{ts} | root | INFO | Scoring Timer is set to 60.0 seconds",
    "{ts} | root | INFO | 200",
    "numpy=={n}.24.3",
    "scikit-learn==1.{n}.2",
    "2024-10-10T11:06:23,408123456+00:00 | gunicorn/run | PATH environment variable: /opt/miniconda/envs/amlenv/bin:/opt/miniconda/bin",
    "{ts} I [294] azmlinfsrv.print - feature vector: [0.{n}, 0.51, 0.33, 0.87, 0.12, 0.45, 0.91, 0.08, 0.66]",
];

const PLANTED: &[&str] = &[
    "TypeError: register() takes 3 positional arguments but 4 were given",
    "ImportError: cannot import name 'Markup' from 'jinja2' (/azureml-envs/azureml_abc/lib/python3.8/site-packages/jinja2/__init__.py)",
    "{ts} E [73] azmlinfsrv - User's init function failed",
    "{ts} I [12] gunicorn.error - Reason: Worker failed to boot.",
    "{ts} E [12] gunicorn.error - Worker (pid:{n}) was sent SIGKILL! Perhaps out of memory?",
    "ERROR: (None) ResourceNotReady: User container has crashed or terminated: Liveness probe failed: HTTP probe failed with statuscode: 502.",
    "Exception Details:\t(InferencingClientCreateDeploymentFailed) InferencingClient HttpRequest error, error detail: {\"errors\":{\"VmSize\":[\"Not enough quota available for Standard_DS3_v2 in SubscriptionId 11111111-2222-3333-4444-555555555555. Current usage/limit: 4/6. Additional needed: 8\"]}}",
    "azureml_inference_server_http.server.user_script.UserScriptTimeout: Script failed to finish execution within the allocated time: 1000ms",
];

fn timestamp(rng: &mut Rng) -> String {
    format!(
        "2025-04-{:02} {:02}:{:02}:{:02},{:03}",
        1 + rng.below(28),
        rng.below(24),
        rng.below(60),
        rng.below(60),
        rng.below(1000)
    )
}

fn render(template: &str, rng: &mut Rng) -> String {
    template
        .replace("{ts}", &timestamp(rng))
        .replace("{n}", &rng.below(10_000).to_string())
}

/// The expensive rule: a Unicode word boundary and a leading wildcard.
const SLOW_RULE: &str = r#"id: bench-slow-unicode-boundary
title: Benchmark rule with a Unicode word boundary
severity: warning
family: inference-server
match:
  any: ['(?u)\b\w+ (?:could not|cannot) allocate \w+\b']
remediation: Benchmark only.
examples:
  match: ['torch could not allocate memory']
  no-match: ['allocation fine']
"#;

/// The pattern without group names: ripgrep joins `-f` patterns into one regex, where
/// repeated names are an error.
fn unnamed(p: &str) -> String {
    let mut s = p.to_owned();
    while let Some(at) = s.find("(?P<") {
        match s[at..].find('>') {
            Some(end) => s.replace_range(at..at + end + 1, "("),
            None => break,
        }
    }
    s
}

/// Best-effort translation of a Rust regex into POSIX ERE for `grep -E`.
fn to_ere(p: &str) -> String {
    unnamed(p)
        .replace("(?:", "(")
        .replace("(?i)", "")
        .replace("(?i:", "(")
        .replace("(?u)", "")
        .replace("\\d", "[0-9]")
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [out, total_mb, files] = args.as_slice() else {
        return Err("usage: bench_corpus OUT_DIR TOTAL_MB FILES".into());
    };
    let out = Path::new(out);
    let total: u64 = total_mb.parse::<u64>()? * 1024 * 1024;
    let files: u64 = files.parse()?;
    let per_file = total / files;
    let tree = out.join("tree");
    let _ = fs::remove_dir_all(&tree);
    let mut planted = 0u64;
    for f in 0..files {
        let dir = tree.join(format!("node-{:03}", f % 50));
        fs::create_dir_all(&dir)?;
        let mut w = BufWriter::with_capacity(
            1 << 20,
            File::create(dir.join(format!("deployment-{f:04}.log")))?,
        );
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ (f + 1).wrapping_mul(0x1234_5678_9ABC));
        let mut written = 0u64;
        while written < per_file {
            let line = if rng.below(20_000) == 0 {
                planted += 1;
                render(PLANTED[rng.below(PLANTED.len() as u64) as usize], &mut rng)
            } else {
                render(NOISE[rng.below(NOISE.len() as u64) as usize], &mut rng)
            };
            w.write_all(line.as_bytes())?;
            w.write_all(b"\n")?;
            written += line.len() as u64 + 1;
        }
        w.flush()?;
    }
    let set = amldoctor::rules::load_builtin()?;
    let patterns: Vec<&str> = set.patterns.iter().map(|p| p.regex.as_str()).collect();
    let rg: Vec<String> = patterns.iter().map(|p| unnamed(p)).collect();
    fs::write(out.join("patterns.rg.txt"), rg.join("\n") + "\n")?;
    let ere: Vec<String> = patterns.iter().map(|p| to_ere(p)).collect();
    fs::write(out.join("patterns.grep.txt"), ere.join("\n") + "\n")?;
    fs::create_dir_all(out.join("slow-rule"))?;
    fs::write(out.join("slow-rule/slow.yaml"), SLOW_RULE)?;
    writeln!(
        std::io::stdout(),
        "wrote {files} files, {} MB, {planted} planted errors, {} patterns, under {}",
        total / 1024 / 1024,
        patterns.len(),
        out.display()
    )?;
    Ok(())
}
