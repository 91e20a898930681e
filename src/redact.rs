//! Secret scrubbing applied to every piece of log text before it reaches a report or
//! a saved file: SAS signatures, bearer tokens and JWTs, account keys, connection
//! string secrets, client secrets and passwords.

use std::borrow::Cow;
use std::sync::OnceLock;

use regex::Regex;

/// What a secret is replaced with.
pub(crate) const MASK: &str = "***REDACTED***";

struct Redactor {
    /// Words without which no pattern below can match: most log lines contain none, and
    /// skip the regexes entirely.
    triggers: aho_corasick::AhoCorasick,
    /// `key=value` / `key: value` / `'key': 'value'` / `--key value` secrets; group 1
    /// keeps the key and separator.
    keyed: Regex,
    bearer: Regex,
    jwt: Regex,
    /// `scheme://user:password@host`: group 1 keeps `scheme://user:`.
    url_password: Regex,
}

const KEYS: &str = r"sig|accountkey|account[_-]key|storage[_-]?(?:account[_-]?)?key|azure_storage_key|sharedaccesskey|sharedaccesssignature|client[_-]?secret|password|passwd|pwd|api[_-]?key|x-functions-key|access[_-]?token|refresh[_-]?token|primary[_-]?key|secondary[_-]?key|connection[_-]?string";

fn redactor() -> &'static Redactor {
    static R: OnceLock<Redactor> = OnceLock::new();
    R.get_or_init(|| {
        let re = |p: &str| Regex::new(p).unwrap_or_else(|e| unreachable!("redaction pattern: {e}"));
        Redactor {
            triggers: aho_corasick::AhoCorasick::builder()
                .ascii_case_insensitive(true)
                .build([
                    "sig", "key", "secret", "passw", "pwd", "token", "bearer", "basic", "eyj", "://",
                    "connection",
                ])
                .unwrap_or_else(|e| unreachable!("redaction triggers: {e}")),
            keyed: re(&format!(
                r#"(?i)((?:[?&;\s"'{{,(_]|^)(?:--)?(?:{KEYS})['"]?\s*(?:[=:]|%3D|\s)\s*['"]?)[^&;\s"',}})]+"#
            )),
            bearer: re(r"(?i)((?:bearer|basic)\s+)[A-Za-z0-9\-._~+/]{6,}=*"),
            jwt: re(r"eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*"),
            url_password: re(r"([a-zA-Z][a-zA-Z0-9+.-]*://[^/\s:@]+:)[^@\s/]+@"),
        }
    })
}

/// Log text fit for a report: secrets replaced by [`MASK`] and terminal control
/// characters (escape sequences, bells, NULs; not tabs) replaced by U+FFFD. Every piece
/// of input text is cleaned once, where it is read (the scanner, the PRS parser).
pub(crate) fn clean(text: &str) -> Cow<'_, str> {
    let redacted = redact(text);
    if !redacted.chars().any(|c| c.is_control() && c != '\t') {
        return redacted;
    }
    Cow::Owned(
        redacted
            .chars()
            .map(|c| {
                if c.is_control() && c != '\t' {
                    '\u{FFFD}'
                } else {
                    c
                }
            })
            .collect(),
    )
}

/// Whether a JSON key names a secret (`AZURE_CLIENT_SECRET`, `password`, `accountKey`,
/// `connectionString`, `sasToken`…): its value is masked whatever it looks like.
pub(crate) fn is_secret_key(key: &str) -> bool {
    let k = key.to_ascii_lowercase().replace(['_', '-'], "");
    [
        "secret",
        "password",
        "passwd",
        "pwd",
        "token",
        "connectionstring",
        "sas",
        "credential",
    ]
    .iter()
    .any(|w| k.contains(w))
        || k.ends_with("key")
        || k.ends_with("keys")
}

/// A JSON document fit to save: the values of secret-named keys masked, and every
/// string redacted as log text is.
pub(crate) fn json_value(value: &mut serde_json::Value) {
    use serde_json::Value;
    match value {
        Value::Object(map) => {
            for (k, v) in map.iter_mut() {
                if is_secret_key(k) && (v.is_string() || v.is_number()) {
                    *v = Value::String(MASK.to_owned());
                } else {
                    json_value(v);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(json_value),
        Value::String(s) => {
            if let Cow::Owned(clean) = redact(s) {
                *s = clean;
            }
        }
        _ => {}
    }
}

/// A writer that redacts what passes through it line by line, so a downloaded log is
/// saved without its secrets while it streams. A line longer than [`LINE_LIMIT`] is
/// redacted in pieces of that size. Lines that are not UTF-8 pass unchanged.
#[derive(Debug)]
pub(crate) struct LineRedactor<W: std::io::Write> {
    inner: W,
    pending: Vec<u8>,
}

/// The longest piece kept before redacting it.
pub(crate) const LINE_LIMIT: usize = 1 << 20;

impl<W: std::io::Write> LineRedactor<W> {
    pub(crate) fn new(inner: W) -> Self {
        LineRedactor {
            inner,
            pending: Vec::new(),
        }
    }

    /// Redacts and writes `pending[..upto]`, line by line, then drops it.
    fn emit(&mut self, upto: usize) -> std::io::Result<()> {
        let mut start = 0;
        while start < upto {
            let end =
                memchr::memchr(b'\n', &self.pending[start..upto]).map_or(upto, |i| start + i + 1);
            let piece = &self.pending[start..end];
            match std::str::from_utf8(piece) {
                Ok(text) => self.inner.write_all(redact(text).as_bytes())?,
                Err(_) => {
                    // Not UTF-8 (a Latin-1 log): kept byte for byte, unless it holds a
                    // secret, which matters more than the odd byte.
                    let lossy = String::from_utf8_lossy(piece);
                    match redact(&lossy) {
                        Cow::Owned(clean) => self.inner.write_all(clean.as_bytes())?,
                        Cow::Borrowed(_) => self.inner.write_all(piece)?,
                    }
                }
            }
            start = end;
        }
        self.pending.drain(..upto);
        Ok(())
    }

    /// Writes what is left and hands back the inner writer.
    pub(crate) fn finish(mut self) -> std::io::Result<W> {
        let n = self.pending.len();
        self.emit(n)?;
        self.inner.flush()?;
        Ok(self.inner)
    }
}

impl<W: std::io::Write> std::io::Write for LineRedactor<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.pending.extend_from_slice(buf);
        if let Some(last) = memchr::memrchr(b'\n', &self.pending) {
            self.emit(last + 1)?;
        }
        if self.pending.len() >= LINE_LIMIT {
            // Cut an endless line where no secret can straddle the cut: after a space,
            // quote, comma or `&` (a SAS query's separator), else at a character start.
            let cut = self.pending[..LINE_LIMIT]
                .iter()
                .rposition(|b| matches!(b, b' ' | b'"' | b',' | b'&' | b'\t'))
                .map(|i| i + 1)
                .filter(|i| *i > LINE_LIMIT / 2)
                .unwrap_or_else(|| {
                    (1..=LINE_LIMIT)
                        .rev()
                        .find(|i| self.pending.get(*i).is_none_or(|b| (b & 0xC0) != 0x80))
                        .unwrap_or(LINE_LIMIT)
                });
            self.emit(cut)?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// `text` with every secret replaced by [`MASK`].
pub(crate) fn redact(text: &str) -> Cow<'_, str> {
    let r = redactor();
    if !r.triggers.is_match(text) {
        return Cow::Borrowed(text);
    }
    let mut out: Cow<'_, str> = Cow::Borrowed(text);
    if r.jwt.is_match(&out) {
        out = Cow::Owned(r.jwt.replace_all(&out, MASK).into_owned());
    }
    if r.bearer.is_match(&out) {
        out = Cow::Owned(
            r.bearer
                .replace_all(&out, format!("${{1}}{MASK}"))
                .into_owned(),
        );
    }
    if r.keyed.is_match(&out) {
        out = Cow::Owned(
            r.keyed
                .replace_all(&out, format!("${{1}}{MASK}"))
                .into_owned(),
        );
    }
    if r.url_password.is_match(&out) {
        out = Cow::Owned(
            r.url_password
                .replace_all(&out, format!("${{1}}{MASK}@"))
                .into_owned(),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streamed_lines_are_redacted_across_chunk_boundaries() {
        use std::io::Write as _;
        let mut w = LineRedactor::new(Vec::new());
        w.write_all(b"ok line\nurl https://s.blob.core.windows.net/c/f?sv=1&si")
            .unwrap();
        w.write_all(b"g=SECRETSIG123&x=1\nlast password=hunter2")
            .unwrap();
        let out = String::from_utf8(w.finish().unwrap()).unwrap();
        assert!(out.starts_with("ok line\n"), "{out}");
        assert!(
            !out.contains("SECRETSIG123") && !out.contains("hunter2"),
            "{out}"
        );
        assert_eq!(out.lines().count(), 3);
    }

    #[test]
    fn latin1_lines_with_secrets_are_redacted_and_others_kept() {
        use std::io::Write as _;
        let mut w = LineRedactor::new(Vec::new());
        w.write_all(b"caf\xe9 ok\ncaf\xe9 password=hunter2\n")
            .unwrap();
        let out = w.finish().unwrap();
        assert!(out.starts_with(b"caf\xe9 ok\n"));
        assert!(!String::from_utf8_lossy(&out).contains("hunter2"));
    }

    #[test]
    fn an_endless_line_is_cut_between_words() {
        use std::io::Write as _;
        let mut w = LineRedactor::new(Vec::new());
        let mut line = "x ".repeat(LINE_LIMIT / 2 - 4).into_bytes();
        line.extend_from_slice(b"https://a/b?sv=1&sig=SECRETSIG123 tail");
        w.write_all(&line).unwrap();
        let out = String::from_utf8(w.finish().unwrap()).unwrap();
        assert!(!out.contains("SECRETSIG123"), "{}", &out[out.len() - 80..]);
        assert_eq!(out.len() + "SECRETSIG123".len(), line.len() + MASK.len());
    }

    #[test]
    fn saved_json_loses_secret_values() {
        let mut v = serde_json::json!({"properties": {"environmentVariables": {"DB_PASSWORD": "p@ss", "MODE": "x"},
            "uri": "https://a/b?sv=1&sig=SECRETSIG"}});
        json_value(&mut v);
        let text = v.to_string();
        assert!(
            !text.contains("p@ss") && !text.contains("SECRETSIG"),
            "{text}"
        );
        assert!(text.contains("\"MODE\":\"x\""));
    }

    #[test]
    fn sas_signatures() {
        let url = "https://acct.blob.core.windows.net/c/model.pkl?sv=2021-08-06&se=2024-01-01T00%3A00%3A00Z&sr=b&sp=r&sig=AbC%2Bdef123%3D";
        let out = redact(url);
        assert!(!out.contains("AbC%2Bdef123"), "{out}");
        assert!(
            out.contains("sv=2021-08-06"),
            "keeps the harmless parts: {out}"
        );
        assert!(out.ends_with(&format!("sig={MASK}")), "{out}");
    }

    #[test]
    fn bearer_tokens_and_jwts() {
        let out = redact(
            "Authorization: Bearer eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.eyJhdWQiOiJodHRwczovL21hbmFnZW1lbnQifQ.c2lnbmF0dXJl",
        );
        assert!(!out.contains("eyJ0eXAi"), "{out}");
        let out = redact("token=abc then bearer abcdefghijklmnop");
        assert!(!out.contains("abcdefghijklmnop"), "{out}");
    }

    #[test]
    fn connection_strings_and_secrets() {
        let out = redact(
            "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=c2VjcmV0a2V5MTIzNDU2Nzg5MA==;EndpointSuffix=core.windows.net",
        );
        assert!(!out.contains("c2VjcmV0a2V5"), "{out}");
        assert!(out.contains("AccountName=acct"), "{out}");
        for line in [
            "AZURE_CLIENT_SECRET=s3cr3t-Value~1",
            r#"{"client_secret": "s3cr3t-Value~1"}"#,
            "password: s3cr3t-Value~1",
            "Endpoint=sb://x.servicebus.windows.net/;SharedAccessKeyName=root;SharedAccessKey=s3cr3t-Value~1",
        ] {
            assert!(
                !redact(line).contains("s3cr3t-Value~1"),
                "{line} -> {}",
                redact(line)
            );
        }
    }

    #[test]
    fn other_spellings() {
        for line in [
            "{'client_secret': 'PySecret1'}",
            "'password': 'PySecret1'",
            "password='PySecret1'",
            "pip install --index-url https://user:PySecret1@pkgs.example.com/simple x",
            "account_key=PySecret1",
            "az storage blob list --account-key PySecret1 --account-name acct",
            "AZURE_STORAGE_KEY=PySecret1",
            "az login --service-principal -u app --password PySecret1",
            "Authorization: Basic PySecret1Zm9vOmJhcg==",
            "https://a.blob.core.windows.net/c/b?sv=1&sig%3DPySecret1",
            "AZURE_STORAGE_CONNECTION_STRING=DefaultEndpointsProtocol=https;AccountKey=PySecret1",
        ] {
            assert!(
                !redact(line).contains("PySecret1"),
                "{line} -> {}",
                redact(line)
            );
        }
    }

    #[test]
    fn clean_also_neutralises_control_characters() {
        assert_eq!(clean("a\u{1b}[2Jb\tc"), "a\u{FFFD}[2Jb\tc");
        assert!(matches!(clean("plain"), Cow::Borrowed(_)));
        assert!(!clean("x sig=abcdef\u{7}").contains("abcdef"));
    }

    #[test]
    fn ordinary_text_is_untouched() {
        for line in [
            "2025-03-02 09:41:17,221 E [73] azmlinfsrv - User's init function failed",
            "TypeError: register() takes 3 positional arguments but 4 were given",
            "Not enough quota available for Standard_DS3_v2 in SubscriptionId 1234",
            "design=signature",
            "Entry script run() failed for KeyError: 'password'",
            "Requirement already satisfied: azure-storage-blob",
            "https://acct.blob.core.windows.net/container/model.pkl",
        ] {
            assert!(matches!(redact(line), Cow::Borrowed(_)), "{line}");
        }
    }
}
