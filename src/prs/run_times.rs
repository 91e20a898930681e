//! The run times of mini-batch attempts (per process, per node, for the job), kept in
//! bounded memory however many rows the processed mini-batches CSV has, for the mean
//! and percentiles the summary shows.

use hdrhistogram::Histogram;

/// Run times kept exactly while few, then in an HDR histogram, so a tree with millions
/// of mini-batches still takes bounded memory.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct RunTimes {
    values: Vec<f64>,
    hist: Option<Histogram<u64>>,
    count: u64,
    sum: f64,
}

/// Exact values kept per sample; beyond that, the histogram.
const EXACT: usize = 4096;
/// The histogram counts microseconds up to about 11.6 days with three significant
/// digits (0.1 % error): an attempt longer than that is clamped to the top.
const HIGHEST_US: u64 = 1_000_000_000_000;

fn histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, HIGHEST_US, 3).expect("constant bounds are valid")
}

// Run times are seconds as floats; the histogram counts whole microseconds. Counts
// stay far below 2^52, so the casts lose nothing that matters.
#[allow(
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss
)]
fn micros(v: f64) -> u64 {
    ((v.max(0.0) * 1e6).round() as u64).clamp(1, HIGHEST_US)
}

#[allow(
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss
)]
impl RunTimes {
    pub(crate) fn add(&mut self, v: f64) {
        self.count += 1;
        self.sum += v;
        match &mut self.hist {
            Some(h) => h.saturating_record(micros(v)),
            None => {
                self.values.push(v);
                if self.values.len() > EXACT {
                    self.spill();
                }
            }
        }
    }

    /// Moves the exact values into the histogram.
    fn spill(&mut self) -> &mut Histogram<u64> {
        let h = self.hist.get_or_insert_with(histogram);
        for v in std::mem::take(&mut self.values) {
            h.saturating_record(micros(v));
        }
        h
    }

    pub(crate) fn merge(&mut self, other: &RunTimes) {
        match &other.hist {
            None => {
                for v in &other.values {
                    self.add(*v);
                }
            }
            Some(theirs) => {
                // Same bounds on both sides, so adding cannot fail.
                let _ = self.spill().add(theirs);
                self.count += other.count;
                self.sum += other.sum;
            }
        }
    }

    pub(crate) fn mean(&self) -> Option<f64> {
        (self.count > 0).then(|| self.sum / self.count as f64)
    }

    /// Nearest-rank percentile: exact while values are kept, else the histogram's
    /// value at that quantile (within 0.1 %).
    pub(crate) fn percentile(&self, p: f64) -> Option<f64> {
        if self.count == 0 {
            return None;
        }
        if let Some(h) = &self.hist {
            return Some(h.value_at_quantile(p) as f64 / 1e6);
        }
        let rank = ((p * self.count as f64).ceil() as usize).clamp(1, self.values.len());
        let mut v = self.values.clone();
        v.sort_by(f64::total_cmp);
        v.get(rank - 1).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_stay_exact_when_small_and_bounded_when_large() {
        let mut s = RunTimes::default();
        for v in 1..=20 {
            s.add(f64::from(v));
        }
        assert_eq!(s.percentile(0.95), Some(19.0));
        assert_eq!(s.mean(), Some(10.5));
        let mut big = RunTimes::default();
        for v in 0..100_000 {
            big.add(1.0 + f64::from(v % 100));
        }
        assert!(big.values.is_empty() && big.hist.is_some(), "bounded");
        let p = big.percentile(0.95).unwrap();
        assert!((94.9..=95.1).contains(&p), "{p}");
        let mut merged = RunTimes::default();
        merged.merge(&s);
        merged.merge(&big);
        assert_eq!(merged.count, 100_020);
        merged.merge(&big);
        let median = merged.percentile(0.5).unwrap();
        assert!((49.9..=50.1).contains(&median), "{median}");
        assert_eq!(merged.mean().map(f64::round), Some(50.0));
    }
}
