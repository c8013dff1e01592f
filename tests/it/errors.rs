//! Bad input: every malformed file, unknown name, illegal move, false
//! announcement or impossible deal gets a located error with a stable code,
//! and after an error the session is exactly as before.

use crate::common;
use common::*;
use dealer::interp::{Engine, Options};

const GOFISH: &str =
    "game gofish\nplayers 1 2 3\ndeck Q*4 A*4\ndeal 1: Q | 2: Q | 3: A\nstock A A Q Q A\n";

#[test]
fn unknown_card_in_a_deal() {
    let (e, at) = fails("players 1 2\ndeck Q*4 A*4\ndeal 1: K | 2: Q\n");
    assert_eq!(
        (e.code, e.message.as_str(), at.as_str()),
        ("unknown-card", "no card `K` in this deck", "3:9")
    );
    assert_eq!(
        e.help.as_deref(),
        Some("did you mean `Q`? The deck has Q A")
    );
}

#[test]
fn a_card_dealt_more_often_than_the_deck_has_it() {
    let (e, at) = fails("players 1 2\ndeck ranks 2..6 suits S H\ndeal 1: 2S 3H | 2: 2S\n");
    assert_eq!((e.code, at.as_str()), ("card-dealt-twice", "3:20"));
    assert_eq!(e.message, "more 2S dealt than the deck has");
    assert_eq!(e.label, "the deck holds 2S once");
}

#[test]
fn unknown_player_suggests_a_name() {
    let src = "players Bruno Nadine\ndeck Q*2\ndeal Bruno: Q | Nadine: Q\n? K_Brno hand_Bruno(Q)\n";
    let (e, at) = fails(src);
    assert_eq!(
        (e.code, e.message.as_str(), at.as_str()),
        ("unknown-player", "no player `Brno`", "4:5")
    );
    assert!(e.help.unwrap().starts_with("did you mean `Bruno`?"));
}

#[test]
fn unknown_pile_in_a_formula() {
    let (e, at) = fails(&format!("{GOFISH}? tabel(Q)\n"));
    assert_eq!(
        (e.code, e.message.as_str(), at.as_str()),
        ("unknown-location", "no player or pile `tabel`", "6:3")
    );
}

#[test]
fn unknown_proposition_suggests_a_let_name() {
    let (e, at) = fails(&format!("{GOFISH}let queens = 1_Q\n? queen\n"));
    assert_eq!((e.code, at.as_str()), ("unknown-name", "7:3"));
    assert_eq!(e.help.as_deref(), Some("did you mean `queens`?"));
}

#[test]
fn a_location_is_not_a_formula() {
    let (e, _) = fails(&format!("{GOFISH}? hand1\n"));
    assert_eq!(e.code, "missing-card");
    assert_eq!(e.help.as_deref(), Some("write `hand1(Q)` or `hand1 = 2`"));
}

#[test]
fn asking_out_of_turn() {
    let (e, at) = fails(&format!("{GOFISH}ask 2 1 Q\n"));
    assert_eq!((e.code, at.as_str()), ("out-of-turn", "6:1"));
    assert_eq!(
        e.message,
        "ask 2 1 Q: Go Fish: it is player 1's turn, not player 2's"
    );
}

#[test]
fn asking_for_a_rank_one_does_not_hold() {
    let (e, _) = fails(&format!("{GOFISH}ask 1 2 A\n"));
    assert_eq!(e.code, "rank-not-held");
    assert_eq!(
        e.message,
        "ask 1 2 A: player 1 holds no A, so may not ask for it"
    );
}

#[test]
fn asking_oneself() {
    let (e, _) = fails(&format!("{GOFISH}ask 1 1 Q\n"));
    assert_eq!(e.code, "ask-self");
}

#[test]
fn a_draw_the_rules_do_not_allow() {
    let (e, _) = fails(&format!("{GOFISH}draw 1\n"));
    assert_eq!(e.code, "draw-not-allowed");
    assert!(e.message.ends_with("no draw is due now"), "{}", e.message);
    let (e, _) = fails(&format!("{GOFISH}ask 1 2 Q\ndraw 3\n"));
    assert!(
        e.message.ends_with("now player 2 must draw"),
        "{}",
        e.message
    );
}

#[test]
fn a_move_while_a_draw_is_due() {
    let (e, _) = fails(&format!("{GOFISH}ask 1 3 Q\nask 1 2 Q\n"));
    assert_eq!(e.code, "draw-pending");
    assert_eq!(e.message, "ask 1 2 Q: Go Fish: player 1 must draw first");
    assert_eq!(e.help.as_deref(), Some("write `draw 1`"));
}

#[test]
fn drawing_a_card_that_is_not_on_top() {
    let (e, _) = fails(&format!("{GOFISH}ask 1 3 Q\ndraw 1: Q\n"));
    assert_eq!(e.code, "not-the-top-card");
    assert_eq!(
        e.message,
        "draw 1: Q: the top card of the stock is A, not Q"
    );
}

#[test]
fn drawing_from_an_empty_stock() {
    let (e, _) = fails("players 1 2\ndeck Q*2\ndeal 1: Q | 2: Q\ndraw 1\n");
    assert_eq!(e.code, "empty-stock");
}

#[test]
fn a_false_announcement() {
    let (e, at) = fails(&format!("{GOFISH}announce 3_Q\n"));
    assert_eq!((e.code, at.as_str()), ("false-announcement", "6:1"));
    assert_eq!(
        e.message,
        "announce 3_Q: the announced formula is false in the actual world"
    );
}

#[test]
fn a_declaration_after_the_first_move() {
    let (e, _) = fails(&format!("{GOFISH}ask 1 2 Q\nplayers 4 5\n"));
    assert_eq!(e.code, "setup-after-start");
}

#[test]
fn no_players_declared() {
    let (e, _) = fails("deck Q*4\n? true\n");
    assert_eq!(e.code, "no-players");
}

#[test]
fn an_unknown_game() {
    let (e, _) = fails("game poker\n");
    assert_eq!(e.code, "unknown-game");
    assert_eq!(
        e.help.as_deref(),
        Some("the games are: free, gofish, kwartet, kemps, konigrufen, cabo")
    );
}

#[test]
fn go_fish_asks_for_ranks_not_cards() {
    let src =
        "game gofish\nplayers 1 2\ndeck ranks 2..3 Q suits S H\ndeal 1: QS | 2: QH\nask 1 2 QH\n";
    let (e, _) = fails(src);
    assert_eq!(e.code, "not-a-rank");
    assert_eq!(e.help.as_deref(), Some("write `Q`"));
}

#[test]
fn a_rank_is_not_one_card() {
    let src = "players 1 2\ndeck ranks 2..3 Q suits S H\ndeal 1: QS | 2: QH\nreveal 1 Q\n";
    let (e, _) = fails(src);
    assert_eq!(e.code, "ambiguous-card");
    assert_eq!(e.help.as_deref(), Some("one of QS QH"));
}

#[test]
fn peeking_at_a_pile_that_is_not_a_slot() {
    let (e, _) = fails(&format!("{GOFISH}peek 1 stock\n"));
    assert_eq!(e.code, "not-a-slot");
}

#[test]
fn applying_an_unknown_event_model() {
    let src = "model {\n agents a\n props p\n world w1: p\n a: {w1}\n actual w1\n}\napply peek\n";
    let (e, at) = fails(src);
    assert_eq!((e.code, at.as_str()), ("unknown-event", "8:7"));
}

#[test]
fn a_partition_that_misses_a_world() {
    let src = "model {\n agents a\n props p\n world w1: p\n world w2:\n a: {w1}\n actual w1\n}\n";
    let (e, _) = fails(src);
    assert_eq!(e.code, "bad-partition");
    assert_eq!(e.message, "world `w2` is in no block");
}

#[test]
fn a_deal_over_the_world_budget_is_refused_with_its_exact_count() {
    let src = "game gofish\nplayers 1 2 3\ndeck ranks 2..10 J Q K A suits S H D C\n\
               deal 1: 2S 3S 4S 5S 6S 7S 8S | 2: 2H 3H 4H 5H 6H 7H 8H | 3: 2D 3D 4D 5D 6D 7D 8D\n? true\n";
    let started = std::time::Instant::now();
    let explicit = Options {
        engine: Engine::Explicit,
        ..Options::default()
    };
    let (e, _) = fails_with(src, explicit);
    assert_eq!(e.code, "too-many-worlds");
    assert_eq!(
        e.message,
        "the deal has 76,618,741,482,378,698,803,200 possible worlds, more than the budget of 10,000,000"
    );
    assert!(
        started.elapsed().as_secs() < 5,
        "the guard must not enumerate"
    );
}

#[test]
fn an_illegal_move_in_the_middle_of_a_game_changes_nothing() {
    // `fails` checks the session is unchanged; here after several moves.
    let (e, _) = fails(&format!(
        "{GOFISH}ask 1 2 Q\ndraw 2\nask 1 3 Q\ndraw 1\nask 2 3 Q\n"
    ));
    assert_eq!(e.code, "rank-not-held");
}

#[test]
fn rendered_errors_show_the_line_and_a_caret() {
    let src = format!("{GOFISH}ask 2 1 Q\n");
    let (e, _) = fails(&src);
    assert_eq!(
        e.render("game.deal", &src, false),
        "error[out-of-turn]: ask 2 1 Q: Go Fish: it is player 1's turn, not player 2's\n \
         --> game.deal:6:1\n  |\n6 | ask 2 1 Q\n  | ^^^^^^^^^ illegal move\n"
    );
}

/// `expect score P = N` asks the game's referee; a game without one has no
/// score, and an unknown player is named.
#[test]
fn a_score_needs_a_referee_and_a_player() {
    let (e, at) = fails("players 1 2\ndeck Q*2\ndeal 1: Q | 2: Q\nexpect score 1 = 0\n");
    assert_eq!((e.code, at.as_str()), ("no-referee", "4:1"));
    assert!(e.message.contains("no score"), "{}", e.message);
    let (e, _) = fails(&format!("{GOFISH}expect score 4 = 0\n"));
    assert_eq!(e.code, "unknown-player");
}

/// The score of Go Fish is the number of books laid down: it changes with
/// the move that completes a book, and any comparison may be written.
#[test]
fn a_score_is_the_referees() {
    let src = "game gofish\nplayers 1 2 3\ndeck ranks A K suits S H\n\
               deal 1: AS KS | 2: AH | 3: KH\n\
               expect score 1 = 0\nexpect score 1 < 1\n\
               ask 1 2 A\nexpect score 1 = 1\nexpect score 2 >= 0\nexpect score 1 != 1\n";
    let (outputs, _) = run(src);
    let held = crate::common::held(&outputs);
    assert_eq!(held, vec![true, true, true, true, false]);
}

/// A term the symbolic engine cannot hold (more than 64 bits) is refused
/// before any BDD is built, with the caret on the term, in an observation,
/// a law and a query, and the help names what works: narrower ranges.
#[test]
fn a_term_wider_than_64_bits_is_refused_at_the_term() {
    let head = "players A B\nvar x, y, z in 4000000000..4000000999\n\
                actual x = 4000000001, y = 4000000002, z = 4000000003\n";
    for (rest, at) in [
        ("A observes x * y * z\nB observes y\n? x > 0\n", "4:12"),
        (
            "law x * y * z > 5\nA observes x\nB observes y\n? x > 0\n",
            "4:5",
        ),
        ("A observes x\nB observes y\n? x * y * z > 5\n", "6:3"),
    ] {
        let (e, where_) = fails(&format!("{head}{rest}"));
        assert_eq!(
            (e.code, where_.as_str()),
            ("symbolic-unsupported", at),
            "{rest}"
        );
        assert!(e.message.contains("more than 64 bits"), "{}", e.message);
        assert!(
            e.help
                .as_deref()
                .unwrap_or("")
                .contains("narrow the ranges"),
            "{:?}",
            e.help
        );
    }
    // Narrower ranges, as the help says, are answered by the same engine.
    let src = "players A B\nvar x, y, z in 0..15\nactual x = 1, y = 2, z = 3\n\
               A observes x * y * z\nB observes y\n\
               expect K_A (x * y * z = 6)\nexpect !K_A (x = 1)\n";
    let options = Options {
        engine: Engine::Symbolic,
        ..Options::default()
    };
    assert_eq!(held(&run_with(src, options).0), vec![true, true]);
}

/// A term beyond 128 bits on the explicit engine saturates instead of
/// overflowing (a panic in a test build): the comparison is still right.
#[test]
fn a_term_beyond_128_bits_is_compared_on_the_explicit_engine() {
    let big = "18446744073709551615 * 18446744073709551615 * 18446744073709551615";
    let src = format!(
        "players A B\nvar x in 0..1\nactual x = 1\nA observes x\n\
         expect x * {big} + {big} * 2 > 5\nexpect !(0 - {big} - {big} * 2 > 5)\n"
    );
    let options = Options {
        engine: Engine::Explicit,
        ..Options::default()
    };
    assert_eq!(held(&run_with(&src, options).0), vec![true, true]);
}
