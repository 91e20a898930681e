//! Reading an input that may be one JSON document (a resource from `az … show`, a REST
//! response) rather than a log. Only inputs that start like JSON are parsed, and the
//! parse streams, so a JSON-lines log or a `[2024-…]` log line is given up on at once
//! and goes to the log scanner as text.
//!
//! Standard input can be read only once: what was read of it here is handed to
//! [`super::inputs::replay_stdin`], and [`super::inputs::open`] serves it again.

use std::io::{self, BufReader, Read};

use serde::Deserialize;
use serde_json::Value;

use super::inputs::replay_stdin;
use crate::evidence::Origin;

/// The largest JSON document read whole; a larger input is analysed as text.
pub(crate) const MAX_JSON_BYTES: usize = 64 * 1024 * 1024;

/// What reading an input as JSON gave.
#[derive(Debug)]
pub(crate) enum JsonRead {
    /// Nothing but white space (or a byte-order mark): no document and no text.
    Empty,
    /// Does not start like JSON, or is more than one value (JSON lines): a text input.
    NotJson,
    /// One JSON document and its bytes (for pointer → line lookups).
    Json { value: Value, bytes: Vec<u8> },
    /// Starts like JSON but is not valid JSON.
    Malformed {
        line: usize,
        column: usize,
        message: String,
    },
    /// Over [`MAX_JSON_BYTES`].
    TooLarge,
}

/// Reads `origin` as one JSON document if it starts like one, up to `limit` bytes.
pub(crate) fn read_json(origin: &Origin, limit: usize) -> io::Result<JsonRead> {
    match origin {
        Origin::File(path) => {
            read_from(crate::source::inputs::open_file(path)?, limit).map(|(r, _)| r)
        }
        Origin::Text(text) => read_from(io::Cursor::new(&text[..]), limit).map(|(r, _)| r),
        Origin::Stdin => {
            let (result, consumed) = read_from(io::stdin().lock(), limit)?;
            replay_stdin(consumed);
            Ok(match result {
                JsonRead::Json { value, bytes } => {
                    // The bytes are also the document's text for the scanner, if it
                    // turns out not to be a resource.
                    replay_stdin(bytes.clone());
                    JsonRead::Json { value, bytes }
                }
                other => other,
            })
        }
    }
}

/// Parses from `reader`; returns the result and every byte consumed from it.
fn read_from<R: Read>(reader: R, limit: usize) -> io::Result<(JsonRead, Vec<u8>)> {
    let mut tee = Tee {
        inner: reader,
        copy: Vec::new(),
        limit,
    };
    let mut head = [0u8; 1];
    let mut skipped = 0usize;
    // The first byte that is not white space or a byte-order mark decides.
    let first = loop {
        if tee.read(&mut head)? == 0 {
            return Ok((JsonRead::Empty, tee.copy));
        }
        match head[0] {
            b' ' | b'\t' | b'\r' | b'\n' => skipped += 1,
            0xEF | 0xBB | 0xBF if skipped < 3 && tee.copy.len() <= 3 => skipped += 1,
            b => break b,
        }
    };
    // Windows PowerShell 5 writes `az … > file.json` as UTF-16 with a byte-order mark.
    if matches!(first, 0xFF | 0xFE) && tee.copy.len() == 1 {
        return read_utf16(tee);
    }
    if first == b'`' || first == b'$' || first == b'P' || first == b'>' {
        return read_pasted(tee);
    }
    if first != b'{' && first != b'[' {
        return Ok((JsonRead::NotJson, tee.copy));
    }
    // Replay what was read (without a byte-order mark), so error positions count the
    // blank lines before the document.
    let bom = usize::from(tee.copy.starts_with(b"\xEF\xBB\xBF")) * 3;
    let replay = io::Cursor::new(tee.copy[bom..].to_vec());
    let result = {
        let reader = BufReader::with_capacity(64 * 1024, replay.chain(&mut tee));
        let mut de = serde_json::Deserializer::from_reader(reader);
        match Value::deserialize(&mut de) {
            Ok(value) => match de.end() {
                Ok(()) => Ok(value),
                Err(_) => Err(None),
            },
            Err(e) if e.is_io() => Err(Some(e)),
            Err(e) => {
                return Ok((
                    JsonRead::Malformed {
                        line: e.line(),
                        column: e.column(),
                        message: syntax_message(&e),
                    },
                    tee.copy,
                ));
            }
        }
    };
    Ok(match result {
        Ok(value) => {
            let bytes = std::mem::take(&mut tee.copy);
            (
                JsonRead::Json {
                    value,
                    bytes: bytes.clone(),
                },
                bytes,
            )
        }
        // More than one value: JSON lines or a log that begins with one.
        Err(None) => (JsonRead::NotJson, tee.copy),
        Err(Some(e)) if e.to_string().contains(TOO_LARGE) => (JsonRead::TooLarge, tee.copy),
        Err(Some(e)) => return Err(io::Error::other(e.to_string())),
    })
}

/// Whether a line of a paste around a JSON document is only its wrapping: a markdown
/// fence, or the shell prompt with the command that printed it.
fn is_wrapping(line: &str) -> bool {
    let t = line.trim();
    t.starts_with("```")
        || t.starts_with("$ ")
        || t.starts_with("> ")
        || (t.starts_with("PS ") && t.contains('>'))
        || t.starts_with("PS>")
}

/// A document pasted with its wrapping (` ```json ` fences, `$ az … show` prompt lines):
/// the wrapping lines are blanked (line numbers stay as the user sees them) and the rest
/// is parsed. Anything else that does not start like JSON is text.
fn read_pasted<R: Read>(mut tee: Tee<R>) -> io::Result<(JsonRead, Vec<u8>)> {
    // The first lines decide, without reading a large log to its end: wrapping lines
    // (at most a few), then a line that opens the document.
    let mut byte = [0u8; 1];
    let mut line_start = 0;
    loop {
        while !tee.copy[line_start..].ends_with(b"\n") && tee.copy.len() - line_start < 4096 {
            if tee.read(&mut byte)? == 0 {
                break;
            }
        }
        let line = String::from_utf8_lossy(&tee.copy[line_start..]).into_owned();
        if line.trim_start().starts_with(['{', '[']) {
            break;
        }
        let wrapping = is_wrapping(&line) || (line_start > 0 && line.trim().is_empty());
        if !wrapping || line.is_empty() || tee.copy.len() > 16 * 1024 {
            return Ok((JsonRead::NotJson, tee.copy));
        }
        line_start = tee.copy.len();
    }
    let mut rest = Vec::new();
    if let Err(e) = tee.read_to_end(&mut rest) {
        return if e.to_string().contains(TOO_LARGE) {
            Ok((JsonRead::TooLarge, tee.copy))
        } else {
            Err(e)
        };
    }
    let Ok(text) = std::str::from_utf8(&tee.copy) else {
        return Ok((JsonRead::NotJson, tee.copy));
    };
    let mut started = false;
    let mut blanked = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let opens = line.trim_start().starts_with(['{', '[']);
        if (!started && !opens && (is_wrapping(line) || line.trim().is_empty()))
            || (started && line.trim().starts_with("```"))
        {
            blanked.extend(line.chars().map(|c| if c == '\n' { '\n' } else { ' ' }));
        } else {
            started = true;
            blanked.push_str(line);
        }
    }
    let mut de = serde_json::Deserializer::from_str(&blanked);
    let result = match Value::deserialize(&mut de) {
        Ok(value) if de.end().is_ok() => JsonRead::Json {
            value,
            bytes: blanked.clone().into_bytes(),
        },
        Ok(_) => JsonRead::NotJson,
        Err(e) => JsonRead::Malformed {
            line: e.line(),
            column: e.column(),
            message: syntax_message(&e),
        },
    };
    Ok((result, tee.copy))
}

/// A UTF-16 document (after its first byte): decoded, then parsed like any other.
fn read_utf16<R: Read>(mut tee: Tee<R>) -> io::Result<(JsonRead, Vec<u8>)> {
    let mut rest = Vec::new();
    if let Err(e) = tee.read_to_end(&mut rest) {
        return if e.to_string().contains(TOO_LARGE) {
            Ok((JsonRead::TooLarge, tee.copy))
        } else {
            Err(e)
        };
    }
    let raw = &tee.copy;
    let little = match raw.get(..2) {
        Some([0xFF, 0xFE]) => true,
        Some([0xFE, 0xFF]) => false,
        _ => return Ok((JsonRead::NotJson, tee.copy)),
    };
    let units = raw[2..].chunks_exact(2).map(|c| {
        let pair = [c[0], c[1]];
        if little {
            u16::from_le_bytes(pair)
        } else {
            u16::from_be_bytes(pair)
        }
    });
    let Ok(text) = char::decode_utf16(units).collect::<Result<String, _>>() else {
        return Ok((JsonRead::NotJson, tee.copy));
    };
    if !text.trim_start().starts_with(['{', '[']) {
        return Ok((JsonRead::NotJson, tee.copy));
    }
    let mut de = serde_json::Deserializer::from_str(&text);
    let result = match Value::deserialize(&mut de) {
        Ok(value) if de.end().is_ok() => JsonRead::Json {
            value,
            bytes: text.clone().into_bytes(),
        },
        Ok(_) => JsonRead::NotJson,
        Err(e) => JsonRead::Malformed {
            line: e.line(),
            column: e.column(),
            message: syntax_message(&e),
        },
    };
    Ok((result, tee.copy))
}

/// serde_json's message without its ` at line L column C` tail (we print our own).
fn syntax_message(e: &serde_json::Error) -> String {
    let text = e.to_string();
    match text.rfind(" at line ") {
        Some(at) => text[..at].to_owned(),
        None => text,
    }
}

const TOO_LARGE: &str = "JSON document over the size limit";

/// Copies what is read, up to `limit` bytes.
struct Tee<R> {
    inner: R,
    copy: Vec<u8>,
    limit: usize,
}

impl<R: Read> Read for Tee<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.copy.len() > self.limit {
            return Err(io::Error::other(TOO_LARGE));
        }
        let n = self.inner.read(buf)?;
        self.copy.extend_from_slice(&buf[..n]);
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> JsonRead {
        read_from(text.as_bytes(), MAX_JSON_BYTES).unwrap().0
    }

    #[test]
    fn tells_json_from_logs() {
        assert!(matches!(read("{\"a\": [1, 2]}\n"), JsonRead::Json { .. }));
        assert!(matches!(
            read("\u{feff}  [{\"a\": 1}]"),
            JsonRead::Json { .. }
        ));
        assert!(matches!(read("2024-01-01 INFO start"), JsonRead::NotJson));
        assert!(matches!(read(""), JsonRead::Empty));
        assert!(matches!(read("\u{feff} \n\t"), JsonRead::Empty));
        match read("\n\n\n{\"a\":\n }") {
            JsonRead::Malformed { line, column, .. } => assert_eq!((line, column), (5, 2)),
            other => panic!("{other:?}"),
        }
        // JSON lines: more than one value.
        assert!(matches!(
            read("{\"a\": 1}\n{\"a\": 2}\n"),
            JsonRead::NotJson
        ));
        match read("{\n  \"a\": \"cut") {
            JsonRead::Malformed { line, message, .. } => {
                assert_eq!(line, 2);
                assert!(message.contains("EOF"), "{message}");
            }
            other => panic!("{other:?}"),
        }
        // A log line that starts with '[' is malformed JSON on line 1; callers treat
        // such inputs as text unless they were named as JSON.
        assert!(matches!(
            read("[2024-01-01 12:00:00] INFO x"),
            JsonRead::Malformed { line: 1, .. }
        ));
    }

    #[test]
    fn pasted_documents_lose_their_wrapping() {
        let pasted = "$ az keyvault show -n kv1 -o json\n```json\n{\n  \"name\": \"kv1\"\n}\n```\n";
        match read_from(pasted.as_bytes(), MAX_JSON_BYTES).unwrap().0 {
            JsonRead::Json { value, bytes } => {
                assert_eq!(value["name"], "kv1");
                // Lines stay where the user sees them: "name" is on line 4.
                let text = String::from_utf8(bytes).unwrap();
                assert_eq!(
                    text.lines().nth(3).map(str::trim),
                    Some("\"name\": \"kv1\"")
                );
            }
            other => panic!("{other:?}"),
        }
        let ps = "PS C:\\> az ml workspace show -n ws\n[1, 2]\n";
        assert!(matches!(
            read_from(ps.as_bytes(), MAX_JSON_BYTES).unwrap().0,
            JsonRead::Json { .. }
        ));
        // A log whose first line only looks like a prompt stays text.
        assert!(matches!(
            read_from(
                "$ python score.py\nTraceback (most recent call last):\n".as_bytes(),
                MAX_JSON_BYTES
            )
            .unwrap()
            .0,
            JsonRead::NotJson
        ));
        assert!(matches!(
            read_from("Process started\n{\"a\": 1}".as_bytes(), MAX_JSON_BYTES)
                .unwrap()
                .0,
            JsonRead::NotJson
        ));
    }

    #[test]
    fn utf16_documents_are_read() {
        let text = "{\n  \"name\": \"kv1\"\n}";
        let mut le = vec![0xFF, 0xFE];
        le.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
        match read_from(le.as_slice(), MAX_JSON_BYTES).unwrap().0 {
            JsonRead::Json { value, bytes } => {
                assert_eq!(value["name"], "kv1");
                assert_eq!(bytes, text.as_bytes());
            }
            other => panic!("{other:?}"),
        }
        let mut be = vec![0xFE, 0xFF];
        be.extend("2024 log".encode_utf16().flat_map(u16::to_be_bytes));
        assert!(matches!(
            read_from(be.as_slice(), MAX_JSON_BYTES).unwrap().0,
            JsonRead::NotJson
        ));
    }

    #[test]
    fn consumed_bytes_are_kept_for_the_text_path() {
        let (r, consumed) = read_from("hello\nworld".as_bytes(), MAX_JSON_BYTES).unwrap();
        assert!(matches!(r, JsonRead::NotJson));
        assert_eq!(consumed, b"h");
    }
}
