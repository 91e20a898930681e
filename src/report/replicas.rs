//! What `replicas` prints: the capacity plan, its reasoning and the next command.

use std::io::{self, Write};

use serde::Serialize;

use crate::capacity::{CapacityInputs, CapacityPlan, Evaluation, Ratio, Warning};

use super::plural;
use super::style::Style;
use super::text;

/// The `replicas` document for every output format.
#[derive(Debug, Clone, Serialize)]
pub struct ReplicasReport {
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
}

#[derive(Debug, Clone, Serialize)]
pub struct ReplicasResults {
    pub concurrent_requests: Ratio,
    /// `concurrent_requests` as an exact fraction, e.g. `2000/7`.
    pub concurrent_requests_exact: String,
    pub instances_required: u64,
    pub pending_request_ceiling: u128,
    pub evaluation: Option<Evaluation>,
}

impl ReplicasReport {
    pub fn new(
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
            },
            inputs: plan.inputs,
            warnings: plan.warnings,
            defaulted_inputs,
            next_command,
            no_command_reason,
        }
    }
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

/// Human-readable output. With `quiet`, only the instance count.
pub fn write_table(
    out: &mut dyn Write,
    report: &ReplicasReport,
    style: Style,
    quiet: bool,
) -> io::Result<()> {
    let i = &report.inputs;
    let r = &report.results;
    if quiet {
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

    writeln!(
        out,
        "{} for {rps} requests/s",
        style.bold(&plural(
            u128::from(r.instances_required),
            "instance needed",
            "instances needed"
        ))
    )?;
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
            write_fill_in(out, cmd, style)?;
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
fn write_fill_in(out: &mut dyn Write, cmd: &str, style: Style) -> io::Result<()> {
    use crate::rules::template::{FILLED_BY, missing_form};
    let missing: Vec<(String, &str)> = FILLED_BY
        .iter()
        .map(|(name, how)| (missing_form(name), *how))
        .filter(|(shown, _)| cmd.contains(shown.as_str()))
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    writeln!(out)?;
    writeln!(out, "Fill in before running it:")?;
    let width = missing.iter().map(|(m, _)| m.len()).max().unwrap_or(0);
    for (shown, how) in missing {
        let how = match shown.as_str() {
            "<endpoint>" | "<deployment>" => {
                format!("-f deployment.yml, or {how}").replace("diagnose -e", "replicas -e")
            }
            _ => how.to_owned(),
        };
        let first = format!("  {shown:width$}  ");
        let rest = " ".repeat(first.len());
        for line in text::wrap(&how, style.width(), &first, &rest) {
            writeln!(out, "{line}")?;
        }
    }
    Ok(())
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
        writeln!(
            out,
            "{}",
            style.bold(&format!(
                "Existing instance count: {} ({origin})",
                e.instances
            ))
        )?;
        let verdict = if e.meets_target {
            style.green(&format!("enough for {rps} requests/s"))
        } else {
            style.red(&format!(
                "short of {rps} requests/s by {} instances",
                r.instances_required.saturating_sub(e.instances)
            ))
        };
        writeln!(
            out,
            "  sustains {} requests/s at {} utilization: {verdict}",
            e.sustained_rps.to_decimal_string(3),
            percent(i.target_utilization.value)
        )?;
        writeln!(
            out,
            "  at {rps} requests/s they would run at {} utilization",
            percent(e.utilization_at_target_rps)
        )?;
        writeln!(
            out,
            "  429 ceiling at {}: 2 × {max} × {} = {} pending requests",
            plural(u128::from(e.instances), "instance", "instances"),
            e.instances,
            e.pending_request_ceiling
        )?;
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
        writeln!(
            out,
            "  {name:<width$}  {value:<value_width$}  {}",
            style.dim(&origin)
        )?;
    }
    if !report.defaulted_inputs.is_empty() {
        writeln!(out, "  defaulted: {}", report.defaulted_inputs.join(", "))?;
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
