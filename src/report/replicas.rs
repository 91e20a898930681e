//! What `replicas` prints: the capacity plan, its reasoning and the next command.

use std::io::{self, Write};

use serde::Serialize;

use crate::capacity::{CapacityInputs, CapacityPlan, Evaluation, Warning};
use crate::ratio::Ratio;

use super::plural;
use super::style::Style;
use super::text;

/// The `replicas` document for every output format.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct ReplicasReport {
    pub inputs: CapacityInputs,
    pub results: ReplicasResults,
    pub warnings: Vec<Warning>,
    /// Flags whose value fell back to amldoctor's default.
    pub defaulted_inputs: Vec<&'static str>,
    /// The command that applies the recommendation; `None` when nothing needs to change.
    pub next_command: Option<String>,
    /// Why there is no command, when there is none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub no_command_reason: Option<String>,
    /// Values the command still needs, and where to get each.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub missing_names: Vec<crate::rules::template::MissingName>,
}

#[derive(Debug, Clone, Serialize)]
pub(crate) struct ReplicasResults {
    pub concurrent_requests: Ratio,
    /// `concurrent_requests` as an exact fraction, e.g. `2000/7`.
    pub concurrent_requests_exact: String,
    pub instances_required: u64,
    pub pending_request_ceiling: u128,
    pub evaluation: Option<Evaluation>,
    /// Requests take longer than the platform's longest request timeout: no instance
    /// count makes them succeed.
    pub over_platform_maximum: bool,
}

impl ReplicasReport {
    pub(crate) fn new(
        plan: CapacityPlan,
        next_command: Option<String>,
        no_command_reason: Option<String>,
    ) -> ReplicasReport {
        let defaulted_inputs = plan.defaulted_inputs();
        let c = plan.concurrent_requests;
        ReplicasReport {
            results: ReplicasResults {
                concurrent_requests: c,
                concurrent_requests_exact: if c.is_integer() {
                    c.numer().to_string()
                } else {
                    format!("{}/{}", c.numer(), c.denom())
                },
                instances_required: plan.instances_required,
                pending_request_ceiling: plan.pending_request_ceiling,
                evaluation: plan.evaluation,
                over_platform_maximum: plan.over_platform_maximum,
            },
            inputs: plan.inputs,
            warnings: plan.warnings,
            defaulted_inputs,
            missing_names: next_command.as_deref().map_or_else(Vec::new, missing_names),
            next_command,
            no_command_reason,
        }
    }
}

/// What the update command still needs: offline, the deployment file names the
/// endpoint and deployment; live, `replicas -e` reads them.
fn missing_names(cmd: &str) -> Vec<crate::rules::template::MissingName> {
    let mut missing = crate::rules::template::missing_in(std::iter::once(cmd), std::iter::empty());
    for m in &mut missing {
        if matches!(m.placeholder.as_str(), "<endpoint>" | "<deployment>") {
            m.filled_by = format!("-f DEPLOYMENT.yml, or {}", m.filled_by);
        }
    }
    missing
}

/// `1 request/s`, `20 requests/s`, `0.5 requests/s`.
fn rate(rps: &str) -> String {
    if rps == "1" {
        "1 request/s".to_owned()
    } else {
        format!("{rps} requests/s")
    }
}

/// Prose at the style's width, each line after the first indented by `rest`.
fn prose(out: &mut dyn Write, text: &str, style: Style, first: &str, rest: &str) -> io::Result<()> {
    for line in text::wrap(text, style.width(), first, rest) {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

fn seconds(r: Ratio) -> String {
    format!("{} s", r.to_decimal_string(3))
}

fn percent(r: Ratio) -> String {
    match r.checked_mul(Ratio::from_int(100)) {
        Ok(p) => format!("{} %", p.to_decimal_string(3)),
        Err(_) => r.to_decimal_string(6),
    }
}

/// Human-readable output. With `quiet`, only the instance count, and nothing when no
/// count serves the requests (the warning on stderr says why).
pub(crate) fn write_table(
    out: &mut dyn Write,
    report: &ReplicasReport,
    style: Style,
    quiet: bool,
) -> io::Result<()> {
    let i = &report.inputs;
    let r = &report.results;
    if quiet {
        if r.over_platform_maximum {
            return Ok(());
        }
        return writeln!(out, "{}", r.instances_required);
    }
    let rps = i.rps.value.to_readable_string();
    let max = i.max_concurrent_requests_per_instance.value;
    let concurrent = r.concurrent_requests.to_decimal_string(3);
    let approx = if r.concurrent_requests.is_integer() {
        "="
    } else {
        "≈"
    };

    let count = plural(
        u128::from(r.instances_required),
        "instance needed",
        "instances needed",
    );
    if r.over_platform_maximum {
        // The formula still has an answer, but no count of instances serves these requests.
        let head = format!(
            "No instance count helps: {count} by the formula, but requests this slow time out (see the warning)"
        );
        for line in text::wrap(&head, style.width(), "", "  ") {
            writeln!(out, "{}", style.bold(&line))?;
        }
    } else {
        writeln!(out, "{} for {}", style.bold(&count), rate(&rps))?;
    }
    writeln!(out)?;
    writeln!(
        out,
        "  concurrent requests = rps × request time / target utilization"
    )?;
    writeln!(
        out,
        "                      = {rps} × {} / {} {approx} {concurrent}",
        seconds(i.request_time_seconds.value),
        percent(i.target_utilization.value)
    )?;
    writeln!(
        out,
        "  instances           = ceil({concurrent} / {}) = {}",
        plural(
            u128::from(max),
            "concurrent request per instance",
            "concurrent requests per instance"
        ),
        r.instances_required
    )?;
    writeln!(out)?;
    let ceiling = format!(
        "with {} the service keeps at most 2 × {max} × {} = {} requests pending; further requests are rejected with 429 Too Many Requests.",
        plural(u128::from(r.instances_required), "instance", "instances"),
        r.instances_required,
        r.pending_request_ceiling
    );
    for line in text::wrap(&ceiling, style.width(), "  429 ceiling: ", "    ") {
        writeln!(out, "{line}")?;
    }

    write_evaluation(out, report, style)?;
    write_inputs(out, report, style)?;
    for w in &report.warnings {
        writeln!(out)?;
        let lines = text::wrap(&w.message, style.width(), "warning: ", "  ");
        for (n, line) in lines.iter().enumerate() {
            match line.strip_prefix("warning: ") {
                Some(rest) if n == 0 => writeln!(out, "{} {rest}", style.yellow("warning:"))?,
                _ => writeln!(out, "{line}")?,
            }
        }
    }
    writeln!(out)?;
    match &report.next_command {
        Some(cmd) => {
            writeln!(out, "{}", style.bold("Next"))?;
            for line in text::command_lines(cmd, style.width(), 2) {
                writeln!(out, "{}", style.cyan(&line))?;
            }
            write_fill_in(out, report, style)?;
        }
        None => {
            let why = report
                .no_command_reason
                .as_deref()
                .unwrap_or("No change needed: the existing instance count meets the target.");
            for line in text::wrap(why, style.width(), "", "") {
                writeln!(out, "{}", style.green(&line))?;
            }
        }
    }
    Ok(())
}

/// The values the command still needs and where each comes from.
fn write_fill_in(out: &mut dyn Write, report: &ReplicasReport, style: Style) -> io::Result<()> {
    if report.missing_names.is_empty() {
        return Ok(());
    }
    writeln!(out)?;
    super::table::write_missing_names(out, &report.missing_names, style)
}

/// How the deployment's existing instance count fares against the target.
fn write_evaluation(out: &mut dyn Write, report: &ReplicasReport, style: Style) -> io::Result<()> {
    let i = &report.inputs;
    let r = &report.results;
    let rps = i.rps.value.to_readable_string();
    let max = i.max_concurrent_requests_per_instance.value;
    if let Some(e) = &r.evaluation {
        let origin = i
            .instance_count
            .as_ref()
            .map(|s| s.origin.to_string())
            .unwrap_or_default();
        writeln!(out)?;
        let head = format!("Existing instance count: {} ({origin})", e.instances);
        for line in text::wrap(&head, style.width(), "", "  ") {
            writeln!(out, "{}", style.bold(&line))?;
        }
        // Autoscale that may grow to the need makes a shortfall now a wait, not a fault.
        let grows_to = i
            .autoscale_max_instances
            .as_ref()
            .map(|m| m.value)
            .filter(|max| *max >= r.instances_required);
        let short = plural(
            r.instances_required.saturating_sub(e.instances),
            "instance",
            "instances",
        );
        let verdict = match (e.meets_target, grows_to) {
            (true, _) => format!("enough for {}", rate(&rps)),
            (false, Some(max)) => format!(
                "short of {} by {short} until autoscale adds them (its maximum, {max}, covers the {} needed)",
                rate(&rps),
                r.instances_required
            ),
            (false, None) => format!("short of {} by {short}", rate(&rps)),
        };
        let sustains = format!(
            "sustains {} at {} utilization: {verdict}",
            rate(&e.sustained_rps.to_decimal_string(3)),
            percent(i.target_utilization.value)
        );
        // Wrapped before it is coloured, so escape codes do not count as columns.
        for line in text::wrap(&sustains, style.width(), "  ", "    ") {
            let line = if e.meets_target {
                style.green(&line)
            } else if grows_to.is_some() {
                style.yellow(&line)
            } else {
                style.red(&line)
            };
            writeln!(out, "{line}")?;
        }
        let at = format!(
            "at {} they would run at {} utilization",
            rate(&rps),
            percent(e.utilization_at_target_rps)
        );
        prose(out, &at, style, "  ", "    ")?;
        let ceiling = format!(
            "429 ceiling at {}: 2 × {max} × {} = {} pending requests",
            plural(u128::from(e.instances), "instance", "instances"),
            e.instances,
            e.pending_request_ceiling
        );
        prose(out, &ceiling, style, "  ", "    ")?;
    }

    Ok(())
}

/// The inputs with where each came from.
fn write_inputs(out: &mut dyn Write, report: &ReplicasReport, style: Style) -> io::Result<()> {
    let i = &report.inputs;
    let rps = i.rps.value.to_readable_string();
    let max = i.max_concurrent_requests_per_instance.value;
    writeln!(out)?;
    writeln!(out, "{}", style.bold("Inputs"))?;
    let rows: Vec<(&str, String, String)> = {
        let mut rows = vec![
            ("rps", rps.clone(), i.rps.origin.to_string()),
            (
                "request time",
                seconds(i.request_time_seconds.value),
                origin_text(&i.request_time_seconds.origin, "--latency"),
            ),
            (
                "max concurrent/instance",
                max.to_string(),
                origin_text(
                    &i.max_concurrent_requests_per_instance.origin,
                    "--max-concurrent",
                ),
            ),
            (
                "target utilization",
                percent(i.target_utilization.value),
                origin_text(&i.target_utilization.origin, "--utilization"),
            ),
        ];
        if let Some(t) = &i.request_timeout_ms {
            rows.push((
                "request timeout",
                format!("{} ms", t.value),
                t.origin.to_string(),
            ));
        }
        if let Some(m) = &i.autoscale_max_instances {
            rows.push((
                "autoscale max instances",
                m.value.to_string(),
                m.origin.to_string(),
            ));
        }
        rows
    };
    let width = rows.iter().map(|r| r.0.chars().count()).max().unwrap_or(0);
    let value_width = rows.iter().map(|r| r.1.chars().count()).max().unwrap_or(0);
    for (name, value, origin) in rows {
        let first = format!("  {name:<width$}  {value:<value_width$}  ");
        if text::columns(&first) + text::columns(&origin) <= style.width() {
            writeln!(out, "{first}{}", style.dim(&origin))?;
            continue;
        }
        // Too long for the row: where it came from goes below it, whole.
        writeln!(out, "{}", first.trim_end())?;
        for line in text::wrap(&origin, style.width(), "      ", "      ") {
            writeln!(out, "{}", style.dim(&line))?;
        }
    }
    if !report.defaulted_inputs.is_empty() {
        let list = report.defaulted_inputs.join(", ");
        prose(out, &list, style, "  defaulted: ", "    ")?;
    }

    Ok(())
}

fn origin_text(origin: &crate::setting::ValueSource, flag: &str) -> String {
    if origin.is_default() {
        format!("default (set with {flag})")
    } else {
        origin.to_string()
    }
}
