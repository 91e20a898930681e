//! The gate of a findings command, from its flags and the project file: suppressions
//! (`--ignore`, `.amldoctor.yaml`), the baseline (read, or written with
//! `--write-baseline`), `--fail-on`, and today's date for expiry.

use crate::cli::ReportArgs;
use crate::context::Context;
use crate::error::{Error, Result};
use crate::finding::Finding;
use crate::gate::{BaselineFile, Gate, Suppression};
use crate::rules::RuleSet;
use crate::source;

use super::support::unknown_rule;

/// Suppressions from flags and the project file, the baseline, the threshold.
pub(crate) fn build(
    ctx: &Context,
    set: &RuleSet,
    args: &ReportArgs,
    findings: &[Finding],
) -> Result<Gate> {
    let mut suppressions: Vec<Suppression> = Vec::new();
    for id in &args.ignore {
        if set.get(id).is_none() {
            return Err(unknown_rule(set, id, "--ignore"));
        }
        suppressions.push(Suppression {
            rule: id.clone(),
            reason: "ignored with --ignore".to_owned(),
            expires: None,
            path: None,
            source: "--ignore".to_owned(),
        });
    }
    for s in &ctx.suppressions {
        if set.get(&s.rule).is_none() {
            return Err(unknown_rule(set, &s.rule, &format!("{}.rule", s.source)));
        }
        suppressions.push(s.clone());
    }
    let baseline = match (&args.write_baseline, &args.baseline) {
        (Some(path), _) => {
            let file = BaselineFile::from_findings(findings);
            source::local::write_file(path, &json_text(&file)?)?;
            Some(file)
        }
        (None, Some(path)) => {
            let loaded = source::local::read_config_file(path, false)?
                .ok_or_else(|| Error::input(format!("cannot read {}", path.display())))?;
            Some(
                BaselineFile::parse(&loaded.text)
                    .map_err(|e| Error::input(format!("{}: {e}", path.display())))?,
            )
        }
        (None, None) => None,
    };
    Ok(Gate {
        fail_on: args.fail_on,
        suppressions,
        baseline,
        today: today(ctx),
        base: source::local::current_dir().ok(),
    })
}

/// Today (UTC) as `YYYYMMDD`, for suppression expiry. `AMLDOCTOR_TODAY` (`YYYY-MM-DD`)
/// overrides it so runs can be reproduced.
fn today(ctx: &Context) -> u32 {
    ctx.overrides
        .today
        .as_deref()
        .and_then(crate::rules::compare::parse_date)
        .unwrap_or_else(|| crate::gate::yyyymmdd_from_unix(source::local::now_unix()))
}

fn json_text<T: serde::Serialize>(value: &T) -> Result<Vec<u8>> {
    let mut buf = serde_json::to_vec_pretty(value)
        .map_err(|e| Error::input(format!("cannot encode the baseline: {e}")))?;
    buf.push(b'\n');
    Ok(buf)
}
