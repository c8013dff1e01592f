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

use crate::common;

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
    // One game: it glimpses six times (two games took 20 s of the suite).
    let mut glimpses = 0;
    let mut m = psychic_match(0);
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
    assert!(glimpses >= 4, "{glimpses}");
}

/// The psychic's first choice is a glimpse at a card it does not know
/// (checked against the model), and after glimpsing everything it plays.
#[test]
fn the_psychic_strategy_glimpses_what_it_does_not_know() {
    let m = psychic_match(1);
    let strategy = find(Some(Path::new(SHIPPED_DIR)), "cabo", "psychic").unwrap();
    assert!(strategy.psychic());
    let moves = m.legal_moves();
    let legal: Vec<String> = moves.iter().map(|l| l.text.clone()).collect();
    assert!(legal.iter().any(|l| l.starts_with("glimpse 1 2.")));
    let mut session = m.session().clone();
    let table = m.playing().table.clone();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let game = m.playing().game;
    let d = choose(&strategy, game, &mut session, &table, 0, &moves, &mut rng).unwrap();
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
    .unwrap()
    .0;
    assert!(out.turns > 8, "{out:?}");
}

/// Two players, every slot dealt, two cards in the stock (182 worlds).
const DEALT: &str =
    "deck 0..1*5\ndeal 1.1: 1 | 1.2: 0 | 1.3: 1 | 1.4: 0 | 2.1: 0 | 2.2: 1 | 2.3: 0 | 2.4: 1\n";

/// `psychic` is the Cabo-like game's declaration: the game reads it into
/// its part of the table (each player once), and the referee offers and
/// allows a glimpse to those players only, with the belief event's
/// answers.
#[test]
fn the_game_reads_its_psychic_declaration() {
    let src = format!("game cabo\nplayers 1 2\npsychic 2 1 2\n{DEALT}glimpse 1 2.1\nexpect Kv1 2.1\nexpect B2 !Kv1 2.1\nexpect !Kv2 1.1\n");
    let (out, s) = common::run(&src);
    let table = &s.playing().unwrap().table;
    assert_eq!(dealer::cards::cabo::psychic(table), [1, 0]);
    let held = crate::common::held(&out);
    assert_eq!(held, [true, true, true], "{out:?}");
    // Only player 2 declared: player 1, whose turn it is, may not glimpse.
    let (e, at) = common::fails(&format!(
        "game cabo\nplayers 1 2\npsychic 2\n{DEALT}glimpse 1 2.1\n"
    ));
    assert_eq!((e.code, at.as_str()), ("not-psychic", "6:1"));
}

/// Under another game, or before `game cabo`, `psychic` is a located error
/// naming both games; after the deal's first move the table is set; an
/// unknown player is an error at its name. Each leaves the session as it
/// was.
#[test]
fn psychic_under_another_game_is_a_located_error() {
    let (e, at) = common::fails("game gofish\nplayers 1 2\npsychic 2\n");
    assert_eq!(e.code, "not-a-declaration-of-the-game");
    assert_eq!(
        e.message,
        "`psychic` is a declaration of the Cabo-like game, not of Go Fish"
    );
    assert_eq!((at.as_str(), e.span.end - e.span.start), ("3:1", 7));
    assert!(e.help.as_deref().unwrap().contains("`game cabo`"), "{e:?}");
    let (e, at) = common::fails("players 1 2\npsychic 2\n");
    assert_eq!(
        (e.message.as_str(), at.as_str()),
        (
            "`psychic` is a declaration of the Cabo-like game, not of the free game",
            "2:1"
        )
    );
    let (e, at) = common::fails(&format!(
        "game cabo\nplayers 1 2\n{DEALT}peek 1 1.1\npsychic 1\n"
    ));
    assert_eq!((e.code, at.as_str()), ("setup-after-start", "6:1"));
    let (e, at) = common::fails(&format!("game cabo\nplayers 1 2\npsychic 2 9\n{DEALT}"));
    assert_eq!((e.code, at.as_str()), ("unknown-player", "3:11"));
}

/// A written-out game with a psychic player steps as one without: the
/// declaration `psychic 2`, read in a game's form, is no move, so the
/// lecture view's and the REPL's stepper do not stop at it (they stop at
/// the first move, a peek after the deal), nor does the narrator tell it.
#[test]
fn a_psychic_declaration_is_not_a_step() {
    use dealer::cards::game::GAMES;
    use dealer::interp::{is_move, Script, Stepper};
    let cabo = GAMES.iter().find(|g| g.name() == "cabo").unwrap();
    let text = cabo
        .referee()
        .unwrap()
        .deal(3, Size::Teaching)
        .with_declared("psychic", &[1])
        .to_text();
    assert!(text.contains("\npsychic 2\n"), "{text}");
    let script = Script::parse("psychic.deal", &text).unwrap();
    let declaration = script
        .statements
        .iter()
        .position(|s| &text[s.span.start..s.span.end] == "psychic 2")
        .unwrap();
    assert!(!is_move(&script.statements[declaration]));
    let first_move = script.statements.iter().position(is_move).unwrap();
    assert!(first_move > declaration);
    assert!(text[script.statements[first_move].span.start..].starts_with("peek "));
    let mut steps = Stepper::new(script, Session::new(options()), ());
    steps.run(|_, st| is_move(st), |_, _| (), |_, _, _, _, ()| false);
    assert_eq!(steps.pos(), first_move, "where the stepper stopped");
}
