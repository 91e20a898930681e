//! The run times of mini-batch attempts (per process, per node, for the job), kept in
//! bounded memory however many rows the processed mini-batches CSV has, for the mean
//! and percentiles the summary shows.

/// Run times kept exactly while few, then as a logarithmic histogram, so a tree with
/// millions of mini-batches still takes bounded memory.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct RunTimes {
    values: Vec<f64>,
    hist: Vec<u64>,
    count: u64,
    sum: f64,
}

/// Exact values kept per sample; beyond that, buckets.
const EXACT: usize = 4096;
/// Histogram buckets: 20 per decade from 1 ms to 10^6 s.
const PER_DECADE: f64 = 20.0;
const DECADES: f64 = 9.0;

// A log-scale histogram of run times: floats in, bucket indexes out. Counts stay far
// below 2^52 and bucket indexes below 200, so these casts lose nothing that matters.
#[allow(
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss
)]
impl RunTimes {
    fn bucket(v: f64) -> usize {
        let x = (v.max(0.001).log10() + 3.0) * PER_DECADE;
        (x.max(0.0) as usize).min((PER_DECADE * DECADES) as usize)
    }

    pub(crate) fn add(&mut self, v: f64) {
        self.count += 1;
        self.sum += v;
        if self.hist.is_empty() {
            self.values.push(v);
            if self.values.len() > EXACT {
                self.hist = vec![0; (PER_DECADE * DECADES) as usize + 1];
                for x in std::mem::take(&mut self.values) {
                    self.hist[RunTimes::bucket(x)] += 1;
                }
            }
        } else {
            self.hist[RunTimes::bucket(v)] += 1;
        }
    }

    pub(crate) fn merge(&mut self, other: &RunTimes) {
        if other.hist.is_empty() {
            for v in &other.values {
                self.add(*v);
            }
        } else {
            for v in std::mem::take(&mut self.values) {
                self.add_to_hist(v);
            }
            if self.hist.is_empty() {
                self.hist = vec![0; other.hist.len()];
            }
            for (a, b) in self.hist.iter_mut().zip(&other.hist) {
                *a += b;
            }
            self.count += other.count;
            self.sum += other.sum;
        }
    }

    fn add_to_hist(&mut self, v: f64) {
        if self.hist.is_empty() {
            self.hist = vec![0; (PER_DECADE * DECADES) as usize + 1];
        }
        self.hist[RunTimes::bucket(v)] += 1;
    }

    pub(crate) fn mean(&self) -> Option<f64> {
        (self.count > 0).then(|| self.sum / self.count as f64)
    }

    /// Nearest-rank percentile: exact while values are kept, else the bucket's upper edge.
    pub(crate) fn percentile(&self, p: f64) -> Option<f64> {
        if self.count == 0 {
            return None;
        }
        let rank = ((p * self.count as f64).ceil() as u64).clamp(1, self.count);
        if self.hist.is_empty() {
            let mut v = self.values.clone();
            v.sort_by(f64::total_cmp);
            return v.get(rank as usize - 1).copied();
        }
        let mut seen = 0;
        for (i, n) in self.hist.iter().enumerate() {
            seen += n;
            if seen >= rank {
                return Some(10f64.powf((i as f64 + 1.0) / PER_DECADE - 3.0));
            }
        }
        None
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
        assert!(big.values.is_empty() && big.hist.len() < 200, "bounded");
        let p = big.percentile(0.95).unwrap();
        assert!((90.0..=112.0).contains(&p), "{p}");
        let mut merged = RunTimes::default();
        merged.merge(&s);
        merged.merge(&big);
        assert_eq!(merged.count, 100_020);
    }
}
