//! Generates the benchmark corpus: a deterministic log tree with planted errors, plus
//! the catalogue's patterns as files for `rg -f` and `grep -E -f`, plus a deliberately
//! expensive user rule. See bench/run.sh and the README's "Performance" section.
//!
//! Usage: cargo run --release --example bench_corpus -- OUT_DIR TOTAL_MB FILES
//!        cargo run --release --example bench_corpus -- OUT_DIR prs NODES
//!        cargo run --release --example bench_corpus -- OUT_DIR prs-busy TOTAL_MB
//! The second form writes a ParallelRunStep tree: NODES nodes, 4 workers each, about 50
//! files and 8.5 MB per node (200 nodes: 10,000 files, 1.7 GB). The third writes the
//! shape of a healthy long-running job (issue 13): 6 nodes × 8 processes whose
//! `sys/node/<ip>/processNNN.txt` are nearly all progress, heartbeat and upload lines
//! (half of TOTAL_MB), and `user/stderr` library chatter (the other half).

// A data generator, not product code: random floats for realistic numbers and one long
// function per file layout read better than the house rules would make them.
#![allow(
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::format_push_string,
    clippy::too_many_lines
)]

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

/// A failed ParallelRunStep job over `nodes` nodes: realistic file set and sizes.
fn prs_tree(out: &Path, nodes: u64) -> Result<(u64, u64), Box<dyn std::error::Error>> {
    let root = out.join("prs");
    let _ = fs::remove_dir_all(&root);
    let logs = root.join("logs");
    let mut files = 0u64;
    let mut bytes = 0u64;
    let mut write =
        |path: std::path::PathBuf, text: &str| -> Result<(), Box<dyn std::error::Error>> {
            fs::create_dir_all(path.parent().ok_or("no parent")?)?;
            fs::write(&path, text)?;
            files += 1;
            bytes += text.len() as u64;
            Ok(())
        };
    let per_process = 120u64;
    let total = nodes * 4 * per_process;
    write(
        root.join("azureml-logs/70_driver_log.txt"),
        &format!(
            "Script args: ['driver/amlbi_main.py', '--node_count', '{nodes}', '--process_count_per_node', '4', '--run_invocation_timeout', '60', '--error_threshold', '100']\n  File \"driver/amlbi_main.py\", line 226, in main\n    sys.exit(exitcode_candidate)\nSystemExit: 42\n"
        ),
    )?;
    write(
        logs.join("job_progress_overview.2023051622.txt"),
        &format!(
            "2023-05-16T22:00:01.000000 Start the simulator.\n2023-05-16T22:00:30.000000 Scheduling finished. Scheduled {total} mini batches in 29 seconds. There are {total} tasks with {total} items.\n2023-05-16T23:59:00.000000 Processed {} of {total} mini batches in 1:59:00. Estimated remaining time 0:10:00.\n2023-05-17T00:01:00.000000 The number of failed items is 101, which exceeds error threshold 100.\n",
            total - 300
        ),
    )?;
    write(
        logs.join("job_result.txt"),
        "The number of failed items is 101, which exceeds error threshold 100.\nPlease check logs for error. You can check logs/readme.txt for the layout of logs.\n",
    )?;
    let mut csv = String::from(
        "Mini-batch Id,Picked Count,Process,Start Time,Total,Succeeded,Failed,Elapsed Seconds,Process Seconds,Run Method Seconds,Status,Error Category,Error Message,Mini-batch Detail\n",
    );
    let mut rng = Rng(42);
    let mut id = 0u64;
    for node in 0..nodes {
        write(
            logs.join(format!("sys/node/{node}/_main.txt")),
            &(0..4)
                .map(|p| {
                    format!(
                        "2023-05-16 22:00:{:02},000|INFO|{}|Start process{p:03}.\n",
                        p,
                        100 + p
                    )
                })
                .collect::<String>(),
        )?;
        for p in 0..4u64 {
            let mut plog = String::new();
            let mut stdout = String::new();
            let mut errors = String::new();
            for _ in 0..per_process {
                let secs = 5.0 + (rng.below(5000) as f64) / 100.0;
                let failed = rng.below(2000) == 0;
                let status = if failed { "RUN_EXCEPTION" } else { "RUN_DONE" };
                csv.push_str(&format!("{id},1,{node}/process{p:03},2023-05-16T22:{:02}:00.0,1,{},{},{secs:.2},{secs:.2},{secs:.2},{status},{},{},file_{id:07}.parquet\n", rng.below(60), u8::from(!failed), u8::from(failed), if failed { "User" } else { "" }, if failed { "\"ValueError: bad row, column 3\"" } else { "" }));
                plog.push_str(&format!("2023-05-16 22:{:02}:{:02},{:03}|INFO|{}|Finished {{\"agent\": \"process{p:03}\", \"task_id\": {id}, \"dequeue_count\": 1, \"total\": 1, \"succeeded\": {}, \"method\": \"run\", \"elapsed\": {secs:.2}}}\n", rng.below(60), rng.below(60), rng.below(1000), 100 + p, u8::from(!failed)));
                for _ in 0..140 {
                    stdout.push_str(&format!("2023-05-16 22:{:02}:{:02},{:03} scoring file_{id:07}.parquet: batch {} of 512 rows, mean score 0.{:04} — durée {} ms\n", rng.below(60), rng.below(60), rng.below(1000), rng.below(64), rng.below(10_000), rng.below(900)));
                }
                if failed {
                    errors.push_str("Entry script run() failed for ValueError: bad row, column 3. Details Traceback (most recent call last):\n  File \"score.py\", line 41, in run\n    value = float(row[3])\nValueError: bad row, column 3\n");
                }
                id += 1;
            }
            write(
                logs.join(format!("sys/node/{node}/process{p:03}.txt")),
                &plog,
            )?;
            write(
                logs.join(format!("user/stdout/{node}/process{p:03}.stdout.txt")),
                &stdout,
            )?;
            write(
                logs.join(format!(
                    "user/entry_script_log/{node}/process{p:03}.log.txt"
                )),
                "init done\n",
            )?;
            write(
                logs.join(format!("user/stderr/{node}/process{p:03}.stderr.txt")),
                "",
            )?;
            if !errors.is_empty() {
                write(
                    logs.join(format!("user/error/{node}/process{p:03}.txt")),
                    &errors,
                )?;
            }
        }
        let mut perf = String::from(
            "Utc Time,Cpu Percent,Memory Total (MB),Memory Available (MB),Memory Used (MB),Memory Used Percent\n",
        );
        for m in 0..120 {
            let used = 30.0 + (rng.below(600) as f64) / 10.0;
            perf.push_str(&format!(
                "2023-05-16 22:{:02}:00,{:.1},28000,{:.0},{:.0},{used:.1}\n",
                m % 60,
                40.0 + (rng.below(600) as f64) / 10.0,
                28000.0 * (1.0 - used / 100.0),
                28000.0 * used / 100.0
            ));
        }
        write(
            logs.join(format!("perf/{node}/node_resource_usage.csv")),
            &perf,
        )?;
        write(
            logs.join(format!("perf/{node}/processes_resource_usage.csv")),
            "Utc Time,Pid,Process Name,Cpu Percent,Memory Used (MB)\n2023-05-16 22:00:00,100,process000,50.0,2100\n",
        )?;
        write(
            logs.join(format!("perf/{node}/node_disk_usage.csv")),
            "Utc Time,Disk,Total (GB),Used (GB),Used Percent\n2023-05-16 22:00:00,/,120,40,33.3\n",
        )?;
        for snap in 0..30 {
            write(logs.join(format!("perf/{node}/os/2023051622/processes_{snap:02}")), &"root      100  3.1  7.5 2345678 2100000 ?  Sl   22:00   1:23 python driver/amlbi_main.py\n".repeat(40))?;
        }
    }
    write(logs.join("sys/job_report/processed_mini-batches.csv"), &csv)?;
    Ok((files, bytes))
}

/// One structured sys line of a worker: `time|LEVEL|ip|processNNN|thread|module:function:line|message`.
fn busy_sys_line(rng: &mut Rng, ip: &str, p: u64, batch: u64) -> String {
    let ts = format!(
        "2024-03-0{} {:02}:{:02}:{:02},{:03}",
        1 + rng.below(7),
        rng.below(24),
        rng.below(60),
        rng.below(60),
        rng.below(1000)
    );
    let (site, message) = match rng.below(4) {
        0 => (
            "task_runner.py:run_task:212",
            format!(
                "Start processing mini batch {batch} (file_count={}, size={} bytes).",
                1 + rng.below(8),
                rng.below(50_000_000)
            ),
        ),
        1 => (
            "task_runner.py:run_task:248",
            format!(
                "Mini batch {batch} processed in {}.{:02} seconds, {} items succeeded, 0 failed.",
                rng.below(90),
                rng.below(100),
                1 + rng.below(8)
            ),
        ),
        2 => (
            "uploader.py:upload:77",
            format!(
                "Uploading results to azureml://datastores/workspaceblobstore/paths/out/batch_{batch:07}.csv"
            ),
        ),
        _ => (
            "heartbeat.py:beat:41",
            format!(
                "Heartbeat: process{p:03} alive, pid={}, memory_rss={}MB, cpu_percent={}.{}",
                1000 + p,
                800 + rng.below(2000),
                rng.below(100),
                rng.below(10)
            ),
        ),
    };
    format!(
        "{ts}|INFO|{ip}|process{p:03}|{}|{site}|{message}\n",
        139_000_000_000_000 + rng.below(1_000_000)
    )
}

/// Ordinary library chatter on a worker's stderr.
fn busy_stderr_line(rng: &mut Rng) -> String {
    const CHATTER: &[&str] = &[
        "INFO:azureml.dataprep.rslex:Reading parquet file with 4 row groups",
        "WARNING:urllib3.connectionpool:Connection pool is full, discarding connection: workspaceblobstore.blob.core.windows.net",
        "INFO:numexpr.utils:NumExpr defaulting to 4 threads.",
        "/opt/miniconda/lib/python3.10/site-packages/sklearn/base.py:439: UserWarning: X does not have valid feature names",
        "  warnings.warn(",
        "DEBUG:azure.core.pipeline.policies.http_logging_policy:Response status: 200",
    ];
    format!(
        "{} [{}]\n",
        CHATTER[rng.below(CHATTER.len() as u64) as usize],
        rng.below(1_000_000)
    )
}

/// A healthy long-running job's tree: see the module docs.
fn prs_busy_tree(out: &Path, total_mb: u64) -> Result<(u64, u64), Box<dyn std::error::Error>> {
    let root = out.join("prs-busy");
    let _ = fs::remove_dir_all(&root);
    let logs = root.join("logs");
    let per_file = total_mb * 1024 * 1024 / 2 / 48;
    let (mut files, mut bytes) = (0u64, 0u64);
    let mut rng = Rng(7);
    fs::create_dir_all(&logs)?;
    fs::write(
        logs.join("job_progress_overview.2024030100.txt"),
        "2024-03-01T00:00:01.000000 Start the simulator.\n2024-03-01T00:00:30.000000 Scheduling finished. Scheduled 200000 mini batches in 29 seconds. There are 200000 tasks with 800000 items.\n2024-03-07T23:00:00.000000 Processed 150000 of 200000 mini batches in 6 days, 23:00:00. Estimated remaining time 2 days, 8:00:00.\n",
    )?;
    let mut batch = 0u64;
    for node in 0..6u64 {
        let ip = format!("10.0.0.{}", 4 + node);
        for p in 0..8u64 {
            for (dir, sys) in [
                (format!("sys/node/{ip}"), true),
                (format!("user/stderr/{ip}"), false),
            ] {
                let name = if sys {
                    format!("process{p:03}.txt")
                } else {
                    format!("process{p:03}.stderr.txt")
                };
                let path = logs.join(dir).join(name);
                fs::create_dir_all(path.parent().ok_or("no parent")?)?;
                let mut w = BufWriter::with_capacity(1 << 20, File::create(&path)?);
                let mut written = 0u64;
                while written < per_file {
                    let line = if sys {
                        batch += 1;
                        busy_sys_line(&mut rng, &ip, p, batch / 2)
                    } else {
                        busy_stderr_line(&mut rng)
                    };
                    w.write_all(line.as_bytes())?;
                    written += line.len() as u64;
                }
                w.flush()?;
                files += 1;
                bytes += written;
            }
        }
    }
    Ok((files, bytes))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [out, mode, mb] = args.as_slice()
        && mode == "prs-busy"
    {
        let (files, bytes) = prs_busy_tree(Path::new(out), mb.parse()?)?;
        writeln!(
            std::io::stdout(),
            "wrote a busy ParallelRunStep tree: {files} files, {} MB, under {}/prs-busy",
            bytes >> 20,
            out
        )?;
        return Ok(());
    }
    if let [out, mode, nodes] = args.as_slice()
        && mode == "prs"
    {
        let (files, bytes) = prs_tree(Path::new(out), nodes.parse()?)?;
        writeln!(
            std::io::stdout(),
            "wrote a ParallelRunStep tree: {files} files, {} MB, under {}/prs",
            bytes >> 20,
            out
        )?;
        return Ok(());
    }
    // `json`: the same lines as structured JSON logs print them, one object a line with
    // the message JSON-escaped (quotes, apostrophes as \u0027): the shape where every
    // line needs normalising before rules read it.
    let (json, args) = match args.as_slice() {
        [out, mode, rest @ ..] if mode == "json" => {
            let mut a = vec![out.clone()];
            a.extend_from_slice(rest);
            (true, a)
        }
        _ => (false, args),
    };
    let [out, total_mb, files] = args.as_slice() else {
        return Err("usage: bench_corpus OUT_DIR [json] TOTAL_MB FILES | OUT_DIR prs NODES".into());
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
            let line = if json {
                let message = serde_json::to_string(&line)?.replace('\'', "\\u0027");
                format!(r#"{{"time":"2026-11-30T10:00:00Z","level":"info","message":{message}}}"#)
            } else {
                line
            };
            w.write_all(line.as_bytes())?;
            w.write_all(b"\n")?;
            written += line.len() as u64 + 1;
        }
        w.flush()?;
    }
    let set = amldoctor::commands::support::builtin_rules()?;
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
