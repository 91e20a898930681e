//! The DNS answers of `check dns` for a terminal: one line a host and server, grouped
//! by host, so the answers a finding judges can be read side by side.

use std::io::{self, Write};

use crate::evidence::dns::DnsObservation;

use super::style::Style;
use super::text;

/// `DNS answers` and, per host, what each server said.
pub(crate) fn write(out: &mut dyn Write, dns: &[DnsObservation], style: Style) -> io::Result<()> {
    if dns.is_empty() {
        return Ok(());
    }
    writeln!(out, "{}", style.bold("DNS answers"))?;
    let mut hosts: Vec<&DnsObservation> = Vec::new();
    for o in dns {
        if !hosts.iter().any(|h| h.host == o.host) {
            hosts.push(o);
        }
    }
    let server_width = dns
        .iter()
        .map(|o| text::columns(&o.server))
        .max()
        .unwrap_or(0);
    for h in hosts {
        let role = format!("({})", h.role.name());
        for line in text::labelled(&h.host, &role, style.width(), "  ") {
            writeln!(out, "{line}")?;
        }
        for o in dns.iter().filter(|o| o.host == h.host) {
            let first = format!("    {:server_width$}  ", o.server);
            // A long answer (a CNAME chain) continues a little indented, not under the
            // server column, so names get the room.
            for line in text::wrap(&o.answer_text(), style.width(), &first, "        ") {
                writeln!(out, "{line}")?;
            }
        }
    }
    writeln!(out)
}
