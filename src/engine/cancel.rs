//! Cancelling a running computation: Ctrl-C in the REPL, or a web
//! request past its time limit.
//!
//! Two ways to ask: a front end calls [`request`] (from a signal handler:
//! it only stores an atomic flag), which stops whatever runs in the
//! process; or it runs one job under a [`Token`] ([`with_token`]), which
//! stops only that job: when the token is cancelled ([`Token::cancel`]) or
//! its deadline passes. The engines call [`check`] between steps of their
//! work (each subformula evaluated, each fixpoint round of C, each world
//! of a product update) and give up with [`EngineError::Interrupted`]. The
//! statement then fails like any other, so the session stays as it was
//! before it. One step that is already running (a single BDD operation,
//! say) finishes first.
//!
//! A token belongs to the thread that runs the job: the engines read it
//! from a thread-local, so two jobs on two threads (two web sessions) are
//! stopped independently.

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

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

/// Whether a stop was asked for, of the whole process or of the job this
/// thread runs.
pub fn requested() -> bool {
    REQUESTED.load(Ordering::Relaxed)
        || CURRENT.with(|c| c.borrow().as_ref().is_some_and(Token::is_cancelled))
}

/// `Err(Interrupted)` once a stop was asked for.
pub fn check() -> Result<(), EngineError> {
    if requested() {
        Err(EngineError::Interrupted)
    } else {
        Ok(())
    }
}

/// The stop request of one job (a web request): cancelled by whoever
/// waits for the job, or by itself once its deadline passes. Clones share
/// the request.
#[derive(Clone, Debug)]
pub struct Token {
    stop: Arc<AtomicBool>,
    deadline: Option<Instant>,
}

impl Token {
    /// A token that stops at `deadline` (never, when `None`) or when cancelled.
    pub fn new(deadline: Option<Instant>) -> Token {
        Token {
            stop: Arc::new(AtomicBool::new(false)),
            deadline,
        }
    }

    /// Asks the job to stop.
    pub fn cancel(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Whether the job was asked to stop or ran past its deadline.
    pub fn is_cancelled(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

thread_local! {
    static CURRENT: RefCell<Option<Token>> = const { RefCell::new(None) };
}

/// Runs `f` on this thread under `token`: the engines' [`check`]s inside
/// `f` fail once the token is cancelled. The thread's earlier token comes
/// back afterwards (also when `f` panics).
pub fn with_token<T>(token: &Token, f: impl FnOnce() -> T) -> T {
    struct Restore(Option<Token>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let old = self.0.take();
            CURRENT.with(|c| *c.borrow_mut() = old);
        }
    }
    let old = CURRENT.with(|c| c.borrow_mut().replace(token.clone()));
    let _restore = Restore(old);
    f()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_request_stops_the_next_check_until_cleared() {
        clear();
        assert_eq!(check(), Ok(()));
        request();
        assert_eq!(check(), Err(EngineError::Interrupted));
        clear();
        assert_eq!(check(), Ok(()));
    }

    #[test]
    fn a_token_stops_only_its_own_job() {
        let token = Token::new(None);
        let other = Token::new(None);
        with_token(&token, || {
            assert_eq!(check(), Ok(()));
            token.cancel();
            assert_eq!(check(), Err(EngineError::Interrupted));
            // Another thread's job goes on.
            std::thread::scope(|s| {
                s.spawn(|| with_token(&other, || assert_eq!(check(), Ok(()))));
            });
        });
        // Outside the job, nothing is asked to stop.
        assert!(!CURRENT.with(|c| c.borrow().is_some()));
    }

    #[test]
    fn a_token_stops_at_its_deadline() {
        let token = Token::new(Some(Instant::now() + Duration::from_millis(30)));
        with_token(&token, || {
            assert_eq!(check(), Ok(()));
            std::thread::sleep(Duration::from_millis(40));
            assert_eq!(check(), Err(EngineError::Interrupted));
        });
    }
}
