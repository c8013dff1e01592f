//! `dealer bench --play GAME`: plays whole games between agents and
//! prints what playing costs: the time of every move (the interpreter and
//! the engine), of every knowledge query an agent's strategy asks, of
//! every game, and the process's peak memory.
//!
//! Games are played on every core (rayon), one game per thread at a time;
//! game `i` has seed `seed + i`, so the games and their moves do not depend
//! on the number of threads. The peak memory is the whole process's
//! (`VmHWM`): with `--threads 1` it is the largest game's.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::time::{Duration, Instant};

use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use crate::cards::Size;
use crate::diag::{Diagnostic, Report};
use crate::interp::{Options, Session};
use crate::play::{Agent, Match, View};
use crate::strategy::agent::StrategyAgent;
use crate::strategy::{find, Oracle};

/// What `--play` was asked for.
pub struct PlayBench {
    /// The game.
    pub game: String,
    /// One agent or strategy per seat (one name: every seat).
    pub agents: Vec<String>,
    /// How many games.
    pub games: u64,
    /// The first game's seed.
    pub seed: u64,
    /// The deck and players.
    pub size: Size,
    /// Threads (0: one per core).
    pub threads: usize,
    /// Moves after which a game ends as it stands (`None`: the game's own
    /// limit, as every loop: [`crate::cards::stopped`]).
    pub max_moves: Option<usize>,
    /// The engine and its budget.
    pub options: Options,
}

/// The time of each query a strategy asked, shared by the agents of a game.
type Queries = Rc<RefCell<Vec<Duration>>>;

/// The moves of a game chosen because of knowledge, shared by its agents.
type Knowing = Rc<Cell<usize>>;

/// One game's measurements.
#[derive(Default)]
struct GameRun {
    moves: Vec<Duration>,
    queries: Vec<Duration>,
    /// The moves chosen by a rule whose guard is about knowledge
    /// ([`crate::strategy::Decision::knowing`]).
    knowing: usize,
    /// Dealing, every move and every choice.
    total: Duration,
    scores: Vec<i64>,
    /// The seats that won, as the game says (the Cabo-like game's lowest
    /// score wins).
    winners: Vec<usize>,
    /// Why the game ended at its limit (or `max_moves`), if it did.
    capped: Option<String>,
}

/// Runs the play benchmark; returns the exit code.
pub fn run(bench: &PlayBench) -> u8 {
    let pool = match rayon::ThreadPoolBuilder::new()
        .num_threads(bench.threads)
        .build()
    {
        Ok(pool) => pool,
        Err(e) => {
            eprintln!("error: cannot start the threads: {e}");
            return 2;
        }
    };
    let started = Instant::now();
    let runs: Vec<Result<GameRun, Report>> = pool.install(|| {
        (0..bench.games)
            .into_par_iter()
            .map(|i| play_one(bench, bench.seed.wrapping_add(i)))
            .collect()
    });
    let wall = started.elapsed();
    let mut done = Vec::new();
    for (i, r) in runs.into_iter().enumerate() {
        match r {
            Ok(run) => done.push(run),
            Err(e) => {
                eprintln!(
                    "error: game {} (seed {}): {}",
                    i,
                    bench.seed + i as u64,
                    e.plain()
                );
                return 2;
            }
        }
    }
    print!("{}", report(bench, &done, wall, pool.current_num_threads()));
    0
}

/// Plays game `seed` to its end, or to its limit (`max_moves` when given).
fn play_one(bench: &PlayBench, seed: u64) -> Result<GameRun, Report> {
    let started = Instant::now();
    let mut game = Match::new(&bench.game, seed, bench.size, bench.options)?;
    let queries: Queries = Rc::default();
    let knowing: Knowing = Rc::default();
    game.seat_named(&bench.agents, None, &mut |name| {
        Ok(Box::new(Timed {
            agent: StrategyAgent::new(find(None, &bench.game, name)?),
            queries: Rc::clone(&queries),
            knowing: Rc::clone(&knowing),
        }))
    })?;
    game.set_move_cap(bench.max_moves);
    let mut run = GameRun::default();
    while let Some(played) = game.agent_move() {
        let played = played?;
        run.moves.push(played.time);
    }
    run.capped = game.stopped();
    run.total = started.elapsed();
    run.scores = game.scores();
    run.winners = game.winners();
    run.queries = queries.take();
    run.knowing = knowing.get();
    Ok(run)
}

/// A strategy's seat, played as `StrategyAgent` plays it, that records the
/// time of every query it asks.
struct Timed {
    agent: StrategyAgent,
    queries: Queries,
    knowing: Knowing,
}

impl Agent for Timed {
    fn name(&self) -> &str {
        self.agent.name()
    }

    fn psychic(&self) -> bool {
        self.agent.psychic()
    }

    fn choose(&mut self, view: &View<'_>, rng: &mut ChaCha8Rng) -> Result<usize, Diagnostic> {
        let mut oracle = TimedOracle {
            session: view.session().clone(),
            times: &self.queries,
        };
        let before = self.agent.knowing_moves();
        let chosen = self.agent.choose_asking(view, &mut oracle, rng)?;
        let knew = self.agent.knowing_moves() - before;
        self.knowing.set(self.knowing.get() + knew);
        Ok(chosen)
    }
}

/// The session as an oracle, timing every answer.
struct TimedOracle<'a> {
    session: Session,
    times: &'a Queries,
}

impl Oracle for TimedOracle<'_> {
    fn holds(&mut self, formula: &crate::syntax::ast::Formula) -> Result<bool, Diagnostic> {
        let started = Instant::now();
        let answer = Oracle::holds(&mut self.session, formula);
        self.times.borrow_mut().push(started.elapsed());
        answer
    }
}

/// The printed summary.
fn report(bench: &PlayBench, runs: &[GameRun], wall: Duration, threads: usize) -> String {
    let moves: Vec<Duration> = runs.iter().flat_map(|r| r.moves.iter().copied()).collect();
    let queries: Vec<Duration> = runs
        .iter()
        .flat_map(|r| r.queries.iter().copied())
        .collect();
    let games: Vec<Duration> = runs.iter().map(|r| r.total).collect();
    let mut out = format!(
        "{} ({}), agents {}, {} game(s) from seed {} on {threads} thread(s)\n",
        bench.game,
        match bench.size {
            Size::Full => "full size",
            Size::Teaching => "small",
        },
        bench.agents.join(","),
        runs.len(),
        bench.seed
    );
    out.push_str(&line("move", &moves));
    out.push_str(&line("query", &queries));
    out.push_str(&line("game", &games));
    let per_game = |n: usize| n as f64 / runs.len().max(1) as f64;
    out.push_str(&format!(
        "  {:<6} {:.1} moves and {:.1} queries per game; {:.2} s wall for all games\n",
        "count",
        per_game(moves.len()),
        per_game(queries.len()),
        wall.as_secs_f64()
    ));
    let knowing: usize = runs.iter().map(|r| r.knowing).sum();
    out.push_str(&format!(
        "  {:<6} {:.1} moves per game chosen by a rule whose guard is about knowledge ({knowing} in all)\n",
        "known",
        per_game(knowing),
    ));
    let capped: Vec<&str> = runs.iter().filter_map(|r| r.capped.as_deref()).collect();
    if let Some(why) = capped.first() {
        out.push_str(&format!(
            "  {:<6} {} game(s) ended as they stood at their limit ({why})\n",
            "capped",
            capped.len()
        ));
    }
    let wins = wins(runs);
    let seats = wins.len();
    let mean_scores: Vec<String> = (0..seats)
        .map(|s| {
            let total: i64 = runs.iter().map(|r| r.scores[s]).sum();
            format!("{:.1}", total as f64 / runs.len().max(1) as f64)
        })
        .collect();
    out.push_str(&format!(
        "  {:<6} wins per seat {}; mean score per seat {}\n",
        "result",
        wins.iter()
            .map(|w| w.to_string())
            .collect::<Vec<_>>()
            .join(" "),
        mean_scores.join(" ")
    ));
    out.push_str(&format!(
        "  {:<6} {}\n",
        "memory",
        match super::bench::peak_kib() {
            Some(k) if threads == 1 =>
                format!("peak {:.1} MiB (the largest game)", k as f64 / 1024.0),
            Some(k) => format!(
                "peak {:.1} MiB for {threads} games at once (run with --threads 1 for one game's)",
                k as f64 / 1024.0
            ),
            None => "n/a".to_string(),
        }
    ));
    out
}

/// How many games each seat won, as each game says (ties count for every
/// winner).
fn wins(runs: &[GameRun]) -> Vec<usize> {
    let seats = runs.first().map_or(0, |r| r.scores.len());
    let mut wins = vec![0; seats];
    for r in runs {
        for &s in &r.winners {
            wins[s] += 1;
        }
    }
    wins
}

/// `  move   mean 1.2 ms  median 0.8 ms  p99 9.1 ms  worst 20 ms  (n = 1000)`.
fn line(what: &str, times: &[Duration]) -> String {
    if times.is_empty() {
        return format!("  {what:<6} none\n");
    }
    let mut sorted = times.to_vec();
    sorted.sort();
    let total: Duration = sorted.iter().sum();
    let mean = total / sorted.len() as u32;
    let at = |q: f64| sorted[((sorted.len() - 1) as f64 * q).round() as usize];
    format!(
        "  {what:<6} mean {}  median {}  p99 {}  worst {}  (n = {})\n",
        show(mean),
        show(at(0.5)),
        show(at(0.99)),
        show(*sorted.last().expect("not empty")),
        sorted.len()
    )
}

/// A duration in the unit that reads best.
fn show(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s >= 1.0 {
        format!("{s:.2} s")
    } else if s >= 1e-3 {
        format!("{:.1} ms", s * 1e3)
    } else {
        format!("{:.0} µs", s * 1e6)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A timed seat is its strategy's agent: a strategy that glimpses
    /// still has its player declared psychic, and one that does not, not.
    #[test]
    fn a_timed_seat_keeps_its_strategy_s_psychic_player() {
        for (name, psychic) in [("psychic", true), ("regular", false)] {
            let timed = Timed {
                agent: StrategyAgent::new(find(None, "cabo", name).unwrap()),
                queries: Queries::default(),
                knowing: Knowing::default(),
            };
            assert_eq!(timed.psychic(), psychic, "{name}");
            assert_eq!(timed.name(), name);
        }
    }

    /// In teaching games of Kwartet at every seat greedy, the moves
    /// counted as chosen because of knowledge are the asks of its `known`
    /// rule, for a card the asker knows the target holds: every one of them
    /// succeeds, some moves are counted and not all (greedy also asks at
    /// random). Random players choose no move because of knowledge.
    #[test]
    fn the_moves_chosen_because_of_knowledge_are_counted_and_succeed() {
        let greedy = vec!["greedy".to_string()];
        let (mut counted, mut moves) = (0, 0);
        for seed in 1..=4 {
            let mut game = Match::new("kwartet", seed, Size::Teaching, Options::default()).unwrap();
            let knowing: Knowing = Rc::default();
            game.seat_named(&greedy, None, &mut |name| {
                Ok(Box::new(Timed {
                    agent: StrategyAgent::new(find(None, "kwartet", name)?),
                    queries: Queries::default(),
                    knowing: Rc::clone(&knowing),
                }))
            })
            .unwrap();
            while let Some(played) = game.agent_move() {
                let played = played.unwrap();
                moves += 1;
                if knowing.get() > counted {
                    counted += 1;
                    assert_eq!(knowing.get(), counted, "one a move");
                    let failed = played.notes.iter().any(|n| n.contains("does not have"));
                    assert!(!failed, "seed {seed}: {} {:?}", played.text, played.notes);
                }
            }
        }
        assert!(counted > 0 && counted < moves, "{counted} of {moves}");
        let bench = PlayBench {
            game: "kwartet".to_string(),
            agents: vec!["random".to_string()],
            games: 1,
            seed: 1,
            size: Size::Teaching,
            threads: 1,
            max_moves: None,
            options: Options::default(),
        };
        let run = play_one(&bench, 1).unwrap();
        assert!(!run.moves.is_empty());
        assert_eq!(run.knowing, 0);
        let report = report(&bench, &[run], Duration::ZERO, 1);
        assert!(
            report.contains("0.0 moves per game chosen by a rule whose guard is about knowledge"),
            "{report}"
        );
    }
}
