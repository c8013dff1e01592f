//! The command-line front end: `dealer run FILE`, `dealer check FILE` and
//! `dealer repl [FILE]` (see [`crate::repl`]).
//! `dealer export FILE --at CHECKPOINT -o OUT` ([`export`]).
//! `dealer bench [FILES...]` ([`bench`]) times scenarios.
//!
//! Only the front ends print. Output is coloured on a terminal and plain when
//! piped or when `NO_COLOR` is set. Exit codes: 0 when every expectation
//! held, 1 when an `expect` failed, 2 on an error (bad input, illegal move).

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use colored::Colorize;

use crate::diag::{line_col, Diagnostic, Severity};
use crate::interp::{Engine, Options, Output, Session};
use crate::syntax;

pub mod bench;
pub mod export;
pub mod progress;

/// dealer: dynamic epistemic logic with card games.
#[derive(Parser, Debug)]
#[command(name = "dealer", version, about)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Replay a scenario, print every query's answer; exit 1 if an expect fails.
    Run {
        /// The scenario (`.deal` file; `-` reads standard input).
        file: PathBuf,
        /// The engine and its budget.
        #[command(flatten)]
        model: ModelArgs,
    },
    /// Step through a scenario interactively, or type statements and queries.
    Repl {
        /// The scenario (`.deal` file) to step through.
        file: Option<PathBuf>,
        /// The engine and its budget.
        #[command(flatten)]
        model: ModelArgs,
    },
    /// Parse a scenario and check its names, without playing it.
    Check {
        /// The scenario (`.deal` file; `-` reads standard input).
        file: PathBuf,
        /// The engine and its budget.
        #[command(flatten)]
        model: ModelArgs,
    },
    /// Draw the model at a checkpoint as a figure (.dot, .svg, .png or .pdf).
    Export(export::ExportArgs),
    /// Time scenarios (default: every file under scenarios/bench/) and print a table.
    Bench(bench::BenchArgs),
}

/// The options every command that builds models takes.
#[derive(Args, Debug, Clone)]
pub struct ModelArgs {
    /// Refuse explicit models with more worlds than this (with `--engine auto`,
    /// larger deals go to the symbolic engine instead).
    #[arg(long, default_value_t = 10_000_000)]
    pub max_worlds: u128,
    /// The engine: explicit Kripke models, symbolic knowledge structures
    /// (BDDs), or auto (explicit up to --max-worlds, symbolic above).
    #[arg(long, value_enum, default_value_t = EngineArg::Auto)]
    pub engine: EngineArg,
}

/// The values of `--engine`.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum EngineArg {
    /// Every world written out.
    Explicit,
    /// Knowledge structures on BDDs.
    Symbolic,
    /// Explicit within the budget, symbolic above it.
    Auto,
}

impl ModelArgs {
    /// The session options these arguments stand for.
    pub fn options(&self, check_only: bool) -> Options {
        Options {
            max_worlds: self.max_worlds,
            check_only,
            engine: match self.engine {
                EngineArg::Explicit => Engine::Explicit,
                EngineArg::Symbolic => Engine::Symbolic,
                EngineArg::Auto => Engine::Auto,
            },
        }
    }
}

/// Parses the arguments and runs the command.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let color = std::io::stdout().is_terminal()
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    colored::control::set_override(color);
    let (file, options) = match cli.command {
        Command::Export(args) => return ExitCode::from(export::run(&args, color)),
        Command::Bench(args) => return ExitCode::from(bench::run(&args)),
        Command::Run { file, model } => (file, model.options(false)),
        Command::Repl { file, model } => return crate::repl::run(file, model.options(false)),
        Command::Check { file, model } => (file, model.options(true)),
    };
    let (name, src) = match read_source(&file) {
        Ok(read) => read,
        Err(e) => {
            eprintln!("{}: {e}", "error".red().bold());
            return ExitCode::from(2);
        }
    };
    let code = replay(&name, &src, options, color);
    ExitCode::from(code)
}

/// The name to show and the text of a scenario file; `-` reads standard
/// input (shown as `<stdin>`).
pub fn read_source(file: &std::path::Path) -> Result<(String, String), String> {
    use std::io::Read;
    if file.as_os_str() == "-" {
        let mut src = String::new();
        return match std::io::stdin().read_to_string(&mut src) {
            Ok(_) => Ok(("<stdin>".into(), src)),
            Err(e) => Err(format!("cannot read the standard input: {e}")),
        };
    }
    match std::fs::read_to_string(file) {
        Ok(src) => Ok((file.display().to_string(), src)),
        Err(e) => Err(format!("cannot read {}: {e}", file.display())),
    }
}

/// Replays a scenario and prints the outcome; returns the exit code.
pub fn replay(file: &str, src: &str, options: Options, color: bool) -> u8 {
    let scenario = match syntax::parse(src) {
        Ok(s) => s,
        Err(errors) => {
            for e in &errors {
                eprint!("{}", e.to_diagnostic().render(file, src, color));
            }
            return 2;
        }
    };
    if scenario.statements.is_empty() {
        eprintln!(
            "{}: {file} has no statements (it is empty or holds only comments)",
            "error".red().bold()
        );
        return 2;
    }
    let warnings = if options.check_only {
        syntax::lint::warnings(&scenario, src)
    } else {
        Vec::new()
    };
    for w in &warnings {
        eprint!("{}", w.render(file, src, color));
    }
    let mut session = Session::new(options);
    let mut failures = Vec::new();
    let mut held = 0;
    let progress = progress::Progress::new();
    for stmt in &scenario.statements {
        let line = line_col(src, stmt.span.start).0;
        let label = || {
            format!(
                "line {line}: {}",
                src[stmt.span.start..stmt.span.end].trim()
            )
        };
        match progress.around(label, || session.execute(stmt, src)) {
            Ok(outputs) => {
                for out in outputs {
                    if let Output::Figure { path, span, figure } = &out {
                        let target = export::statement_path(file, path);
                        match export::write_figure(figure, &target) {
                            Ok(report) => println!("{} {report}", format!("{line:>4}").dimmed()),
                            Err(e) => {
                                let d = crate::interp::figures::diagnostic(&e, *span);
                                eprint!("{}", d.render(file, src, color));
                                return 2;
                            }
                        }
                        continue;
                    }
                    if let Output::Expect { held: ok, .. } = &out {
                        if *ok {
                            held += 1;
                        } else {
                            failures.push(failure(&out));
                        }
                    }
                    if !options.check_only {
                        print_output(line, &out);
                    }
                }
            }
            Err(d) => {
                eprint!("{}", d.render(file, src, color));
                return 2;
            }
        }
    }
    let end = scenario
        .statements
        .last()
        .map_or(Default::default(), |s| s.span);
    if let Err(d) = session.finish(end) {
        eprint!("{}", d.render(file, src, color));
        return 2;
    }
    for d in &failures {
        eprint!("{}", d.render(file, src, color));
    }
    if options.check_only {
        let warned = match warnings.len() {
            0 => String::new(),
            1 => ", 1 warning".into(),
            n => format!(", {n} warnings"),
        };
        println!(
            "{file}: {} statement(s) checked, no errors{warned}",
            scenario.statements.len()
        );
        return 0;
    }
    let summary = format!("expectations: {held} held, {} failed", failures.len());
    if failures.is_empty() {
        println!("{}", summary.green());
        0
    } else {
        println!("{}", summary.red().bold());
        1
    }
}

fn failure(out: &Output) -> Diagnostic {
    let Output::Expect {
        source,
        span,
        detail,
        ..
    } = out
    else {
        unreachable!("only expectations fail")
    };
    let mut d = Diagnostic::error(
        "expect-failed",
        format!("expectation does not hold: {source}"),
        *span,
    )
    .with_label(detail.clone());
    d.severity = Severity::Failure;
    d
}

fn print_output(line: usize, out: &Output) {
    let num = format!("{line:>4}").dimmed();
    match out {
        Output::Answer { source, value } | Output::Valid { source, value } => {
            let v = if *value {
                "true".green()
            } else {
                "false".red()
            };
            println!("{num}  {source}  {} {v}", "=>".dimmed());
        }
        Output::Expect {
            source,
            held,
            detail,
            ..
        } => {
            if *held {
                println!("{num}  {source}  {}", "ok".green());
            } else {
                println!("{num}  {source}  {} {detail}", "FAILED:".red().bold());
            }
        }
        Output::Moved { source, notes } => {
            println!("{num}  {}", source.cyan());
            for note in notes {
                println!("        {}", note.dimmed());
            }
        }
        Output::Checkpoint(name) => println!("{num}  {}", format!("-- {name} --").bold()),
        Output::Lines(lines) => {
            for l in lines {
                println!("        {l}");
            }
        }
        Output::Figure { .. } => {}
    }
}
