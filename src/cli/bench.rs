//! `dealer bench [FILES...]`: replays each scenario several times and
//! prints a table of timings and peak memory.
//!
//! With no files, every `.deal` file under `scenarios/bench/` is run. For
//! each scenario: the initial number of worlds, the time to build the model
//! (the statement during which the deal became a model), the total replay
//! time (min and median over the runs), the slowest statement with its line
//! (by its fastest run), the process's peak resident memory while the
//! scenario ran (`VmHWM`), and the peer's time when the scenario names one
//! (a comment line `# peer: SMCDEL 0.58 s`). Each scenario runs in a
//! process of its own (`dealer bench --one FILE`), so that no scenario's
//! memory, kept by the allocator, shows in the next one's peak.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::Args;

use crate::engine::Representation;
use crate::interp::{Options, Output, Script, Session};

/// The arguments of `dealer bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// The scenarios; every `.deal` file under `scenarios/bench/` if none.
    pub files: Vec<PathBuf>,
    /// How many times each scenario is replayed (at least once).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..))]
    pub runs: u32,
    /// The engine and its budget.
    #[command(flatten)]
    pub model: super::ModelArgs,
    /// Measure the one file given in this process and print its row as
    /// tab-separated cells (what `dealer bench` runs for each scenario).
    #[arg(long, hide = true)]
    pub one: bool,
    /// Play whole games of GAME between agents instead of replaying
    /// scenarios, and print the time per move, per query and per game and
    /// the peak memory.
    #[arg(long, value_name = "GAME")]
    pub play: Option<String>,
    /// Time parsing alone (no replay): the grammar alone beside the
    /// parser as dealer runs it, in MB/s, for each file.
    #[arg(long, conflicts_with = "play")]
    pub parse: bool,
    /// With --play: how many games (seeds --seed, --seed + 1, ...).
    #[arg(long, default_value_t = 10, value_parser = super::at_least_one)]
    pub games: u64,
    /// With --play: the agents or strategies, one per seat (one name: every seat).
    #[arg(long, default_value = "random", value_delimiter = ',')]
    pub agents: Vec<String>,
    /// With --play: the first game's seed.
    #[arg(long, default_value_t = 1, value_parser = super::whole::<u64>)]
    pub seed: u64,
    /// With --play: the report's deck and players, or a small deck.
    #[arg(long, value_enum, default_value_t = crate::cards::Size::Full)]
    pub size: crate::cards::Size,
    /// With --play: moves after which a game ends as it stands (the
    /// summary says how many did), instead of the game's own limit, as in
    /// `dealer tournament` (Kemps: the report's 10,000 turns, since the
    /// knowledge-based players can wait for ever; any game: 5,000 moves).
    #[arg(long, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub max_moves: Option<usize>,
    /// With --play: threads playing games at once (0: one per core; at most 256).
    #[arg(long, default_value_t = 0,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(0..=256))]
    pub threads: usize,
}

/// What one replay measured.
struct Run {
    total: Duration,
    build: Option<Duration>,
    worlds: Option<num_bigint::BigUint>,
    engine: &'static str,
    /// The time of each statement, in order, with its line.
    statements: Vec<(usize, Duration)>,
    failed: usize,
}

/// One scenario's row of the table.
struct Row {
    name: String,
    engine: String,
    worlds: String,
    build: String,
    min: String,
    median: String,
    slowest: String,
    peak: String,
    peer: String,
}

impl Row {
    /// The cells, in the table's order.
    fn cells(&self) -> [&String; 9] {
        [
            &self.name,
            &self.engine,
            &self.worlds,
            &self.build,
            &self.min,
            &self.median,
            &self.slowest,
            &self.peak,
            &self.peer,
        ]
    }

    /// A row from the tab-separated cells printed by `--one`.
    fn parse(line: &str) -> Option<Row> {
        let c: Vec<String> = line.trim_end().split('\t').map(String::from).collect();
        let [name, engine, worlds, build, min, median, slowest, peak, peer] =
            <[String; 9]>::try_from(c).ok()?;
        Some(Row {
            name,
            engine,
            worlds,
            build,
            min,
            median,
            slowest,
            peak,
            peer,
        })
    }
}

/// Runs the benchmark; returns the exit code (0, or 2 if a scenario failed).
pub fn run(args: &BenchArgs) -> u8 {
    if let Some(game) = &args.play {
        return super::bench_play::run(&super::bench_play::PlayBench {
            game: game.clone(),
            agents: args.agents.clone(),
            games: args.games,
            seed: args.seed,
            size: args.size,
            threads: args.threads,
            max_moves: args.max_moves,
            options: args.model.options(false),
        });
    }
    let files = if args.files.is_empty() {
        match default_files() {
            Ok(files) => files,
            Err(e) => {
                eprintln!("error: cannot list scenarios/bench/: {e}");
                return 2;
            }
        }
    } else {
        args.files.clone()
    };
    let options = args.model.options(false);
    let runs = args.runs.max(1) as usize;
    if args.parse {
        return super::bench_parse::run(&files, runs);
    }
    if args.one {
        return match files.as_slice() {
            [file] => match bench_file(file, runs, options) {
                Ok(row) => {
                    println!("{}", row.cells().map(|c| c.as_str()).join("\t"));
                    0
                }
                Err(why) => {
                    eprintln!("error: {}: {why}", file.display());
                    2
                }
            },
            _ => {
                eprintln!("error: --one measures exactly one file");
                2
            }
        };
    }
    let mut rows = Vec::new();
    let mut code = 0;
    for file in &files {
        match in_own_process(file, args).unwrap_or_else(|| bench_file(file, runs, options)) {
            Ok(row) => rows.push(row),
            Err(why) => {
                eprintln!("error: {}: {why}", file.display());
                code = 2;
            }
        }
    }
    print!("{}", table(&rows));
    code
}

/// Measures `file` in a child process (`dealer bench --one`); `None` when
/// no child could be started (then the caller measures in this process).
fn in_own_process(file: &Path, args: &BenchArgs) -> Option<Result<Row, String>> {
    let exe = std::env::current_exe().ok()?;
    let engine = match args.model.engine {
        super::EngineArg::Explicit => "explicit",
        super::EngineArg::Symbolic => "symbolic",
        super::EngineArg::Auto => "auto",
    };
    let out = std::process::Command::new(exe)
        .arg("bench")
        .arg("--one")
        .args(["--runs", &args.runs.to_string()])
        .args(["--engine", engine])
        .args(["--max-worlds", &args.model.max_worlds.to_string()])
        .args([
            "--bdd-memory",
            super::ModelArgs::budget_arg(args.model.budget()),
        ])
        .arg(file)
        .stderr(std::process::Stdio::inherit())
        .output()
        .ok()?;
    if !out.status.success() {
        return Some(Err("failed (see above)".into()));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    Some(Row::parse(&text).ok_or_else(|| format!("unreadable measurement: {text}")))
}

/// The `.deal` files under `scenarios/bench/`, sorted.
fn default_files() -> std::io::Result<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(Path::new("scenarios/bench"))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "deal"))
        .collect();
    files.sort();
    Ok(files)
}

/// Replays one file `runs` times and summarises.
fn bench_file(file: &Path, runs: usize, options: Options) -> Result<Row, String> {
    let src = std::fs::read_to_string(file).map_err(|e| format!("cannot read: {e}"))?;
    let hwm_reset = reset_peak();
    let mut done = Vec::with_capacity(runs);
    for _ in 0..runs {
        let r = replay_once(&src, options)?;
        if r.failed > 0 {
            return Err(format!("{} expectation(s) failed", r.failed));
        }
        done.push(r);
    }
    let mut totals: Vec<Duration> = done.iter().map(|r| r.total).collect();
    totals.sort();
    let builds = done.iter().filter_map(|r| r.build).min();
    let peak = match (peak_kib(), hwm_reset) {
        (Some(k), true) => format!("{:.1} MiB", k as f64 / 1024.0),
        (Some(k), false) => format!("{:.1} MiB (process)", k as f64 / 1024.0),
        (None, _) => "n/a".to_string(),
    };
    Ok(Row {
        name: file.display().to_string(),
        engine: done[0].engine.to_string(),
        worlds: done[0]
            .worlds
            .as_ref()
            .map_or("-".into(), |w| w.to_string()),
        build: builds.map_or("-".into(), ms),
        min: ms(totals[0]),
        median: ms(totals[totals.len() / 2]),
        slowest: slowest(&done),
        peak,
        peer: peer(&src),
    })
}

/// Parses and replays a scenario once, timing every statement.
fn replay_once(src: &str, options: Options) -> Result<Run, String> {
    let start = Instant::now();
    let script = Script::parse("", src).map_err(|errors| {
        let first = errors.first().map(|e| e.message.clone());
        format!("does not parse: {}", first.unwrap_or_default())
    })?;
    let mut session = Session::new(options);
    let mut run = Run {
        total: Duration::ZERO,
        build: None,
        worlds: None,
        engine: "-",
        statements: Vec::with_capacity(script.statements.len()),
        failed: 0,
    };
    let mut replay = session.replay(&script, 0);
    loop {
        let before = replay.session().playing().is_some();
        let t = Instant::now();
        let Some(step) = replay.next() else {
            break;
        };
        let took = t.elapsed();
        let outputs = step
            .outcome
            .map_err(|d| format!("line {}: {}", step.line, d.message))?;
        if !before {
            if let Some(p) = replay.session().playing() {
                run.build = Some(took);
                run.worlds = Some(p.model.world_count_big());
                run.engine = match p.model.representation() {
                    Representation::Explicit => "explicit",
                    Representation::Symbolic { .. } => "symbolic",
                };
            }
        }
        run.failed += outputs
            .iter()
            .filter(|o| matches!(o, Output::Expect { held: false, .. }))
            .count();
        if step.index.is_some() {
            run.statements.push((step.line, took));
        }
    }
    run.total = start.elapsed();
    Ok(run)
}

/// The statement with the largest fastest time over the runs.
fn slowest(runs: &[Run]) -> String {
    let count = runs[0].statements.len();
    (0..count)
        .map(|i| {
            let best = runs
                .iter()
                .map(|r| r.statements[i].1)
                .min()
                .unwrap_or_default();
            (runs[0].statements[i].0, best)
        })
        .max_by_key(|&(_, d)| d)
        .map_or("-".into(), |(line, d)| format!("line {line}: {}", ms(d)))
}

/// The peer's result the scenario names in a `# peer: ...` line, or `-`.
fn peer(src: &str) -> String {
    src.lines()
        .find_map(|l| l.trim().strip_prefix("# peer:"))
        .map_or("-".into(), |p| p.trim().to_string())
}

/// A duration in milliseconds.
fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

/// Resets the peak resident size (`VmHWM`); false if this system cannot.
fn reset_peak() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

/// The peak resident size in KiB (`VmHWM` of /proc/self/status), if readable.
pub(crate) fn peak_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The table, columns padded to their widest cell.
fn table(rows: &[Row]) -> String {
    let head = [
        "scenario",
        "engine",
        "worlds",
        "build",
        "replay min",
        "replay median",
        "slowest statement",
        "peak memory",
        "peer",
    ];
    let cells: Vec<[String; 9]> = rows.iter().map(|r| r.cells().map(|s| s.clone())).collect();
    let mut width: Vec<usize> = head.iter().map(|h| h.len()).collect();
    for row in &cells {
        for (w, c) in width.iter_mut().zip(row) {
            *w = (*w).max(c.len());
        }
    }
    let line = |cols: Vec<&str>| {
        let padded: Vec<String> = cols
            .iter()
            .zip(&width)
            .map(|(c, &w)| format!("{c:<w$}"))
            .collect();
        format!("{}\n", padded.join("  ").trim_end())
    };
    let mut out = line(head.to_vec());
    out += &line(
        width
            .iter()
            .map(|&w| "-".repeat(w))
            .collect::<Vec<_>>()
            .iter()
            .map(String::as_str)
            .collect(),
    );
    for row in &cells {
        out += &line(row.iter().map(String::as_str).collect());
    }
    out
}
