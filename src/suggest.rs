//! "Did you mean": the names closest to what the user typed, for unknown rule ids,
//! error codes and flags' values.

/// Edit distance, for "did you mean".
pub(crate) fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.to_lowercase().chars().collect();
    let b: Vec<char> = b.to_lowercase().chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != cb);
            cur.push((prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

/// Up to five names close to `query`, closest first.
pub(crate) fn closest(query: &str, names: &[&str]) -> Vec<String> {
    let q = query.trim().to_lowercase();
    let mut scored: Vec<(usize, &str)> = names
        .iter()
        .map(|n| {
            let d = distance(&q, n);
            // A substring is as good as a small typo.
            let d = if n.to_lowercase().contains(&q) && q.len() >= 3 {
                d.min(2)
            } else {
                d
            };
            (d, *n)
        })
        .filter(|(d, n)| *d <= (n.len().max(q.len()) / 3).max(2))
        .collect();
    scored.sort();
    scored.dedup_by(|a, b| a.1.eq_ignore_ascii_case(b.1));
    scored
        .into_iter()
        .take(5)
        .map(|(_, n)| n.to_owned())
        .collect()
}
