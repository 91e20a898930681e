//! What the engine consumes: documents with a kind, and where each came from, and
//! Azure resources read from JSON (`resource.rs`).
//!
//! Documents are streamed, never held whole: a [`Document`] names its origin and kind,
//! and `source` hands the engine a reader for its bytes.

pub(crate) mod azure_names;
pub(crate) mod dns;
mod dns_answers;
pub(crate) mod json_lines;
pub(crate) mod log_analytics;
pub(crate) mod normalize;
pub(crate) mod resource;
pub(crate) mod resource_id;
pub(crate) mod service_error;
pub(crate) mod surface;
pub(crate) mod utf16;
pub(crate) mod yaml_doc;

use std::fmt;
use std::path::PathBuf;

use serde::Serialize;

/// The grammar family a document is written in; rules choose the kinds they read.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    clap::ValueEnum,
    schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum DocumentKind {
    /// Console log of the `inference-server` container: runit launcher, pip freeze,
    /// azmlinfsrv/gunicorn lines, user prints.
    InferenceServer,
    /// Log of the `storage-initializer` container (model and code download).
    StorageInitializer,
    /// Output of `az ml …` or an SDK exception (error envelopes, JSON error bodies).
    Cli,
    /// `kubectl describe`, `kubectl get events` or `kubectl logs` output.
    Kubernetes,
    /// An environment image build log (ACR task, docker build, conda/pip).
    ImageBuild,
    /// A file of a ParallelRunStep / parallel job log tree (or its driver log).
    Prs,
    /// Anything else; every rule that does not restrict its kinds reads it.
    Generic,
}

impl DocumentKind {
    pub const ALL: [DocumentKind; 7] = [
        DocumentKind::InferenceServer,
        DocumentKind::StorageInitializer,
        DocumentKind::Cli,
        DocumentKind::Kubernetes,
        DocumentKind::ImageBuild,
        DocumentKind::Prs,
        DocumentKind::Generic,
    ];

    pub fn name(self) -> &'static str {
        match self {
            DocumentKind::InferenceServer => "inference-server",
            DocumentKind::StorageInitializer => "storage-initializer",
            DocumentKind::Cli => "cli",
            DocumentKind::Kubernetes => "kubernetes",
            DocumentKind::ImageBuild => "image-build",
            DocumentKind::Prs => "prs",
            DocumentKind::Generic => "generic",
        }
    }

    pub fn parse(name: &str) -> Option<DocumentKind> {
        DocumentKind::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(name.trim()))
    }

    /// A bit for kind sets.
    pub fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

/// The kinds a document is read as: its own, and the kinds of the other sections a
/// paste holds (`az` output, then pod events, then container log lines).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct KindSet(u8);

impl KindSet {
    /// The bit of a document read without context (a short paste, or a kind no grammar
    /// detected), and of the rules whose signature is specific enough to read one whatever
    /// kinds they list: kind gating must not hide a known signature from a one-line quote.
    pub const STANDALONE: u8 = 1 << 7;

    /// The set with [`KindSet::STANDALONE`] added.
    pub fn standalone(self) -> KindSet {
        KindSet(self.0 | KindSet::STANDALONE)
    }

    pub fn with(self, kind: DocumentKind) -> KindSet {
        KindSet(self.0 | kind.bit())
    }

    /// The set as bits, one per kind ([`DocumentKind::bit`]).
    pub fn bits(self) -> u8 {
        self.0
    }

    /// Whether a rule for the kinds in `bits` reads this document.
    pub fn meets(self, bits: u8) -> bool {
        self.0 & bits != 0
    }

    /// The set with the kinds in `bits` added.
    pub fn with_bits(self, bits: u8) -> KindSet {
        KindSet(self.0 | bits)
    }

    /// Whether every kind in `bits` is in the set.
    pub fn meets_all(self, bits: u8) -> bool {
        self.0 & bits == bits
    }

    pub fn contains(self, kind: DocumentKind) -> bool {
        self.meets(kind.bit())
    }

    /// The kinds, in the order of [`DocumentKind::ALL`].
    pub fn kinds(self) -> Vec<DocumentKind> {
        DocumentKind::ALL
            .into_iter()
            .filter(|k| self.contains(*k))
            .collect()
    }
}

impl From<DocumentKind> for KindSet {
    fn from(kind: DocumentKind) -> KindSet {
        KindSet(kind.bit())
    }
}

impl fmt::Display for DocumentKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How a document's kind was decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum KindSource {
    /// From the content (and, as a tie-breaker, the file name).
    Detected,
    /// From `--kind`.
    Forced,
    /// A file of a ParallelRunStep log tree, known from its place in the tree.
    PrsTree,
}

/// Where a document's bytes come from.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Origin {
    File(PathBuf),
    Stdin,
    /// Text handed over in memory in place of standard input (an MCP tool's paste).
    Text(std::sync::Arc<[u8]>),
}

impl Origin {
    /// The name used in `path:line` evidence.
    pub(crate) fn display_name(&self) -> String {
        match self {
            Origin::File(p) => p.display().to_string(),
            Origin::Stdin => "<stdin>".to_owned(),
            Origin::Text(_) => "<text>".to_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kind_names_round_trip() {
        for k in DocumentKind::ALL {
            assert_eq!(DocumentKind::parse(k.name()), Some(k));
            assert_eq!(serde_json::to_value(k).unwrap(), k.name());
        }
        assert_eq!(DocumentKind::parse("CLI"), Some(DocumentKind::Cli));
        assert_eq!(DocumentKind::parse("pods"), None);
        let bits: u8 = DocumentKind::ALL
            .iter()
            .map(|k| k.bit())
            .fold(0, |a, b| a | b);
        assert_eq!(bits.count_ones(), 7);
    }
}
