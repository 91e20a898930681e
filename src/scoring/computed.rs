//! Findings from a scoring probe: one per kind of failure the caller saw, each with the
//! ids a support ticket needs (`x-request-id`, the client request id), the response
//! headers that say why (the model's own status behind a 424, `Retry-After`, bandwidth
//! delays) and, for 429, the pending-request ceiling of the deployment's settings.
//! [`COMPUTED_RULES`] names each rule once for the rule loader.

use std::collections::BTreeMap;

use super::sample::{Outcome, Sample};
use super::summary::ScoreSummary;
use crate::finding::{Computed, Evidence};

/// Which rule a request's outcome belongs to.
fn rule_of(outcome: &Outcome) -> Option<&'static str> {
    Some(match outcome {
        Outcome::Status(s) if (200..300).contains(s) => return None,
        Outcome::Status(401 | 403) => "score-auth-failed",
        Outcome::Status(404) => "score-not-found",
        Outcome::Status(408 | 504) | Outcome::Timeout => "score-timed-out",
        Outcome::Status(424) => "score-model-error",
        Outcome::Status(429) => "score-throttled",
        Outcome::Status(500..=599) => "score-server-error",
        Outcome::Status(300..=399) => "score-redirected",
        Outcome::Status(_) => "score-client-error",
        Outcome::Reset | Outcome::Connect | Outcome::Tls => "score-connection-failed",
    })
}

/// The rules computed here, in report order.
pub(crate) const COMPUTED_RULES: &[&str] = &[
    "score-auth-failed",
    "score-not-found",
    "score-timed-out",
    "score-model-error",
    "score-throttled",
    "score-server-error",
    "score-client-error",
    "score-redirected",
    "score-connection-failed",
    "score-bandwidth-delayed",
];

/// Evidence lines kept per finding.
const SHOWN: usize = 5;

/// One request as a line of evidence: what came back, when, and the ids to quote.
fn describe(s: &Sample) -> String {
    let mut parts = vec![format!(
        "request {} ({}): {} after {} ms",
        s.index + 1,
        s.client_request_id,
        match &s.outcome {
            Outcome::Status(code) => format!("HTTP {code}"),
            Outcome::Timeout => "no answer".to_owned(),
            Outcome::Reset => "connection reset".to_owned(),
            Outcome::Connect => "no connection".to_owned(),
            Outcome::Tls => "TLS handshake failed".to_owned(),
        },
        s.latency.as_millis()
    )];
    let h = &s.headers;
    if let Some(id) = &h.request_id {
        parts.push(format!("x-request-id {id}"));
    }
    if let Some(m) = &h.model_error_status {
        parts.push(format!("ms-azureml-model-error-statuscode {m}"));
    }
    if let Some(r) = &h.model_error_reason {
        parts.push(format!("ms-azureml-model-error-reason {r}"));
    }
    if let Some(r) = &h.retry_after {
        parts.push(format!("Retry-After {r}"));
    }
    if let Some(e) = &s.error {
        parts.push(e.clone());
    } else if !s.body_start.is_empty() {
        parts.push(format!("body {}", s.body_start));
    }
    parts.join("; ")
}

/// `502 × 3, 503 × 1`.
fn tally(samples: &[&Sample]) -> String {
    let mut counts: BTreeMap<String, u64> = BTreeMap::new();
    for s in samples {
        *counts.entry(s.outcome.label()).or_default() += 1;
    }
    counts
        .iter()
        .map(|(o, n)| format!("{o} × {n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn first<'a>(
    samples: &[&'a Sample],
    get: impl Fn(&'a Sample) -> Option<&'a String>,
) -> Option<String> {
    samples.iter().find_map(|s| get(s)).cloned()
}

fn ids(samples: &[&Sample], get: impl Fn(&Sample) -> Option<String>) -> String {
    let mut out: Vec<String> = samples.iter().filter_map(|s| get(s)).take(3).collect();
    out.dedup();
    out.join(", ")
}

/// The findings of one probe.
pub(crate) fn compute(summary: &ScoreSummary, samples: &[Sample]) -> Vec<Computed> {
    let mut groups: BTreeMap<&'static str, Vec<&Sample>> = BTreeMap::new();
    for s in samples {
        if let Some(rule) = rule_of(&s.outcome) {
            groups.entry(rule).or_default().push(s);
        }
    }
    let delayed: Vec<&Sample> = samples
        .iter()
        .filter(|s| {
            s.headers.bandwidth_request_delay_ms.unwrap_or(0) > 0
                || s.headers.bandwidth_response_delay_ms.unwrap_or(0) > 0
        })
        .collect();
    if !delayed.is_empty() {
        groups.insert("score-bandwidth-delayed", delayed);
    }
    COMPUTED_RULES
        .iter()
        .filter_map(|id| groups.get(id).map(|g| (*id, g)))
        .map(|(id, group)| finding(id, group, summary))
        .collect()
}

/// The 429 ceiling as the fix text says it.
fn ceiling_text(summary: &ScoreSummary) -> String {
    let Some(c) = &summary.pending_request_ceiling else {
        return "not known here: no deployment the requests reach has known settings".to_owned();
    };
    let unknown = c.unknown.join(", ");
    match (c.parts.is_empty(), c.unknown.is_empty()) {
        (true, _) => format!(
            "not known here: no settings were read for {unknown} (pass its JSON with --from)"
        ),
        (false, true) => format!(
            "{} here: {}",
            c.value.unwrap_or_default(),
            c.parts.join("; ")
        ),
        (false, false) => format!(
            "at least {} here: {}; {unknown} not counted, its settings were not read",
            c.value.unwrap_or_default(),
            c.parts.join("; ")
        ),
    }
}

/// The first requests of a group, as evidence: what each got (for bandwidth delays,
/// the delay headers).
fn evidence_of(id: &str, group: &[&Sample], summary: &ScoreSummary) -> Vec<Evidence> {
    group
        .iter()
        .take(SHOWN)
        .map(|s| {
            let text = if id == "score-bandwidth-delayed" {
                format!(
                    "request {} ({}): ms-azureml-bandwidth-request-delay-ms {}, ms-azureml-bandwidth-response-delay-ms {}",
                    s.index + 1,
                    s.client_request_id,
                    s.headers.bandwidth_request_delay_ms.unwrap_or(0),
                    s.headers.bandwidth_response_delay_ms.unwrap_or(0)
                )
            } else {
                describe(s)
            };
            Evidence::computed_in(summary.scoring_uri.clone(), text)
        })
        .collect()
}

fn finding(id: &'static str, group: &[&Sample], summary: &ScoreSummary) -> Computed {
    let mut facts = BTreeMap::new();
    let mut fact = |k: &str, v: String| {
        if !v.is_empty() {
            facts.insert(k.to_owned(), v);
        }
    };
    fact("outcomes", tally(group));
    fact("of_requests", summary.requests.to_string());
    fact("request_ids", ids(group, |s| s.headers.request_id.clone()));
    fact(
        "client_request_ids",
        ids(group, |s| Some(s.client_request_id.clone())),
    );
    let statuses: std::collections::BTreeSet<u16> =
        group.iter().filter_map(|s| s.outcome.status()).collect();
    if let [status] = statuses.iter().collect::<Vec<_>>().as_slice()
        && id != "score-bandwidth-delayed"
    {
        fact("status", status.to_string());
    }
    match id {
        "score-model-error" => {
            let not_sent = || "not sent".to_owned();
            fact(
                "model_status",
                first(group, |s| s.headers.model_error_status.as_ref()).unwrap_or_else(not_sent),
            );
            fact(
                "model_reason",
                first(group, |s| s.headers.model_error_reason.as_ref()).unwrap_or_else(not_sent),
            );
        }
        "score-throttled" => {
            fact(
                "retry_after",
                first(group, |s| s.headers.retry_after.as_ref())
                    .unwrap_or_else(|| "not sent".to_owned()),
            );
            fact("ceiling", ceiling_text(summary));
            if let Some(c) = summary
                .pending_request_ceiling
                .as_ref()
                .and_then(|c| c.value)
            {
                fact("pending_request_ceiling", c.to_string());
            }
            fact("concurrency", summary.concurrency.to_string());
        }
        "score-timed-out" => fact("timeout_ms", summary.timeout_ms.to_string()),
        "score-redirected" => fact(
            "location",
            first(group, |s| s.headers.location.as_ref()).unwrap_or_else(|| "not sent".to_owned()),
        ),
        "score-connection-failed" => fact(
            "error",
            first(group, |s| s.error.as_ref()).unwrap_or_default(),
        ),
        "score-bandwidth-delayed" => {
            let max = group
                .iter()
                .map(|s| {
                    s.headers
                        .bandwidth_request_delay_ms
                        .unwrap_or(0)
                        .max(s.headers.bandwidth_response_delay_ms.unwrap_or(0))
                })
                .max()
                .unwrap_or(0);
            fact("max_delay_ms", max.to_string());
        }
        _ => {}
    }
    let evidence = evidence_of(id, group, summary);
    let mut names = BTreeMap::new();
    names.insert("endpoint".to_owned(), summary.endpoint.clone());
    if let Some(d) = &summary.deployment {
        names.insert("deployment".to_owned(), d.clone());
    }
    Computed {
        rule_id: id,
        count: group.len() as u64,
        evidence,
        facts,
        names,
        commands: Vec::new(),
        edits: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scoring::sample::Headers;
    use crate::scoring::summary::{Setup, summarise};
    use std::time::Duration;

    fn answer(i: u64, outcome: Outcome, headers: Headers) -> Sample {
        Sample {
            index: i,
            client_request_id: format!("amldoctor-t-{i}"),
            outcome,
            latency: Duration::from_millis(40),
            bytes_sent: 5,
            bytes_received: 9,
            headers,
            body_start: String::new(),
            error: None,
        }
    }

    #[test]
    fn each_failure_kind_is_one_finding_with_its_ids() {
        let model = Headers {
            request_id: Some("rid-1".into()),
            model_error_status: Some("500".into()),
            model_error_reason: Some("model_error".into()),
            ..Headers::default()
        };
        let throttled = Headers {
            retry_after: Some("2".into()),
            ..Headers::default()
        };
        let samples = vec![
            answer(0, Outcome::Status(200), Headers::default()),
            answer(1, Outcome::Status(424), model),
            answer(2, Outcome::Status(429), throttled.clone()),
            answer(3, Outcome::Status(429), throttled),
            answer(4, Outcome::Timeout, Headers::default()),
            answer(5, Outcome::Status(504), Headers::default()),
        ];
        let summary = summarise(&Setup::default(), &samples, &[], None);
        let found = compute(&summary, &samples);
        let ids: Vec<&str> = found.iter().map(|c| c.rule_id).collect();
        assert_eq!(
            ids,
            ["score-timed-out", "score-model-error", "score-throttled"]
        );
        let model = &found[1];
        assert_eq!(model.facts["model_status"], "500");
        assert_eq!(model.facts["request_ids"], "rid-1");
        let timed = &found[0];
        assert_eq!(timed.facts["outcomes"], "504 × 1, timeout × 1");
        assert_eq!(found[2].facts["retry_after"], "2");
        assert_eq!(found[2].count, 2);
    }
}
