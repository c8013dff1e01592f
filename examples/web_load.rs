//! A load test of `dealer serve` on the loopback interface: N clients
//! (50 by default) for S seconds (30 by default), each loading Go Fish's
//! simplified scenario and then stepping, asking `K1 2_A` with its `why`,
//! drawing the figure and stepping back, over keep-alive HTTP/1.1
//! connections (the load itself is `tests/it/common/load.rs`, which
//! `tests/web_load.rs` also runs). It prints the requests per second, the
//! errors (there must be none), latency percentiles and the process's peak
//! memory (server and clients share the process; the clients hold a few
//! kilobytes each).
//!
//! ```text
//! cargo run --release --example web_load -- [CLIENTS] [SECONDS]
//! ```

use std::time::Duration;

#[path = "../tests/it/common/load.rs"]
mod load;

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let clients: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(50);
    let seconds: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(30);
    let port = load::serve().await;
    let before = load::peak_mib();
    let r = load::run(port, clients, Duration::from_secs(seconds)).await;
    println!(
        "{clients} clients, {seconds} s: {} requests, {:.0} requests/s, {} error(s)",
        r.latencies.len(),
        r.latencies.len() as f64 / r.took.as_secs_f64(),
        r.errors
    );
    println!(
        "latency: median {:.1} ms, 95% {:.1} ms, 99% {:.1} ms, worst {:.1} ms",
        r.percentile(0.5),
        r.percentile(0.95),
        r.percentile(0.99),
        r.percentile(1.0)
    );
    if let (Some(b), Some(a)) = (before, load::peak_mib()) {
        println!("peak memory: {a:.0} MiB (before the clients: {b:.0} MiB)");
    }
    if r.errors > 0 {
        std::process::exit(1);
    }
}
