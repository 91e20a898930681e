//! Which rules a run applies, as a value handed to the engine and the analysers. The
//! rule set itself is never changed: `check keyvault` and `lint` select from the same
//! catalogue `diagnose` uses.

use crate::evidence::resource::{LINTED_ONLY, ResourceKind};
use crate::rules::Rule;
use crate::rules::resource::CheckArea;

/// The kinds of resource `lint` makes of the files it reads.
pub(crate) const LINTED: u16 =
    ResourceKind::OnlineDeployment.bit() | ResourceKind::OnlineEndpoint.bit() | LINTED_ONLY;

/// The id of the one rule that needs a request rate to mean anything.
const NEEDS_RPS: &str = "deployment-instances-below-rps";

/// What a run reads and which resource rules it applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Selection {
    /// `diagnose`: every rule over logs and over resources.
    Everything,
    /// `check AREA` (`None` for all areas): the resource rules of the area only.
    Check(Option<CheckArea>),
    /// `lint`: the rules over deployment specs, environments and jobs.
    Lint,
    /// `score`: the scoring probe's computed rules only.
    Scoring,
}

impl Selection {
    /// Whether the rule's field tests and computed checks over resources run.
    pub(crate) fn resource_rule(self, rule: &Rule) -> bool {
        if rule.resource_kinds == 0 {
            return false;
        }
        match self {
            Selection::Everything => true,
            // Rules without an area read files `lint` makes resources of, not Azure's.
            Selection::Check(area) => {
                rule.check.is_some() && area.is_none_or(|a| rule.check == Some(a))
            }
            Selection::Lint => rule.resource_kinds & LINTED != 0,
            Selection::Scoring => false,
        }
    }

    /// Whether the rule counts as applied in the report (JUnit lists the ones that
    /// passed): `rps` says a request rate was given, `judged_dns` that DNS answers were
    /// judged.
    pub(crate) fn applied(self, rule: &Rule, rps: bool, judged_dns: bool) -> bool {
        match self {
            Selection::Everything => true,
            // The instance check runs only with --rps: without it, it neither passes
            // nor fails.
            Selection::Check(_) => {
                (self.resource_rule(rule) && (rps || rule.id != NEEDS_RPS))
                    || (judged_dns && rule.check == Some(CheckArea::Dns))
            }
            Selection::Lint => self.resource_rule(rule),
            Selection::Scoring => crate::scoring::COMPUTED_RULES.contains(&rule.id.as_str()),
        }
    }
}
