//! Ctrl-C in the REPL: the signal cancels the token of the REPL's thread,
//! the running statement fails with "interrupted", and the session is
//! exactly as it was before it. (A test binary of its own: the signal's
//! handler is the process's.)

#[path = "it/common/mod.rs"]
mod common;

use common::assert_unchanged;
use dealer::engine::cancel;
use dealer::interp::{Options, Output, Session};
use dealer::repl::{Item, Repl};
use dealer::syntax;

/// One test (the signal's handler is the process's, tests run in parallel).
#[test]
fn an_interrupted_statement_changes_nothing_and_the_next_one_runs() {
    sigint_requests_a_stop_instead_of_ending_the_process();
    let token = cancel::Token::new(None);
    cancel::adopt(token.clone());
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
        token.cancel();
        let e = session.execute(stmt, src).expect_err("interrupted");
        assert!(e.message.contains("interrupted"), "{}", e.message);
        assert_unchanged(&before, &session);
        // ... and once cleared (the next prompt), the same statement runs.
        cancel::clear();
        session.execute(stmt, src).unwrap();
    }
    an_interrupted_load_stops_there_and_keeps_what_ran();
}

/// Ctrl-C while the REPL loads a file (its first argument, or `-` for
/// standard input): the running statement fails with "interrupted", the
/// load stops there with the statements before it played, and the prompt
/// goes on from that statement.
fn an_interrupted_load_stops_there_and_keeps_what_ran() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.deal");
    let src = "players 1 2 3\ndeck Q*2 A*2 K*2\ndeal 1: Q A | 2: K Q | 3: K A\n\
               ? hand1(Q)\nannounce hand1(Q)\nexpect K2 hand1(Q)\nshow 1 -> 2 A\n";
    std::fs::write(&file, src).unwrap();
    let mut repl = Repl::new(Options::default());
    cancel::adopt(cancel::Token::new(None));
    let token = cancel::Token::new(None);
    token.cancel();
    let items = cancel::with_token(&token, || repl.load(&file.display().to_string()));
    cancel::clear();
    let errors: Vec<(&str, usize)> = items
        .iter()
        .filter_map(|i| match i {
            Item::Error { diag, .. } => Some((diag.message.as_str(), diag.span.start)),
            _ => None,
        })
        .collect();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].0.contains("interrupted"), "{errors:?}");
    // The first statement that asks the engine to decide something (the
    // query after the deal) was interrupted; nothing after it ran.
    let query = src.find("? hand1(Q)").unwrap();
    assert!(
        (query..src.find("announce").unwrap()).contains(&errors[0].1),
        "{errors:?}"
    );
    let answers = |items: &[Item]| -> Vec<bool> {
        items
            .iter()
            .filter_map(|i| match i {
                Item::Output {
                    out: Output::Answer { value, .. },
                    ..
                } => Some(*value),
                _ => None,
            })
            .collect()
    };
    assert!(answers(&items).is_empty());
    // The prompt goes on from the interrupted statement, with the deal
    // kept (it is not played again): the next step asks, announces and
    // expects.
    let items = repl.eval(":next");
    assert!(
        !items.iter().any(|i| matches!(i, Item::Error { .. })),
        "{:?}",
        items.len()
    );
    assert_eq!(answers(&items), vec![true]);
    assert_eq!(answers(&repl.eval("? K2 hand1(Q)")), vec![true]);
}

#[cfg(unix)]
fn sigint_requests_a_stop_instead_of_ending_the_process() {
    assert!(!cancel::requested(), "no job, no request");
    dealer::repl::interrupt::install();
    assert!(!cancel::requested());
    // SAFETY: raising a signal whose handler only stores a flag.
    unsafe {
        libc::raise(libc::SIGINT);
    }
    assert!(cancel::requested(), "the handler ran");
    cancel::clear();
    assert!(!cancel::requested(), "re-armed for the next statement");
    // Another thread runs no job of the REPL's: the signal stops nothing there.
    unsafe {
        libc::raise(libc::SIGINT);
    }
    assert!(!std::thread::spawn(cancel::requested).join().unwrap());
    assert!(cancel::requested());
    cancel::clear();
}

#[cfg(not(unix))]
fn sigint_requests_a_stop_instead_of_ending_the_process() {}
