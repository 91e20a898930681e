//! JSON printer: pretty, one trailing newline.

use std::io::{self, Write};

use serde::Serialize;

pub fn write<T: Serialize>(out: &mut dyn Write, value: &T) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, value).map_err(io::Error::other)?;
    out.write_all(b"\n")
}
