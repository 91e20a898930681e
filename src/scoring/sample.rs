//! One answer of the scoring probe, as the caller saw it: plain data the probe fills
//! and the summary and findings read.

use std::time::Duration;

/// How a request ended.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Outcome {
    /// The endpoint answered with this status.
    Status(u16),
    /// No answer within `--timeout`.
    Timeout,
    /// The connection was closed or reset before a whole answer came.
    Reset,
    /// No connection: refused, unreachable, or a name that does not resolve.
    Connect,
    /// The TLS handshake failed (a certificate the client does not trust).
    Tls,
}

impl Outcome {
    /// `200`, `timeout`, `reset`, `connect`, `tls`: how reports name it.
    pub(crate) fn label(&self) -> String {
        match self {
            Outcome::Status(s) => s.to_string(),
            Outcome::Timeout => "timeout".to_owned(),
            Outcome::Reset => "reset".to_owned(),
            Outcome::Connect => "connect".to_owned(),
            Outcome::Tls => "tls".to_owned(),
        }
    }

    pub(crate) fn is_success(&self) -> bool {
        matches!(self, Outcome::Status(s) if (200..300).contains(s))
    }

    pub(crate) fn status(&self) -> Option<u16> {
        match self {
            Outcome::Status(s) => Some(*s),
            _ => None,
        }
    }
}

/// The response headers that say why (or who answered).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Headers {
    /// `x-request-id`: the service's id of the request, for a support ticket.
    pub request_id: Option<String>,
    /// `ms-azureml-model-error-statuscode`: the status the scoring container returned
    /// behind a 424.
    pub model_error_status: Option<String>,
    /// `ms-azureml-model-error-reason`.
    pub model_error_reason: Option<String>,
    /// `ms-azureml-bandwidth-request-delay-ms` / `-response-delay-ms`.
    pub bandwidth_request_delay_ms: Option<u64>,
    pub bandwidth_response_delay_ms: Option<u64>,
    /// `Retry-After`, as sent.
    pub retry_after: Option<String>,
    /// `azureml-model-deployment`: the deployment that served the request.
    pub deployment: Option<String>,
    /// `Location` of a redirect, without its query.
    pub location: Option<String>,
}

/// One request and its answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Sample {
    /// 0-based, in the order the requests were started.
    pub index: u64,
    /// The `x-ms-client-request-id` sent.
    pub client_request_id: String,
    pub outcome: Outcome,
    /// From sending the request to the end of the answer (or of the wait).
    pub latency: Duration,
    pub bytes_sent: u64,
    pub bytes_received: u64,
    pub headers: Headers,
    /// The start of the answer's body, cleaned of secrets and control characters.
    pub body_start: String,
    /// For a request without an answer, what the client said.
    pub error: Option<String>,
}
