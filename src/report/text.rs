//! Text laid out for a terminal of a given width: rule prose reflowed (it is stored
//! wrapped for the YAML file, not for the reader's screen), evidence shortened around
//! its match, long commands continued with ` \` so they still paste as one.
//! Widths are display columns; a word wider than the line is never broken.

use unicode_width::UnicodeWidthStr;

/// Display columns of `s`.
pub(crate) fn columns(s: &str) -> usize {
    UnicodeWidthStr::width(s)
}

/// `text`'s words filled into lines of at most `width` columns: the first line starts
/// with `first`, the others with `rest`. A word too wide for any line gets a line of
/// its own, whole.
/// `body` after the label `first` (a space is added unless it ends with one), wrapped
/// at `width`, continuation lines indented `rest` columns, written to `out`.
pub(crate) fn para(
    out: &mut dyn std::io::Write,
    width: usize,
    first: &str,
    rest: usize,
    body: &str,
) -> std::io::Result<()> {
    let first = if first.ends_with(' ') {
        first.to_owned()
    } else {
        format!("{first} ")
    };
    for line in wrap(body, width, &first, &" ".repeat(rest)) {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

pub(crate) fn wrap(text: &str, width: usize, first: &str, rest: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = first.to_owned();
    let mut empty = true;
    for word in glued_words(text) {
        let word = word.as_str();
        if !empty && columns(&line) + 1 + columns(word) > width {
            lines.push(std::mem::replace(&mut line, rest.to_owned()));
            empty = true;
        }
        if !empty {
            line.push(' ');
        }
        line.push_str(word);
        empty = false;
    }
    if !empty || lines.is_empty() {
        lines.push(line.trim_end().to_owned());
    }
    lines
}

/// The words of `text`, a number kept with its unit (`180 s`, `5 instances`,
/// `(1 hit)`) and a count that closes a list item with its label (`sys/node 7,`), so
/// a line never starts or ends on a bare number.
fn glued_words(text: &str) -> Vec<String> {
    let number = |w: &str| {
        let bare = w.trim_start_matches(['(', '~', '≈']);
        !bare.is_empty()
            && bare
                .bytes()
                .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b',' | b')'))
            && bare.bytes().any(|b| b.is_ascii_digit())
    };
    let words: Vec<&str> = text.split_whitespace().collect();
    let mut out: Vec<String> = Vec::new();
    let mut glue = false;
    for (i, word) in words.iter().enumerate() {
        let closes = number(word) && (word.ends_with([',', ')']) || i + 1 == words.len());
        match out.last_mut() {
            Some(last) if glue || closes => {
                last.push(' ');
                last.push_str(word);
            }
            _ => out.push((*word).to_owned()),
        }
        glue = number(word) && !word.ends_with([',', ')', '.']);
    }
    out
}

/// `text` after `first` as it is when it fits in `width`, else [`wrap`]ped (which
/// loses runs of spaces used for alignment).
pub(crate) fn fit(text: &str, width: usize, first: &str, rest: &str) -> Vec<String> {
    if columns(first) + columns(text) <= width {
        vec![format!("{first}{text}")]
    } else {
        wrap(text, width, first, rest)
    }
}

/// A path and what is said of it, on one line when both fit; else the path alone
/// (a path cannot be broken) and the label wrapped below it, four columns deeper.
pub(crate) fn labelled(path: &str, label: &str, width: usize, indent: &str) -> Vec<String> {
    let one = format!("{path}  {label}");
    if columns(indent) + columns(&one) <= width {
        return vec![format!("{indent}{one}")];
    }
    let deeper = format!("{indent}    ");
    let mut lines = vec![format!("{indent}{path}")];
    lines.extend(wrap(label, width, &deeper, &deeper));
    lines
}

/// Inline markdown shown as plain terminal text: `**bold**` loses its stars and
/// `<https://…>` its angle brackets; code spans keep their backticks.
pub(crate) fn plain(text: &str) -> String {
    // Only a pair around text is bold: a quoted `***` (a masked subscription id) or a
    // `**kwargs` stays as the message wrote it.
    static BOLD: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let bold = BOLD.get_or_init(|| {
        regex::Regex::new(r"\*\*([^*\s](?:[^*]*[^*\s])?)\*\*").expect("a valid pattern")
    });
    let mut s = bold.replace_all(text, "$1").into_owned();
    while let Some(start) = s.find("<http") {
        let Some(len) = s[start..].find('>') else {
            break;
        };
        let url = s[start + 1..start + len].to_owned();
        s.replace_range(start..=start + len, &url);
    }
    s
}

/// One block of a rule text.
enum Block {
    Paragraph(String),
    /// A list item: its leading spaces, marker (`-`, `1.`) and text.
    Item(usize, String, String),
    /// Lines of a fenced code block, shown as they are.
    Code(Vec<String>),
}

/// The list marker a line starts with, if any.
fn marker(trimmed: &str) -> Option<&str> {
    let (head, _) = trimmed.split_once(' ')?;
    let numbered = head.len() >= 2
        && head.ends_with('.')
        && head[..head.len() - 1].bytes().all(|b| b.is_ascii_digit());
    (head == "-" || head == "*" || numbered).then_some(head)
}

fn blocks(text: &str) -> Vec<Block> {
    let mut out: Vec<Block> = Vec::new();
    let mut open = false;
    let mut code: Option<Vec<String>> = None;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            match code.take() {
                Some(lines) => out.push(Block::Code(lines)),
                None => code = Some(Vec::new()),
            }
            open = false;
            continue;
        }
        if let Some(lines) = &mut code {
            lines.push(line.to_owned());
            continue;
        }
        let trimmed = line.trim_start();
        if trimmed.is_empty() {
            open = false;
            continue;
        }
        if let Some(m) = marker(trimmed) {
            let depth = line.len() - trimmed.len();
            out.push(Block::Item(
                depth,
                m.to_owned(),
                trimmed[m.len()..].trim().to_owned(),
            ));
            open = true;
            continue;
        }
        match out.last_mut() {
            Some(Block::Paragraph(t) | Block::Item(_, _, t)) if open => {
                t.push(' ');
                t.push_str(trimmed);
            }
            _ => {
                out.push(Block::Paragraph(trimmed.to_owned()));
                open = true;
            }
        }
    }
    if let Some(lines) = code {
        out.push(Block::Code(lines));
    }
    out
}

/// A rule's prose (paragraphs, `-` / `1.` lists, fenced code) laid out at `width`
/// columns under `indent` spaces: paragraphs are filled, list items hang under their
/// marker, code stays as written. Blocks are separated by one blank line, except
/// consecutive list items.
pub(crate) fn reflow(text: &str, width: usize, indent: usize) -> Vec<String> {
    let pad = " ".repeat(indent);
    let mut lines: Vec<String> = Vec::new();
    let mut previous_item = false;
    for block in blocks(text) {
        let item = matches!(block, Block::Item(..));
        let continues_list = item && previous_item;
        if !lines.is_empty() && !continues_list {
            lines.push(String::new());
        }
        previous_item = item;
        match block {
            Block::Paragraph(t) => lines.extend(wrap(&plain(&t), width, &pad, &pad)),
            Block::Item(depth, m, t) => {
                let first = format!("{pad}{}{m} ", " ".repeat(depth));
                let rest = " ".repeat(columns(&first));
                lines.extend(wrap(&plain(&t), width, &first, &rest));
            }
            Block::Code(code) => lines.extend(code.iter().map(|c| format!("{pad}  {c}"))),
        }
    }
    lines
}

/// Where a shortened evidence line may start or end: between words, fields of a log
/// line (`|`), JSON tokens. Not `.`, `/` or `:`, so host names and URLs stay whole.
const BREAKS: &[char] = &[
    ' ', '|', '"', ',', '(', ')', '[', ']', '{', '}', ';', '=', '<', '>',
];

/// `text` cut to `width` columns around byte offset `at` (where the match starts), at
/// word boundaries, with `…` where something was left out.
pub(crate) fn shorten(text: &str, width: usize, at: usize) -> String {
    if columns(text) <= width {
        return text.to_owned();
    }
    let at = floor_boundary(text, at.min(text.len()));
    // Start a little before the match so its context shows, at a word start.
    let lead = width / 4;
    let mut start = at;
    let mut seen = 0;
    for (i, c) in text[..at].char_indices().rev() {
        seen += columns(c.encode_utf8(&mut [0; 4]));
        if seen > lead {
            break;
        }
        start = i;
    }
    if start > 0 {
        // Start after a separator, so no word, number or name is shown cut.
        let lead = &text[start..at];
        start = lead
            .find(' ')
            .or_else(|| lead.find('|'))
            .or_else(|| lead.find(BREAKS))
            .map_or(start, |i| start + i + 1)
            .min(at);
    }
    // When the rest of the line from a later word fits whole, start there: the end of
    // a line (the host that did not resolve) is often what matters.
    if let Some(later) = text[start..at]
        .match_indices(' ')
        .map(|(i, _)| start + i + 1)
        .find(|p| columns(&text[*p..]) + 2 <= width)
    {
        start = later;
    }
    let prefix = if start > 0 { "… " } else { "" };
    let budget = width.saturating_sub(columns(prefix) + 2);
    let mut end = start;
    let mut used = 0;
    for (i, c) in text[start..].char_indices() {
        let w = columns(c.encode_utf8(&mut [0; 4]));
        if used + w > budget {
            break;
        }
        used += w;
        end = start + i + c.len_utf8();
    }
    if end >= text.len() {
        return format!("{prefix}{}", &text[start..]);
    }
    // Back to the last separator so no word, host or URL is cut, unless that loses
    // most of the line.
    let kept = &text[start..end];
    let floor = start + budget / 3;
    let at_space = kept.rfind(' ').map(|i| start + i).filter(|c| *c > floor);
    let at_break = kept
        .rfind(BREAKS)
        .map(|i| start + i + usize::from(!kept[i..].starts_with(' ')));
    let cut = at_space.or(at_break).filter(|c| *c > floor).unwrap_or(end);
    format!("{prefix}{} …", text[start..cut].trim_end())
}

fn floor_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// A shell command fitted to `width` columns under `indent` spaces: when too long it
/// is broken between arguments (never inside quotes) with ` \` line continuations, so
/// it still pastes into a POSIX shell as one command.
pub(crate) fn command_lines(command: &str, width: usize, indent: usize) -> Vec<String> {
    let pad = " ".repeat(indent);
    if indent + columns(command) <= width {
        return vec![format!("{pad}{command}")];
    }
    let words = shell_words(command);
    let more = format!("{pad}    ");
    let mut lines = Vec::new();
    let mut line = pad.clone();
    let mut fresh = true;
    for (n, word) in words.iter().enumerate() {
        // Room for the word and, unless it is the last, a trailing ` \`.
        let tail = if n + 1 < words.len() { 2 } else { 0 };
        if !fresh && columns(&line) + 1 + columns(word) + tail > width {
            line.push_str(" \\");
            lines.push(std::mem::replace(&mut line, more.clone()));
        } else if !fresh {
            line.push(' ');
        }
        line.push_str(word);
        fresh = false;
    }
    lines.push(line);
    lines
}

/// A command's words, split on spaces outside single or double quotes; a `|`, `&&`
/// or `;` stays with the word before it so a line never starts with one.
fn shell_words(command: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    let mut quote: Option<char> = None;
    for c in command.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => {
                quote = None;
                word.push(c);
            }
            (None, '\'' | '"') => {
                quote = Some(c);
                word.push(c);
            }
            (None, ' ') => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
            }
            _ => word.push(c),
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    let mut joined: Vec<String> = Vec::new();
    for w in words {
        match joined.last_mut() {
            Some(last) if matches!(w.as_str(), "|" | "&&" | "||" | ";") => {
                last.push(' ');
                last.push_str(&w);
            }
            _ => joined.push(w),
        }
    }
    joined
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_drops_bold_marks_but_not_stars_a_message_holds() {
        assert_eq!(plain("**Fix** it"), "Fix it");
        assert_eq!(
            plain("subscription *** was reached; call f(**kwargs)"),
            "subscription *** was reached; call f(**kwargs)"
        );
        assert_eq!(plain("see <https://aka.ms/x>"), "see https://aka.ms/x");
    }

    #[test]
    fn numbers_stay_with_their_unit_and_label() {
        assert_eq!(
            wrap("short of 5 requests/s by 5 instances", 30, "", ""),
            ["short of 5 requests/s by", "5 instances"]
        );
        assert_eq!(
            wrap("perf 6, sys/job_report 3, sys/node 7, user 1", 30, "", ""),
            ["perf 6, sys/job_report 3,", "sys/node 7, user 1"]
        );
        assert_eq!(
            wrap("over the 180 s limit", 12, "", ""),
            ["over the", "180 s limit"]
        );
    }

    #[test]
    fn paragraphs_and_lists_reflow_at_the_width() {
        let text = "The kernel killed the container because it went over its memory limit (exit code 137).\nFor a model server this usually happens while loading.\n\n- Raise the **memory** limit (deployment `resources`), or use a larger\n  instance type.\n- Use fewer workers.\n\nSee <https://learn.microsoft.com/x>.\n";
        let lines = reflow(text, 40, 4);
        assert!(lines.iter().all(|l| columns(l) <= 40), "{lines:#?}");
        assert_eq!(lines[0], "    The kernel killed the container");
        assert!(
            lines.contains(&"    - Raise the memory limit (deployment".to_owned()),
            "{lines:#?}"
        );
        assert!(
            lines.contains(&"      `resources`), or use a larger".to_owned()),
            "{lines:#?}"
        );
        assert!(lines.contains(&"    - Use fewer workers.".to_owned()));
        assert_eq!(
            lines.last().unwrap(),
            "    See https://learn.microsoft.com/x."
        );
        // Blank lines only between blocks, not between items.
        let i = lines.iter().position(|l| l.contains("fewer")).unwrap();
        assert!(!lines[i - 1].is_empty());
    }

    #[test]
    fn code_blocks_stay_and_long_words_are_whole() {
        let lines = reflow("Run:\n\n```\npip install x==1.0\n```\n", 10, 2);
        assert_eq!(lines, ["  Run:", "", "    pip install x==1.0"]);
        let url = "https://example.com/a/very/long/path/that/does/not/fit";
        assert_eq!(wrap(url, 20, "", ""), [url]);
    }

    #[test]
    fn evidence_is_cut_around_the_match_between_words() {
        let line = "2024-05-14 08:21:05,331 INFO some long preamble here ERROR: out of memory while loading the model into the worker process";
        let at = line.find("ERROR").unwrap();
        let short = shorten(line, 50, at);
        assert!(columns(&short) <= 50, "{short}");
        assert!(short.starts_with("… ") && short.ends_with(" …"), "{short}");
        assert!(short.contains("ERROR: out of memory"), "{short}");
        for word in short.trim_matches(['…', ' ']).split(' ') {
            assert!(line.split(' ').any(|w| w == word), "{word} was cut");
        }
        assert_eq!(shorten("short", 50, 0), "short");
        assert!(shorten(line, 50, 0).starts_with("2024-05-14"));
    }

    #[test]
    fn long_commands_continue_with_a_backslash_outside_quotes() {
        let cmd = "az role assignment create --assignee-object-id <principal-id> --role \"Storage Blob Data Reader\" --scope /subscriptions/x/resourceGroups/rg";
        let lines = command_lines(cmd, 60, 4);
        assert!(lines.len() > 1);
        for l in &lines[..lines.len() - 1] {
            assert!(l.ends_with(" \\") && columns(l) <= 60, "{l}");
        }
        assert!(
            lines
                .iter()
                .any(|l| l.contains("\"Storage Blob Data Reader\""))
        );
        let joined: Vec<String> = lines
            .iter()
            .map(|l| l.trim().trim_end_matches('\\').trim().to_owned())
            .collect();
        assert_eq!(joined.join(" "), cmd);
        assert_eq!(command_lines("ls", 60, 4), ["    ls"]);
        let piped = command_lines(
            "grep -rh x logs/user/error/ | sort | uniq -c | sort -rn | head",
            30,
            2,
        );
        assert!(
            piped.iter().all(|l| !l.trim_start().starts_with('|')),
            "{piped:#?}"
        );
    }
}
