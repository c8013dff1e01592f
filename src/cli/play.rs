//! `dealer play GAME`: a game from a seeded deal to its end, between agents
//! (printed move by move with the score) or with a person at the terminal
//! (`--me P`: rustyline with completion of the legal moves on a terminal,
//! plain lines from a pipe, each echoed after its prompt).

use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use rustyline::completion::Completer;
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::history::DefaultHistory;
use rustyline::validate::Validator;
use rustyline::{Context, Editor, Helper};

use crate::cards::Size;
use crate::diag::{Diagnostic, Paint, Report};
use crate::play::{Desk, Match, Played, Reply, AGENTS};

use super::ModelArgs;

/// The options of `dealer play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The game (one of the games that can be played, listed in the help
    /// from the game registry).
    #[arg(help = format!("The game ({})", super::tournament::playable_games()))]
    pub game: String,
    /// The seed of the deal and of the agents' choices.
    #[arg(long, default_value_t = 1, value_parser = super::whole::<u64>)]
    pub seed: u64,
    /// The agents, one per seat in seating order (the seats other than
    /// `--me`'s); one name is used for every seat.
    #[arg(long, default_value = "random", value_delimiter = ',')]
    pub agents: Vec<String>,
    /// The report's deck and players, or a small deck for teaching.
    #[arg(long, value_enum, default_value_t = Size::Full)]
    pub size: Size,
    /// Write the whole game as a scenario (deal, moves, checkpoints, expects).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Play this player yourself, at the terminal.
    #[arg(long)]
    pub me: Option<String>,
    /// A folder of strategy files that take precedence over the built-in
    /// strategies (default: `strategies/` of the working directory, when
    /// there is one).
    #[arg(long)]
    pub strategies_dir: Option<PathBuf>,
    /// End the game after this many moves, scored as it stands, instead of
    /// at the game's own limit (as `tournament --max-moves`).
    #[arg(long, value_parser = super::whole::<usize>)]
    pub max_moves: Option<usize>,
    /// Print how long each move took.
    #[arg(long)]
    pub times: bool,
    /// The engine and its budget.
    #[command(flatten)]
    pub model: ModelArgs,
}

/// Runs `dealer play`; returns the exit code.
pub fn run(args: &PlayArgs, color: bool) -> u8 {
    let paint = Paint::new(color);
    // A file that cannot be written is found before the game, not after it.
    if let Some(Err(e)) = args.out.as_deref().map(super::writable_file) {
        eprintln!("{}: --out: {e}", paint.red_bold("error"));
        return 2;
    }
    match setup(args) {
        Ok((game, None)) => automatic(game, args, paint),
        Ok((game, Some(me))) => person(Desk::new(game, me), args, paint),
        Err(e) => {
            eprint!("{}", e.render(color));
            2
        }
    }
}

/// Deals the game and seats the agents (and the person).
fn setup(args: &PlayArgs) -> Result<(Match, Option<usize>), Report> {
    let mut game = Match::new(&args.game, args.seed, args.size, args.model.options(false))?;
    if args.max_moves.is_some() {
        game.set_move_cap(args.max_moves);
    }
    let players = game.playing().table.players.clone();
    let me = match &args.me {
        None => None,
        Some(name) => Some(players.iter().position(|p| p == name).ok_or_else(|| {
            Diagnostic::unlocated(
                "no-player",
                format!(
                    "--me {name}: no such player; the players are {}",
                    players.join(", ")
                ),
            )
        })?),
    };
    let dir = args.strategies_dir.as_deref();
    // A strategy at several seats is checked once.
    let checks = crate::strategy::knowledge::Checks::default();
    game.seat_named(&args.agents, me, &mut |name| {
        crate::strategy::agent::named_with(&checks, dir, &args.game, name).map_err(|mut e| {
            // No strategy of that name: the agents are named too. (A
            // strategy found but refused keeps its located diagnostic.)
            if e.code() == "no-strategy" {
                let known: Vec<&str> = AGENTS.iter().map(|(n, _)| *n).collect();
                let d = &mut e.diagnostics[0];
                d.message = format!(
                    "no agent `{name}` ({}), nor strategy: {}",
                    known.join(", "),
                    d.message
                );
            }
            e
        })
    })?;
    Ok((game, me))
}

fn header(game: &Match) -> String {
    let table = &game.playing().table;
    let seats: Vec<String> = game
        .seats()
        .iter()
        .enumerate()
        .map(|(p, s)| format!("{} {}", table.players[p], s.name()))
        .collect();
    format!(
        "{} (seed {}; {} cards; {}): {}",
        game.game(),
        game.seed(),
        table.deck.total(),
        engine_name(game),
        seats.join(" · ")
    )
}

fn engine_name(game: &Match) -> &'static str {
    match game.model().representation() {
        crate::engine::Representation::Explicit => "explicit engine",
        crate::engine::Representation::Symbolic { .. } => "symbolic engine",
    }
}

/// Plays between agents and prints every move with the score.
fn automatic(mut game: Match, args: &PlayArgs, paint: Paint) -> u8 {
    println!("{}", paint.bold(header(&game)));
    print_hands(&game);
    let mut times = Vec::new();
    let mut scores = game.scores();
    while let Some(result) = game.agent_move() {
        match result {
            Ok(played) => {
                times.push(played.time);
                let played = played.clone();
                print_move(&game, &played, args.times, paint);
                if game.scores() != scores {
                    scores = game.scores();
                    let score = format!("score {}", game.score_line());
                    println!("        {}", paint.dim(score));
                }
            }
            Err(d) => {
                eprint!("{}", d.render("move", "", paint.colors()));
                return 2;
            }
        }
    }
    finish(&game, args, &times, paint)
}

fn print_hands(game: &Match) {
    let table = &game.playing().table;
    let pos = game.position();
    for p in 0..table.players.len() {
        let cards = pos.cards(table.hand(p));
        println!(
            "  hand {:<4} {}",
            table.players[p],
            table.deck.show_cards(&cards)
        );
    }
}

fn print_move(game: &Match, played: &Played, times: bool, paint: Paint) {
    let n = game.history().len();
    let time = if times {
        paint.dim(format!("  ({})", ms(played.time)))
    } else {
        String::new()
    };
    println!(
        "{}  {}{time}",
        paint.dim(format!("{n:>4}")),
        paint.cyan(&played.text)
    );
    for note in &played.notes {
        println!("        {}", paint.dim(note));
    }
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

/// The final score, the timing and the written scenario.
fn finish(game: &Match, args: &PlayArgs, times: &[Duration], paint: Paint) -> u8 {
    let winners: Vec<&str> = game
        .winners()
        .into_iter()
        .map(|p| game.player_name(p))
        .collect();
    if let Some(why) = game.stopped() {
        println!("the game ends as it stands, at its limit: {why}");
    }
    println!(
        "{} {}   winner(s): {}",
        paint.bold("final score"),
        game.score_line(),
        paint.green(winners.join(", "))
    );
    if !times.is_empty() {
        let total: Duration = times.iter().sum();
        let slowest = times.iter().max().copied().unwrap_or_default();
        println!(
            "{}",
            paint.dim(format!(
                "{} moves in {:.2} s (mean {}, slowest {})",
                times.len(),
                total.as_secs_f64(),
                ms(total / times.len() as u32),
                ms(slowest)
            ))
        );
    }
    write_out(game, args, paint)
}

fn write_out(game: &Match, args: &PlayArgs, paint: Paint) -> u8 {
    let Some(out) = &args.out else {
        return 0;
    };
    match std::fs::write(out, game.scenario()) {
        Ok(()) => {
            println!("wrote {} (replay: dealer run {0})", out.display());
            0
        }
        Err(e) => {
            eprintln!(
                "{}: cannot write {}: {e}",
                paint.red_bold("error"),
                out.display()
            );
            2
        }
    }
}

/// A person plays: the screen, then a loop of inputs.
fn person(mut desk: Desk, args: &PlayArgs, paint: Paint) -> u8 {
    println!("{}", paint.bold(header(desk.game())));
    println!(
        "you are player {}; type `help` for the commands",
        desk.game().player_name(desk.me())
    );
    let replies = desk.advance();
    print_replies(&desk, &replies, paint);
    print_screen(&desk, paint);
    if std::io::stdin().is_terminal() {
        terminal(desk, args, paint)
    } else {
        piped(desk, args, paint)
    }
}

/// How a person's session ended.
enum Ending {
    /// `quit`.
    Quit,
    /// The input ended (end of a pipe, Ctrl-D).
    InputEnded,
    /// The input could not be read (a byte that is not UTF-8, say).
    Unreadable(String),
}

/// Says how a person's game ended when it is not over, and keeps what
/// was played in `--out`; returns the exit code (2 when the input could
/// not be read).
fn end_person(desk: &Desk, args: &PlayArgs, ending: Ending, paint: Paint) -> u8 {
    let game = desk.game();
    let moves = game.history().len();
    let mut code = 0;
    match &ending {
        Ending::Unreadable(why) => {
            eprintln!(
                "{}: cannot read the input ({why}); the game stops after {moves} moves",
                paint.red_bold("error")
            );
            code = 2;
        }
        Ending::InputEnded if !game.is_over() => {
            println!("the input ended before the game did: it stops after {moves} moves")
        }
        Ending::Quit | Ending::InputEnded => {}
    }
    if args.out.is_some() {
        code = code.max(write_out(game, args, paint));
    }
    code
}

fn print_screen(desk: &Desk, paint: Paint) {
    for line in desk.screen() {
        println!("{line}");
    }
    if desk.game().is_over() {
        let winners: Vec<&str> = desk
            .game()
            .winners()
            .into_iter()
            .map(|p| desk.game().player_name(p))
            .collect();
        if let Some(why) = desk.game().stopped() {
            println!("the game ends as it stands, at its limit: {why}");
        }
        println!(
            "{} winner(s): {}",
            paint.bold("game over:"),
            winners.join(", ")
        );
        println!("type `save FILE` to keep the game as a scenario, `quit` to leave");
    }
}

/// Prints replies; returns whether to leave.
fn print_replies(desk: &Desk, replies: &[Reply], paint: Paint) -> bool {
    let mut moved = false;
    for r in replies {
        match r {
            Reply::Lines(lines) => lines.iter().for_each(|l| println!("{l}")),
            Reply::Moved(p) => {
                moved = true;
                println!("  {}", paint.cyan(&p.text));
                for note in &p.notes {
                    println!("      {}", paint.dim(note));
                }
            }
            Reply::Refused { diagnostic, source } => {
                print!("{}", diagnostic.render("input", source, paint.colors()));
            }
            Reply::Saved(path) => println!("saved the game to {path} (replay: dealer run {path})"),
            Reply::Quit => return true,
        }
    }
    if moved {
        print_screen(desk, paint);
    }
    false
}

fn piped(mut desk: Desk, args: &PlayArgs, paint: Paint) -> u8 {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    for (n, line) in stdin.lock().lines().enumerate() {
        let line = match line {
            Ok(line) => line,
            Err(e) => {
                return end_person(
                    &desk,
                    args,
                    Ending::Unreadable(format!("line {}: {e}", n + 1)),
                    paint,
                )
            }
        };
        let _ = writeln!(out, "{}{line}", desk.prompt());
        let replies = desk.eval(&line);
        if print_replies(&desk, &replies, paint) {
            return end_person(&desk, args, Ending::Quit, paint);
        }
    }
    end_person(&desk, args, Ending::InputEnded, paint)
}

fn terminal(desk: Desk, args: &PlayArgs, paint: Paint) -> u8 {
    let Ok(mut editor) = Editor::<Assist, DefaultHistory>::new() else {
        return piped(desk, args, paint);
    };
    editor.set_helper(Some(Assist { desk }));
    let ending = loop {
        let prompt = editor.helper().map_or("> ".into(), |a| a.desk.prompt());
        match editor.readline(&prompt) {
            Ok(line) => {
                let _ = editor.add_history_entry(line.as_str());
                let Some(assist) = editor.helper_mut() else {
                    break Ending::Quit;
                };
                let replies = assist.desk.eval(&line);
                if print_replies(&assist.desk, &replies, paint) {
                    break Ending::Quit;
                }
            }
            Err(ReadlineError::Interrupted) => continue,
            Err(ReadlineError::Eof) => break Ending::InputEnded,
            Err(e) => break Ending::Unreadable(e.to_string()),
        }
    };
    match editor.helper() {
        Some(assist) => end_person(&assist.desk, args, ending, paint),
        None => 0,
    }
}

/// The rustyline helper: completes the legal moves and the commands.
struct Assist {
    desk: Desk,
}

impl Completer for Assist {
    type Candidate = String;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<String>)> {
        Ok(self.desk.complete(line, pos))
    }
}

impl Hinter for Assist {
    type Hint = String;
}

impl Highlighter for Assist {}

impl Validator for Assist {}

impl Helper for Assist {}
