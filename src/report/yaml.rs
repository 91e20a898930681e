//! YAML printer over the same serialisable documents as the JSON one.

use std::io::{self, Write};

use serde::Serialize;

pub(crate) fn write<T: Serialize>(out: &mut dyn Write, value: &T) -> io::Result<()> {
    let text = serde_saphyr::to_string(value).map_err(io::Error::other)?;
    out.write_all(text.as_bytes())?;
    if !text.ends_with('\n') {
        out.write_all(b"\n")?;
    }
    Ok(())
}
