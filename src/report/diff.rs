//! `lint --fix-suggestions` as a unified diff with no context lines: per file a `---`/
//! `+++` header, per edit an `@@ -OLD +NEW @@` hunk naming the rules it fixes. Valid
//! diff text, so a reader can copy a file's part into `patch -p0` (or `git apply
//! --unidiff-zero`). The table and markdown writers print it; json and yaml carry the
//! same edits as data.

use crate::lint::fix::{FileEdits, FixSuggestions};

/// The diff's lines, file after file.
pub(crate) fn lines(s: &FixSuggestions) -> Vec<String> {
    let mut out = Vec::new();
    for f in &s.files {
        out.extend(file_lines(f));
    }
    out
}

fn file_lines(f: &FileEdits) -> Vec<String> {
    // `git apply` refuses `./` and `../` in a name (patch takes them): `./bad/x.yml`
    // is written `bad/x.yml`, which both apply from the same folder.
    let mut path = f.path.as_str();
    while let Some(rest) = path.strip_prefix("./") {
        path = rest.trim_start_matches('/');
    }
    // GNU patch ends a name at a tab: a path with spaces gets one after it.
    let name = if path.contains(char::is_whitespace) {
        format!("{path}\t")
    } else {
        path.to_owned()
    };
    let mut out = vec![format!("--- {name}"), format!("+++ {name}")];
    // Removed and added lines carry the file's own line ending, so they match it.
    let cr = if f.line_ending == "crlf" { "\r" } else { "" };
    const NO_NEWLINE: &str = "\\ No newline at end of file";
    // Lines added minus lines removed by the hunks above: where the next one lands.
    let mut shift: i128 = 0;
    for h in &f.hunks {
        let removed = i128::from(h.removed.len() as u64);
        let added = i128::from(h.added.len() as u64);
        // With nothing removed, a hunk names the line it follows.
        let old = i128::from(h.start_line) - i128::from(removed == 0);
        let new = if added == 0 {
            old + shift - i128::from(removed > 0)
        } else if removed == 0 {
            old + shift + 1
        } else {
            old + shift
        };
        out.push(format!(
            "@@ -{} +{} @@ {}",
            range(old, removed),
            range(new.max(0), added),
            h.rules.join(", ")
        ));
        let open_end = f.touches_unterminated_end(h);
        let count = h.removed.len();
        for (i, l) in h.removed.iter().enumerate() {
            let last = open_end && i + 1 == count;
            out.push(format!("-{l}{}", if last { "" } else { cr }));
            if last {
                out.push(NO_NEWLINE.to_owned());
            }
        }
        let count = h.added.len();
        for (i, l) in h.added.iter().enumerate() {
            let last = open_end && i + 1 == count;
            out.push(format!("+{l}{}", if last { "" } else { cr }));
            if last {
                out.push(NO_NEWLINE.to_owned());
            }
        }
        shift += added - removed;
    }
    out
}

/// `start,count`, or `start` alone for one line (the unified diff convention).
fn range(start: i128, count: i128) -> String {
    if count == 1 {
        start.to_string()
    } else {
        format!("{start},{count}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::fix::Hunk;

    #[test]
    fn hunks_count_the_lines_of_those_before() {
        let s = |v: &[&str]| v.iter().map(|x| (*x).to_owned()).collect::<Vec<String>>();
        let f = FileEdits {
            path: "blue.yml".to_owned(),
            line_ending: "lf",
            lines: 9,
            ends_with_newline: true,
            hunks: vec![
                Hunk {
                    rules: s(&["a"]),
                    start_line: 2,
                    removed: vec![],
                    added: s(&["name: blue", "x: 1"]),
                },
                Hunk {
                    rules: s(&["b"]),
                    start_line: 5,
                    removed: s(&["t: 300000"]),
                    added: s(&["t: 180000"]),
                },
                Hunk {
                    rules: s(&["c", "d"]),
                    start_line: 8,
                    removed: s(&["y: 1", "  z: 2"]),
                    added: vec![],
                },
            ],
        };
        assert_eq!(
            file_lines(&f),
            s(&[
                "--- blue.yml",
                "+++ blue.yml",
                "@@ -1,0 +2,2 @@ a",
                "+name: blue",
                "+x: 1",
                "@@ -5 +7 @@ b",
                "-t: 300000",
                "+t: 180000",
                "@@ -8,2 +9,0 @@ c, d",
                "-y: 1",
                "-  z: 2",
            ])
        );
    }
}
