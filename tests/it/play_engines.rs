//! Played games on both engines: every strategy query of every move is
//! answered by the symbolic engine (whose knowledge at the actual state is
//! read through the players' considered sets) and by the explicit engine,
//! and the answers must agree; the moves chosen from them are then played
//! on both, so the two games stay the same game.
//!
//! The decks are the small ones: the full decks are far too large for the
//! explicit engine. At full size the symbolic engine's answers through the
//! considered sets are checked against its own whole-structure evaluation
//! (the engine's unit tests).

use std::path::Path;

use dealer::cards::Size;
use dealer::diag::Diagnostic;
use dealer::interp::{Engine, Options, Session};
use dealer::play::Match;
use dealer::strategy::{choose, find, Oracle, SHIPPED_DIR};
use dealer::syntax::ast::Formula;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Asks both sessions and insists on one answer.
struct Both<'a> {
    explicit: Session,
    symbolic: Session,
    asked: &'a mut usize,
}

impl Oracle for Both<'_> {
    fn holds(&mut self, formula: &Formula) -> Result<bool, Diagnostic> {
        let e = Oracle::holds(&mut self.explicit, formula)?;
        let s = Oracle::holds(&mut self.symbolic, formula)?;
        assert_eq!(e, s, "the engines disagree on `{formula}`");
        *self.asked += 1;
        Ok(e)
    }
}

fn options(engine: Engine) -> Options {
    Options {
        engine,
        ..Options::default()
    }
}

/// Plays game `seed` with `strategies` (seat p plays the p-th, cycling)
/// on both engines;
/// returns the moves played and the queries checked.
fn play_both(game: &str, seed: u64, strategies: &[&str]) -> (usize, usize) {
    let mut e = Match::new(game, seed, Size::Teaching, options(Engine::Explicit)).unwrap();
    let mut s = Match::new(game, seed, Size::Teaching, options(Engine::Symbolic)).unwrap();
    let players = e.playing().table.players.len();
    let loaded: Vec<_> = (0..players)
        .map(|p| {
            find(
                Some(Path::new(SHIPPED_DIR)),
                game,
                strategies[p % strategies.len()],
            )
            .unwrap()
        })
        .collect();
    let mut rngs: Vec<ChaCha8Rng> = (0..players)
        .map(|p| {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            rng.set_stream(p as u64 + 1);
            rng
        })
        .collect();
    let (mut moves, mut asked) = (0, 0);
    while let Some(player) = e.current_player() {
        assert_eq!(s.current_player(), Some(player));
        let offered = e.legal_moves();
        let legal: Vec<String> = offered.iter().map(|l| l.text.clone()).collect();
        let same: Vec<String> = s.legal_moves().into_iter().map(|l| l.text).collect();
        assert_eq!(legal, same);
        let table = e.playing().table.clone();
        let mut both = Both {
            explicit: e.session().clone(),
            symbolic: s.session().clone(),
            asked: &mut asked,
        };
        let d = choose(
            &loaded[player],
            e.playing().game,
            &mut both,
            &table,
            player,
            &offered,
            &mut rngs[player],
        )
        .unwrap();
        let text = legal[d.index].clone();
        let ne = e.play(&text).unwrap().notes.clone();
        let ns = s.play(&text).unwrap().notes.clone();
        assert_eq!(ne, ns, "{game} seed {seed}: `{text}`");
        moves += 1;
        assert!(moves < 500, "{game} seed {seed} does not end");
    }
    assert!(s.is_over());
    assert_eq!(e.scores(), s.scores());
    (moves, asked)
}

#[test]
fn go_fish_strategies_ask_both_engines_the_same() {
    let (mut moves, mut asked) = (0, 0);
    for seed in 0..4 {
        let (m, a) = play_both("gofish", seed, &["second-order", "first-order", "careful"]);
        moves += m;
        asked += a;
    }
    assert!(asked > 50, "{asked} queries in {moves} moves");
    println!("Go Fish: 4 games, {moves} moves, {asked} queries checked");
}

#[test]
fn kwartet_strategies_ask_both_engines_the_same() {
    let (mut moves, mut asked) = (0, 0);
    for seed in 0..3 {
        let (m, a) = play_both("kwartet", seed, &["greedy", "mixed", "silent", "greedy"]);
        moves += m;
        asked += a;
    }
    assert!(asked > 20, "{asked} queries in {moves} moves");
    println!("Kwartet: 3 games, {moves} moves, {asked} queries checked");
}

/// The long mode: `cargo test --release --test it play_engines -- --ignored`.
#[test]
#[ignore]
fn many_games_ask_both_engines_the_same() {
    let (mut moves, mut asked) = (0, 0);
    for seed in 0..60 {
        for (game, strategies) in [
            ("gofish", &["second-order", "first-order", "careful"][..]),
            ("gofish", &["most-cards", "random", "second-order"][..]),
            ("kwartet", &["greedy", "mixed", "silent", "random"][..]),
        ] {
            let (m, a) = play_both(game, seed, strategies);
            moves += m;
            asked += a;
        }
    }
    println!("180 games, {moves} moves, {asked} queries checked");
}

/// `dealer bench --play`'s lines, run with `threads` threads.
fn bench_play(threads: &str) -> String {
    let out = assert_cmd::Command::cargo_bin("dealer")
        .unwrap()
        .args([
            "bench",
            "--play",
            "gofish",
            "--size",
            "small",
            "--games",
            "4",
            "--agents",
            "second-order,first-order,random",
            "--threads",
            threads,
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_play_benchmark_times_moves_queries_and_games_whatever_the_threads() {
    let one = bench_play("1");
    let two = bench_play("2");
    for text in [&one, &two] {
        assert!(text.contains("4 game(s) from seed 1"), "{text}");
        for line in [
            "  move   mean",
            "  query  mean",
            "  game   mean",
            "  memory peak",
        ] {
            assert!(text.contains(line), "no `{line}` in {text}");
        }
    }
    let result = |t: &str| -> String {
        t.lines()
            .filter(|l| l.contains("wins per seat") || l.contains("queries per game"))
            .map(|l| l.split(';').next().unwrap().to_string())
            .collect()
    };
    // The same games, hence the same winners and counts, on 1 and 2 threads.
    assert_eq!(result(&one), result(&two));
    let wins: usize = result(&one)
        .split("wins per seat")
        .nth(1)
        .unwrap()
        .split_whitespace()
        .map(|w| w.parse::<usize>().unwrap())
        .sum();
    assert!(wins >= 4, "every game has a winner: {one}");
}

#[test]
fn the_play_benchmark_ends_games_after_max_moves() {
    // Knowledge-based Kemps players can wait for ever: the cap ends a game
    // as it stands, as `dealer tournament --max-moves` does.
    let out = assert_cmd::Command::cargo_bin("dealer")
        .unwrap()
        .args([
            "bench",
            "--play",
            "kemps",
            "--size",
            "small",
            "--games",
            "3",
            "--agents",
            "kb-greedy",
            "--max-moves",
            "10",
            "--threads",
            "1",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let moves: usize = text
        .lines()
        .find(|l| l.starts_with("  move "))
        .and_then(|l| l.split("(n = ").nth(1))
        .and_then(|n| n.trim_end_matches(')').parse().ok())
        .unwrap_or_else(|| panic!("no move count in {text}"));
    assert!(
        (1..=30).contains(&moves),
        "3 games of at most 10 moves: {text}"
    );
    let capped: usize = text
        .lines()
        .find_map(|l| l.strip_prefix("  capped "))
        .and_then(|l| l.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no capped line in {text}"));
    assert!((1..=3).contains(&capped), "{text}");
    // A capped game played exactly ten moves.
    assert!(moves >= 10 * capped, "{text}");
}

/// Who won comes from the game: in the Cabo-like game the lowest score
/// wins, and `bench --play` counts that seat (one game a run, so the
/// winning seat can be read against the scores).
#[test]
fn the_play_benchmark_counts_the_games_own_winners() {
    let mut lowest_won = 0;
    for seed in 1..=6u64 {
        let out = assert_cmd::Command::cargo_bin("dealer")
            .unwrap()
            .args(["bench", "--play", "cabo", "--size", "small", "--games", "1"])
            .args(["--agents", "random,random", "--seed", &seed.to_string()])
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        let text = String::from_utf8(out.stdout).unwrap();
        let line = text
            .lines()
            .find(|l| l.contains("wins per seat"))
            .unwrap_or_else(|| panic!("no result line in {text}"));
        let (wins, scores) = line.split_once("; mean score per seat").unwrap();
        let wins: Vec<usize> = wins
            .split("wins per seat")
            .nth(1)
            .unwrap()
            .split_whitespace()
            .map(|w| w.parse().unwrap())
            .collect();
        let scores: Vec<f64> = scores
            .split_whitespace()
            .map(|w| w.parse().unwrap())
            .collect();
        let low = scores.iter().copied().fold(f64::INFINITY, f64::min);
        for (seat, &won) in wins.iter().enumerate() {
            assert_eq!(won == 1, scores[seat] == low, "seed {seed}: {line}");
        }
        if scores.iter().any(|&s| s != low) {
            lowest_won += 1;
        }
    }
    // At least one game where the scores differ, so the test can tell
    // the lowest from the highest.
    assert!(lowest_won >= 1);
}
