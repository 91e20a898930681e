//! Where `check`'s evidence comes from besides the files it is given: what the chosen
//! area needs, read from Azure into a bundle, and the DNS answers for the hosts the
//! resources name, taken here and now.

use crate::cli::CheckArgs;
use crate::context::Context;
use crate::error::{Error, Result};
use crate::evidence::dns::DnsObservation;
use crate::evidence::resource::{Resource, ResourceKind};
use crate::rules::resource::CheckArea;
use crate::source;
use crate::source::azure::Azure;
use crate::source::bundle::BundleWriter;
use crate::source::collect::{self, Place};

use crate::analyse::{ReadMode, gather};

/// Reads what the chosen area needs from Azure into a bundle at `dir`.
pub(super) fn collect_live(
    ctx: &Context,
    azure: &mut Azure,
    place: &Place,
    args: &CheckArgs,
    dir: &std::path::Path,
) -> Result<()> {
    let area = args.area.area();
    let mut source = place.source.clone();
    source.endpoint.clone_from(&args.endpoint);
    source.deployment.clone_from(&args.deployment);
    let mut bundle = BundleWriter::create(dir, source, collect::created())?;
    let areas: Vec<&str> = CheckArea::ALL
        .into_iter()
        .filter(|a| area.is_none_or(|x| x == *a))
        .map(CheckArea::name)
        .collect();
    let plan = collect::CheckPlan {
        areas: &areas,
        endpoint: args.endpoint.as_deref(),
        deployment: args.deployment.as_deref(),
        private_zone: crate::evidence::dns::CloudSuffixes::of(ctx.cloud.value.name()).private_zone,
    };
    collect::check_bundle(azure, place, &plan, &mut bundle)?;
    let wants_dns = area.is_none_or(|a| a == CheckArea::Dns);
    if wants_dns {
        save_dns_answers(ctx, args, &mut bundle)?;
    }
    bundle.finish().map(|_| ())
}

/// Resolves the hosts the resources just saved name (and --host), into `dns.json`.
fn save_dns_answers(ctx: &Context, args: &CheckArgs, bundle: &mut BundleWriter) -> Result<()> {
    let saved = gather(
        &[bundle.root().display().to_string()],
        None,
        ReadMode::Resources,
    );
    let observations = resolve_dns(ctx, args, &saved.resources.resources)?;
    if observations.is_empty() {
        bundle.skipped(
            "dns",
            "the hosts to resolve",
            "neither the endpoint's scoring URI nor the workspace was read; pass --host HOST",
        );
        return Ok(());
    }
    let doc = crate::evidence::dns::DnsDocument::new(observations);
    let value = serde_json::to_value(&doc).unwrap_or_default();
    bundle.write_json("dns.json", "DNS answers", &value)
}

/// How long one DNS query may take before the server counts as not answering.
const DNS_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(3);

/// The hosts the resources and --host name, resolved through the system resolver
/// (unless --no-system-resolver) and each --nameserver.
fn resolve_dns(
    ctx: &Context,
    args: &CheckArgs,
    resources: &[Resource],
) -> Result<Vec<DnsObservation>> {
    let endpoint = args
        .endpoint
        .clone()
        .or_else(|| ctx.endpoint.as_ref().map(|e| e.value.clone()));
    let suffixes = crate::evidence::dns::CloudSuffixes::of(ctx.cloud.value.name());
    let wanted =
        crate::analyse::dns_hosts::wanted(resources, endpoint.as_deref(), &args.hosts, suffixes);
    let mut servers = Vec::new();
    if !args.no_system_resolver {
        let replaced = ctx
            .overrides
            .system_resolver
            .as_deref()
            .map(|v| {
                crate::context::name_rules::nameserver(v)
                    .map_err(|e| Error::input(format!("AMLDOCTOR_SYSTEM_RESOLVER: '{v}': {e}")))
            })
            .transpose()?;
        servers.push(source::dns::Server::System(replaced));
    }
    servers.extend(args.nameservers.iter().map(|a| source::dns::Server::At(*a)));
    if wanted.is_empty() {
        return Ok(Vec::new());
    }
    Ok(source::dns::resolve(&wanted, &servers, DNS_TIMEOUT))
}

/// The DNS answers to judge: the ones saved in the inputs, and, when `resolve` and the
/// area asks for it, new ones for the hosts the resources and --host name.
pub(super) fn dns_for_area(
    ctx: &Context,
    args: &CheckArgs,
    area: Option<CheckArea>,
    resolve: bool,
    resources: &mut crate::analyse::gather::ResourceInputs,
) -> Result<Vec<DnsObservation>> {
    let mut dns = std::mem::take(&mut resources.dns);
    // Saved answers are judged as they were seen, where they were taken; this machine
    // asks again only when told which host or server to ask.
    let asked = (area == Some(CheckArea::Dns) && dns.is_empty())
        || !args.hosts.is_empty()
        || !args.nameservers.is_empty();
    if resolve && asked {
        // Answers taken now replace saved ones: two places' answers would disagree.
        dns = resolve_dns(ctx, args, &resources.resources)?;
    }
    // Zone links alone are something to check; nothing at all is not.
    let relevant = resources.resources.iter().any(|r| {
        matches!(
            r.kind,
            ResourceKind::PrivateDnsZoneLink | ResourceKind::PrivateDnsRecordSet
        )
    });
    if dns.is_empty() && area == Some(CheckArea::Dns) && resources.errors.is_empty() && !relevant {
        return Err(Error::input(
            "check dns has no host to resolve: the input names no endpoint scoring URI or workspace",
        )
        .with_hint("pass --host HOST, -e ENDPOINT to read the endpoint from Azure, or --from with the endpoint or workspace JSON"));
    }
    Ok(dns)
}
