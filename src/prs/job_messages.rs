//! The job's messages in its text logs (overview, master, driver, node and process sys
//! logs, job result and error): scheduling, progress and the closing counts, why the job
//! stopped, the driver's arguments and exit, worker exits and timeouts. Each pattern is
//! tried only on a line whose literals select it (`message.rs`).

use std::sync::OnceLock;

use regex::Regex;

use super::facts::{FileFacts, FinalCounts, Repeated};
use super::line::{evidence, num};
use super::message::Wanted;

struct Patterns {
    scheduled: Regex,
    progress: Regex,
    all_processed: Regex,
    final_counts: Regex,
    threshold: Regex,
    stopped: Regex,
    no_progress: Regex,
    times: Regex,
    no_succeeded: Regex,
    bad_return: Regex,
    system_error: Regex,
    slow_tasks: Regex,
    arg: Regex,
    dict_arg: Regex,
    system_exit: Regex,
    process_exit: Regex,
    run_timeout: Regex,
    overviewer: Regex,
}

fn patterns() -> &'static Patterns {
    static P: OnceLock<Patterns> = OnceLock::new();
    P.get_or_init(|| {
        let r = |p: &str| Regex::new(p).unwrap_or_else(|e| unreachable!("PRS pattern {p}: {e}"));
        Patterns {
            scheduled: r(r"Scheduled (\d+) mini batches in (\d+) seconds\.(?: There are (\d+) tasks with (\d+) items\.)?"),
            progress: r(r"Processed (\d+) of (\d+) mini batches in ([\d:]+(?: days?, [\d:]+)?)\."),
            all_processed: r(r"All (\d+) mini batches have been processed\."),
            final_counts: r(r"There are (\d+) mini batches with (\d+) items\. Processed (\d+) mini batches containing \d+ items, (\d+) succeeded, (\d+) failed\.(?: The error threshold is (-?\d+)\.)?"),
            threshold: r(r"The number of failed items is (\d+), which exceeds error threshold (-?\d+)"),
            stopped: r(r"Progress update stopped for reasons: \[(.*)\]"),
            no_progress: r(r"No progress update in (\d+) seconds"),
            times: r(r"The (run|init)\(\) in the entry scipt had (raised exception|timeout) for (\d+) times"),
            no_succeeded: r(r"There is no succeeded mini batch item returned from run\(\)"),
            bad_return: r(r"The run\(\) method in the entry script should return a list or a pandas DataFrame"),
            system_error: r(r"(?:DriverException: Job failed with|The master role failed with error:|SystemExit: 42)"),
            slow_tasks: r(r"(?:Unable to create any task within|First task creation is taking longer than) (\d+) seconds"),
            // `--name 2`, `--name=2`, and the list form `'--name', '2'`.
            arg: r(r#"--(node_count|process_count_per_node|run_invocation_timeout|run_max_try|error_threshold|mini_batch_size|mini_batch_error_threshold|output_action|append_row_file_name|logging_level|scoring_module_name|resource_monitor_interval|progress_update_timeout)(?:[= ]|['"],\s*['"])['"]?([\w.-]+)"#),
            // A dict (`'name': 2`) or an argparse Namespace (`name=2`).
            dict_arg: r(r#"(?:['"]|\b)(node_count|process_count_per_node|run_invocation_timeout|run_max_try|error_threshold|mini_batch_size|output_action|append_row_file_name|logging_level|resource_monitor_interval)(?:['"]\s*:|=)\s*['"]?(-?[\w.]+)"#),
            system_exit: r(r"^SystemExit: (-?\d+)"),
            process_exit: r(r"(process\d{3}|Process-\d+) exits with returncode (-?\d+)"),
            run_timeout: r(r"(?:Stop for run\(\) unable to finish within|did not finish in) (\d+) seconds"),
            overviewer: r(r"The overviewer on (\S+) (started|stopped)\."),
        }
    })
}

/// Reads the messages `wanted` selects from one cleaned line (`text`, whose message
/// part is `message`) into `f`.
pub(super) fn read(f: &mut FileFacts, number: u64, text: &str, message: &str, wanted: Wanted) {
    progress_messages(f, number, text, message, wanted);
    stop_messages(f, number, text, message, wanted);
    process_messages(f, number, text, message, wanted);
}

/// Scheduling, progress and the closing counts.
fn progress_messages(f: &mut FileFacts, number: u64, text: &str, message: &str, wanted: Wanted) {
    let p = patterns();
    if wanted.has(Wanted::SCHEDULED)
        && let Some(c) = p.scheduled.captures(message)
    {
        f.recognised += 1;
        f.scheduled = Some((
            num(&c[1]).unwrap_or(0),
            c.get(3).and_then(|m| num(m.as_str())),
            c.get(4).and_then(|m| num(m.as_str())),
        ));
        f.scheduled_line = Some(evidence(number, text));
    }
    if wanted.has(Wanted::PROGRESS)
        && let Some(c) = p.progress.captures(message)
    {
        f.progress = Some((
            num(&c[1]).unwrap_or(0),
            num(&c[2]).unwrap_or(0),
            c[3].to_owned(),
            evidence(number, text),
        ));
    }
    if wanted.has(Wanted::ALL_PROCESSED)
        && let Some(c) = p.all_processed.captures(message)
    {
        f.all_processed = num(&c[1]);
    }
    if wanted.has(Wanted::FINAL_COUNTS)
        && let Some(c) = p.final_counts.captures(message)
    {
        f.final_counts = Some(FinalCounts {
            mini_batches: num(&c[1]).unwrap_or(0),
            items: num(&c[2]).unwrap_or(0),
            processed: num(&c[3]).unwrap_or(0),
            succeeded: num(&c[4]).unwrap_or(0),
            failed: num(&c[5]).unwrap_or(0),
            threshold: c.get(6).and_then(|m| m.as_str().parse().ok()),
        });
    }
    if wanted.has(Wanted::THRESHOLD)
        && let Some(c) = p.threshold.captures(message)
        && f.threshold_exceeded.is_none()
    {
        f.threshold_exceeded = Some((
            num(&c[1]).unwrap_or(0),
            c[2].parse().unwrap_or(0),
            evidence(number, text),
        ));
    }
}

/// Why the job stopped, and what its messages say was repeated or slow.
fn stop_messages(f: &mut FileFacts, number: u64, text: &str, message: &str, wanted: Wanted) {
    let p = patterns();
    if wanted.has(Wanted::STOPPED)
        && let Some(c) = p.stopped.captures(message)
    {
        for reason in c[1].split(',') {
            let r = reason.trim().trim_matches(['\'', '"']).trim().to_owned();
            if !r.is_empty() && !f.stop_reasons.contains(&r) {
                f.stop_reasons.push(r);
            }
        }
    }
    if wanted.has(Wanted::OVERVIEWER)
        && let Some(c) = p.overviewer.captures(message)
    {
        let prefix = &text[..text.len() - message.len()];
        let time = prefix.split('|').next().unwrap_or(prefix).trim().to_owned();
        f.overviewer.push((
            c[1].to_owned(),
            &c[2] == "started",
            time,
            evidence(number, text),
        ));
    }
    if wanted.has(Wanted::NO_PROGRESS)
        && let Some(c) = p.no_progress.captures(message)
        && f.no_progress.is_none()
    {
        f.no_progress = Some((num(&c[1]).unwrap_or(0), evidence(number, text)));
    }
    if wanted.has(Wanted::TIMES)
        && let Some(c) = p.times.captures(message)
    {
        let key = match (&c[1], &c[2]) {
            ("run", "raised exception") => Repeated::RunException,
            ("run", _) => Repeated::RunTimeout,
            ("init", "raised exception") => Repeated::InitException,
            _ => Repeated::InitTimeout,
        };
        f.times
            .entry(key)
            .or_insert((num(&c[3]).unwrap_or(0), evidence(number, text)));
    }
    if wanted.has(Wanted::NO_SUCCEEDED)
        && p.no_succeeded.is_match(message)
        && f.no_succeeded.is_none()
    {
        f.no_succeeded = Some(evidence(number, text));
    }
    if wanted.has(Wanted::BAD_RETURN) && p.bad_return.is_match(message) && f.bad_return.is_none() {
        f.bad_return = Some(evidence(number, text));
    }
    if wanted.has(Wanted::SYSTEM_ERROR)
        && p.system_error.is_match(message)
        && f.system_error.is_none()
    {
        f.system_error = Some(evidence(number, text));
    }
    if wanted.has(Wanted::SLOW_TASKS)
        && let Some(c) = p.slow_tasks.captures(message)
        && f.slow_tasks.is_none()
    {
        f.slow_tasks = Some((num(&c[1]).unwrap_or(0), evidence(number, text)));
    }
}

/// The driver's arguments and exit, and what happened to worker processes.
fn process_messages(f: &mut FileFacts, number: u64, text: &str, message: &str, wanted: Wanted) {
    let p = patterns();
    // The role decided whether the arguments are read (`TextLog::line`).
    if wanted.has(Wanted::ARGS) {
        for c in p
            .arg
            .captures_iter(message)
            .chain(p.dict_arg.captures_iter(message))
        {
            f.args
                .entry(c[1].to_owned())
                .or_insert_with(|| c[2].to_owned());
            f.args_line.get_or_insert_with(|| evidence(number, text));
        }
    }
    if wanted.has(Wanted::SYSTEM_EXIT)
        && let Some(c) = p.system_exit.captures(text.trim())
    {
        f.system_exits
            .push((c[1].parse().unwrap_or(0), evidence(number, text)));
    }
    if wanted.has(Wanted::PROCESS_EXIT)
        && let Some(c) = p.process_exit.captures(message)
    {
        f.process_exits.push((
            c[1].to_owned(),
            c[2].parse().unwrap_or(0),
            evidence(number, text),
        ));
    }
    if wanted.has(Wanted::RUN_TIMEOUT)
        && let Some(c) = p.run_timeout.captures(message)
    {
        f.run_timeouts
            .push((num(&c[1]).unwrap_or(0), evidence(number, text)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prs::message;
    use crate::prs::parse::read;
    use crate::prs::tree::Role;

    #[test]
    fn each_pattern_is_dispatched_by_a_literal_of_its_lines() {
        let p = patterns();
        let cases: [(&Regex, Wanted, &str); 18] = [
            (
                &p.scheduled,
                Wanted::SCHEDULED,
                "Scheduling finished. Scheduled 276 mini batches in 22 seconds.",
            ),
            (
                &p.progress,
                Wanted::PROGRESS,
                "Processed 31 of 40 mini batches in 0:20:48.",
            ),
            (
                &p.all_processed,
                Wanted::ALL_PROCESSED,
                "All 40 mini batches have been processed.",
            ),
            (
                &p.final_counts,
                Wanted::FINAL_COUNTS,
                "There are 4 mini batches with 4 items. Processed 4 mini batches containing 4 items, 4 succeeded, 0 failed. The error threshold is 1.",
            ),
            (
                &p.threshold,
                Wanted::THRESHOLD,
                "The number of failed items is 12, which exceeds error threshold 10.",
            ),
            (
                &p.stopped,
                Wanted::STOPPED,
                "Progress update stopped for reasons: [Exceeded error threshold.]",
            ),
            (
                &p.no_progress,
                Wanted::NO_PROGRESS,
                "No progress update in 3600 seconds.",
            ),
            (
                &p.times,
                Wanted::TIMES,
                "The run() in the entry scipt had raised exception for 3 times.",
            ),
            (
                &p.no_succeeded,
                Wanted::NO_SUCCEEDED,
                "There is no succeeded mini batch item returned from run().",
            ),
            (
                &p.bad_return,
                Wanted::BAD_RETURN,
                "The run() method in the entry script should return a list or a pandas DataFrame.",
            ),
            (
                &p.system_error,
                Wanted::SYSTEM_ERROR,
                "The master role failed with error: boom",
            ),
            (
                &p.slow_tasks,
                Wanted::SLOW_TASKS,
                "First task creation is taking longer than 600 seconds.",
            ),
            (
                &p.process_exit,
                Wanted::PROCESS_EXIT,
                "process001 exits with returncode -9.",
            ),
            (
                &p.run_timeout,
                Wanted::RUN_TIMEOUT,
                "mini batch 7 did not finish in 60 seconds",
            ),
            (
                &p.arg,
                Wanted::ARGS,
                "Script args: ['driver/amlbi_main.py', '--node_count', '2']",
            ),
            (
                &p.dict_arg,
                Wanted::ARGS,
                "Namespace(error_threshold=5, mini_batch_size='10')",
            ),
            (&p.system_exit, Wanted::SYSTEM_EXIT, "SystemExit: 42"),
            (
                &p.overviewer,
                Wanted::OVERVIEWER,
                "The overviewer on 7 stopped.",
            ),
        ];
        for (regex, bit, message) in cases {
            assert!(regex.is_match(message), "{message}");
            let found =
                message::wanted(message.as_bytes()) | message::wanted_args(message.as_bytes());
            assert!(found.has(bit), "{message}");
        }
        let busy = "10.0.0.4|process000|1390|heartbeat.py:beat:41|Heartbeat: process000 alive, pid=1000, memory_rss=900MB";
        assert!(!message::wanted(busy.as_bytes()).any());
        let done = "Mini batch 7 processed in 3.10 seconds, 8 items succeeded, 0 failed.";
        assert!(!message::wanted(done.as_bytes()).any());
    }

    #[test]
    fn overview_lines() {
        let f = read(
            Role::Overview { key: String::new() },
            "2023-05-16T22:00:01.226929 Start the simulator.\n2023-05-16T22:00:05.767763 Scheduling finished. Scheduled 40 mini batches in 3 seconds. There are 40 tasks with 40 items.\n2023-05-16T22:20:53.233813 Processed 31 of 40 mini batches in 0:20:48. Estimated remaining time 0:06:10.\n2023-05-16T22:22:08.962071 The number of failed items is 12, which exceeds error threshold 10.\n2023-05-16T22:22:09.000000 Progress update stopped for reasons: [Exceeded error threshold.]\n",
        );
        assert_eq!(f.scheduled, Some((40, Some(40), Some(40))));
        assert_eq!(
            f.progress.as_ref().map(|p| (p.0, p.1, p.2.as_str())),
            Some((31, 40, "0:20:48"))
        );
        assert_eq!(
            f.threshold_exceeded.as_ref().map(|t| (t.0, t.1, t.2.line)),
            Some((12, 10, 4))
        );
        assert_eq!(f.stop_reasons, ["Exceeded error threshold."]);
        assert_eq!(f.first_time.as_deref(), Some("2023-05-16T22:00:01.226929"));
        assert_eq!(f.recognised, 6);
    }

    #[test]
    fn driver_arguments_and_exit() {
        let f = read(
            Role::DriverLog,
            "Script args: ['driver/amlbi_main.py', '--process_count_per_node', '2', '--run_invocation_timeout', '60', '--error_threshold', '-1']\n  File \"driver/amlbi_main.py\", line 226, in main\n    sys.exit(exitcode_candidate)\nSystemExit: 42\n",
        );
        assert_eq!(f.system_exits.iter().map(|e| e.0).collect::<Vec<_>>(), [42]);
        let f = read(
            Role::DriverLog,
            "argv --process_count_per_node 2 --run_invocation_timeout=60 --error_threshold -1 --node_count 3\n",
        );
        assert_eq!(
            f.args.get("process_count_per_node").map(String::as_str),
            Some("2")
        );
        assert_eq!(
            f.args.get("run_invocation_timeout").map(String::as_str),
            Some("60")
        );
        assert_eq!(
            f.args.get("error_threshold").map(String::as_str),
            Some("-1")
        );
        assert_eq!(f.args.get("node_count").map(String::as_str), Some("3"));
    }
}
