//! Exact non-negative rational numbers for the replica formula.
//!
//! The article's formula ends in `ceil`, and binary floating point turns results that are
//! mathematically whole (`7 × 1 / 0.7 = 10`) into `10.000000000000002`, which `ceil` rounds
//! up to 11 — one instance too many, billed every hour. Every input is a decimal, so a
//! ratio of two `u128`s represents each of them and every intermediate result exactly.

use std::cmp::Ordering;
use std::fmt;

/// A non-negative fraction kept in lowest terms with a non-zero denominator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Ratio {
    num: u128,
    den: u128,
}

/// An arithmetic result that does not fit in 128 bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Overflow;

impl fmt::Display for Overflow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the numbers are too large to compute exactly")
    }
}

impl std::error::Error for Overflow {}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Ratio {
    pub const ZERO: Ratio = Ratio { num: 0, den: 1 };
    pub const ONE: Ratio = Ratio { num: 1, den: 1 };

    /// `num / den`, reduced. Returns `None` when `den` is zero.
    pub fn new(num: u128, den: u128) -> Option<Ratio> {
        if den == 0 {
            return None;
        }
        let g = gcd(num, den).max(1);
        Some(Ratio {
            num: num / g,
            den: den / g,
        })
    }

    pub fn from_int(n: u128) -> Ratio {
        Ratio { num: n, den: 1 }
    }

    pub fn numer(self) -> u128 {
        self.num
    }

    pub fn denom(self) -> u128 {
        self.den
    }

    pub fn is_zero(self) -> bool {
        self.num == 0
    }

    pub fn is_integer(self) -> bool {
        self.den == 1
    }

    /// Parses a plain decimal such as `20`, `0.7`, `.5` or `1.50`. Signs, exponents,
    /// `inf` and `NaN` are rejected; at most 30 significant digits are accepted.
    pub fn parse_decimal(text: &str) -> Option<Ratio> {
        let (int_part, frac_part) = match text.split_once('.') {
            Some((i, f)) => (i, f),
            None => (text, ""),
        };
        if int_part.is_empty() && frac_part.is_empty() {
            return None;
        }
        if !int_part.bytes().all(|b| b.is_ascii_digit())
            || !frac_part.bytes().all(|b| b.is_ascii_digit())
        {
            return None;
        }
        let int_part = int_part.trim_start_matches('0');
        let frac_part = frac_part.trim_end_matches('0');
        if int_part.len() + frac_part.len() > 30 {
            return None;
        }
        let mut num: u128 = 0;
        for b in int_part.bytes().chain(frac_part.bytes()) {
            num = num * 10 + u128::from(b - b'0');
        }
        let den = 10u128.pow(u32::try_from(frac_part.len()).ok()?);
        Ratio::new(num, den)
    }

    pub fn checked_add(self, other: Ratio) -> Result<Ratio, Overflow> {
        let g = gcd(self.den, other.den).max(1);
        let den = (self.den / g).checked_mul(other.den).ok_or(Overflow)?;
        let left = self.num.checked_mul(other.den / g).ok_or(Overflow)?;
        let right = other.num.checked_mul(self.den / g).ok_or(Overflow)?;
        Ratio::new(left.checked_add(right).ok_or(Overflow)?, den).ok_or(Overflow)
    }

    pub fn checked_mul(self, other: Ratio) -> Result<Ratio, Overflow> {
        // Cross-cancel first so that products of already reduced fractions stay small.
        let g1 = gcd(self.num, other.den).max(1);
        let g2 = gcd(other.num, self.den).max(1);
        let num = (self.num / g1)
            .checked_mul(other.num / g2)
            .ok_or(Overflow)?;
        let den = (self.den / g2)
            .checked_mul(other.den / g1)
            .ok_or(Overflow)?;
        Ratio::new(num, den).ok_or(Overflow)
    }

    /// `self / other`; dividing by zero is reported as an overflow.
    pub fn checked_div(self, other: Ratio) -> Result<Ratio, Overflow> {
        if other.num == 0 {
            return Err(Overflow);
        }
        self.checked_mul(Ratio {
            num: other.den,
            den: other.num,
        })
    }

    /// The smallest integer not below `self`.
    pub fn ceil(self) -> u128 {
        self.num / self.den + u128::from(!self.num.is_multiple_of(self.den))
    }

    /// The largest integer not above `self`.
    pub fn floor(self) -> u128 {
        self.num / self.den
    }

    /// Decimal text rounded half-up to at most `places` fraction digits, trailing zeros
    /// trimmed: `2000/7` with 3 places is `285.714`.
    pub fn to_decimal_string(self, places: u32) -> String {
        let scale = 10u128.saturating_pow(places);
        let scaled = match self.num.checked_mul(scale) {
            Some(n) => (n + self.den / 2) / self.den,
            // Too large to scale: fall back to the integer part, which is what matters.
            None => return self.floor().to_string(),
        };
        let int = scaled / scale;
        let frac = scaled % scale;
        if frac == 0 {
            return int.to_string();
        }
        let digits = format!("{frac:0width$}", width = places as usize);
        format!("{int}.{}", digits.trim_end_matches('0'))
    }

    /// Decimal text for people: six fraction digits, or as many as a tiny value needs to
    /// show three significant ones (`0.0000001` is not printed as `0`).
    pub fn to_readable_string(self) -> String {
        let text = self.to_decimal_string(6);
        if text != "0" || self.num == 0 {
            return text;
        }
        let mut places = 7;
        while places < 36 && self.to_decimal_string(places) == "0" {
            places += 1;
        }
        self.to_decimal_string(places + 2)
    }

    /// Nearest `f64`, for JSON output only; never used in a computation.
    #[allow(clippy::cast_precision_loss)]
    pub fn to_f64(self) -> f64 {
        // u128 → f64 is the documented lossy conversion; the exact value is kept elsewhere.
        self.num as f64 / self.den as f64
    }
}

impl PartialOrd for Ratio {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Ratio {
    fn cmp(&self, other: &Self) -> Ordering {
        // Compare a/b with c/d through their integer and fractional parts, which never
        // overflows (the continued-fraction style comparison).
        let (mut a, mut b, mut c, mut d) = (self.num, self.den, other.num, other.den);
        let mut flipped = false;
        loop {
            let (qa, qc) = (a / b, c / d);
            if qa != qc {
                let ord = qa.cmp(&qc);
                return if flipped { ord.reverse() } else { ord };
            }
            let (ra, rc) = (a % b, c % d);
            match (ra == 0, rc == 0) {
                (true, true) => return Ordering::Equal,
                (true, false) => {
                    return if flipped {
                        Ordering::Greater
                    } else {
                        Ordering::Less
                    };
                }
                (false, true) => {
                    return if flipped {
                        Ordering::Less
                    } else {
                        Ordering::Greater
                    };
                }
                (false, false) => {
                    // a/b - qa = ra/b; comparing ra/b with rc/d is comparing d/rc with b/ra reversed.
                    (a, b, c, d) = (b, ra, d, rc);
                    flipped = !flipped;
                }
            }
        }
    }
}

impl fmt::Display for Ratio {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_decimal_string(6))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Ratio {
        Ratio::parse_decimal(s).unwrap()
    }

    #[test]
    fn parses_plain_decimals() {
        assert_eq!(d("20"), Ratio::from_int(20));
        assert_eq!(d("0.7"), Ratio::new(7, 10).unwrap());
        assert_eq!(d(".5"), Ratio::new(1, 2).unwrap());
        assert_eq!(d("1.50"), Ratio::new(3, 2).unwrap());
        assert_eq!(d("007"), Ratio::from_int(7));
        assert_eq!(d("5."), Ratio::from_int(5));
    }

    #[test]
    fn rejects_non_decimals() {
        for bad in [
            "", ".", "-1", "+1", "1e3", "inf", "NaN", "1,5", " 1", "1.2.3", "0x10", "١",
        ] {
            assert_eq!(Ratio::parse_decimal(bad), None, "{bad:?}");
        }
        assert_eq!(Ratio::parse_decimal(&"9".repeat(31)), None);
    }

    #[test]
    fn whole_results_stay_whole() {
        // 2.1 × 10 / 0.7 is 30.000000000000004 in f64.
        let r = d("2.1")
            .checked_mul(d("10"))
            .unwrap()
            .checked_div(d("0.7"))
            .unwrap();
        assert_eq!(r, Ratio::from_int(30));
        assert_eq!(r.ceil(), 30);
        assert_eq!(
            (2.1_f64 * 10.0 / 0.7).ceil(),
            31.0,
            "f64 would have said 31"
        );
    }

    #[test]
    fn ceil_and_floor() {
        let r = Ratio::new(2000, 7).unwrap();
        assert_eq!(r.ceil(), 286);
        assert_eq!(r.floor(), 285);
        assert_eq!(Ratio::ZERO.ceil(), 0);
    }

    #[test]
    fn tiny_values_keep_their_digits() {
        assert_eq!(d("0.0000001").to_readable_string(), "0.0000001");
        assert_eq!(d("0.000000123456").to_readable_string(), "0.000000123");
        assert_eq!(d("20").to_readable_string(), "20");
        assert_eq!(d("0").to_readable_string(), "0");
    }

    #[test]
    fn decimal_rendering() {
        assert_eq!(Ratio::new(2000, 7).unwrap().to_decimal_string(3), "285.714");
        assert_eq!(Ratio::new(1, 2).unwrap().to_decimal_string(0), "1");
        assert_eq!(d("0.7").to_decimal_string(6), "0.7");
        assert_eq!(Ratio::new(2, 3).unwrap().to_decimal_string(2), "0.67");
        assert_eq!(
            Ratio::from_int(u128::MAX).to_decimal_string(3),
            u128::MAX.to_string()
        );
    }

    #[test]
    fn ordering_is_exact() {
        assert!(Ratio::new(1, 3).unwrap() < Ratio::new(334, 1000).unwrap());
        assert!(Ratio::new(2, 3).unwrap() > Ratio::new(666_666, 1_000_000).unwrap());
        assert_eq!(
            Ratio::new(u128::MAX - 1, u128::MAX)
                .unwrap()
                .cmp(&Ratio::new(u128::MAX - 2, u128::MAX - 1).unwrap()),
            Ordering::Greater
        );
        assert_eq!(d("1.5").cmp(&Ratio::new(3, 2).unwrap()), Ordering::Equal);
        assert!(Ratio::from_int(2) > d("1.999"));
    }

    #[test]
    fn addition() {
        assert_eq!(d("0.1").checked_add(d("0.2")).unwrap(), d("0.3"));
        assert_eq!(
            Ratio::new(1, 6)
                .unwrap()
                .checked_add(Ratio::new(1, 3).unwrap())
                .unwrap(),
            d("0.5")
        );
    }

    #[test]
    fn overflow_is_reported() {
        let big = Ratio::from_int(u128::MAX / 2);
        assert_eq!(big.checked_mul(Ratio::from_int(3)), Err(Overflow));
        assert_eq!(Ratio::ONE.checked_div(Ratio::ZERO), Err(Overflow));
    }
}
