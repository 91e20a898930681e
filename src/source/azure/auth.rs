//! Credentials through azure_identity: a service principal from `AZURE_CLIENT_ID` /
//! `AZURE_TENANT_ID` / `AZURE_CLIENT_SECRET`, workload identity
//! (`AZURE_FEDERATED_TOKEN_FILE`, as GitHub Actions OIDC sets it), managed identity, then
//! the developer tools (az CLI, azd). Tokens are cached per scope for the run and never
//! printed, logged or saved.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use azure_core::credentials::{Secret, TokenCredential};
use azure_core::http::policies::{Policy, PolicyResult};
use azure_core::http::{ClientOptions, Context, Request, RetryOptions};

use crate::error::Error;
use crate::source::Environment;

/// `--auth`: which credential to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AuthChoice {
    /// The first that applies: environment, workload identity, managed identity (only
    /// where `IDENTITY_ENDPOINT` says it exists), developer tools.
    #[default]
    Auto,
    Env,
    Workload,
    ManagedIdentity,
    Cli,
}

/// Where and as whom to sign in, resolved before any credential is built.
#[derive(Debug, Clone, Default)]
pub(crate) struct SignIn {
    /// The Entra authority host of the cloud (`https://login.chinacloudapi.cn`), or
    /// `AZURE_AUTHORITY_HOST`: the service-principal and workload-identity credentials
    /// ask it for tokens.
    pub authority: String,
    /// The tenant the az CLI credential asks for (`--tenant`, or the subscription's in
    /// `azureProfile.json`).
    pub tenant: Option<String>,
    /// The subscription, for the az CLI credential when no tenant is known. The caller
    /// gives a GUID only: the credential hands it to a shell.
    pub subscription: Option<String>,
}

/// One way of signing in, ready to ask for tokens.
#[derive(Debug)]
pub(crate) struct Auth {
    credential: Arc<dyn TokenCredential>,
    /// What it is, for messages (`service principal from AZURE_CLIENT_ID`).
    pub describe: String,
    cache: Mutex<HashMap<String, String>>,
    /// One line per token request the credential sent (`--debug`): where and what came
    /// back, never the token.
    traces: Arc<Mutex<Vec<String>>>,
}

/// Records each token request of a credential's pipeline: method, host and path, and
/// the status or the transport's error.
#[derive(Debug)]
struct TraceTokenRequests(Arc<Mutex<Vec<String>>>);

#[async_trait::async_trait]
impl Policy for TraceTokenRequests {
    async fn send(
        &self,
        ctx: &Context,
        request: &mut Request,
        next: &[Arc<dyn Policy>],
    ) -> PolicyResult {
        let url = request.url();
        let shown = format!(
            "token request {} {}://{}{}",
            request.method(),
            url.scheme(),
            url.host_str().unwrap_or_default(),
            url.port().map(|p| format!(":{p}")).unwrap_or_default()
        ) + url.path();
        let result = match next.split_first() {
            Some((first, rest)) => first.send(ctx, request, rest).await,
            None => {
                return Err(azure_core::Error::with_message(
                    azure_core::error::ErrorKind::Other,
                    "no transport",
                ));
            }
        };
        let outcome = match &result {
            Ok(r) => format!("{}", u16::from(r.status())),
            Err(e) => crate::redact::redact(&first_line(&e.to_string())).into_owned(),
        };
        if let Ok(mut t) = self.0.lock() {
            t.push(format!("{shown}: {outcome}"));
        }
        result
    }
}

/// A credential pipeline's options: its requests traced, sent to `authority` when
/// given (a credential built without a cloud signs in at the public cloud's); with
/// `retry` false, a refused connection fails at once instead of being retried for a
/// minute.
fn client_options(
    traces: &Arc<Mutex<Vec<String>>>,
    retry: bool,
    authority: Option<&str>,
) -> ClientOptions {
    let mut o = ClientOptions {
        per_try_policies: vec![Arc::new(TraceTokenRequests(traces.clone()))],
        ..ClientOptions::default()
    };
    if let Some(host) = authority.filter(|h| !h.is_empty()) {
        let mut custom = azure_core::cloud::CustomConfiguration::default();
        custom.authority_host = host.to_owned();
        o.cloud = Some(Arc::new(custom.into()));
    }
    if !retry {
        o.retry = RetryOptions::none();
    }
    o
}

impl Auth {
    /// Picks the credential `choice` names. An error lists what was tried and how to
    /// fix each.
    pub(crate) fn new(choice: AuthChoice, env: &Environment, at: &SignIn) -> Result<Auth, Error> {
        let has = |k: &str| env.var(k).is_some();
        let sp = has("AZURE_CLIENT_ID") && has("AZURE_TENANT_ID") && has("AZURE_CLIENT_SECRET");
        let workload = has("AZURE_FEDERATED_TOKEN_FILE");
        let app_service_mi = has("IDENTITY_ENDPOINT") && has("IDENTITY_HEADER");
        let pick = match choice {
            AuthChoice::Env => AuthChoice::Env,
            AuthChoice::Workload => AuthChoice::Workload,
            AuthChoice::ManagedIdentity => AuthChoice::ManagedIdentity,
            AuthChoice::Cli => AuthChoice::Cli,
            AuthChoice::Auto if sp => AuthChoice::Env,
            AuthChoice::Auto if workload => AuthChoice::Workload,
            AuthChoice::Auto if app_service_mi => AuthChoice::ManagedIdentity,
            AuthChoice::Auto => AuthChoice::Cli,
        };
        let traces = Arc::new(Mutex::new(Vec::new()));
        let built = match pick {
            AuthChoice::Env => service_principal(env, &traces, &at.authority).map(|c| (c, "a service principal from AZURE_CLIENT_ID, AZURE_TENANT_ID and AZURE_CLIENT_SECRET".to_owned())),
            AuthChoice::Workload => workload_identity(&traces, &at.authority),
            AuthChoice::ManagedIdentity => managed_identity(env, &traces),
            AuthChoice::Cli | AuthChoice::Auto => developer_tools(at),
        };
        match built {
            Ok((credential, describe)) => Ok(Auth {
                credential,
                describe,
                cache: Mutex::new(HashMap::new()),
                traces,
            }),
            Err(e) => Err(no_credential(&crate::redact::redact(&e))),
        }
    }

    /// A bearer token for `scope` (one resource's `/.default`), cached for the run.
    pub(crate) async fn token(&self, scope: &str) -> Result<String, Error> {
        if let Some(t) = self.cache.lock().ok().and_then(|c| c.get(scope).cloned()) {
            return Ok(t);
        }
        let token = self
            .credential
            .get_token(&[scope], None)
            .await
            .map_err(|e| {
                no_credential(&format!(
                    "{} gave no token: {}",
                    self.describe,
                    crate::redact::redact(&one_line(&e.to_string()))
                ))
            })?;
        let secret = token.token.secret().to_owned();
        if let Ok(mut c) = self.cache.lock() {
            c.insert(scope.to_owned(), secret.clone());
        }
        Ok(secret)
    }

    /// The token requests sent since the last call (`--debug`).
    pub(crate) fn take_traces(&self) -> Vec<String> {
        self.traces
            .lock()
            .map(|mut t| std::mem::take(&mut *t))
            .unwrap_or_default()
    }
}

fn first_line(text: &str) -> String {
    text.lines().next().unwrap_or("").to_owned()
}

/// An error of several lines as one: a chained credential's "Multiple errors were
/// encountered…:" is followed by the errors themselves, which the user needs.
fn one_line(text: &str) -> String {
    let joined: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let mut out = joined.join(" ");
    if out.len() > 1000 {
        let cut = (0..=1000)
            .rev()
            .find(|i| out.is_char_boundary(*i))
            .unwrap_or(0);
        out.truncate(cut);
        out.push('…');
    }
    out
}

/// The managed identity, named by the endpoint it asks (App Service, Container Apps and
/// Azure ML compute set `IDENTITY_ENDPOINT`): a local endpoint that refuses the
/// connection is not there, so it is not retried.
fn managed_identity(
    env: &Environment,
    traces: &Arc<Mutex<Vec<String>>>,
) -> Result<(Arc<dyn TokenCredential>, String), String> {
    let endpoint = env
        .var("IDENTITY_ENDPOINT")
        .map(|e| crate::redact::redact(e).into_owned());
    let describe = match &endpoint {
        Some(e) => format!("the managed identity at {e} (IDENTITY_ENDPOINT)"),
        None => "managed identity".to_owned(),
    };
    azure_identity::ManagedIdentityCredential::new(Some(
        azure_identity::ManagedIdentityCredentialOptions {
            client_options: client_options(traces, false, None),
            ..Default::default()
        },
    ))
    .map(|c| (c as Arc<dyn TokenCredential>, describe))
    .map_err(|e| e.to_string())
}

/// Workload identity (a federated token file), signing in at `authority`.
fn workload_identity(
    traces: &Arc<Mutex<Vec<String>>>,
    authority: &str,
) -> Result<(Arc<dyn TokenCredential>, String), String> {
    azure_identity::WorkloadIdentityCredential::new(Some(
        azure_identity::WorkloadIdentityCredentialOptions {
            credential_options: azure_identity::ClientAssertionCredentialOptions {
                client_options: client_options(traces, true, Some(authority)),
            },
            ..Default::default()
        },
    ))
    .map(|c| {
        (
            c as Arc<dyn TokenCredential>,
            "workload identity (AZURE_FEDERATED_TOKEN_FILE)".to_owned(),
        )
    })
    .map_err(|e| e.to_string())
}

/// The az CLI or azd sign-in; with a tenant (or a subscription id) to sign in to, the
/// az CLI alone, asked for that tenant's token (`az account get-access-token
/// --tenant T`): the developer-tools chain takes no tenant and would hand back the
/// default tenant's, which another tenant's subscription refuses with a 401.
fn developer_tools(at: &SignIn) -> Result<(Arc<dyn TokenCredential>, String), String> {
    let subscription = at.subscription.clone();
    if at.tenant.is_none() && subscription.is_none() {
        return azure_identity::DeveloperToolsCredential::new(None)
            .map(|c| {
                (
                    c as Arc<dyn TokenCredential>,
                    "the az CLI or azd sign-in".to_owned(),
                )
            })
            .map_err(|e| e.to_string());
    }
    let describe = match (&at.tenant, &subscription) {
        (Some(t), _) => format!("the az CLI sign-in to tenant {t}"),
        (None, Some(s)) => format!("the az CLI sign-in for subscription {s}"),
        (None, None) => unreachable!("handled above"),
    };
    // The az CLI refuses a tenant and a subscription together.
    let options = azure_identity::AzureCliCredentialOptions {
        subscription: subscription.filter(|_| at.tenant.is_none()),
        tenant_id: at.tenant.clone(),
        ..Default::default()
    };
    azure_identity::AzureCliCredential::new(Some(options))
        .map(|c| (c as Arc<dyn TokenCredential>, describe))
        .map_err(|e| e.to_string())
}

fn service_principal(
    env: &Environment,
    traces: &Arc<Mutex<Vec<String>>>,
    authority: &str,
) -> Result<Arc<dyn TokenCredential>, String> {
    let (Some(tenant), Some(client), Some(secret)) = (
        env.var("AZURE_TENANT_ID"),
        env.var("AZURE_CLIENT_ID"),
        env.var("AZURE_CLIENT_SECRET"),
    ) else {
        return Err(
            "AZURE_CLIENT_ID, AZURE_TENANT_ID and AZURE_CLIENT_SECRET are not all set".to_owned(),
        );
    };
    azure_identity::ClientSecretCredential::new(
        tenant,
        client.to_owned(),
        Secret::new(secret.to_owned()),
        Some(azure_identity::ClientSecretCredentialOptions {
            client_options: client_options(traces, true, Some(authority)),
        }),
    )
    .map(|c| c as Arc<dyn TokenCredential>)
    .map_err(|e| e.to_string())
}

/// The one message when signing in fails: what went wrong and every way to fix it.
fn no_credential(what: &str) -> Error {
    Error::access(format!("cannot sign in to Azure: {what}")).with_hint(
        "sign in with 'az login' (or 'azd auth login'); in CI set AZURE_CLIENT_ID, AZURE_TENANT_ID and AZURE_CLIENT_SECRET, or AZURE_FEDERATED_TOKEN_FILE for workload identity (GitHub Actions OIDC); on Azure compute pass --auth managed-identity",
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_error_of_a_chain_is_kept_on_one_line() {
        let text = "Multiple errors were encountered while attempting to authenticate:\nAzureCliCredential: az not found\n  AzureDeveloperCliCredential: azd not found\n";
        assert_eq!(
            super::one_line(text),
            "Multiple errors were encountered while attempting to authenticate: AzureCliCredential: az not found AzureDeveloperCliCredential: azd not found"
        );
    }
}
