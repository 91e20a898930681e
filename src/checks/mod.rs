//! Checks that need code rather than patterns. Configuration checks do arithmetic over
//! several settings, which field tests cannot express: probe timings that defeat each
//! other, a request timeout over the service's limit, too few instances for a request
//! rate. `unrecognised` notices a log that fails without any rule explaining it, and
//! `diagnosis` turns Azure's own workspace diagnosis into findings. Pure: evidence in,
//! findings out, each under a rule id whose YAML file says `computed: true` and carries
//! the text, fix and commands.

pub(crate) mod cause_category;
pub(crate) mod deployment;
pub(crate) mod diagnosis;
pub(crate) mod dns;
pub(crate) mod kubernetes_resources;
pub(crate) mod service_errors;
pub(crate) mod unrecognised;

use crate::evidence::resource::Resource;
use crate::finding::Computed;
use crate::ratio::Ratio;

/// What the user told `check` beyond the resources (`--rps`, `--latency`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct CheckOptions {
    /// Requests per second the deployment must serve.
    pub rps: Option<Ratio>,
    /// Seconds one request takes.
    pub latency_seconds: Option<Ratio>,
    /// The time of the run (Unix seconds), for "how long has it been in this state".
    pub now_unix: Option<i64>,
}

/// One computed check: its rule id and the code that decides it for one resource.
pub(crate) struct ComputedCheck {
    pub rule_id: &'static str,
    pub compute: fn(&Resource, &CheckOptions) -> Option<Computed>,
}

impl std::fmt::Debug for ComputedCheck {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.rule_id)
    }
}

/// Every computed check; each id is written here once.
pub(crate) const REGISTRY: &[ComputedCheck] = &[
    ComputedCheck {
        rule_id: "deployment-request-timeout-over-limit",
        compute: deployment::request_timeout_over_limit,
    },
    ComputedCheck {
        rule_id: "deployment-probe-timeout-not-below-period",
        compute: deployment::probe_timeout_not_below_period,
    },
    ComputedCheck {
        rule_id: "deployment-liveness-gives-up-before-readiness",
        compute: deployment::liveness_gives_up_before_readiness,
    },
    ComputedCheck {
        rule_id: "deployment-instances-below-rps",
        compute: deployment::instances_below_rps,
    },
    ComputedCheck {
        rule_id: "deployment-provisioning-stuck",
        compute: deployment::provisioning_stuck,
    },
    ComputedCheck {
        rule_id: kubernetes_resources::RULE_ID,
        compute: kubernetes_resources::requests_over_limits,
    },
];

/// Runs every computed check whose rule is selected over every resource.
pub(crate) fn run(
    resources: &[Resource],
    options: &CheckOptions,
    selected: &dyn Fn(&str) -> bool,
) -> Vec<Computed> {
    let mut out = Vec::new();
    for check in REGISTRY.iter().filter(|c| selected(c.rule_id)) {
        out.extend(resources.iter().filter_map(|r| (check.compute)(r, options)));
    }
    out
}
