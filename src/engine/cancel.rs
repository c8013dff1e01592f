//! Cancelling a running computation: Ctrl-C in the REPL or a quiz, a web
//! request past its time limit, or the web page's Cancel.
//!
//! Every front-end job owns a [`Token`], its stop request, and runs under
//! it: a web request's job by [`with_token`] (its time limit and the
//! session's Cancel cancel it), the REPL's and the quiz's thread under the
//! token [`adopt`] made current, which Ctrl-C cancels
//! ([`Token::cancel_on_interrupt`]) and which is re-armed ([`clear`])
//! before each statement. The engines call [`check`] between steps of
//! their work (each subformula evaluated, each fixpoint round of C, each
//! world of a product update) and give up with
//! [`EngineError::Interrupted`] once the token of the job they run for is
//! cancelled. The statement then fails like any other, so the session
//! stays as it was before it. One step that is already running (a single
//! BDD operation, say) finishes first.
//!
//! There is no process-wide request: the engines find the job's token in
//! the thread that runs the job (the thread-local the front end set), so
//! two jobs on two threads (two web sessions) are stopped independently,
//! and a thread that runs no job is never stopped.

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use super::EngineError;

/// Whether the job this thread runs was asked to stop (its token
/// cancelled or past its deadline); never, when it runs under no token.
pub fn requested() -> bool {
    CURRENT.with(|c| c.borrow().as_ref().is_some_and(Token::is_cancelled))
}

/// Forgets an earlier request of the job this thread runs (its token
/// re-armed): the REPL and the quiz call it before each statement.
pub fn clear() {
    CURRENT.with(|c| {
        if let Some(token) = c.borrow().as_ref() {
            token.stop.store(false, Ordering::Relaxed);
        }
    });
}

/// `Err(Interrupted)` once the job this thread runs was asked to stop.
pub fn check() -> Result<(), EngineError> {
    if requested() {
        Err(EngineError::Interrupted)
    } else {
        Ok(())
    }
}

/// The stop request of one job (a web request, a REPL's statements):
/// cancelled by whoever waits for the job, by Ctrl-C when asked
/// ([`Token::cancel_on_interrupt`]), or by itself once its deadline
/// passes. Clones share the request.
#[derive(Clone, Debug)]
pub struct Token {
    stop: Arc<AtomicBool>,
    deadline: Option<Instant>,
    /// Ctrl-C's registration, undone when the last clone is dropped.
    interrupt: Option<Arc<Interrupt>>,
}

/// Ctrl-C (SIGINT) setting a token's flag, for as long as it lives.
#[derive(Debug)]
struct Interrupt {
    #[cfg(unix)]
    id: signal_hook::SigId,
}

impl Drop for Interrupt {
    fn drop(&mut self) {
        #[cfg(unix)]
        signal_hook::low_level::unregister(self.id);
    }
}

impl Token {
    /// A token that stops at `deadline` (never, when `None`) or when cancelled.
    pub fn new(deadline: Option<Instant>) -> Token {
        Token {
            stop: Arc::new(AtomicBool::new(false)),
            deadline,
            interrupt: None,
        }
    }

    /// This token, cancelled also by Ctrl-C (SIGINT) from now on, for as
    /// long as it or a clone lives; then Ctrl-C no longer ends the
    /// process. On Unix; elsewhere Ctrl-C keeps its default, and so it
    /// does when the handler cannot be installed.
    pub fn cancel_on_interrupt(mut self) -> Token {
        #[cfg(unix)]
        {
            // The handler only stores into the flag: async-signal-safe.
            if let Ok(id) = signal_hook::flag::register(libc::SIGINT, self.stop.clone()) {
                self.interrupt = Some(Arc::new(Interrupt { id }));
            }
        }
        self
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
    /// The token of the job this thread runs, set by the front end
    /// ([`with_token`], [`adopt`]).
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

/// Makes `token` the job of this thread from now on, in place of the one
/// it had (a front end whose thread runs one job for its whole life: the
/// REPL, the quiz).
pub fn adopt(token: Token) {
    CURRENT.with(|c| *c.borrow_mut() = Some(token));
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_request_stops_the_next_check_until_cleared() {
        // A thread of its own: `adopt` keeps the token for the thread's life.
        std::thread::spawn(|| {
            // Under no token, nothing is ever asked to stop.
            clear();
            assert_eq!(check(), Ok(()));
            let token = Token::new(None);
            adopt(token.clone());
            assert_eq!(check(), Ok(()));
            token.cancel();
            assert_eq!(check(), Err(EngineError::Interrupted));
            clear();
            assert_eq!(check(), Ok(()));
            assert!(!token.is_cancelled());
        })
        .join()
        .unwrap();
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
