//! Every game ends, in the one game loop (`play::Match`), however it is
//! dealt and seated: a tournament's game (`tournament::play_game`: the
//! tournament's deal, strategies seated by `Match::seat_agents`) and a
//! match dealt by `Match::new` with the strategies' agents seated by hand
//! (as `dealer play`, the web play page and `dealer bench --play` seat
//! them) both stop where the game's rules end it, or at its limit
//! (`cards::stopped`: Kemps' 10,000 turns after the report, else
//! `cards::MOVE_LIMIT` moves), and agree on the scores, the winners and the
//! number of moves for a seed.

use dealer::cards::{Size, MOVE_LIMIT};
use dealer::interp::Options;
use dealer::play::{playable, Match};
use dealer::strategy::agent::StrategyAgent;
use dealer::strategy::{parse, Strategy, BUILT_IN};
use dealer::tournament::{play_game, Deal, GameOutcome};

/// The shipped strategies of a game (built in), in name order.
fn strategies(game: &str) -> Vec<Strategy> {
    let prefix = format!("{game}-");
    BUILT_IN
        .iter()
        .filter(|(n, _)| n.starts_with(&prefix))
        .map(|(n, src)| parse(src).unwrap_or_else(|e| panic!("{n}: {}", e.message)))
        .collect()
}

/// The game of `seed` played through a [`Match`] (the loop of play, the
/// web page and bench), with `cap` instead of the game's limit if given.
fn by_match(
    game: &str,
    seats: &[&Strategy],
    seed: u64,
    size: Size,
    cap: Option<usize>,
) -> (GameOutcome, Option<String>) {
    let mut m = Match::new(game, seed, size, Options::default()).unwrap();
    let agents = seats
        .iter()
        .enumerate()
        .map(|(i, s)| m.agent_seat(Box::new(StrategyAgent::new((*s).clone())), i))
        .collect();
    m.seat(agents).unwrap();
    m.set_move_cap(cap);
    while let Some(played) = m.agent_move() {
        played.unwrap_or_else(|d| panic!("{game} seed {seed}: {}", d.message));
    }
    assert!(m.is_over(), "{game} seed {seed}: the loop stopped early");
    assert!(m.current_player().is_none() && m.legal_moves().is_empty());
    let outcome = GameOutcome {
        scores: m.scores(),
        winners: m.winners(),
        turns: m.history().len(),
        capped: m.stopped().is_some(),
    };
    assert_eq!(outcome, m.outcome());
    (outcome, m.stopped())
}

/// Each game with each of its shipped strategies (at the first seat, the
/// game's other strategies after it) ends in both loops with the same
/// outcome. Kemps' knowledge-based players may wait until the report's
/// 10,000 turns (the next test): here both loops share a cap of 400
/// moves, which is the same rule with a smaller number.
#[test]
fn every_game_ends_with_each_of_its_strategies_and_the_loops_agree() {
    for game in playable() {
        let all = strategies(game);
        assert!(!all.is_empty(), "{game} ships no strategy");
        let players = Match::new(game, 1, Size::Teaching, Options::default())
            .unwrap()
            .playing()
            .table
            .players
            .len();
        let cap = (game == "kemps").then_some(400);
        for (k, _) in all.iter().enumerate() {
            let seats: Vec<&Strategy> = (0..players).map(|i| &all[(k + i) % all.len()]).collect();
            let names: Vec<&str> = seats.iter().map(|s| s.name.as_str()).collect();
            let seed = 11 + k as u64;
            let deal = Deal::Referee(Size::Teaching);
            let tournament = play_game(game, &deal, seed, &seats, Options::default().engine, cap)
                .unwrap_or_else(|e| panic!("{game} {names:?}: {e}"))
                .0;
            let (matched, why) = by_match(game, &seats, seed, Size::Teaching, cap);
            assert_eq!(tournament, matched, "{game} {names:?} seed {seed}");
            assert!(
                tournament.turns <= cap.unwrap_or(MOVE_LIMIT),
                "{game} {names:?}"
            );
            assert_eq!(tournament.capped, why.is_some(), "{game} {names:?}");
            if let Some(why) = why {
                assert_eq!(tournament.turns, cap.unwrap(), "{game} {names:?}: {why}");
            }
        }
    }
}

/// The command of the issue: `dealer play kemps --agents
/// greedy,kb-greedy,kb-blocking` (the report's deck) ended only when it was
/// killed. Now it ends after the report's 10,000 turns, as it stands, with
/// one outcome in the tournament's loop and in the `dealer play` command
/// itself (which says why it stopped).
#[test]
fn kemps_ends_after_the_reports_ten_thousand_turns_in_every_loop() {
    let all = strategies("kemps");
    let named = |n: &str| all.iter().find(|s| s.name == n).unwrap();
    let seats = [named("greedy"), named("kb-greedy"), named("kb-blocking")];
    let seed = 1;
    let tournament = play_game(
        "kemps",
        &Deal::Referee(Size::Full),
        seed,
        &seats,
        Options::default().engine,
        None,
    )
    .unwrap()
    .0;
    // The match loop with agents seated by hand agrees with the
    // tournament's on every game at the teaching size (the test above);
    // here the command's own loop is the second one.
    assert!(tournament.capped);
    // Every turn ends with at least one move (`pass`), and a swap takes
    // three: between 10,000 and 40,000 moves.
    assert!(
        (10_000..40_000).contains(&tournament.turns),
        "{tournament:?}"
    );

    let out = assert_cmd::Command::cargo_bin("dealer")
        .unwrap()
        .args([
            "play",
            "kemps",
            "--agents",
            "greedy,kb-greedy,kb-blocking",
            "--seed",
            "1",
        ])
        .env("NO_COLOR", "1")
        .timeout(std::time::Duration::from_secs(300))
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains(
            "the game ends as it stands, at its limit: 10000 turns, the Kemps report's limit"
        ),
        "{}",
        &text[text.len().saturating_sub(600)..]
    );
    let scores: Vec<String> = tournament
        .scores
        .iter()
        .enumerate()
        .map(|(p, s)| format!("{}: {s}", p + 1))
        .collect();
    let line = format!("final score {}", scores.join("  "));
    assert!(
        text.contains(&line),
        "{line} in {}",
        &text[text.len().saturating_sub(600)..]
    );
    assert!(
        text.contains(&format!("{} moves in", tournament.turns)),
        "{} moves in {}",
        tournament.turns,
        &text[text.len().saturating_sub(600)..]
    );
}

/// Kemps with a deck the user gives: the standard 52 cards with suits deal
/// the report's table (four a hand, six face up) and a game of the
/// knowledge-based strategies, which quantify over the deck's `ranks`,
/// plays to its end by the rules; a hand of
/// another size, a deck too small and a deck with no four of a rank are
/// refused with the reason.
#[test]
fn kemps_plays_a_52_card_deck_and_refuses_decks_that_make_no_table() {
    use dealer::tournament::game::{deal_of, read_custom_deck};
    let deck = read_custom_deck("deck ranks 2 3 4 5 6 7 8 9 10 J Q K A suits S H D C").unwrap();
    assert_eq!(deck.total(), 52);
    let deal = Deal::Custom {
        deck: deck.clone(),
        hand: 4,
    };
    let dealt = deal_of("kemps", &deal, 7).unwrap();
    let sizes: Vec<(String, usize)> = dealt
        .parts
        .iter()
        .map(|(place, cards)| (place.clone(), cards.len()))
        .collect();
    assert_eq!(
        sizes,
        [("1", 4), ("2", 4), ("3", 4), ("table", 6)].map(|(p, n)| (p.to_string(), n))
    );
    assert_eq!(dealt.stock.len(), 52 - 18);
    let all = strategies("kemps");
    let seats: Vec<&Strategy> = ["greedy", "kb-greedy", "kb-blocking"]
        .iter()
        .map(|n| all.iter().find(|s| s.name == *n).unwrap())
        .collect();
    let (outcome, _) = play_game("kemps", &deal, 7, &seats, Options::default(), 150).unwrap();
    // Seed 7 ends by the rules (a Kemps called), not at the cap, and the
    // best score wins.
    assert_eq!(outcome.scores.len(), 3);
    assert!(!outcome.capped, "{outcome:?}");
    let best = *outcome.scores.iter().max().unwrap();
    assert!(best > 0, "{outcome:?}");
    assert!(
        outcome.winners.iter().all(|&w| outcome.scores[w] == best),
        "{outcome:?}"
    );

    let refused = |deck: &str, hand: usize| {
        let deck = read_custom_deck(deck).unwrap();
        deal_of("kemps", &Deal::Custom { deck, hand }, 1)
            .unwrap_err()
            .to_string()
    };
    let e = refused("deck ranks 2 3 4 5 6 suits S H D C", 3);
    assert!(
        e.contains("--hand 3") && e.contains("4 cards to each player"),
        "{e}"
    );
    let e = refused("deck 2*4 3*4 4*4 5*4", 4);
    assert!(
        e.contains("at least 18 cards") && e.contains("has 16"),
        "{e}"
    );
    let e = refused("deck 2*3 3*3 4*3 5*3 6*3 7*3", 4);
    assert!(
        e.contains("every rank of a Kemps deck has four cards: 2 has 3, 3 has 3"),
        "{e}"
    );
    // A rank of one card would make a hand holding it a Kemps; a rank of
    // eight could never be one.
    let e = refused("deck 2*4 3*4 4*4 5*4 6*4 A*1", 4);
    assert!(e.ends_with("four cards: A has 1"), "{e}");
    let e = refused("deck 2*8 3*4 4*4 5*4 6*4", 4);
    assert!(e.ends_with("four cards: 2 has 8"), "{e}");
}
