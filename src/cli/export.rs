//! `dealer export FILE.deal --at CHECKPOINT -o OUT` and the writing of the
//! figures that `export` statements produce during `dealer run`.
//!
//! The options (`--for`, `--only`, `--agents`, `--all`) are written as an
//! `export` statement and parsed by the scenario grammar, so the command line
//! and the language accept the same things and report the same errors.

use std::path::{Path, PathBuf};

use clap::Args;

use crate::diag::{suggest, Diagnostic, Span};

use crate::figure::{Figure, DEFAULT_MAX_NODES};
use crate::interp::{Output, Session};
use crate::syntax;

/// The options of `dealer export`.
#[derive(Args, Debug)]
pub struct ExportArgs {
    /// The scenario (`.deal` file; `-` reads standard input).
    pub file: PathBuf,
    /// Replay up to this checkpoint (default: the whole scenario).
    #[arg(long)]
    pub at: Option<String>,
    /// The figure to write; its extension names the format: .dot, .svg, .png or .pdf.
    #[arg(short = 'o', long = "output")]
    pub output: PathBuf,
    /// Draw the sub-model of where one card is, e.g. `--for 6S`.
    #[arg(long = "for")]
    pub card: Option<String>,
    /// Draw only the worlds this player considers possible.
    #[arg(long)]
    pub only: Option<String>,
    /// Draw only these players' relations, e.g. `--agents 1,2`.
    #[arg(long)]
    pub agents: Option<String>,
    /// Draw every world, not only those reachable from the actual world.
    #[arg(long)]
    pub all: bool,
    /// Refuse figures with more nodes than this.
    #[arg(long, default_value_t = DEFAULT_MAX_NODES)]
    pub max_nodes: usize,
    /// The engine and its budget.
    #[command(flatten)]
    pub model: super::ModelArgs,
}

pub use crate::figure::render::{renderer_from_env, write_figure};

/// Where an `export` statement's file goes: relative to the scenario's directory.
pub fn statement_path(scenario: &str, written: &str) -> PathBuf {
    let p = Path::new(written);
    if p.is_absolute() {
        return p.to_path_buf();
    }
    Path::new(scenario)
        .parent()
        .map_or_else(|| p.to_path_buf(), |d| d.join(p))
}

/// The export statement the options stand for.
fn statement(args: &ExportArgs) -> String {
    let out = args.output.display().to_string().replace('"', "");
    let mut s = format!("export \"{out}\"");
    if let Some(c) = &args.card {
        s.push_str(&format!(" for {c}"));
    }
    if let Some(p) = &args.only {
        s.push_str(&format!(" only {p}"));
    }
    if let Some(a) = &args.agents {
        s.push_str(&format!(" agents {a}"));
    }
    if args.all {
        s.push_str(" all");
    }
    s
}

/// `dealer export`: replays to the checkpoint, builds the figure, writes it.
/// Returns the exit code (0, or 2 on any error; no file is left on error).
pub fn run(args: &ExportArgs, color: bool) -> u8 {
    let (name, src) = match super::read_source(&args.file) {
        Ok(read) => read,
        Err(e) => return fail(&e, None),
    };
    let mut session = Session::new(args.model.options(false));
    session.set_figure_limit(args.max_nodes);
    if let Err(code) = replay_to(&mut session, &name, &src, args.at.as_deref(), color) {
        return code;
    }
    let line = statement(args);
    let figure = match figure_of(&mut session, &line, color) {
        Ok(f) => f,
        Err(code) => return code,
    };
    match write_figure(&figure, &args.output) {
        Ok(report) => {
            println!("{report}");
            0
        }
        Err(e) => fail(&e.to_string(), e.help()),
    }
}

/// Replays the scenario up to the checkpoint `at` (all of it when `None`).
fn replay_to(
    session: &mut Session,
    name: &str,
    src: &str,
    at: Option<&str>,
    color: bool,
) -> Result<(), u8> {
    let scenario = syntax::parse(src).map_err(|errors| {
        for e in &errors {
            eprint!("{}", e.to_diagnostic().render(name, src, color));
        }
        2u8
    })?;
    for stmt in &scenario.statements {
        if let Err(d) = session.execute(stmt, src) {
            eprint!("{}", d.render(name, src, color));
            return Err(2);
        }
        if at.is_some() && session.checkpoints().last().map(String::as_str) == at {
            return Ok(());
        }
    }
    if let Some(at) = at {
        let known = session.checkpoints();
        let help = match suggest(at, known) {
            Some(s) => Some(format!("did you mean \"{s}\"?")),
            None if known.is_empty() => Some("the scenario has no `checkpoint`".into()),
            None => Some(format!("the checkpoints are: \"{}\"", known.join("\", \""))),
        };
        return Err(fail(&format!("no checkpoint \"{at}\" in {name}"), help));
    }
    let end = scenario
        .statements
        .last()
        .map_or(Span::default(), |s| s.span);
    session.finish(end).map_err(|d| {
        eprint!("{}", d.render(name, src, color));
        2u8
    })
}

/// Runs the options as an `export` statement on the replayed session.
fn figure_of(session: &mut Session, line: &str, color: bool) -> Result<Figure, u8> {
    let show = |d: &Diagnostic| eprint!("{}", d.render("command line", line, color));
    let scenario = syntax::parse(line).map_err(|errors| {
        errors.iter().for_each(|e| show(&e.to_diagnostic()));
        2u8
    })?;
    let stmt = &scenario.statements[0];
    if session.playing().is_none() {
        return Err(fail(
            "the scenario deals no cards and writes no model",
            None,
        ));
    }
    match session.execute(stmt, line) {
        Ok(outputs) => outputs
            .into_iter()
            .find_map(|o| match o {
                Output::Figure { figure, .. } => Some(figure),
                _ => None,
            })
            .ok_or(2),
        Err(d) => {
            show(&d);
            Err(2)
        }
    }
}

fn fail(message: &str, help: Option<String>) -> u8 {
    eprintln!("error: {message}");
    if let Some(h) = help {
        eprintln!("  help: {h}");
    }
    2
}
