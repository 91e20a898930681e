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
            "exceeds limitation",
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
            "quota reached",
            "limit reached",
            "too many parameters",
            "cannot exceed",
            "would exceed",
            "limit increase",
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
            "failed to authenticate",
            "registry credential",
            "could not retrieve user token",
            "invalid client secret",
            "managedidentitycredential",
            // `AzureDeveloperCliCredential: …`: azure-identity names the credential that failed.
            "credential:",
            "token request",
            "connect to msi",
            "identity is not assigned",
            "identity not set",
            "identity of * is not assigned",
            "credentials have expired",
            "refresh access token",
            "authenticationexception",
            "shared key credential",
            "account_key",
        ],
    ),
    (
        "cause-authorization",
        &[
            "403",
            "authorizationfailed",
            "does not have authorization",
            "not authorized",
            "permission denied to",
            "insufficient permissions",
            "role assignment",
            "forbidden",
            "* role to",
            "grant * role",
            "not allowed to access",
            "contributor role",
            "data contributor",
            "data reader",
            "does not have permission",
            "do not have permission",
            "permission to perform",
            "not permitted",
            "authorization failure",
            "permission mismatch",
            "listsecrets",
            "access denied",
            "rbac",
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
            // Node's codes come after `getaddrinfo` (`getaddrinfo ENOTFOUND host`): alone,
            // `enotfound` is inside `ResourceNotFoundError`.
            "temporary failure in name resolution",
        ],
    ),
    (
        "cause-tls",
        &[
            "certificate verification failed",
            "invalid certificate",
            "certificate verify failed",
            "ssl",
            "tls handshake",
            "handshake",
            "x509",
            "certificate has expired",
            "self signed certificate",
        ],
    ),
    (
        "cause-timeout",
        &[
            "timed out",
            "timeout",
            "deadline exceeded",
            "took too long",
            "within * seconds",
            "within * minutes",
            "read timed out",
            "readtimeout",
            "operation timed out",
            "ran longer than",
            "504",
            "gateway timeout",
        ],
    ),
    (
        "cause-storage",
        &[
            "blob",
            "storage account",
            "datastore",
            "authorizationpermissionmismatch",
            "containernotfound",
            "mount storage",
            "storage mount",
            "mount dataset",
            "dataset failed",
            "dataset initialization",
            "dataset mount",
            "mount the dataset",
            "cannot mount",
            "streamerror",
            "stream error",
            "input data sources",
            "fetching data from dataset",
            "mltable",
            "file share",
            "fileshare",
            "storage service",
            "adls",
            "data lake",
            "dprep",
            "dataprep",
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
            "model path",
            "model_path",
            "azureml_model_dir",
            "model directory",
            "azureml-models",
            "load model",
        ],
    ),
    (
        "cause-dependency",
        &[
            "no module named",
            "modulenotfounderror",
            "module not found",
            "importerror",
            "cannot import name",
            "resolutionimpossible",
            "could not find a version",
            "pip install",
            "conda env",
            "solving environment",
            "packagesnotfound",
            "failed building wheel",
            "building wheel",
            "could not build wheels",
            "command errored out",
            "subprocess-exited-with-error",
            "no matching distribution",
            "conflicting dependencies",
            "binary incompatibility",
            "dtype size changed",
            "pip subprocess",
            "condaerror",
            "libfuse",
            "while importing modules",
            "installing package",
            "error occurred while installing",
            "has been installed",
            "is installed",
            "ignoring invalid distribution",
            "not installed",
            "to install",
            "package conflict",
        ],
    ),
    (
        "cause-container-runtime",
        &[
            "docker daemon",
            "cannot connect to the docker",
            "oci runtime",
            "mount failed",
            "docker: error",
            "docker engine",
            "docker daemon is not running",
            "could not select device driver",
            "nvidia-container",
            "environment preparation failed",
            "exec format error",
            "failed starting container",
            "unable to start docker container",
            "starting container",
            "start container",
            "start the container",
            "invalid volume specification",
            "container exited",
            "execution-wrapper",
            "docker run",
            "container failed to start",
            "local endpoint",
            // `Please make sure Docker Engine is installed and running`: a daemon that is not.
            "installed and running",
            "docker image pull has failed",
            "docker container create has failed",
        ],
    ),
    (
        "cause-sdk-version",
        &[
            "unexpected keyword argument",
            // A JavaScript TypeError: in Azure ML that is the VS Code extension's (or
            // studio's) own code failing, fixed by another release of it.
            "cannot read properties of undefined",
            "cannot read properties of null",
            "unable to deserialize",
            "deserializationerror",
            "serializationerror",
            "is not available in api version",
            "or newer to your client",
            "no longer supported",
            "does not have operation",
            "cannot deserialize",
            "failed to deserialize response",
            "is not in the 'az' command group",
            "not supported in this version",
            "takes no keyword",
            "is misspelled or not recognized",
            "not recognized by the system",
            "unknown field",
            "unrecognized arguments",
            "the following arguments are required",
            "unexpected argument",
            "has no attribute",
            "unsupported api version",
            "api-version * is not supported",
            "api version * is not supported",
            "invalid api version",
            "schema failed",
            "upgrade the",
            "newer version",
            "older version",
            "version mismatch",
            "supported api-versions",
            "supported api versions",
            "_schema",
        ],
    ),
    (
        "cause-invalid-input",
        &[
            "validation error",
            "validationerror",
            "validation failed",
            "failed validation",
            "validationexception",
            "validator",
            "is not valid",
            "not a valid",
            "invalid value",
            "unknown * type",
            "unsupported * type",
            "invalid input",
            "invalid argument",
            "invalid parameter",
            "invalid type",
            "badargument",
            "bad argument",
            // `400 Bad Request` with nothing more: the request was refused as sent.
            "bad request",
            "must be one of",
            "must be of type",
            "must provide",
            "must be provided",
            "should be provided",
            "is required",
            "are required",
            "required parameter",
            "missing required",
            "expected type",
            "not supported as input",
            "unsupported value",
            "must be unique",
            "needs to be unique",
            "already exists",
            // A name someone else holds: `… name 'x' is not available. Please select a
            // different name.`
            "select a different name",
            "choose a different name",
            "need to specify",
            "must specify",
            "is not supported. supported",
            "notimplementederror",
            // How validation states what it expected (harvested from the clients).
            "must be a ",
            "must be an ",
            "must be specified",
            "must be set",
            "must not be",
            "should be a ",
            "should be an ",
            "should be of",
            "should be specified",
            "please specify",
            "please provide",
            "cannot be empty",
            "can not be empty",
            "cannot be none",
            "cannot be used with",
            "can only be",
            "invalid configuration",
            "is not supported for",
            "must be greater than",
            "must be less than",
            "must be between",
            "should be greater than",
            "expected one of",
            "is not allowed",
            "are not allowed",
            "mutually exclusive",
            "needs to be specified",
            "is not a valid",
            "only one of",
            // A YAML file that does not parse is the user's input too.
            "is not supported",
            "does not support",
            "does not match",
            "not both",
            "please do not",
            "do not provide",
            "is not provided",
            "not provided",
            "invalid payload",
            "invalid resource_id",
            "is only supported",
            "can only specify",
            "are immutable",
            "is immutable",
            "parsererror",
            "composererror",
            "constructorerror",
            "scannererror",
            "emittererror",
            // A refusal stated without its reason: the weakest words of this list.
            "invalid ",
            "must be",
            "must have",
            "must contain",
            "cannot be",
            "can not be",
            "should be",
            "needs to be",
            "payload missing",
            "please use",
            "unsupported",
            "already exist",
            "required field",
            "missing argument",
            "is not applicable",
            "not applicable for",
            "is not recognized",
            "is invalid",
            "out of range",
            "only supports",
            "is not part of",
            "exactly one",
            "can not specify",
            "cannot specify",
            "not supported",
            "not one of",
            "expected a dict",
            "expected a list",
            "could not be parsed",
            "cannot provide both",
            "duplicate",
            "only primitive types",
            "accept only",
            "expected an ",
            "may not be null",
            "missing data for required field",
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
            "image build failed",
            "environment build",
            "building image",
            "build image",
            "acr build",
            "failed to pull base image",
            "base image",
            "build fails",
            "the command '/bin/sh -c",
            // The Azure Container Registry task that builds the image: `failed to run step
            // ID: acb_step_0: exit status 1`.
            "acb_step",
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
            "resource insufficient",
            "exceeded the node size",
            "node size",
            "resource limitation",
        ],
    ),
    (
        "cause-conflict",
        // Not `409`: a name already taken is a conflict too, and is the input's to change.
        &[
            "another operation",
            "operation in progress",
            "operation is in progress",
            "already in progress",
            "in updating provisioning state",
            "in creating provisioning state",
            "in deleting provisioning state",
            "in scaling provisioning state",
            "is being updated",
            "is being deleted",
            "scope locked",
            "resource is locked",
            "precondition failed",
            "412",
            "etag",
            "conflict with",
            "resource conflict",
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
            "network security",
            "nsg",
            "outbound",
            "service tag",
            "port 443",
            "port 445",
            "ports 443",
            "vnet",
            "public access",
            "connection aborted",
            "connection timed out",
            "econnreset",
            "econnrefused",
            "connection error",
            "stream interrupted",
        ],
    ),
    (
        "cause-not-found",
        &[
            "not found",
            "no such file",
            "does not exist",
            "doesn't exist",
            "do not exist",
            "don't exist",
            "cannot find",
            "could not find",
            // `Unknown compute target 'gpu-cluster'`: no compute of that name is there.
            "unknown compute target",
            "could not be found",
            "is missing",
            "cannot be found",
            "can not be found",
            "404",
            "no plugin found",
            "none found",
            "found none",
            "not present in",
            "is not present",
        ],
    ),
    (
        USER_SCRIPT,
        &[
            "'nonetype' object",
            "'nonetype' object has no attribute",
            "object is not subscriptable",
            "object is not callable",
            "object is not iterable",
            "unsupported operand type",
            "referenced before assignment",
            // A job's summary of the user's own process ending badly.
            "submitted script failed",
            // A function of the user's called with other arguments than it takes.
            "required positional argument",
            "positional arguments but",
            // The CLI's own check of a scoring script before it submits a deployment.
            "syntax errors in scoring script",
            "syntaxerror: invalid syntax",
            // Prompt flow's wording of an exception the flow's own code raised.
            "script execution error",
            "execution failure in",
        ],
    ),
];

/// The category rule of `text`, if its words place it in one.
pub(crate) fn classify(text: &str) -> Option<&'static str> {
    rank(text, std::iter::empty())
}

/// The category of a failure: `decisive` (the service's code and message, or the line
/// that ended the input) and the `context` lines around it. Each word a category holds
/// scores one per line it is on, twice on the decisive line; the highest score wins, a
/// tie goes to the category tried first. A message often says two things ("the
/// identity failed to authenticate to the storage account; grant it a role"): counting
/// every word picks what the message is mostly about, not the first word met.
pub(crate) fn rank<'a>(
    decisive: &str,
    context: impl IntoIterator<Item = &'a str>,
) -> Option<&'static str> {
    let mut scores = [0usize; CATEGORIES.len()];
    let mut ruled_out = [false; RULED_OUT.len()];
    let mut rule_out = |text: &str| {
        for (out, (says, _)) in ruled_out.iter_mut().zip(RULED_OUT) {
            *out |= says(text);
        }
    };
    rule_out(decisive);
    let mut add = |text: &str, weight: usize| {
        let words = words_of(text);
        for (score, (_, list)) in scores.iter_mut().zip(CATEGORIES) {
            *score += weight * list.iter().filter(|w| has_word(&words, w)).count();
        }
    };
    add(decisive, 2);
    for line in context.into_iter().filter(|l| !klog_notice(l)) {
        rule_out(line);
        add(line, 1);
    }
    for ((_, category), _) in RULED_OUT.iter().zip(ruled_out).filter(|(_, out)| *out) {
        for (score, (id, _)) in scores.iter_mut().zip(CATEGORIES) {
            if id == category {
                *score = 0;
            }
        }
    }
    // A message that says why (a quota, a missing asset) is placed by that; "invalid" or
    // "required" says only that something was refused.
    let best_of = |shapes: bool| {
        let scored = || {
            CATEGORIES
                .iter()
                .zip(scores)
                .filter(move |((id, _), _)| SHAPES_ONLY.contains(id) == shapes)
        };
        let best = scored().map(|(_, s)| s).max().filter(|s| *s > 0)?;
        scored().find(|(_, s)| *s == best).map(|((id, _), _)| *id)
    };
    best_of(false).or_else(|| best_of(true))
}

/// Whether a line says something.
type LineTest = fn(&str) -> bool;

/// Lines that rule a category out whatever its words, with the category they rule out.
/// Each also has a scan literal (`rules::ERROR_LITERALS`), so the line reaches here.
const RULED_OUT: &[(LineTest, &str)] = &[
    // R's reticulate reports a Python exception as `Error in py_call_impl(…)`: it was
    // raised inside the Python package R called (the R SDK's), not by a script of the
    // user's, who wrote R.
    (|l| l.contains("py_call_impl("), USER_SCRIPT),
    // A schema check that refuses values too (a null, a missing required field) says the
    // file itself is wrong: its unknown fields are more of the same, not a CLI too old
    // for them (marshmallow's wording, as `az ml` and azure-ai-ml print it).
    (
        |l| l.contains("Field may not be null") || l.contains("Missing data for required field"),
        "cause-sdk-version",
    ),
];

/// A Kubernetes component's info or warning record (klog's `I0325 22:26:29.423643 …`,
/// `W0325 …`): client-go's "Throttling request took 1.02s" and the like are its routine
/// notices, not the failure's context.
fn klog_notice(line: &str) -> bool {
    let b = line.trim_start().as_bytes();
    b.len() > 6
        && matches!(b[0], b'I' | b'W')
        && b[1..5].iter().all(u8::is_ascii_digit)
        && b[5] == b' '
}

/// The line among `lines` whose words put a failure in category `id`: the first holding
/// the most of them (the quote a category's fix shows, since the line that ended the
/// paste may only say that something failed).
pub(crate) fn deciding_line<'a>(
    id: &str,
    lines: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let (_, list) = CATEGORIES.iter().find(|(c, _)| *c == id)?;
    let mut best: Option<(usize, &str)> = None;
    // A frame names a file (`ssl.py`, `…/handshake.py`), not what went wrong.
    for line in lines
        .into_iter()
        .filter(|l| !l.trim_start().starts_with("File \""))
    {
        let words = words_of(line);
        let n = list.iter().filter(|w| has_word(&words, w)).count();
        if n > 0 && best.is_none_or(|(m, _)| n > m) {
            best = Some((n, line));
        }
    }
    best.map(|(_, line)| line)
}

/// Categories that name how a failure was refused rather than why: chosen only when no
/// other category's words are there.
const SHAPES_ONLY: &[&str] = &["cause-invalid-input"];

/// What the service appends to every error, whatever the cause: it says where to read
/// more, not what happened (`The build log is available in the workspace blob store …`
/// is on every deployment error, and reads as a storage problem). A line is read up to
/// the first of them.
const BOILERPLATE: &[&str] = &[
    "the build log is available in the workspace blob store",
    "please see troubleshooting guide",
    "more information can be found",
    "for more details please visit",
    "for more information, see",
];

/// `text` lowercased, with every CamelCase code it holds also spelled as words
/// (`StorageMountError` → `storage mount error`, `ACRTokenExchangeForbidden` → `acr
/// token exchange forbidden`), so a code says what its words say.
fn words_of(text: &str) -> String {
    // A resource id names where the call went (`…/datastores/x`, `…/storageAccounts/y`),
    // not what went wrong: its words do not count. (A documentation link's anchor often
    // names the error, and stays.)
    let kept: Vec<&str> = text
        .split_whitespace()
        .filter(|t| !t.to_ascii_lowercase().contains("/subscriptions/"))
        .collect();
    // Runs of blanks as one: a message with a name left out reads `Dataset  failed`.
    let mut out = kept.join(" ").to_ascii_lowercase();
    for b in BOILERPLATE {
        if let Some(at) = out.find(b) {
            out.truncate(at);
        }
    }
    // azure-core's wording of any status it did not expect (`Operation returned an
    // invalid status 'InternalServerError'`): the status says what happened, not "invalid".
    if out.contains("an invalid status") {
        out = out.replace("an invalid status", "a status");
    }
    let tokens = kept
        .iter()
        .flat_map(|t| t.split(|c: char| !c.is_ascii_alphanumeric()));
    for token in tokens {
        let humps = token
            .as_bytes()
            .windows(2)
            .filter(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase())
            .count();
        if humps == 0 {
            continue;
        }
        out.push(' ');
        let chars: Vec<char> = token.chars().collect();
        for (i, c) in chars.iter().enumerate() {
            let next_lower = chars.get(i + 1).is_some_and(char::is_ascii_lowercase);
            let prev = i.checked_sub(1).map(|j| chars[j]);
            let boundary = c.is_ascii_uppercase()
                && prev.is_some_and(|p| {
                    p.is_ascii_lowercase() || p.is_ascii_uppercase() && next_lower
                });
            if boundary {
                out.push(' ');
            }
            out.push(c.to_ascii_lowercase());
        }
    }
    out
}

/// Whether `text` holds `word`: a status code (`429`) only as a number of its own, not
/// inside a longer one (a request id, a port); `module '*' has no attribute` holds its
/// parts in order.
fn has_word(text: &str, word: &str) -> bool {
    if word.contains('*') {
        let mut rest = text;
        return word.split('*').all(|part| match rest.find(part) {
            Some(at) => {
                rest = &rest[at + part.len()..];
                true
            }
            None => false,
        });
    }
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
    CATEGORIES.iter().map(|(id, _)| *id).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn how_clients_word_validation_places_it_as_invalid_input() {
        for text in [
            "ValueError: launcher.type must be specified in definition of DistributedComponent",
            "UserErrorException: Specify either --all or a run with --run, not both.",
            "ComputeTargetException: Invalid payload, missing [\"properties\"]",
            "ConstructorError: while constructing a mapping",
            "UserErrorException: Value of type Foo is not supported, supported types include [str]",
        ] {
            assert_eq!(classify(text), Some("cause-invalid-input"), "{text}");
        }
        // azure-core's "invalid status" is any unexpected status, not an invalid input.
        assert_eq!(
            classify(
                "HttpResponseError: Operation returned an invalid status 'InternalServerError'"
            ),
            None
        );
        // A more specific category still wins over how the refusal was worded.
        assert_eq!(
            classify("ValueError: API version 2020-01-01 does not have operation 'list_x'"),
            Some("cause-sdk-version")
        );
        assert_eq!(
            classify("WebserviceException: Error: docker image pull has failed: denied"),
            Some("cause-container-runtime")
        );
    }

    #[test]
    fn a_schema_that_refuses_values_too_is_a_wrong_file_not_an_old_cli() {
        for (_, category) in RULED_OUT {
            assert!(rule_ids().contains(category), "{category} is no category");
        }
        let head = "Validation for EnvironmentSchema failed";
        assert_eq!(
            rank(head, ["(x) path:", "- Unknown field."]),
            Some("cause-sdk-version")
        );
        assert_eq!(
            rank(head, ["- Field may not be null.", "- Unknown field."]),
            Some("cause-invalid-input")
        );
    }

    #[test]
    fn a_kubernetes_components_routine_notices_are_not_context() {
        let notice = "I0325 22:26:29.423643       1 request.go:655] Throttling request took 1.02s";
        assert!(klog_notice(notice));
        assert!(!klog_notice("ERROR setup unable to load ingress address"));
        assert_eq!(rank("unable to load ingress address", [notice]), None);
    }

    #[test]
    fn an_exception_an_r_script_got_from_python_is_not_the_users_script() {
        let line = "AttributeError: 'NoneType' object has no attribute 'lower'";
        assert_eq!(classify(line), Some(USER_SCRIPT));
        assert_eq!(
            rank(
                line,
                ["Error in py_call_impl(callable, dots$args, dots$keywords) :"]
            ),
            Some("cause-sdk-version")
        );
    }

    #[test]
    fn wordings_met_in_held_out_pastes_fall_in_their_category() {
        for (text, id) in [
            (
                "Error: getaddrinfo ENOTFOUND ws1.api.azureml.ms",
                "cause-dns",
            ),
            // `ENOTFOUND` inside an exception's name is not a DNS failure.
            (
                "ResourceNotFoundError: (UserError) Could not find asset with ID azureml:rai_gather:0.0.1",
                "cause-not-found",
            ),
            (
                "Message: Unknown compute target 'kubeonprem'.",
                "cause-not-found",
            ),
            ("Unknown compute type 'AmlCompute'", "cause-invalid-input"),
            (
                "failed to run step ID: acb_step_0: exit status 1",
                "cause-image-build",
            ),
            (
                "UserError: Serverless endpoint name 'llama-chat' is not available. Please select a different name.",
                "cause-invalid-input",
            ),
        ] {
            assert_eq!(classify(text), Some(id), "{text}");
        }
    }

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
            // A resource id's words (`datastores`) say where the call went, not why.
            (
                "Max retries exceeded with url: /datastore/v1.0/subscriptions/s/resourceGroups/g/providers/Microsoft.MachineLearningServices/workspaces/w/datastores/blobs (Caused by ResponseError('too many 504 error responses'))",
                "cause-timeout",
            ),
            (
                "ManagedIdentityCredential: token request to the identity endpoint returned 400",
                "cause-authentication",
            ),
            (
                "The managed identity of the cluster extension is not assigned to the node pool",
                "cause-authentication",
            ),
            (
                "CondaError: An error occurred while installing package 'defaults::numpy-1.19'",
                "cause-dependency",
            ),
            (
                "No plugin found for managing model deployments to 'sagemaker'",
                "cause-not-found",
            ),
            (
                "Cannot mount since `azureml-dataprep-fuse` is not installed. To install, run: pip install azureml-dataprep-fuse",
                "cause-dependency",
            ),
            (
                "predict() missing 1 required positional argument: 'data'",
                "cause-user-script",
            ),
            (
                "(AnotherOperationInProgress) An operation on endpoint 'churn' is still running.",
                "cause-conflict",
            ),
            (
                "Azure.RequestFailedException: Cannot update the traffic of endpoint x because it is in Creating provisioning state.",
                "cause-conflict",
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
