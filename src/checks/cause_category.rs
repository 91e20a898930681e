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
        ],
    ),
    (
        "cause-throttling",
        &[
            "429",
            "too many requests",
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

/// Every category rule id, for the analyser that reports them.
pub(crate) fn rule_ids() -> Vec<&'static str> {
    CATEGORIES.iter().map(|(id, _)| *id).collect()
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
        // A status code inside an id or a port is not one.
        assert_eq!(classify("request 4291a7 ended; port 15030 in use"), None);
        assert_eq!(classify("the amount of data was wrong"), None);
    }
}
