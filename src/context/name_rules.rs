//! Validation of Azure names, so a typo fails before any call with a sentence saying
//! what a valid name looks like.

/// ARM resource group names: 1–90 letters, digits, `_ - . ( )`, not ending in `.`.
pub(crate) fn resource_group(name: &str) -> Result<String, String> {
    let ok = !name.is_empty()
        && name.chars().count() <= 90
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '(' | ')'))
        && !name.ends_with('.');
    if ok {
        Ok(name.to_owned())
    } else {
        Err("expected a resource group name of 1 to 90 letters, digits, '_', '-', '.', '(' or ')', not ending in '.'".to_owned())
    }
}

/// Azure Machine Learning workspace names: 3–33 ASCII letters, digits, `-` or `_`,
/// starting with a letter or digit.
pub(crate) fn workspace(name: &str) -> Result<String, String> {
    let bytes = name.as_bytes();
    let ok = (3..=33).contains(&bytes.len())
        && bytes[0].is_ascii_alphanumeric()
        && bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_'));
    if ok {
        Ok(name.to_owned())
    } else {
        Err("expected a workspace name of 3 to 33 letters, digits, '-' or '_', starting with a letter or digit".to_owned())
    }
}

/// Online endpoint and deployment names: 3–32 ASCII letters, digits or `-`, starting
/// with a letter and not ending with `-`.
pub(crate) fn endpoint(name: &str) -> Result<String, String> {
    let bytes = name.as_bytes();
    let ok = (3..=32).contains(&bytes.len())
        && bytes[0].is_ascii_alphabetic()
        && !name.ends_with('-')
        && bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || *b == b'-');
    if ok {
        Ok(name.to_owned())
    } else {
        Err("expected a name of 3 to 32 letters, digits or '-', starting with a letter and not ending with '-'".to_owned())
    }
}

/// `--host`: a DNS host name (a URL is taken for its host).
pub(crate) fn dns_host(value: &str) -> Result<String, String> {
    if value.trim().parse::<std::net::IpAddr>().is_ok() {
        return Err("an IP address needs no lookup; give the host name the client uses".to_owned());
    }
    let host = if value.contains("://") {
        crate::evidence::dns::url_host(value)
    } else {
        let v = value.trim().trim_end_matches('.');
        crate::evidence::dns::is_host_name(v).then(|| v.to_ascii_lowercase())
    };
    host.ok_or_else(|| {
        "expected a host name such as my-endpoint.eastus.inference.ml.azure.com (letters, digits, '-' and '.')".to_owned()
    })
}

/// `--nameserver`: `IP`, `IP:PORT` or `[IPv6]:PORT`; port 53 when not given.
pub(crate) fn nameserver(value: &str) -> Result<std::net::SocketAddr, String> {
    let v = value.trim();
    if let Ok(addr) = v.parse::<std::net::SocketAddr>() {
        return if addr.port() == 0 {
            Err("port 0 is not a port a DNS server listens on".to_owned())
        } else {
            Ok(addr)
        };
    }
    if let Ok(ip) = v
        .trim_start_matches('[')
        .trim_end_matches(']')
        .parse::<std::net::IpAddr>()
    {
        return Ok(std::net::SocketAddr::new(ip, 53));
    }
    Err(
        "expected an IP address with an optional port: 168.63.129.16, 10.0.0.4:53 or [fd00::1]:53"
            .to_owned(),
    )
}

/// `--expect-cidr`: a range such as `10.0.0.0/16`; a bare address is that address alone.
pub(crate) fn cidr(value: &str) -> Result<ipnet::IpNet, String> {
    let v = value.trim();
    v.parse::<ipnet::IpNet>()
        .or_else(|_| v.parse::<std::net::IpAddr>().map(ipnet::IpNet::from))
        .map(|n| n.trunc())
        .map_err(|_| "expected an address range such as 10.0.0.0/16 or fd00::/8".to_owned())
}

/// Whether `value` is a GUID (`8-4-4-4-12` hex digits), as ARM paths need.
pub(crate) fn is_guid(value: &str) -> bool {
    let parts: Vec<&str> = value.split('-').collect();
    parts.len() == 5
        && parts
            .iter()
            .zip([8, 4, 4, 4, 12])
            .all(|(p, n)| p.len() == n && p.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// A subscription id (GUID) or display name; only emptiness and control characters
/// are rejected here, since names are resolved by Azure.
pub(crate) fn subscription(value: &str) -> Result<String, String> {
    let v = value.trim();
    if v.is_empty() || v.chars().any(char::is_control) {
        Err("expected a subscription id (a GUID) or a subscription name".to_owned())
    } else {
        Ok(v.to_owned())
    }
}

/// An Entra tenant: its id (a GUID) or a domain (`contoso.onmicrosoft.com`). Letters,
/// digits, `-` and `.` only: the az CLI credential passes it to a shell.
pub(crate) fn tenant(value: &str) -> Result<String, String> {
    let v = value.trim();
    let ok = !v.is_empty()
        && v.len() <= 256
        && v.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.');
    if ok {
        Ok(v.to_owned())
    } else {
        Err(
            "expected a tenant id (a GUID) or a tenant domain such as contoso.onmicrosoft.com"
                .to_owned(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tenants_are_ids_or_domains_and_nothing_a_shell_reads() {
        for ok in [
            "72f988bf-86f1-41af-91ab-2d7cd011db47",
            "contoso.onmicrosoft.com",
        ] {
            assert!(tenant(ok).is_ok(), "{ok}");
        }
        for bad in ["", "t; rm -rf /", "t$(id)", "a b"] {
            assert!(tenant(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn resource_groups() {
        for ok in ["rg", "rg-ml_prod.1", "(legacy)", "Prüfung", &"a".repeat(90)] {
            assert!(resource_group(ok).is_ok(), "{ok}");
        }
        for bad in ["", "rg.", "rg/1", "rg 1", &"a".repeat(91)] {
            assert!(resource_group(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn workspaces() {
        for ok in ["ws1", "my-ws_01", &"w".repeat(33)] {
            assert!(workspace(ok).is_ok(), "{ok}");
        }
        for bad in ["ws", "-ws1", "ws.1", "wórk", &"w".repeat(34)] {
            assert!(workspace(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn subscriptions() {
        assert_eq!(
            subscription(" 11111111-2222-3333-4444-555555555555 ").unwrap(),
            "11111111-2222-3333-4444-555555555555"
        );
        assert_eq!(subscription("My Sub").unwrap(), "My Sub");
        assert!(subscription("  ").is_err());
        assert!(subscription("a\tb").is_err());
    }
}
