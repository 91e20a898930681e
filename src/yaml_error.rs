//! One-sentence YAML errors. serde-saphyr renders a multi-line snippet; amldoctor
//! prints one line naming the file, the line and what was expected.

use std::fmt;

/// A YAML parse or schema error reduced to its position and message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct YamlError {
    pub line: Option<u64>,
    pub column: Option<u64>,
    pub message: String,
}

impl YamlError {
    pub(crate) fn from_saphyr(err: &serde_saphyr::Error) -> YamlError {
        let text = err.to_string();
        let first = text
            .lines()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("invalid YAML");
        let first = first.trim().trim_start_matches("error:").trim();
        // "line 2 column 1: unknown field `x`, expected one of a, b"
        if let Some(rest) = first.strip_prefix("line ")
            && let Some((pos, message)) = rest.split_once(": ")
            && let Some((line, column)) = pos.split_once(" column ")
            && let (Ok(line), Ok(column)) = (line.trim().parse(), column.trim().parse())
        {
            return YamlError {
                line: Some(line),
                column: Some(column),
                message: message.trim().to_owned(),
            };
        }
        YamlError {
            line: None,
            column: None,
            message: first.to_owned(),
        }
    }

    /// The key serde names in "unknown field `x`".
    pub(crate) fn unknown_key(&self) -> Option<&str> {
        let rest = &self.message[self.message.find("unknown field `")? + "unknown field `".len()..];
        Some(&rest[..rest.find('`')?])
    }

    /// ` at line 2 column 1`, or nothing when the position is unknown.
    pub(crate) fn position(&self) -> String {
        match (self.line, self.column) {
            (Some(l), Some(c)) => format!(" at line {l} column {c}"),
            (Some(l), None) => format!(" at line {l}"),
            _ => String::new(),
        }
    }
}

impl fmt::Display for YamlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid YAML{}: {}", self.position(), self.message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn syntax_error_becomes_one_line() {
        let err = serde_saphyr::from_str::<serde_json::Value>("name: [unclosed\n").unwrap_err();
        let y = YamlError::from_saphyr(&err);
        assert_eq!((y.line, y.column), (Some(1), Some(7)));
        assert_eq!(
            y.to_string(),
            "invalid YAML at line 1 column 7: unclosed bracket '['"
        );
    }

    #[test]
    fn unknown_field_is_found() {
        #[derive(Debug, serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        #[allow(dead_code)]
        struct C {
            workspace: Option<String>,
        }
        let err = serde_saphyr::from_str::<C>("workspace: ws\nresource_group: rg\n").unwrap_err();
        let y = YamlError::from_saphyr(&err);
        assert_eq!(y.unknown_key(), Some("resource_group"));
        assert_eq!(y.position(), " at line 2 column 1");
    }
}
