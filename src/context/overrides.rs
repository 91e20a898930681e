//! The `AMLDOCTOR_*` variables that change how a run works rather than where: a fixed
//! clock for reproducible runs, and the endpoints, timeouts and resolver that tests
//! (and unusual networks) put in place of Azure's. Read once, with the rest of the
//! context, so no command or source reads the environment itself.

use crate::source::Environment;

/// The overrides in effect; each `None` means the built-in behaviour.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Overrides {
    /// `AMLDOCTOR_NOW` (RFC 3339): "now" for "stuck for how long".
    pub now: Option<String>,
    /// `AMLDOCTOR_TODAY` (`YYYY-MM-DD`): "today" for suppression expiry.
    pub today: Option<String>,
    /// `AMLDOCTOR_ARM_ENDPOINT`: the Resource Manager URL.
    pub arm_endpoint: Option<String>,
    /// `AMLDOCTOR_LOG_ANALYTICS_ENDPOINT`: the Log Analytics query URL.
    pub log_analytics_endpoint: Option<String>,
    /// `AMLDOCTOR_OPERATION_TIMEOUT` (seconds): how long a long-running operation may take.
    pub operation_timeout: Option<u64>,
    /// `AMLDOCTOR_HTTP_TIMEOUT` (seconds): one request.
    pub http_timeout: Option<u64>,
    /// `AMLDOCTOR_RETRY_BUDGET` (seconds): retries of one request, all told.
    pub retry_budget: Option<u64>,
    /// `AMLDOCTOR_SYSTEM_RESOLVER` (`IP[:PORT]`): the server asked in place of the
    /// system resolver.
    pub system_resolver: Option<String>,
}

impl Overrides {
    pub fn read(env: &Environment) -> Overrides {
        let text = |name: &str| env.var(name).map(str::to_owned);
        // A value that is not a number is ignored, as it always was.
        let seconds = |name: &str| env.var(name).and_then(|v| v.trim().parse::<u64>().ok());
        Overrides {
            now: text("AMLDOCTOR_NOW"),
            today: text("AMLDOCTOR_TODAY"),
            arm_endpoint: text("AMLDOCTOR_ARM_ENDPOINT"),
            log_analytics_endpoint: text("AMLDOCTOR_LOG_ANALYTICS_ENDPOINT"),
            operation_timeout: seconds("AMLDOCTOR_OPERATION_TIMEOUT"),
            http_timeout: seconds("AMLDOCTOR_HTTP_TIMEOUT"),
            retry_budget: seconds("AMLDOCTOR_RETRY_BUDGET"),
            system_resolver: text("AMLDOCTOR_SYSTEM_RESOLVER"),
        }
    }
}
