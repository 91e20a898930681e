//! JSON printer: pretty, one trailing newline.

use std::io::{self, Write};

use serde::Serialize;

pub(crate) fn write<T: Serialize>(out: &mut dyn Write, value: &T) -> io::Result<()> {
    // Serialise first: writing through serde_json would hide a closed pipe's error kind.
    let mut text = serde_json::to_vec_pretty(value).map_err(io::Error::other)?;
    text.push(b'\n');
    out.write_all(&text)
}
