//! Online deployment settings, read from either shape (ARM: ISO 8601 durations under
//! `properties`; `az ml online-deployment show`: milliseconds and seconds as integers),
//! and the checks over them.

use serde_json::Value;

use super::CheckOptions;
use crate::capacity::quantity::parse_duration;
use crate::capacity::{CapacityInputs, CapacityPlan};
use crate::evidence::resource::{Resource, ResourceKind, Shape};
use crate::finding::{Computed, Edit, Evidence, Location};
use crate::ratio::Ratio;
use crate::setting::{Setting, ValueSource};

/// The largest request timeout managed online endpoints accept, in milliseconds.
pub(crate) const MAX_REQUEST_TIMEOUT_MS: u64 = 180_000;

/// A number read from the resource, with where it stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Read<T> {
    pub value: T,
    pub pointer: String,
}

/// A liveness or readiness probe, in whole seconds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ProbeSettings {
    pub initial_delay: Option<Read<u64>>,
    pub period: Option<Read<u64>>,
    pub timeout: Option<Read<u64>>,
    pub failure_threshold: Option<Read<u64>>,
}

/// The settings the checks need.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Settings {
    pub request_timeout_ms: Option<Read<u64>>,
    pub max_concurrent: Option<Read<u64>>,
    pub instance_count: Option<Read<u64>>,
    /// The autoscaler's ceiling, when scaling is by target utilization.
    pub max_instances: Option<Read<u64>>,
    /// The autoscaler's target utilization, in percent.
    pub target_utilization_percent: Option<Read<u64>>,
    pub liveness: Option<ProbeSettings>,
    pub readiness: Option<ProbeSettings>,
}

fn at<'v>(root: &'v Value, pointer: &str) -> Option<&'v Value> {
    root.pointer(pointer).filter(|v| !v.is_null())
}

fn int(root: &Value, pointer: &str) -> Option<Read<u64>> {
    let v = at(root, pointer)?;
    let value = v
        .as_u64()
        .or_else(|| v.as_str().and_then(|s| s.trim().parse().ok()))?;
    Some(Read {
        value,
        pointer: pointer.to_owned(),
    })
}

/// An ISO 8601 duration (`PT1M30S`) in whole `unit`s of a second (1000 for ms).
fn iso(root: &Value, pointer: &str, per_second: u128) -> Option<Read<u64>> {
    let seconds = parse_duration(at(root, pointer)?.as_str()?).ok()?;
    let value = seconds
        .checked_mul(Ratio::from_int(per_second))
        .ok()?
        .floor();
    Some(Read {
        value: u64::try_from(value).ok()?,
        pointer: pointer.to_owned(),
    })
}

fn probe(root: &Value, base: &str, arm: bool) -> Option<ProbeSettings> {
    at(root, base)?;
    let seconds = |arm_key: &str, cli_key: &str| {
        if arm {
            iso(root, &format!("{base}/{arm_key}"), 1)
        } else {
            int(root, &format!("{base}/{cli_key}"))
        }
    };
    let threshold = if arm {
        "failureThreshold"
    } else {
        "failure_threshold"
    };
    Some(ProbeSettings {
        initial_delay: seconds("initialDelay", "initial_delay"),
        period: seconds("period", "period"),
        timeout: seconds("timeout", "timeout"),
        failure_threshold: int(root, &format!("{base}/{threshold}")),
    })
}

/// Whether the scale type at `pointer` is target utilization (autoscale).
fn autoscaled(root: &Value, pointer: &str) -> bool {
    at(root, pointer)
        .and_then(Value::as_str)
        .is_some_and(|t| crate::engine::resource::enum_form(t) == "targetutilization")
}

impl Settings {
    /// Reads an online deployment in either shape.
    pub(crate) fn read(r: &Resource) -> Settings {
        let j = &r.json;
        if r.shape == Shape::Arm {
            Settings {
                request_timeout_ms: iso(j, "/properties/requestSettings/requestTimeout", 1000),
                max_concurrent: int(
                    j,
                    "/properties/requestSettings/maxConcurrentRequestsPerInstance",
                ),
                instance_count: int(j, "/sku/capacity"),
                max_instances: autoscaled(j, "/properties/scaleSettings/scaleType")
                    .then(|| int(j, "/properties/scaleSettings/maxInstances"))
                    .flatten(),
                target_utilization_percent: autoscaled(j, "/properties/scaleSettings/scaleType")
                    .then(|| int(j, "/properties/scaleSettings/targetUtilizationPercentage"))
                    .flatten(),
                liveness: probe(j, "/properties/livenessProbe", true),
                readiness: probe(j, "/properties/readinessProbe", true),
            }
        } else {
            Settings {
                request_timeout_ms: int(j, "/request_settings/request_timeout_ms"),
                max_concurrent: int(j, "/request_settings/max_concurrent_requests_per_instance"),
                instance_count: int(j, "/instance_count"),
                max_instances: autoscaled(j, "/scale_settings/type")
                    .then(|| int(j, "/scale_settings/max_instances"))
                    .flatten(),
                target_utilization_percent: autoscaled(j, "/scale_settings/type")
                    .then(|| int(j, "/scale_settings/target_utilization_percentage"))
                    .flatten(),
                liveness: probe(j, "/liveness_probe", false),
                readiness: probe(j, "/readiness_probe", false),
            }
        }
    }
}

fn evidence(r: &Resource, pointer: &str, text: String) -> Evidence {
    Evidence {
        location: Location::Pointer {
            path: r.path.clone(),
            line: r.line_of(pointer),
            pointer: r.absolute(pointer),
        },
        text,
        at: 0,
        computed: false,
        columns: None,
    }
}

fn computed(
    rule_id: &'static str,
    r: &Resource,
    evidence: Vec<Evidence>,
    facts: &[(&str, String)],
) -> Computed {
    Computed {
        rule_id,
        count: 1,
        evidence,
        facts: facts
            .iter()
            .map(|(k, v)| ((*k).to_owned(), v.clone()))
            .collect(),
        names: r.names(),
        commands: Vec::new(),
        edits: Vec::new(),
    }
}

/// The edit giving the key at `pointer` of a spec file `value` (none for resources
/// read from Azure or its JSON, which `lint` does not edit).
pub(crate) fn set_edit(r: &Resource, pointer: &str, value: String) -> Vec<Edit> {
    if r.shape != Shape::File {
        return Vec::new();
    }
    vec![crate::engine::fix::set_key(r, pointer, value)]
}

fn deployment(r: &Resource) -> Option<Settings> {
    (r.kind == ResourceKind::OnlineDeployment).then(|| Settings::read(r))
}

/// Whether `r` is a Kubernetes online deployment: `type: kubernetes` (its YAML and `az
/// ml`), `endpointComputeType` or `kind` `Kubernetes` (Resource Manager).
fn kubernetes(r: &Resource) -> bool {
    let is = |pointer: &str| {
        r.json
            .pointer(pointer)
            .and_then(Value::as_str)
            .is_some_and(|v| v.eq_ignore_ascii_case("kubernetes"))
    };
    is("/type") || is("/kind") || is("/properties/endpointComputeType")
}

/// `request_timeout_ms` over what managed online endpoints accept (the managed online
/// deployment schema's 180 s; the Kubernetes one states no ceiling, so a Kubernetes
/// deployment is not judged by it).
pub(crate) fn request_timeout_over_limit(r: &Resource, _: &CheckOptions) -> Option<Computed> {
    if kubernetes(r) {
        return None;
    }
    let t = deployment(r)?.request_timeout_ms?;
    (t.value > MAX_REQUEST_TIMEOUT_MS).then(|| {
        let mut c = computed(
            "deployment-request-timeout-over-limit",
            r,
            vec![evidence(
                r,
                &t.pointer,
                format!(
                    "request timeout {} ms, over the {MAX_REQUEST_TIMEOUT_MS} ms limit",
                    t.value
                ),
            )],
            &[
                ("request_timeout_ms", t.value.to_string()),
                ("limit_ms", MAX_REQUEST_TIMEOUT_MS.to_string()),
            ],
        );
        c.edits = set_edit(r, &t.pointer, MAX_REQUEST_TIMEOUT_MS.to_string());
        c
    })
}

/// A probe whose timeout is not shorter than its period.
pub(crate) fn probe_timeout_not_below_period(r: &Resource, _: &CheckOptions) -> Option<Computed> {
    let s = deployment(r)?;
    let mut evidence_list = Vec::new();
    let mut facts = Vec::new();
    let mut edits = Vec::new();
    for (name, p) in [("liveness", &s.liveness), ("readiness", &s.readiness)] {
        let Some(p) = p else { continue };
        if let (Some(t), Some(period)) = (&p.timeout, &p.period)
            && t.value >= period.value
        {
            // A shorter timeout where the period leaves room, else a longer period.
            edits.extend(if period.value >= 2 {
                set_edit(r, &t.pointer, (period.value - 1).to_string())
            } else {
                set_edit(r, &period.pointer, (t.value + 1).to_string())
            });
            evidence_list.push(evidence(
                r,
                &t.pointer,
                format!(
                    "{name} probe: timeout {} s, period {} s",
                    t.value, period.value
                ),
            ));
            facts.push(("probe", name.to_owned()));
            facts.push(("timeout_s", t.value.to_string()));
            facts.push(("period_s", period.value.to_string()));
        }
    }
    (!evidence_list.is_empty()).then(|| {
        let mut c = computed(
            "deployment-probe-timeout-not-below-period",
            r,
            evidence_list,
            &facts,
        );
        c.edits = edits;
        c
    })
}

/// The liveness probe restarts the container before the readiness probe even starts.
pub(crate) fn liveness_gives_up_before_readiness(
    r: &Resource,
    _: &CheckOptions,
) -> Option<Computed> {
    let s = deployment(r)?;
    let (l, ready) = (s.liveness?, s.readiness?);
    let ready_delay = ready.initial_delay?;
    // Values come from a document anyone may write: no overflow, no finding from one.
    let budget = l
        .failure_threshold
        .as_ref()?
        .value
        .checked_mul(l.period.as_ref()?.value)?
        .checked_add(l.initial_delay.as_ref()?.value)?;
    (budget < ready_delay.value).then(|| {
        let mut c = computed(
            "deployment-liveness-gives-up-before-readiness",
            r,
            vec![
                evidence(
                    r,
                    &ready_delay.pointer,
                    format!("readiness probe starts after {} s", ready_delay.value),
                ),
                evidence(
                    r,
                    &l.failure_threshold
                        .as_ref()
                        .map_or(String::new(), |f| f.pointer.clone()),
                    format!("liveness probe restarts the container after {budget} s"),
                ),
            ],
            &[
                ("liveness_budget_s", budget.to_string()),
                ("readiness_delay_s", ready_delay.value.to_string()),
            ],
        );
        // Liveness starts no earlier than readiness: its budget then covers the wait.
        if let Some(delay) = &l.initial_delay {
            c.edits = set_edit(r, &delay.pointer, ready_delay.value.to_string());
        }
        c
    })
}

/// Fewer instances than `--rps` needs, by the `replicas` formula. With autoscale the
/// ceiling (`max_instances`) is what is checked, at the autoscaler's target.
pub(crate) fn instances_below_rps(r: &Resource, o: &CheckOptions) -> Option<Computed> {
    let rps = o.rps?;
    let s = deployment(r)?;
    let (count, what, setting) = match &s.max_instances {
        Some(max) => (
            max.clone(),
            "the autoscaler's max_instances",
            "scale_settings.max_instances",
        ),
        None => (s.instance_count.clone()?, "instances", "instance_count"),
    };
    let max_concurrent = s
        .max_concurrent
        .as_ref()
        .map_or(crate::capacity::DEFAULT_MAX_CONCURRENT, |m| m.value);
    // What the formula uses: a percentage in 1..=100.
    let utilization = s
        .target_utilization_percent
        .as_ref()
        .map_or(crate::capacity::DEFAULT_UTILIZATION_PERCENT, |u| {
            u128::from(u.value)
        })
        .clamp(1, 100);
    let plan = plan(
        rps,
        o.latency_seconds,
        max_concurrent,
        utilization,
        count.value,
    )?;
    let eval = plan.evaluation.as_ref()?;
    (!eval.meets_target).then(|| {
        let text = format!(
            "{} ({what}) sustain {} rps; {} rps needs {}",
            count.value,
            eval.sustained_rps.to_decimal_string(2),
            rps.to_decimal_string(2),
            plan.instances_required
        );
        computed(
            "deployment-instances-below-rps",
            r,
            vec![evidence(r, &count.pointer, text)],
            &[
                ("instances", count.value.to_string()),
                ("instances_are", what.to_owned()),
                ("required", plan.instances_required.to_string()),
                ("rps", rps.to_decimal_string(2)),
                (
                    "latency_s",
                    plan.inputs.request_time_seconds.value.to_decimal_string(3),
                ),
                ("max_concurrent", max_concurrent.to_string()),
                ("utilization_percent", utilization.to_string()),
                ("setting", setting.to_owned()),
            ],
        )
    })
}

/// How long an operation may run before the deployment counts as stuck: creating one
/// takes up to about 20 minutes when the image is built and pulled.
pub(crate) const STUCK_AFTER_MINUTES: i64 = 60;

/// A deployment or endpoint still creating, updating, scaling or deleting long after
/// its last change.
pub(crate) fn provisioning_stuck(r: &Resource, o: &CheckOptions) -> Option<Computed> {
    use crate::evidence::resource::ResourceKind as K;
    if !matches!(r.kind, K::OnlineDeployment | K::OnlineEndpoint) {
        return None;
    }
    let now = o.now_unix?;
    let j = &r.json;
    let (state_at, changed_at) = if r.shape == Shape::Arm {
        (
            "/properties/provisioningState",
            "/systemData/lastModifiedAt",
        )
    } else {
        ("/provisioning_state", "/creation_context/last_modified_at")
    };
    let state = at(j, state_at)?.as_str()?;
    let transitional = ["creating", "updating", "scaling", "deleting"]
        .contains(&crate::engine::resource::enum_form(state).as_str());
    let changed: jiff::Timestamp = at(j, changed_at)?.as_str()?.parse().ok()?;
    let minutes = now.checked_sub(changed.as_second())? / 60;
    (transitional && minutes >= STUCK_AFTER_MINUTES).then(|| {
        let text = format!(
            "{state} since {changed} ({} h {} min ago)",
            minutes / 60,
            minutes % 60
        );
        computed(
            "deployment-provisioning-stuck",
            r,
            vec![evidence(r, state_at, text)],
            &[
                ("state", crate::redact::clean(state).into_owned()),
                ("minutes", minutes.to_string()),
                (
                    "for_how_long",
                    format!("{} h {} min", minutes / 60, minutes % 60),
                ),
            ],
        )
    })
}

/// The `replicas` arithmetic for these settings.
fn plan(
    rps: Ratio,
    latency: Option<Ratio>,
    max_concurrent: u64,
    utilization_percent: u128,
    instances: u64,
) -> Option<CapacityPlan> {
    let flag = |v, f: &'static str| Setting::new(v, ValueSource::Flag(f));
    let doc = |v| Setting::new(v, ValueSource::Default);
    let inputs = CapacityInputs {
        rps: flag(rps, "--rps"),
        request_time_seconds: latency.map_or_else(
            || {
                doc(Ratio::from_int(
                    crate::capacity::DEFAULT_REQUEST_TIME_SECONDS,
                ))
            },
            |l| flag(l, "--latency"),
        ),
        max_concurrent_requests_per_instance: Setting::new(max_concurrent, ValueSource::Default),
        target_utilization: doc(Ratio::new(utilization_percent.max(1), 100)?),
        instance_count: Some(Setting::new(instances, ValueSource::Default)),
        request_timeout_ms: None,
        autoscale_max_instances: None,
    };
    CapacityPlan::compute(inputs).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::json_lines::JsonText;
    use crate::evidence::resource::{JsonDocument, classify};

    fn deployment(v: serde_json::Value) -> Resource {
        let text = JsonText::new(serde_json::to_vec_pretty(&v).unwrap());
        match classify("d.json", v, text) {
            JsonDocument::Resources(mut r) => r.remove(0),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn both_shapes_read_alike() {
        let arm = deployment(serde_json::json!({
            "id": "/subscriptions/s/resourceGroups/rg/providers/Microsoft.MachineLearningServices/workspaces/ws/onlineEndpoints/ep/deployments/blue",
            "sku": {"capacity": 2},
            "properties": {"requestSettings": {"requestTimeout": "PT1M30S", "maxConcurrentRequestsPerInstance": 2},
              "livenessProbe": {"initialDelay": "PT10S", "period": "PT10S", "timeout": "PT2S", "failureThreshold": 30}}
        }));
        let cli = deployment(serde_json::json!({
            "endpoint_name": "ep", "instance_type": "Standard_DS3_v2", "instance_count": 2,
            "request_settings": {"request_timeout_ms": 90000, "max_concurrent_requests_per_instance": 2},
            "liveness_probe": {"initial_delay": 10, "period": 10, "timeout": 2, "failure_threshold": 30}
        }));
        let (a, b) = (Settings::read(&arm), Settings::read(&cli));
        assert_eq!(a.request_timeout_ms.as_ref().unwrap().value, 90_000);
        assert_eq!(b.request_timeout_ms.as_ref().unwrap().value, 90_000);
        assert_eq!(
            a.instance_count.unwrap().value,
            b.instance_count.unwrap().value
        );
        assert_eq!(
            a.liveness.unwrap().failure_threshold.unwrap().value,
            b.liveness.unwrap().failure_threshold.unwrap().value
        );
        assert_eq!(arm.names()["deployment"], "blue");
        assert_eq!(cli.names()["endpoint"], "ep");
    }

    #[test]
    fn stuck_means_an_hour_in_a_transitional_state() {
        let d = |state: &str| {
            deployment(serde_json::json!({
                "endpoint_name": "ep", "instance_type": "x", "provisioning_state": state,
                "creation_context": {"last_modified_at": "2026-11-20T08:00:00.000000+00:00"}
            }))
        };
        let at = |t: &str| CheckOptions {
            now_unix: Some(t.parse::<jiff::Timestamp>().unwrap().as_second()),
            ..CheckOptions::default()
        };
        assert!(provisioning_stuck(&d("Updating"), &at("2026-11-20T08:59:59Z")).is_none());
        let c = provisioning_stuck(&d("Updating"), &at("2026-11-20T09:00:00Z")).unwrap();
        assert_eq!(c.facts["minutes"], "60");
        assert!(provisioning_stuck(&d("Succeeded"), &at("2026-11-21T09:00:00Z")).is_none());
        assert!(provisioning_stuck(&d("Creating"), &CheckOptions::default()).is_none());
    }

    #[test]
    fn checks_fire_at_their_limits() {
        let d = |timeout: u64, count: u64| {
            deployment(serde_json::json!({
                "endpoint_name": "ep", "instance_type": "x", "instance_count": count,
                "request_settings": {"request_timeout_ms": timeout}
            }))
        };
        let none = CheckOptions::default();
        assert!(request_timeout_over_limit(&d(180_000, 1), &none).is_none());
        assert!(request_timeout_over_limit(&d(180_001, 1), &none).is_some());
        // 20 rps × 10 s / 0.7 = 285.7 → 286 instances of one concurrent request.
        let rps = CheckOptions {
            rps: Some(Ratio::from_int(20)),
            ..CheckOptions::default()
        };
        let c = instances_below_rps(&d(5000, 285), &rps).unwrap();
        assert_eq!(c.facts["required"], "286");
        assert!(instances_below_rps(&d(5000, 286), &rps).is_none());
        assert!(instances_below_rps(&d(5000, 1), &none).is_none());
    }
}
