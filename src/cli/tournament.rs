//! `dealer tournament GAME --strategies a,b,c --games N --seed S`: many
//! seeded games between strategies (see [`crate::tournament`]), with a
//! progress bar, the report's table, a CSV row per game, a JSON summary
//! and a chart; `dealer tournament merge --out DIR A.csv B.csv ...` joins
//! the CSV files of shards.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use crate::cards::Size;
use crate::diag::{color_from_env, Report};
use crate::strategy::{find_with_source, Strategy};
use crate::tournament::chart::draw;
use crate::tournament::manifest::FILE as MANIFEST;
use crate::tournament::refused;
use crate::tournament::{
    read_csv, run, summarise, CsvFile, Deal, Manifest, Plan, Record, Seatings,
};

use super::ModelArgs;

/// Every game that can be played (has a referee), read from the registry
/// ([`crate::play::playable`]), for the help of a GAME argument.
pub fn playable_games() -> String {
    let games: Vec<String> = crate::play::playable()
        .iter()
        .map(|g| format!("`{g}`"))
        .collect();
    games.join(", ")
}

/// The arguments of `dealer tournament`.
#[derive(Args, Debug)]
pub struct TournamentArgs {
    /// The game (one of the games that can be played, listed in the help
    /// from the game registry), or `merge` to join CSV files.
    #[arg(help = format!("The game ({}), or `merge` to join CSV files", playable_games()))]
    pub game: String,
    /// With `merge`: the CSV files to join.
    pub inputs: Vec<PathBuf>,
    /// The strategies: names of strategies/GAME-NAME.strat or paths to
    /// .strat files, comma-separated. With more strategies than seats,
    /// every combination of them plays (one run each).
    #[arg(long, value_delimiter = ',')]
    pub strategies: Vec<String>,
    /// Games per combination (at least 1).
    #[arg(long, default_value_t = 100, value_parser = super::at_least_one)]
    pub games: u64,
    /// Let a strategy take several seats of a run: every combination with
    /// repetition plays (Kemps' Figures 1-3: three strategies, ten runs).
    #[arg(long)]
    pub repeats: bool,
    /// Seat every run's strategies in the order given, the first moving
    /// first in every game (the Kwartet report's setup); the same as
    /// `--seatings fixed`.
    #[arg(long, conflicts_with = "seatings")]
    pub fixed_seats: bool,
    /// How a run's strategies are seated from game to game: `rotate` (the
    /// default: each moves first equally often), `fixed` (in the order
    /// given) or `all` (every order in turn, so that each sits after each
    /// other equally often over k! games).
    #[arg(long, value_enum)]
    pub seatings: Option<SeatingsArg>,
    /// Moves after which a game ends as it stands (its scores so far),
    /// instead of the game's own limit (Kemps: the report's 10,000 turns;
    /// any game: 5,000 moves), which `dealer play`, the web play page and
    /// `dealer bench --play` share; the end-of-run line says how many
    /// games ended so.
    #[arg(long, value_parser = super::whole::<usize>)]
    pub max_moves: Option<usize>,
    /// The tournament's seed (every game's seed derives from it and the game's index).
    #[arg(long, default_value_t = 1, value_parser = super::whole::<u64>)]
    pub seed: u64,
    /// Play only part K of N of the games (`--shard 2/8`).
    #[arg(long, value_parser = parse_shard, default_value = "1/1")]
    pub shard: (u64, u64),
    /// Where to write games.csv, summary.json, table.txt, chart.svg and chart.png.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// The deal: `full` (the report's deck and players) or `small` (the
    /// teaching deck).
    #[arg(long, value_enum, default_value_t = Size::Full)]
    pub size: Size,
    /// Another deck for the report's players (`"deck ranks A K Q J suits S H D C"`); needs --hand.
    #[arg(long, requires = "hand")]
    pub deck: Option<String>,
    /// Cards dealt to each player with --deck.
    #[arg(long, requires = "deck", value_parser = super::whole::<usize>)]
    pub hand: Option<usize>,
    /// A folder of strategy files that take precedence over the built-in
    /// strategies (default: `strategies/` of the working directory, when
    /// there is one).
    #[arg(long = "strategies-dir", alias = "dir")]
    pub dir: Option<PathBuf>,
    /// The engine and its budget.
    #[command(flatten)]
    pub model: ModelArgs,
}

fn parse_shard(s: &str) -> Result<(u64, u64), Report> {
    let (k, n) = s
        .split_once('/')
        .ok_or_else(|| refused("tournament-args", "write the shard as K/N, e.g. 2/8"))?;
    let (k, n): (u64, u64) = (
        k.parse()
            .map_err(|_| refused("tournament-args", format!("`{k}` is not a number")))?,
        n.parse()
            .map_err(|_| refused("tournament-args", format!("`{n}` is not a number")))?,
    );
    if n == 0 || k == 0 || k > n {
        return Err(refused(
            "tournament-args",
            format!("shard {k}/{n}: K must be between 1 and N"),
        ));
    }
    Ok((k, n))
}

/// Runs `dealer tournament ARGS` in this process (the words after
/// `tournament`): the error it would print, if refused.
pub fn run_words(words: &[&str]) -> Result<(), Report> {
    use clap::Parser;
    #[derive(Parser)]
    struct Line {
        #[command(flatten)]
        args: TournamentArgs,
    }
    let line = Line::try_parse_from(std::iter::once("tournament").chain(words.iter().copied()))
        .map_err(|e| refused("usage", e.to_string()))?;
    execute(&line.args)
}

/// Runs the command: its error, if refused.
pub fn execute(args: &TournamentArgs) -> Result<(), Report> {
    if args.game == "merge" {
        merge(args)
    } else {
        tournament(args)
    }
}

/// Runs the command; returns the exit code.
pub fn main(args: &TournamentArgs) -> u8 {
    match execute(args) {
        Ok(()) => 0,
        Err(e) => {
            eprint!("{}", e.render(color_from_env()));
            2
        }
    }
}

fn deal(args: &TournamentArgs) -> Result<Deal, Report> {
    if let Some(deck) = &args.deck {
        let hand = args.hand.ok_or_else(|| {
            refused(
                "tournament-args",
                "--deck needs --hand: the cards dealt to each player",
            )
        })?;
        let deck = if deck.trim_start().starts_with("deck ") {
            deck.trim().to_string()
        } else {
            format!("deck {}", deck.trim())
        };
        let deck = crate::tournament::game::read_custom_deck(&deck)?;
        let deal = Deal::Custom { deck, hand };
        // The deck's and the hand's errors, before any game is dealt.
        crate::tournament::game::deal_of(&args.game, &deal, 0)?;
        return Ok(deal);
    }
    Ok(Deal::Referee(args.size))
}

fn tournament(args: &TournamentArgs) -> Result<(), Report> {
    crate::tournament::game::referee_of(&args.game)?;
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("tournament-{}", args.game)));
    let (strategies, sources): (Vec<Strategy>, Vec<String>) = args
        .strategies
        .iter()
        .map(|name| find_with_source(args.dir.as_deref(), &args.game, name))
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .unzip();
    if strategies.is_empty() {
        return Err(refused(
            "tournament-args",
            "give the strategies: --strategies a,b,c",
        ));
    }
    for (s, name) in strategies.iter().zip(&args.strategies) {
        if s.game != args.game {
            return Err(refused(
                "tournament-args",
                format!("strategy `{name}` is for {}, not {}", s.game, args.game),
            ));
        }
    }
    let deal = deal(args)?;
    let players = crate::tournament::game::deal_of(&args.game, &deal, 0)?
        .players
        .len();
    let plan = Plan {
        game: args.game.clone(),
        deal,
        strategies,
        players,
        games: args.games,
        seed: args.seed,
        shard: args.shard,
        options: args.model.options(false),
        repeats: args.repeats,
        seatings: match (args.seatings, args.fixed_seats) {
            (Some(SeatingsArg::All), _) => Seatings::All,
            (Some(SeatingsArg::Fixed), _) | (None, true) => Seatings::Fixed,
            (Some(SeatingsArg::Rotate), _) | (None, false) => Seatings::Rotate,
        },
        max_moves: args.max_moves,
    };
    let total = plan.shard_games()?;
    let manifest = Manifest::of(&plan, &sources);
    // The folder's experiment, before anything is written.
    let recorded = if out.is_dir() { recorded(&out)? } else { None };
    if let Some(old) = &recorded {
        old.same_as(&manifest, &out.join(MANIFEST).display().to_string())?;
    }
    super::writable_dir(&out).map_err(|e| refused("cannot-write", e))?;
    let csv = match args.shard {
        (1, 1) => out.join("games.csv"),
        (k, n) => out.join(format!("games-{k}-of-{n}.csv")),
    };
    let mut file = CsvFile::open_locked(&csv)?;
    let before = file.rows()?;
    manifest.check(&csv.display().to_string(), &before, Some(args.shard))?;
    if recorded.is_none() {
        if let Some(other) = manifest.write_new(&out)? {
            // Another process wrote it between our look and ours.
            other.same_as(&manifest, &out.join(MANIFEST).display().to_string())?;
        }
    }
    file.prepare(&before)?;
    if !before.records.is_empty() || before.cut.is_some() {
        eprintln!(
            "resuming {}: {} of {total} games already played{}",
            csv.display(),
            before.records.len(),
            match before.cut {
                Some((line, _)) => format!(" (line {line}, cut short, removed)"),
                None => String::new(),
            }
        );
    }
    let done = before.records.len() as u64;
    let bar = progress_bar(total, done);
    let started = Instant::now();
    let records = run(&plan, &mut file, before.records, &|_r: &Record| bar.inc(1))?;
    drop(file);
    bar.finish_and_clear();
    let played = records.len() as u64 - done;
    let secs = started.elapsed().as_secs_f64();
    println!(
        "{played} games played in {secs:.1} s ({:.3} s per game on {} threads); {} in {}",
        secs / played.max(1) as f64,
        rayon::current_num_threads(),
        records.len(),
        csv.display()
    );
    let capped = records
        .values()
        .filter(|r| r.capped || args.max_moves.is_some_and(|cap| r.turns >= cap))
        .count();
    if capped > 0 {
        println!(
            "{capped} games reached {} and ended as they stood",
            args.max_moves.map_or_else(
                || "the game's limit".to_string(),
                |cap| format!("{cap} moves")
            )
        );
    }
    report(
        &args.game,
        &manifest.names(),
        records.values().collect(),
        &out,
    )
}

/// The manifest of folder `dir`; a folder that holds games but no
/// manifest is refused (its experiment is unknown).
fn recorded(dir: &Path) -> Result<Option<Manifest>, Report> {
    let manifest = Manifest::read(dir)?;
    if manifest.is_none() {
        let entries = std::fs::read_dir(dir)
            .map_err(|e| refused("cannot-read", format!("cannot read {}: {e}", dir.display())))?;
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().to_string();
            if name.starts_with("games") && name.ends_with(".csv") {
                return Err(refused("tournament-args", format!(
                    "{} holds games but no {MANIFEST}, which would say what experiment they are: give another --out",
                    dir.display()
                )));
            }
        }
    }
    Ok(manifest)
}

fn progress_bar(total: u64, done: u64) -> ProgressBar {
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games  {elapsed} elapsed, {eta} left")
            .expect("a valid template"),
    );
    bar.set_position(done);
    bar
}

/// Prints the table and writes summary.json, table.txt and the chart.
fn report(game: &str, names: &[String], records: Vec<&Record>, out: &Path) -> Result<(), Report> {
    let summary = summarise(game, names, &records);
    let table = summary.table();
    print!("{table}");
    let write = |file: &str, text: &str| {
        std::fs::write(out.join(file), text)
            .map_err(|e| refused("cannot-write", format!("cannot write {file}: {e}")))
    };
    write("summary.json", &summary.json())?;
    write("table.txt", &table)?;
    let files = draw(&summary, &out.join("chart.svg"), &out.join("chart.png"))?;
    println!(
        "wrote {}, {}, {}",
        out.join("summary.json").display(),
        out.join("table.txt").display(),
        files.join(", ")
    );
    Ok(())
}

/// Merges the CSV files of shards: each with the manifest of its folder,
/// all of one experiment, every row the game the manifest says; a game in
/// two files must be the same row. The output folder's own games.csv, if
/// any, is merged too.
fn merge(args: &TournamentArgs) -> Result<(), Report> {
    if args.inputs.is_empty() {
        return Err(refused(
            "tournament-args",
            "give the CSV files to merge: dealer tournament merge --out DIR A.csv B.csv",
        ));
    }
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from("tournament-merged"));
    let target = out.join("games.csv");
    let mut inputs = args.inputs.clone();
    if target.exists() && !inputs.iter().any(|p| same_file(p, &target)) {
        inputs.push(target.clone());
    }
    let mut manifest: Option<(Manifest, PathBuf)> = None;
    let mut all: BTreeMap<u64, Record> = BTreeMap::new();
    let mut from: BTreeMap<u64, (usize, usize)> = BTreeMap::new();
    for (i, path) in inputs.iter().enumerate() {
        if !path.is_file() {
            return Err(refused(
                "tournament-args",
                format!("{} is not a file", path.display()),
            ));
        }
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let Some(this) = Manifest::read(&dir)? else {
            return Err(refused(
                "tournament-args",
                format!(
                    "{}: no {MANIFEST} beside it, which would say what experiment its games are",
                    path.display()
                ),
            ));
        };
        match &manifest {
            Some((first, first_dir)) => {
                let place = format!(
                    "{} (against {})",
                    dir.join(MANIFEST).display(),
                    first_dir.join(MANIFEST).display()
                );
                first.same_as(&this, &place)?;
            }
            None => manifest = Some((this.clone(), dir.clone())),
        }
        let name = path.display().to_string();
        let rows = read_csv(path)?;
        if let Some((line, _)) = rows.cut {
            return Err(refused("tournament-args", format!(
                "{name}:{line}: the last line is cut short (its shard was interrupted: resume it first)"
            )));
        }
        this.check(&name, &rows, None)?;
        for (index, record) in rows.records {
            let line = rows.lines[&index];
            match all.get(&index) {
                Some(old) if *old != record => {
                    let (file, at) = from[&index];
                    return Err(refused(
                        "tournament-args",
                        format!(
                            "{name}:{line}: game {index} differs from {}:{at}",
                            inputs[file].display()
                        ),
                    ));
                }
                Some(_) => {}
                None => {
                    from.insert(index, (i, line));
                    all.insert(index, record);
                }
            }
        }
    }
    let (manifest, _) = manifest.expect("at least one input");
    if out.is_dir() {
        if let Some(old) = recorded(&out)? {
            old.same_as(&manifest, &out.join(MANIFEST).display().to_string())?;
        }
    }
    std::fs::create_dir_all(&out).map_err(|e| {
        refused(
            "cannot-write",
            format!("cannot create {}: {e}", out.display()),
        )
    })?;
    let mut file = CsvFile::open_locked(&target)?;
    if let Some(other) = manifest.write_new(&out)? {
        other.same_as(&manifest, &out.join(MANIFEST).display().to_string())?;
    }
    file.replace(all.values())?;
    drop(file);
    println!(
        "{} games merged into {} (of {} in the experiment)",
        all.len(),
        target.display(),
        manifest.total()?
    );
    report(
        &manifest.game,
        &manifest.names(),
        all.values().collect(),
        &out,
    )
}

/// Whether two paths name one file.
fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// `--seatings`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SeatingsArg {
    /// The seats rotate from game to game.
    Rotate,
    /// The order given, in every game.
    Fixed,
    /// Every order in turn.
    All,
}
