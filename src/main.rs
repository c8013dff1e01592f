//! The `dealer` command.

fn main() -> std::process::ExitCode {
    dealer::cli::main()
}
