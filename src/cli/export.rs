//! `dealer export FILE.deal --at CHECKPOINT -o OUT`.
//!
//! The options (`--for`, `--only`, `--agents`, `--all`) are written as an
//! `export` statement and parsed by the scenario grammar, so the command line
//! and the language accept the same things and report the same errors.

use std::path::PathBuf;

use clap::Args;

use crate::diag::{suggest, Diagnostic};
use crate::figure::look::{Look, Theme};
use crate::figure::render::Format;
use crate::figure::{files, Figure, DEFAULT_MAX_NODES};
use crate::interp::{Output, Script, Session};
use crate::syntax::ast::{Move, MoveKind, Statement, StatementKind};

use crate::diag::Report;

/// The options of `dealer export`.
#[derive(Args, Debug)]
pub struct ExportArgs {
    /// The scenario (`.deal` file; `-` reads standard input).
    pub file: PathBuf,
    /// Replay up to this checkpoint (default: the whole scenario); `start`
    /// stops before the first move, where the REPL and the lecture view
    /// start (unless the scenario has a checkpoint named "start").
    #[arg(long)]
    pub at: Option<String>,
    /// The figure to write; its extension names the format: .dot, .svg, .png,
    /// .tex (TikZ), all drawn by dealer itself, or .pdf (needs Graphviz's `dot`).
    /// Give `-o` again to write the same figure in several formats from one replay.
    #[arg(short = 'o', long = "output", required = true)]
    pub output: Vec<PathBuf>,
    /// The format, whatever the file's extension.
    #[arg(long, value_enum)]
    pub format: Option<FormatArg>,
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
    /// Draw each S5 class with every pair related, not as a chain of lines.
    #[arg(long)]
    pub complete: bool,
    /// Leave these locations' rows out of the labels, e.g. `--hide stock`.
    #[arg(long)]
    pub hide: Option<String>,
    /// Refuse figures with more nodes than this.
    #[arg(long, default_value_t = DEFAULT_MAX_NODES)]
    pub max_nodes: usize,
    /// Colours: report (the reports' look), print (black and white) or
    /// projector (thick lines, large text, high-contrast colour-blind-safe colours).
    #[arg(long, default_value = "report", value_parser = parse_theme)]
    pub theme: Theme,
    /// The label font size in points.
    #[arg(long, default_value_t = 14, value_parser = clap::value_parser!(u32).range(6..=72))]
    pub font_size: u32,
    /// PNG resolution in dots per inch (default 96, as Graphviz's): 192
    /// draws the same figure twice as many pixels wide.
    #[arg(long, value_parser = clap::value_parser!(u32).range(24..=1200))]
    pub dpi: Option<u32>,
    /// TikZ: write a whole LaTeX document (standalone class), not only the tikzpicture.
    #[arg(long)]
    pub standalone: bool,
    /// TikZ for a beamer frame, to `\input` unedited: every text at the
    /// label size (10 pt), the legend wrapped under the drawing, the
    /// picture scaled down to `\linewidth` when wider; the report gives
    /// the labels' size on a 4:3 frame. The colours are the web view's.
    #[arg(long)]
    pub for_slides: bool,
    /// The engine and its budget.
    #[command(flatten)]
    pub model: super::ModelArgs,
}

/// The values of `--format`.
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum FormatArg {
    /// Graphviz DOT text.
    Dot,
    /// SVG.
    Svg,
    /// PNG (drawn by dealer itself; by Graphviz with `DEALER_RENDERER=graphviz`).
    Png,
    /// PDF (needs Graphviz's `dot`).
    Pdf,
    /// A TikZ picture for LaTeX.
    Tikz,
}

fn parse_theme(s: &str) -> Result<Theme, String> {
    s.parse()
}

impl ExportArgs {
    /// How the figure looks.
    pub fn look(&self) -> Look {
        Look {
            theme: self.theme,
            font_size: self.font_size,
            dpi: self.dpi,
            standalone: self.standalone,
            slides: self.for_slides,
        }
    }

    fn format(&self) -> Option<Format> {
        self.format.map(|f| match f {
            FormatArg::Dot => Format::Dot,
            FormatArg::Svg => Format::Svg,
            FormatArg::Png => Format::Png,
            FormatArg::Pdf => Format::Pdf,
            FormatArg::Tikz => Format::Tikz,
        })
    }
}

/// The export statement the options stand for (the file name is a
/// placeholder with a known extension when `--format` names the format).
fn statement(args: &ExportArgs) -> String {
    let out = match args.format {
        Some(_) => "figure.dot".to_string(),
        None => args.output[0].display().to_string().replace('"', ""),
    };
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
    if args.complete {
        s.push_str(" complete");
    }
    if let Some(h) = &args.hide {
        s.push_str(&format!(" hide {h}"));
    }
    s
}

/// `dealer export`: replays to the checkpoint, builds the figure, writes it
/// (the output path is relative to the current directory, see
/// [`crate::figure::files`]). Returns the exit code (0, or 2 on any error;
/// no file is left on error).
pub fn run(args: &ExportArgs, color: bool) -> u8 {
    match export(args) {
        Ok(report) => {
            println!("{report}");
            0
        }
        Err(shown) => {
            eprint!("{}", shown.render(color));
            2
        }
    }
}

fn export(args: &ExportArgs) -> Result<String, Report> {
    let script = super::read_script(&args.file)?;
    let mut session = Session::new(args.model.options(false));
    session.set_figure_limit(args.max_nodes);
    // A model too large to draw is drawn as one card's projection, which
    // says so in its legend (unless `--all` or `--for` asks otherwise).
    session.set_figure_fit(true);
    replay_to(&mut session, &script, args.at.as_deref())?;
    if args.format.is_some() && args.output.len() > 1 {
        return Err(Report::from(
            Diagnostic::unlocated(
                "one-format",
                "`--format` names the format of one output, and several `-o` were given",
            )
            .with_help("leave out `--format`: each output's extension names its format"),
        ));
    }
    let figure = figure_of(&mut session, &statement(args))?;
    let mut reports = Vec::new();
    for (i, output) in args.output.iter().enumerate() {
        match files::write_with(&figure, output, args.format(), &args.look()) {
            Ok(report) => reports.push(report),
            Err(e) => {
                // No file is left on error: those written before go too.
                for written in &args.output[..i] {
                    let _ = std::fs::remove_file(written);
                }
                return Err(Report::from(
                    Diagnostic::unlocated(e.code(), e.to_string()).with_help_opt(e.help()),
                ));
            }
        }
    }
    let report = reports.join("\n");
    let tikz = match args.format() {
        Some(f) => f == Format::Tikz,
        None => args
            .output
            .iter()
            .any(|o| Format::from_path(o) == Ok(Format::Tikz)),
    };
    if !(args.for_slides && tikz) {
        return Ok(report);
    }
    // What a beamer frame makes of it: the labels' size once it is scaled
    // to fit the frame, and a warning under 9 pt.
    let (_, _, label) = crate::figure::tikz::slide_size(&figure);
    if label < 9.0 {
        eprintln!(
            "warning: on a 4:3 beamer frame this figure's labels come out at about {label:.1} pt, under 9 pt\n  \
             = help: draw less of it: `--hide stock`, one player's worlds (`--only 1`) or one card's places (`--for CARD`)"
        );
    }
    Ok(format!(
        "{report}; on a 4:3 beamer frame its labels are about {label:.1} pt"
    ))
}

/// The `--at` that stops before the first move.
const START: &str = "start";

/// Replays the scenario up to the checkpoint `at` (all of it when `None`;
/// up to its first move for [`START`]).
fn replay_to(session: &mut Session, script: &Script, at: Option<&str>) -> Result<(), Report> {
    let located = |d| Report::new(&script.name, &script.src, vec![d]);
    let named_start = script
        .statements
        .iter()
        .any(|s| matches!(&s.kind, StatementKind::Checkpoint(n) if n.text == START));
    let at_start = at == Some(START) && !named_start;
    let mut replay = session.replay(script, 0);
    loop {
        if at_start && replay.peek().is_none_or(crate::interp::is_move) {
            let next = replay.peek().cloned();
            return deal_at_start(session, next.as_ref()).map_err(located);
        }
        let Some(step) = replay.next() else { break };
        step.outcome.map_err(located)?;
        if at.is_some() && replay.session().checkpoints().last().map(String::as_str) == at {
            return Ok(());
        }
    }
    let Some(at) = at else {
        return Ok(());
    };
    let known = session.checkpoints();
    let help = match suggest(at, known) {
        Some(s) => format!("did you mean \"{s}\"?"),
        None if known.is_empty() => {
            "the scenario has no `checkpoint`; `--at start` draws the model before its first move"
                .into()
        }
        None => format!(
            "the checkpoints are: \"{}\" (and `start`, before the first move)",
            known.join("\", \"")
        ),
    };
    Err(Report::from(
        Diagnostic::unlocated(
            "unknown-checkpoint",
            format!("no checkpoint \"{at}\" in {}", script.name),
        )
        .with_help(help),
    ))
}

/// Deals the cards before the first move, `next` (a deal is built when
/// first needed), unless the scenario announces first: its deal is then
/// built with that announcement, and the deal without it may be far too
/// large to build, so there is no model to draw before it.
fn deal_at_start(session: &mut Session, next: Option<&Statement>) -> Result<(), Diagnostic> {
    if session.playing().is_some() {
        return Ok(());
    }
    let announces = next.is_some_and(|s| {
        matches!(
            &s.kind,
            StatementKind::Move(Move {
                kind: MoveKind::Announce(_),
                ..
            })
        )
    });
    match next {
        Some(stmt) if announces => Err(Diagnostic::error(
            "no-model-yet",
            "there is no model before the first move: the scenario announces first, \
             and its deal is built with that announcement",
            stmt.span,
        )
        .with_help("draw the model after the announcement: `--at` a checkpoint after it, or leave out `--at` for the end")),
        _ => session.finish(next.map(|s| s.span).unwrap_or_default()),
    }
}

/// Runs the options as an `export` statement on the replayed session.
fn figure_of(session: &mut Session, line: &str) -> Result<Figure, Report> {
    let script = Script::parse("command line", line)
        .map_err(|errors| Report::new("command line", line, errors))?;
    if session.playing().is_none() {
        return Err(Report::from(Diagnostic::unlocated(
            "nothing-to-draw",
            "the scenario deals no cards and writes no model",
        )));
    }
    let outputs = session
        .execute(&script.statements[0], line)
        .map_err(|d| Report::new("command line", line, vec![d]))?;
    outputs
        .into_iter()
        .find_map(|o| match o {
            Output::Figure { figure, .. } => Some(figure),
            _ => None,
        })
        .ok_or_else(|| {
            Report::from(Diagnostic::unlocated(
                "nothing-to-draw",
                "the export options drew no figure",
            ))
        })
}
