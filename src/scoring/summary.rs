//! The scoring section of a `score` report: how the requests ended, latency
//! percentiles from a histogram (bounded memory whatever the count), bytes, which
//! deployment answered, the 429 ceiling and, with `--rps`, the instance count the
//! measured latency needs. Plain data the writers render.

use hdrhistogram::Histogram;
use serde::Serialize;

use super::sample::{Outcome, Sample};
use crate::catalogue::HttpStatus;

/// What the command knew before sending anything.
#[derive(Debug, Clone, Default)]
pub(crate) struct Setup {
    pub endpoint: String,
    pub deployment: Option<String>,
    /// The scoring URI without its query.
    pub scoring_uri: String,
    pub auth_mode: String,
    /// `managed` or `kubernetes`.
    pub endpoint_kind: String,
    pub concurrency: u64,
    pub timeout_ms: u64,
    pub ceiling: Option<PendingCeiling>,
}

/// At most this many requests may wait before the service answers 429: twice the
/// concurrent requests all instances take.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct PendingCeiling {
    /// Over the deployments whose settings were read; none when none were.
    pub value: Option<u128>,
    /// Each of them: `blue: 2 × 2 per instance × 3 instances = 12`.
    pub parts: Vec<String>,
    /// Deployments the requests reach whose settings are unknown.
    pub unknown: Vec<String>,
}

/// How many requests ended one way.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct OutcomeCount {
    /// An HTTP status (`200`), or `timeout`, `reset`, `connect`, `tls`.
    pub outcome: String,
    pub count: u64,
}

/// Latency of the answered requests, in milliseconds.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Latency {
    pub samples: u64,
    pub p50_ms: f64,
    pub p95_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
    pub mean_ms: f64,
}

/// Requests a deployment answered (`azureml-model-deployment` of the responses).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct ServedBy {
    pub deployment: String,
    pub count: u64,
}

/// `--rps`: the instances the measured p95 latency needs, by the `replicas` formula.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Sizing {
    pub rps: String,
    pub request_time_ms: u64,
    pub max_concurrent_requests_per_instance: u64,
    pub target_utilization_percent: String,
    pub instances_required: u64,
    pub pending_request_ceiling: u128,
    /// The instance count now, when known.
    pub instances_now: Option<u64>,
}

/// Everything the report says about one probe.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct ScoreSummary {
    pub endpoint: String,
    /// The deployment sent in `azureml-model-deployment` (`-n`).
    pub deployment: Option<String>,
    pub scoring_uri: String,
    pub auth_mode: String,
    pub endpoint_kind: String,
    pub requests: u64,
    pub concurrency: u64,
    pub timeout_ms: u64,
    pub outcomes: Vec<OutcomeCount>,
    pub latency: Option<Latency>,
    pub bytes_sent: u64,
    pub bytes_received: u64,
    pub served_by: Vec<ServedBy>,
    pub pending_request_ceiling: Option<PendingCeiling>,
    pub sizing: Option<Sizing>,
    /// Why `--rps` gave no sizing, when it did not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sizing_skipped: Option<String>,
    /// The catalogue's entry for every error status seen, for this kind of endpoint.
    pub explanations: Vec<HttpStatus>,
}

/// Microseconds up to an hour, three significant digits: about 0.1 % error.
fn histogram() -> Option<Histogram<u64>> {
    Histogram::new_with_bounds(1, 3_600_000_000, 3).ok()
}

/// Milliseconds to one decimal. The histogram holds at most an hour of microseconds,
/// far below the 2^52 an f64 holds exactly.
#[allow(clippy::cast_precision_loss)]
fn ms(us: u64) -> f64 {
    (us as f64 / 100.0).round() / 10.0
}

/// The latency of the answered requests (those that got a status).
pub(crate) fn latency(samples: &[Sample]) -> Option<Latency> {
    latency_of(samples, |o| o.status().is_some())
}

/// The latency of the successful requests: what sizing is about (a fast 401 or 429
/// says nothing of how long scoring takes).
pub(crate) fn success_latency(samples: &[Sample]) -> Option<Latency> {
    latency_of(samples, Outcome::is_success)
}

fn latency_of(samples: &[Sample], counted: impl Fn(&Outcome) -> bool) -> Option<Latency> {
    let mut h = histogram()?;
    for s in samples.iter().filter(|s| counted(&s.outcome)) {
        let us = u64::try_from(s.latency.as_micros()).unwrap_or(u64::MAX);
        h.saturating_record(us.clamp(1, 3_600_000_000));
    }
    (!h.is_empty()).then(|| Latency {
        samples: h.len(),
        p50_ms: ms(h.value_at_quantile(0.50)),
        p95_ms: ms(h.value_at_quantile(0.95)),
        p99_ms: ms(h.value_at_quantile(0.99)),
        max_ms: ms(h.max()),
        mean_ms: (h.mean() / 100.0).round() / 10.0,
    })
}

/// Summarises the samples; `statuses` is the catalogue.
pub(crate) fn summarise(
    setup: &Setup,
    samples: &[Sample],
    statuses: &[HttpStatus],
    sizing: Option<Sizing>,
) -> ScoreSummary {
    let mut outcomes: std::collections::BTreeMap<Outcome, u64> = Default::default();
    let mut served: std::collections::BTreeMap<String, u64> = Default::default();
    for s in samples {
        *outcomes.entry(s.outcome.clone()).or_default() += 1;
        if let Some(d) = &s.headers.deployment {
            *served.entry(d.clone()).or_default() += 1;
        }
    }
    let kind = setup.endpoint_kind.as_str();
    let explanations = outcomes
        .keys()
        .filter(|o| !o.is_success())
        .filter_map(Outcome::status)
        .flat_map(|code| {
            // This kind's entries only: the other table's advice (kubectl on a managed
            // endpoint) would mislead; the finding explains such a status.
            statuses
                .iter()
                .filter(move |st| st.status == code && st.endpoint == kind)
                .cloned()
        })
        .collect();
    ScoreSummary {
        endpoint: setup.endpoint.clone(),
        deployment: setup.deployment.clone(),
        scoring_uri: setup.scoring_uri.clone(),
        auth_mode: setup.auth_mode.clone(),
        endpoint_kind: setup.endpoint_kind.clone(),
        requests: samples.len() as u64,
        concurrency: setup.concurrency,
        timeout_ms: setup.timeout_ms,
        outcomes: outcomes
            .into_iter()
            .map(|(o, count)| OutcomeCount {
                outcome: o.label(),
                count,
            })
            .collect(),
        latency: latency(samples),
        bytes_sent: samples.iter().map(|s| s.bytes_sent).sum(),
        bytes_received: samples.iter().map(|s| s.bytes_received).sum(),
        served_by: served
            .into_iter()
            .map(|(deployment, count)| ServedBy { deployment, count })
            .collect(),
        pending_request_ceiling: setup.ceiling.clone(),
        sizing,
        sizing_skipped: None,
        explanations,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scoring::sample::Headers;
    use std::time::Duration;

    fn sample(i: u64, outcome: Outcome, ms: u64) -> Sample {
        Sample {
            index: i,
            client_request_id: format!("id-{i}"),
            outcome,
            latency: Duration::from_millis(ms),
            bytes_sent: 10,
            bytes_received: 20,
            headers: Headers::default(),
            body_start: String::new(),
            error: None,
        }
    }

    #[test]
    fn percentiles_of_a_known_distribution() {
        // 1..=1000 ms once each: p50 500, p95 950, p99 990 (within the histogram's 0.1 %).
        let samples: Vec<Sample> = (1..=1000)
            .map(|i| sample(i, Outcome::Status(200), i))
            .collect();
        let l = latency(&samples).unwrap();
        let near = |got: f64, want: f64| (got - want).abs() <= want * 0.002;
        assert!(near(l.p50_ms, 500.0), "{l:?}");
        assert!(near(l.p95_ms, 950.0), "{l:?}");
        assert!(near(l.p99_ms, 990.0), "{l:?}");
        assert!(near(l.max_ms, 1000.0), "{l:?}");
        assert!(near(l.mean_ms, 500.5), "{l:?}");
    }

    #[test]
    fn requests_without_an_answer_have_no_latency() {
        let samples = vec![
            sample(0, Outcome::Timeout, 5000),
            sample(1, Outcome::Reset, 3),
        ];
        assert!(latency(&samples).is_none());
        let s = summarise(&Setup::default(), &samples, &[], None);
        assert_eq!(s.outcomes.len(), 2);
        assert_eq!(s.requests, 2);
        assert_eq!(s.bytes_sent, 20);
    }
}
