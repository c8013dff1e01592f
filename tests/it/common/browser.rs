//! The browser tests' harness: `dealer serve`, chromedriver and headless
//! Chromium started for a test and stopped when it ends, and screenshots
//! saved under `target/screenshots/`. Without `/usr/bin/chromium` and
//! `chromedriver` a test is skipped, unless `DEALER_REQUIRE_TOOLS=1` (as
//! `.ci/run` sets), when it fails.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::ClientBuilder;

/// Debian's Chromium.
pub const CHROMIUM: &str = "/usr/bin/chromium";

/// A child process killed when the test ends, however it ends.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn chromedriver() -> Option<PathBuf> {
    ["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
}

/// Waits until `port` accepts connections.
fn wait_for(port: u16) {
    let start = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "port {port} never opened"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A running server, chromedriver and browser session, all stopped when
/// dropped.
pub struct Browser {
    /// The WebDriver session.
    pub client: fantoccini::Client,
    /// The port `dealer serve` listens on.
    pub web: u16,
    _server: Killed,
    _driver: Killed,
    _profile: tempfile::TempDir,
}

/// Starts `dealer serve`, chromedriver and headless Chromium; `None` (the
/// test is skipped) without a browser, unless `DEALER_REQUIRE_TOOLS=1`.
pub async fn browser() -> Option<Browser> {
    browser_with(&[]).await
}

/// [`browser`], with more Chromium arguments (e.g. the screen's size,
/// `--screen-info={1280x800}`, which full screen takes).
pub async fn browser_with(extra: &[&str]) -> Option<Browser> {
    let driver = chromedriver().filter(|_| Path::new(CHROMIUM).exists());
    if !super::tool(
        driver.is_some(),
        "a browser (install chromium and chromium-driver)",
    ) {
        return None;
    }
    let driver = driver?;
    let web = free_port();
    let server = Killed(
        Command::new(assert_cmd::cargo::cargo_bin("dealer"))
            .args(["serve", "--port", &web.to_string(), "--root"])
            .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let wd = free_port();
    let driver = Killed(
        Command::new(driver)
            .arg(format!("--port={wd}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    wait_for(web);
    wait_for(wd);

    let profile = tempfile::tempdir().unwrap();
    let mut args = vec![
        "--headless".to_string(),
        "--no-sandbox".into(),
        "--disable-gpu".into(),
        "--disable-quic".into(),
        "--no-first-run".into(),
        "--disable-background-networking".into(),
        "--disable-component-update".into(),
        "--disable-sync".into(),
        "--window-size=1400,1000".into(),
        format!("--user-data-dir={}", profile.path().display()),
    ];
    args.extend(extra.iter().map(|a| a.to_string()));
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        serde_json::json!({ "binary": CHROMIUM, "args": args }),
    );
    // chromedriver listens on loopback: plain HTTP.
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    let client = ClientBuilder::new(connector)
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{wd}"))
        .await
        .expect("chromedriver starts a session");
    Some(Browser {
        client,
        web,
        _server: server,
        _driver: driver,
        _profile: profile,
    })
}

/// Saves a screenshot under `target/screenshots/`.
pub async fn screenshot(
    client: &fantoccini::Client,
    name: &str,
) -> Result<(), fantoccini::error::CmdError> {
    let png = client.screenshot().await?;
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(name), png).unwrap();
    Ok(())
}

/// The first element matching `css`, waiting up to a minute for it. Unlike
/// fantoccini's own wait, which stops at the first error that is not "no
/// such element", this also waits out the errors a page gives while it is
/// being left for another (a click that navigates from script), so a test
/// run on a loaded machine does not fail between two pages.
pub async fn settled(
    client: &fantoccini::Client,
    css: &str,
) -> Result<fantoccini::elements::Element, fantoccini::error::CmdError> {
    let start = Instant::now();
    loop {
        match client.find(fantoccini::Locator::Css(css)).await {
            Ok(el) => return Ok(el),
            Err(e) if start.elapsed() > Duration::from_secs(60) => return Err(e),
            Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
}

/// Waits until the lecture page is at rest with its figure drawn (no
/// request in flight): `what` names the figure in the failure.
pub async fn figure_at_rest(
    client: &fantoccini::Client,
    what: &str,
) -> Result<serde_json::Value, fantoccini::error::CmdError> {
    until(
        client,
        "const b = document.getElementById('figure-box'); \
         return inFlight === 0 && b.dataset.ready === '1' && !!b.querySelector('svg');",
        what,
    )
    .await
}

/// Waits (at most a minute) until `script` returns something other than
/// null or false.
pub async fn until(
    client: &fantoccini::Client,
    script: &str,
    what: &str,
) -> Result<serde_json::Value, fantoccini::error::CmdError> {
    let start = Instant::now();
    loop {
        let v = client.execute(script, vec![]).await?;
        if !v.is_null() && v != serde_json::json!(false) {
            return Ok(v);
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "waited for {what}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
