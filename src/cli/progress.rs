//! A spinner on stderr, on a terminal only, for statements that take more
//! than a second (building a large model, an update of a million worlds).
//!
//! One background thread per replay waits on a channel: when a statement
//! starts it gets its label, and shows the spinner if the statement has not
//! finished a second later. Piped output gets no thread and no spinner. The
//! engine and the interpreter never print; only this front end does.

use std::io::IsTerminal;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

/// How long a statement runs before the spinner appears.
const DELAY: Duration = Duration::from_secs(1);

/// What the front end tells the spinner's thread.
enum Signal {
    /// A statement started.
    Start(String),
    /// The statement finished.
    Stop,
}

/// The spinner's thread, or nothing when stderr is not a terminal.
pub struct Progress {
    worker: Option<(Sender<Signal>, JoinHandle<()>)>,
}

impl Progress {
    /// A spinner for this replay (inactive unless stderr is a terminal).
    pub fn new() -> Progress {
        if !std::io::stderr().is_terminal() {
            return Progress { worker: None };
        }
        let (tx, rx) = mpsc::channel();
        let handle = thread::spawn(move || watch(&rx));
        Progress {
            worker: Some((tx, handle)),
        }
    }

    /// Runs `f`, showing `label` with a spinner if it takes over a second.
    pub fn around<T>(&self, label: impl FnOnce() -> String, f: impl FnOnce() -> T) -> T {
        let Some((tx, _)) = &self.worker else {
            return f();
        };
        let _ = tx.send(Signal::Start(label()));
        let out = f();
        let _ = tx.send(Signal::Stop);
        out
    }
}

impl Default for Progress {
    fn default() -> Progress {
        Progress::new()
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Some((tx, handle)) = self.worker.take() {
            drop(tx);
            let _ = handle.join();
        }
    }
}

/// The thread: for each statement, wait a second, then spin until it stops.
fn watch(rx: &Receiver<Signal>) {
    while let Ok(signal) = rx.recv() {
        let Signal::Start(label) = signal else {
            continue;
        };
        match rx.recv_timeout(DELAY) {
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => return,
            Ok(_) => continue,
        }
        let bar = ProgressBar::new_spinner();
        if let Ok(style) = ProgressStyle::with_template("{spinner} {msg} ({elapsed})") {
            bar.set_style(style);
        }
        bar.set_message(label);
        bar.enable_steady_tick(Duration::from_millis(100));
        let stopped = rx.recv();
        bar.finish_and_clear();
        if stopped.is_err() {
            return;
        }
    }
}
