//! The error messages Microsoft's own clients can print (harvested from the packages by
//! `tools/harvest_client_messages.py` into tests/fixtures/clients/client-messages.tsv,
//! with package names and versions), each run through the analysis as the client
//! prints it: an exception's last traceback line, or an error log record. Every one
//! should give a warning or an error (never silent on a failure), and the share a
//! signature rule or a cause category names must not fall; both are held at today's
//! floors, which only ever rise. The messages only the
//! generic layers (service error, unrecognised failure) catch are listed in the
//! output, not hidden: they are where the next rules come from.

use std::collections::BTreeMap;

use crate::Sandbox;

/// Share of messages a signature or a cause category names, in per mille (today's
/// floor; raise it as rules and categories improve, never lower it).
const NAMED_FLOOR: usize = 730;
/// Messages nothing flags. None: an exception whose class name says neither Error nor
/// Exception (`BadInput: …`, `UnsupportedOperation: …`) is still how its input ended.
const MAX_SILENT: usize = 0;
const MIN_MESSAGES: usize = 2000;

struct Message {
    package: String,
    kind: String,
    text: String,
}

fn messages() -> Vec<Message> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/clients/client-messages.tsv");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("package\tversion\tfile\tkind\tmessage"));
    lines
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 5, "{}: {l}", path.display());
            Message {
                package: format!("{} {}", f[0], f[1]),
                kind: f[3].to_owned(),
                text: f[4].to_owned(),
            }
        })
        .collect()
}

/// The line a user sees: `raise X(msg)` uncaught ends a traceback with `X: msg`; a
/// logged error is a record at level ERROR; a constant is raised by the client's own
/// error classes.
fn printed(m: &Message) -> String {
    match m.kind.split_once(':') {
        Some(("raise", class)) => format!("{class}: {}\n", m.text),
        Some(("log", _)) => format!("2024-05-01 10:00:00,000 ERROR {}\n", m.text),
        _ => format!("azureml.exceptions.UserErrorException: {}\n", m.text),
    }
}

#[test]
#[allow(clippy::print_stderr)] // the coverage report is this test's output
fn every_client_message_is_named_or_at_least_flagged() {
    let all = messages();
    assert!(all.len() >= MIN_MESSAGES, "{} messages", all.len());
    let sb = Sandbox::new("client-messages");
    for (i, m) in all.iter().enumerate() {
        sb.write(&format!("work/msgs/{i:05}.txt"), &printed(m));
    }
    let v = sb.diagnose_json(&["msgs"]);
    // The most specific layer that flagged each input, by file name.
    let rank = |layer: &str| match layer {
        "signature" | "computed" => 3,
        "category" => 2,
        "service-error" => 1,
        _ => 0,
    };
    let mut best: BTreeMap<String, (i32, String)> = BTreeMap::new();
    for f in v["findings"].as_array().unwrap() {
        if !matches!(f["severity"].as_str(), Some("error" | "warning")) {
            continue;
        }
        let layer = f["layer"].as_str().unwrap_or_default();
        for p in f["paths"].as_array().into_iter().flatten() {
            let name = p.as_str().unwrap().rsplit('/').next().unwrap().to_owned();
            let entry = best.entry(name).or_insert((-1, String::new()));
            if rank(layer) > entry.0 {
                *entry = (rank(layer), f["rule_id"].as_str().unwrap().to_owned());
            }
        }
    }
    let mut by_layer = [0usize; 4];
    let mut generic = Vec::new();
    let mut silent = Vec::new();
    for (i, m) in all.iter().enumerate() {
        match best.get(&format!("{i:05}.txt")) {
            None => silent.push(format!("{} | {}", m.package, printed(m).trim_end())),
            Some((r, id)) => {
                by_layer[usize::try_from(*r).unwrap()] += 1;
                if *r < 2 {
                    generic.push(format!("{} | {id} | {}", m.package, printed(m).trim_end()));
                }
            }
        }
    }
    let named = by_layer[3] + by_layer[2];
    let share = named * 1000 / all.len();
    eprintln!(
        "{} client messages: {} by a signature, {} by a category, {} only as a service error, {} only as unrecognised, {} silent ({}.{} % named)\n\
         silent:\n  {}\ncaught only by the generic layers:\n  {}",
        all.len(),
        by_layer[3],
        by_layer[2],
        by_layer[1],
        by_layer[0],
        silent.len(),
        share / 10,
        share % 10,
        silent.join("\n  "),
        generic.join("\n  ")
    );
    assert!(
        silent.len() == MAX_SILENT,
        "silent on {} client messages (at most {MAX_SILENT}):\n{}",
        silent.len(),
        silent.join("\n")
    );
    assert!(
        share >= NAMED_FLOOR,
        "{}.{} % named",
        share / 10,
        share % 10
    );
}
