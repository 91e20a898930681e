//! Real DNS servers on 127.0.0.1 for the `check dns` tests: an authoritative
//! hickory-server with the zones a test gives, and a socket that never answers.

use std::net::{Ipv4Addr, SocketAddr, UdpSocket};
use std::str::FromStr;
use std::sync::Arc;

use hickory_server::Server;
use hickory_server::proto::rr::rdata::{A, CNAME, SOA};
use hickory_server::proto::rr::{Name, RData, Record};
use hickory_server::store::in_memory::InMemoryZoneHandler;
use hickory_server::zone_handler::{AxfrPolicy, Catalog, ZoneHandler, ZoneType};

/// A record of a test zone.
pub(crate) enum Rec {
    A(&'static str, [u8; 4]),
    Cname(&'static str, &'static str),
}

fn name(s: &str) -> Name {
    Name::from_str(s).unwrap()
}

fn zone(origin: &str, records: &[Rec]) -> InMemoryZoneHandler {
    let origin = name(origin);
    let mut z = InMemoryZoneHandler::empty(origin.clone(), ZoneType::Primary, AxfrPolicy::Deny);
    let soa = SOA::new(
        name("ns.test."),
        name("admin.test."),
        1,
        3600,
        600,
        86_400,
        60,
    );
    z.upsert_mut(Record::from_rdata(origin, 3600, RData::SOA(soa)), 1);
    for r in records {
        let record = match r {
            Rec::A(host, ip) => {
                Record::from_rdata(name(host), 60, RData::A(A(Ipv4Addr::from(*ip))))
            }
            Rec::Cname(host, target) => {
                Record::from_rdata(name(host), 60, RData::CNAME(CNAME(name(target))))
            }
        };
        z.upsert_mut(record, 1);
    }
    z
}

/// Starts an authoritative server for `zones` (origin, records) on 127.0.0.1; it runs
/// until the test process ends.
pub(crate) fn start(zones: Vec<(&'static str, Vec<Rec>)>) -> SocketAddr {
    let socket = UdpSocket::bind("127.0.0.1:0").unwrap();
    socket.set_nonblocking(true).unwrap();
    let addr = socket.local_addr().unwrap();
    let mut catalog = Catalog::new();
    for (origin, records) in &zones {
        let handler: Arc<dyn ZoneHandler> = Arc::new(zone(origin, records));
        catalog.upsert(name(origin).into(), vec![handler]);
    }
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move {
            let mut server = Server::new(catalog);
            server.register_socket(tokio::net::UdpSocket::from_std(socket).unwrap());
            std::future::pending::<()>().await;
        });
    });
    addr
}

/// A UDP socket on 127.0.0.1 that receives queries and never answers. The socket is
/// leaked so it stays bound for the rest of the test run.
pub(crate) fn silent() -> SocketAddr {
    let socket = UdpSocket::bind("127.0.0.1:0").unwrap();
    let addr = socket.local_addr().unwrap();
    std::mem::forget(socket);
    addr
}

/// A server with no zones: it refuses every name at once. Every sandboxed run uses it
/// as its system resolver.
pub(crate) fn refusing() -> SocketAddr {
    static ADDR: std::sync::OnceLock<SocketAddr> = std::sync::OnceLock::new();
    *ADDR.get_or_init(|| start(Vec::new()))
}
