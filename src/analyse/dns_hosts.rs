//! Which hosts `check dns` resolves: the ones the resources name (scoring URI,
//! workspace, registry, Key Vault, storage), the endpoint's scoring host built from its
//! name and region when its URI could not be read, and every `--host`.

use crate::evidence::dns::{CloudSuffixes, DnsTarget, HostRole, scoring_by_name, targets};
use crate::evidence::resource::Resource;

/// The hosts to resolve, each once.
pub(crate) fn wanted(
    resources: &[Resource],
    endpoint: Option<&str>,
    hosts: &[String],
    suffixes: CloudSuffixes,
) -> Vec<DnsTarget> {
    let mut wanted = targets(resources, suffixes);
    // No scoring URI read (the endpoint could not be), but its name and region known.
    if !wanted.iter().any(|t| t.role == HostRole::Scoring)
        && let Some(t) = endpoint.and_then(|e| scoring_by_name(resources, e, suffixes))
    {
        wanted.push(t);
    }
    for host in hosts {
        if !wanted.iter().any(|t| t.host == *host) {
            wanted.push(DnsTarget {
                host: host.clone(),
                role: HostRole::Given,
            });
        }
    }
    wanted
}
