//! The HTTP status catalogue behind `amldoctor explain <STATUS>`: what each status an
//! online endpoint returns means, its causes, what to check and what to run. Data, in
//! `catalogue/http-status.yaml`, embedded at build time.

use serde::{Deserialize, Serialize};

use crate::yaml_error::YamlError;

const HTTP_STATUS_YAML: &str = include_str!("../catalogue/http-status.yaml");
pub(crate) const HTTP_STATUS_PATH: &str = "catalogue/http-status.yaml";

/// One status in one kind of endpoint.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct HttpStatus {
    pub status: u16,
    pub reason: String,
    /// `managed` or `kubernetes`.
    pub endpoint: String,
    pub meaning: String,
    #[serde(default)]
    pub causes: Vec<String>,
    #[serde(default)]
    pub checks: Vec<String>,
    #[serde(default)]
    pub commands: Vec<String>,
    #[serde(default)]
    pub see_also: Vec<String>,
}

/// Parses catalogue text; errors name the position.
pub(crate) fn parse(text: &str) -> Result<Vec<HttpStatus>, String> {
    let list: Vec<HttpStatus> = serde_saphyr::from_str(text).map_err(|e| {
        let y = YamlError::from_saphyr(&e);
        match y.unknown_key() {
            Some(k) => format!("unknown key '{k}'{}", y.position()),
            None => y.to_string(),
        }
    })?;
    for (i, s) in list.iter().enumerate() {
        if !matches!(s.endpoint.as_str(), "managed" | "kubernetes") {
            return Err(format!(
                "entry {i} (status {}): endpoint must be managed or kubernetes",
                s.status
            ));
        }
        if !(100..=599).contains(&s.status) {
            return Err(format!(
                "entry {i}: status {} is not an HTTP status",
                s.status
            ));
        }
    }
    Ok(list)
}

/// The built-in catalogue.
pub(crate) fn http_statuses() -> Result<Vec<HttpStatus>, String> {
    parse(HTTP_STATUS_YAML).map_err(|e| format!("{HTTP_STATUS_PATH}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_catalogue_covers_both_tables() {
        let list = http_statuses().unwrap();
        let has = |status: u16, endpoint: &str| {
            list.iter()
                .filter(|s| s.status == status && s.endpoint == endpoint)
                .count()
        };
        for status in [200, 401, 404, 408, 424, 500] {
            assert!(has(status, "managed") >= 1, "managed {status}");
        }
        assert_eq!(has(429, "managed"), 2, "429 has two meanings");
        for status in [409, 502, 503, 504, 500] {
            assert!(has(status, "kubernetes") >= 1, "kubernetes {status}");
        }
        for s in &list {
            assert!(!s.meaning.trim().is_empty(), "{}", s.status);
        }
        let pending = list
            .iter()
            .find(|s| s.status == 429 && s.reason.to_lowercase().contains("pending"))
            .unwrap();
        assert!(
            pending
                .commands
                .iter()
                .any(|c| c.contains("amldoctor replicas")),
            "429 points at replicas"
        );
    }

    #[test]
    fn bad_catalogue_text() {
        assert!(
            parse(
                "- status: 200\n  reason: OK\n  endpoint: managed\n  meaning: ok\n  colour: red\n"
            )
            .unwrap_err()
            .contains("unknown key 'colour'")
        );
        assert!(
            parse("- status: 200\n  reason: OK\n  endpoint: cloud\n  meaning: ok\n")
                .unwrap_err()
                .contains("managed or kubernetes")
        );
    }
}
