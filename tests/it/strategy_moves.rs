//! Every shipped strategy plays exactly the moves it played when its
//! rules were matched and expanded as text: a few short seeded games per
//! strategy, the strategy at every seat, compared move by move with
//! `tests/data/strategy-moves.txt` (recorded by that earlier code, so a
//! change in how rules are read, matched or asked that changes a
//! decision shows here). `DEALER_BLESS=1` writes the file anew.

use std::fmt::Write as _;

use dealer::cards::Size;
use dealer::interp::Options;
use dealer::play::{Agent, Match};
use dealer::strategy::agent::StrategyAgent;
use dealer::strategy::{parse, BUILT_IN};

/// The recorded moves.
const RECORD: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/strategy-moves.txt");

/// The seeds of each strategy's games.
const SEEDS: [u64; 2] = [3, 11];

/// The most moves of each game: enough for every rule of the shipped
/// strategies to be asked, few enough to stay fast.
const MOVES: usize = 40;

/// One line per strategy and seed: `NAME SEED: move; move; ...`.
fn played() -> String {
    let mut out = String::new();
    for (stem, src) in BUILT_IN {
        let strategy = parse(src).unwrap_or_else(|d| panic!("{stem}: {}", d.message));
        // A psychic player's glimpses are belief events, slow at any
        // size: that strategy's other rules are played by cabo-regular.
        if strategy.psychic() {
            continue;
        }
        for seed in SEEDS {
            let mut game = Match::new(&strategy.game, seed, Size::Teaching, Options::default())
                .unwrap_or_else(|e| panic!("{stem}: {e}"));
            let n = game.playing().table.players.len();
            let agents = (0..n)
                .map(|_| Box::new(StrategyAgent::new(strategy.clone())) as Box<dyn Agent>)
                .collect();
            game.seat_agents(agents, None).unwrap();
            game.set_move_cap(Some(MOVES));
            game.play_agents()
                .unwrap_or_else(|d| panic!("{stem} seed {seed}: {}", d.message));
            let moves: Vec<&str> = game.history().iter().map(|p| p.text.as_str()).collect();
            writeln!(out, "{stem} {seed}: {}", moves.join("; ")).unwrap();
        }
    }
    out
}

#[test]
fn shipped_strategies_play_the_recorded_moves() {
    let now = played();
    if std::env::var_os("DEALER_BLESS").is_some() {
        std::fs::write(RECORD, &now).unwrap();
    }
    let recorded = std::fs::read_to_string(RECORD).expect("the recorded moves");
    let lines = |s: &str| s.lines().map(str::to_string).collect::<Vec<_>>();
    let (now, recorded) = (lines(&now), lines(&recorded));
    assert_eq!(now.len(), recorded.len(), "games played");
    assert!(now.len() >= 30, "only {} games", now.len());
    for (a, b) in now.iter().zip(&recorded) {
        assert_eq!(a, b, "a strategy's moves changed");
    }
}
