//! Parsers for the human-typed quantities of `replicas`: request rates, durations,
//! utilization percentages and counts. Each error names the accepted forms so the
//! message clap prints next to the flag is enough to fix the command line.

use crate::ratio::Ratio;

pub(crate) const RATE_FORM: &str = "a decimal number greater than 0, such as 20 or 0.5";
pub(crate) const DURATION_FORM: &str = "a duration greater than 0: seconds (10, 1.5), a number with a unit (250ms, 10s, 2m, 1h) or ISO 8601 (PT10S, PT1M30S)";
pub(crate) const UTILIZATION_FORM: &str =
    "a fraction in (0, 1] such as 0.7, or a percentage in (0, 100] such as 70% or 70";
pub(crate) const COUNT_FORM: &str = "a whole number of at least 1";

/// A decimal strictly greater than zero (`--rps`).
pub(crate) fn parse_rate(text: &str) -> Result<Ratio, String> {
    match Ratio::parse_decimal(text.trim()) {
        Some(r) if !r.is_zero() => Ok(r),
        _ => Err(format!("expected {RATE_FORM}")),
    }
}

/// A duration in seconds, exact. Bare numbers are seconds, as in the article's
/// `request_process_time = 10`.
pub(crate) fn parse_duration(text: &str) -> Result<Ratio, String> {
    let err = || format!("expected {DURATION_FORM}");
    let t = text.trim();
    let seconds = if t.len() > 1 && (t.starts_with('P') || t.starts_with('p')) {
        parse_iso8601(&t[1..]).ok_or_else(err)?
    } else {
        let split = t
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(t.len());
        let (number, unit) = t.split_at(split);
        let value = Ratio::parse_decimal(number).ok_or_else(err)?;
        let per_unit = match unit.trim().to_ascii_lowercase().as_str() {
            "" | "s" | "sec" | "secs" | "second" | "seconds" => Ratio::ONE,
            "ms" | "msec" | "millisecond" | "milliseconds" => {
                Ratio::new(1, 1000).ok_or_else(err)?
            }
            "m" | "min" | "mins" | "minute" | "minutes" => Ratio::from_int(60),
            "h" | "hr" | "hour" | "hours" => Ratio::from_int(3600),
            _ => return Err(err()),
        };
        value.checked_mul(per_unit).map_err(|_| err())?
    };
    if seconds.is_zero() {
        return Err(err());
    }
    Ok(seconds)
}

/// A look-back (`--since`): a number with a unit, days too (`24h`, `90m`, `7d`), or
/// ISO 8601 (`PT6H`, `P7D`). A bare number is refused: `--since 10` could mean seconds,
/// minutes or days.
pub(crate) fn parse_lookback(text: &str) -> Result<Ratio, String> {
    const FORM: &str = "a look-back with a unit: 90m, 24h, 7d, or ISO 8601 (PT6H, P7D)";
    let t = text.trim();
    if t.is_empty() || t.chars().all(|c| c.is_ascii_digit() || c == '.') {
        return Err(format!("expected {FORM}"));
    }
    let days = t
        .strip_suffix(['d', 'D'])
        .filter(|n| !n.starts_with(['P', 'p']))
        .map(|n| n.strip_suffix(" ").unwrap_or(n));
    match days {
        Some(n) => Ratio::parse_decimal(n.trim())
            .filter(|d| !d.is_zero())
            .and_then(|d| d.checked_mul(Ratio::from_int(86_400)).ok())
            .ok_or_else(|| format!("expected {FORM}")),
        None => parse_duration(t).map_err(|_| format!("expected {FORM}")),
    }
}

/// The part of an ISO 8601 duration after `P`: `[nD][T[nH][nM][nS]]`, fractions allowed.
fn parse_iso8601(rest: &str) -> Option<Ratio> {
    let upper = rest.to_ascii_uppercase();
    let (date, time) = match upper.split_once('T') {
        Some((d, t)) if !t.is_empty() => (d, Some(t)),
        Some(_) => return None,
        None => (upper.as_str(), None),
    };
    let mut total = Ratio::ZERO;
    let mut add = |text: &str, units: &[(char, u128)]| -> Option<()> {
        let mut rest = text;
        let mut last = 0usize;
        while !rest.is_empty() {
            let at = rest.find(|c: char| c.is_ascii_alphabetic())?;
            let (number, tail) = rest.split_at(at);
            let designator = tail.chars().next()?;
            let idx = units.iter().position(|(c, _)| *c == designator)?;
            // Designators must appear once each and in order (H before M before S).
            if idx < last || number.is_empty() {
                return None;
            }
            last = idx + 1;
            let value = Ratio::parse_decimal(number)?;
            let part = value.checked_mul(Ratio::from_int(units[idx].1)).ok()?;
            total = total.checked_add(part).ok()?;
            rest = &tail[1..];
        }
        Some(())
    };
    if date.is_empty() && time.is_none() {
        return None;
    }
    add(date, &[('D', 86_400)])?;
    if let Some(t) = time {
        add(t, &[('H', 3600), ('M', 60), ('S', 1)])?;
    }
    Some(total)
}

/// Target utilization as a fraction in (0, 1]. `0.7`, `70%` and `70` all mean 70 %:
/// a bare number above 1 can only be a percentage, and one at or below 1 is a fraction
/// (so `1` is 100 %, never 1 %).
pub(crate) fn parse_utilization(text: &str) -> Result<Ratio, String> {
    let err = || format!("expected {UTILIZATION_FORM}");
    let t = text.trim();
    let (number, percent) = match t.strip_suffix('%') {
        Some(n) => (n.trim_end(), true),
        None => (t, false),
    };
    let value = Ratio::parse_decimal(number).ok_or_else(err)?;
    let fraction = if percent || value > Ratio::ONE {
        value.checked_div(Ratio::from_int(100)).map_err(|_| err())?
    } else {
        value
    };
    if fraction.is_zero() || fraction > Ratio::ONE {
        return Err(err());
    }
    Ok(fraction)
}

/// A whole number ≥ 1 (`--max-concurrent`, `--instances`).
pub(crate) fn parse_count(text: &str) -> Result<u64, String> {
    let t = text.trim();
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("expected {COUNT_FORM}"));
    }
    match t.parse::<u64>() {
        Ok(n) if n >= 1 => Ok(n),
        Ok(_) => Err(format!("expected {COUNT_FORM}")),
        Err(_) => Err(format!("expected {COUNT_FORM} that fits in 64 bits")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(n: u128, d: u128) -> Ratio {
        Ratio::new(n, d).unwrap()
    }

    #[test]
    fn look_backs_need_a_unit_and_take_days() {
        let secs = |t: &str| parse_lookback(t).map(|r| r.to_decimal_string(0));
        assert_eq!(secs("7d").as_deref(), Ok("604800"));
        assert_eq!(secs("1.5d").as_deref(), Ok("129600"));
        assert_eq!(secs("24h").as_deref(), Ok("86400"));
        assert_eq!(secs("90m").as_deref(), Ok("5400"));
        assert_eq!(secs("P7D").as_deref(), Ok("604800"));
        assert_eq!(secs("PT6H").as_deref(), Ok("21600"));
        for bad in ["10", "", "0d", "xd", "7 days"] {
            assert!(parse_lookback(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn durations_in_every_accepted_form() {
        let cases = [
            ("10", r(10, 1)),
            ("1.5", r(3, 2)),
            ("10s", r(10, 1)),
            ("1.5s", r(3, 2)),
            ("250ms", r(1, 4)),
            ("250 ms", r(1, 4)),
            ("2m", r(120, 1)),
            ("1h", r(3600, 1)),
            ("PT10S", r(10, 1)),
            ("pt10s", r(10, 1)),
            ("PT0.25S", r(1, 4)),
            ("PT1M30S", r(90, 1)),
            ("PT1H", r(3600, 1)),
            ("P1DT1S", r(86_401, 1)),
            ("P1D", r(86_400, 1)),
        ];
        for (text, want) in cases {
            assert_eq!(parse_duration(text), Ok(want), "{text}");
        }
    }

    #[test]
    fn durations_rejected() {
        for bad in [
            "", "0", "0s", "PT0S", "-1s", "10x", "s", "ms", "PT", "P", "PT10", "PT1S1M", "PT1M1M",
            "10 s s", "1e3", "abc", "P1H", "PTS",
        ] {
            let err = parse_duration(bad).unwrap_err();
            assert!(err.contains("ISO 8601"), "{bad}: {err}");
        }
    }

    #[test]
    fn utilization_forms() {
        assert_eq!(parse_utilization("0.7"), Ok(r(7, 10)));
        assert_eq!(parse_utilization("70%"), Ok(r(7, 10)));
        assert_eq!(parse_utilization("70 %"), Ok(r(7, 10)));
        assert_eq!(parse_utilization("70"), Ok(r(7, 10)));
        assert_eq!(parse_utilization("1"), Ok(Ratio::ONE));
        assert_eq!(parse_utilization("100"), Ok(Ratio::ONE));
        assert_eq!(parse_utilization("100%"), Ok(Ratio::ONE));
        assert_eq!(parse_utilization("0.5%"), Ok(r(1, 200)));
        assert_eq!(parse_utilization("1%"), Ok(r(1, 100)));
        for bad in ["0", "0%", "101", "100.5%", "-70", "seventy", "", "%", "1e2"] {
            assert!(parse_utilization(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn rates_and_counts() {
        assert_eq!(parse_rate("20"), Ok(r(20, 1)));
        assert_eq!(parse_rate("0.5"), Ok(r(1, 2)));
        assert!(parse_rate("0").is_err());
        assert!(parse_rate("-3").is_err());
        assert!(parse_rate("fast").is_err());
        assert_eq!(parse_count("4"), Ok(4));
        for bad in ["0", "-1", "1.5", "", "x", "+2"] {
            assert!(parse_count(bad).is_err(), "{bad}");
        }
        assert!(
            parse_count("99999999999999999999999")
                .unwrap_err()
                .contains("64 bits")
        );
    }
}
