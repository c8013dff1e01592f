//! Cancelling a running computation (Ctrl-C in the REPL).
//!
//! A front end calls [`request`] (from a signal handler: it only stores an
//! atomic flag); the engines call [`check`] between steps of their work
//! (each subformula evaluated, each fixpoint round of C, each world of a
//! product update) and give up with [`EngineError::Interrupted`]. The
//! statement then fails like any other, so the session stays as it was
//! before it. One step that is already running (a single BDD operation,
//! say) finishes first.

use std::sync::atomic::{AtomicBool, Ordering};

use super::EngineError;

static REQUESTED: AtomicBool = AtomicBool::new(false);

/// Asks the running computation to stop (async-signal-safe).
pub fn request() {
    REQUESTED.store(true, Ordering::Relaxed);
}

/// Forgets an earlier request (before a new statement starts).
pub fn clear() {
    REQUESTED.store(false, Ordering::Relaxed);
}

/// Whether a stop was asked for.
pub fn requested() -> bool {
    REQUESTED.load(Ordering::Relaxed)
}

/// `Err(Interrupted)` once a stop was asked for.
pub fn check() -> Result<(), EngineError> {
    if requested() {
        Err(EngineError::Interrupted)
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_stops_the_next_check_until_cleared() {
        clear();
        assert_eq!(check(), Ok(()));
        request();
        assert_eq!(check(), Err(EngineError::Interrupted));
        clear();
        assert_eq!(check(), Ok(()));
    }
}
