//! `dealer serve` under load on the loopback interface: 50 clients
//! stepping, asking with `why`, drawing figures and stepping back for a few
//! seconds get no error, and the process's memory stays bounded. (The
//! measurement, 30 seconds in release, is `examples/web_load.rs`; its
//! numbers are in docs/web.md.) A test binary of its own: it measures the
//! whole process's memory.

use std::time::Duration;

#[path = "it/common/load.rs"]
mod load;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fifty_clients_on_loopback_get_no_error_and_memory_stays_bounded() {
    let port = load::serve().await;
    let r = load::run(port, 50, Duration::from_secs(5)).await;
    assert_eq!(r.errors, 0);
    // Every client made its whole round of four requests at least once.
    assert!(r.latencies.len() >= 200, "{} requests", r.latencies.len());
    if let Some(peak) = load::peak_mib() {
        assert!(peak < 1024.0, "peak memory {peak:.0} MiB");
    }
}
