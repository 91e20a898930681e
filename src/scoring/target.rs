//! The endpoint a scoring probe goes to, read from its resource (either shape): the
//! scoring URI, how it authenticates callers, managed or Kubernetes, where its traffic
//! goes; and what the probe's answers mean for it: the 429 ceiling of the deployments
//! reached and, with a request rate, the instances the replicas formula asks for.

use serde_json::Value;

use crate::capacity::{CapacityInputs, CapacityPlan};
use crate::checks::deployment::Settings;
use crate::error::{Error, Result};
use crate::evidence::resource::{Resource, Shape};
use crate::ratio::Ratio;
use crate::setting::{Setting, ValueSource};

use super::summary::{PendingCeiling, Sizing};

/// How the endpoint authenticates callers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AuthMode {
    Key,
    AmlToken,
    AadToken,
}

impl AuthMode {
    /// `Key` / `key`, `AMLToken` / `aml_token`, `AADToken` / `aad_token`.
    pub(crate) fn parse(text: &str) -> Option<AuthMode> {
        let t: String = text
            .chars()
            .filter(char::is_ascii_alphanumeric)
            .collect::<String>()
            .to_ascii_lowercase();
        match t.as_str() {
            "key" => Some(AuthMode::Key),
            "amltoken" => Some(AuthMode::AmlToken),
            "aadtoken" => Some(AuthMode::AadToken),
            _ => None,
        }
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            AuthMode::Key => "key",
            AuthMode::AmlToken => "aml_token",
            AuthMode::AadToken => "aad_token",
        }
    }
}

/// A deployment's settings the 429 ceiling and `--rps` need.
#[derive(Debug, Clone)]
pub(crate) struct DeploymentInfo {
    pub(crate) name: String,
    pub(crate) settings: Settings,
}

/// The endpoint to score.
#[derive(Debug)]
pub(crate) struct Target {
    pub(crate) endpoint: String,
    pub(crate) scoring_uri: String,
    pub(crate) auth: AuthMode,
    pub(crate) kind: &'static str,
    pub(crate) traffic: Vec<(String, u64)>,
    pub(crate) deployments: Vec<DeploymentInfo>,
    /// Names from the endpoint's resource id (`group`, `workspace`, `subscription`).
    pub(crate) names: std::collections::BTreeMap<String, String>,
}

impl Target {
    /// `-n DEP` names a deployment of this endpoint (when its deployments are known).
    pub(crate) fn check_deployment(&self, deployment: Option<&str>) -> Result<()> {
        let known = !self.deployments.is_empty() || !self.traffic.is_empty();
        if let Some(d) = deployment
            && known
            && !self.deployments.iter().any(|x| x.name == d)
            && !self.traffic.iter().any(|(n, _)| n == d)
        {
            return Err(Error::input(format!(
                "-n {d}: endpoint '{}' has no deployment of that name",
                self.endpoint
            )));
        }
        Ok(())
    }
}

/// The URI as reports show it: no query (a SAS or key could sit there).
pub(crate) fn without_query(uri: &str) -> String {
    uri.split(['?', '#']).next().unwrap_or(uri).to_owned()
}

/// The first present field of `pointers`, as text.
fn text_at(r: &Resource, pointers: &[&str]) -> Option<String> {
    pointers.iter().find_map(|p| {
        r.json
            .pointer(p)
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
    })
}

/// The scoring target an endpoint resource describes (either shape).
pub(crate) fn target_of(r: &Resource, deployments: Vec<DeploymentInfo>) -> Result<Target> {
    let arm = r.shape == Shape::Arm;
    let (uri, auth, compute, traffic) = if arm {
        (
            "/properties/scoringUri",
            "/properties/authMode",
            "/properties/compute",
            "/properties/traffic",
        )
    } else {
        ("/scoring_uri", "/auth_mode", "/compute", "/traffic")
    };
    let endpoint = r.name.clone().unwrap_or_default();
    let scoring_uri = text_at(r, &[uri]).ok_or_else(|| {
        Error::input(format!(
            "{}: the endpoint '{endpoint}' shows no scoring URI ({uri}); is it still being created?",
            r.path
        ))
    })?;
    let auth_text = text_at(r, &[auth]).unwrap_or_default();
    let auth = AuthMode::parse(&auth_text).ok_or_else(|| {
        Error::input(format!(
            "{}: the endpoint's authentication mode '{auth_text}' ({auth}) is none of key, aml_token, aad_token",
            r.path
        ))
    })?;
    let kubernetes = text_at(r, &[compute]).is_some()
        || text_at(r, &["/kind"])
            .is_some_and(|k| k.eq_ignore_ascii_case("k8s") || k.eq_ignore_ascii_case("kubernetes"));
    let traffic = r
        .json
        .pointer(traffic)
        .and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .map(|(k, v)| (k.clone(), v.as_u64().unwrap_or(0)))
                .collect()
        })
        .unwrap_or_default();
    Ok(Target {
        endpoint,
        scoring_uri,
        auth,
        kind: if kubernetes { "kubernetes" } else { "managed" },
        traffic,
        deployments,
        names: r.names(),
    })
}

/// The deployments the requests reach: the one `-n` names, else those with traffic.
pub(crate) fn reached(target: &Target, deployment: Option<&str>) -> Vec<String> {
    match deployment {
        Some(d) => vec![d.to_owned()],
        None => target
            .traffic
            .iter()
            .filter(|(_, share)| *share > 0)
            .map(|(n, _)| n.clone())
            .collect(),
    }
}

/// The 429 ceiling of the deployments the requests reach: 2 × concurrent requests per
/// instance × instances of each, added up; those without settings are named.
pub(crate) fn ceiling(target: &Target, deployment: Option<&str>) -> Option<PendingCeiling> {
    let names = reached(target, deployment);
    if names.is_empty() {
        return None;
    }
    let mut c = PendingCeiling {
        value: None,
        parts: Vec::new(),
        unknown: Vec::new(),
    };
    for name in names {
        let settings = target
            .deployments
            .iter()
            .find(|d| d.name == name)
            .map(|d| &d.settings);
        match settings.and_then(|s| s.instance_count.as_ref().map(|n| (s, n.value))) {
            Some((s, instances)) => {
                let per = s.max_concurrent.as_ref().map_or(1, |r| r.value);
                let value = 2 * u128::from(per) * u128::from(instances);
                c.value = Some(c.value.unwrap_or(0) + value);
                c.parts.push(format!(
                    "{name}: 2 × {per} per instance × {instances} instance{} = {value}",
                    if instances == 1 { "" } else { "s" }
                ));
            }
            None => c.unknown.push(name),
        }
    }
    Some(c)
}

/// `--rps`: the sizing of the one deployment the requests reach, or why there is none.
pub(crate) fn sized(
    rps: Ratio,
    samples: &[crate::scoring::sample::Sample],
    target: &Target,
    deployment: Option<&str>,
) -> Result<(Option<Sizing>, Option<String>)> {
    let Some(latency) = crate::scoring::summary::success_latency(samples) else {
        return Ok((
            None,
            Some("no request succeeded, so there is no scoring time to size from".to_owned()),
        ));
    };
    let names = reached(target, deployment);
    let [name] = names.as_slice() else {
        return Ok((
            None,
            Some(format!(
                "the requests reach {} deployments; pass -n to size one",
                names.len()
            )),
        ));
    };
    let d = target.deployments.iter().find(|d| &d.name == name);
    Ok((sizing(rps, latency.p95_ms, target, d)?, None))
}

/// The replicas formula with the measured p95 as the request time.
fn sizing(
    rps: Ratio,
    p95_ms: f64,
    target: &Target,
    d: Option<&DeploymentInfo>,
) -> Result<Option<Sizing>> {
    // Whole milliseconds, rounded up: the histogram's tenths are not worth a fraction.
    let request_ms = Ratio::parse_decimal(&format!("{p95_ms}"))
        .map_or(1, |r| u64::try_from(r.ceil()).unwrap_or(u64::MAX))
        .max(1);
    let from = |key: &str| match d {
        Some(d) => ValueSource::Deployment {
            name: format!("{}/{}", target.endpoint, d.name),
            key: key.to_owned(),
        },
        None => ValueSource::Default,
    };
    let max_concurrent = d.and_then(|d| d.settings.max_concurrent.as_ref()).map_or(
        Setting::default(crate::capacity::DEFAULT_MAX_CONCURRENT),
        |r| {
            Setting::new(
                r.value,
                from("request_settings.max_concurrent_requests_per_instance"),
            )
        },
    );
    let utilization = d
        .and_then(|d| d.settings.target_utilization_percent.as_ref())
        .map(|r| r.value)
        .unwrap_or(70);
    let plan = CapacityPlan::compute(CapacityInputs {
        rps: Setting::new(rps, ValueSource::Flag("--rps")),
        request_time_seconds: Setting::new(
            Ratio::new(u128::from(request_ms), 1000).unwrap_or(Ratio::from_int(1)),
            ValueSource::Flag("the measured p95 latency"),
        ),
        max_concurrent_requests_per_instance: max_concurrent.clone(),
        target_utilization: Setting::new(
            Ratio::new(u128::from(utilization.clamp(1, 100)), 100).unwrap_or(Ratio::from_int(1)),
            from("scale_settings.target_utilization_percentage"),
        ),
        instance_count: d
            .and_then(|d| d.settings.instance_count.as_ref())
            .map(|r| Setting::new(r.value, from("instance_count"))),
        request_timeout_ms: d
            .and_then(|d| d.settings.request_timeout_ms.as_ref())
            .map(|r| Setting::new(r.value, from("request_settings.request_timeout_ms"))),
        autoscale_max_instances: None,
    })
    .map_err(|e| Error::input(format!("--rps: {e}")))?;
    Ok(Some(Sizing {
        rps: rps.to_readable_string(),
        request_time_ms: request_ms,
        max_concurrent_requests_per_instance: max_concurrent.value,
        target_utilization_percent: utilization.to_string(),
        instances_required: plan.instances_required,
        pending_request_ceiling: plan.pending_request_ceiling,
        instances_now: d
            .and_then(|d| d.settings.instance_count.as_ref())
            .map(|r| r.value),
    }))
}

/// How the probe was run, as the report states it.
#[derive(Debug, Clone)]
pub(crate) struct ProbeSetup {
    /// `-n`: the deployment every request was sent to.
    pub(crate) deployment: Option<String>,
    pub(crate) concurrency: u64,
    pub(crate) timeout_ms: u64,
    /// `--rps`: size the deployment reached for this rate.
    pub(crate) rps: Option<Ratio>,
}

/// What the probe of `target` measured: outcomes and latency, the 429 ceiling, the
/// sizing `--rps` asks for, and the meaning of each error status.
pub(crate) fn summary_of(
    target: &Target,
    probe: &ProbeSetup,
    samples: &[super::sample::Sample],
    statuses: &[crate::catalogue::HttpStatus],
) -> Result<super::summary::ScoreSummary> {
    let deployment = probe.deployment.as_deref();
    let setup = super::summary::Setup {
        endpoint: target.endpoint.clone(),
        deployment: probe.deployment.clone(),
        scoring_uri: without_query(&target.scoring_uri),
        auth_mode: target.auth.name().to_owned(),
        endpoint_kind: target.kind.to_owned(),
        concurrency: probe.concurrency,
        timeout_ms: probe.timeout_ms,
        ceiling: ceiling(target, deployment),
    };
    let (sizing, sizing_skipped) = match probe.rps {
        Some(rps) => sized(rps, samples, target, deployment)?,
        None => (None, None),
    };
    let mut summary = super::summary::summarise(&setup, samples, statuses, sizing);
    summary.sizing_skipped = sizing_skipped;
    Ok(summary)
}

/// The run's names with what the endpoint says: its name, its resource id's group,
/// workspace and subscription, and the deployment the requests reached (the one named,
/// else the only one with traffic).
pub(crate) fn names_of(
    target: &Target,
    deployment: Option<&str>,
    mut names: crate::rules::template::Placeholders,
) -> crate::rules::template::Placeholders {
    names
        .entry("endpoint")
        .or_insert_with(|| target.endpoint.clone());
    for key in ["subscription", "group", "workspace"] {
        if let Some(v) = target.names.get(key) {
            names.entry(key).or_insert_with(|| v.clone());
        }
    }
    if let [only] = reached(target, deployment).as_slice() {
        names.entry("deployment").or_insert_with(|| only.clone());
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auth_modes_in_both_spellings() {
        assert_eq!(AuthMode::parse("Key"), Some(AuthMode::Key));
        assert_eq!(AuthMode::parse("aml_token"), Some(AuthMode::AmlToken));
        assert_eq!(AuthMode::parse("AMLToken"), Some(AuthMode::AmlToken));
        assert_eq!(AuthMode::parse("aad_token"), Some(AuthMode::AadToken));
        assert_eq!(AuthMode::parse("password"), None);
    }

    #[test]
    fn queries_never_reach_the_report() {
        assert_eq!(
            without_query("https://ep.eastus.inference.ml.azure.com/score?sig=abc"),
            "https://ep.eastus.inference.ml.azure.com/score"
        );
    }
}
