//! Durations and timestamps as the ParallelRunStep logs write them (Python timedeltas,
//! ISO and sys-log
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

/// `H:MM:SS` between two ISO timestamps (`YYYY-MM-DDTHH:MM:SS[.ffffff]`), each
/// counted in whole seconds as the job's own messages do.
pub(super) fn elapsed(a: &str, b: &str) -> Option<String> {
    let secs = |t: &str| -> Option<jiff::civil::DateTime> {
        let dt: jiff::civil::DateTime = t.trim().parse().ok()?;
        dt.with().subsec_nanosecond(0).build().ok()
    };
    let d = secs(b)?.duration_since(secs(a)?).as_secs();
    (d >= 0).then(|| format!("{}:{:02}:{:02}", d / 3600, (d / 60) % 60, d % 60))
}

/// Seconds from `a` to `b`, timestamps as the tree writes them (`YYYY-MM-DD HH:MM:SS`
/// in sys logs, `YYYY-MM-DDTHH:MM:SS[.ffffff]` in the overview), in whole seconds.
pub(super) fn seconds_between(a: &str, b: &str) -> Option<i64> {
    let parse = |t: &str| -> Option<jiff::civil::DateTime> {
        let t = t.trim();
        let head = t.get(..19)?.replacen(' ', "T", 1);
        head.parse().ok()
    };
    Some(parse(b)?.duration_since(parse(a)?).as_secs())
}

/// `H:MM:SS` of a number of seconds.
pub(super) fn hms(seconds: i64) -> String {
    let d = seconds.max(0);
    format!("{}:{:02}:{:02}", d / 3600, (d / 60) % 60, d % 60)
}

/// A sortable `YYYYMMDDHHMMSS` of a timestamp in any of the shapes the tree writes
/// (`2023-05-16T22:57:00.615`, `2023-05-16 22:57:26,145|…`, a snapshot's
/// `2024-03-14T10:05`), or `None` when it does not start with a date.
pub(super) fn time_key(text: &str) -> Option<String> {
    let t = text.trim_start().trim_start_matches('[');
    let b = t.as_bytes();
    if b.len() < 10 || !b[..4].iter().all(u8::is_ascii_digit) || b[4] != b'-' {
        return None;
    }
    let digits: String = t
        .chars()
        .take(19)
        .filter(char::is_ascii_digit)
        .take(14)
        .collect();
    (digits.len() >= 8).then(|| format!("{digits:0<14}"))
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
    fn time_keys_compare_across_shapes() {
        assert_eq!(
            time_key("2023-05-16T22:57:00.615964").unwrap(),
            "20230516225700"
        );
        assert_eq!(
            time_key("2023-05-16 22:57:26,145|ERROR|229|process001 exits").unwrap(),
            "20230516225726"
        );
        assert_eq!(time_key("2024-03-14T10:05").unwrap(), "20240314100500");
        assert_eq!(time_key("process001 exits with returncode -9."), None);
    }

    #[test]
    fn seconds_across_shapes() {
        assert_eq!(
            seconds_between("2023-05-17 08:14:10", "2023-05-17T08:23:31.552"),
            Some(561)
        );
        assert_eq!(seconds_between("08:14:10", "2023-05-17 08:14:10"), None);
        assert_eq!(hms(561), "0:09:21");
    }

    #[test]
    fn durations() {
        assert_eq!(
            elapsed("2023-05-16T22:00:01.2", "2023-05-17T00:20:53.9").as_deref(),
            Some("2:20:52")
        );
        assert_eq!(elapsed("2023-05-16T22:00:01", "2023-05-16T21:00:00"), None);
        // Whole seconds of each timestamp, as before: 01.9 to 02.1 is one second.
        assert_eq!(
            elapsed("2023-05-16T22:00:01.9", "2023-05-16T22:00:02.1").as_deref(),
            Some("0:00:01")
        );
        assert_eq!(
            elapsed("2024-02-28T23:00:00", "2024-03-01T01:00:00").as_deref(),
            Some("26:00:00")
        );
    }
}
