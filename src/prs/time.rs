//! Durations as the ParallelRunStep logs write them (Python timedeltas and ISO
//! timestamps), apart from the counting so the arithmetic is tested on its own.

/// Seconds of a `H:MM:SS` (or `N days, H:MM:SS`) duration, as Python prints a timedelta.
pub(super) fn hms_seconds(text: &str) -> Option<u64> {
    let (days, clock) = match text.split_once(", ") {
        Some((d, c)) => (d.split_whitespace().next()?.parse::<u64>().ok()?, c),
        None => (0, text),
    };
    let parts: Vec<u64> = clock
        .trim()
        .split(':')
        .map(|p| p.parse().ok())
        .collect::<Option<_>>()?;
    let [h, m, sec] = parts.as_slice() else {
        return None;
    };
    Some(days * 86_400 + h * 3600 + m * 60 + sec)
}

/// `H:MM:SS` between two ISO timestamps (`YYYY-MM-DDTHH:MM:SS[.ffffff]`).
pub(super) fn elapsed(a: &str, b: &str) -> Option<String> {
    let secs = |t: &str| -> Option<i64> {
        let (date, time) = t.split_once('T')?;
        let d: Vec<i64> = date
            .split('-')
            .map(|x| x.parse().ok())
            .collect::<Option<_>>()?;
        let hms: Vec<f64> = time
            .split(':')
            .map(|x| x.parse().ok())
            .collect::<Option<_>>()?;
        let (y, m, day) = (d.first()?, d.get(1)?, d.get(2)?);
        // Days from civil, enough for differences within a run.
        let (yy, mm) = if *m <= 2 { (y - 1, m + 9) } else { (*y, m - 3) };
        let era = yy.div_euclid(400);
        let yoe = yy - era * 400;
        let doy = (153 * mm + 2) / 5 + day - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        let days = era * 146_097 + doe;
        Some(days * 86_400 + (hms.first()? * 3600.0 + hms.get(1)? * 60.0 + hms.get(2)?) as i64)
    };
    let d = secs(b)? - secs(a)?;
    (d >= 0).then(|| format!("{}:{:02}:{:02}", d / 3600, (d / 60) % 60, d % 60))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timedelta_text() {
        assert_eq!(hms_seconds("0:03:31"), Some(211));
        assert_eq!(hms_seconds("1 day, 2:00:00"), Some(93_600));
        assert_eq!(hms_seconds("5:02"), None);
    }

    #[test]
    fn durations() {
        assert_eq!(
            elapsed("2023-05-16T22:00:01.2", "2023-05-17T00:20:53.9").as_deref(),
            Some("2:20:52")
        );
        assert_eq!(elapsed("2023-05-16T22:00:01", "2023-05-16T21:00:00"), None);
    }
}
