//! Loopback ports for the tests' own receivers that no other program is handed meanwhile.

use std::net::{TcpListener, UdpSocket};
use std::sync::atomic::{AtomicU32, Ordering};

/// A loopback port free now for UDP and TCP, for a receiver the test starts next (a child that
/// binds it itself, so the test cannot hold it). It lies below the kernel's ephemeral range,
/// which `bind(0)` anywhere on the machine draws from, so no other program is given it before
/// the receiver binds it (a port from `bind(0)` and released could be); ports are spread by
/// process and call, so test binaries side by side try different ones, and a port taken now
/// is passed over.
pub fn free_port() -> u16 {
    static CALLS: AtomicU32 = AtomicU32::new(0);
    let ephemeral_low = std::fs::read_to_string("/proc/sys/net/ipv4/ip_local_port_range")
        .ok()
        .and_then(|range| range.split_whitespace().next()?.parse::<u32>().ok())
        .unwrap_or(32768);
    let span = 8000.min(ephemeral_low.saturating_sub(2048)).max(1);
    let start = std::process::id().wrapping_mul(7919);
    for _ in 0..1000 {
        let call = CALLS.fetch_add(1, Ordering::Relaxed);
        let port = (ephemeral_low - span + start.wrapping_add(call.wrapping_mul(104_729)) % span) as u16;
        if UdpSocket::bind(("127.0.0.1", port)).is_ok() && TcpListener::bind(("127.0.0.1", port)).is_ok() {
            return port;
        }
    }
    panic!("no free loopback port below {ephemeral_low} after 1000 tries");
}

/// Waits until some socket on this machine is bound to UDP `port` (the receiver a test started
/// listens), as the kernel lists them in /proc/net/udp and udp6; panics after `limit`.
pub fn wait_until_udp_bound(port: u16, limit: std::time::Duration) {
    let started = std::time::Instant::now();
    let hex = format!(":{port:04X} ");
    let bound = || {
        ["/proc/net/udp", "/proc/net/udp6"].iter().any(|table| {
            let text = std::fs::read_to_string(table).unwrap_or_default();
            // "  sl  local_address rem_address ...": the local address is the second column.
            text.lines().skip(1).any(|line| {
                line.split_whitespace().nth(1).is_some_and(|local| format!("{local} ").ends_with(&hex))
            })
        })
    };
    while !bound() {
        assert!(started.elapsed() < limit, "nothing listened on UDP port {port} within {limit:?}");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}
