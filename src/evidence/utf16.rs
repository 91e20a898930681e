//! UTF-16 text (Windows PowerShell 5's `>` writes it, with a byte-order mark) read as
//! UTF-8, streaming: the scanner and the rules see the same lines as in a UTF-8 copy.
//! Unpaired surrogates become U+FFFD, as a lossy UTF-8 read would show them.

use std::io::{self, Read};

/// The byte order a byte-order mark at the start of `head` names.
pub(crate) fn byte_order(head: &[u8]) -> Option<Endian> {
    match head {
        [0xFF, 0xFE, ..] => Some(Endian::Little),
        [0xFE, 0xFF, ..] => Some(Endian::Big),
        _ => None,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Endian {
    Little,
    Big,
}

/// Reads UTF-16 from `inner` (its byte-order mark first) and gives UTF-8.
#[derive(Debug)]
pub(crate) struct Utf16Reader<R> {
    inner: R,
    endian: Endian,
    /// Bytes read but not yet decoded (an odd byte, half a surrogate pair).
    raw: Vec<u8>,
    /// Decoded UTF-8 not yet handed out, from `at`.
    out: Vec<u8>,
    at: usize,
    mark_skipped: bool,
    done: bool,
}

impl<R: Read> Utf16Reader<R> {
    pub(crate) fn new(inner: R, endian: Endian) -> Utf16Reader<R> {
        Utf16Reader {
            inner,
            endian,
            raw: Vec::new(),
            out: Vec::new(),
            at: 0,
            mark_skipped: false,
            done: false,
        }
    }

    fn unit(&self, pair: &[u8]) -> u16 {
        let bytes = [pair[0], pair[1]];
        match self.endian {
            Endian::Little => u16::from_le_bytes(bytes),
            Endian::Big => u16::from_be_bytes(bytes),
        }
    }

    /// Reads a chunk and decodes every complete code point in `raw`.
    fn fill(&mut self) -> io::Result<()> {
        let mut chunk = [0u8; 64 * 1024];
        let n = self.inner.read(&mut chunk)?;
        self.raw.extend_from_slice(&chunk[..n]);
        self.done = n == 0;
        let mut units: Vec<u16> = self.raw.chunks_exact(2).map(|p| self.unit(p)).collect();
        let mut used = units.len() * 2;
        // A high surrogate at the end waits for its pair, unless the input ended.
        if !self.done && units.last().is_some_and(|u| (0xD800..0xDC00).contains(u)) {
            units.pop();
            used -= 2;
        }
        if !self.mark_skipped && !units.is_empty() {
            self.mark_skipped = true;
            if units[0] == 0xFEFF {
                units.remove(0);
            }
        }
        self.out.clear();
        self.at = 0;
        for c in char::decode_utf16(units) {
            let c = c.unwrap_or(char::REPLACEMENT_CHARACTER);
            let mut buf = [0u8; 4];
            self.out
                .extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        }
        self.raw.drain(..used);
        if self.done && !self.raw.is_empty() {
            // An odd last byte: half a code unit.
            self.out
                .extend_from_slice(char::REPLACEMENT_CHARACTER.to_string().as_bytes());
            self.raw.clear();
        }
        Ok(())
    }
}

impl<R: Read> Read for Utf16Reader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.at == self.out.len() {
            if self.done {
                return Ok(0);
            }
            self.fill()?;
        }
        let n = buf.len().min(self.out.len() - self.at);
        buf[..n].copy_from_slice(&self.out[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(bytes: &[u8], endian: Endian) -> String {
        let mut s = String::new();
        Utf16Reader::new(bytes, endian)
            .read_to_string(&mut s)
            .unwrap();
        s
    }

    #[test]
    fn both_byte_orders_and_pairs_split_across_reads() {
        let text = "2024-05-01 E worker failed: ModuleNotFoundError 😀\r\nnext line\n";
        let mut le = vec![0xFF, 0xFE];
        le.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
        assert_eq!(byte_order(&le), Some(Endian::Little));
        assert_eq!(decode(&le, Endian::Little), text);
        let mut be = vec![0xFE, 0xFF];
        be.extend(text.encode_utf16().flat_map(u16::to_be_bytes));
        assert_eq!(decode(&be, Endian::Big), text);
        // One byte at a time: every unit and surrogate pair is split between reads.
        struct Trickle<'a>(&'a [u8]);
        impl Read for Trickle<'_> {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                let Some((first, rest)) = self.0.split_first() else {
                    return Ok(0);
                };
                buf[0] = *first;
                self.0 = rest;
                Ok(1)
            }
        }
        let mut s = String::new();
        Utf16Reader::new(Trickle(&le), Endian::Little)
            .read_to_string(&mut s)
            .unwrap();
        assert_eq!(s, text);
        // A lone surrogate and an odd last byte read as replacement characters.
        assert_eq!(
            decode(&[0xFF, 0xFE, 0x00, 0xD8, b'a', 0, b'b'], Endian::Little),
            "\u{FFFD}a\u{FFFD}"
        );
    }
}
