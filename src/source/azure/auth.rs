//! Credentials through azure_identity: a service principal from `AZURE_CLIENT_ID` /
//! `AZURE_TENANT_ID` / `AZURE_CLIENT_SECRET`, workload identity
//! (`AZURE_FEDERATED_TOKEN_FILE`, as GitHub Actions OIDC sets it), managed identity, then
//! the developer tools (az CLI, azd). Tokens are cached per scope for the run and never
//! printed, logged or saved.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use azure_core::credentials::{Secret, TokenCredential};

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

/// One way of signing in, ready to ask for tokens.
#[derive(Debug)]
pub(crate) struct Auth {
    credential: Arc<dyn TokenCredential>,
    /// What it is, for messages (`service principal from AZURE_CLIENT_ID`).
    pub describe: String,
    cache: Mutex<HashMap<String, String>>,
}

impl Auth {
    /// Picks the credential `choice` names. An error lists what was tried and how to
    /// fix each.
    pub(crate) fn new(choice: AuthChoice, env: &Environment) -> Result<Auth, Error> {
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
        let built = match pick {
            AuthChoice::Env => service_principal(env).map(|c| (c, "a service principal from AZURE_CLIENT_ID, AZURE_TENANT_ID and AZURE_CLIENT_SECRET")),
            AuthChoice::Workload => azure_identity::WorkloadIdentityCredential::new(None)
                .map(|c| (c as Arc<dyn TokenCredential>, "workload identity (AZURE_FEDERATED_TOKEN_FILE)"))
                .map_err(|e| e.to_string()),
            AuthChoice::ManagedIdentity => azure_identity::ManagedIdentityCredential::new(None)
                .map(|c| (c as Arc<dyn TokenCredential>, "managed identity"))
                .map_err(|e| e.to_string()),
            AuthChoice::Cli | AuthChoice::Auto => azure_identity::DeveloperToolsCredential::new(None)
                .map(|c| (c as Arc<dyn TokenCredential>, "the az CLI or azd sign-in"))
                .map_err(|e| e.to_string()),
        };
        match built {
            Ok((credential, describe)) => Ok(Auth {
                credential,
                describe: describe.to_owned(),
                cache: Mutex::new(HashMap::new()),
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
                    crate::redact::redact(&first_line(&e.to_string()))
                ))
            })?;
        let secret = token.token.secret().to_owned();
        if let Ok(mut c) = self.cache.lock() {
            c.insert(scope.to_owned(), secret.clone());
        }
        Ok(secret)
    }
}

fn first_line(text: &str) -> String {
    text.lines().next().unwrap_or("").to_owned()
}

fn service_principal(env: &Environment) -> Result<Arc<dyn TokenCredential>, String> {
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
        None,
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
