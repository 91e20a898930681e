//! Escaping for markdown: table cells, code spans and fences that no text can break,
//! shared by the markdown writer and the sections that render themselves.

/// Escapes text for a table cell: pipes, newlines and backticks cannot break the row.
pub(crate) fn cell(text: &str) -> String {
    // A backslash of the text is escaped first, so one before a pipe cannot escape the
    // pipe's own escape and end the cell.
    text.replace('\\', "\\\\")
        .replace('|', "\\|")
        .replace(['\n', '\r'], " ")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('`', "'")
}

/// Text for inside a `code span` in a table cell: no backtick can end the span early,
/// no pipe can end the cell. (Code spans show `<` literally, so it needs no escape.)
/// `<storage-account>` in prose put in a code span: a renderer would take it for an
/// HTML tag and show nothing. Code spans and fenced blocks are left as they are.
pub(crate) fn placeholders_as_code(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    let mut fenced = false;
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        if fenced || line.trim_start().starts_with("```") {
            out.push_str(line);
            continue;
        }
        for (j, part) in line.split('`').enumerate() {
            if j > 0 {
                out.push('`');
            }
            if j % 2 == 1 {
                out.push_str(part);
                continue;
            }
            let mut rest = part;
            while let Some(start) = rest.find('<') {
                let after = &rest[start + 1..];
                let end = after.find('>').unwrap_or(0);
                if crate::rules::template::is_kebab(&after[..end]) {
                    out.push_str(&rest[..start]);
                    out.push('`');
                    out.push_str(&rest[start..start + end + 2]);
                    out.push('`');
                    rest = &after[end + 1..];
                } else {
                    out.push_str(&rest[..=start]);
                    rest = after;
                }
            }
            out.push_str(rest);
        }
    }
    out
}

pub(crate) fn code(text: &str) -> String {
    // In a code span a backslash is literal, but the table's cell splitter reads `\\|`
    // as an escaped backslash and a bare pipe: the one before a pipe is doubled.
    text.replace('`', "'")
        .replace("\\|", "\\\\|")
        .replace('|', "\\|")
        .replace(['\n', '\r'], " ")
}

/// A fenced block that its content cannot close.
pub(crate) fn fence(lang: &str, body: &str) -> String {
    let mut ticks = "```".to_owned();
    while body.contains(&ticks) {
        ticks.push('`');
    }
    // Only the final newlines go: a diff's last line may end in a CR of its file.
    format!("{ticks}{lang}\n{}\n{ticks}\n", body.trim_end_matches('\n'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_in_prose_become_code() {
        assert_eq!(
            placeholders_as_code("account (<storage-account>) and `<group>` <https://x.y>"),
            "account (`<storage-account>`) and `<group>` <https://x.y>"
        );
        assert_eq!(
            placeholders_as_code("```sh\naz x -g <group>\n```"),
            "```sh\naz x -g <group>\n```"
        );
    }

    #[test]
    fn cells_and_fences() {
        assert_eq!(cell("a|b\nc"), "a\\|b c");
        assert_eq!(cell("pod\\|x"), "pod\\\\\\|x");
        assert_eq!(code("pod\\|x"), "pod\\\\\\|x");
        assert_eq!(cell("<details>`x`"), "&lt;details&gt;'x'");
        assert_eq!(code("a`b|c"), "a'b\\|c");
        assert_eq!(fence("sh", "x ``` y"), "````sh\nx ``` y\n````\n");
    }
}
