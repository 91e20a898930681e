//! The Log Analytics section of `diagnose --log-analytics`: the query (how many rows,
//! how long), then each endpoint, deployment and instance with its candidate lines per
//! hour: its table and markdown renderings.

use std::io::{self, Write};

use crate::evidence::log_analytics::{LogAnalyticsSummary, TrafficCount};

use super::style::Style;
use super::text;

/// The table rendering, before the findings.
pub(crate) fn write_table(
    out: &mut dyn Write,
    l: &LogAnalyticsSummary,
    style: Style,
) -> io::Result<()> {
    let head = format!(
        "── Log Analytics workspace {} ({}) ──",
        l.workspace_id, l.timespan
    );
    for line in text::wrap(&head, style.width(), "", "   ") {
        writeln!(out, "{}", style.bold(&line))?;
    }
    let read = format!(
        "{} in {} s, filtered in Log Analytics by {} of the rules",
        super::plural(l.rows, "candidate line", "candidate lines"),
        l.query_seconds,
        super::plural(l.literals, "literal", "literals")
    );
    for line in text::wrap(&read, style.width(), "  read: ", "    ") {
        writeln!(out, "{line}")?;
    }
    for n in &l.notes {
        for line in text::wrap(n, style.width(), "  note: ", "    ") {
            writeln!(out, "{line}")?;
        }
    }
    if l.groups.is_empty() {
        writeln!(out, "  no line matched any rule's literals in that time")?;
    }
    for g in &l.groups {
        let hours: Vec<String> = g
            .per_hour
            .iter()
            .map(|h| format!("{} {}", h.hour, h.lines))
            .collect();
        let line = format!(
            "{}/{} instance {} ({}): {}, {} to {}; per hour: {}",
            g.endpoint,
            g.deployment,
            g.instance,
            g.container,
            super::plural(g.lines, "line", "lines"),
            g.first,
            g.last,
            hours.join(", ")
        );
        text::para(out, style.width(), "    ", 6, &line)?;
    }
    if !l.findings.is_empty() {
        writeln!(out, "  findings per hour:")?;
        for f in &l.findings {
            let hours: Vec<String> = f
                .per_hour
                .iter()
                .map(|h| format!("{} {}", h.hour, h.lines))
                .collect();
            let line = format!(
                "{} on {}/{} instance {}: {}",
                f.rule_id,
                f.endpoint,
                f.deployment,
                f.instance,
                hours.join(", ")
            );
            text::para(out, style.width(), "    ", 6, &line)?;
        }
    }
    write_traffic(out, &l.traffic, style)?;
    writeln!(out)
}

/// `traffic: 2025-05-12T16: blue 200 × 1200, blue 429 × 31`, one line an hour.
fn write_traffic(out: &mut dyn Write, traffic: &[TrafficCount], style: Style) -> io::Result<()> {
    if traffic.is_empty() {
        return Ok(());
    }
    writeln!(out, "  traffic (requests per hour and status):")?;
    let mut hours: Vec<(&str, Vec<String>)> = Vec::new();
    for t in traffic {
        let entry = format!("{} {} × {}", t.deployment, t.status, t.requests);
        match hours.last_mut() {
            Some((h, list)) if *h == t.hour => list.push(entry),
            _ => hours.push((&t.hour, vec![entry])),
        }
    }
    for (hour, list) in hours {
        let line = format!("{hour}: {}", list.join(", "));
        text::para(out, style.width(), "    ", 6, &line)?;
    }
    Ok(())
}

/// The markdown rendering: a table of the groups.
pub(crate) fn write_markdown(out: &mut dyn Write, l: &LogAnalyticsSummary) -> io::Result<()> {
    writeln!(
        out,
        "**Log Analytics** `{}` ({}): {} in {} s.\n",
        super::markdown_escape::code(&l.workspace_id),
        l.timespan,
        super::plural(l.rows, "candidate line", "candidate lines"),
        l.query_seconds
    )?;
    if l.groups.is_empty() {
        return Ok(());
    }
    writeln!(
        out,
        "| endpoint | deployment | instance | container | lines | first | last |\n|---|---|---|---|---:|---|---|"
    )?;
    for g in &l.groups {
        let c = super::markdown_escape::cell;
        writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} |",
            c(&g.endpoint),
            c(&g.deployment),
            c(&g.instance),
            c(&g.container),
            g.lines,
            c(&g.first),
            c(&g.last)
        )?;
    }
    writeln!(out)
}
