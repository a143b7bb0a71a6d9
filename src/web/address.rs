//! Where the audience page listens: loopback unless a person names another
//! address. `--web` alone is `127.0.0.1:7420`; `--web 8080` a port on
//! loopback; `--web 0.0.0.0` every interface at the usual port; `--web
//! 192.168.1.20:8080` exactly that.

use std::net::{IpAddr, Ipv4Addr, SocketAddr, UdpSocket};

/// The usual port.
pub const PORT: u16 = 7420;

/// The address `given` names (`None` or empty: loopback at [`PORT`]).
pub fn parse(given: Option<&str>) -> anyhow::Result<SocketAddr> {
    let given = given.map(str::trim).unwrap_or_default();
    if given.is_empty() {
        return Ok(SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), PORT));
    }
    if let Ok(port) = given.parse::<u16>() {
        return Ok(SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), port));
    }
    if let Ok(addr) = given.parse::<SocketAddr>() {
        return Ok(addr);
    }
    let bare = given.strip_prefix('[').and_then(|g| g.strip_suffix(']')).unwrap_or(given);
    if let Ok(ip) = bare.parse::<IpAddr>() {
        return Ok(SocketAddr::new(ip, PORT));
    }
    if given.eq_ignore_ascii_case("localhost") {
        return Ok(SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), PORT));
    }
    anyhow::bail!(
        "{given:?} is not an address to serve the audience page on: give a port (8080), an address \
         (0.0.0.0 for every interface) or both (192.168.1.20:8080)"
    )
}

/// This machine's address on the network the default route leaves by,
/// at `addr`'s port; loopback when there is none. Sends nothing: a UDP
/// socket only picks its source address when connected.
pub fn on_the_network(addr: SocketAddr) -> SocketAddr {
    let local = UdpSocket::bind((Ipv4Addr::UNSPECIFIED, 0))
        .and_then(|socket| socket.connect((Ipv4Addr::new(192, 0, 2, 1), 9)).and_then(|()| socket.local_addr()));
    let ip = local.map(|a| a.ip()).ok().filter(|ip| !ip.is_unspecified()).unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST));
    SocketAddr::new(ip, addr.port())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_unless_told_otherwise() {
        let at = |s: Option<&str>| parse(s).expect("an address").to_string();
        assert_eq!(at(None), "127.0.0.1:7420");
        assert_eq!(at(Some("")), "127.0.0.1:7420");
        assert_eq!(at(Some("8080")), "127.0.0.1:8080");
        assert_eq!(at(Some("0.0.0.0")), "0.0.0.0:7420");
        assert_eq!(at(Some("192.168.1.20:8080")), "192.168.1.20:8080");
        assert_eq!(at(Some("[::1]:9000")), "[::1]:9000");
        assert_eq!(at(Some("::")), "[::]:7420");
        let wrong = parse(Some("my laptop")).expect_err("not an address").to_string();
        assert!(wrong.contains("\"my laptop\" is not an address"), "{wrong}");
    }
}
