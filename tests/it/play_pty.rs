//! `dealer play --me` in a pseudo-terminal, as a person sees it: the line
//! editor completes a move with Tab, an illegal move is refused with the
//! rule quoted and nothing changes. The terminal comes from `script`
//! (util-linux); without it the test says so and passes.

use std::io::{Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A program running in a pseudo-terminal, with everything it printed.
struct Pty {
    child: Child,
    keys: ChildStdin,
    screen: Arc<Mutex<String>>,
}

impl Pty {
    /// Runs `command` (a shell line) under `script`; `None` when there is
    /// no `script` to make a terminal.
    fn spawn(command: &str) -> Option<Pty> {
        let usable = Command::new("script")
            .args(["-q", "-e", "-c", "true", "/dev/null"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !usable {
            return None;
        }
        let mut child = Command::new("script")
            .args(["-q", "-e", "-c", command, "/dev/null"])
            .env("NO_COLOR", "1")
            .env("TERM", "xterm")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .ok()?;
        let keys = child.stdin.take()?;
        let mut out = child.stdout.take()?;
        let screen = Arc::new(Mutex::new(String::new()));
        let sink = Arc::clone(&screen);
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = out.read(&mut buf) {
                if n == 0 {
                    break;
                }
                let text = String::from_utf8_lossy(&buf[..n]).to_string();
                sink.lock().expect("screen").push_str(&text);
            }
        });
        Some(Pty {
            child,
            keys,
            screen,
        })
    }

    /// Everything printed so far, without the terminal's escape sequences.
    fn text(&self) -> String {
        plain(&self.screen.lock().expect("screen"))
    }

    /// Waits until the screen shows `needle` `times` times in all.
    fn wait_for(&self, needle: &str, times: usize) {
        let start = Instant::now();
        while self.text().matches(needle).count() < times {
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "no `{needle}` (x{times}) on the screen:\n{}",
                self.text()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Types keys.
    fn send(&mut self, keys: &str) {
        self.keys.write_all(keys.as_bytes()).expect("typed");
        self.keys.flush().expect("flushed");
    }
}

impl Drop for Pty {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Text without ANSI escape sequences and carriage returns.
fn plain(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\u{1b}' => {
                if chars.peek() == Some(&'[') {
                    chars.next();
                    // Parameters, then one final byte in @..~.
                    for d in chars.by_ref() {
                        if ('@'..='~').contains(&d) {
                            break;
                        }
                    }
                }
            }
            '\r' | '\u{7}' => {}
            c => out.push(c),
        }
    }
    out
}

#[test]
fn a_person_completes_a_move_with_tab_and_an_illegal_move_is_refused() {
    let bin = env!("CARGO_BIN_EXE_dealer");
    let command = format!("{bin} play gofish --size small --seed 3 --me 1 --agents random,random");
    let pty = Pty::spawn(&command);
    if !crate::common::tool(pty.is_some(), "a pseudo-terminal (`script` of util-linux)") {
        return;
    }
    let mut pty = pty.unwrap();
    // The screen: your hand, the others' card counts, the stock, a prompt.
    pty.wait_for("player 1> ", 1);
    let first = pty.text();
    for shown in [
        "turn 1: your move (player 1)",
        "your hand     QH QD",
        "player 2      2 card(s)",
        "stock         3 card(s), face down",
    ] {
        assert!(first.contains(shown), "no `{shown}`:\n{first}");
    }
    // Tab completes the only legal rank: the person holds only queens.
    pty.send("ask 1 3 \t");
    pty.wait_for("player 1> ask 1 3 Q", 1);
    pty.send("\r");
    pty.wait_for("player 1 lays down the book of Q", 1);
    pty.wait_for("player 1> ", 2);
    // After the ask player 1 must draw first (an empty hand): an ask is
    // refused with the rule, and the same moves are still offered.
    pty.send("ask 1 2 K\r");
    pty.wait_for("your moves now: draw 1", 1);
    pty.wait_for("player 1> ", 3);
    let screen = pty.text();
    assert!(
        screen.contains("error[draw-pending]: ask 1 2 K: Go Fish: player 1 must draw first"),
        "{screen}"
    );
    assert!(screen.contains("books1        QS QH QD"), "{screen}");
    assert!(
        !screen.contains("turn 3"),
        "the refused move changed the game:\n{screen}"
    );
    pty.send("quit\r");
    let start = Instant::now();
    while pty.child.try_wait().expect("status").is_none() {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "quit did not end the game"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}
