//! Ctrl-C while a statement runs: the REPL's SIGINT handler asks the engine
//! to stop ([`crate::engine::cancel`]); the statement fails with
//! "interrupted", leaves the session as it was, and the prompt comes back.
//! While rustyline reads a line, Ctrl-C is a key it handles itself (it
//! cancels the line being typed).

/// Installs the handler (on Unix; elsewhere Ctrl-C keeps its default).
pub fn install() {
    #[cfg(unix)]
    {
        extern "C" fn on_sigint(_: libc::c_int) {
            crate::engine::cancel::request();
        }
        let handler: extern "C" fn(libc::c_int) = on_sigint;
        // SAFETY: the handler only stores an atomic flag, which is
        // async-signal-safe.
        unsafe {
            libc::signal(libc::SIGINT, handler as libc::sighandler_t);
        }
    }
}
