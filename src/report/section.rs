//! The parts of a report that only some runs have: a ParallelRunStep summary per tree,
//! a scoring probe, a fleet, a Log Analytics query, DNS answers, suggested edits. A
//! report holds them as a list in one fixed order, so writers meet them as a reader
//! expects (the summaries above the findings) whichever analyser added them first.

use std::io::{self, Write};

use crate::evidence::dns::DnsObservation;
use crate::lint::fix::FixSuggestions;
use crate::prs::summary::PrsSummary;
use crate::rehearsal::summary::RehearsalSummary;
use crate::scoring::summary::ScoreSummary;

use super::Detail;
use super::fleet::FleetSummary;
use super::style::Style;
use crate::evidence::log_analytics::LogAnalyticsSummary;

/// One section of a report.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum Section {
    /// One ParallelRunStep log tree's job summary.
    Prs(Box<PrsSummary>),
    /// `score`: the probe's requests, latency and the meaning of each error status.
    Score(Box<ScoreSummary>),
    /// `rehearse`: the local run's start-up, requests or mini-batches.
    Rehearsal(Box<RehearsalSummary>),
    /// `check --fleet`: the Resource Graph query and the workspaces, worst first.
    Fleet(Box<FleetSummary>),
    /// `diagnose --log-analytics`: the query and the lines read per group and hour.
    LogAnalytics(Box<LogAnalyticsSummary>),
    /// What each DNS server answered for each host checked.
    Dns(Vec<DnsObservation>),
    /// `lint --fix-suggestions`: the edited lines of each file.
    FixSuggestions(FixSuggestions),
}

impl Section {
    /// Where the section stands among the others (writers print them in this order).
    fn rank(&self) -> u8 {
        match self {
            Section::Rehearsal(_) => 0,
            Section::Prs(_) => 1,
            Section::Score(_) => 2,
            Section::Fleet(_) => 3,
            Section::LogAnalytics(_) => 4,
            Section::Dns(_) => 5,
            Section::FixSuggestions(_) => 6,
        }
    }

    /// The summaries printed above the findings in table output.
    pub fn write_table_head(
        &self,
        out: &mut dyn Write,
        style: Style,
        detail: Detail,
    ) -> io::Result<()> {
        match self {
            Section::Prs(p) => super::prs_table::write(out, p, style),
            Section::Score(s) => super::score_table::write(out, s, style, detail),
            Section::Rehearsal(r) => super::rehearsal_table::write(out, r, style),
            Section::Fleet(f) => super::fleet::write_table(out, f, style),
            Section::LogAnalytics(l) => super::log_analytics::write_table(out, l, style),
            Section::Dns(_) | Section::FixSuggestions(_) => Ok(()),
        }
    }

    /// The summaries printed above the findings in markdown.
    pub fn write_markdown_head(&self, out: &mut dyn Write) -> io::Result<()> {
        match self {
            Section::Prs(p) => super::prs_table::write_markdown(out, p),
            Section::Score(s) => super::score_table::write_markdown(out, s),
            Section::Rehearsal(r) => super::rehearsal_table::write_markdown(out, r),
            Section::Fleet(f) => super::fleet::write_markdown(out, f),
            Section::LogAnalytics(l) => super::log_analytics::write_markdown(out, l),
            Section::Dns(_) | Section::FixSuggestions(_) => Ok(()),
        }
    }
}

/// A report's sections, kept in [`Section::rank`] order.
#[derive(Debug, Clone, Default)]
pub struct Sections(Vec<Section>);

impl Sections {
    /// Shows every path the sections hold through `show` (a live run's temporary
    /// folder by what was read there).
    pub(crate) fn relabel(&mut self, show: &dyn Fn(&str) -> String) {
        for s in &mut self.0 {
            match s {
                Section::Prs(p) => p.relabel(show),
                Section::Rehearsal(r) => r.relabel(show),
                Section::LogAnalytics(l) => {
                    for g in &mut l.groups {
                        g.path = show(&g.path);
                    }
                }
                Section::Score(_)
                | Section::Fleet(_)
                | Section::Dns(_)
                | Section::FixSuggestions(_) => {}
            }
        }
    }

    /// Adds a section after the others of its kind.
    pub fn push(&mut self, s: Section) {
        let at = self.0.partition_point(|t| t.rank() <= s.rank());
        self.0.insert(at, s);
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Section> {
        self.0.iter()
    }

    pub fn prs(&self) -> impl Iterator<Item = &PrsSummary> {
        self.0.iter().filter_map(|s| match s {
            Section::Prs(p) => Some(p.as_ref()),
            _ => None,
        })
    }

    pub fn rehearsal(&self) -> Option<&RehearsalSummary> {
        self.0.iter().find_map(|s| match s {
            Section::Rehearsal(x) => Some(x.as_ref()),
            _ => None,
        })
    }

    pub fn score(&self) -> Option<&ScoreSummary> {
        self.0.iter().find_map(|s| match s {
            Section::Score(x) => Some(x.as_ref()),
            _ => None,
        })
    }

    pub fn fleet(&self) -> Option<&FleetSummary> {
        self.0.iter().find_map(|s| match s {
            Section::Fleet(x) => Some(x.as_ref()),
            _ => None,
        })
    }

    pub fn log_analytics(&self) -> Option<&LogAnalyticsSummary> {
        self.0.iter().find_map(|s| match s {
            Section::LogAnalytics(x) => Some(x.as_ref()),
            _ => None,
        })
    }

    pub fn log_analytics_mut(&mut self) -> Option<&mut LogAnalyticsSummary> {
        self.0.iter_mut().find_map(|s| match s {
            Section::LogAnalytics(x) => Some(x.as_mut()),
            _ => None,
        })
    }

    /// Every DNS answer judged.
    pub fn dns(&self) -> &[DnsObservation] {
        self.0
            .iter()
            .find_map(|s| match s {
                Section::Dns(x) => Some(x.as_slice()),
                _ => None,
            })
            .unwrap_or(&[])
    }

    pub fn fix_suggestions(&self) -> Option<&FixSuggestions> {
        self.0.iter().find_map(|s| match s {
            Section::FixSuggestions(x) => Some(x),
            _ => None,
        })
    }

    pub fn fix_suggestions_mut(&mut self) -> Option<&mut FixSuggestions> {
        self.0.iter_mut().find_map(|s| match s {
            Section::FixSuggestions(x) => Some(x),
            _ => None,
        })
    }
}
