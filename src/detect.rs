//! Decides a document's kind from the first lines of its content, using the line
//! grammars of each log family; the file name only breaks ties. Detection is a vote:
//! each line grammar a line fits adds to its kind's score.

use regex::bytes::RegexSet;

use crate::evidence::DocumentKind;

/// How much of a document detection reads: enough for a container's startup banner.
pub(crate) const HEAD_BYTES: usize = 16 * 1024;
/// At most this many lines of the head are looked at (a CI log's preamble can be long).
const HEAD_LINES: usize = 250;
/// Lines after which reading stops once some kind has won: most logs say what they are
/// in their first lines, and the rest of the head is only read for a long preamble.
const DECIDED_LINES: usize = 120;

/// Why a document's first bytes say it is not text amldoctor can read, if they do.
/// UTF-16 with a byte-order mark is decoded before this is asked.
pub(crate) fn unreadable_text(head: &[u8]) -> Option<&'static str> {
    // A NUL byte, as git and ripgrep decide.
    memchr::memchr(0, head).map(|_| "binary file (contains NUL bytes)")
}

/// Compiled detection grammars (one multi-pattern set); build once and reuse.
#[derive(Debug)]
pub(crate) struct Detector {
    set: RegexSet,
}

const SIGNALS: &[(DocumentKind, &str, u32)] = &[
    // runit launcher, both generations
    (
        DocumentKind::InferenceServer,
        r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d,\d{9}\+00:00 (?:-|\|) [\w-]+/(?:run|finish)",
        5,
    ),
    (
        DocumentKind::InferenceServer,
        r"^Azure ML Inferencing HTTP server v\d",
        10,
    ),
    (
        DocumentKind::InferenceServer,
        r"AzureML Container Runtime Information|Materiali[sz]ati?on Build:",
        8,
    ),
    // >= 0.8 logging.json format
    (
        DocumentKind::InferenceServer,
        r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} [DIWEC] \[\d+\] (?:azmlinfsrv|gunicorn)",
        5,
    ),
    // 0.4 - 0.7 AMLLogger format
    (
        DocumentKind::InferenceServer,
        r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} \| root \| (?:DEBUG|INFO|WARNING|ERROR|CRITICAL) \|",
        5,
    ),
    (
        DocumentKind::InferenceServer,
        r"^(?:Booting worker with pid|Starting gunicorn \d|Listening at: http|Worker exiting \(pid)",
        2,
    ),
    (
        DocumentKind::InferenceServer,
        r"^(?:Entry Script Name|Model Directory|Worker Count|Server Port):",
        3,
    ),
    (
        DocumentKind::StorageInitializer,
        r"(?i)storage[-_ ]initializer",
        6,
    ),
    (
        DocumentKind::StorageInitializer,
        r"(?i)(?:download(?:ing|ed)?|copying) (?:model|code|artifact|blob)",
        3,
    ),
    (
        DocumentKind::StorageInitializer,
        r"\.blob\.core\.(?:windows\.net|chinacloudapi\.cn|usgovcloudapi\.net)",
        1,
    ),
    (DocumentKind::Cli, r"^(?:ERROR: )?\((?:None|\w+)\) ", 6),
    (DocumentKind::Cli, r"^(?:Code|Message|Target): ", 3),
    (DocumentKind::Cli, r"^\s*Exception Details:\s", 4),
    (
        DocumentKind::Cli,
        r"(?:HttpResponseError|OperationFailed|azure\.core\.exceptions)",
        4,
    ),
    (
        DocumentKind::Cli,
        r#""code": ?"(?:AciDeploymentFailed|BadRequest|UserError|CrashLoopBackOff)"#,
        4,
    ),
    (
        DocumentKind::Cli,
        r"^\s*(?:Check: endpoint|Creating|Uploading)\b.*(?:az ml|online|endpoint|deployment)",
        2,
    ),
    (DocumentKind::Cli, r"^Check: endpoint \S+ exists", 4),
    // SDK v1 (`azureml-core`) deployment output and exceptions.
    (
        DocumentKind::Cli,
        r"WebserviceException|Service deployment polling reached|service creation operation finished|Running\.+\s*$",
        4,
    ),
    (DocumentKind::Cli, r#""provisioning_state": ?"\w+""#, 4),
    (
        DocumentKind::Kubernetes,
        r"^(?:Name|Namespace|Node|Containers|Conditions|Events|QoS Class|Tolerations):",
        3,
    ),
    (
        DocumentKind::Kubernetes,
        r"^\s+(?:Last State|Restart Count|Exit Code|Reason):\s",
        3,
    ),
    (
        DocumentKind::Kubernetes,
        r"^\s*(?:LAST SEEN|TYPE)\s+(?:TYPE|REASON)\s+",
        6,
    ),
    (
        DocumentKind::Kubernetes,
        r"\b(?:kubelet|default-scheduler)\b",
        3,
    ),
    (
        DocumentKind::ImageBuild,
        r"^\d{4}/\d\d/\d\d \d\d:\d\d:\d\d ",
        4,
    ),
    (DocumentKind::ImageBuild, r"^Step \d+/\d+ : [A-Z]+", 8),
    (
        DocumentKind::ImageBuild,
        r"Sending build context to Docker daemon|Successfully built [0-9a-f]+|Executing step ID: acb_step",
        8,
    ),
    (
        DocumentKind::ImageBuild,
        r"^(?:Collecting package metadata|Solving environment|Preparing transaction|Verifying transaction|Executing transaction|Installing pip dependencies):",
        3,
    ),
    // ParallelRunStep system logs (TS|[Name|]LEVEL|PID|…) and the progress overview.
    (
        DocumentKind::Prs,
        r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}\|(?:[\w.]+\|)?(?:DEBUG|INFO|WARNING|ERROR|CRITICAL)\|\d+\|",
        5,
    ),
    (
        DocumentKind::Prs,
        r"mini batch(?:es)?\b|Scheduling finished|The overviewer on |Entry script (?:run|init)\(\) failed for|entry scipt|ParallelRunStep|amlbi_main\.py",
        4,
    ),
];

/// Lines that open a section of a kind, wherever they are in a document: rare and
/// unmistakable, so the scanner can stop at them (they join the rule literals) and let
/// that kind's rules read the rest of a paste that starts as something else.
pub(crate) const SECTION_MARKERS: &[(&str, DocumentKind)] = &[
    (
        "Azure ML Inferencing HTTP server",
        DocumentKind::InferenceServer,
    ),
    (
        "AzureML Container Runtime Information",
        DocumentKind::InferenceServer,
    ),
    ("Container events:", DocumentKind::Kubernetes),
    ("Instance status:", DocumentKind::Kubernetes),
    ("Kind: Pod, Name:", DocumentKind::Kubernetes),
    ("Restart Count:", DocumentKind::Kubernetes),
    ("Exception Details:", DocumentKind::Cli),
    ("ERROR: (", DocumentKind::Cli),
    ("HttpResponseError", DocumentKind::Cli),
    (
        "Sending build context to Docker daemon",
        DocumentKind::ImageBuild,
    ),
    ("Solving environment:", DocumentKind::ImageBuild),
];

/// The minimum score for a kind to win over `generic`.
const THRESHOLD: u32 = 6;

impl Default for Detector {
    fn default() -> Self {
        Detector::new()
    }
}

impl Detector {
    pub(crate) fn new() -> Detector {
        let set = regex::bytes::RegexSetBuilder::new(SIGNALS.iter().map(|(_, p, _)| *p))
            .unicode(false)
            .build()
            .unwrap_or_else(|e| unreachable!("built-in detection patterns: {e}"));
        Detector { set }
    }

    /// The kind of a document whose first bytes are `head`, named `name`.
    #[cfg(test)]
    pub(crate) fn detect(&self, head: &[u8], name: Option<&str>) -> DocumentKind {
        self.detect_sections(head, name).0
    }

    /// The kind of a document, and every kind its sections read as: a paste of `az`
    /// output, pod events and container lines is read by the rules of all three.
    pub(crate) fn detect_sections(
        &self,
        head: &[u8],
        name: Option<&str>,
    ) -> (DocumentKind, crate::evidence::KindSet) {
        let mut scores = [0u32; DocumentKind::ALL.len()];
        for (n, line) in head.split(|b| *b == b'\n').take(HEAD_LINES).enumerate() {
            if n == DECIDED_LINES && scores.iter().any(|s| *s >= THRESHOLD) {
                break;
            }
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            if line.len() > 4096 {
                continue;
            }
            // A pasted line is judged without its quote marks, CI prefixes and escapes.
            let mut score = |line: &[u8]| {
                for i in self.set.matches(line).iter() {
                    let (kind, _, weight) = SIGNALS[i];
                    scores[kind as usize] = scores[kind as usize].saturating_add(weight);
                }
            };
            match crate::evidence::normalize::normalize(line) {
                None => score(line),
                Some(n) => n.lines().for_each(|(a, b)| score(&n.text[a..b])),
            }
        }
        if let Some(name) = name {
            let lower = name.to_ascii_lowercase();
            let hint =
                if lower.contains("storage-initializer") || lower.contains("storage_initializer") {
                    Some(DocumentKind::StorageInitializer)
                } else if lower.contains("build.log")
                    || lower.contains("rawtext")
                    || lower.contains("image-build")
                {
                    Some(DocumentKind::ImageBuild)
                } else if lower.contains("describe")
                    || lower.contains("kubectl")
                    || lower.contains("events")
                {
                    Some(DocumentKind::Kubernetes)
                } else if lower.contains("inference-server") {
                    Some(DocumentKind::InferenceServer)
                } else {
                    None
                };
            if let Some(k) = hint {
                scores[k as usize] = scores[k as usize].saturating_add(THRESHOLD);
            }
        }
        let (best, score) = DocumentKind::ALL
            .iter()
            .map(|k| (*k, scores[*k as usize]))
            .filter(|(k, _)| *k != DocumentKind::Generic)
            .max_by_key(|(_, s)| *s)
            .unwrap_or((DocumentKind::Generic, 0));
        if score < THRESHOLD {
            return (DocumentKind::Generic, DocumentKind::Generic.into());
        }
        let sections = DocumentKind::ALL
            .into_iter()
            .filter(|k| *k != DocumentKind::Generic && scores[*k as usize] >= THRESHOLD)
            .fold(
                crate::evidence::KindSet::from(best),
                crate::evidence::KindSet::with,
            );
        (best, sections)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn detect(text: &str) -> DocumentKind {
        Detector::new().detect(text.as_bytes(), None)
    }

    #[test]
    fn inference_server_generations() {
        assert_eq!(
            detect(
                "2021-03-08T12:58:38,303655500+00:00 - iot-server/run\n2021-03-08T12:58:38,307228600+00:00 - gunicorn/run\n"
            ),
            DocumentKind::InferenceServer
        );
        assert_eq!(
            detect(
                "2024-10-10 11:06:23,408 I [12] gunicorn.error - Starting gunicorn 22.0.0\n2024-10-10 11:06:23,414 I [152] gunicorn.error - Booting worker with pid: 152\n"
            ),
            DocumentKind::InferenceServer
        );
        assert_eq!(
            detect("\nAzure ML Inferencing HTTP server v0.4.13\n\nServer Settings\n"),
            DocumentKind::InferenceServer
        );
        assert_eq!(
            detect(
                "2021-07-15 03:49:12,123 | root | INFO | Users's init has completed successfully\n2021-07-15 03:49:12,124 | root | INFO | 200\n"
            ),
            DocumentKind::InferenceServer
        );
    }

    #[test]
    fn cli_kubernetes_build() {
        assert_eq!(
            detect(
                "ERROR: (None) ResourceNotReady: User container has crashed or terminated.\nCode: None\nMessage: ResourceNotReady: x\n"
            ),
            DocumentKind::Cli
        );
        assert_eq!(
            detect(
                "Name:         blue-7d9f\nNamespace:    azureml\nContainers:\n  inference-server:\n    Last State:     Terminated\n      Reason:       OOMKilled\n      Exit Code:    137\n"
            ),
            DocumentKind::Kubernetes
        );
        assert_eq!(
            detect(
                "2020/05/24 04:28:30 Downloading source code...\nStep 1/15 : FROM mcr.microsoft.com/azureml/base\n"
            ),
            DocumentKind::ImageBuild
        );
    }

    #[test]
    fn binary_heads() {
        assert_eq!(
            unreadable_text(b"PK\x03\x04\x00\x00"),
            Some("binary file (contains NUL bytes)")
        );
        assert_eq!(unreadable_text("plain text é".as_bytes()), None);
    }

    #[test]
    fn generic_when_nothing_fits_and_names_break_ties() {
        assert_eq!(detect("hello\nworld\n"), DocumentKind::Generic);
        assert_eq!(detect(""), DocumentKind::Generic);
        let d = Detector::new();
        assert_eq!(
            d.detect(
                b"some download text\n",
                Some("logs/storage-initializer.log")
            ),
            DocumentKind::StorageInitializer
        );
    }
}
