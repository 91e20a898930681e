//! Instance sizing for online deployments: the troubleshooting article's formula and
//! the 429 ceiling the service enforces.
//!
//! ```text
//! concurrent_requests = rps × request_time / target_utilization
//! instances           = ceil(concurrent_requests / max_concurrent_requests_per_instance)
//! pending ceiling     = 2 × max_concurrent_requests_per_instance × instances
//! ```
//!
//! Everything is computed with exact [`Ratio`]s; see `ratio.rs` for why.

pub(crate) mod deployment;
pub(crate) mod quantity;

use serde::Serialize;

use crate::ratio::{Overflow, Ratio};
use crate::setting::Setting;

/// The article's example: 20 rps at 10 s per request, 1 concurrent request, 70 %.
pub(crate) const DEFAULT_REQUEST_TIME_SECONDS: u128 = 10;
pub(crate) const DEFAULT_MAX_CONCURRENT: u64 = 1;
/// 70 % — the autoscaler's default target and the article's example.
pub(crate) const DEFAULT_UTILIZATION_PERCENT: u128 = 70;
/// `request_settings.request_timeout_ms` when a deployment does not set it.
pub(crate) const DEFAULT_REQUEST_TIMEOUT_MS: u64 = 5_000;
/// The largest `request_timeout_ms` managed online endpoints accept.
pub(crate) const MAX_REQUEST_TIMEOUT_MS: u64 = 180_000;
/// Instances a managed online deployment may have before an endpoint limit increase
/// (how-to-manage-quotas, "Azure Machine Learning online endpoints").
pub(crate) const DEPLOYMENT_INSTANCE_LIMIT: u64 = 50;
/// Deployments an endpoint may have before a limit increase (same table).
pub(crate) const ENDPOINT_DEPLOYMENT_LIMIT: u64 = 20;
/// Requests per second a managed online endpoint takes across all its deployments
/// before a limit increase (same table).
pub(crate) const ENDPOINT_RPS_LIMIT: u128 = 500;

/// Everything the formula needs, each value with its origin.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct CapacityInputs {
    /// Target requests per second.
    pub rps: Setting<Ratio>,
    /// Time to process one request, in seconds.
    pub request_time_seconds: Setting<Ratio>,
    pub max_concurrent_requests_per_instance: Setting<u64>,
    /// Target utilization as a fraction in (0, 1].
    pub target_utilization: Setting<Ratio>,
    /// An existing instance count to evaluate.
    pub instance_count: Option<Setting<u64>>,
    /// `request_settings.request_timeout_ms` of the deployment, when known.
    pub request_timeout_ms: Option<Setting<u64>>,
    /// `scale_settings.max_instances` of a target-utilization autoscaler, when known.
    pub autoscale_max_instances: Option<Setting<u64>>,
}

/// The result for a given instance count.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct Evaluation {
    pub instances: u64,
    /// Requests per second these instances sustain at the target utilization.
    pub sustained_rps: Ratio,
    /// Whether `sustained_rps` reaches the requested rps.
    pub meets_target: bool,
    /// Utilization the instances would run at under the requested rps (may exceed 1).
    pub utilization_at_target_rps: Ratio,
    /// At most this many requests may be pending before the service answers 429.
    pub pending_request_ceiling: u128,
}

/// A problem with the inputs that makes the sizing moot or insufficient.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct Warning {
    /// Stable kebab-case code.
    pub code: &'static str,
    pub message: String,
}

/// What the request time means for the request timeout.
struct TimeoutCheck {
    warning: Option<Warning>,
    needed_ms: Option<u64>,
    over_maximum: bool,
}

/// Compares the request time with the deployment's request timeout, or the platform
/// default when no deployment was read: longer requests fail with 408 whatever the
/// instance count, and beyond the platform maximum no setting lets them succeed.
fn timeout_check(inputs: &CapacityInputs) -> Result<TimeoutCheck, Overflow> {
    let time = inputs.request_time_seconds.value;
    let ms = |v: u64| Ratio::new(u128::from(v), 1000).ok_or(Overflow);
    let (timeout, origin) = match &inputs.request_timeout_ms {
        Some(t) => (t.value, t.origin.to_string()),
        None => (
            DEFAULT_REQUEST_TIMEOUT_MS,
            "the platform default; no deployment was read".to_owned(),
        ),
    };
    let took = time.to_decimal_string(3);
    if time > ms(MAX_REQUEST_TIMEOUT_MS)? {
        return Ok(TimeoutCheck {
            warning: Some(Warning {
                code: "request-time-over-platform-maximum",
                message: format!(
                    "requests take {took} s, longer than the {} s request timeout managed online endpoints allow at most: no instance count or setting makes them succeed; make scoring faster or move the work to a batch endpoint",
                    MAX_REQUEST_TIMEOUT_MS / 1000
                ),
            }),
            needed_ms: None,
            over_maximum: true,
        });
    }
    if time <= ms(timeout)? {
        return Ok(TimeoutCheck {
            warning: None,
            needed_ms: None,
            over_maximum: false,
        });
    }
    // A quarter of headroom over the request time, in whole seconds, within the maximum.
    let wanted = time
        .checked_mul(Ratio::from_int(1250))?
        .ceil()
        .div_ceil(1000)
        .saturating_mul(1000);
    let needed = u64::try_from(wanted)
        .unwrap_or(MAX_REQUEST_TIMEOUT_MS)
        .min(MAX_REQUEST_TIMEOUT_MS);
    Ok(TimeoutCheck {
        warning: Some(Warning {
            code: "request-timeout-exceeded",
            message: format!(
                "requests take {took} s but the request timeout is {timeout} ms ({origin}): they fail with 408 Request Timeout whatever the instance count; the command below also sets request_settings.request_timeout_ms={needed}"
            ),
        }),
        needed_ms: Some(needed),
        over_maximum: false,
    })
}

/// The finished sizing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct CapacityPlan {
    pub inputs: CapacityInputs,
    pub concurrent_requests: Ratio,
    pub instances_required: u64,
    /// The 429 ceiling at `instances_required`.
    pub pending_request_ceiling: u128,
    /// Present when an instance count was given to evaluate.
    pub evaluation: Option<Evaluation>,
    pub warnings: Vec<Warning>,
    /// A `request_timeout_ms` long enough for the request time, when the current one
    /// (or the platform default) is shorter and one up to the maximum would do.
    pub request_timeout_needed_ms: Option<u64>,
    /// Requests take longer than any timeout the platform accepts: no setting helps.
    pub over_platform_maximum: bool,
}

impl CapacityPlan {
    /// Applies the formula. Fails only when numbers overflow 128-bit exact arithmetic.
    pub(crate) fn compute(inputs: CapacityInputs) -> Result<CapacityPlan, Overflow> {
        let max_concurrent = u128::from(inputs.max_concurrent_requests_per_instance.value);
        let concurrent = inputs
            .rps
            .value
            .checked_mul(inputs.request_time_seconds.value)?
            .checked_div(inputs.target_utilization.value)?;
        let required = concurrent
            .checked_div(Ratio::from_int(max_concurrent))?
            .ceil();
        let instances_required = u64::try_from(required).map_err(|_| Overflow)?;
        let pending_request_ceiling = ceiling(max_concurrent, required)?;

        let evaluation = match &inputs.instance_count {
            Some(count) => Some(evaluate(&inputs, count.value)?),
            None => None,
        };

        let mut warnings = Vec::new();
        let timeouts = timeout_check(&inputs)?;
        warnings.extend(timeouts.warning);
        if let Some(max) = &inputs.autoscale_max_instances
            && max.value < instances_required
        {
            warnings.push(Warning {
                code: "autoscale-max-below-required",
                message: format!(
                    "the autoscaler may add replicas only up to max_instances {} ({}), below the {} required: raise scale_settings.max_instances",
                    max.value, max.origin, instances_required
                ),
            });
        }

        warnings.extend(limit_warnings(&inputs, instances_required));

        Ok(CapacityPlan {
            inputs,
            concurrent_requests: concurrent,
            instances_required,
            pending_request_ceiling,
            evaluation,
            warnings,
            request_timeout_needed_ms: timeouts.needed_ms,
            over_platform_maximum: timeouts.over_maximum,
        })
    }

    /// Names of inputs that fell back to a default, for "which inputs were defaulted".
    pub(crate) fn defaulted_inputs(&self) -> Vec<&'static str> {
        let i = &self.inputs;
        let mut names = Vec::new();
        if i.request_time_seconds.origin.is_default() {
            names.push("--latency");
        }
        if i.max_concurrent_requests_per_instance.origin.is_default() {
            names.push("--max-concurrent");
        }
        if i.target_utilization.origin.is_default() {
            names.push("--utilization");
        }
        names
    }
}

/// A result past the service's default limits is no plan a user can apply as it
/// stands: say so, with the way round each limit.
fn limit_warnings(inputs: &CapacityInputs, instances: u64) -> Vec<Warning> {
    let mut warnings = Vec::new();
    if inputs.rps.value > Ratio::from_int(ENDPOINT_RPS_LIMIT) {
        warnings.push(Warning {
            code: "rps-over-endpoint-limit",
            message: format!(
                "{} requests/s is over the {ENDPOINT_RPS_LIMIT} requests/s a managed online endpoint takes by default across all its deployments: above it requests are rate-limited with 429 whatever the instance count; request an endpoint limit increase (support request, Machine Learning Service: Endpoint Limits) or spread the load over several endpoints",
                inputs.rps.value.to_readable_string()
            ),
        });
    }
    if instances > DEPLOYMENT_INSTANCE_LIMIT {
        let endpoints = instances.div_ceil(DEPLOYMENT_INSTANCE_LIMIT * ENDPOINT_DEPLOYMENT_LIMIT);
        let beyond = if endpoints > 1 {
            format!(
                "; that is more than the {ENDPOINT_DEPLOYMENT_LIMIT} deployments of one endpoint can hold, so it needs at least {endpoints} endpoints"
            )
        } else {
            String::new()
        };
        warnings.push(Warning {
            code: "instances-over-deployment-limit",
            message: format!(
                "{instances} instances is more than the {DEPLOYMENT_INSTANCE_LIMIT} a managed online deployment may have by default (and the VM quota must cover 20 % more for upgrades){beyond}: check the request time and --max-concurrent first, then split the traffic across deployments or request an endpoint limit increase"
            ),
        });
    }
    warnings
}

fn ceiling(max_concurrent: u128, instances: u128) -> Result<u128, Overflow> {
    2u128
        .checked_mul(max_concurrent)
        .and_then(|v| v.checked_mul(instances))
        .ok_or(Overflow)
}

fn evaluate(inputs: &CapacityInputs, instances: u64) -> Result<Evaluation, Overflow> {
    let max_concurrent = u128::from(inputs.max_concurrent_requests_per_instance.value);
    let slots =
        Ratio::from_int(u128::from(instances)).checked_mul(Ratio::from_int(max_concurrent))?;
    // Inverse of the formula: rps = instances × max_concurrent × utilization / request_time.
    let sustained_rps = slots
        .checked_mul(inputs.target_utilization.value)?
        .checked_div(inputs.request_time_seconds.value)?;
    let utilization_at_target_rps = inputs
        .rps
        .value
        .checked_mul(inputs.request_time_seconds.value)?
        .checked_div(slots)?;
    Ok(Evaluation {
        instances,
        meets_target: sustained_rps >= inputs.rps.value,
        sustained_rps,
        utilization_at_target_rps,
        pending_request_ceiling: ceiling(max_concurrent, u128::from(instances))?,
    })
}

impl Serialize for Ratio {
    /// Whole numbers as JSON integers, others as the nearest decimal with 6 places.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if self.is_integer()
            && let Ok(n) = u64::try_from(self.numer())
        {
            return serializer.serialize_u64(n);
        }
        let rounded: f64 = self
            .to_decimal_string(6)
            .parse()
            .unwrap_or_else(|_| self.to_f64());
        serializer.serialize_f64(rounded)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::setting::ValueSource;

    fn dec(s: &str) -> Ratio {
        Ratio::parse_decimal(s).unwrap()
    }

    fn inputs(rps: &str, seconds: &str, max: u64, util: &str) -> CapacityInputs {
        CapacityInputs {
            rps: Setting::new(dec(rps), ValueSource::Flag("--rps")),
            request_time_seconds: Setting::new(dec(seconds), ValueSource::Flag("--latency")),
            max_concurrent_requests_per_instance: Setting::new(
                max,
                ValueSource::Flag("--max-concurrent"),
            ),
            target_utilization: Setting::new(dec(util), ValueSource::Flag("--utilization")),
            instance_count: None,
            request_timeout_ms: None,
            autoscale_max_instances: None,
        }
    }

    #[test]
    fn article_example_is_286() {
        let plan = CapacityPlan::compute(inputs("20", "10", 1, "0.7")).unwrap();
        assert_eq!(plan.concurrent_requests, Ratio::new(2000, 7).unwrap());
        assert_eq!(plan.instances_required, 286);
        assert_eq!(plan.pending_request_ceiling, 572);
        assert!(plan.evaluation.is_none());
        // 10 s requests outlast the platform's default 5 s request timeout, and 286
        // instances are more than one deployment may have by default.
        let codes: Vec<_> = plan.warnings.iter().map(|w| w.code).collect();
        assert_eq!(
            codes,
            [
                "request-timeout-exceeded",
                "instances-over-deployment-limit"
            ]
        );
    }

    #[test]
    // The float formula is what the exact arithmetic is checked against.
    #[allow(
        clippy::cast_precision_loss,
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss
    )]
    fn whole_results_are_not_rounded_up() {
        // Each of these is a whole number mathematically but not in f64.
        let cases = [
            ("2.1", "10", 1, "0.7", 30),
            ("2.1", "1", 1, "0.3", 7),
            ("2.1", "3", 1, "0.9", 7),
            ("3", "0.1", 1, "0.3", 1),
            ("3", "0.2", 1, "0.6", 1),
            ("4.2", "10", 2, "0.7", 30),
            ("7", "1", 1, "0.7", 10),
        ];
        for (rps, secs, max, util, want) in cases {
            let float = (rps.parse::<f64>().unwrap() * secs.parse::<f64>().unwrap()
                / util.parse::<f64>().unwrap()
                / max as f64)
                .ceil() as u64;
            let plan = CapacityPlan::compute(inputs(rps, secs, max, util)).unwrap();
            assert_eq!(
                plan.instances_required, want,
                "{rps} {secs} {max} {util} (f64 says {float})"
            );
        }
        // These really do go wrong in f64.
        assert_eq!((2.1_f64 * 10.0 / 0.7).ceil(), 31.0);
        assert_eq!((3.0_f64 * 0.1 / 0.3).ceil(), 2.0);
    }

    #[test]
    fn max_concurrent_divides() {
        let plan = CapacityPlan::compute(inputs("20", "10", 4, "0.7")).unwrap();
        assert_eq!(plan.instances_required, 72); // ceil(285.71 / 4)
        assert_eq!(plan.pending_request_ceiling, 2 * 4 * 72);
    }

    #[test]
    fn evaluating_an_existing_count() {
        let mut i = inputs("20", "10", 1, "0.7");
        i.instance_count = Some(Setting::new(3, ValueSource::Flag("--instances")));
        let plan = CapacityPlan::compute(i).unwrap();
        let e = plan.evaluation.unwrap();
        assert_eq!(e.instances, 3);
        assert_eq!(e.sustained_rps, Ratio::new(21, 100).unwrap()); // 3 × 1 × 0.7 / 10
        assert!(!e.meets_target);
        assert_eq!(e.utilization_at_target_rps, Ratio::new(200, 3).unwrap());
        assert_eq!(e.pending_request_ceiling, 6);

        // Exactly enough: 286 instances sustain 20.02 rps; 285 sustain 19.95.
        for (n, meets) in [(286, true), (285, false)] {
            let mut i = inputs("20", "10", 1, "0.7");
            i.instance_count = Some(Setting::new(n, ValueSource::Flag("--instances")));
            let e = CapacityPlan::compute(i).unwrap().evaluation.unwrap();
            assert_eq!(e.meets_target, meets, "{n}");
        }
        // A whole match counts as meeting the target: 10 instances at 7 rps, 1 s, 70 %.
        let mut i = inputs("7", "1", 1, "0.7");
        i.instance_count = Some(Setting::new(10, ValueSource::Flag("--instances")));
        let e = CapacityPlan::compute(i).unwrap().evaluation.unwrap();
        assert_eq!(e.sustained_rps, Ratio::from_int(7));
        assert!(e.meets_target);
    }

    #[test]
    fn limits_of_a_managed_endpoint() {
        let codes = |rps: &str, time: &str| -> Vec<&'static str> {
            CapacityPlan::compute(inputs(rps, time, 1, "0.7"))
                .unwrap()
                .warnings
                .iter()
                .map(|w| w.code)
                .collect()
        };
        // 35 × 1 s / 0.7 = 50 instances: at the limit, not over it.
        assert!(codes("35", "1").is_empty());
        assert_eq!(codes("36", "1"), ["instances-over-deployment-limit"]);
        assert_eq!(
            codes("501", "0.01"),
            ["rps-over-endpoint-limit"],
            "501 requests/s of 10 ms need 8 instances"
        );
        let plan = CapacityPlan::compute(inputs("1000", "1", 1, "0.7")).unwrap();
        assert!(plan.warnings[1].message.contains("at least 2 endpoints"));
    }

    #[test]
    fn timeout_and_autoscale_warnings() {
        let mut i = inputs("20", "10", 1, "0.7");
        i.request_timeout_ms = Some(Setting::new(5000, ValueSource::Default));
        i.autoscale_max_instances = Some(Setting::new(3, ValueSource::Default));
        let plan = CapacityPlan::compute(i).unwrap();
        let codes: Vec<_> = plan.warnings.iter().map(|w| w.code).collect();
        assert_eq!(
            codes,
            [
                "request-timeout-exceeded",
                "autoscale-max-below-required",
                "instances-over-deployment-limit"
            ]
        );
        assert!(plan.warnings[0].message.contains("408"));
        assert_eq!(plan.request_timeout_needed_ms, Some(13_000));

        let mut i = inputs("2", "5", 1, "0.7");
        i.request_timeout_ms = Some(Setting::new(5000, ValueSource::Default));
        assert!(
            CapacityPlan::compute(i).unwrap().warnings.is_empty(),
            "equal is not over"
        );
    }

    #[test]
    fn request_times_against_the_default_and_the_maximum_timeout() {
        // No deployment read: the platform default of 5 s applies.
        let plan = CapacityPlan::compute(inputs("20", "6", 1, "0.7")).unwrap();
        assert_eq!(plan.warnings[0].code, "request-timeout-exceeded");
        assert!(plan.warnings[0].message.contains("platform default"));
        assert_eq!(plan.request_timeout_needed_ms, Some(8_000));
        let plan = CapacityPlan::compute(inputs("2", "4", 1, "0.7")).unwrap();
        assert!(plan.warnings.is_empty() && plan.request_timeout_needed_ms.is_none());
        // Close to the maximum, the setting stops at it.
        let plan = CapacityPlan::compute(inputs("1", "170", 1, "0.7")).unwrap();
        assert_eq!(plan.request_timeout_needed_ms, Some(MAX_REQUEST_TIMEOUT_MS));
        let plan = CapacityPlan::compute(inputs("1", "181", 1, "0.7")).unwrap();
        assert!(plan.over_platform_maximum);
        assert_eq!(plan.warnings[0].code, "request-time-over-platform-maximum");
    }

    #[test]
    fn defaulted_inputs_are_listed() {
        let mut i = inputs("20", "10", 1, "0.7");
        i.target_utilization.origin = ValueSource::Default;
        let plan = CapacityPlan::compute(i).unwrap();
        assert_eq!(plan.defaulted_inputs(), ["--utilization"]);
    }

    #[test]
    fn overflow_is_an_error_not_a_panic() {
        let i = inputs(&"9".repeat(30), &"9".repeat(30), 1, "0.000001");
        assert_eq!(CapacityPlan::compute(i), Err(Overflow));
    }
}
