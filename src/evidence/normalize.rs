//! Copy-paste artefacts taken off a line before rules read it, so a signature pasted
//! through a GitHub issue, a CI log, the portal or an SDK exception still matches:
//! quote marks (`> `), CI prefixes (`##[error]`, `::error::`, step timestamps), markdown
//! emphasis and code marks, HTML entities, and JSON string escapes (`\"`, `\n`,
//! `\u0027`), which turn one long JSON line into the lines it stands for. Evidence
//! keeps showing the user's own line: every normalised byte remembers where it came
//! from.

/// Escapes and entities that can hide a rule's literal (`No module named \u0027x\u0027`)
/// or put several lines on one, and troubleshooting-guide anchors that name a code: the
/// scanner also stops at lines holding them, not only at lines holding a literal. Each
/// is given by its first two bytes (`&q` for `&quot;`): a stop is only a candidate, and
/// two-byte literals of rare bytes share one cheap searcher of their own instead of
/// adding to the rules' groups. Prefixes and code marks need no trigger: they never
/// split a literal (bold can: `was sent **SIGKILL**`, hence `**`), and every line a
/// literal selects is normalised anyway.
pub(crate) const TRIGGERS: &[&str] = &[
    "\\\"", "\\n", "\\u", "&q", "&#", "&a", "&l", "&g", "#e", "**", "\u{A0}",
];

/// Error codes of the online endpoint troubleshooting guide. Its anchors
/// (`aka.ms/oe-tsg#error-outofquota`) are lower case; a line that names a code only by
/// its anchor reads as naming the code.
const ANCHOR_CODES: &[&str] = &[
    "ACRAuthenticationChallengeFailed",
    "ACRSecretError",
    "ACRTokenExchangeFailed",
    "AciDeploymentFailed",
    "BadArgument",
    "CrashLoopBackOff",
    "DeploymentCrashLoopBackOff",
    "DownloadFailed",
    "EndpointAlreadyExists",
    "EndpointNotFound",
    "FailedScheduling",
    "GetAADTokenFailed",
    "ImageBuildFailure",
    "ImagePullFailed",
    "ImagePullLoopBackOff",
    "InferencingClientCallFailed",
    "InternalServerError",
    "InvalidDeploymentSpec",
    "KubernetesCrashLoopBackOff",
    "KubernetesUnaccessible",
    "NamespaceNotFound",
    "OOMKilled",
    "OperationCanceled",
    "OutOfQuota",
    "PodOutOfMemory",
    "PodUnschedulable",
    "ResourceNotFound",
    "ResourceNotReady",
    "RoleAssignmentLimitExceeded",
    "ScoringFeUnhealthy",
    "SecretsInjectionError",
    "SubscriptionNotFound",
    "TokenRefreshFailed",
    "UserScriptFunctionNotFound",
    "UserScriptImportError",
    "UserScriptInitFailed",
    "V1LegacyMode",
    "ValidateScoringFailed",
    "WarmupFailure",
    "WorkspaceManagedNetworkNotReady",
];

/// The code a troubleshooting-guide anchor in `text` stands for, if one does, on a line
/// that reports an error (prose that merely links the guide names no error).
fn anchor_code(text: &[u8]) -> Option<(&'static str, usize)> {
    let at = find(text, b"#error-")?;
    // The anchors themselves (`#error-…`) do not make a line report an error.
    let mut plain = text.to_vec();
    for hit in find_iter(text, b"#error-") {
        plain[hit + 1..hit + 6].copy_from_slice(b"_____");
    }
    let reports = [
        "rror",
        "ailed",
        "troubleshooting guide",
        "Message",
        "Code:",
        "Reason:",
    ]
    .iter()
    .any(|w| find(&plain, w.as_bytes()).is_some());
    if !reports {
        return None;
    }
    let name: Vec<u8> = text[at + 7..]
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric())
        .map(u8::to_ascii_lowercase)
        .collect();
    ANCHOR_CODES
        .iter()
        .find(|c| c.as_bytes().eq_ignore_ascii_case(&name))
        .map(|c| (*c, at))
}

/// A line with its artefacts removed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Normalized {
    pub text: Vec<u8>,
    /// For each byte of `text`, the offset in the original line it came from.
    pub origin: Vec<usize>,
}

impl Normalized {
    /// The logical lines of the normalised text (JSON `\n` escapes split one physical
    /// line into several), each with its byte range in `text`.
    pub(crate) fn lines(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        let mut start = 0;
        let text = &self.text;
        std::iter::from_fn(move || {
            if start > text.len() {
                return None;
            }
            let end = memchr::memchr(b'\n', &text[start..]).map_or(text.len(), |i| start + i);
            let range = (start, end);
            start = end + 1;
            Some(range)
        })
    }

    /// The original offset of normalised byte `at` (the end of the line for `at` past it).
    pub(crate) fn original(&self, at: usize, line_len: usize) -> usize {
        self.origin.get(at).copied().unwrap_or(line_len)
    }
}

/// `line` without its artefacts, or `None` when it has none.
/// The logical lines `text` stands for once its paste artefacts are removed (a JSON
/// string's `\n` ends one): the text itself when it has none.
pub(crate) fn logical_lines(text: &str) -> Vec<String> {
    match normalize(text.as_bytes()) {
        None => vec![text.to_owned()],
        Some(clean) => clean
            .lines()
            .map(|(a, b)| String::from_utf8_lossy(&clean.text[a..b]).into_owned())
            .collect(),
    }
}

pub(crate) fn normalize(line: &[u8]) -> Option<Normalized> {
    let start = prefix_len(line);
    let body = &line[start..];
    // Most lines hold none of the bytes an artefact starts with: one pass says so.
    let marks = memchr::memchr3(b'\\', b'&', b'`', body).is_some()
        || memchr::memchr2(b'*', b'#', body).is_some()
        || typographic(body);
    if start == 0 && !marks {
        return None;
    }
    let inline = memchr::memchr3(b'\\', b'&', b'`', body).is_some()
        || find(body, b"**").is_some()
        || typographic(body);
    let anchor = anchor_code(body);
    // Backslash escapes are decoded only in a line that is JSON text, so a Windows path
    // (`C:\Users\nina`) keeps its `\n`.
    let json = find(body, b"\\\"").is_some()
        || find(body, b"\\u0").is_some()
        || find(body, b"\":").is_some();
    if start == 0 && !inline && anchor.is_none() {
        return None;
    }
    let mut out = Normalized {
        text: Vec::with_capacity(body.len()),
        origin: Vec::with_capacity(body.len()),
    };
    let mut i = 0;
    while i < body.len() {
        let (skip, produced) = decode_at(body, i, json);
        match produced {
            Produced::Bytes(bytes) => {
                for b in bytes.iter().copied() {
                    out.text.push(b);
                    out.origin.push(start + i);
                }
            }
            Produced::Byte(b) => {
                out.text.push(b);
                out.origin.push(start + i);
            }
            Produced::Char(c) => {
                let mut buf = [0u8; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    out.text.push(b);
                    out.origin.push(start + i);
                }
            }
            Produced::Nothing => {}
        }
        i += skip;
    }
    // JSON inside a JSON string (an SDK error quoting a service error) is escaped twice.
    if find(&out.text, b"\\\"").is_some()
        && let Some(again) = normalize(&out.text)
    {
        let origin = again
            .origin
            .iter()
            .map(|o| out.origin.get(*o).copied().unwrap_or(start))
            .collect();
        return Some(Normalized {
            text: again.text,
            origin,
        });
    }
    if let Some((code, at)) = anchor
        && find(&out.text, code.as_bytes()).is_none()
    {
        // Said after the line, so patterns read it as a code the line names; evidence
        // of it points at the anchor.
        for b in format!(" [{code}]").bytes() {
            out.text.push(b);
            out.origin.push(start + at);
        }
    }
    (out.text.as_slice() != line).then_some(out)
}

/// `&#39;`, `&#039;`, `&#x27;`: a numeric character reference and its length.
fn numeric_entity(rest: &[u8]) -> Option<(usize, char)> {
    let body = rest.strip_prefix(b"&#")?;
    let (hex, digits) = match body.first() {
        Some(b'x' | b'X') => (true, &body[1..]),
        _ => (false, body),
    };
    let n = digits
        .iter()
        .take(8)
        .take_while(|b| {
            if hex {
                b.is_ascii_hexdigit()
            } else {
                b.is_ascii_digit()
            }
        })
        .count();
    if n == 0 || digits.get(n) != Some(&b';') {
        return None;
    }
    let text = std::str::from_utf8(&digits[..n]).ok()?;
    let code = u32::from_str_radix(text, if hex { 16 } else { 10 }).ok()?;
    Some((2 + usize::from(hex) + n + 1, char::from_u32(code)?))
}

/// Whether the text holds typographic quotes, no-break spaces or terminal colours.
fn typographic(body: &[u8]) -> bool {
    memchr::memchr3_iter(0xE2, 0xC2, 0x1B, body).any(|i| {
        let rest = &body[i..];
        rest.starts_with(&[0xC2, 0xA0])
            || matches!(rest, [0xE2, 0x80, 0x98 | 0x99 | 0x9C | 0x9D, ..])
            || colour(rest).is_some()
    })
}

/// A terminal colour code (`ESC[91m`, `ESC[0;31m`), or one a Windows console pasted
/// with its escape shown as `←` (`←[91m`): its length.
fn colour(rest: &[u8]) -> Option<usize> {
    let lead = if rest.starts_with(&[0x1B, b'[']) {
        2
    } else if rest.starts_with("\u{2190}[".as_bytes()) {
        4
    } else {
        return None;
    };
    let digits = rest[lead..]
        .iter()
        .take_while(|b| b.is_ascii_digit() || **b == b';')
        .count();
    (digits > 0 && digits <= 8 && rest.get(lead + digits) == Some(&b'm'))
        .then_some(lead + digits + 1)
}

enum Produced {
    /// A byte of the line, unchanged (UTF-8 sequences pass byte by byte).
    Byte(u8),
    Bytes(&'static [u8]),
    Char(char),
    Nothing,
}

/// What the artefact at `body[i]` stands for, and how many bytes it takes.
fn decode_at(body: &[u8], i: usize, json: bool) -> (usize, Produced) {
    let rest = &body[i..];
    match rest[0] {
        b'\\' if json && rest.len() >= 2 => match rest[1] {
            b'"' => (2, Produced::Bytes(b"\"")),
            b'\\' => (2, Produced::Bytes(b"\\")),
            b'/' => (2, Produced::Bytes(b"/")),
            b'n' => (2, Produced::Bytes(b"\n")),
            b'r' => (2, Produced::Nothing),
            b't' => (2, Produced::Bytes(b"\t")),
            b'u' if rest.len() >= 6 => {
                let hex = std::str::from_utf8(&rest[2..6]).ok();
                match hex
                    .and_then(|h| u32::from_str_radix(h, 16).ok())
                    .and_then(char::from_u32)
                {
                    Some(c) => (6, Produced::Char(c)),
                    None => (1, Produced::Bytes(b"\\")),
                }
            }
            _ => (1, Produced::Bytes(b"\\")),
        },
        b'&' => {
            const ENTITIES: [(&[u8], &[u8]); 8] = [
                (b"&quot;", b"\""),
                (b"&#39;", b"'"),
                (b"&#x27;", b"'"),
                (b"&apos;", b"'"),
                (b"&amp;", b"&"),
                (b"&lt;", b"<"),
                (b"&gt;", b">"),
                (b"&nbsp;", b" "),
            ];
            if let Some((e, to)) = ENTITIES.iter().find(|(e, _)| rest.starts_with(e)) {
                return (e.len(), Produced::Bytes(to));
            }
            numeric_entity(rest).map_or((1, Produced::Bytes(b"&")), |(n, c)| (n, Produced::Char(c)))
        }
        // Typographic quotes a web page or word processor put in, and no-break spaces.
        0xE2 if rest.starts_with("\u{2018}".as_bytes())
            || rest.starts_with("\u{2019}".as_bytes()) =>
        {
            (3, Produced::Bytes(b"'"))
        }
        0xE2 if rest.starts_with("\u{201C}".as_bytes())
            || rest.starts_with("\u{201D}".as_bytes()) =>
        {
            (3, Produced::Bytes(b"\""))
        }
        0xC2 if rest.starts_with("\u{A0}".as_bytes()) => (2, Produced::Bytes(b" ")),
        0x1B | 0xE2 if colour(rest).is_some() => (colour(rest).unwrap_or(1), Produced::Nothing),
        // Code marks and bold emphasis carry no meaning for a signature.
        b'`' => (1, Produced::Nothing),
        b'*' if rest.starts_with(b"**") => (2, Produced::Nothing),
        b => (1, Produced::Byte(b)),
    }
}

/// Where `needle` first occurs in `hay`. Lines are short and the needles few: this
/// avoids building a `memmem` searcher for every line the scanner stops at.
pub(crate) fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    let first = *needle.first()?;
    memchr::memchr_iter(first, hay).find(|i| hay[*i..].starts_with(needle))
}

/// Every place `needle` occurs in `hay`.
pub(crate) fn find_iter<'a>(hay: &'a [u8], needle: &'a [u8]) -> impl Iterator<Item = usize> + 'a {
    let first = needle.first().copied().unwrap_or(0);
    memchr::memchr_iter(first, hay).filter(move |i| hay[*i..].starts_with(needle))
}

/// How many leading bytes are paste furniture: `> ` quote marks, CI annotations
/// (`##[error]`, `::error::`, `::error file=…::`), a CI step timestamp
/// (`2024-05-01T10:00:00.1234567Z `), and an `Error: ` a CI runner puts before an error
/// block, in any order and repeated.
pub(crate) fn prefix_len(line: &[u8]) -> usize {
    let mut at = 0;
    loop {
        let rest = &line[at..];
        let step = if rest.starts_with(b"> ") || rest == b">" {
            rest.len().min(2)
        } else if rest.starts_with(b">>") {
            1
        } else if rest.starts_with(b"##[") {
            memchr::memchr(b']', rest).map_or(0, |i| i + 1)
        } else if rest.starts_with(b"::error") || rest.starts_with(b"::warning") {
            // `::error::msg` or `::error file=x,line=1::msg`
            find(&rest[2..], b"::").map_or(0, |i| i + 4)
        } else if let Some(n) = ci_timestamp(rest) {
            n
        } else if rest.starts_with(b"Error: ")
            && matches!(rest.get(7), Some(b'(' | b'{' | b'E' | b'C' | b'['))
        {
            7
        } else {
            0
        };
        if step == 0 {
            return at;
        }
        at += step;
    }
}

/// `2024-05-01T10:00:00.1234567Z ` as GitHub Actions and Azure Pipelines put before
/// every line of a downloaded log.
fn ci_timestamp(rest: &[u8]) -> Option<usize> {
    let shape = b"dddd-dd-ddTdd:dd:dd";
    if rest.len() < shape.len() + 2 {
        return None;
    }
    for (b, s) in rest.iter().zip(shape) {
        let ok = if *s == b'd' {
            b.is_ascii_digit()
        } else {
            b == s
        };
        if !ok {
            return None;
        }
    }
    // CI runners write seven digits of fraction; a log's own `…:00Z | …` is no prefix.
    let mut i = shape.len();
    if rest.get(i) != Some(&b'.') {
        return None;
    }
    i += 1;
    let digits = rest[i..].iter().take_while(|b| b.is_ascii_digit()).count();
    i += digits;
    if digits < 6 || rest.get(i) != Some(&b'Z') || rest.get(i + 1) != Some(&b' ') {
        return None;
    }
    Some(i + 2)
}

/// A paste whose long lines a terminal (or a fixed-width page) cut at one width, with
/// the pieces put back together: each cut line is joined with the line after it, and
/// an empty line keeps every later line at its number. `None` when the text does not
/// look cut: that needs several lines of exactly the widest length, which ordinary
/// logs, where the longest line is a one-off, do not have.
pub(crate) fn unwrap_terminal(text: &[u8]) -> Option<Vec<u8>> {
    // Widths in bytes: cut error messages are ASCII, and a byte count keeps this check
    // nearly free on the logs it leaves alone.
    // Columns, not bytes (a progress bar's block characters take three bytes each). A
    // console pads lines with blanks to its width: padding (two or more trailing blanks)
    // does not count, while the one blank a cut can fall after does.
    let width = |l: &[u8]| {
        let l = l.strip_suffix(b"\r").unwrap_or(l);
        let l = if l.ends_with(b"  ") {
            l.trim_ascii_end()
        } else {
            l
        };
        if l.is_ascii() {
            l.len()
        } else {
            l.iter().filter(|b| (**b & 0xC0) != 0x80).count()
        }
    };
    let lines = || {
        let mut start = 0;
        memchr::memchr_iter(b'\n', text)
            .chain(std::iter::once(text.len()))
            .map(move |end| {
                let line = &text[start..end];
                start = end + 1;
                line
            })
    };
    // A line's width is at most its byte length: columns are only counted for lines
    // long enough to matter, which keeps this nearly free on ordinary logs.
    let byte_len = |l: &[u8]| l.strip_suffix(b"\r").unwrap_or(l).len();
    let mut cut = 0;
    for line in lines() {
        if byte_len(line) > cut {
            cut = cut.max(width(line));
        }
    }
    if cut < 60 {
        return None;
    }
    let at_width = |l: &[u8]| byte_len(l) >= cut && width(l) == cut;
    // In a cut paste, most lines at the width go on in a line that starts no record of
    // its own; in a log, the longest lines are followed by the next record.
    let (mut at_cut, mut continued, mut previous, mut count) = (0usize, 0usize, None, 0usize);
    let mut mid_word = false;
    for line in lines() {
        if let Some(cut_line) = previous
            && !line.is_empty()
            && !starts_record(line)
        {
            continued += 1;
            let end = byte_len(cut_line).checked_sub(1).map(|i| cut_line[i]);
            mid_word |= end.is_some_and(|b: u8| b.is_ascii_alphanumeric())
                && line.first().is_some_and(u8::is_ascii_lowercase);
        }
        previous = at_width(line).then_some(line);
        at_cut += usize::from(previous.is_some());
        count += 1;
    }
    // A quote of one cut line (two or three lines in all) is joined only where the cut
    // split a word (`… state, curr` / `ent service state`): two lines of a short log
    // the first of which is longer are no cut.
    let short_cut = count <= 3 && continued >= 1 && mid_word;
    if !short_cut && (continued < 3 || 4 * continued < at_cut) {
        return None;
    }
    let lines: Vec<&[u8]> = lines().collect();
    let widths: Vec<usize> = lines.iter().map(|l| width(l)).collect();
    let mut out = Vec::with_capacity(text.len());
    let mut i = 0;
    while i < lines.len() {
        let mut line = lines[i].strip_suffix(b"\r").unwrap_or(lines[i]).to_vec();
        let mut joined = 0;
        // A cut line continues on the next, unless that one starts a new record.
        while widths[i + joined] == cut
            && !lines[i + joined].trim_ascii_end().ends_with(b"|")
            && !lines[i + joined]
                .strip_suffix(b"\r")
                .unwrap_or(lines[i + joined])
                .ends_with(b"  ")
            && lines
                .get(i + joined + 1)
                .is_some_and(|next| !next.is_empty() && !starts_record(next))
        {
            joined += 1;
            let next = lines[i + joined];
            line.extend_from_slice(next.strip_suffix(b"\r").unwrap_or(next));
        }
        out.extend_from_slice(&line);
        out.extend(std::iter::repeat_n(b'\n', joined));
        i += joined + 1;
        if i < lines.len() {
            out.push(b'\n');
        }
    }
    Some(out)
}

/// Whether a line begins a new log record (a timestamp or a level tag), so it is no
/// continuation of a cut line.
fn starts_record(line: &[u8]) -> bool {
    if line.starts_with(b"{") || line.starts_with(b"[") {
        // A JSON log's next object.
        return true;
    }
    let digits = line.iter().take(4).filter(|b| b.is_ascii_digit()).count();
    (digits == 4 && line.get(4).is_some_and(|b| matches!(b, b'-' | b'/')))
        || line.starts_with(b"ERROR:")
        || line.starts_with(b"WARNING:")
        || line.starts_with(b"Code:")
        || line.starts_with(b"Message:")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn norm(s: &str) -> String {
        normalize(s.as_bytes()).map_or_else(|| s.to_owned(), |n| String::from_utf8(n.text).unwrap())
    }

    #[test]
    fn paste_artefacts_are_removed() {
        assert_eq!(
            norm("> **OutOfQuota**: Not enough quota for `Standard_DS3_v2`"),
            "OutOfQuota: Not enough quota for Standard_DS3_v2"
        );
        assert_eq!(
            norm("2024-05-01T10:00:00.1234567Z ##[error]ERROR: (ResourceNotReady) crashed"),
            "ERROR: (ResourceNotReady) crashed"
        );
        assert_eq!(
            norm("::error::ERROR: (BadArgument) x"),
            "ERROR: (BadArgument) x"
        );
        assert_eq!(
            norm("> > No module named &#39;main&#39;"),
            "No module named 'main'"
        );
        assert_eq!(norm("a &lt;b&gt; &amp; c"), "a <b> & c");
        // Ordinary lines are left alone.
        assert!(normalize(b"2024-01-01 10:00:00,123 I [7] azmlinfsrv - Starting").is_none());
        assert_eq!(norm("__init__ uses *args"), "__init__ uses *args");
        // Terminal colours, as bytes or as a Windows console shows them.
        assert_eq!(
            norm("\u{1b}[91mValidation failed:\u{1b}[0m"),
            "Validation failed:"
        );
        assert_eq!(
            norm("\u{2190}[91mValidation failed:\u{2190}[0m"),
            "Validation failed:"
        );
        assert_eq!(norm("a \u{2190} b"), "a \u{2190} b");
    }

    #[test]
    fn json_escapes_become_the_lines_they_stand_for() {
        let line = r#"{"error": {"code": "UserError", "message": "Traceback:\n  File \"score.py\"\nModuleNotFoundError: No module named \u0027sklearn\u0027"}}"#;
        let n = normalize(line.as_bytes()).unwrap();
        let text = String::from_utf8(n.text.clone()).unwrap();
        let lines: Vec<&str> = n.lines().map(|(a, b)| &text[a..b]).collect();
        assert_eq!(
            lines[2],
            "ModuleNotFoundError: No module named 'sklearn'\"}}"
        );
        assert_eq!(lines[1], "  File \"score.py\"");
        // Offsets map back into the original line.
        let (a, _) = n.lines().nth(2).unwrap();
        assert_eq!(
            &line[n.original(a, line.len())..][..19],
            "ModuleNotFoundError"
        );
    }

    #[test]
    fn doubly_escaped_json_is_read_too() {
        assert_eq!(
            norm(r#"message: "{\\\"code\\\": \\\"OutOfQuota\\\"}""#),
            r#"message: "{"code": "OutOfQuota"}""#
        );
    }

    #[test]
    fn a_guide_anchor_names_its_code() {
        assert_eq!(
            norm("Deployment failed, see https://aka.ms/oe-tsg#error-outofquota"),
            "Deployment failed, see https://aka.ms/oe-tsg#error-outofquota [OutOfQuota]"
        );
        assert_eq!(
            norm("(OutOfQuota) see https://aka.ms/oe-tsg#error-outofquota"),
            "(OutOfQuota) see https://aka.ms/oe-tsg#error-outofquota"
        );
        assert!(normalize(b"see #error-nosuchcode").is_none());
        // Prose that links the guide reports no error.
        assert!(
            normalize(b"I read https://aka.ms/oe-tsg#error-outofquota, quota is fine").is_none()
        );
    }

    #[test]
    fn terminal_cut_lines_are_joined_and_keep_their_numbers() {
        let msg = "ERROR: (ResourceNotReady) User container has crashed or terminated: Liveness probe failed: HTTP probe failed with statuscode: 502";
        let mut text = String::new();
        for _ in 0..3 {
            let chars: Vec<char> = msg.chars().collect();
            for piece in chars.chunks(60) {
                text.extend(piece);
                text.push('\n');
            }
        }
        text.push_str("done");
        let out = String::from_utf8(unwrap_terminal(text.as_bytes()).unwrap()).unwrap();
        let lines: Vec<&str> = out.split('\n').collect();
        assert_eq!(lines.len(), 10, "{out}");
        assert_eq!(lines[0], msg);
        assert_eq!(lines[1..3], ["", ""]);
        assert_eq!(lines[9], "done");
        // An ordinary log, whose longest line is a one-off, is left alone.
        let log = "2024-01-01 a short line\n2024-01-01 a somewhat longer line that goes on and on and on and on and on\n2024-01-01 x\n";
        assert!(unwrap_terminal(log.as_bytes()).is_none());
        // One quoted line, cut once.
        let one = "Service deployment polling reached non-successful terminal state, curr\nent service state: Unhealthy\n";
        let out = String::from_utf8(unwrap_terminal(one.as_bytes()).unwrap()).unwrap();
        assert!(
            out.starts_with(
                "Service deployment polling reached non-successful terminal state, current service"
            ),
            "{out}"
        );
    }

    #[test]
    fn typographic_quotes_entities_and_no_break_spaces() {
        assert_eq!(
            norm("No module named \u{2018}main\u{2019}"),
            "No module named 'main'"
        );
        assert_eq!(
            norm("No module named &#039;main&#039; &#x27;x&#x27;"),
            "No module named 'main' 'x'"
        );
        assert_eq!(norm("Liveness\u{A0}probe failed"), "Liveness probe failed");
    }

    #[test]
    fn a_cut_after_a_blank_is_joined() {
        let line = "2022-08-22T17:05:02,187280665+00:00 | gunicorn/run | AzureML image information: openmpi4.1.0-ubuntu20.04, Materializaton Build:20220708.v2";
        let mut text = String::new();
        for _ in 0..3 {
            text.push_str(&line[..80]);
            text.push('\n');
            text.push_str(&line[80..]);
            text.push('\n');
        }
        let out = String::from_utf8(unwrap_terminal(text.as_bytes()).expect("joined")).unwrap();
        assert!(out.starts_with(line), "{out}");
    }

    #[test]
    fn windows_paths_survive() {
        assert_eq!(norm(r"C:\Users\me\score.py"), r"C:\Users\me\score.py");
        assert_eq!(
            norm(r"OSError: could not read C:\Users\nina\model.pkl"),
            r"OSError: could not read C:\Users\nina\model.pkl"
        );
    }
}
