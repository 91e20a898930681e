//! What an agent can read without calling a tool: every rule's documentation as
//! `amldoctor://rules/{id}`, every explain entry as `amldoctor://explain/{code}`, and
//! the one prompt, "triage a failed deployment", that walks it from the logs to the
//! next command.

use std::collections::BTreeSet;
use std::sync::Arc;

use rmcp::model::{
    GetPromptRequestParams, GetPromptResult, Prompt, PromptArgument, PromptMessage, Resource,
    ResourceTemplate, Role,
};

use crate::rules::RuleSet;
use crate::rules::template::Placeholders;

const RULES: &str = "amldoctor://rules/";
const EXPLAIN: &str = "amldoctor://explain/";
const PROMPT: &str = "triage-failed-deployment";

/// The rule catalogue the server loaded, shared by every read.
#[derive(Debug, Clone)]
pub(super) struct Catalog {
    set: Arc<RuleSet>,
    known: Arc<Placeholders>,
}

/// What a resource read turns into.
#[derive(Debug)]
pub(super) enum Read {
    /// The text is at hand.
    Text { uri: String, markdown: String },
    /// `amldoctor explain CODE -o markdown` gives it.
    Explain { uri: String, code: String },
}

impl Catalog {
    pub(super) fn new(set: RuleSet, known: Placeholders) -> Catalog {
        Catalog {
            set: Arc::new(set),
            known: Arc::new(known),
        }
    }

    /// Every rule, and every code a rule names, as a resource.
    pub(super) fn resources(&self) -> Vec<Resource> {
        let mut list: Vec<Resource> = self
            .set
            .rules
            .iter()
            .map(|r| {
                Resource::new(format!("{RULES}{}", r.id), r.id.clone())
                    .with_title(r.title.clone())
                    .with_description(format!("Rule {} ({}, {})", r.id, r.severity, r.family))
                    .with_mime_type("text/markdown")
            })
            .collect();
        let codes: BTreeSet<&str> = self
            .set
            .rules
            .iter()
            .flat_map(|r| r.codes.iter().map(String::as_str))
            .collect();
        list.extend(codes.into_iter().map(|c| {
            Resource::new(format!("{EXPLAIN}{c}"), c.to_owned())
                .with_title(format!("What {c} means"))
                .with_mime_type("text/markdown")
        }));
        list
    }

    pub(super) fn templates() -> Vec<ResourceTemplate> {
        vec![
            ResourceTemplate::new(format!("{RULES}{{id}}"), "rule")
                .with_title("A rule's documentation")
                .with_description("What the rule matches, why it matters, the fix and its commands")
                .with_mime_type("text/markdown"),
            ResourceTemplate::new(format!("{EXPLAIN}{{code}}"), "explain")
                .with_title("What an error code or HTTP status means")
                .with_description(
                    "An Azure ML error code (ImageBuildFailure), an HTTP status (424) or a rule id",
                )
                .with_mime_type("text/markdown"),
        ]
    }

    /// The resource at `uri`, or one sentence saying there is none.
    pub(super) fn read(&self, uri: &str) -> Result<Read, String> {
        if let Some(id) = uri.strip_prefix(RULES) {
            let rule = self
                .set
                .rules
                .iter()
                .find(|r| r.id == id)
                .ok_or_else(|| format!("there is no rule '{id}' (rules_search lists them)"))?;
            let markdown =
                crate::report::rule_doc::rule_markdown(&self.set, rule, "#", &self.known);
            return Ok(Read::Text {
                uri: uri.to_owned(),
                markdown,
            });
        }
        if let Some(code) = uri.strip_prefix(EXPLAIN).filter(|c| !c.is_empty()) {
            return Ok(Read::Explain {
                uri: uri.to_owned(),
                code: code.to_owned(),
            });
        }
        Err(format!(
            "{uri} is not an amldoctor resource; they are {RULES}{{id}} and {EXPLAIN}{{code}}"
        ))
    }
}

pub(super) fn triage_prompt() -> Prompt {
    Prompt::new(
        PROMPT,
        Some(
            "Triage a failed Azure ML online deployment: logs, diagnosis, configuration check, then the next command",
        ),
        Some(vec![
            PromptArgument::new("endpoint")
                .with_description("The online endpoint, if known")
                .with_required(false),
            PromptArgument::new("deployment")
                .with_description("The deployment, if known")
                .with_required(false),
            PromptArgument::new("log")
                .with_description("A log or error message the user pasted")
                .with_required(false),
        ]),
    )
}

/// The prompt's text, with what the user gave filled in.
pub(super) fn triage(
    request: &GetPromptRequestParams,
    allow_azure: bool,
) -> Result<GetPromptResult, String> {
    if request.name != PROMPT {
        return Err(format!(
            "there is no prompt '{}'; the one prompt is '{PROMPT}'",
            request.name
        ));
    }
    let arg = |k: &str| {
        request
            .arguments
            .as_ref()
            .and_then(|a| a.get(k))
            .and_then(|v| v.as_str())
            .map(str::to_owned)
    };
    let endpoint = arg("endpoint");
    let deployment = arg("deployment");
    let target = match (&endpoint, &deployment) {
        (Some(e), Some(d)) => format!("deployment '{d}' of online endpoint '{e}'"),
        (Some(e), None) => format!("online endpoint '{e}'"),
        _ => "the user's failed online deployment".to_owned(),
    };
    let logs_step = match (arg("log"), allow_azure, &endpoint) {
        (Some(log), _, _) => format!(
            "1. Call diagnose_text with this log:\n\n```\n{log}\n```\n"
        ),
        (None, true, Some(_)) => "1. Call diagnose_deployment for it (it reads the container and storage-initializer logs and the deployment from Azure). To see the raw log, call get_logs.\n".to_owned(),
        _ => "1. Ask the user for the deployment's container log (`az ml online-deployment get-logs -e ENDPOINT -n DEPLOYMENT -g GROUP -w WORKSPACE -l 200`, and with `--container storage-initializer` when the model or code did not download), then call diagnose_text with it; for files on disk call diagnose_paths.\n".to_owned(),
    };
    let check_step = if allow_azure {
        "3. When a finding points at configuration (networking, registry, Key Vault, probes, timeouts, traffic), call check_workspace with the endpoint and deployment.\n"
    } else {
        "3. When a finding points at configuration (networking, registry, Key Vault, probes, timeouts, traffic), ask for `az ml online-deployment show -o json` and `az ml online-endpoint show -o json` and call check_resources with them.\n"
    };
    let text = format!(
        "Triage {target} with amldoctor's tools, in this order, quoting what they return rather than guessing.\n\n\
         {logs_step}\
         2. For each error or warning finding, read its fix and commands; call explain for any error code or HTTP status the user asks about, and read amldoctor://rules/{{id}} for a finding's full documentation.\n\
         {check_step}\
         4. Answer with the most specific finding first (a signature rule beats a service-error or category finding; its layer says which), its cause in one sentence, and the next command to run exactly as the finding prints it. If no finding is an error or warning, say that amldoctor found no failure in what it was given, and what else to collect."
    );
    let mut result = GetPromptResult::new(vec![PromptMessage::new_text(Role::User, text)]);
    result.description = Some(format!("Triage {target}"));
    Ok(result)
}
