//! CSV lines as the ParallelRunStep reports and the resource monitor write them, split
//! here once so the mini-batch reader and the monitor's reader (`perf.rs`) share one
//! quoting rule without importing each other.

/// Splits one CSV line (RFC 4180 quoting on a single line).
pub(super) fn csv_fields(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => out.push(std::mem::take(&mut field)),
            (c, _) => field.push(c),
        }
    }
    out.push(field);
    out
}

/// The CSV header once known; until then, takes `fields` as the header when a column
/// name contains `marker` (lines before the header are skipped).
pub(super) fn learn_header<'h>(
    slot: &'h mut Option<Vec<String>>,
    fields: &[String],
    marker: &str,
) -> Option<&'h Vec<String>> {
    if slot.is_none() {
        let h: Vec<String> = fields
            .iter()
            .map(|s| s.trim().to_ascii_lowercase())
            .collect();
        if h.iter().any(|c| c.contains(marker)) {
            *slot = Some(h);
        }
        return None;
    }
    slot.as_ref()
}
