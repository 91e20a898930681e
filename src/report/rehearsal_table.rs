//! The rehearsal section of `rehearse`'s table and markdown output: the interpreter and
//! server, the start-up against the probes' budget, each request with its status and
//! latency, each worker's init() and each mini-batch with its size, time, results and
//! outcome.

use std::fmt::Write as _;
use std::io::{self, Write};

use crate::rehearsal::summary::{RehearsalMode, RehearsalSummary, RequestRecord};

use super::markdown_escape::{cell, code};
use super::style::Style;
use super::text;

/// The most mini-batch rows printed in table output (all are in JSON).
const SHOWN_BATCHES: usize = 20;

fn runtime(s: &RehearsalSummary) -> String {
    let mut t = format!("{} (Python {})", s.python, s.python_version);
    if let Some(v) = &s.server_version {
        let _ = write!(t, ", azureml-inference-server-http {v}");
    }
    t
}

fn startup_line(s: &RehearsalSummary) -> Option<String> {
    let st = s.startup.as_ref()?;
    let mut t = if st.ready {
        format!("ready after {} ms", st.millis)
    } else if let Some(e) = &st.exit {
        format!("not ready: the server {e} after {} ms", st.millis)
    } else {
        format!("not ready after {} ms (the --timeout)", st.limit_ms)
    };
    if let Some(b) = &st.budget {
        let _ = write!(t, "; {} budget: {}", b.probe, b.formula);
    }
    Some(t)
}

fn request_line(r: &RequestRecord) -> String {
    let got = match (r.status, &r.error) {
        (Some(status), _) => format!("HTTP {status}"),
        (None, Some(e)) => e.clone(),
        (None, None) => "no answer".to_owned(),
    };
    let mut t = format!("{}: {got} in {} ms", r.input, r.millis);
    if let Some(c) = r.caller_status.filter(|c| Some(*c) != r.status) {
        let _ = write!(t, " (a caller of the endpoint gets {c})");
    }
    if r.run_function_failed {
        t.push_str(", run() raised");
    }
    t
}

/// The section, before the findings.
pub(crate) fn write(out: &mut dyn Write, s: &RehearsalSummary, style: Style) -> io::Result<()> {
    let what = match s.mode {
        RehearsalMode::Online => "inference server",
        RehearsalMode::Parallel => "ParallelRunStep harness",
    };
    let head = format!("── Rehearsal: {} under the {what} ──", s.entry_script);
    for line in text::wrap(&head, style.width(), "", "   ") {
        writeln!(out, "{}", style.bold(&line))?;
    }
    let w = style.width();
    text::para(out, w, "  python:", 4, &runtime(s))?;
    if s.mode == RehearsalMode::Online {
        let dir = s.model_dir.as_deref().unwrap_or("not set (no --model-dir)");
        text::para(out, w, "  AZUREML_MODEL_DIR:", 4, dir)?;
    }
    if !s.environment.is_empty() {
        text::para(out, w, "  environment:", 4, &s.environment.join(", "))?;
    }
    for setting in &s.settings {
        text::para(out, w, "  setting:", 4, setting)?;
    }
    if let Some(line) = startup_line(s) {
        text::para(out, w, "  start-up:", 4, &line)?;
    }
    for r in &s.requests {
        text::para(out, w, "  request:", 4, &request_line(r))?;
    }
    for p in &s.processes {
        let mut t = if p.init_ok {
            format!("{}: init() finished in {:.2} s", p.name, p.init_seconds)
        } else {
            format!(
                "{}: init() failed: {}",
                p.name,
                p.error.as_deref().unwrap_or("?")
            )
        };
        if let Some(m) = p.peak_memory_mb {
            let _ = write!(t, ", peak memory {m} MiB");
        }
        text::para(out, w, "  worker:", 4, &t)?;
    }
    for m in s.mini_batches.iter().take(SHOWN_BATCHES) {
        text::para(out, w, "  mini-batch:", 4, &batch_line(m))?;
    }
    if s.mini_batches.len() > SHOWN_BATCHES {
        let more = s.mini_batches.len() - SHOWN_BATCHES;
        text::para(
            out,
            w,
            "  mini-batch:",
            4,
            &format!("… {more} more (-o json lists all)"),
        )?;
    }
    if let Some(why) = &s.stopped {
        text::para(out, w, "  stopped:", 4, why)?;
    }
    let kept = s
        .kept
        .as_deref()
        .unwrap_or("not kept (pass --out DIR to keep them)");
    text::para(out, w, "  logs:", 4, kept)?;
    writeln!(out)
}

fn batch_line(m: &crate::rehearsal::summary::MiniBatch) -> String {
    let mut t = format!(
        "{} ({} item{}: {}) on {}: {} in {:.2} s",
        m.id,
        m.items,
        if m.items == 1 { "" } else { "s" },
        m.detail,
        m.process,
        m.outcome.label(),
        m.seconds
    );
    if let Some(r) = m.results {
        let _ = write!(t, ", {r} result{}", if r == 1 { "" } else { "s" });
    }
    if m.tries > 1 {
        let _ = write!(t, ", {} tries", m.tries);
    }
    if let Some(e) = &m.error {
        let _ = write!(t, ": {e}");
    }
    t
}

/// The section in markdown.
pub(crate) fn write_markdown(out: &mut dyn Write, s: &RehearsalSummary) -> io::Result<()> {
    writeln!(
        out,
        "**Rehearsal** of `{}` with `{}`.\n",
        code(&s.entry_script),
        code(&runtime(s))
    )?;
    if let Some(line) = startup_line(s) {
        writeln!(out, "Start-up: {}.\n", cell(&line))?;
    }
    if !s.requests.is_empty() {
        writeln!(
            out,
            "| request | status | caller gets | ms |\n|---|---:|---:|---:|"
        )?;
        for r in &s.requests {
            let status = r
                .status
                .map_or_else(|| r.error.clone().unwrap_or_default(), |x| x.to_string());
            let caller = r.caller_status.map(|c| c.to_string()).unwrap_or_default();
            writeln!(
                out,
                "| {} | {} | {caller} | {} |",
                cell(&r.input),
                cell(&status),
                r.millis
            )?;
        }
        writeln!(out)?;
    }
    if !s.mini_batches.is_empty() {
        writeln!(
            out,
            "| mini-batch | items | process | outcome | s | results |\n|---:|---:|---|---|---:|---:|"
        )?;
        for m in &s.mini_batches {
            let results = m.results.map(|r| r.to_string()).unwrap_or_default();
            writeln!(
                out,
                "| {} | {} | {} | {} | {:.2} | {results} |",
                m.id,
                m.items,
                cell(&m.process),
                m.outcome.label(),
                m.seconds
            )?;
        }
        writeln!(out)?;
    }
    Ok(())
}
