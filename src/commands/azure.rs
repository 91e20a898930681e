//! What live commands share: the workspace named by the context, the connection to
//! Azure for the context's cloud (with the run's overrides), the `--debug` traces of
//! its requests, and the folder a live read saves its bundle in.

use crate::context::Context;
use crate::error::{Error, Result};
use crate::source;

/// `/subscriptions/…/workspaces/…` from the context, or an error naming the flag.
pub(crate) fn workspace_path(ctx: &Context, command: &str) -> Result<String> {
    let need = |what: &str, flag: &str, default: &str| {
        Error::input(format!("{command} needs the {what}: pass {flag}"))
            .with_hint(format!("or set a default: {default}"))
    };
    let sub = ctx.subscription.as_ref().ok_or_else(|| {
        need(
            "subscription",
            "--subscription",
            "az account set --subscription <id>",
        )
    })?;
    if !crate::context::name_rules::is_guid(&sub.value) {
        return Err(Error::input(format!(
            "--subscription: '{}' is a name; pass the subscription id (a GUID)",
            sub.value
        ))
        .with_hint("az account list --query \"[].{name:name, id:id}\" -o table"));
    }
    let group = ctx.resource_group.as_ref().ok_or_else(|| {
        need(
            "resource group",
            "-g/--resource-group",
            "az configure --defaults group=<group>",
        )
    })?;
    let ws = ctx.workspace.as_ref().ok_or_else(|| {
        need(
            "workspace",
            "-w/--workspace-name",
            "az configure --defaults workspace=<workspace>",
        )
    })?;
    Ok(format!(
        "/subscriptions/{}/resourceGroups/{}/providers/Microsoft.MachineLearningServices/workspaces/{}",
        sub.value, group.value, ws.value
    ))
}

/// `--debug`: every request and its answer, secrets redacted.
pub(crate) fn debug_traces(
    ctx: &Context,
    azure: &mut crate::source::azure::Azure,
    err: &mut dyn std::io::Write,
) {
    if ctx.debug {
        for line in azure.take_traces() {
            super::support::debug(err, &line);
        }
    }
}

/// The connection for the context's cloud; `AMLDOCTOR_ARM_ENDPOINT` overrides the
/// Resource Manager URL (tests point it at a server on this machine).
pub(crate) fn connect_azure(ctx: &Context) -> Result<crate::source::azure::Azure> {
    let o = &ctx.overrides;
    let (arm, scope) = ctx.cloud.value.arm().ok_or_else(|| {
        Error::input(format!(
            "the cloud '{}' is a custom one; amldoctor knows the endpoints of AzureCloud, AzureChinaCloud and AzureUSGovernment",
            ctx.cloud.value
        ))
    })?;
    let arm = o.arm_endpoint.clone().unwrap_or_else(|| arm.to_owned());
    let env = source::local::environment();
    let seconds =
        |value: Option<u64>, default: u64| std::time::Duration::from_secs(value.unwrap_or(default));
    let options = crate::source::azure::AzureOptions {
        arm_endpoint: arm,
        arm_scope: scope.to_owned(),
        ml_scope: ctx.cloud.value.ml_scope().unwrap_or(scope).to_owned(),
        log_analytics: {
            let (url, la_scope) = ctx.cloud.value.log_analytics().unwrap_or((
                "https://api.loganalytics.io",
                "https://api.loganalytics.io/.default",
            ));
            (
                o.log_analytics_endpoint
                    .clone()
                    .unwrap_or_else(|| url.to_owned()),
                la_scope.to_owned(),
            )
        },
        operation_timeout: seconds(o.operation_timeout, 600),
        auth: ctx.auth,
        sign_in: crate::source::azure::SignIn {
            // azure_identity's own variable wins, as it would for a credential built
            // without a cloud.
            authority: env
                .var("AZURE_AUTHORITY_HOST")
                .map(str::to_owned)
                .or_else(|| ctx.cloud.value.authority_host().map(str::to_owned))
                .unwrap_or_default(),
            tenant: ctx.tenant.as_ref().map(|t| t.value.clone()),
            subscription: ctx
                .subscription
                .as_ref()
                .map(|s| s.value.clone())
                .filter(|s| crate::context::name_rules::is_guid(s)),
        },
        timeout: seconds(o.http_timeout, 60),
        policy: crate::source::azure::RetryPolicy {
            budget: seconds(o.retry_budget, 90),
            ..crate::source::azure::RetryPolicy::default()
        },
    };
    // The credential chain reads its own variables (AZURE_CLIENT_ID …).
    crate::source::azure::Azure::connect(options, &env)
}

/// The workspace a live command reads, from the context (an error names the flag).
pub(crate) fn place(ctx: &Context, command: &str) -> Result<crate::source::collect::Place> {
    let workspace_path = workspace_path(ctx, command)?;
    let value = |s: &Option<crate::setting::Setting<String>>| s.as_ref().map(|s| s.value.clone());
    Ok(crate::source::collect::Place {
        workspace_path,
        source: crate::source::bundle::BundleSource {
            subscription: value(&ctx.subscription),
            resource_group: value(&ctx.resource_group),
            workspace: value(&ctx.workspace),
            ..crate::source::bundle::BundleSource::default()
        },
    })
}

/// Runs `work` on the folder a live read saves its bundle in: `--save DIR`, kept (and
/// `work` is told so, to say where), else a temporary folder removed afterwards.
pub(crate) fn in_bundle_dir<T>(
    save: Option<&std::path::Path>,
    command: &str,
    work: impl FnOnce(&std::path::Path, bool) -> Result<T>,
) -> Result<T> {
    match save {
        Some(dir) => work(dir, true),
        None => {
            let dir = source::local::temporary_dir(command);
            let result = work(&dir, false);
            source::local::remove_dir(&dir);
            result
        }
    }
}

/// Shows what a live run read into the temporary folder `dir` by where it came from
/// (the folder is gone once the command returns), and says how to keep the files when
/// commands that read them were left out.
pub(crate) fn show_origins(
    dir: &std::path::Path,
    a: &mut crate::analyse::Analysed,
    err: &mut dyn std::io::Write,
) {
    let Ok(Some(manifest)) = source::bundle::read_manifest(dir) else {
        return;
    };
    let origins =
        crate::analyse::origins::Origins::of_bundle(&dir.display().to_string(), &manifest);
    let dropped = origins.relabel(a);
    if dropped > 0 {
        super::support::note(
            err,
            &format!(
                "{dropped} command{} that would read the downloaded files {} left out: they were not kept; pass --save DIR to keep them",
                if dropped == 1 { "" } else { "s" },
                if dropped == 1 { "is" } else { "are" },
            ),
        );
    }
}
