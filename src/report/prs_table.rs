//! The ParallelRunStep job summary printed above the findings in table output.

use std::io::{self, Write};

use crate::prs::parse::Phase;
use crate::prs::summary::{ConfigSource, ConfigValue, JobOutcome, PerfData, PrsSummary};

use super::markdown_escape::{cell, code};
use super::plural;
use super::style::Style;
use super::text;

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

/// Left-aligned columns, two spaces apart, under a four-space indent. A table wider
/// than `width` is split into stacked tables that each repeat the first (key) column.
fn table(
    out: &mut dyn Write,
    header: &[&str],
    rows: &[Vec<String>],
    width: usize,
) -> io::Result<()> {
    let mut widths: Vec<usize> = header.iter().map(|h| text::columns(h)).collect();
    for r in rows {
        for (w, c) in widths.iter_mut().zip(r) {
            *w = (*w).max(text::columns(c));
        }
    }
    // Greedy groups of the other columns, each fitting beside the key column.
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut used = 4 + widths[0];
    for i in 1..widths.len() {
        if groups.is_empty() || used + 2 + widths[i] > width {
            groups.push(Vec::new());
            used = 4 + widths[0];
        }
        used += 2 + widths[i];
        if let Some(g) = groups.last_mut() {
            g.push(i);
        }
    }
    let line = |cells: &[&str], columns: &[usize]| -> String {
        let mut s = String::from("    ");
        for (n, &i) in columns.iter().enumerate() {
            let c = cells.get(i).copied().unwrap_or("");
            s.push_str(c);
            if n + 1 < columns.len() {
                s.push_str(&" ".repeat(widths[i] - text::columns(c) + 2));
            }
        }
        s
    };
    for (n, group) in groups.iter().enumerate() {
        if n > 0 {
            writeln!(out)?;
        }
        let columns: Vec<usize> = std::iter::once(0).chain(group.iter().copied()).collect();
        writeln!(out, "{}", line(header, &columns))?;
        for r in rows {
            let cells: Vec<&str> = r.iter().map(String::as_str).collect();
            writeln!(out, "{}", line(&cells, &columns))?;
        }
    }
    Ok(())
}

/// The summary of one tree: the outcome and its cause (the entry script's errors)
/// first, then the counts, settings, tables and the mini-batches behind them.
pub(crate) fn write(out: &mut dyn Write, p: &PrsSummary, style: Style) -> io::Result<()> {
    let head = format!(
        "── ParallelRunStep job: {} ({} layout) ──",
        p.root, p.layout
    );
    for line in text::wrap(&head, style.width(), "", "   ") {
        writeln!(out, "{}", style.bold(&line))?;
    }
    write_outcome(out, p, style)?;
    write_errors(out, p, style)?;
    write_counts(out, p, style)?;
    write_tables(out, p, style)?;
    write_batches(out, p, style)?;
    for n in &p.notes {
        text::para(
            out,
            style.width(),
            &format!("  {}", style.yellow("note:")),
            4,
            n,
        )?;
    }
    writeln!(out)
}

fn write_outcome(out: &mut dyn Write, p: &PrsSummary, style: Style) -> io::Result<()> {
    let reason = p
        .stop_reason
        .map(|r| format!(" ({})", r.replace('-', " ")))
        .unwrap_or_default();
    let (outcome, paint): (String, fn(Style, &str) -> String) = match p.outcome {
        JobOutcome::Failed => (format!("failed{reason}"), Style::red),
        JobOutcome::Completed => ("completed".to_owned(), Style::green),
        JobOutcome::Unknown => ("unknown (no result found)".to_owned(), Style::yellow),
    };
    let exit = match p.leader_exit_code {
        Some(42) => ", leader exit code 42 (job failed; 41 on workers is normal)".to_owned(),
        Some(c) => format!(", leader exit code {c}"),
        None => String::new(),
    };
    let lines = text::wrap(
        &format!("{outcome}{exit}"),
        style.width(),
        "  outcome: ",
        "    ",
    );
    for (i, line) in lines.iter().enumerate() {
        // Only the outcome word is coloured.
        match line.strip_prefix("  outcome: ") {
            Some(rest) if i == 0 => {
                let (word, tail) = rest.split_at(outcome.len().min(rest.len()));
                writeln!(out, "  outcome: {}{tail}", paint(style, word))?;
            }
            _ => writeln!(out, "{line}")?,
        }
    }
    if let Some(m) = &p.stop_message {
        writeln!(out, "    {} {}:{}", style.dim("-->"), m.path(), m.line())?;
        let room = style.width().saturating_sub(6);
        writeln!(out, "      {}", text::shorten(&m.text, room, m.at))?;
    }
    Ok(())
}

/// The entry script's exceptions, grouped: the cause a user fixes, so it comes first.
fn write_errors(out: &mut dyn Write, p: &PrsSummary, style: Style) -> io::Result<()> {
    if p.errors.is_empty() {
        return Ok(());
    }
    writeln!(
        out,
        "  {}",
        style.bold("errors in the entry script, grouped:")
    )?;
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
        let first = format!("  {:>5} × ", e.count);
        let hang = text::columns(&first);
        text::para(
            out,
            style.width(),
            &first,
            hang,
            &format!("{phase}{}{msg}", e.exception),
        )?;
        for line in text::fit(
            &format!("first at {}", e.first),
            style.width(),
            "      ",
            "      ",
        ) {
            writeln!(out, "{line}")?;
        }
    }
    Ok(())
}

fn write_counts(out: &mut dyn Write, p: &PrsSummary, style: Style) -> io::Result<()> {
    let mb = &p.mini_batches;
    let it = &p.items;
    text::para(
        out,
        style.width(),
        "  mini-batches:",
        4,
        &format!(
            "{} scheduled, {} processed, {} failed",
            opt(&mb.scheduled),
            opt(&mb.processed),
            opt(&mb.failed)
        ),
    )?;
    text::para(
        out,
        style.width(),
        "  items:",
        4,
        &format!(
            "{} total, {} succeeded, {} failed",
            opt(&it.total),
            opt(&it.succeeded),
            opt(&it.failed)
        ),
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
        text::para(
            out,
            style.width(),
            "  error threshold:",
            4,
            &format!("{}{ignored}{used}", t.value),
        )?;
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
        text::para(out, style.width(), "  settings:", 4, &settings.join(", "))?;
    }
    if let Some(w) = p.config.workers() {
        text::para(out, style.width(), "  workers:", 4, &w)?;
    }
    if let Some(o) = p.config.output() {
        text::para(out, style.width(), "  output:", 4, &o)?;
    }
    let level = p.config.logging_level.as_deref().unwrap_or("INFO");
    text::para(
        out,
        style.width(),
        "  logs:",
        4,
        &format!(
            "print and logging → user/stdout/<node>/<process>.stdout.txt; EntryScript logger ({level} and above) → user/entry_script_log/<node>/; tracebacks → user/error/<node>/; unredirected subprocess output → sys/node/<node>/<process>.stdout.txt"
        ),
    )?;
    write_node_changes(out, p, style)?;
    if let Some(d) = &p.duration {
        writeln!(out, "  duration: {d}")?;
    }
    if let Some(l) = &p.last_progress {
        text::para(
            out,
            style.width(),
            "  last progress:",
            4,
            &format!("{} ({}:{})", l.text, l.path(), l.line()),
        )?;
    }
    if p.timeouts > 0 {
        writeln!(out, "  run() timeouts: {}", p.timeouts)?;
    }
    Ok(())
}

/// The per-node and per-process tables.
fn write_tables(out: &mut dyn Write, p: &PrsSummary, style: Style) -> io::Result<()> {
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
            style.width(),
        )?;
    }
    write_resources(out, p, style)?;
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
            style.width(),
        )?;
    }
    Ok(())
}

/// ` (inputs)` when the mini-batch names its inputs, else nothing.
fn inputs_of(inputs: &str) -> String {
    if inputs.trim().is_empty() {
        String::new()
    } else {
        format!(" ({inputs})")
    }
}

/// The slowest and the failing mini-batches.
fn write_batches(out: &mut dyn Write, p: &PrsSummary, style: Style) -> io::Result<()> {
    if !p.slowest.is_empty() {
        writeln!(out, "  slowest mini-batches:")?;
        for m in &p.slowest {
            let body = format!(
                "{} on {}/{}: {} s, {}{}",
                m.id,
                m.node,
                m.process,
                fnum(m.seconds),
                m.status,
                inputs_of(&m.inputs)
            );
            text::para(out, style.width(), "    ", 6, &body)?;
        }
    }
    if !p.failing.is_empty() {
        writeln!(out, "  failing mini-batches:")?;
        for m in p.failing.iter().take(10) {
            let what = [m.status.as_str(), &m.error_category, &m.error_message]
                .iter()
                .filter(|x| !x.is_empty())
                .copied()
                .collect::<Vec<_>>()
                .join(" ");
            let body = format!(
                "{} on {}/{} after {}: {what}{}",
                m.id,
                m.node,
                m.process,
                plural(u64::from(m.attempts), "attempt", "attempts"),
                inputs_of(&m.inputs)
            );
            text::para(out, style.width(), "    ", 6, &body)?;
        }
        let total = p.mini_batches.failed.unwrap_or(p.failing.len() as u64);
        if total > 10 {
            writeln!(
                out,
                "    … and {} more (-o json lists up to {})",
                total - 10,
                crate::prs::summary::MAX_FAILING_LISTED
            )?;
        }
    }
    Ok(())
}

/// What the resource monitor shows per node: the largest process and the fullest disk.
fn write_resources(out: &mut dyn Write, p: &PrsSummary, style: Style) -> io::Result<()> {
    match p.perf_data {
        PerfData::MonitorOff => text::para(
            out,
            style.width(),
            "  resources:",
            4,
            "none; the resource monitor was off (--resource_monitor_interval 0)",
        ),
        PerfData::Missing if !p.nodes.is_empty() => text::para(
            out,
            style.width(),
            "  resources:",
            4,
            "no perf/<node>/ files in the tree",
        ),
        PerfData::Missing => Ok(()),
        PerfData::Present => {
            let lines: Vec<String> = p
                .nodes
                .iter()
                .filter_map(|n| {
                    let parts: Vec<String> = [
                        n.largest_process
                            .as_ref()
                            .map(|l| format!("largest process {l}")),
                        n.fullest_disk.as_ref().map(|d| format!("fullest disk {d}")),
                    ]
                    .into_iter()
                    .flatten()
                    .collect();
                    (!parts.is_empty()).then(|| format!("node {}: {}", n.node, parts.join("; ")))
                })
                .collect();
            if lines.is_empty() {
                return Ok(());
            }
            writeln!(out, "  resources:")?;
            for l in lines {
                text::para(out, style.width(), "    ", 6, &l)?;
            }
            Ok(())
        }
    }
}

/// Nodes lost and replaced while the job ran.
fn write_node_changes(out: &mut dyn Write, p: &PrsSummary, style: Style) -> io::Result<()> {
    let c = &p.node_changes;
    for l in &c.lost {
        let moved = if l.moved_away > 0 {
            format!("; {} of its mini-batches ran again elsewhere", l.moved_away)
        } else {
            String::new()
        };
        let text = format!(
            "node {} stopped writing logs at {}, {} before the other nodes{moved}",
            l.node, l.last_seen, l.silent_for
        );
        text::para(out, style.width(), "  node lost:", 4, &text)?;
    }
    if !c.lost.is_empty() {
        let text = if c.replacements.is_empty() {
            "none (no node's logs start after the loss)".to_owned()
        } else {
            format!("node {}", c.replacements.join(", node "))
        };
        text::para(out, style.width(), "  replaced by:", 4, &text)?;
    }
    if c.picked_again_without_record > 0 && !c.lost.is_empty() {
        text::para(
            out,
            style.width(),
            "  picked again:",
            4,
            &format!(
                "{} mini-batches, whose first attempts left no record",
                c.picked_again_without_record
            ),
        )?;
    }
    for o in &c.overviewer {
        text::para(out, style.width(), "  overviewer:", 4, o)?;
    }
    Ok(())
}

/// The job summary in markdown: counts, per-node table, failing mini-batches.
pub(crate) fn write_markdown(out: &mut dyn Write, p: &PrsSummary) -> io::Result<()> {
    let opt = |v: Option<u64>| v.map_or_else(|| "?".to_owned(), |x| x.to_string());
    writeln!(
        out,
        "### ParallelRunStep job `{}`: {}{}\n",
        code(&p.root),
        p.outcome,
        p.stop_reason
            .map(|r| format!(" ({})", r.replace('-', " ")))
            .unwrap_or_default()
    )?;
    writeln!(
        out,
        "Mini-batches: {} scheduled, {} processed, {} failed. Items: {} total, {} succeeded, {} failed.{}\n",
        opt(p.mini_batches.scheduled),
        opt(p.mini_batches.processed),
        opt(p.mini_batches.failed),
        opt(p.items.total),
        opt(p.items.succeeded),
        opt(p.items.failed),
        p.leader_exit_code
            .map(|c| format!(" Leader exit code {c}."))
            .unwrap_or_default()
    )?;
    if !p.nodes.is_empty() {
        writeln!(
            out,
            "| node | processes | attempts | failures | retries | restarts | killed | peak mem % | peak disk % | largest process |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"
        )?;
        let dash = |v: Option<f64>| v.map_or_else(|| "—".to_owned(), |m| m.to_string());
        for n in &p.nodes {
            writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                cell(&n.node),
                n.processes,
                n.mini_batches,
                n.failures,
                n.retries,
                n.restarts,
                n.killed,
                dash(n.peak_memory_percent),
                dash(n.peak_disk_percent),
                n.largest_process
                    .as_deref()
                    .map_or_else(|| "—".to_owned(), cell),
            )?;
        }
        writeln!(out)?;
    }
    if p.perf_data == crate::prs::summary::PerfData::MonitorOff {
        writeln!(
            out,
            "No resource readings: the resource monitor was off (`--resource_monitor_interval 0`).\n"
        )?;
    }
    if !p.errors.is_empty() {
        writeln!(out, "| count | error | first seen |\n|---:|---|---|")?;
        for e in p.errors.iter().take(10) {
            writeln!(
                out,
                "| {} | `{}`: {} | `{}` |",
                e.count,
                code(&e.exception),
                cell(&e.message),
                code(&e.first)
            )?;
        }
        writeln!(out)?;
    }
    Ok(())
}
