//! DNS lookups for `check dns`: each host through the machine's resolver and through
//! each server the user named, A and AAAA, CNAME chains followed, every query bounded
//! in time so a server that never answers costs seconds, not a hang. Only reads.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use hickory_resolver::config::{
    ConnectionConfig, NameServerConfig, ResolveHosts, ResolverConfig, ResolverOpts,
};
use hickory_resolver::net::NetError;
use hickory_resolver::net::runtime::TokioRuntimeProvider;
use hickory_resolver::proto::rr::{RData, RecordType};
use hickory_resolver::{Resolver, TokioResolver};

use crate::evidence::dns::{DnsObservation, DnsTarget, Outcome};

/// A DNS server to ask.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Server {
    /// The machine's own resolver (`/etc/resolv.conf`, the hosts file), or the server
    /// `AMLDOCTOR_SYSTEM_RESOLVER` puts in its place (tests, containers).
    System(Option<SocketAddr>),
    /// A server named with `--nameserver`.
    At(SocketAddr),
}

impl Server {
    /// As reports name it: `system` or `IP:PORT`.
    pub(crate) fn label(self) -> String {
        match self {
            Server::System(_) => "system".to_owned(),
            Server::At(addr) => addr.to_string(),
        }
    }
}

/// A resolver for `server` that asks once, waits `timeout`, and caches nothing.
fn resolver(server: Server, timeout: Duration) -> Result<TokioResolver, String> {
    let mut builder = match server {
        Server::System(None) => TokioResolver::builder_tokio()
            .map_err(|e| format!("cannot read the system resolver configuration: {e}"))?,
        Server::System(Some(addr)) | Server::At(addr) => {
            let mut udp = ConnectionConfig::udp();
            udp.port = addr.port();
            let mut tcp = ConnectionConfig::tcp();
            tcp.port = addr.port();
            let ns = NameServerConfig::new(addr.ip(), true, vec![udp, tcp]);
            let mut b = Resolver::builder_with_config(
                ResolverConfig::from_name_servers(vec![ns]),
                TokioRuntimeProvider::default(),
            );
            // A named server is asked itself: the hosts file would answer in its place.
            b.options_mut().use_hosts_file = ResolveHosts::Never;
            b
        }
    };
    let opts: &mut ResolverOpts = builder.options_mut();
    opts.timeout = timeout;
    opts.attempts = 1;
    opts.cache_size = 0;
    opts.preserve_intermediates = true;
    builder.build().map_err(|e| e.to_string())
}

/// What one query type gave.
enum Part {
    Records {
        cnames: Vec<String>,
        addresses: Vec<std::net::IpAddr>,
    },
    NotFound,
    NoRecords,
    Timeout,
    Failed(String),
}

fn part(result: Result<Result<hickory_resolver::lookup::Lookup, NetError>, ()>) -> Part {
    match result {
        Err(()) => Part::Timeout,
        Ok(Ok(lookup)) => {
            let mut cnames = Vec::new();
            let mut addresses = Vec::new();
            for r in lookup.answers() {
                match &r.data {
                    RData::A(a) => addresses.push(std::net::IpAddr::V4(a.0)),
                    RData::AAAA(a) => addresses.push(std::net::IpAddr::V6(a.0)),
                    RData::CNAME(c) => {
                        let name = c.0.to_ascii();
                        cnames.push(name.trim_end_matches('.').to_ascii_lowercase());
                    }
                    _ => {}
                }
            }
            Part::Records { cnames, addresses }
        }
        Ok(Err(e)) if e.is_nx_domain() => Part::NotFound,
        Ok(Err(e)) if e.is_no_records_found() => Part::NoRecords,
        Ok(Err(NetError::Timeout)) => Part::Timeout,
        Ok(Err(e)) => Part::Failed(e.to_string()),
    }
}

/// A and AAAA together, as one observation.
fn combine(a: Part, aaaa: Part, waited: Duration) -> Outcome {
    let mut cnames = Vec::new();
    let mut addresses = Vec::new();
    for p in [&a, &aaaa] {
        if let Part::Records {
            cnames: c,
            addresses: ips,
        } = p
        {
            for name in c {
                if !cnames.contains(name) {
                    cnames.push(name.clone());
                }
            }
            addresses.extend(ips);
        }
    }
    if !addresses.is_empty() {
        return Outcome::Answer { cnames, addresses };
    }
    match (a, aaaa) {
        (Part::NotFound, _) | (_, Part::NotFound) => Outcome::NotFound,
        (Part::Timeout, Part::Timeout) => Outcome::Timeout {
            after_ms: u64::try_from(waited.as_millis()).unwrap_or(u64::MAX),
        },
        (Part::Failed(reason), _) | (_, Part::Failed(reason)) => Outcome::Failed { reason },
        _ => Outcome::NoAddress,
    }
}

/// One query type for one host, within `limit`.
async fn query(resolver: TokioResolver, fqdn: String, t: RecordType, limit: Duration) -> Part {
    let result = tokio::time::timeout(limit, resolver.lookup(fqdn.as_str(), t))
        .await
        .map_err(|_| ());
    part(result)
}

/// One host through one resolver: A and AAAA at once. A query gets `timeout` (the
/// resolver's own) and a margin for its retry over TCP; silence is reported as `timeout`.
async fn observe(resolver: TokioResolver, host: String, timeout: Duration) -> Outcome {
    let limit = timeout + Duration::from_millis(500);
    let fqdn = format!("{}.", host.trim_end_matches('.'));
    let started = Instant::now();
    let a = tokio::spawn(query(resolver.clone(), fqdn.clone(), RecordType::A, limit));
    let aaaa = tokio::spawn(query(resolver, fqdn, RecordType::AAAA, limit));
    let joined = |r: Result<Part, tokio::task::JoinError>| {
        r.unwrap_or_else(|e| Part::Failed(format!("the lookup stopped: {e}")))
    };
    let a = joined(a.await);
    let aaaa = joined(aaaa.await);
    combine(a, aaaa, started.elapsed().min(timeout))
}

/// Every target through every server, all at once: the time is bounded by one
/// query's `timeout` (and a margin), whatever the number of hosts and servers.
pub(crate) fn resolve(
    targets: &[DnsTarget],
    servers: &[Server],
    timeout: Duration,
) -> Vec<DnsObservation> {
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => return failed_all(targets, servers, &format!("no async runtime: {e}")),
    };
    runtime.block_on(async {
        let mut pending = Vec::new();
        for server in servers {
            let built = resolver(*server, timeout);
            for t in targets {
                let task = built
                    .as_ref()
                    .map(|r| tokio::spawn(observe(r.clone(), t.host.clone(), timeout)))
                    .map_err(Clone::clone);
                pending.push((t, *server, task));
            }
        }
        let mut out = Vec::with_capacity(pending.len());
        for (t, server, task) in pending {
            let outcome = match task {
                Ok(task) => task.await.unwrap_or_else(|e| Outcome::Failed {
                    reason: format!("the lookup stopped: {e}"),
                }),
                Err(reason) => Outcome::Failed { reason },
            };
            out.push(DnsObservation {
                host: t.host.clone(),
                role: t.role,
                server: server.label(),
                outcome,
            });
        }
        out
    })
}

fn failed_all(targets: &[DnsTarget], servers: &[Server], reason: &str) -> Vec<DnsObservation> {
    servers
        .iter()
        .flat_map(|s| {
            targets.iter().map(move |t| DnsObservation {
                host: t.host.clone(),
                role: t.role,
                server: s.label(),
                outcome: Outcome::Failed {
                    reason: reason.to_owned(),
                },
            })
        })
        .collect()
}
