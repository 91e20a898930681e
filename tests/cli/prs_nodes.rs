//! Nodes lost while a ParallelRunStep job ran: a node whose logs stop while the others go
//! on, its replacement, the mini-batches picked again, and the overviewer moving.

use serde_json::Value;

use crate::prs::{check, copy_tree};
use crate::{Run, Sandbox};

fn json(sb: &Sandbox, job: &std::path::Path) -> Value {
    let run = Run::from(
        sb.command_in(job, &["diagnose", ".", "-o", "json", "--fail-on", "never"])
            .output()
            .unwrap(),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    run.json()
}

fn lost_finding(v: &Value) -> Option<&Value> {
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule_id"] == "prs-node-lost")
}

#[test]
fn node_lost_job() {
    check("node-lost-job");
    let sb = Sandbox::new("prs-node-lost");
    let job = copy_tree(&sb, "node-lost-job");
    let v = json(&sb, &job);
    let f = lost_finding(&v).expect("node lost");
    assert_eq!(f["severity"], "warning");
    assert_eq!(
        f["facts"]["lost_nodes"],
        "node 1 (last seen 2023-05-17 08:15:03, 0:05:40 before the others)"
    );
    assert_eq!(f["facts"]["replacements"], "node 2");
    assert_eq!(f["evidence"][0]["line"], 14);
    assert!(
        f["evidence"][0]["path"]
            .as_str()
            .unwrap()
            .ends_with("logs/sys/node/1/process000.txt"),
        "{f}"
    );
    let table = Run::from(
        sb.command_in(&job, &["diagnose", ".", "--fail-on", "never"])
            .output()
            .unwrap(),
    )
    .stdout;
    for want in [
        "  node lost: node 1 stopped writing logs at 2023-05-17 08:15:03, 0:05:40 before the other",
        "  replaced by: node 2\n",
        "  picked again: 2 mini-batches, whose first attempts left no record\n",
    ] {
        assert!(table.contains(want), "{want}\n{table}");
    }
}

#[test]
fn a_recorded_attempt_on_the_lost_node_counts_as_moved_away() {
    let sb = Sandbox::new("prs-node-moved");
    let job = copy_tree(&sb, "node-lost-job");
    let csv = job.join("logs/sys/job_report/processed_mini-batches.csv");
    let text = std::fs::read_to_string(&csv).unwrap();
    // The lost attempt of mini-batch 19 was recorded after all (as a driver failure).
    let row = "19,1,1/process000,2023-05-17T08:14:48.000000,5,0,5,30.0,27.0,29.7,RUN_EXCEPTION,Driver,Worker lost,\"scan_0095.png\"\n";
    std::fs::write(&csv, format!("{text}{row}")).unwrap();
    let v = json(&sb, &job);
    let lost = &v["prs"][0]["node_changes"]["lost"][0];
    assert_eq!(lost["moved_away"], 1, "{lost}");
    assert_eq!(
        v["prs"][0]["node_changes"]["picked_again_without_record"],
        1
    );
}

#[test]
fn a_node_that_only_finished_early_is_not_lost() {
    let sb = Sandbox::new("prs-node-not-lost");
    let job = copy_tree(&sb, "node-lost-job");
    // Node 1 logs its shutdown with the others: quiet for a while, but not lost.
    let main = job.join("logs/sys/node/1/_main.txt");
    let text = std::fs::read_to_string(&main).unwrap();
    std::fs::write(
        &main,
        format!(
            "{text}2023-05-17 08:20:42,000|INFO|233|Got stop signal. Stopping worker processes.\n"
        ),
    )
    .unwrap();
    let v = json(&sb, &job);
    assert!(
        lost_finding(&v).is_none(),
        "{}",
        v["prs"][0]["node_changes"]
    );
    assert_eq!(v["prs"][0]["node_changes"]["lost"], serde_json::json!([]));
    // A one-node tree has nothing to compare with.
    let v = json(&sb, &copy_tree(&sb, "healthy-job"));
    assert!(lost_finding(&v).is_none());
}

#[test]
fn the_overviewer_moving_or_stopping_early_is_reported() {
    let sb = Sandbox::new("prs-overviewer");
    let job = copy_tree(&sb, "failed-job");
    let overview = job.join("logs/job_progress_overview.2023051622.txt");
    let text = std::fs::read_to_string(&overview).unwrap();
    std::fs::write(
        &overview,
        format!(
            "{text}2023-05-16T22:58:00.100000 The overviewer on 1 stopped.\n2023-05-16T22:58:40.200000 The overviewer on 0 started.\n"
        ),
    )
    .unwrap();
    let v = json(&sb, &job);
    let f = lost_finding(&v).expect("overviewer move");
    assert_eq!(
        f["facts"]["overviewer"],
        "stopped on 1 at 2023-05-16T22:58:00.100000, started on 0 at 2023-05-16T22:58:40.200000"
    );

    // The shape of a paste (azure-sdk-for-python#30421): progress, then the overviewer
    // stops and nothing more is written; the job never reported its end.
    let sb = Sandbox::new("prs-overviewer-stop");
    let dir = sb.work().join("job/logs");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("job_progress_overview.2023051622.txt"),
        "2023-05-16T17:18:39.100000 The overviewer on 7 started.\n2023-05-16T22:20:53.233813 Processed 4117 of 20000 mini batches in 5:02:14. Estimated remaining time 19:25:59.\n2023-05-16T22:22:08.962071 The overviewer on 7 stopped.\n",
    )
    .unwrap();
    let v = json(&sb, &sb.work().join("job"));
    let f = lost_finding(&v).expect("early stop");
    assert!(
        f["facts"]["overviewer"].as_str().unwrap().starts_with(
            "stopped on 7 at 2023-05-16T22:22:08.962071, and the progress files end there"
        ),
        "{f}"
    );
    // A healthy job's overviewer stops at its end: nothing to report.
    let v = json(&sb, &copy_tree(&sb, "healthy-job"));
    assert_eq!(
        v["prs"][0]["node_changes"]["overviewer"],
        serde_json::json!([])
    );
}

/// A tabular job whose input could not be partitioned: one mini-batch for eight workers.
fn single_batch_job(sb: &Sandbox, nodes: u32, processes: u32) -> std::path::PathBuf {
    let job = sb.work().join(format!("single-{nodes}-{processes}"));
    std::fs::create_dir_all(job.join("logs")).unwrap();
    std::fs::create_dir_all(job.join("azureml-logs")).unwrap();
    std::fs::write(
        job.join("azureml-logs/70_driver_log.txt"),
        format!("[2024-02-01T02:00:01.100000] Preparing to call script [driver/amlbi_main.py] with arguments:['--client_sdk_version', '1.55.0', '--scoring_module_name', 'score.py', '--mini_batch_size', '1MB', '--error_threshold', '5', '--output_action', 'append_row', '--process_count_per_node', '{processes}', '--node_count', '{nodes}', '--input_ds_0', 'sales']\n"),
    )
    .unwrap();
    std::fs::write(
        job.join("logs/job_progress_overview.2024020102.txt"),
        "2024-02-01T02:00:09.000000 The overviewer on 0 started.\n2024-02-01T02:00:21.000000 Scheduling finished. Scheduled 1 mini batches in 12 seconds. There are 1 tasks with 250000 items.\n2024-02-01T02:01:21.000000 Processed 0 of 1 mini batches in 0:01:00. Estimated remaining time unknown.\n2024-02-01T02:41:21.000000 All 1 mini batches have been processed.\n2024-02-01T02:41:22.000000 The ParallelRunStep processed all mini batches. There are 1 mini batches with 250000 items. Processed 1 mini batches containing 250000 items, 250000 succeeded, 0 failed. The error threshold is 5. \n",
    )
    .unwrap();
    std::fs::write(
        job.join("logs/job_result.txt"),
        "The ParallelRunStep processed all mini batches. There are 1 mini batches with 250000 items. Processed 1 mini batches containing 250000 items, 250000 succeeded, 0 failed. The error threshold is 5. \n",
    )
    .unwrap();
    job
}

#[test]
fn one_mini_batch_for_many_workers_is_reported() {
    let sb = Sandbox::new("prs-single-batch");
    let v = json(&sb, &single_batch_job(&sb, 2, 4));
    let f = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule_id"] == "prs-single-mini-batch")
        .expect("single mini-batch");
    assert_eq!(f["facts"]["items"], "250000");
    assert_eq!(f["facts"]["workers"], "8");
    assert_eq!(f["evidence"][0]["line"], 2, "{f}");
    // One worker in all loses nothing; twenty mini-batches are not one.
    for job in [single_batch_job(&sb, 1, 1), copy_tree(&sb, "healthy-job")] {
        let v = json(&sb, &job);
        assert!(
            !v["findings"]
                .as_array()
                .unwrap()
                .iter()
                .any(|f| f["rule_id"] == "prs-single-mini-batch"),
            "{}",
            job.display()
        );
    }
}

#[test]
fn a_lost_node_that_never_came_back_is_said_so() {
    let sb = Sandbox::new("prs-node-gone");
    let job = copy_tree(&sb, "node-lost-job");
    std::fs::remove_dir_all(job.join("logs/sys/node/2")).unwrap();
    let v = json(&sb, &job);
    let changes = &v["prs"][0]["node_changes"];
    assert_eq!(changes["lost"][0]["node"], "1", "{changes}");
    assert_eq!(changes["replacements"], serde_json::json!([]));
    let f = lost_finding(&v).expect("node lost");
    assert_eq!(
        f["facts"]["replacements"],
        "none: no node's logs start after the loss"
    );
    let table = Run::from(
        sb.command_in(&job, &["diagnose", ".", "--fail-on", "never"])
            .output()
            .unwrap(),
    )
    .stdout;
    assert!(
        table.contains("  replaced by: none (no node's logs start after the loss)\n"),
        "{table}"
    );
}

/// The mini-batch CSV of a downloaded tree may name the process alone (`process001`,
/// no node): the attempts go to the node whose folder holds that process's log, not
/// to a node called "unknown".
#[test]
fn attempts_without_a_node_go_to_the_node_the_tree_shows() {
    let sb = Sandbox::new("prs-csv-no-node");
    let job = copy_tree(&sb, "healthy-job");
    let csv = job.join("logs/sys/job_report/processed_mini-batches.csv");
    let text = std::fs::read_to_string(&csv)
        .unwrap()
        .replace(",0/process", ",process");
    std::fs::write(&csv, text).unwrap();
    let v = json(&sb, &job);
    let nodes: Vec<(&str, u64)> = v["prs"][0]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            (
                n["node"].as_str().unwrap(),
                n["mini_batches"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(nodes, [("0", 20)], "{}", v["prs"][0]["nodes"]);
    let processes: Vec<&str> = v["prs"][0]["processes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["node"].as_str().unwrap())
        .collect();
    assert!(processes.iter().all(|n| *n == "0"), "{processes:?}");
}
