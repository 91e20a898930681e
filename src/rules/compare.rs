//! Typed comparison of facts: Python-style versions, dates and exact decimals.

use std::cmp::Ordering;
use std::str::FromStr;

use crate::ratio::Ratio;

/// The comparison a `when` condition applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

impl Op {
    pub fn parse(text: &str) -> Option<Op> {
        Some(match text.trim() {
            "<" => Op::Lt,
            "<=" => Op::Le,
            ">" => Op::Gt,
            ">=" => Op::Ge,
            "==" | "=" => Op::Eq,
            "!=" => Op::Ne,
            _ => return None,
        })
    }

    pub fn holds(self, ord: Ordering) -> bool {
        match self {
            Op::Lt => ord == Ordering::Less,
            Op::Le => ord != Ordering::Greater,
            Op::Gt => ord == Ordering::Greater,
            Op::Ge => ord != Ordering::Less,
            Op::Eq => ord == Ordering::Equal,
            Op::Ne => ord != Ordering::Equal,
        }
    }
}

/// How a fact is compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueType {
    Version,
    Date,
    Number,
    Text,
}

impl ValueType {
    pub fn parse(text: &str) -> Option<ValueType> {
        Some(match text.trim() {
            "version" => ValueType::Version,
            "date" => ValueType::Date,
            "number" => ValueType::Number,
            "text" => ValueType::Text,
            _ => return None,
        })
    }

    /// Checks a literal in a rule file, so a typo fails at load time.
    pub fn validate(self, text: &str) -> Result<(), String> {
        let ok = match self {
            ValueType::Version => Version::parse(text).is_some(),
            ValueType::Date => parse_date(text).is_some(),
            ValueType::Number => Ratio::parse_decimal(text.trim()).is_some(),
            ValueType::Text => true,
        };
        if ok {
            Ok(())
        } else {
            Err(match self {
                ValueType::Version => format!("'{text}' is not a version such as 0.7.0"),
                ValueType::Date => format!("'{text}' is not a date such as 20220708 or 2022-07-08"),
                ValueType::Number => format!("'{text}' is not a decimal number"),
                ValueType::Text => String::new(),
            })
        }
    }

    /// Compares `fact` with `value`; `None` when the fact does not parse as this type.
    pub fn compare(self, fact: &str, value: &str) -> Option<Ordering> {
        match self {
            ValueType::Version => Some(Version::parse(fact)?.cmp(&Version::parse(value)?)),
            ValueType::Date => Some(parse_date(fact)?.cmp(&parse_date(value)?)),
            ValueType::Number => {
                Some(Ratio::parse_decimal(fact.trim())?.cmp(&Ratio::parse_decimal(value.trim())?))
            }
            ValueType::Text => Some(fact.cmp(value)),
        }
    }
}

/// `YYYYMMDD` or `YYYY-MM-DD` as a comparable number.
pub(crate) fn parse_date(text: &str) -> Option<u32> {
    let digits: String = text.trim().chars().filter(|c| *c != '-').collect();
    if digits.len() != 8 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: u32 = digits.parse().ok()?;
    let (month, day) = ((n / 100) % 100, n % 100);
    ((1..=12).contains(&month) && (1..=31).contains(&day)).then_some(n)
}

/// A Python package version, ordered by PEP 440 (`pep440_rs`). Logs also show
/// versions PEP 440 does not accept; those are kept in a lenient form and compared by
/// release numbers and pre/post phase, which is also how a PEP 440 version compares with
/// one of them.
#[derive(Debug, Clone)]
pub(crate) struct Version {
    pep440: Option<pep440_rs::Version>,
    release: Vec<u64>,
    /// Pre-release phase: dev < a < b < rc < (final) < post.
    phase: (u8, u64),
}

impl Version {
    /// Accepts what the lenient form accepts (the set of versions rule files and facts
    /// may use is unchanged), ordered by PEP 440 where both sides are PEP 440.
    pub(crate) fn parse(text: &str) -> Option<Version> {
        let (release, phase) = Version::lenient(text)?;
        let pep440 = pep440_rs::Version::from_str(text.trim()).ok();
        Some(Version {
            pep440,
            release,
            phase,
        })
    }

    fn lenient(text: &str) -> Option<(Vec<u64>, (u8, u64))> {
        let t = text
            .trim()
            .trim_start_matches(['v', 'V'])
            .to_ascii_lowercase();
        let release_end = t
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(t.len());
        let (release_text, suffix) = t.split_at(release_end);
        let release_text = release_text.trim_end_matches('.');
        if release_text.is_empty() {
            return None;
        }
        let release = release_text
            .split('.')
            .map(|p| p.parse::<u64>().ok())
            .collect::<Option<Vec<_>>>()?;
        let suffix = suffix.trim_start_matches(['.', '-', '_']);
        let phase = if suffix.is_empty() {
            (4, 0)
        } else {
            let (name, number) = suffix.split_at(
                suffix
                    .find(|c: char| c.is_ascii_digit())
                    .unwrap_or(suffix.len()),
            );
            let n = if number.is_empty() {
                0
            } else {
                number.parse().ok()?
            };
            let rank = match name.trim_end_matches(['.', '-', '_']) {
                "dev" => 0,
                "a" | "alpha" => 1,
                "b" | "beta" => 2,
                "rc" | "c" | "pre" | "preview" => 3,
                "post" | "r" | "rev" => 5,
                _ => return None,
            };
            (rank, n)
        };
        Some((release, phase))
    }
}

impl PartialEq for Version {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Version {}

impl PartialOrd for Version {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Version {
    fn cmp(&self, other: &Self) -> Ordering {
        if let (Some(a), Some(b)) = (&self.pep440, &other.pep440) {
            return a.cmp(b);
        }
        // 0.7 == 0.7.0: compare with trailing zeros ignored.
        let len = self.release.len().max(other.release.len());
        for i in 0..len {
            let a = self.release.get(i).copied().unwrap_or(0);
            let b = other.release.get(i).copied().unwrap_or(0);
            match a.cmp(&b) {
                Ordering::Equal => {}
                o => return o,
            }
        }
        self.phase.cmp(&other.phase)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Version {
        Version::parse(s).unwrap()
    }

    #[test]
    fn versions_order_like_python() {
        let ordered = [
            "0.4.10",
            "0.4.13",
            "0.6.1",
            "0.7.0",
            "0.7.7",
            "0.8.4.2",
            "1.0.0.dev1",
            "1.0.0a1",
            "1.0.0b2",
            "1.0.0rc1",
            "1.0.0",
            "1.0.0.post1",
            "1.5.1",
            "10.0",
        ];
        for pair in ordered.windows(2) {
            assert!(v(pair[0]) < v(pair[1]), "{} < {}", pair[0], pair[1]);
        }
        assert_eq!(v("0.7"), v("0.7.0"));
        assert_eq!(v("v1.2"), v("1.2"));
        assert!(v("0.4.9") < v("0.4.10"), "numeric, not lexicographic");
        // Not PEP 440, compared by the lenient form as before.
        assert_eq!(v("1.2."), v("1.2"));
        assert!(v("1.2.") < v("1.3rc1"));
        for bad in ["", "x", "1.x", "1.0.0zeta"] {
            assert!(Version::parse(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn typed_comparisons() {
        assert_eq!(
            ValueType::Version.compare("0.4.10", "0.7.0"),
            Some(Ordering::Less)
        );
        assert_eq!(
            ValueType::Date.compare("20220616", "20220708"),
            Some(Ordering::Less)
        );
        assert_eq!(
            ValueType::Date.compare("2022-07-08", "20220708"),
            Some(Ordering::Equal)
        );
        assert_eq!(ValueType::Date.compare("20221301", "20220708"), None);
        assert_eq!(ValueType::Number.compare("8", "6"), Some(Ordering::Greater));
        assert_eq!(
            ValueType::Number.compare("0.30", "0.3"),
            Some(Ordering::Equal)
        );
        assert_eq!(
            ValueType::Text.compare("Standard_DS3_v2", "Standard_DS3_v2"),
            Some(Ordering::Equal)
        );
        assert!(ValueType::Date.validate("2022-13-01").is_err());
        assert!(ValueType::Version.validate("0.7.0").is_ok());
    }

    #[test]
    fn ops() {
        assert!(Op::parse("<").unwrap().holds(Ordering::Less));
        assert!(Op::parse("<=").unwrap().holds(Ordering::Equal));
        assert!(!Op::parse(">").unwrap().holds(Ordering::Equal));
        assert!(Op::parse("!=").unwrap().holds(Ordering::Greater));
        assert!(Op::parse("~=").is_none());
    }
}
