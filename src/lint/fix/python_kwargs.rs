//! Edits of Python source: a keyword argument's value in a call (`step_name='a'`,
//! `process_count_per_node=2`), the way a pipeline script sets a ParallelRunConfig.
//! Text-based: only the argument's value is replaced, the rest of the line is kept.

/// A Python keyword argument `key=value` on the line, given the value (a number,
/// `True`/`False`/`None` as they are, anything else as a string literal).
pub(super) fn set_argument(line: &str, key: &str, value: &str) -> Option<String> {
    // `key` as a whole word followed by `=` (not `==`).
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let mut from = 0;
    let (start, eq) = loop {
        let at = from + line[from..].find(key)?;
        let after = &line[at + key.len()..];
        let rest = after.trim_start();
        let whole = !line[..at].ends_with(word) && !after.starts_with(word);
        if whole && rest.starts_with('=') && !rest.starts_with("==") {
            break (at, at + key.len() + (after.len() - rest.len()));
        }
        from = at + key.len();
    };
    let value_at = eq + 1 + (line[eq + 1..].len() - line[eq + 1..].trim_start().len());
    let old = &line[value_at..];
    let len = match old.chars().next()? {
        q @ ('"' | '\'') => 2 + old[1..].find(q)?,
        _ => old.find([',', ')', ' ', '\t']).unwrap_or(old.len()),
    };
    let literal = if value.parse::<f64>().is_ok() || matches!(value, "True" | "False" | "None") {
        value.to_owned()
    } else {
        format!("\"{}\"", value.replace('\\', "\\\\").replace('"', "\\\""))
    };
    Some(format!(
        "{}{key}={literal}{}",
        &line[..start],
        &line[value_at + len..]
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keyword_arguments_take_a_literal_of_the_value() {
        assert_eq!(
            set_argument(
                "    process_count_per_node=0, mini_batch_size='1x',",
                "mini_batch_size",
                "10MB"
            )
            .unwrap(),
            "    process_count_per_node=0, mini_batch_size=\"10MB\","
        );
        assert_eq!(
            set_argument(
                "    process_count_per_node=0,",
                "process_count_per_node",
                "2"
            )
            .unwrap(),
            "    process_count_per_node=2,"
        );
        // A whole word, `=` not `==`, a quoted value with a comma in it.
        assert_eq!(
            set_argument(
                "cfg(my_step_name='a,b', step_name = 'Bad_Name')",
                "step_name",
                "bad-name"
            )
            .unwrap(),
            "cfg(my_step_name='a,b', step_name=\"bad-name\")"
        );
        assert!(set_argument("if run_max_try == 0:", "run_max_try", "3").is_none());
    }
}
