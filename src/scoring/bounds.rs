//! How far a scoring probe may go: it is a probe, not a load test, so the request
//! count and concurrency are bounded (more with `--force`), and each request has a
//! timeout.

use std::time::Duration;

use crate::error::{Error, Result};
use crate::ratio::Ratio;

/// Without `--force`: a probe, not a load test.
const SAFE_COUNT: u64 = 100;
const SAFE_CONCURRENCY: u64 = 8;
/// With `--force`.
const MAX_COUNT: u64 = 10_000;
const MAX_CONCURRENCY: u64 = 64;
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// `--count` and `--concurrency` within the probe's limits (larger with `--force`).
pub(crate) fn check(count: u64, concurrency: u64, force: bool) -> Result<()> {
    let (count_limit, concurrency_limit) = if force {
        (MAX_COUNT, MAX_CONCURRENCY)
    } else {
        (SAFE_COUNT, SAFE_CONCURRENCY)
    };
    let over = |flag: &str, value: u64, limit: u64| {
        let e = Error::input(format!("{flag} {value}: at most {limit} without --force"));
        if force {
            Error::input(format!(
                "{flag} {value}: at most {limit}, even with --force"
            ))
        } else {
            e.with_hint("a live endpoint's other callers share it; pass --force for a larger probe")
        }
    };
    if count > count_limit {
        return Err(over("--count", count, count_limit));
    }
    if concurrency > concurrency_limit {
        return Err(over("--concurrency", concurrency, concurrency_limit));
    }
    Ok(())
}

/// `--timeout` for one request (30 s without it).
pub(crate) fn timeout(t: Option<Ratio>) -> Result<Duration> {
    let Some(t) = t else {
        return Ok(DEFAULT_TIMEOUT);
    };
    duration(t, "--timeout", 1..=3_600_000, "between 1 ms and 1 hour")
}

/// A duration flag in whole milliseconds within `range`; `words` says the range.
pub(crate) fn duration(
    t: Ratio,
    flag: &str,
    range: std::ops::RangeInclusive<u64>,
    words: &str,
) -> Result<Duration> {
    let ms = t
        .checked_mul(Ratio::from_int(1000))
        .map(Ratio::ceil)
        .ok()
        .and_then(|ms| u64::try_from(ms).ok())
        .filter(|ms| range.contains(ms))
        .ok_or_else(|| Error::input(format!("{flag}: expected a duration {words}")))?;
    Ok(Duration::from_millis(ms))
}
