//! Cause categories for what no rule knows: a failure's message (the service's, or the
//! last exception line) read for the words that say what kind of problem it is — a
//! quota, a permission, a name that does not resolve — so even an unknown failure gets
//! a finding that points the right way. Each category is a computed catalogue rule
//! (`rules/general/cause-*.yaml`) with its own fix and next commands.

/// The categories in the order they are tried (the more specific first), each with
/// the lowercase words that place a message in it.
pub(crate) const CATEGORIES: &[(&str, &[&str])] = &[
    (
        "cause-quota",
        &[
            "quota",
            "limit exceeded",
            "exceeds the limit",
            "exceeded the limit",
            "usage limit",
            "is too large",
            "larger than the max",
            "exceeds the maximum",
            "over the size limit",
            "maximum allowed",
        ],
    ),
    (
        "cause-throttling",
        &[
            "429",
            "too many request",
            "throttl",
            "rate limit",
            "server busy",
            "service unavailable",
            "503",
        ],
    ),
    (
        "cause-authentication",
        &[
            "401",
            "unauthorized",
            "authentication failed",
            "token expired",
            "token is expired",
            "invalid token",
            "aadsts",
            "credentialunavailable",
            "no credential",
            "failed to authenticate",
            "authentication error",
            "authentication required",
            "authentication unavailable",
            "interactive authentication",
            "failed to retrieve a token",
            "retrieve user token",
            "please run 'az login'",
            "az login",
            "token denied",
            "token was denied",
            "noauthenticationinformation",
        ],
    ),
    (
        "cause-authorization",
        &[
            "403",
            "forbidden",
            "authorizationfailed",
            "does not have authorization",
            "not authorized",
            "permission denied to",
            "insufficient permissions",
            "role assignment",
        ],
    ),
    (
        "cause-dns",
        &[
            "name or service not known",
            "could not resolve",
            "getaddrinfo",
            "name resolution",
            "nodename nor servname",
            "nxdomain",
            "no such host",
        ],
    ),
    (
        "cause-tls",
        &[
            "certificate verify failed",
            "ssl",
            "tls handshake",
            "x509",
            "certificate has expired",
            "self signed certificate",
        ],
    ),
    (
        "cause-timeout",
        &["timed out", "timeout", "deadline exceeded", "took too long"],
    ),
    (
        "cause-storage",
        &[
            "blob",
            "storage account",
            "datastore",
            "authorizationpermissionmismatch",
            "containernotfound",
        ],
    ),
    (
        "cause-model-loading",
        &[
            "unpickl",
            "pickle",
            "joblib.load",
            "load_model",
            "model file",
            "failed to load model",
        ],
    ),
    (
        "cause-dependency",
        &[
            "no module named",
            "modulenotfounderror",
            "importerror",
            "cannot import name",
            "resolutionimpossible",
            "could not find a version",
            "pip install",
            "conda env",
            "solving environment",
            "packagesnotfound",
        ],
    ),
    (
        "cause-container-runtime",
        &[
            "docker daemon",
            "cannot connect to the docker",
            "oci runtime",
            "failed to mount",
            "mount failed",
            "docker: error",
            "docker engine",
            "docker daemon is not running",
            "could not select device driver",
            "nvidia-container",
            "environment preparation failed",
            "exec format error",
        ],
    ),
    (
        "cause-sdk-version",
        &[
            "unexpected keyword argument",
            "has no attribute",
            "api version",
            "api-version",
            "not supported in this version",
            "takes no keyword",
            "is misspelled or not recognized",
            "not recognized by the system",
            "unknown field",
            "unrecognized arguments",
            "unexpected argument",
        ],
    ),
    (
        "cause-image-build",
        &[
            "image build",
            "build failed",
            "dockerfile",
            "failed to build",
            "imagebuildfailure",
        ],
    ),
    (
        "cause-capacity",
        &[
            "out of memory",
            "outofmemory",
            "oomkilled",
            "insufficient cpu",
            "insufficient memory",
            "insufficient nvidia",
            "unschedulable",
            "no nodes available",
            "not enough capacity",
            "capacity",
            "memoryerror",
            "pre-empt",
            "preempt",
            "low priority nodes",
        ],
    ),
    (
        "cause-network",
        &[
            "connection refused",
            "connection reset",
            "network is unreachable",
            "firewall",
            "private endpoint",
            "private link",
            "privatelink",
            "virtual network",
            "public network access",
            "network security group",
            "connecterror",
            "max retries exceeded",
        ],
    ),
    (
        "cause-not-found",
        &[
            "not found",
            "no such file",
            "does not exist",
            "cannot find",
            "could not find",
            "404",
            "notfound",
        ],
    ),
];

/// The category rule of `text`, if its words place it in one.
pub(crate) fn classify(text: &str) -> Option<&'static str> {
    let lower = text.to_ascii_lowercase();
    CATEGORIES
        .iter()
        .find(|(_, words)| words.iter().any(|w| has_word(&lower, w)))
        .map(|(id, _)| *id)
}

/// Whether `text` holds `word`; a status code (`429`) only as a number of its own, not
/// inside a longer one (a request id, a port).
fn has_word(text: &str, word: &str) -> bool {
    if !word.bytes().all(|b| b.is_ascii_digit()) {
        return text.contains(word);
    }
    text.match_indices(word).any(|(at, w)| {
        let before = text[..at].bytes().last();
        let after = text[at + w.len()..].bytes().next();
        !before.is_some_and(|b| b.is_ascii_alphanumeric())
            && !after.is_some_and(|b| b.is_ascii_alphanumeric())
    })
}

/// The category of an exception no word list places, raised by the user's own code.
pub(crate) const USER_SCRIPT: &str = "cause-user-script";

/// Python's own exceptions: raised by a script's logic, not by a service or a package
/// that says what is wrong. Not `RuntimeError`: libraries raise it for their own
/// failures (torch's CUDA errors), which are not the script's.
const PLAIN_EXCEPTIONS: &[&str] = &[
    "KeyError",
    "ValueError",
    "TypeError",
    "IndexError",
    "AttributeError",
    "NameError",
    "UnboundLocalError",
    "ZeroDivisionError",
    "AssertionError",
    "NotImplementedError",
    "SyntaxError",
    "IndentationError",
    "JSONDecodeError",
    "UnicodeDecodeError",
    "RecursionError",
    "Exception",
];

/// Whether `last` (the failing line) is a plain Python exception that the user's code
/// raised: a frame of the traceback in `lines` is in a file no installed package holds
/// (`score.py`, `/var/azureml-app/…`, the job's code), or the line itself names the
/// scoring or entry script's functions.
pub(crate) fn user_script<'a>(last: &str, lines: impl IntoIterator<Item = &'a str>) -> bool {
    let exception = last
        .trim_start()
        .split([':', '(', ' '])
        .next()
        .unwrap_or("");
    let exception = exception.rsplit('.').next().unwrap_or(exception);
    if !PLAIN_EXCEPTIONS.contains(&exception) {
        return false;
    }
    let lower = last.to_ascii_lowercase();
    let names_script = [
        "score.py",
        "entry script",
        "run()",
        "init()",
        "in run",
        "in init",
    ]
    .iter()
    .any(|w| lower.contains(w));
    names_script || lines.into_iter().any(user_frame)
}

/// A traceback frame (`File "/var/azureml-app/score.py", line 12, in run`) in a file
/// of the user's, not of the Python runtime or an installed package.
fn user_frame(line: &str) -> bool {
    let Some((_, rest)) = line.split_once("File \"") else {
        return false;
    };
    let path = rest.split('"').next().unwrap_or("");
    let installed = [
        "site-packages",
        "dist-packages",
        "/lib/python",
        "<frozen",
        "<string>",
    ];
    let python = std::path::Path::new(path)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("py"));
    python && !installed.iter().any(|p| path.contains(p))
}

/// Every category rule id, for the analyser that reports them.
pub(crate) fn rule_ids() -> Vec<&'static str> {
    let mut ids: Vec<&str> = CATEGORIES.iter().map(|(id, _)| *id).collect();
    ids.push(USER_SCRIPT);
    ids
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_fall_in_the_category_their_words_name() {
        let cases = [
            (
                "Not enough quota available for Standard_NC6 in westeurope",
                "cause-quota",
            ),
            (
                "The client 'x' does not have authorization to perform action 'read'",
                "cause-authorization",
            ),
            (
                "AADSTS700024: Client assertion is not within its valid time range",
                "cause-authentication",
            ),
            ("getaddrinfo failed: Name or service not known", "cause-dns"),
            (
                "SSLError: certificate verify failed: self signed certificate in chain",
                "cause-tls",
            ),
            (
                "ModuleNotFoundError: No module named 'xgboost'",
                "cause-dependency",
            ),
            (
                "TypeError: __init__() got an unexpected keyword argument 'instance_count'",
                "cause-sdk-version",
            ),
            (
                "The blob logs/x.txt could not be read from the storage account",
                "cause-storage",
            ),
            (
                "0/3 nodes are available: 3 Insufficient nvidia.com/gpu",
                "cause-capacity",
            ),
            (
                "Environment azureml:env:3 does not exist in the workspace",
                "cause-not-found",
            ),
            (
                "HTTPSConnectionPool: Max retries exceeded (Connection refused)",
                "cause-network",
            ),
        ];
        for (text, want) in cases {
            assert_eq!(classify(text), Some(want), "{text}");
        }
        assert_eq!(
            classify("ValueError: shapes (1,3) and (4,) not aligned"),
            None
        );
        // An exception the scoring script raised is the user's, by its frames.
        let frames = [
            "Traceback (most recent call last):",
            "  File \"/var/azureml-app/score.py\", line 41, in run",
            "  File \"/opt/miniconda/lib/python3.8/site-packages/pandas/core/frame.py\", line 3458",
        ];
        assert!(user_script("KeyError: 'age'", frames));
        assert!(!user_script("KeyError: 'age'", frames[2..].iter().copied()));
        assert!(user_script("ValueError: could not convert in run()", []));
        assert!(!user_script("AzureMLException: the service failed", frames));
        // A status code inside an id or a port is not one.
        assert_eq!(classify("request 4291a7 ended; port 15030 in use"), None);
        assert_eq!(classify("the amount of data was wrong"), None);
    }
}
