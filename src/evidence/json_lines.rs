//! Which line of a JSON document a key stands on, so a finding about a resource can
//! point at `file:line` like a log finding does. The text is walked on demand for the
//! few pointers that findings name, instead of keeping a map of every key of a document
//! that may be tens of megabytes.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

/// Where each element of an array starts, by the position of the array's `[`.
type ElementStarts = Mutex<HashMap<usize, Arc<Vec<usize>>>>;

/// The raw text of one JSON document (already known to be valid JSON), or the key lines
/// of a YAML document read into JSON (`yaml_doc`).
#[derive(Debug, Clone)]
pub struct JsonText {
    bytes: Arc<[u8]>,
    /// Element offsets of the arrays walked so far: the elements of a list of thousands
    /// of resources are found without walking the list again for each.
    arrays: Arc<ElementStarts>,
    /// A YAML document's line of each pointer, known from its parse.
    yaml_lines: Option<Arc<BTreeMap<String, u64>>>,
}

impl JsonText {
    pub fn new(bytes: Vec<u8>) -> JsonText {
        JsonText {
            bytes: bytes.into(),
            arrays: Arc::default(),
            yaml_lines: None,
        }
    }

    /// The lines of a YAML document, by pointer.
    pub fn from_yaml_lines(lines: BTreeMap<String, u64>) -> JsonText {
        JsonText {
            bytes: Arc::from(Vec::new()),
            arrays: Arc::default(),
            yaml_lines: Some(Arc::new(lines)),
        }
    }

    /// The 1-based line of the key (or array element) at `pointer` (RFC 6901); for a
    /// pointer that does not resolve, the line of its deepest existing ancestor; for the
    /// root, the line the document starts on.
    pub fn line_of(&self, pointer: &str) -> u64 {
        if let Some(lines) = &self.yaml_lines {
            let mut p = pointer;
            loop {
                if let Some(line) = lines.get(p) {
                    return *line;
                }
                match p.rfind('/') {
                    Some(i) => p = &p[..i],
                    None => return 1,
                }
            }
        }
        let target: Vec<String> = split_pointer(pointer);
        let mut w = Walker {
            b: &self.bytes,
            pos: 0,
            arrays: &self.arrays,
        };
        w.ws();
        let start = w.pos;
        let at = w.find(&target).unwrap_or(start);
        line_at(&self.bytes, at)
    }
}

/// The unescaped reference tokens of a JSON pointer (`/a~1b/0` → `["a/b", "0"]`).
pub(crate) fn split_pointer(pointer: &str) -> Vec<String> {
    if pointer.is_empty() {
        return Vec::new();
    }
    pointer
        .trim_start_matches('/')
        .split('/')
        .map(|t| t.replace("~1", "/").replace("~0", "~"))
        .collect()
}

/// One pointer token escaped for a JSON pointer.
pub(crate) fn escape_token(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// The last key of an RFC 6901 pointer, unescaped (`/a/b~1c` → `b/c`).
pub(crate) fn last_key(pointer: &str) -> String {
    pointer
        .rsplit('/')
        .next()
        .unwrap_or_default()
        .replace("~1", "/")
        .replace("~0", "~")
}

fn line_at(bytes: &[u8], pos: usize) -> u64 {
    let end = pos.min(bytes.len());
    1 + memchr::memchr_iter(b'\n', &bytes[..end]).count() as u64
}

struct Walker<'a> {
    b: &'a [u8],
    pos: usize,
    arrays: &'a ElementStarts,
}

impl Walker<'_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.pos).copied()
    }

    fn ws(&mut self) {
        // A byte-order mark is allowed before the document.
        if self.pos == 0 && self.b.starts_with(b"\xEF\xBB\xBF") {
            self.pos = 3;
        }
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    /// Walks to `target` below the value at the cursor. Returns the position of the key
    /// (or element) the pointer names, or of its deepest existing ancestor.
    fn find(&mut self, target: &[String]) -> Option<usize> {
        let mut best = self.pos;
        let mut depth = 0;
        while depth < target.len() {
            self.ws();
            let found = match self.peek()? {
                b'{' => self.find_key(&target[depth]),
                b'[' => self.find_index(&target[depth]),
                _ => None,
            };
            match found {
                Some(at) => {
                    best = at;
                    depth += 1;
                }
                None => return Some(best),
            }
        }
        Some(best)
    }

    /// With the cursor on `{`: moves to the value of `key`, returning where the key starts.
    fn find_key(&mut self, key: &str) -> Option<usize> {
        self.pos += 1;
        loop {
            self.ws();
            match self.peek()? {
                b'}' => return None,
                b',' => {
                    self.pos += 1;
                    continue;
                }
                _ => {}
            }
            let key_start = self.pos;
            let name = self.string()?;
            self.ws();
            if self.peek()? != b':' {
                return None;
            }
            self.pos += 1;
            self.ws();
            if name == key {
                return Some(key_start);
            }
            self.skip_value()?;
        }
    }

    /// With the cursor on `[`: moves to element `index`, returning where it starts.
    fn find_index(&mut self, index: &str) -> Option<usize> {
        let want: usize = index.parse().ok()?;
        let open = self.pos;
        let known = self.arrays.lock().ok().and_then(|m| m.get(&open).cloned());
        let starts = match known {
            Some(starts) => starts,
            None => {
                let starts = Arc::new(self.element_starts()?);
                if let Ok(mut m) = self.arrays.lock() {
                    m.insert(open, starts.clone());
                }
                starts
            }
        };
        let at = *starts.get(want)?;
        self.pos = at;
        Some(at)
    }

    /// With the cursor on `[`: where every element starts (the cursor ends past `]`).
    fn element_starts(&mut self) -> Option<Vec<usize>> {
        let mut starts = Vec::new();
        self.pos += 1;
        loop {
            self.ws();
            match self.peek()? {
                b']' => return Some(starts),
                b',' => {
                    self.pos += 1;
                    continue;
                }
                _ => {}
            }
            starts.push(self.pos);
            self.skip_value()?;
        }
    }

    /// Reads a string at the cursor and returns it unescaped.
    fn string(&mut self) -> Option<String> {
        let start = self.pos;
        self.skip_string()?;
        let raw = &self.b[start..self.pos];
        if raw.contains(&b'\\') {
            serde_json::from_slice(raw).ok()
        } else {
            Some(String::from_utf8_lossy(&raw[1..raw.len() - 1]).into_owned())
        }
    }

    fn skip_string(&mut self) -> Option<()> {
        if self.peek()? != b'"' {
            return None;
        }
        self.pos += 1;
        loop {
            let rest = self.b.get(self.pos..)?;
            let at = memchr::memchr2(b'"', b'\\', rest)?;
            self.pos += at;
            if self.b[self.pos] == b'\\' {
                self.pos += 2;
            } else {
                self.pos += 1;
                return Some(());
            }
        }
    }

    /// Skips one value of any type, nested containers included, without recursion.
    fn skip_value(&mut self) -> Option<()> {
        let mut depth = 0usize;
        loop {
            self.ws();
            match self.peek()? {
                b'"' => self.skip_string()?,
                b'{' | b'[' => {
                    depth += 1;
                    self.pos += 1;
                }
                b'}' | b']' => {
                    depth = depth.checked_sub(1)?;
                    self.pos += 1;
                }
                b',' | b':' => self.pos += 1,
                _ => {
                    while !matches!(
                        self.peek(),
                        None | Some(b',' | b'}' | b']' | b' ' | b'\n' | b'\r' | b'\t' | b':')
                    ) {
                        self.pos += 1;
                    }
                }
            }
            if depth == 0 {
                return Some(());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = r#"{
  "id": "/subscriptions/s/x",
  "properties": {
    "a\"b": 1,
    "networkAcls": {
      "bypass": "None",
      "ipRules": [
        {"value": "1.2.3.4"},
        {
          "value": "5.6.7.8"
        }
      ]
    },
    "x/y": {"~z": [1, [2, 3], {"k": "v"}]}
  }
}"#;

    #[test]
    fn finds_the_line_of_each_key() {
        let t = JsonText::new(DOC.as_bytes().to_vec());
        assert_eq!(t.line_of(""), 1);
        assert_eq!(t.line_of("/id"), 2);
        assert_eq!(t.line_of("/properties/networkAcls/bypass"), 6);
        assert_eq!(t.line_of("/properties/networkAcls/ipRules/0/value"), 8);
        assert_eq!(t.line_of("/properties/networkAcls/ipRules/1/value"), 10);
        assert_eq!(t.line_of("/properties/x~1y/~0z/2/k"), 14);
        // A missing key points at its deepest existing ancestor.
        assert_eq!(t.line_of("/properties/networkAcls/defaultAction"), 5);
        assert_eq!(t.line_of("/properties/networkAcls/ipRules/7"), 7);
        assert_eq!(t.line_of("/properties/a\"b"), 4);
    }

    #[test]
    fn top_level_lists_and_bom() {
        let t =
            JsonText::new(b"\xEF\xBB\xBF[\n {\"name\": \"a\"},\n {\"name\": \"b\"}\n]".to_vec());
        assert_eq!(t.line_of("/1/name"), 3);
        assert_eq!(escape_token("a/b~c"), "a~1b~0c");
        assert_eq!(split_pointer("/a~1b~0c/0"), ["a/b~c", "0"]);
    }
}
