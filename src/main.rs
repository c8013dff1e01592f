//! The `dealer` command.

fn main() -> std::process::ExitCode {
    restore_sigpipe();
    dealer::cli::main()
}

/// A closed standard output (`dealer run x.deal | head -2`) ends the process
/// quietly, as in every Unix tool: the default action of SIGPIPE, which the
/// Rust runtime replaces by an error that `println!` turns into a panic.
#[cfg(unix)]
fn restore_sigpipe() {
    // SAFETY: setting a signal's disposition to its default at the start of
    // `main`, before any thread is spawned, has no other effect.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[cfg(not(unix))]
fn restore_sigpipe() {}
