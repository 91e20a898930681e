//! Paths as SARIF artifact URIs (RFC 3986), as code scanning resolves them: a path
//! relative to the working directory stays relative, against the `SRCROOT` base the run
//! declares, so it maps onto the repository checked out there; an absolute path inside
//! the working directory becomes relative too; any other absolute path is a `file:` URI
//! (a Windows one as `file:///C:/…`). Standard input and DNS names are no files: they get
//! URNs that no code scanning tool mistakes for a repository path.

use std::fmt::Write as _;

/// The base id relative URIs name.
pub const SRCROOT: &str = "SRCROOT";

/// An artifact location: the URI and, for a relative one, the base it is relative to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArtifactUri {
    pub uri: String,
    pub base: Option<&'static str>,
}

/// The URN standard input is reported at.
pub const STDIN: &str = "urn:amldoctor:stdin";

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

/// The artifact URI of `path`, against working directory `cwd` (absolute, `/`-separated)
/// when known.
pub fn artifact(path: &str, cwd: Option<&str>) -> ArtifactUri {
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
    let inside = cwd.and_then(|c| {
        let c = c.trim_end_matches('/');
        path.strip_prefix(c)?.strip_prefix('/')
    });
    let (relative, absolute) = match inside {
        Some(rest) => (Some(rest), false),
        None if path.starts_with('/') => (None, true),
        None => (Some(path), false),
    };
    if absolute {
        let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
        return ArtifactUri {
            uri: format!("file:///{}", encode_path(&segments)),
            base: None,
        };
    }
    // On Linux a backslash is part of a name: it is encoded, not read as a separator.
    let segments: Vec<&str> = relative
        .unwrap_or_default()
        .split('/')
        .filter(|s| !s.is_empty() && *s != ".")
        .collect();
    ArtifactUri {
        uri: encode_path(&segments),
        base: Some(SRCROOT),
    }
}

/// The working directory as the `file:` URI of a folder (ending in `/`).
pub fn directory(cwd: &str) -> String {
    let segments: Vec<&str> = cwd.split('/').filter(|s| !s.is_empty()).collect();
    if segments.is_empty() {
        return "file:///".to_owned();
    }
    format!("file:///{}/", encode_path(&segments))
}

/// The URN a DNS name is reported at.
pub fn dns(host: &str) -> String {
    format!("urn:amldoctor:dns:{}", encode_segment(host))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u(path: &str) -> (String, Option<&'static str>) {
        let a = artifact(path, Some("/home/ci/repo"));
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
        assert_eq!(
            dns("ep.westeurope.inference.ml.azure.com"),
            "urn:amldoctor:dns:ep.westeurope.inference.ml.azure.com"
        );
    }
}
