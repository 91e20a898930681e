//! What DNS answers mean for a private workspace: a name that does not exist, a server
//! that does not answer, servers that disagree, a public address (or one outside the
//! expected ranges) for a host that must be private, and a CNAME chain that skips the
//! `privatelink` zone. Pure: observations in, computed findings out.

use std::collections::BTreeMap;
use std::net::IpAddr;

use ipnet::IpNet;

use crate::evidence::dns::{DnsObservation, HostRole, Outcome};
use crate::finding::{Computed, Evidence};

/// The rule ids of this module, each written here once.
pub(crate) const NOT_FOUND: &str = "dns-name-not-found";
pub(crate) const NO_ANSWER: &str = "dns-server-no-answer";
pub(crate) const DISAGREE: &str = "dns-servers-disagree";
pub(crate) const PUBLIC_ADDRESS: &str = "dns-public-address-for-private-host";
pub(crate) const OUTSIDE_EXPECTED: &str = "dns-address-outside-expected";
pub(crate) const SKIPS_PRIVATELINK: &str = "dns-cname-skips-privatelink";

pub(crate) const RULE_IDS: [&str; 6] = [
    NOT_FOUND,
    NO_ANSWER,
    DISAGREE,
    PUBLIC_ADDRESS,
    OUTSIDE_EXPECTED,
    SKIPS_PRIVATELINK,
];

/// What the answers should look like.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Expectations {
    /// The roles whose hosts take no public traffic, so must resolve privately.
    pub private_roles: Vec<HostRole>,
    /// `--expect-cidr`: every address must fall in one of these.
    pub cidrs: Vec<IpNet>,
    /// Addresses the private DNS zone's records give, when they were read.
    pub endpoint_addresses: BTreeMap<HostRole, Vec<IpAddr>>,
    /// The cloud's DNS suffixes: which private zone answers for which role.
    pub suffixes: crate::evidence::dns::CloudSuffixes,
    /// Names of the workspace (`group`, `workspace`) for the commands.
    pub names: BTreeMap<String, String>,
}

/// Whether `ip` is an address only a private network reaches (RFC 1918, shared
/// address space, loopback, link-local, IPv6 unique-local).
pub(crate) fn is_private(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => {
            let [a, b, ..] = v4.octets();
            v4.is_private()
                || v4.is_loopback()
                || v4.is_link_local()
                || (a == 100 && (64..128).contains(&b))
        }
        IpAddr::V6(v6) => {
            let first = v6.segments()[0];
            v6.is_loopback() || (first & 0xfe00) == 0xfc00 || (first & 0xffc0) == 0xfe80
        }
    }
}

fn computed(rule_id: &'static str, host: &str, evidence: Vec<Evidence>) -> Computed {
    let mut facts = BTreeMap::new();
    facts.insert("host".to_owned(), host.to_owned());
    Computed {
        rule_id,
        count: evidence.len() as u64,
        evidence,
        facts,
        names: BTreeMap::new(),
        commands: Vec::new(),
        edits: Vec::new(),
    }
}

/// Names the commands need but the report does not show as facts: the private zone,
/// and a named server's address and port (`system` has none to give `dig`).
fn with_names(
    mut c: Computed,
    expect: &Expectations,
    role: HostRole,
    server: Option<&str>,
) -> Computed {
    c.names.extend(expect.names.clone());
    c.names.insert(
        "private_zone".to_owned(),
        crate::evidence::dns::private_zone(role, expect.suffixes),
    );
    if let Some(addr) = server.and_then(|s| s.parse::<std::net::SocketAddr>().ok()) {
        c.names
            .insert("server_ip".to_owned(), addr.ip().to_string());
        c.names
            .insert("server_port".to_owned(), addr.port().to_string());
    }
    c
}

fn evidence(o: &DnsObservation, note: &str) -> Evidence {
    // A host the user named is just that; the others say what they are to the workspace.
    let role = if o.role == HostRole::Given {
        String::new()
    } else {
        format!("{}: ", o.role.name())
    };
    let text = format!("{role}{}", o.answer_with(note));
    Evidence::dns(&o.host, &o.server, text)
}

/// Every finding the observations show, host by host in the order they were asked.
pub(crate) fn findings(observations: &[DnsObservation], expect: &Expectations) -> Vec<Computed> {
    let mut hosts: Vec<&str> = Vec::new();
    for o in observations {
        if !hosts.contains(&o.host.as_str()) {
            hosts.push(&o.host);
        }
    }
    let mut out = Vec::new();
    for host in hosts {
        let seen: Vec<&DnsObservation> = observations.iter().filter(|o| o.host == host).collect();
        let mut found = unanswered(host, &seen);
        found.extend(disagreement(host, &seen));
        found.extend(misplaced(host, &seen, expect));
        let role = seen.first().map_or(HostRole::Given, |o| o.role);
        for c in found {
            let server = c.facts.get("server").cloned();
            out.push(with_names(c, expect, role, server.as_deref()));
        }
    }
    out
}

/// NXDOMAIN from any server, and servers that gave no answer at all.
fn unanswered(host: &str, seen: &[&DnsObservation]) -> Vec<Computed> {
    let mut out = Vec::new();
    let missing: Vec<Evidence> = seen
        .iter()
        .filter(|o| matches!(o.outcome, Outcome::NotFound | Outcome::NoAddress))
        .map(|o| evidence(o, ""))
        .collect();
    if !missing.is_empty() {
        out.push(computed(NOT_FOUND, host, missing));
    }
    for o in seen {
        if matches!(o.outcome, Outcome::Timeout { .. } | Outcome::Failed { .. }) {
            let mut c = computed(NO_ANSWER, host, vec![evidence(o, "")]);
            c.facts.insert("server".to_owned(), o.server.clone());
            out.push(c);
        }
    }
    out
}

/// The sorted addresses a server gave, or `None` when it gave no answer to compare.
fn answer_set(o: &DnsObservation) -> Option<Vec<IpAddr>> {
    match &o.outcome {
        Outcome::Answer { addresses, .. } => {
            let mut a = addresses.clone();
            a.sort();
            Some(a)
        }
        Outcome::NotFound | Outcome::NoAddress => Some(Vec::new()),
        Outcome::Timeout { .. } | Outcome::Failed { .. } => None,
    }
}

/// Two servers that answered differently for the same host.
fn disagreement(host: &str, seen: &[&DnsObservation]) -> Option<Computed> {
    let answered: Vec<(&DnsObservation, Vec<IpAddr>)> = seen
        .iter()
        .filter_map(|o| answer_set(o).map(|a| (*o, a)))
        .collect();
    let first = answered.first()?;
    if answered.iter().all(|(_, a)| *a == first.1) {
        return None;
    }
    let ev = answered.iter().map(|(o, _)| evidence(o, "")).collect();
    let mut c = computed(DISAGREE, host, ev);
    let servers: Vec<&str> = answered.iter().map(|(o, _)| o.server.as_str()).collect();
    c.facts.insert("servers".to_owned(), servers.join(", "));
    Some(c)
}

/// Addresses where they must not be: public for a private workspace, outside
/// `--expect-cidr` or the private endpoint's addresses; and chains around `privatelink`.
fn misplaced(host: &str, seen: &[&DnsObservation], expect: &Expectations) -> Vec<Computed> {
    let mut public = Vec::new();
    let mut outside = Vec::new();
    let mut around = Vec::new();
    for o in seen {
        let Outcome::Answer { cnames, addresses } = &o.outcome else {
            continue;
        };
        let private_role = expect.private_roles.contains(&o.role);
        let publics: Vec<String> = addresses
            .iter()
            .filter(|a| !is_private(**a))
            .map(ToString::to_string)
            .collect();
        if private_role && !publics.is_empty() {
            public.push(evidence(o, &format!("public: {}", publics.join(", "))));
        }
        let zone_addresses = expect
            .endpoint_addresses
            .get(&o.role)
            .map_or(&[][..], Vec::as_slice);
        let expected = |a: &IpAddr| {
            if expect.cidrs.is_empty() {
                zone_addresses.contains(a)
            } else {
                expect.cidrs.iter().any(|c| c.contains(a))
            }
        };
        let judged = !expect.cidrs.is_empty() || !zone_addresses.is_empty();
        let strays: Vec<String> = addresses
            .iter()
            .filter(|a| !expected(a))
            .map(ToString::to_string)
            .collect();
        if judged && !strays.is_empty() {
            outside.push(evidence(o, &format!("outside: {}", strays.join(", "))));
        }
        let through = cnames.iter().any(|c| c.contains(".privatelink."));
        if private_role && !cnames.is_empty() && !through {
            around.push(evidence(o, ""));
        }
    }
    let mut out = Vec::new();
    if !public.is_empty() {
        out.push(computed(PUBLIC_ADDRESS, host, public));
    }
    if !outside.is_empty() {
        let mut c = computed(OUTSIDE_EXPECTED, host, outside);
        let role = seen.first().map_or(HostRole::Given, |o| o.role);
        let ranges: Vec<String> = if expect.cidrs.is_empty() {
            expect
                .endpoint_addresses
                .get(&role)
                .into_iter()
                .flatten()
                .map(ToString::to_string)
                .collect()
        } else {
            expect.cidrs.iter().map(ToString::to_string).collect()
        };
        c.facts.insert("expected".to_owned(), ranges.join(", "));
        out.push(c);
    }
    if !around.is_empty() {
        out.push(computed(SKIPS_PRIVATELINK, host, around));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seen(host: &str, server: &str, outcome: Outcome) -> DnsObservation {
        DnsObservation {
            host: host.into(),
            role: HostRole::Scoring,
            server: server.into(),
            outcome,
        }
    }

    fn answer(cnames: &[&str], ips: &[&str]) -> Outcome {
        Outcome::Answer {
            cnames: cnames.iter().map(|c| (*c).to_owned()).collect(),
            addresses: ips.iter().map(|i| i.parse().unwrap()).collect(),
        }
    }

    fn ids(found: &[Computed]) -> Vec<&str> {
        found.iter().map(|c| c.rule_id).collect()
    }

    const EP: &str = "ep.eastus.inference.ml.azure.com";

    #[test]
    fn private_ranges() {
        for ip in [
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "100.64.0.1",
            "fd00::1",
        ] {
            assert!(is_private(ip.parse().unwrap()), "{ip}");
        }
        for ip in ["20.50.1.2", "100.128.0.1", "2001:db8::1"] {
            assert!(!is_private(ip.parse().unwrap()), "{ip}");
        }
    }

    #[test]
    fn a_private_answer_through_privatelink_is_clean() {
        let expect = Expectations {
            private_roles: vec![HostRole::Scoring],
            ..Expectations::default()
        };
        let o = [seen(
            EP,
            "system",
            answer(&["ep.privatelink.api.azureml.ms"], &["10.0.1.5"]),
        )];
        assert!(findings(&o, &expect).is_empty());
    }

    #[test]
    fn each_problem_has_its_finding() {
        let expect = Expectations {
            private_roles: vec![HostRole::Scoring],
            cidrs: vec!["10.0.0.0/16".parse().unwrap()],
            ..Expectations::default()
        };
        let o = [
            seen(
                EP,
                "system",
                answer(&["ep.trafficmanager.net"], &["20.50.1.2"]),
            ),
            seen(EP, "10.0.0.4:53", answer(&[], &["10.0.1.5"])),
            seen("gone.example", "system", Outcome::NotFound),
            seen(
                "slow.example",
                "10.9.9.9:53",
                Outcome::Timeout { after_ms: 3000 },
            ),
        ];
        assert_eq!(
            ids(&findings(&o, &expect)),
            [
                DISAGREE,
                PUBLIC_ADDRESS,
                OUTSIDE_EXPECTED,
                SKIPS_PRIVATELINK,
                NOT_FOUND,
                NO_ANSWER
            ]
        );
    }

    #[test]
    fn a_public_workspace_with_public_answers_is_clean() {
        let o = [seen(
            EP,
            "system",
            answer(&["x.cloudapp.net"], &["20.50.1.2"]),
        )];
        assert!(findings(&o, &Expectations::default()).is_empty());
    }

    #[test]
    fn the_zones_records_are_the_expected_addresses() {
        let expect = Expectations {
            endpoint_addresses: BTreeMap::from([(
                HostRole::Scoring,
                vec!["10.0.1.5".parse().unwrap()],
            )]),
            ..Expectations::default()
        };
        let o = [seen(EP, "system", answer(&[], &["10.0.9.9"]))];
        assert_eq!(ids(&findings(&o, &expect)), [OUTSIDE_EXPECTED]);
    }
}
