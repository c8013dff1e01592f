//! The load of many lecture-view clients against `dealer serve` on the
//! loopback interface, shared by `examples/web_load.rs` (the measurement)
//! and `tests/web_load.rs` (no error, bounded memory). Each client loads
//! Go Fish's simplified scenario and then, over one keep-alive HTTP/1.1
//! connection, steps, asks `K1 2_A` with `why`, draws the figure and steps
//! back, in turn, until the time is up.
#![allow(dead_code)]

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
pub fn peak_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

/// What the clients saw.
pub struct Report {
    /// Every request's time, sorted.
    pub latencies: Vec<Duration>,
    /// Answers other than 200.
    pub errors: usize,
    /// How long the clients ran.
    pub took: Duration,
}

impl Report {
    /// The `p`-th fraction of the latencies, in milliseconds.
    pub fn percentile(&self, p: f64) -> f64 {
        let n = self.latencies.len();
        if n == 0 {
            return 0.0;
        }
        self.latencies[((n as f64 - 1.0) * p) as usize].as_secs_f64() * 1000.0
    }
}

/// Serves `dealer serve`'s router on a free loopback port; the port.
pub async fn serve() -> u16 {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let app = dealer::web::router(root, Duration::from_secs(20));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    port
}

/// Runs `clients` clients against `port` for `time`.
pub async fn run(port: u16, clients: usize, time: Duration) -> Report {
    let until = Instant::now() + time;
    let started = Instant::now();
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
                    // Every request of the mix is answered 200: stepping
                    // and going back stay within the scenario.
                    if s != 200 {
                        errors += 1;
                    }
                    i += 1;
                }
                (latencies, errors)
            })
        })
        .collect();
    let mut latencies = Vec::new();
    let mut errors = 0;
    for t in tasks {
        let (l, e) = t.await.unwrap();
        latencies.extend(l);
        errors += e;
    }
    latencies.sort();
    Report {
        latencies,
        errors,
        took: started.elapsed(),
    }
}
