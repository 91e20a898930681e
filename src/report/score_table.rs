//! The scoring section of `score`'s table output: how the requests ended, latency,
//! bytes, who answered, the 429 ceiling and sizing, then the catalogue's explanation of
//! each error status, rendered as `explain` renders it.

use std::io::{self, Write};

use crate::scoring::summary::ScoreSummary;

use super::explain::{Answer, write_status};
use super::markdown_escape::{cell, code};
use super::style::Style;
use super::{Detail, text};

/// The section, before the findings.
pub(crate) fn write(
    out: &mut dyn Write,
    s: &ScoreSummary,
    style: Style,
    detail: Detail,
) -> io::Result<()> {
    let head = format!(
        "── Scoring probe: endpoint {} ({}, {} auth) ──",
        s.endpoint, s.endpoint_kind, s.auth_mode
    );
    for line in text::wrap(&head, style.width(), "", "   ") {
        writeln!(out, "{}", style.bold(&line))?;
    }
    text::para(out, style.width(), "  scoring URI:", 4, &s.scoring_uri)?;
    if let Some(d) = &s.deployment {
        text::para(
            out,
            style.width(),
            "  deployment:",
            4,
            &format!("{d} (azureml-model-deployment header)"),
        )?;
    }
    text::para(
        out,
        style.width(),
        "  requests:",
        4,
        &format!(
            "{} sent, {} at a time, {} ms timeout each",
            s.requests, s.concurrency, s.timeout_ms
        ),
    )?;
    let outcomes: Vec<String> = s
        .outcomes
        .iter()
        .map(|o| format!("{} × {}", o.outcome, o.count))
        .collect();
    text::para(out, style.width(), "  outcomes:", 4, &outcomes.join(", "))?;
    match &s.latency {
        Some(l) => text::para(
            out,
            style.width(),
            "  latency:",
            4,
            &format!(
                "p50 {} ms, p95 {} ms, p99 {} ms, max {} ms, mean {} ms ({} answered)",
                l.p50_ms, l.p95_ms, l.p99_ms, l.max_ms, l.mean_ms, l.samples
            ),
        )?,
        None => text::para(
            out,
            style.width(),
            "  latency:",
            4,
            "none: no request was answered",
        )?,
    }
    text::para(
        out,
        style.width(),
        "  bytes:",
        4,
        &format!("{} sent, {} received", s.bytes_sent, s.bytes_received),
    )?;
    if !s.served_by.is_empty() {
        let by: Vec<String> = s
            .served_by
            .iter()
            .map(|b| format!("{} × {}", b.deployment, b.count))
            .collect();
        text::para(out, style.width(), "  served by:", 4, &by.join(", "))?;
    }
    write_capacity(out, s, style)?;
    writeln!(out)?;
    if detail == Detail::Verbose {
        let names = Default::default();
        let answer = Answer {
            query: "",
            statuses: &s.explanations,
            rules: Vec::new(),
            names: &names,
        };
        for status in &s.explanations {
            write_status(out, &answer, status, style, detail)?;
            writeln!(out)?;
        }
    } else {
        write_status_lines(out, s, style)?;
    }
    Ok(())
}

/// Each error status in one sentence: the findings below say what to do about it,
/// `explain` (or `-v` here) gives its causes and checks.
fn write_status_lines(out: &mut dyn Write, s: &ScoreSummary, style: Style) -> io::Result<()> {
    let Some(first) = s.explanations.first() else {
        return Ok(());
    };
    let head = format!(
        "Statuses (causes and checks: amldoctor explain {}, or -v):",
        first.status
    );
    for line in text::wrap(&head, style.width(), "", "  ") {
        writeln!(out, "{}", style.bold(&line))?;
    }
    for e in &s.explanations {
        let meaning = e.meaning.split_whitespace().collect::<Vec<_>>().join(" ");
        let sentence = match meaning.find(". ") {
            Some(end) => &meaning[..=end],
            None => meaning.as_str(),
        };
        let label = format!("  {} {}:", e.status, e.reason);
        text::para(out, style.width(), &label, 4, &text::plain(sentence))?;
    }
    writeln!(out)
}

/// The 429 ceiling and the sizing `--rps` asked for (or why there is none).
fn write_capacity(out: &mut dyn Write, s: &ScoreSummary, style: Style) -> io::Result<()> {
    if let Some(c) = &s.pending_request_ceiling {
        let parts = if c.parts.is_empty() {
            String::new()
        } else {
            format!(" ({})", c.parts.join("; "))
        };
        let unknown = if c.unknown.is_empty() {
            String::new()
        } else {
            format!("; {} not counted: no settings read", c.unknown.join(", "))
        };
        let text = match c.value {
            Some(v) => format!("{v} pending requests{parts}{unknown}"),
            None => format!(
                "not known: no settings were read for {} (pass the deployment's JSON with --from)",
                c.unknown.join(", ")
            ),
        };
        text::para(out, style.width(), "  429 ceiling:", 4, &text)?;
    }
    if let Some(why) = &s.sizing_skipped {
        text::para(out, style.width(), "  sizing:", 4, &format!("none: {why}"))?;
    }
    if let Some(z) = &s.sizing {
        let now = z
            .instances_now
            .map(|n| format!(" (now {n})"))
            .unwrap_or_default();
        text::para(
            out,
            style.width(),
            "  sizing:",
            4,
            &format!(
                "{} requests/s at the p95 of {} ms, {} concurrent per instance and {} % utilization need {} instance{}{now}; 429 above {} pending",
                z.rps,
                z.request_time_ms,
                z.max_concurrent_requests_per_instance,
                z.target_utilization_percent,
                z.instances_required,
                if z.instances_required == 1 { "" } else { "s" },
                z.pending_request_ceiling
            ),
        )?;
    }
    Ok(())
}

/// `score`'s probe: where it went, outcomes, latency, the 429 ceiling and sizing, and
/// each error status in a sentence (the table of endpoints it comes from named).
pub(crate) fn write_markdown(out: &mut dyn Write, s: &ScoreSummary) -> io::Result<()> {
    writeln!(
        out,
        "**Scoring probe** of `{}` ({}, {} auth) at `{}`: {}, {} at a time, {} ms timeout; {} bytes sent, {} received.\n",
        code(&s.endpoint),
        s.endpoint_kind,
        s.auth_mode,
        code(&s.scoring_uri),
        super::plural(s.requests, "request", "requests"),
        s.concurrency,
        s.timeout_ms,
        s.bytes_sent,
        s.bytes_received
    )?;
    writeln!(out, "| outcome | requests |\n|---|---:|")?;
    for o in &s.outcomes {
        writeln!(out, "| {} | {} |", cell(&o.outcome), o.count)?;
    }
    writeln!(out)?;
    if let Some(l) = &s.latency {
        writeln!(
            out,
            "Latency of {} answered: p50 {} ms, p95 {} ms, p99 {} ms, max {} ms, mean {} ms.\n",
            super::plural(l.samples, "request", "requests"),
            l.p50_ms,
            l.p95_ms,
            l.p99_ms,
            l.max_ms,
            l.mean_ms
        )?;
    }
    if let Some(c) = &s.pending_request_ceiling {
        match c.value {
            Some(v) => writeln!(
                out,
                "429 ceiling: {v} pending requests ({}).\n",
                cell(&c.parts.join("; "))
            )?,
            None => writeln!(
                out,
                "429 ceiling: not known: no settings were read for {}.\n",
                cell(&c.unknown.join(", "))
            )?,
        }
    }
    if let Some(z) = &s.sizing {
        writeln!(
            out,
            "Sizing: {} requests/s at the p95 of {} ms need {} (429 above {} pending).\n",
            cell(&z.rps),
            z.request_time_ms,
            super::plural(z.instances_required, "instance", "instances"),
            z.pending_request_ceiling
        )?;
    }
    for e in &s.explanations {
        let meaning = e.meaning.split_whitespace().collect::<Vec<_>>().join(" ");
        let table = if e.endpoint == "managed" {
            "managed"
        } else {
            "Kubernetes"
        };
        writeln!(
            out,
            "- **HTTP {} {}** ({table} online endpoints): {}",
            e.status,
            cell(&e.reason),
            cell(&meaning)
        )?;
    }
    if !s.explanations.is_empty() {
        writeln!(out)?;
    }
    Ok(())
}
