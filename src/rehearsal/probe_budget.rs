//! How long a managed online deployment waits for a container to start: each probe
//! gives it `initial_delay + period × failure_threshold` seconds (Kubernetes' rule), the
//! platform's defaults (10 s, 10 s, 30) filling what the deployment file leaves out.
//! The shorter of the liveness and readiness budgets is the one a slow `init()` meets
//! first.

use serde::Serialize;

use crate::checks::deployment::{ProbeSettings, Settings};

/// The managed online defaults of both probes, in seconds.
const INITIAL_DELAY: u64 = 10;
const PERIOD: u64 = 10;
const FAILURE_THRESHOLD: u64 = 30;
/// `request_settings.request_timeout_ms` when the deployment does not set it.
pub(crate) const REQUEST_TIMEOUT_MS: u64 = 5000;

/// A start-up budget and where it comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct ProbeBudget {
    pub millis: u64,
    /// `readiness_probe` or `liveness_probe`.
    pub probe: String,
    /// The sum as the report shows it (`initial_delay 2 s + period 1 s × failure_threshold 2`).
    pub formula: String,
}

fn budget(name: &str, p: Option<&ProbeSettings>) -> ProbeBudget {
    let get = |f: fn(&ProbeSettings) -> Option<u64>, default: u64| {
        p.and_then(f).map_or((default, " (default)"), |v| (v, ""))
    };
    let (delay, d) = get(|p| p.initial_delay.as_ref().map(|r| r.value), INITIAL_DELAY);
    let (period, pe) = get(|p| p.period.as_ref().map(|r| r.value), PERIOD);
    let (threshold, t) = get(
        |p| p.failure_threshold.as_ref().map(|r| r.value),
        FAILURE_THRESHOLD,
    );
    let seconds = delay.saturating_add(period.saturating_mul(threshold));
    ProbeBudget {
        millis: seconds.saturating_mul(1000),
        probe: name.to_owned(),
        formula: format!(
            "initial_delay {delay} s{d} + period {period} s{pe} × failure_threshold {threshold}{t} = {seconds} s"
        ),
    }
}

/// The budget a slow start-up meets first.
pub(crate) fn of(settings: &Settings) -> ProbeBudget {
    let live = budget("liveness_probe", settings.liveness.as_ref());
    let ready = budget("readiness_probe", settings.readiness.as_ref());
    if ready.millis <= live.millis {
        ready
    } else {
        live
    }
}

/// The deployment's request timeout in ms, and whether it is the default.
pub(crate) fn request_timeout_ms(settings: &Settings) -> (u64, bool) {
    settings
        .request_timeout_ms
        .as_ref()
        .map_or((REQUEST_TIMEOUT_MS, true), |r| (r.value, false))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::deployment::Read;

    fn read(value: u64) -> Option<Read<u64>> {
        Some(Read {
            value,
            pointer: String::new(),
        })
    }

    #[test]
    fn defaults_fill_what_the_file_leaves_out() {
        let none = Settings::default();
        assert_eq!(of(&none).millis, 310_000);
        let s = Settings {
            liveness: Some(ProbeSettings {
                initial_delay: read(2),
                period: read(1),
                timeout: None,
                failure_threshold: read(2),
            }),
            ..Settings::default()
        };
        let b = of(&s);
        assert_eq!((b.millis, b.probe.as_str()), (4000, "liveness_probe"));
        assert_eq!(
            b.formula,
            "initial_delay 2 s + period 1 s × failure_threshold 2 = 4 s"
        );
        assert_eq!(request_timeout_ms(&s), (5000, true));
    }
}
