//! The command-line front end: `dealer run FILE`, `dealer check FILE` and
//! `dealer repl [FILE]` (see [`crate::repl`]).
//! `dealer export FILE --at CHECKPOINT -o OUT` ([`export`]).
//! `dealer play GAME --seed N --agents ...` ([`play`]) plays a game;
//! `dealer tournament GAME --strategies ...` ([`tournament`]) plays many.
//! `dealer quiz FILE` ([`quiz`]) asks a scenario's questions.
//! `dealer bench [FILES...]` ([`bench`]) times scenarios; `dealer gen
//! muddy 500` ([`gen`]) writes the classic benchmarks as scenarios.
//! `dealer run --json` and `check --json` ([`json`]) print one JSON
//! document. `dealer completions bash|zsh|fish` prints a shell completion script
//! (clap_complete).
//!
//! Only the front ends print. Output is coloured on a terminal and plain when
//! piped or when `NO_COLOR` is set. Exit codes: 0 when every expectation
//! held, 1 when an `expect` failed, 2 on an error (bad input, illegal move).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::diag::{color_from_env, Diagnostic, Paint, Report, Severity};
use crate::engine::BddBudget;
use crate::figure::files as figure_files;
use crate::interp::{errors, Engine, Options, Output, Script, Session};

pub mod bench;
mod bench_parse;
mod bench_play;
pub mod export;
pub mod gen;
pub mod json;
pub mod play;
pub mod progress;
pub mod quiz;
pub mod tournament;

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
        /// Print one JSON document (schema in docs/json.md) instead of text.
        #[arg(long)]
        json: bool,
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
    /// Parse a scenario, check its names and build its deal, without playing a move or answering a query; or check a strategy (`.strat`): it parses, and every guard and score it asks in trial games is decided by its player's knowledge (each rule is reported).
    Check {
        /// The scenario (`.deal` file; `-` reads standard input), or a strategy (`.strat` file).
        file: PathBuf,
        /// Print one JSON document (schema in docs/json.md) instead of text.
        #[arg(long)]
        json: bool,
        /// The engine and its budget.
        #[command(flatten)]
        model: ModelArgs,
    },
    /// Ask a scenario's questions (or generated ones) and check the answers against the model.
    Quiz(quiz::QuizArgs),
    /// Draw the model at a checkpoint as a figure (.dot, .svg, .png, .pdf or TikZ .tex).
    Export(export::ExportArgs),
    /// Time scenarios (default: every file under scenarios/bench/) and print a table.
    Bench(bench::BenchArgs),
    /// Play many seeded games between strategies; print the table, write CSV, JSON and a chart.
    Tournament(tournament::TournamentArgs),
    /// Play a game from a seeded deal to its end, by agents or with you at the terminal.
    Play(play::PlayArgs),
    /// Write a classic benchmark as a scenario: muddy children, dining cryptographers, Russian cards.
    Gen(gen::GenArgs),
    /// Serve the lecture view to a browser (loopback only unless --host says otherwise).
    Serve(crate::web::ServeArgs),
    /// Print a shell completion script: `dealer completions bash > ~/.local/share/bash-completion/completions/dealer`.
    Completions {
        /// The shell: bash, zsh, fish, elvish or powershell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

/// The options every command that builds models takes.
#[derive(Args, Debug, Clone)]
pub struct ModelArgs {
    /// Refuse explicit models with more worlds than this (with `--engine auto`,
    /// larger deals go to the symbolic engine instead).
    #[arg(long, default_value_t = crate::interp::DEFAULT_MAX_WORLDS)]
    pub max_worlds: u128,
    /// The engine: explicit Kripke models, symbolic knowledge structures
    /// (BDDs), or auto: explicit for a deal of at most --max-worlds worlds
    /// that fits the explicit engine (255 cards, 254 locations, its memory),
    /// unless the symbolic engine looks 100 times cheaper; symbolic otherwise.
    #[arg(long, value_enum, default_value_t = EngineArg::Auto)]
    pub engine: EngineArg,
    /// Memory of each BDD manager (symbolic engine): `scenario` keeps dead
    /// nodes for reuse up to 2^27 (about 3 GiB; the default of run, repl,
    /// check, export and bench), `game` collects them from 2^19, about
    /// half a million (a game per core; the default of play, tournament
    /// and bench --play).
    /// Answers never change, only speed and memory.
    #[arg(long, value_enum)]
    pub bdd_memory: Option<BddMemoryArg>,
    /// The budget without `--bdd-memory`: the command's own default.
    #[arg(skip)]
    pub default_budget: BddBudget,
}

/// The values of `--bdd-memory`.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum BddMemoryArg {
    /// Many models at once: collect dead nodes from 2^19 (about half a million).
    Game,
    /// One scenario has the machine: keep dead nodes up to 2^27.
    Scenario,
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
    /// Sets the command's default BDD budget, used without `--bdd-memory`.
    pub fn set_budget(&mut self, default: BddBudget) {
        self.default_budget = default;
    }

    /// The BDD budget: `--bdd-memory`, else the command's default.
    pub fn budget(&self) -> BddBudget {
        match self.bdd_memory {
            Some(BddMemoryArg::Game) => BddBudget::Game,
            Some(BddMemoryArg::Scenario) => BddBudget::Scenario,
            None => self.default_budget,
        }
    }

    /// The value of `--bdd-memory` that stands for `budget`.
    pub fn budget_arg(budget: BddBudget) -> &'static str {
        match budget {
            BddBudget::Game => "game",
            BddBudget::Scenario => "scenario",
        }
    }

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
            bdd_budget: self.budget(),
        }
    }
}

/// A flag's whole number (`--seed 7`, `--hand 3`): a clear message for a
/// negative number or a word, which clap would otherwise take for a flag
/// or report by the parser's own words.
pub fn whole<T: std::str::FromStr + TryFrom<u64>>(text: &str) -> Result<T, String> {
    let bad = || {
        format!(
            "`{text}` is not a whole number from 0 to {}",
            crate::diag::thousands(max_of::<T>())
        )
    };
    let n: u64 = text.trim().parse().map_err(|_| bad())?;
    T::try_from(n).map_err(|_| bad())
}

/// The largest value of `T` that [`whole`] reads (at most `u64::MAX`).
fn max_of<T: TryFrom<u64>>() -> u64 {
    // The largest n with T::try_from(n) ok, by halving the step.
    let (mut n, mut step) = (0u64, 1u64 << 63);
    while step > 0 {
        if T::try_from(n + step).is_ok() {
            n += step;
        }
        step /= 2;
    }
    n
}

/// A whole number of at least 1 (`--games`).
pub fn at_least_one(text: &str) -> Result<u64, String> {
    match whole::<u64>(text) {
        Ok(0) | Err(_) => Err(format!("`{text}` is not a whole number of at least 1")),
        Ok(n) => Ok(n),
    }
}

/// Checks, before any work, that a folder can be made (or is there) and
/// written to: the output folder of a tournament.
pub fn writable_dir(dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let probe = dir.join(".dealer-write-test");
    std::fs::write(&probe, b"")
        .and_then(|()| std::fs::remove_file(&probe))
        .map_err(|e| format!("cannot write into {}: {e}", dir.display()))
}

/// Checks, before any work, that a file can be written (`--out` of
/// `play`): an existing file is opened for writing without being
/// changed; a new one is made and removed again.
pub fn writable_file(path: &Path) -> Result<(), String> {
    let cannot = |e: std::io::Error| format!("cannot write {}: {e}", path.display());
    if path.is_dir() {
        return Err(format!("cannot write {}: it is a folder", path.display()));
    }
    if path.exists() {
        return std::fs::OpenOptions::new()
            .append(true)
            .open(path)
            .map(drop)
            .map_err(cannot);
    }
    std::fs::File::create(path).map_err(cannot)?;
    std::fs::remove_file(path).map_err(cannot)
}

/// Parses the arguments and runs the command.
pub fn main() -> ExitCode {
    end_quietly_when_standard_output_fails();
    main_from(std::env::args_os())
}

/// A standard output that cannot be written (a full disk, as in
/// `dealer run x.deal > /dev/full`, or a closed terminal) ends the process with a
/// message on standard error and exit code 1, as other command-line tools
/// do, from every place that prints. The standard library's printing
/// reports a failed write as a panic ("failed printing to stdout"), which
/// this hook turns into that message before anything unwinds; any other
/// panic is reported as before.
fn end_quietly_when_standard_output_fails() {
    const FAILED: &str = "failed printing to stdout: ";
    let report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied());
        if let Some(why) = message.and_then(|m| m.strip_prefix(FAILED)) {
            eprintln!("dealer: cannot write to standard output: {why}");
            std::process::exit(1);
        }
        report(info)
    }));
}

/// Runs the command that `args` (the program's name first) give: what
/// [`main`] does with the process's arguments, callable in-process (the
/// command-line fuzzer, `examples/cli_fuzz.rs`, calls it with random flags).
pub fn main_from<I, T>(args: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    use clap::{CommandFactory, FromArgMatches};
    // `--seed -1` is a value (refused by its parser with the flag's name),
    // not an unknown flag.
    let command = Cli::command().mut_subcommands(|s| s.allow_negative_numbers(true));
    let parsed = command
        .try_get_matches_from(args)
        .and_then(|m| Cli::from_arg_matches(&m));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => {
            // Usage errors, `--help` and `--version`, as clap prints them.
            let _ = e.print();
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
        }
    };
    let color = color_from_env();
    let (file, options, json) = match cli.command {
        Command::Export(mut args) => {
            args.model.set_budget(BddBudget::Scenario);
            return ExitCode::from(export::run(&args, color));
        }
        Command::Bench(mut args) => {
            let budget = match args.play {
                Some(_) => BddBudget::Game,
                None => BddBudget::Scenario,
            };
            args.model.set_budget(budget);
            return ExitCode::from(bench::run(&args));
        }
        Command::Tournament(mut args) => {
            args.model.set_budget(BddBudget::Game);
            return ExitCode::from(tournament::main(&args));
        }
        Command::Play(mut args) => {
            args.model.set_budget(BddBudget::Game);
            return ExitCode::from(play::run(&args, color));
        }
        Command::Gen(args) => return ExitCode::from(gen::run(&args)),
        Command::Quiz(mut args) => {
            args.model.set_budget(BddBudget::Scenario);
            return ExitCode::from(quiz::run(&args, color));
        }
        Command::Serve(args) => {
            return match crate::web::serve(&args) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("dealer serve: {e}");
                    ExitCode::from(2)
                }
            }
        }
        Command::Completions { shell } => {
            use clap::CommandFactory;
            let mut command = Cli::command();
            // Written whole to a buffer, then printed (a failed write is
            // reported like any other, not as the completion library's panic).
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut command, "dealer", &mut script);
            print!("{}", String::from_utf8_lossy(&script));
            return ExitCode::SUCCESS;
        }
        Command::Run {
            file,
            mut model,
            json,
        } => {
            model.set_budget(BddBudget::Scenario);
            (file, model.options(false), json)
        }
        Command::Repl { file, mut model } => {
            model.set_budget(BddBudget::Scenario);
            return crate::repl::run(file, model.options(false));
        }
        Command::Check { file, .. } if file.extension().is_some_and(|e| e == "strat") => {
            return ExitCode::from(check_strategy(&file));
        }
        Command::Check {
            file,
            mut model,
            json,
        } => {
            model.set_budget(BddBudget::Scenario);
            (file, model.options(true), json)
        }
    };
    if json {
        return ExitCode::from(json_main(&file, options));
    }
    let script = match read_script(&file) {
        Ok(script) => script,
        Err(shown) => {
            eprint!("{}", shown.render(color));
            return ExitCode::from(2);
        }
    };
    ExitCode::from(replay_script(&script, options, color))
}

/// `check FILE.strat`: parses a strategy and tries it on seeded games of
/// its game (the lint `strategy::knowledge::trial_games`): every guard and score asked
/// must be decided by its player's knowledge. Prints what was checked,
/// rule by rule, and what was not. Returns the exit code.
fn check_strategy(file: &Path) -> u8 {
    use crate::strategy::knowledge::{describe, Checked, TRIAL_GAMES};
    match crate::strategy::load_checked(file) {
        Ok((s, Checked::Played(checks))) => {
            println!(
                "ok: strategy {} for {}, {} rule(s); lint trial_games: tried in {TRIAL_GAMES} seeded games of {} (teaching deck) at every seat, every guard and score asked was decided by its player's knowledge:",
                s.name,
                s.game,
                s.rules.len(),
                s.game
            );
            for line in describe(&s, &checks) {
                println!("  {line}");
            }
            0
        }
        Ok((s, Checked::NoReferee)) => {
            println!(
                "ok: strategy {} for {}, {} rule(s) parsed; its knowledge was not checked: {} has no referee, so it offers no legal moves and no command seats a strategy for it",
                s.name,
                s.game,
                s.rules.len(),
                s.game
            );
            0
        }
        Err(e) => {
            eprintln!("{e}");
            1
        }
    }
}

/// `run --json` and `check --json`: prints the report; returns its exit code.
fn json_main(file: &Path, options: Options) -> u8 {
    let mode = if options.check_only { "check" } else { "run" };
    let report = match read_source(file) {
        Err(e) => json::failed(&file.display().to_string(), "", mode, &[e]),
        Ok((name, src)) => match Script::parse(&name, &src) {
            Ok(script) => json::replay(&script, options),
            Err(errors) => json::failed(&name, &src, mode, &errors),
        },
    };
    print!("{}", json::to_text(&report));
    report.exit_code
}

/// Reads and parses a scenario file.
pub fn read_script(file: &Path) -> Result<Script, Report> {
    let (name, src) = read_source(file).map_err(Report::from)?;
    let script = Script::parse(&name, &src).map_err(|errors| Report::new(&name, &src, errors))?;
    if script.statements.is_empty() {
        return Err(Report::from(Diagnostic::unlocated(
            "empty-scenario",
            format!("{name} has no statements (it is empty or holds only comments)"),
        )));
    }
    Ok(script)
}

pub use crate::interp::read_source;

/// Replays a scenario and prints the outcome; returns the exit code.
pub fn replay(file: &str, src: &str, options: Options, color: bool) -> u8 {
    match Script::parse(file, src) {
        Ok(script) => replay_script(&script, options, color),
        Err(errors) => {
            eprint!("{}", Report::new(file, src, errors).render(color));
            2
        }
    }
}

/// Replays a parsed scenario, printing every step; returns the exit code.
/// `check` prints the warnings of [`crate::syntax::lint`] first.
fn replay_script(script: &Script, options: Options, color: bool) -> u8 {
    let warnings = if options.check_only {
        crate::syntax::lint::warnings(&script.statements, &script.src)
    } else {
        Vec::new()
    };
    for w in &warnings {
        eprint!("{}", w.render(&script.name, &script.src, color));
    }
    let paint = Paint::new(color);
    let mut session = Session::new(options);
    let mut failures = Vec::new();
    let mut held = 0;
    let progress = progress::Progress::new();
    let mut replay = session.replay(script, 0);
    loop {
        let pos = replay.position();
        let label = || format!("line {}: {}", script.line(pos), script.text(pos));
        let Some(step) = progress.around(label, || replay.next()) else {
            break;
        };
        let outputs = match step.outcome {
            Ok(outputs) => outputs,
            Err(d) => {
                eprint!("{}", d.render(&script.name, &script.src, color));
                return 2;
            }
        };
        for out in outputs {
            if let Output::Figure { path, span, figure } = &out {
                let target = figure_files::target(Some(&script.name), path);
                match figure_files::write(figure, &target) {
                    Ok(report) => println!("{} {report}", paint.dim(format!("{:>4}", step.line))),
                    Err(e) => {
                        let d = errors::figure(&e, *span);
                        eprint!("{}", d.render(&script.name, &script.src, color));
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
                let statement = step.index.map_or("", |i| script.text(i));
                print_output(step.line, statement, &out, paint);
            }
        }
    }
    for d in &failures {
        eprint!("{}", d.render(&script.name, &script.src, color));
    }
    if options.check_only {
        let warned = match warnings.len() {
            0 => String::new(),
            1 => ", 1 warning".into(),
            n => format!(", {n} warnings"),
        };
        println!(
            "{}: {} statement(s) checked, no errors{warned}",
            script.name,
            script.statements.len()
        );
        return 0;
    }
    let summary = format!("expectations: {held} held, {} failed", failures.len());
    if failures.is_empty() {
        println!("{}", paint.green(summary));
        0
    } else {
        println!("{}", paint.red_bold(summary));
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

/// Prints one output of the statement written `statement` at `line`:
/// every output names its line and what was asked, so that two answers
/// (two `why`s, say) can be told apart.
fn print_output(line: usize, statement: &str, out: &Output, paint: Paint) {
    let num = paint.dim(format!("{line:>4}"));
    let arrow = paint.dim("=>");
    match out {
        Output::Answer { source, value } | Output::Valid { source, value } => {
            let v = if *value {
                paint.green("true")
            } else {
                paint.red("false")
            };
            println!("{num}  {source}  {arrow} {v}");
        }
        Output::Expect {
            source,
            held,
            detail,
            ..
        } => {
            if *held {
                println!("{num}  {source}  {}", paint.green("ok"));
            } else {
                println!("{num}  {source}  {} {detail}", paint.red_bold("FAILED:"));
            }
        }
        Output::Moved { source, notes } => {
            println!("{num}  {}", paint.cyan(source));
            for note in notes {
                println!("        {}", paint.dim(note));
            }
        }
        Output::Question { source, asked, .. } => {
            println!("{num}  {source}  {arrow} {}", paint.green(&asked.answer));
        }
        Output::Checkpoint(name) => println!("{num}  {}", paint.bold(format!("-- {name} --"))),
        Output::Lines(lines) => {
            println!("{num}  {}", statement.trim());
            for l in lines {
                println!("        {l}");
            }
        }
        Output::Figure { .. } => {}
    }
}
