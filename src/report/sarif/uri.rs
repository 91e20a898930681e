//! Paths as SARIF artifact URIs (RFC 3986), as code scanning resolves them: a path
//! relative to the working directory stays relative, against the `SRCROOT` base the run
//! declares, so it maps onto the repository checked out there; an absolute path inside
//! the working directory becomes relative too; any other absolute path is a `file:` URI
//! (a Windows one as `file:///C:/…`). Standard input and DNS names are no files: they get
//! URNs that no code scanning tool mistakes for a repository path.

use std::fmt::Write as _;

/// The base id relative URIs name.
pub(super) const SRCROOT: &str = "SRCROOT";

/// An artifact location: the URI and, for a relative one, the base it is relative to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct ArtifactUri {
    pub uri: String,
    pub base: Option<&'static str>,
}

/// The URN standard input is reported at.
pub(super) const STDIN: &str = "urn:amldoctor:stdin";

/// Every byte but the unreserved ones as `%XX` (UTF-8), so brackets, quotes, pipes,
/// spaces, backslashes and non-ASCII letters survive any URI parser.
fn encode_segment(segment: &str) -> String {
    let mut out = String::with_capacity(segment.len());
    for b in segment.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

fn encode_path(segments: &[&str]) -> String {
    segments
        .iter()
        .map(|s| encode_segment(s))
        .collect::<Vec<_>>()
        .join("/")
}

/// A Windows path (`C:\x`, `C:/x`, `\\server\share\x`): its drive or host, and segments.
fn windows(path: &str) -> Option<(String, Vec<&str>)> {
    let b = path.as_bytes();
    if b.len() >= 3 && b[0].is_ascii_alphabetic() && b[1] == b':' && matches!(b[2], b'\\' | b'/') {
        let rest = path[3..]
            .split(['\\', '/'])
            .filter(|s| !s.is_empty())
            .collect();
        return Some((format!("/{}:", &path[..1].to_ascii_uppercase()), rest));
    }
    if let Some(unc) = path.strip_prefix("\\\\") {
        let mut parts = unc.split('\\').filter(|s| !s.is_empty());
        let host = parts.next()?;
        return Some((encode_segment(host), parts.collect()));
    }
    None
}

/// Where relative paths are read from and what they are reported against.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Bases<'a> {
    /// The working directory (absolute, `/`-separated).
    pub cwd: Option<&'a str>,
    /// The repository the working directory is in (code scanning resolves URIs against
    /// the checkout's root), else the working directory.
    pub root: Option<&'a str>,
}

/// `a/./b/../c` as `a/c`; `None` when `..` climbs above the start.
fn normalise(path: &str) -> Option<Vec<&str>> {
    let mut out: Vec<&str> = Vec::new();
    for seg in path.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                out.pop()?;
            }
            s => out.push(s),
        }
    }
    Some(out)
}

/// The artifact URI of `path`: relative to the repository root when it lies inside it,
/// else an absolute `file:` URI.
pub(super) fn artifact(path: &str, bases: Bases) -> ArtifactUri {
    // A scoring URI (`score`'s evidence): a URI already, not a file.
    if path.starts_with("https://") || path.starts_with("http://") {
        return ArtifactUri {
            uri: path.to_owned(),
            base: None,
        };
    }
    if path == "<stdin>" || path == "-" {
        return ArtifactUri {
            uri: STDIN.to_owned(),
            base: None,
        };
    }
    if let Some((root, segments)) = windows(path) {
        // `/C:` (a drive) or a host name (UNC).
        return ArtifactUri {
            uri: format!("file://{root}/{}", encode_path(&segments)),
            base: None,
        };
    }
    // On Linux a backslash is part of a name: it is encoded, not read as a separator.
    let absolute = if path.starts_with('/') {
        Some(path.to_owned())
    } else {
        bases
            .cwd
            .map(|c| format!("{}/{path}", c.trim_end_matches('/')))
    };
    let Some(absolute) = absolute else {
        // Nowhere to resolve it against: relative as written.
        let segments = normalise(path).unwrap_or_default();
        return ArtifactUri {
            uri: encode_path(&segments),
            base: Some(SRCROOT),
        };
    };
    let segments = normalise(&absolute).unwrap_or_default();
    let root = bases
        .root
        .or(bases.cwd)
        .and_then(normalise)
        .unwrap_or_default();
    if !root.is_empty() && segments.len() > root.len() && segments[..root.len()] == root[..] {
        return ArtifactUri {
            uri: encode_path(&segments[root.len()..]),
            base: Some(SRCROOT),
        };
    }
    ArtifactUri {
        uri: format!("file:///{}", encode_path(&segments)),
        base: None,
    }
}

/// A folder as a `file:` URI ending in `/` (a drive's colon kept: `file:///C:/x/`).
pub(super) fn directory(dir: &str) -> String {
    let dir = dir.replace('\\', "/");
    let segments: Vec<&str> = dir.split('/').filter(|s| !s.is_empty()).collect();
    let Some((first, rest)) = segments.split_first() else {
        return "file:///".to_owned();
    };
    let drive =
        first.len() == 2 && first.ends_with(':') && first.as_bytes()[0].is_ascii_alphabetic();
    let head = if drive {
        (*first).to_owned()
    } else {
        encode_segment(first)
    };
    let mut out = format!("file:///{head}/");
    if !rest.is_empty() {
        out.push_str(&encode_path(rest));
        out.push('/');
    }
    out
}

/// The URN a DNS name is reported at.
pub(super) fn dns(host: &str) -> String {
    format!("urn:amldoctor:dns:{}", encode_segment(host))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u(path: &str) -> (String, Option<&'static str>) {
        let a = artifact(
            path,
            Bases {
                cwd: Some("/home/ci/repo"),
                root: None,
            },
        );
        (a.uri, a.base)
    }

    #[test]
    fn every_kind_of_path() {
        assert_eq!(
            u("logs/a b.log"),
            ("logs/a%20b.log".to_owned(), Some(SRCROOT))
        );
        assert_eq!(u("./logs/a.log"), ("logs/a.log".to_owned(), Some(SRCROOT)));
        assert_eq!(
            u("/home/ci/repo/deploy/blue.yml"),
            ("deploy/blue.yml".to_owned(), Some(SRCROOT))
        );
        assert_eq!(u("/tmp/x.log"), ("file:///tmp/x.log".to_owned(), None));
        assert_eq!(u("<stdin>"), (STDIN.to_owned(), None));
        assert_eq!(
            u("C:\\logs\\a.log"),
            ("file:///C:/logs/a.log".to_owned(), None)
        );
        assert_eq!(
            u("d:/x y/a.log"),
            ("file:///D:/x%20y/a.log".to_owned(), None)
        );
        assert_eq!(
            u("\\\\srv\\share\\a.log"),
            ("file://srv/share/a.log".to_owned(), None)
        );
        assert_eq!(
            u("logs/[node 1]|\"q\"'s/naïve.log"),
            (
                "logs/%5Bnode%201%5D%7C%22q%22%27s/na%C3%AFve.log".to_owned(),
                Some(SRCROOT)
            )
        );
        // A backslash in a Linux file name is a character of the name.
        assert_eq!(
            u("logs/a\\b.log"),
            ("logs/a%5Cb.log".to_owned(), Some(SRCROOT))
        );
        assert_eq!(u("logs/100%.log").0, "logs/100%25.log");
        assert_eq!(directory("/home/ci/my repo"), "file:///home/ci/my%20repo/");
        assert_eq!(directory("C:/ci/repo"), "file:///C:/ci/repo/");
        // Against the repository root, from a folder inside it; outside it, absolute.
        let from_sub = |p: &str| {
            let a = artifact(
                p,
                Bases {
                    cwd: Some("/home/ci/repo/deploy"),
                    root: Some("/home/ci/repo"),
                },
            );
            (a.uri, a.base)
        };
        assert_eq!(
            from_sub("blue.yml"),
            ("deploy/blue.yml".to_owned(), Some(SRCROOT))
        );
        assert_eq!(
            from_sub("../logs/a.log"),
            ("logs/a.log".to_owned(), Some(SRCROOT))
        );
        assert_eq!(
            from_sub("../../other/a.log"),
            ("file:///home/ci/other/a.log".to_owned(), None)
        );
        assert_eq!(
            dns("ep.westeurope.inference.ml.azure.com"),
            "urn:amldoctor:dns:ep.westeurope.inference.ml.azure.com"
        );
    }
}
