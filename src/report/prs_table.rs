//! The ParallelRunStep job summary printed above the findings in table output.

use std::io::{self, Write};

use crate::prs::analyze::{ConfigSource, ConfigValue, JobOutcome, PrsSummary};
use crate::prs::parse::Phase;

use super::style::Style;

fn opt<T: ToString>(v: &Option<T>) -> String {
    v.as_ref()
        .map_or_else(|| "?".to_owned(), ToString::to_string)
}

fn fnum(v: Option<f64>) -> String {
    v.map_or_else(|| "-".to_owned(), |x| format!("{x}"))
}

fn setting(name: &str, c: &Option<ConfigValue>) -> Option<String> {
    c.as_ref().map(|c| {
        let from = match c.source {
            ConfigSource::DriverLog => "",
            ConfigSource::JobMessages => " (from job messages)",
        };
        format!("{name} {}{from}", c.value)
    })
}

/// Left-aligned columns, two spaces apart.
fn table(out: &mut dyn Write, header: &[&str], rows: &[Vec<String>]) -> io::Result<()> {
    let mut width: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for r in rows {
        for (i, c) in r.iter().enumerate() {
            if i < width.len() {
                width[i] = width[i].max(c.chars().count());
            }
        }
    }
    let line = |cells: Vec<String>| -> String {
        let mut s = String::from("   ");
        for (i, c) in cells.iter().enumerate() {
            let pad = width[i].saturating_sub(c.chars().count());
            s.push(' ');
            s.push_str(c);
            if i + 1 < cells.len() {
                s.push_str(&" ".repeat(pad + 1));
            }
        }
        s
    };
    writeln!(
        out,
        "{}",
        line(header.iter().map(|h| (*h).to_owned()).collect())
    )?;
    for r in rows {
        writeln!(out, "{}", line(r.clone()))?;
    }
    Ok(())
}

pub fn write(out: &mut dyn Write, p: &PrsSummary, style: Style) -> io::Result<()> {
    writeln!(
        out,
        "{}",
        style.bold(&format!(
            "── ParallelRunStep job: {} ({} layout) ──",
            p.root, p.layout
        ))
    )?;
    let reason = p
        .stop_reason
        .map(|r| format!(" ({})", r.replace('-', " ")))
        .unwrap_or_default();
    let outcome = match p.outcome {
        JobOutcome::Failed => style.red(&format!("failed{reason}")),
        JobOutcome::Completed => style.green("completed"),
        JobOutcome::Unknown => style.yellow("unknown (no result found)"),
    };
    let exit = match p.leader_exit_code {
        Some(42) => ", leader exit code 42 (job failed; 41 on workers is normal)".to_owned(),
        Some(c) => format!(", leader exit code {c}"),
        None => String::new(),
    };
    writeln!(out, "  outcome: {outcome}{exit}")?;
    if let Some(m) = &p.stop_message {
        writeln!(out, "    {}:{}: {}", m.path(), m.line(), m.text)?;
    }
    let mb = &p.mini_batches;
    let it = &p.items;
    writeln!(
        out,
        "  mini-batches: {} scheduled, {} processed, {} failed; items: {} total, {} succeeded, {} failed",
        opt(&mb.scheduled),
        opt(&mb.processed),
        opt(&mb.failed),
        opt(&it.total),
        opt(&it.succeeded),
        opt(&it.failed)
    )?;
    if let Some(t) = &p.config.error_threshold {
        let used = p
            .error_threshold_used_percent
            .map(|u| format!(", {u} % used"))
            .unwrap_or_default();
        let ignored = if t.value < 0 {
            " (-1: failures never stop the job)"
        } else {
            ""
        };
        writeln!(out, "  error threshold: {}{ignored}{used}", t.value)?;
    }
    let settings: Vec<String> = [
        setting("node_count", &p.config.node_count),
        setting("process_count_per_node", &p.config.process_count_per_node),
        setting("run_invocation_timeout", &p.config.run_invocation_timeout),
        setting("run_max_try", &p.config.run_max_try),
    ]
    .into_iter()
    .flatten()
    .collect();
    if !settings.is_empty() {
        writeln!(out, "  settings: {}", settings.join(", "))?;
    }
    if let Some(d) = &p.duration {
        writeln!(out, "  duration: {d}")?;
    }
    if let Some(l) = &p.last_progress {
        writeln!(
            out,
            "  last progress: {} ({}:{})",
            l.text,
            l.path(),
            l.line()
        )?;
    }
    if p.timeouts > 0 {
        writeln!(out, "  run() timeouts: {}", p.timeouts)?;
    }
    write_tables(out, p)?;
    write_batches_and_errors(out, p)?;
    for n in &p.notes {
        writeln!(out, "  {} {n}", style.yellow("note:"))?;
    }
    writeln!(out)
}

/// The per-node and per-process tables.
fn write_tables(out: &mut dyn Write, p: &PrsSummary) -> io::Result<()> {
    if !p.nodes.is_empty() {
        writeln!(out, "  per node:")?;
        let rows: Vec<Vec<String>> = p
            .nodes
            .iter()
            .map(|n| {
                vec![
                    n.node.clone(),
                    n.processes.to_string(),
                    n.mini_batches.to_string(),
                    n.failures.to_string(),
                    n.retries.to_string(),
                    fnum(n.mean_run_seconds),
                    fnum(n.p95_run_seconds),
                    n.restarts.to_string(),
                    n.killed.to_string(),
                    fnum(n.peak_memory_percent),
                    fnum(n.peak_cpu_percent),
                ]
            })
            .collect();
        table(
            out,
            &[
                "node",
                "processes",
                "attempts",
                "failures",
                "retries",
                "mean s",
                "p95 s",
                "restarts",
                "killed",
                "peak mem %",
                "peak cpu %",
            ],
            &rows,
        )?;
    }
    if !p.processes.is_empty() && p.processes.len() <= 64 {
        writeln!(out, "  per process:")?;
        let rows: Vec<Vec<String>> = p
            .processes
            .iter()
            .map(|x| {
                vec![
                    format!("{}/{}", x.node, x.process),
                    x.mini_batches.to_string(),
                    x.failures.to_string(),
                    x.retries.to_string(),
                    fnum(x.mean_run_seconds),
                    fnum(x.p95_run_seconds),
                    x.exit_code
                        .map_or_else(|| "-".to_owned(), |c| c.to_string()),
                ]
            })
            .collect();
        table(
            out,
            &[
                "process", "attempts", "failures", "retries", "mean s", "p95 s", "exit",
            ],
            &rows,
        )?;
    }
    Ok(())
}

/// The slowest and failing mini-batches, and the grouped errors.
fn write_batches_and_errors(out: &mut dyn Write, p: &PrsSummary) -> io::Result<()> {
    if !p.slowest.is_empty() {
        writeln!(out, "  slowest mini-batches:")?;
        for m in &p.slowest {
            writeln!(
                out,
                "    {} on {}/{}: {} s, {} ({})",
                m.id,
                m.node,
                m.process,
                fnum(m.seconds),
                m.status,
                m.inputs
            )?;
        }
    }
    if !p.failing.is_empty() {
        writeln!(out, "  failing mini-batches:")?;
        for m in p.failing.iter().take(10) {
            writeln!(
                out,
                "    {} on {}/{} after {} attempts: {} {} {} ({})",
                m.id,
                m.node,
                m.process,
                m.attempts,
                m.status,
                m.error_category,
                m.error_message,
                m.inputs
            )?;
        }
        let total = p.mini_batches.failed.unwrap_or(p.failing.len() as u64);
        if total > 10 {
            writeln!(
                out,
                "    … and {} more (-o json lists up to {})",
                total - 10,
                crate::prs::analyze::MAX_FAILING_LISTED
            )?;
        }
    }
    if !p.errors.is_empty() {
        writeln!(out, "  errors in the entry script, grouped:")?;
        for e in p.errors.iter().take(10) {
            let phase = match e.phase {
                Phase::Unknown => String::new(),
                known => format!("{}(): ", known.as_str()),
            };
            let msg = if e.message.is_empty() {
                String::new()
            } else {
                format!(": {}", e.message)
            };
            writeln!(
                out,
                "    {:>5} × {phase}{}{msg}  (first at {})",
                e.count, e.exception, e.first
            )?;
        }
    }
    Ok(())
}
