//! Ctrl-C while a statement runs: the REPL's (and the quiz's) thread runs
//! under a cancel token that SIGINT cancels ([`crate::engine::cancel`]);
//! the statement fails with "interrupted", leaves the session as it was,
//! and the prompt comes back (the token is re-armed before the next
//! statement). While rustyline reads a line, Ctrl-C is a key it handles
//! itself (it cancels the line being typed).

use crate::engine::cancel::{self, Token};

/// Makes this thread's job a token that Ctrl-C cancels (on Unix;
/// elsewhere Ctrl-C keeps its default).
pub fn install() {
    cancel::adopt(Token::new(None).cancel_on_interrupt());
}
