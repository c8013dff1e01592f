//! The Cabo-like game's special cards (report 001: "0 - 9 or the card is
//! one of the three special cards"): 10 peek, 11 spy, 12 swap. A special
//! drawn from the closed pile is played with `look`, `spy` or `swap`; each
//! is an event model, and what every player knows afterwards is model
//! checked, on both engines. A special on the open pile cannot be drawn;
//! a wrong use is a located error that changes nothing.

use std::collections::BTreeSet;

use dealer::cards::cabo::{special_kind, Special};
use dealer::cards::Size;
use dealer::interp::{Engine, Options, Output};
use dealer::play::{legal_moves, refereed, Match};
use dealer::syntax;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::common::{self, run_with};

/// Two players; 1.3 holds the report's 8, and each player has looked at
/// one card. The open pile holds `open`; the closed pile holds, top first,
/// `stock` (the two are 3, 10, 11 and 12 in some order).
fn table(open: &str, stock: &str) -> String {
    format!(
        "game cabo\nplayers 1 2\ndeck 0..3*2 8 10..12\n\
         deal 1.1: 1 | 1.2: 0 | 1.3: 8 | 1.4: 1 | 2.1: 3 | 2.2: 2 | 2.3: 0 | 2.4: 2 | open: {open}\n\
         stock {stock}\npeek 1 1.3\npeek 2 2.1\n"
    )
}

/// The symbolic engine: the tests of refusals and of played games use it
/// (the explicit engine lists this table's 506,520 worlds at every step).
fn symbolic() -> Options {
    Options {
        engine: Engine::Symbolic,
        ..Options::default()
    }
}

/// A refused last statement ([`common::fails`]) on the symbolic engine.
fn fails(src: &str) -> (dealer::diag::Diagnostic, String) {
    common::fails_with(src, symbolic())
}

/// The answers of the scenario's `?` queries, the same on both engines.
fn answers(src: &str) -> Vec<bool> {
    let mut seen = Vec::new();
    for engine in [Engine::Explicit, Engine::Symbolic] {
        let (outputs, _) = run_with(
            src,
            Options {
                engine,
                ..Options::default()
            },
        );
        seen.push(
            outputs
                .iter()
                .filter_map(|o| match o {
                    Output::Answer { value, .. } => Some(*value),
                    _ => None,
                })
                .collect::<Vec<bool>>(),
        );
    }
    assert_eq!(seen[0], seen[1], "the engines disagree on {src}");
    seen.swap_remove(0)
}

/// Peek: only the player learns its card; the other knows which slot was
/// looked at, so knows that the player knows it. The peek card lies face up.
#[test]
fn a_peek_card_shows_an_own_card_to_its_player_only() {
    let src = format!(
        "{}? Kv1 1.2\ndraw 1\n? K1 hand1(10) & !Kv2 hand1\nlook 1 1.2\n\
         ? K1 1.2(0)\n? Kv2 1.2\n? K2 Kv1 1.2\n? C open(10) & C hand1 = 0\n",
        table("3", "10 11 12")
    );
    assert_eq!(
        answers(&src),
        [false, true, true, false, true, true],
        "{src}"
    );
}

/// Spy: the player learns the other's card, the owner does not (it had not
/// looked at it), and everyone knows the player knows it.
#[test]
fn a_spy_card_shows_another_players_card_to_the_spy_only() {
    let src = format!(
        "{}draw 1\nspy 1 2.3\n? K1 2.3(0)\n? Kv2 2.3\n? C Kv1 2.3\n? Kv1 2.4\n",
        table("3", "11 10 12")
    );
    assert_eq!(answers(&src), [true, false, true, false], "{src}");
}

/// Swap: the cards change slots and nobody sees them. The swapper knows the
/// card it gave away (now in the other's slot) but not the one it took,
/// unless it knew that card before (here by a spy); the other player knows
/// its old card in the swapper's slot if it had looked at it.
#[test]
fn a_swap_card_exchanges_two_cards_unseen() {
    // Unknown taken card: 1 gives its known 8 for player 2's known 3.
    let src = format!(
        "{}draw 1\nswap 1 1.3 2.1\n? 1.3(3) & 2.1(8)\n? Kv1 1.3\n? K1 2.1(8)\n\
         ? K2 1.3(3)\n? Kv2 2.1\n? K1 Kv2 1.3\n? K2 !Kv1 1.3\n",
        table("3", "12 11 10")
    );
    assert_eq!(
        answers(&src),
        [true, false, true, true, false, true, true],
        "{src}"
    );
    // Known taken card: 1 spied 2.3 (a 0) a turn before.
    let src = format!(
        "{}draw 1\nspy 1 2.3\ndraw 2\ndiscard 2 3\ndraw 1\nswap 1 1.3 2.3\n\
         ? K1 1.3(0)\n? Kv2 1.3\n? K1 !Kv2 1.3\n? K1 2.3(8) & !Kv2 2.3\n",
        table("10", "11 3 12")
    );
    assert_eq!(answers(&src), [true, false, true, true], "{src}");
}

/// A special on top of the open pile cannot be drawn (the report: "the
/// agent can't choose to draw from the open pile if the open pile is a
/// special"), at the deal or after being played.
#[test]
fn a_special_on_the_open_pile_cannot_be_drawn() {
    let (e, at) = fails(&format!("{}draw 1 from open: 10\n", table("10", "11 3 12")));
    assert_eq!((e.code, at.as_str()), ("special-on-open-pile", "8:1"));
    assert_eq!(
        e.message,
        "draw 1 from open: 10: Cabo: a special card on the open pile cannot be drawn, and its top is 10 (peek)"
    );
    assert_eq!(
        e.help.as_deref(),
        Some("draw from the closed pile: `draw P`")
    );
    let (e, _) = fails(&format!(
        "{}draw 1\nspy 1 2.3\ndraw 2 from open: 11\n",
        table("10", "11 3 12")
    ));
    assert_eq!(e.code, "special-on-open-pile");
    // A plain card on top is drawn as before.
    let (outputs, _) = run_with(
        &format!(
            "{}draw 1\ndiscard 1 3\ndraw 2 from open: 3\n? K1 hand2(3)\n",
            table("10", "3 11 12")
        ),
        symbolic(),
    );
    assert!(matches!(
        outputs.last(),
        Some(Output::Answer { value: true, .. })
    ));
}

/// Each wrong use of a special is refused with the rule, where it was
/// written, and the session is as before ([`fails`] checks that).
#[test]
fn a_wrong_use_of_a_special_is_refused() {
    let t = table("10", "11 3 12");
    let cases = [
        // Not holding the card the move plays.
        (
            format!("{t}draw 1\nlook 1 1.1\n"),
            "not-the-special",
            "9:1",
            "look 1 1.1: Cabo: `look` plays the peek card (10), and player 1 holds 11 (spy)",
        ),
        (
            format!("{t}draw 1\nswap 1 1.1 2.1\n"),
            "not-the-special",
            "9:1",
            "swap 1 1.1 2.1: Cabo: `swap` plays the swap card (12), and player 1 holds 11 (spy)",
        ),
        // Nothing drawn, or not its turn.
        (
            format!("{t}spy 1 2.1\n"),
            "nothing-drawn",
            "8:1",
            "spy 1 2.1: Cabo: player 1 has drawn no card to place or discard",
        ),
        (
            format!("{t}draw 1\nspy 2 1.1\n"),
            "out-of-turn",
            "9:1",
            "spy 2 1.1: Cabo: it is player 1's turn, not player 2's",
        ),
        // The wrong owners' slots.
        (
            format!("{t}draw 1\nspy 1 1.1\n"),
            "not-other-slot",
            "9:1",
            "spy 1 1.1: Cabo: a player spies only at another player's face-down cards, and 1.1 is player 1's own",
        ),
    ];
    for (src, code, at, message) in cases {
        let (e, where_) = fails(&src);
        assert_eq!((e.code, where_.as_str()), (code, at), "{src}");
        assert_eq!(e.message, message, "{src}");
    }
    let t = table("11", "10 3 12");
    let (e, _) = fails(&format!("{t}draw 1\nlook 1 2.1\n"));
    assert_eq!(e.code, "not-own-slot");
    let t = table("10", "12 3 11");
    let (e, _) = fails(&format!("{t}draw 1\nswap 1 2.1 1.1\n"));
    assert_eq!(e.code, "not-own-slot");
    let (e, _) = fails(&format!("{t}draw 1\nswap 1 1.1 1.2\n"));
    assert_eq!(e.code, "not-other-slot");
    let (e, _) = fails(&format!("{t}draw 1\nswap 1 1.1 stock\n"));
    assert!(e.code != "ok", "{e:?}");
}

/// The referee offers a drawn special's action beside placing and
/// discarding it, and no draw of a special from the open pile.
#[test]
fn the_referee_offers_the_specials_actions() {
    let (_, referee) = refereed("cabo").unwrap();
    let texts = |src: &str| -> Vec<String> {
        let (_, session) = run_with(src, symbolic());
        legal_moves(referee, session.playing().unwrap())
            .into_iter()
            .map(|l| l.text)
            .collect()
    };
    // The peek card on the open pile: only the closed pile is offered.
    assert_eq!(texts(&table("10", "12 3 11")), ["draw 1"]);
    let moves = texts(&format!("{}draw 1\n", table("10", "12 3 11")));
    let swaps: Vec<&String> = moves.iter().filter(|m| m.starts_with("swap")).collect();
    assert_eq!(swaps.len(), 16, "{moves:?}");
    assert!(moves.contains(&"swap 1 1.3 2.4".to_string()), "{moves:?}");
    assert!(moves.contains(&"place 1 1.1".to_string()));
    assert!(moves.contains(&"discard 1 12".to_string()));
    assert!(!moves
        .iter()
        .any(|m| m.starts_with("spy") || m.starts_with("look")));
    let moves = texts(&format!("{}draw 1\n", table("10", "11 3 12")));
    let spies: Vec<&String> = moves.iter().filter(|m| m.starts_with("spy")).collect();
    assert_eq!(spies.len(), 4, "{moves:?}");
    assert!(moves.contains(&"spy 1 2.1".to_string()));
    let moves = texts(&format!("{}draw 1\n", table("12", "10 3 11")));
    assert!(moves.contains(&"look 1 1.4".to_string()), "{moves:?}");
    // A plain card drawn: no special's move.
    let moves = texts(&format!("{}draw 1\n", table("10", "3 11 12")));
    assert_eq!(moves.len(), 5, "{moves:?}");
}

/// `dealer play cabo` at the report's size deals the 13 values, the three
/// specials among them; on the small table, games of random legal moves
/// (a special's action whenever one is offered) play every special, each
/// move accepted by the rules, and a game that ends has nothing left to draw.
#[test]
fn the_report_size_deals_the_specials_and_games_play_them() {
    for seed in 0..1 {
        let m = Match::new("cabo", seed, Size::Full, Options::default()).unwrap();
        let table = &m.playing().table;
        let values: Vec<Option<u32>> = table.deck.kinds.iter().map(|k| k.value).collect();
        assert_eq!(values, (0..=12).map(Some).collect::<Vec<_>>());
        assert_eq!(table.deck.total(), 52);
        for s in Special::ALL {
            let kind = special_kind(table, s).expect("the deck has it");
            assert_eq!(table.deck.kinds[kind].value, Some(s.value()));
        }
    }
    let (_, referee) = refereed("cabo").unwrap();
    let mut played = BTreeSet::new();
    for seed in 0..3u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let stock = ["10 11 12", "11 12 10", "12 10 11"][seed as usize % 3];
        let (_, mut session) = run_with(&table("3", stock), symbolic());
        // A game can go on while the players take the open pile's top and
        // discard it again: 10 moves are enough to see the specials.
        let mut ended = false;
        for _ in 0..10 {
            let legal = legal_moves(referee, session.playing().unwrap());
            if legal.is_empty() {
                ended = true;
                break;
            }
            // A special's action when one is offered, else any move.
            let special: Vec<&str> = legal
                .iter()
                .map(|l| l.text.as_str())
                .filter(|t| ["look ", "spy ", "swap "].iter().any(|w| t.starts_with(w)))
                .collect();
            let text = if special.is_empty() {
                legal[rng.random_range(0..legal.len())].text.clone()
            } else {
                special[rng.random_range(0..special.len())].to_string()
            };
            if let Some(word) = ["look", "spy", "swap"]
                .into_iter()
                .find(|w| text.starts_with(&format!("{w} ")))
            {
                played.insert(word);
            }
            let stmt = syntax::parse(&text).unwrap().statements.remove(0);
            session
                .execute(&stmt, &text)
                .unwrap_or_else(|e| panic!("seed {seed}: {text}: {e:?}"));
        }
        if !ended {
            continue;
        }
        // At the end the closed pile is empty and nobody holds a drawn card.
        let end = syntax::parse("? C stock = 0 & C hand1 = 0 & C hand2 = 0").unwrap();
        let out = session.execute(&end.statements[0], "").unwrap();
        assert!(
            matches!(out.last(), Some(Output::Answer { value: true, .. })),
            "seed {seed}"
        );
    }
    assert_eq!(played.len(), 3, "{played:?}");
}

/// The teaching scenario of the report's swap example holds on both
/// engines, every one of its expectations.
#[test]
fn the_swap_scenario_holds_on_both_engines() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/cabo/swap.deal");
    let src = std::fs::read_to_string(path).unwrap();
    for engine in [Engine::Explicit, Engine::Symbolic] {
        let (outputs, _) = run_with(
            &src,
            Options {
                engine,
                ..Options::default()
            },
        );
        let held = common::held(&outputs);
        assert_eq!(held.len(), 19, "{engine:?}");
        assert!(held.iter().all(|&h| h), "{engine:?}: {held:?}");
    }
}

/// The shipped strategies play the specials as the report describes: the
/// swap takes the lower card the other player knows least about. Player 1
/// knows two of player 2's cards to be 0: 2.1 (shown to everyone, player 2
/// knows it) and 2.3 (spied, player 2 does not know it); it swaps its 8
/// for 2.3, in every seeded choice. Before, with the spy card, it spies on
/// a card it does not know.
#[test]
fn the_strategies_swap_for_the_card_the_others_know_least_about() {
    use dealer::strategy::{choose, find, SHIPPED_DIR};
    let dir = Some(std::path::Path::new(SHIPPED_DIR));
    let (_, referee) = refereed("cabo").unwrap();
    let setup = "game cabo\nplayers 1 2\ndeck 0..3*2 8 10..12\n\
        deal 1.1: 1 | 1.2: 2 | 1.3: 8 | 1.4: 3 | 2.1: 0 | 2.2: 2 | 2.3: 0 | 2.4: 3 | open: 10\n\
        stock 11 1 12\npeek 1 1.1\npeek 1 1.3\npeek 2 2.1\npeek 2 2.2\nannounce 2.1(0)\ndraw 1\n";
    let spied = format!("{setup}spy 1 2.3\ndraw 2\ndiscard 2 1\ndraw 1\n");
    for name in ["regular", "paranoid", "psychic"] {
        let strategy = find(dir, "cabo", name).unwrap();
        for (src, check) in [(setup.to_string(), "spy"), (spied.clone(), "swap")] {
            let (_, mut session) = run_with(&src, symbolic());
            let play = session.playing().unwrap();
            let (table, game) = (play.table.clone(), play.game);
            let legal = legal_moves(referee, play);
            for seed in 0..4 {
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                let d = choose(&strategy, game, &mut session, &table, 0, &legal, &mut rng)
                    .unwrap_or_else(|e| panic!("{name}: {e:?}"));
                let chosen = legal[d.index].text.as_str();
                match check {
                    // 2.1 is known to everyone: the spy looks elsewhere.
                    "spy" => assert!(
                        ["spy 1 2.2", "spy 1 2.3", "spy 1 2.4"].contains(&chosen),
                        "{name}: {chosen}"
                    ),
                    _ => assert_eq!(chosen, "swap 1 1.3 2.3", "{name}"),
                }
            }
        }
    }
}
