//! The fleet section of `check --fleet`: how much Resource Graph returned and how long
//! it took, then one row per workspace, worst first. Plain data and its table and
//! markdown renderings; the findings themselves follow as usual.

use std::io::{self, Write};

use serde::Serialize;

use super::style::Style;
use super::text;

/// One workspace's results.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct FleetWorkspace {
    pub workspace: String,
    pub subscription: String,
    /// Its display name, from Resource Graph's `resourcecontainers`.
    pub subscription_name: Option<String>,
    pub group: String,
    /// Resources checked with it: itself, its endpoints and deployments, its Key
    /// Vault, registry and storage account.
    pub resources: u64,
    pub endpoints: u64,
    pub errors: u64,
    pub warnings: u64,
    pub infos: u64,
    /// The rules it fails at `error`.
    pub error_rules: Vec<String>,
}

/// What the Resource Graph query read, and the workspaces, worst first.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct FleetSummary {
    pub resources_read: u64,
    pub pages: u64,
    /// How long the query took, pages and waits included.
    pub query_seconds: f64,
    /// Of that, waiting for the Resource Graph quota to reset.
    pub throttled_seconds: u64,
    pub subscriptions: Vec<String>,
    pub management_groups: Vec<String>,
    pub workspaces: Vec<FleetWorkspace>,
}

/// The table rendering, before the findings.
pub(crate) fn write_table(out: &mut dyn Write, f: &FleetSummary, style: Style) -> io::Result<()> {
    let mut scope: Vec<String> = f
        .subscriptions
        .iter()
        .map(|s| format!("subscription {s}"))
        .collect();
    scope.extend(
        f.management_groups
            .iter()
            .map(|m| format!("management group {m}")),
    );
    let head = format!("── Fleet: {} ──", scope.join(", "));
    for line in text::wrap(&head, style.width(), "", "   ") {
        writeln!(out, "{}", style.bold(&line))?;
    }
    let read = format!(
        "{} resources in {} page{} from Azure Resource Graph in {} s{}",
        f.resources_read,
        f.pages,
        if f.pages == 1 { "" } else { "s" },
        f.query_seconds,
        if f.throttled_seconds > 0 {
            format!(" ({} s waiting for the query quota)", f.throttled_seconds)
        } else {
            String::new()
        }
    );
    for line in text::wrap(&read, style.width(), "  read: ", "    ") {
        writeln!(out, "{line}")?;
    }
    if f.workspaces.is_empty() {
        writeln!(out, "  no Azure Machine Learning workspace in scope")?;
        return writeln!(out);
    }
    writeln!(out, "  workspaces, worst first:")?;
    for w in &f.workspaces {
        let rules = if w.error_rules.is_empty() {
            String::new()
        } else {
            format!(": {}", w.error_rules.join(", "))
        };
        let line = format!(
            "{} ({}/{}): {} error{}, {} warning{}, {} resources, {} endpoint{}{rules}",
            w.workspace,
            w.subscription_name.as_deref().unwrap_or(&w.subscription),
            w.group,
            w.errors,
            if w.errors == 1 { "" } else { "s" },
            w.warnings,
            if w.warnings == 1 { "" } else { "s" },
            w.resources,
            w.endpoints,
            if w.endpoints == 1 { "" } else { "s" },
        );
        text::para(out, style.width(), "    ", 6, &line)?;
    }
    writeln!(out)
}

/// The markdown rendering: a table of workspaces.
pub(crate) fn write_markdown(out: &mut dyn Write, f: &FleetSummary) -> io::Result<()> {
    writeln!(
        out,
        "**Fleet**: {} resources read from Azure Resource Graph in {} s.\n",
        f.resources_read, f.query_seconds
    )?;
    if f.workspaces.is_empty() {
        return writeln!(out, "No Azure Machine Learning workspace in scope.\n");
    }
    writeln!(
        out,
        "| workspace | group | errors | warnings | resources | failing rules |\n|---|---|---:|---:|---:|---|"
    )?;
    for w in &f.workspaces {
        writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} |",
            super::markdown_escape::cell(&w.workspace),
            super::markdown_escape::cell(&w.group),
            w.errors,
            w.warnings,
            w.resources,
            super::markdown_escape::cell(&w.error_rules.join(", "))
        )?;
    }
    writeln!(out)
}
