//! The resource monitor's files in ParallelRunStep trees: the process that held the memory
//! when a worker was killed (process CSV or `ps` snapshots), a disk that filled up, and a
//! tree without perf data because the monitor was off.

use serde_json::Value;

use crate::prs::{check, copy_tree};
use crate::{Run, Sandbox};

fn diagnose(sb: &Sandbox, job: &std::path::Path, format: &str) -> Run {
    let run = Run::from(
        sb.command_in(job, &["diagnose", ".", "-o", format, "--fail-on", "never"])
            .output()
            .unwrap(),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    run
}

fn finding<'a>(v: &'a Value, id: &str) -> Option<&'a Value> {
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule_id"] == id)
}

fn evidence_at(f: &Value) -> Vec<String> {
    f["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| format!("{}:{}", e["path"].as_str().unwrap(), e["line"]))
        .collect()
}

#[test]
fn disk_full_job() {
    check("disk-full-job");
    let sb = Sandbox::new("prs-disk-full");
    let job = copy_tree(&sb, "disk-full-job");
    let v = diagnose(&sb, &job, "json").json();
    let f = finding(&v, "prs-node-disk-full").expect("disk finding");
    assert_eq!(f["severity"], "warning");
    assert_eq!(f["facts"]["disk"], "/mnt");
    assert_eq!(f["facts"]["node"], "0");
    assert!(
        evidence_at(f)
            .iter()
            .any(|e| e.ends_with("logs/perf/0/node_disk_usage.csv:15")),
        "{f}"
    );
    let table = diagnose(&sb, &job, "table").stdout;
    assert!(
        table.contains("node 0: largest process ffmpeg (pid 1355): 2,500 MB (15.6 % of the node) at 2023-05-17T08:17;"),
        "{table}"
    );
    assert!(
        table.contains("fullest disk /mnt 97.8 % used (1.4 GB free)"),
        "{table}"
    );
    let md = diagnose(&sb, &job, "markdown").stdout;
    assert!(
        md.contains(
            "| 97.8 | ffmpeg (pid 1355): 2,500 MB (15.6 % of the node) at 2023-05-17T08:17 |"
        ),
        "{md}"
    );
}

#[test]
fn a_healthy_disk_is_not_reported() {
    let sb = Sandbox::new("prs-disk-ok");
    for tree in ["healthy-job", "failed-job"] {
        let job = copy_tree(&sb, tree);
        let v = diagnose(&sb, &job, "json").json();
        assert!(finding(&v, "prs-node-disk-full").is_none(), "{tree}");
        assert!(finding(&v, "prs-resource-monitor-off").is_none(), "{tree}");
        assert_eq!(v["prs"][0]["perf_data"], "present", "{tree}");
    }
}

#[test]
fn an_oom_kill_names_the_process_that_held_the_memory() {
    let sb = Sandbox::new("prs-oom-csv");
    let job = copy_tree(&sb, "failed-job");
    let v = diagnose(&sb, &job, "json").json();
    let f = finding(&v, "prs-oom-killed").expect("oom finding");
    // The kill is at 22:57:26; the last sample before it is 22:57:00, where process001 held
    // 11,140 MB (line 7). The later samples are of its replacement.
    assert_eq!(
        f["facts"]["top_memory_process"],
        "process001 (pid 409): 11,140 MB at 2023-05-16T22:57:00.615964 on node 1"
    );
    assert!(
        evidence_at(f)
            .iter()
            .any(|e| e.ends_with("logs/perf/1/processes_resource_usage.csv:7")),
        "{f}"
    );
}

#[test]
fn an_oom_kill_is_explained_from_ps_snapshots_before_it() {
    let sb = Sandbox::new("prs-oom-ps");
    let job = copy_tree(&sb, "failed-job");
    std::fs::remove_file(job.join("logs/perf/1/processes_resource_usage.csv")).unwrap();
    let os = job.join("logs/perf/1/os/2023051622");
    std::fs::create_dir_all(&os).unwrap();
    let header = "USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND\n";
    let worker = "/azureml-envs/azureml_1/bin/python /mnt/azureml/cr/j/9/exe/wd/driver/amlbi_main.py --scoring_module_name score.py";
    // 22:56: the worker is largest; 22:57 (before the kill at 22:57:26): a cache loader the
    // entry script started holds more; 22:58 (after it): the replacement, larger still,
    // must not be blamed.
    let snap = |minute: &str, rows: &[(u32, f64, u64, &str)]| {
        let body: String = rows
            .iter()
            .map(|(pid, pmem, rss, cmd)| {
                format!("azureuser {pid:>6} 40.0 {pmem:>4} 9000000 {rss:>8} ?        Rl   22:54   0:30 {cmd}\n")
            })
            .collect();
        let text = format!("{header}{body}");
        std::fs::write(os.join(format!("processes_{minute}")), text).unwrap();
    };
    snap(
        "56",
        &[
            (409, 40.1, 6_574_080, worker),
            (2201, 10.0, 1_638_400, "python /tmp/preload_cache.py --all"),
        ],
    );
    snap(
        "57",
        &[
            (409, 40.3, 6_606_848, worker),
            (2201, 55.0, 9_011_200, "python /tmp/preload_cache.py --all"),
        ],
    );
    snap("58", &[(1187, 70.0, 11_468_800, worker)]);
    let v = diagnose(&sb, &job, "json").json();
    let f = finding(&v, "prs-oom-killed").expect("oom finding");
    assert_eq!(
        f["facts"]["top_memory_process"],
        "python preload_cache.py (pid 2201): 8,800 MB (55 % of the node) at 2023-05-16T22:57 on node 1"
    );
    assert!(
        evidence_at(f)
            .iter()
            .any(|e| e.ends_with("logs/perf/1/os/2023051622/processes_57:3")),
        "{f}"
    );
    // The summary's largest process is the largest over the whole job: the replacement.
    let node = &v["prs"][0]["nodes"][1];
    assert_eq!(node["node"], "1");
    assert!(
        node["largest_process"]
            .as_str()
            .unwrap()
            .starts_with("python amlbi_main.py (pid 1187): 11,200 MB"),
        "{node}"
    );
}

#[test]
fn a_tree_without_perf_data_says_why() {
    let sb = Sandbox::new("prs-monitor-off");
    let job = copy_tree(&sb, "failed-job");
    std::fs::remove_dir_all(job.join("logs/perf")).unwrap();
    // Without the folder and without the flag: missing, for a reason the tree does not show.
    let v = diagnose(&sb, &job, "json").json();
    assert_eq!(v["prs"][0]["perf_data"], "missing");
    assert!(finding(&v, "prs-resource-monitor-off").is_none());
    assert_eq!(
        finding(&v, "prs-oom-killed").unwrap()["facts"]["top_memory_process"],
        "not recorded (no process readings under logs/perf/<node>/)"
    );
    let table = diagnose(&sb, &job, "table").stdout;
    assert!(
        table.contains("  resources: no perf/<node>/ files in the tree"),
        "{table}"
    );

    let driver = job.join("azureml-logs/70_driver_log.txt");
    let text = std::fs::read_to_string(&driver).unwrap().replace(
        "'--resource_monitor_interval', '60'",
        "'--resource_monitor_interval', '0'",
    );
    std::fs::write(&driver, text).unwrap();
    let v = diagnose(&sb, &job, "json").json();
    assert_eq!(v["prs"][0]["perf_data"], "monitor-off");
    assert_eq!(
        v["prs"][0]["config"]["resource_monitor_interval"]["value"],
        0
    );
    let off = finding(&v, "prs-resource-monitor-off").expect("monitor-off finding");
    assert_eq!(off["severity"], "info");
    assert!(
        evidence_at(off)
            .iter()
            .any(|e| e.ends_with("azureml-logs/70_driver_log.txt:4")),
        "{off}"
    );
    let oom = finding(&v, "prs-oom-killed").unwrap();
    assert_eq!(
        oom["facts"]["memory_evidence"],
        "no perf data: the resource monitor was off (--resource_monitor_interval 0)"
    );
    let table = diagnose(&sb, &job, "table").stdout;
    assert!(
        table.contains(
            "  resources: none; the resource monitor was off (--resource_monitor_interval 0)"
        ),
        "{table}"
    );
}
