//! Ctrl-C in the REPL: the signal asks the engine to stop, the running
//! statement fails with "interrupted", and the session is exactly as it was
//! before it. (A test binary of its own: the request is process-wide.)

mod common;

use common::assert_unchanged;
use dealer::engine::cancel;
use dealer::interp::{Options, Session};
use dealer::syntax;

/// One test (the request is process-wide, tests run in parallel).
#[test]
fn an_interrupted_statement_changes_nothing_and_the_next_one_runs() {
    sigint_requests_a_stop_instead_of_ending_the_process();
    let src = "players 1 2 3\ndeck Q*2 A*2 K*2\ndeal 1: Q A | 2: K Q | 3: K A\n\
               ? hand1(Q)\nannounce hand1(Q)\n? K2 hand1(Q)\nshow 1 -> 2 A\n";
    let scenario = syntax::parse(src).unwrap();
    let s = &scenario.statements;
    let mut session = Session::new(Options::default());
    for stmt in &s[..4] {
        session.execute(stmt, src).unwrap();
    }
    for stmt in &s[4..] {
        // A request (as the SIGINT handler makes) stops the statement...
        let before = session.clone();
        cancel::request();
        let e = session.execute(stmt, src).expect_err("interrupted");
        assert!(e.message.contains("interrupted"), "{}", e.message);
        assert_unchanged(&before, &session);
        // ... and once cleared (the next prompt), the same statement runs.
        cancel::clear();
        session.execute(stmt, src).unwrap();
    }
}

#[cfg(unix)]
fn sigint_requests_a_stop_instead_of_ending_the_process() {
    cancel::clear();
    dealer::repl::interrupt::install();
    // SAFETY: raising a signal whose handler only stores a flag.
    unsafe {
        libc::raise(libc::SIGINT);
    }
    assert!(cancel::requested(), "the handler ran");
    cancel::clear();
}

#[cfg(not(unix))]
fn sigint_requests_a_stop_instead_of_ending_the_process() {}
