//! Bad input: every malformed file, unknown name, illegal move, false
//! announcement or impossible deal gets a located error with a stable code,
//! and after an error the session is exactly as before.

use crate::classics::{CARDS, VARS};
use crate::common;
use crate::games::{KEMPS, KWARTET};
use crate::konigrufen_cabo::{CABO, KONIG, TRUMPING};
use common::*;
use dealer::interp::{Engine, Options};

const GOFISH: &str =
    "game gofish\nplayers 1 2 3\ndeck Q*4 A*4\ndeal 1: Q | 2: Q | 3: A\nstock A A Q Q A\n";

/// Bad input of every kind is refused with a located error, its stable
/// code and words, and leaves the session as it was.
#[test]
#[rustfmt::skip]
fn bad_input_is_refused_with_a_located_error_and_its_words() {
    refusals(&[
        // An unknown card in a deal, player, pile, proposition; a location is not a formula.
        ("", "players 1 2\ndeck Q*4 A*4\ndeal 1: K | 2: Q\n", "unknown-card", "3:9", "no card `K` in this deck", "did you mean `Q`? The deck has Q A"),
        ("", "players Bruno Nadine\ndeck Q*2\ndeal Bruno: Q | Nadine: Q\n? K_Brno hand_Bruno(Q)\n", "unknown-player", "4:5", "no player `Brno`", "did you mean `Bruno`?…"),
        (GOFISH, "? tabel(Q)\n", "unknown-location", "6:3", "no player or pile `tabel`", ""),
        (GOFISH, "let queens = 1_Q\n? queen\n", "unknown-name", "7:3", "", "did you mean `queens`?"),
        (GOFISH, "? hand1\n", "missing-card", "", "", "write `hand1(Q)` or `hand1 = 2`"),
        // Asking out of turn, for a rank one does not hold, oneself.
        (GOFISH, "ask 2 1 Q\n", "out-of-turn", "6:1", "ask 2 1 Q: Go Fish: it is player 1's turn, not player 2's", ""),
        (GOFISH, "ask 1 2 A\n", "rank-not-held", "", "ask 1 2 A: player 1 holds no A, so may not ask for it", ""),
        (GOFISH, "ask 1 1 Q\n", "ask-self", "", "", ""),
        // A draw the rules do not allow, a move while a draw is due.
        (GOFISH, "draw 1\n", "draw-not-allowed", "", "…no draw is due now", ""),
        (GOFISH, "ask 1 2 Q\ndraw 3\n", "draw-not-allowed", "", "…now player 2 must draw", ""),
        (GOFISH, "ask 1 3 Q\nask 1 2 Q\n", "draw-pending", "", "ask 1 2 Q: Go Fish: player 1 must draw first", "write `draw 1`"),
        // Drawing a card that is not on top, from an empty stock.
        (GOFISH, "ask 1 3 Q\ndraw 1: Q\n", "not-the-top-card", "", "draw 1: Q: the top card of the stock is A, not Q", ""),
        ("", "players 1 2\ndeck Q*2\ndeal 1: Q | 2: Q\ndraw 1\n", "empty-stock", "", "", ""),
        // A false announcement; a declaration after the first move; no players.
        (GOFISH, "announce 3_Q\n", "false-announcement", "6:1", "announce 3_Q: the announced formula is false in the actual world", ""),
        (GOFISH, "ask 1 2 Q\nplayers 4 5\n", "setup-after-start", "", "", ""),
        ("", "deck Q*4\n? true\n", "no-players", "", "", ""),
        ("", "game poker\n", "unknown-game", "", "", "the games are: free, gofish, kwartet, kemps, konigrufen, cabo"),
        // Go Fish asks for ranks, not cards; a rank is not one card; a pile is not a slot.
        ("", "game gofish\nplayers 1 2\ndeck ranks 2..3 Q suits S H\ndeal 1: QS | 2: QH\nask 1 2 QH\n", "not-a-rank", "", "", "write `Q`"),
        ("", "players 1 2\ndeck ranks 2..3 Q suits S H\ndeal 1: QS | 2: QH\nreveal 1 Q\n", "ambiguous-card", "", "", "one of QS QH"),
        (GOFISH, "peek 1 stock\n", "not-a-slot", "", "", ""),
        // An unknown event model; a partition that misses a world.
        ("", "model {\n agents a\n props p\n world w1: p\n a: {w1}\n actual w1\n}\napply peek\n", "unknown-event", "8:7", "", ""),
        ("", "model {\n agents a\n props p\n world w1: p\n world w2:\n a: {w1}\n actual w1\n}\n", "bad-partition", "", "world `w2` is in no block", ""),
        // An illegal move in the middle of a game changes nothing either.
        (GOFISH, "ask 1 2 Q\ndraw 2\nask 1 3 Q\ndraw 1\nask 2 3 Q\n", "rank-not-held", "", "", ""),
        // `expect score P = N` asks the game's referee: a game without one
        // has no score, and an unknown player is named.
        ("", "players 1 2\ndeck Q*2\ndeal 1: Q | 2: Q\nexpect score 1 = 0\n", "no-referee", "4:1", "…no score…", ""),
        (GOFISH, "expect score 4 = 0\n", "unknown-player", "", "", ""),
        // Kwartet and Kemps: each rule's illegal moves, quoting the rule.
        // Kwartet asks only for a set held, and one card of it.
        (KWARTET, "ask 1 2 <3,1>\n", "set-not-held", "5:1", "ask 1 2 <3,1>: Kwartet: a player asks only for a card of a set they hold; player 1 holds no <3,*>", ""),
        (KWARTET, "ask 1 2 <1,*>\n", "kwartet-one-card", "", "", ""),
        // The cards of a set laid down cannot be asked for.
        (KWARTET, "ask 1 2 <1,4>\nask 1 2 <1,1>\n", "set-not-held", "", "", ""),
        // The turn stays after a success and passes after a failure.
        (KWARTET, "ask 1 2 <1,4>\nask 2 3 <3,3>\n", "out-of-turn", "", "ask 2 3 <3,3>: Kwartet: it is player 1's turn, not player 2's", ""),
        (KWARTET, "ask 1 3 <2,2>\nask 1 3 <2,3>\n", "out-of-turn", "", "", ""),
        // Kwartet deals every card.
        ("", "game kwartet\nplayers 1 2\ndeck sets 1..2 of 4\ndeal 1: <1,1> <2,1> | 2: <1,2> <2,2>\nexpect true\n", "kwartet-stock", "", "…leaves 4 in the stock…", ""),
        // A Kemps hand holds four after the turn; the next player's move ends the turn too.
        (KEMPS, "pass 1\npick 2 6\npass 2\n", "kemps-hand-size", "7:1", "pass 2: Kemps: a hand must hold four cards after the turn; player 2 holds five", ""),
        (KEMPS, "pick 1 6\npick 2 6\n", "kemps-hand-size", "", "", ""),
        // Kemps exchanges one card at a time.
        (KEMPS, "pick 1 6\npick 1 5\n", "kemps-one-at-a-time", "", "", ""),
        (KEMPS, "discard 1 2\ndiscard 1 3\n", "kemps-one-at-a-time", "", "", ""),
        // Kemps's turns go clockwise.
        (KEMPS, "pick 3 6\n", "out-of-turn", "", "pick 3 6: Kemps: it is player 1's turn and player 2 plays next, not player 3", ""),
        // A false claim, and a pick of what does not lie on the table.
        (KEMPS, "kemps 2\n", "false-kemps", "", "", ""),
        (KEMPS, "pick 1 3\n", "card-not-there", "", "", ""),
            // A move word of no game or another game, a formula as a statement, too few arguments.
        (KEMPS, "play 1 2\n", "not-a-move-of-the-game", "5:1", "`play` is a move of Königrufen, not of Kemps", "the moves of Kemps are pick P C, discard P C, newtable, kemps P, pass P; declare the game that has this move with `game NAME` before the deal"),
        ("", "players 1 2\nexpct C p\n", "unknown-move", "2:1", "unknown statement or move `expct`", "did you mean `expect`? (the free game has no moves of its own)"),
        ("", "K1 p\n", "unknown-move", "", "", "a formula is not a statement: write `? K1 p` to evaluate it"),
        // Too few arguments, and a slot that is not one.
        (KEMPS, "pick 1\n", "move-arguments", "", "too few arguments: Kemps's move is `pick P C`", ""),
        ("", "game cabo\nplayers 1 2\ndeck 0..3*3\ndeal 1.1: 0 | 1.2: 0 | 1.3: 1 | 1.4: 1 | 2.1: 2 | 2.2: 2 | 2.3: 3 | 2.4: 3 | open: 1\nplace 1 stock\n", "not-a-slot", "", "", ""),
            // Königrufen.
        // Following suit, trumping.
        (KONIG, "call Bruno KH\nplay Bruno QH\nplay Jakob QS\n", "must-follow-suit", "7:1", "play Jakob QS: Königrufen: Jakob must follow suit: Jakob holds a heart", ""),
        (TRUMPING, "call Bruno KH\nplay Bruno QH\nplay Jakob 1H\nplay Katrin KS\n", "must-trump", "", "play Katrin KS: Königrufen: Katrin must play a trump: Katrin holds no heart but holds a trump", ""),
        // Playing before the call or out of turn, a card not held.
        (KONIG, "play Bruno QH\n", "no-king-called", "", "", ""),
        (KONIG, "call Bruno KH\nplay Jakob 1H\n", "out-of-turn", "", "play Jakob 1H: Königrufen: it is Bruno's turn, not Jakob's", ""),
        (KONIG, "call Bruno KH\nplay Bruno KH\n", "card-not-there", "", "", ""),
        // Calling: a king, once; the partner is known after the call.
        (KONIG, "call Bruno QH\n", "not-a-king", "", "", ""),
        (KONIG, "call Bruno KH\ncall Jakob KS\n", "already-called", "", "", ""),
        (KONIG, "? partner(Nadine)\n", "no-king-called", "5:3", "", ""),
        (KONIG, "call Bruno KH\n? partner(Nadin)\n", "unknown-player", "", "", ""),
        // Four players and a tarock deck.
        ("", "game konigrufen\nplayers 1 2 3\ndeck tarock KH QH T1\ndeal 1: KH\n", "bad-table", "", "", ""),
        ("", "game konigrufen\nplayers 1 2 3 4\ndeck Q*4\ndeal 1: Q\n", "bad-deck", "", "", ""),
            // The Cabo-like game.
        // A player peeks only at their own cards.
        (CABO, "peek 1 2.1\n", "not-own-slot", "6:1", "peek 1 2.1: Cabo: a player peeks only at their own face-down cards, and 2.1 is player 2's", ""),
        // Turns: draw, then place or discard.
        (CABO, "place 1 1.1\n", "nothing-drawn", "", "", ""),
        (CABO, "draw 2\n", "out-of-turn", "", "", ""),
        (CABO, "draw 1\ndraw 1\n", "already-drawn", "", "", ""),
        (CABO, "draw 1 from open: 3\n", "not-the-top-card", "", "", ""),
        (CABO, "draw 1\nplace 1 2.2\n", "not-own-slot", "", "", ""),
        (CABO, "draw 1\ndiscard 1 3\n", "card-not-there", "", "", ""),
        // The deal puts one card on each slot.
        ("", "game cabo\nplayers 1 2\ndeck 0..3*3\ndeal 1.1: 1 | open: 2\n", "bad-deal", "", "…slot 1.2 holds 0…", ""),
            // A `let` with parameters is checked where it is used.
        (CARDS, "let f(a, b) = K_a hand_b(0)\n? f(Anne)\n", "wrong-arguments", "5:3", "", ""),
        (CARDS, "let f(a) = f(a) & hand_a(0)\n? f(Anne)\n", "recursive-let", "", "", ""),
        (CARDS, "? g(Anne, Bill)\n", "unknown-name", "", "", ""),
        (CARDS, "? all x in 0..6: hand_Dora(x)\n", "unknown-location", "", "", ""),
        // Bad variable declarations.
        (VARS, "law x < z\n? true\n", "unknown-variable", "3:9", "", ""),
        (VARS, "law K_S x = 2\nactual x = 2, y = 3\n? true\n", "bad-law", "", "", ""),
        (VARS, "law x < y\nactual x = 5, y = 3\n? true\n", "bad-actual", "", "", ""),
        (VARS, "actual x = 2\n? true\n", "no-actual", "", "", ""),
        (VARS, "actual x = 2, y = 3\n? Kv_S (x + y)\n", "kv-term", "", "", ""),
        ("", "players S\ndeck A\nvar x in 0..3\nactual x = 1\n? true\n", "cards-and-variables", "", "", ""),
    ]);
}

#[test]
fn a_card_dealt_more_often_than_the_deck_has_it() {
    let (e, at) = fails("players 1 2\ndeck ranks 2..6 suits S H\ndeal 1: 2S 3H | 2: 2S\n");
    assert_eq!((e.code, at.as_str()), ("card-dealt-twice", "3:20"));
    assert_eq!(e.message, "more 2S dealt than the deck has");
    assert_eq!(e.label, "the deck holds 2S once");
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
fn rendered_errors_show_the_line_and_a_caret() {
    let src = format!("{GOFISH}ask 2 1 Q\n");
    let (e, _) = fails(&src);
    assert_eq!(
        e.render("game.deal", &src, false),
        "error[out-of-turn]: ask 2 1 Q: Go Fish: it is player 1's turn, not player 2's\n \
         --> game.deal:6:1\n  |\n6 | ask 2 1 Q\n  | ^^^^^^^^^ illegal move\n"
    );
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
