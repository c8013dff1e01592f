//! A load test of `dealer serve` on the loopback interface: N clients
//! (50 by default) each load Go Fish's simplified scenario and, for S
//! seconds (30 by default), step forward, ask `K1 2_A` with its `why`,
//! draw the figure and step back, over keep-alive HTTP/1.1 connections.
//! It prints the requests per second, the errors (there must be none),
//! latency percentiles and the process's peak memory (server and clients
//! share the process; the clients hold a few kilobytes each).
//!
//! ```text
//! cargo run --release --example web_load -- [CLIENTS] [SECONDS]
//! ```

use std::time::{Duration, Instant};

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

/// One keep-alive connection.
struct Conn {
    stream: BufReader<TcpStream>,
}

impl Conn {
    async fn open(port: u16) -> Conn {
        let stream = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
        stream.set_nodelay(true).unwrap();
        Conn {
            stream: BufReader::new(stream),
        }
    }

    /// One request; the status and the body.
    async fn call(&mut self, method: &str, path: &str, body: &str) -> (u16, String) {
        let req = format!(
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\n\r\n{body}",
            body.len()
        );
        self.stream
            .get_mut()
            .write_all(req.as_bytes())
            .await
            .unwrap();
        let mut status_line = String::new();
        self.stream.read_line(&mut status_line).await.unwrap();
        let status: u16 = status_line
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        let mut length = 0usize;
        loop {
            let mut line = String::new();
            self.stream.read_line(&mut line).await.unwrap();
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some((k, v)) = line.split_once(':') {
                if k.eq_ignore_ascii_case("content-length") {
                    length = v.trim().parse().unwrap_or(0);
                }
            }
        }
        let mut buf = vec![0; length];
        self.stream.read_exact(&mut buf).await.unwrap();
        (status, String::from_utf8_lossy(&buf).into_owned())
    }
}

/// The process's peak resident memory in MiB (Linux), if known.
fn peak_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let clients: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(50);
    let seconds: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(30);
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let app = dealer::web::router(root, Duration::from_secs(20));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });

    let before = peak_mib();
    let until = Instant::now() + Duration::from_secs(seconds);
    let tasks: Vec<_> = (0..clients)
        .map(|_| {
            tokio::spawn(async move {
                let mut conn = Conn::open(port).await;
                let mut latencies = Vec::new();
                let mut errors = 0usize;
                let (s, body) = conn
                    .call(
                        "POST",
                        "/api/sessions",
                        r#"{"path":"gofish/simplified.deal"}"#,
                    )
                    .await;
                if s != 200 {
                    return (latencies, 1);
                }
                let v: serde_json::Value = serde_json::from_str(&body).unwrap();
                let id = v["id"].as_str().unwrap().to_string();
                let steps = [
                    ("POST", format!("/api/sessions/{id}/step"), "{}"),
                    (
                        "POST",
                        format!("/api/sessions/{id}/query"),
                        r#"{"q":"K1 2_A"}"#,
                    ),
                    ("GET", format!("/api/sessions/{id}/figure?format=dot"), ""),
                    ("POST", format!("/api/sessions/{id}/back"), r#"{"n":1}"#),
                ];
                let mut i = 0;
                while Instant::now() < until {
                    let (method, path, body) = &steps[i % steps.len()];
                    let t = Instant::now();
                    let (s, _) = conn.call(method, path, body).await;
                    latencies.push(t.elapsed());
                    // Stepping past the end and back before the start are
                    // answered with the state as it is, so every answer is 200.
                    if s != 200 {
                        errors += 1;
                    }
                    i += 1;
                }
                (latencies, errors)
            })
        })
        .collect();
    let started = Instant::now();
    let mut all = Vec::new();
    let mut errors = 0;
    for t in tasks {
        let (l, e) = t.await.unwrap();
        all.extend(l);
        errors += e;
    }
    let took = started.elapsed().as_secs_f64();
    all.sort();
    let pct = |p: f64| -> f64 {
        all.get(((all.len() as f64 - 1.0) * p) as usize)
            .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
    };
    println!(
        "{clients} clients, {seconds} s: {} requests, {:.0} requests/s, {errors} error(s)",
        all.len(),
        all.len() as f64 / took
    );
    println!(
        "latency: median {:.1} ms, 95% {:.1} ms, 99% {:.1} ms, worst {:.1} ms",
        pct(0.5),
        pct(0.95),
        pct(0.99),
        pct(1.0)
    );
    if let (Some(b), Some(a)) = (before, peak_mib()) {
        println!("peak memory: {a:.0} MiB (before the clients: {b:.0} MiB)");
    }
    if errors > 0 {
        std::process::exit(1);
    }
}
