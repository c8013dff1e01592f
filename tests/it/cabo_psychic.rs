//! The Cabo-like game's psychic player (report 001): `psychic P` lets P
//! `glimpse` at any slot unnoticed; the others relate the glimpse to
//! "nothing happened", so they believe P does not know the card while it
//! does. Checked in played games against the model, on the explicit engine
//! (a glimpse is a belief event).

use std::path::Path;

use dealer::cards::Size;
use dealer::interp::{Engine, Options, Session};
use dealer::play::{Match, Seat};
use dealer::strategy::agent::named;
use dealer::strategy::{choose, find, SHIPPED_DIR};
use dealer::syntax;
use dealer::tournament::game::{play_game, Deal};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn ask(s: &Session, f: &str) -> bool {
    s.holds(&syntax::parse_formula(f).expect("a formula"))
        .expect("answers")
}

fn options() -> Options {
    Options {
        engine: Engine::Explicit,
        ..Options::default()
    }
}

/// A teaching match: player 1 psychic (its strategy glimpses), 2 regular.
fn psychic_match(seed: u64) -> Match {
    let mut m = Match::new("cabo", seed, Size::Teaching, options()).unwrap();
    let dir = Some(Path::new(SHIPPED_DIR));
    let seats: Vec<Seat> = ["psychic", "regular"]
        .iter()
        .enumerate()
        .map(|(p, s)| m.agent_seat(named(dir, "cabo", s).unwrap(), p))
        .collect();
    m.seat(seats).unwrap();
    m
}

/// Every glimpse of a played game leaves the psychic knowing the card and
/// the other player believing it does not: a false belief, and the psychic
/// knows that belief.
#[test]
fn a_glimpse_in_a_played_game_makes_a_false_belief() {
    let mut glimpses = 0;
    for seed in 0..2 {
        let mut m = psychic_match(seed);
        assert!(m.scenario().contains("psychic 1\n"));
        while let Some(r) = m.agent_move() {
            let text = r.unwrap().text.clone();
            if let Some(slot) = text.strip_prefix("glimpse 1 ") {
                let s = m.session();
                assert!(ask(s, &format!("Kv1 {slot}")), "{text}");
                if slot.starts_with('2') {
                    assert!(ask(s, &format!("B2 !Kv1 {slot}")), "{text}");
                    assert!(ask(s, &format!("K1 B2 !Kv1 {slot}")), "{text}");
                }
                glimpses += 1;
            }
        }
        assert!(m.is_over());
    }
    assert!(glimpses >= 4, "{glimpses}");
}

/// The psychic's first choice is a glimpse at a card it does not know
/// (checked against the model), and after glimpsing everything it plays.
#[test]
fn the_psychic_strategy_glimpses_what_it_does_not_know() {
    let m = psychic_match(1);
    let strategy = find(Some(Path::new(SHIPPED_DIR)), "cabo", "psychic").unwrap();
    assert!(strategy.psychic());
    let legal: Vec<String> = m.legal_moves().into_iter().map(|l| l.text).collect();
    assert!(legal.iter().any(|l| l.starts_with("glimpse 1 2.")));
    let mut session = m.session().clone();
    let table = m.playing().table.clone();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let d = choose(&strategy, &mut session, &table, 0, &legal, &mut rng).unwrap();
    let chosen = &legal[d.index];
    let slot = chosen.strip_prefix("glimpse 1 ").expect("a glimpse");
    assert!(!ask(m.session(), &format!("Kv1 {slot}")), "{chosen}");
    // Slots it peeked at are not glimpsed again by the strategy.
    assert!(chosen != "glimpse 1 1.1" && chosen != "glimpse 1 1.2");
}

/// Only a player declared psychic is offered or allowed a glimpse, and a
/// refused glimpse leaves the game as it was.
#[test]
fn only_a_psychic_player_glimpses() {
    let mut m = Match::new("cabo", 4, Size::Teaching, options()).unwrap();
    assert!(m
        .legal_moves()
        .iter()
        .all(|l| !l.text.starts_with("glimpse")));
    let before = m.scenario();
    let worlds = m.playing().model.world_count();
    let err = m.play("glimpse 1 2.3").unwrap_err();
    assert_eq!(err.code, "not-psychic");
    assert_eq!(m.scenario(), before);
    assert_eq!(m.playing().model.world_count(), worlds);
    // Declared: offered before the draw, at every slot, each once.
    let mut m = psychic_match(4);
    let glimpses = |m: &Match| {
        m.legal_moves()
            .into_iter()
            .filter(|l| l.text.starts_with("glimpse 1 "))
            .count()
    };
    assert_eq!(glimpses(&m), 8);
    m.play("glimpse 1 2.3").unwrap();
    assert_eq!(glimpses(&m), 7);
    m.play("draw 1").unwrap();
    assert_eq!(glimpses(&m), 0);
    let err = m.play("glimpse 1 2.4").unwrap_err();
    assert_eq!(err.code, "already-drawn");
}

/// A tournament seat with the psychic strategy is declared psychic.
#[test]
fn a_tournament_seats_the_psychic() {
    let dir = Some(Path::new(SHIPPED_DIR));
    let psychic = find(dir, "cabo", "psychic").unwrap();
    let regular = find(dir, "cabo", "regular").unwrap();
    let out = play_game(
        "cabo",
        &Deal::Referee(Size::Teaching),
        3,
        &[&regular, &psychic],
        Engine::Explicit,
        1_000,
    )
    .unwrap();
    assert!(out.turns > 8, "{out:?}");
}
