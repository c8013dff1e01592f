//! Kwartet and Kemps: illegal moves get located errors that quote the rule
//! and leave the session as it was; the rules' own steps (new tables,
//! reshuffles, new hands after a Kemps) happen when the rules say.

use crate::common;
use common::*;

use dealer::cards::kemps;
use dealer::interp::Output;

const KWARTET: &str = "game kwartet\nplayers 1 2 3\ndeck sets 1..3 of 4\n\
deal 1: <1,1> <1,2> <1,3> <2,1> | 2: <1,4> <2,2> <3,1> <3,2> | 3: <2,3> <2,4> <3,3> <3,4>\n";

/// A small Kemps deal: value cards without suits, 19 cards, one in the stock.
const KEMPS: &str = "game kemps\nplayers 1 2 3\ndeck 2*4 3*4 4*4 5*4 6*3\n\
deal 1: 2 2 3 4 | 2: 3 3 5 5 | 3: 4 4 6 6 | table: 2 2 5 5 6 4\n";

fn held(outputs: &[Output]) -> Vec<(String, bool)> {
    outputs
        .iter()
        .filter_map(|o| match o {
            Output::Expect { source, held, .. } => Some((source.clone(), *held)),
            _ => None,
        })
        .collect()
}

#[test]
fn kwartet_asks_only_for_a_set_held() {
    let (e, at) = fails(&format!("{KWARTET}ask 1 2 <3,1>\n"));
    assert_eq!((e.code, at.as_str()), ("set-not-held", "5:1"));
    assert_eq!(
        e.message,
        "ask 1 2 <3,1>: Kwartet: a player asks only for a card of a set they hold; player 1 holds no <3,*>"
    );
}

#[test]
fn kwartet_keeps_the_turn_after_success_and_passes_it_after_failure() {
    let (e, _) = fails(&format!("{KWARTET}ask 1 2 <1,4>\nask 2 3 <3,3>\n"));
    assert_eq!(e.code, "out-of-turn");
    assert_eq!(
        e.message,
        "ask 2 3 <3,3>: Kwartet: it is player 1's turn, not player 2's"
    );
    let (e, _) = fails(&format!("{KWARTET}ask 1 3 <2,2>\nask 1 3 <2,3>\n"));
    assert_eq!(e.code, "out-of-turn");
}

#[test]
fn kwartet_cards_of_a_laid_down_set_cannot_be_asked_for() {
    let (e, _) = fails(&format!("{KWARTET}ask 1 2 <1,4>\nask 1 2 <1,1>\n"));
    assert_eq!(e.code, "set-not-held");
}

#[test]
fn kwartet_deals_every_card() {
    let src = "game kwartet\nplayers 1 2\ndeck sets 1..2 of 4\ndeal 1: <1,1> <2,1> | 2: <1,2> <2,2>\nexpect true\n";
    let (e, _) = fails(src);
    assert_eq!(e.code, "kwartet-stock");
    assert!(e.message.contains("leaves 4 in the stock"), "{}", e.message);
}

#[test]
fn kwartet_ask_is_one_card_not_a_pattern() {
    let (e, _) = fails(&format!("{KWARTET}ask 1 2 <1,*>\n"));
    assert_eq!(e.code, "kwartet-one-card");
}

#[test]
fn kemps_hand_must_hold_four_after_the_turn() {
    let (e, at) = fails(&format!("{KEMPS}pass 1\npick 2 6\npass 2\n"));
    assert_eq!((e.code, at.as_str()), ("kemps-hand-size", "7:1"));
    assert_eq!(
        e.message,
        "pass 2: Kemps: a hand must hold four cards after the turn; player 2 holds five"
    );
    // The next player's move ends the turn too.
    let (e, _) = fails(&format!("{KEMPS}pick 1 6\npick 2 6\n"));
    assert_eq!(e.code, "kemps-hand-size");
}

#[test]
fn kemps_exchanges_one_card_at_a_time() {
    let (e, _) = fails(&format!("{KEMPS}pick 1 6\npick 1 5\n"));
    assert_eq!(e.code, "kemps-one-at-a-time");
    let (e, _) = fails(&format!("{KEMPS}discard 1 2\ndiscard 1 3\n"));
    assert_eq!(e.code, "kemps-one-at-a-time");
}

#[test]
fn kemps_turns_go_clockwise() {
    let (e, _) = fails(&format!("{KEMPS}pick 3 6\n"));
    assert_eq!(e.code, "out-of-turn");
    assert_eq!(
        e.message,
        "pick 3 6: Kemps: it is player 1's turn and player 2 plays next, not player 3"
    );
}

#[test]
fn kemps_false_claim_is_an_error() {
    let (e, _) = fails(&format!("{KEMPS}kemps 2\n"));
    assert_eq!(e.code, "false-kemps");
}

#[test]
fn kemps_picks_only_what_lies_on_the_table() {
    let (e, _) = fails(&format!("{KEMPS}pick 1 3\n"));
    assert_eq!(e.code, "card-not-there");
}

#[test]
fn kemps_three_idle_turns_bring_a_new_table_and_reshuffle() {
    // The stock holds one 6; the old table comes back through the discard pile.
    let src = format!(
        "{KEMPS}pass 1\npass 2\nexpect table = 6 & discard = 0\npass 3\n\
         expect table(6) & C table(6) >= 1\nexpect table = 6 & stock = 1 & discard = 0\n"
    );
    let (outputs, session) = run(&src);
    for (source, ok) in held(&outputs) {
        assert!(ok, "{source}");
    }
    let notes: Vec<String> = outputs
        .iter()
        .filter_map(|o| match o {
            Output::Moved { notes, .. } => Some(notes.join("; ")),
            _ => None,
        })
        .collect();
    assert!(notes[2].contains("a new table"), "{notes:?}");
    assert!(notes[2].contains("shuffled into the stock"), "{notes:?}");
    let mut state = session.playing().unwrap().state.clone();
    assert_eq!(kemps::turn_state(&mut state).reshuffles, 1);
}

#[test]
fn kemps_claim_lays_down_four_and_deals_a_new_hand() {
    // Player 3 gathers the four 4s and claims; the stock and discard pile
    // cannot give four cards, so the game ends.
    let src = format!(
        "{KEMPS}pick 1 2\ndiscard 1 4\npass 2\npick 3 4\ndiscard 3 6\npick 3 4\ndiscard 3 6\n\
         kemps 3\nexpect C books3(4) = 4\n"
    );
    let (outputs, session) = run(&src);
    assert_eq!(
        held(&outputs),
        vec![("expect C books3(4) = 4".into(), true)]
    );
    assert!(kemps::is_over(&session.playing().unwrap().state));
    let (e, _) = fails(&format!("{src}pass 3\n"));
    assert_eq!(e.code, "game-over");
}

#[test]
fn reveal_of_any_card_is_public() {
    // A reveal is an announcement: every card of the deck can be revealed,
    // not only the first kind.
    let deal = "players 1 2\ndeck A K Q J\ndeal 1: A Q | 2: K\n";
    let (out, _) = run(&format!(
        "{deal}expect !K2 hand1(Q)\nreveal 1 Q\nexpect K2 hand1(Q) & !K2 hand1(A)\n"
    ));
    assert_eq!(
        held(&out),
        vec![
            ("expect !K2 hand1(Q)".to_string(), true),
            ("expect K2 hand1(Q) & !K2 hand1(A)".to_string(), true)
        ]
    );
    let (e, _) = fails(&format!("{deal}reveal 1 K\n"));
    assert_eq!(e.code, "card-not-there");
}

/// A word and plain arguments are a game's move, which the scenario's game
/// reads: a word it does not define is a located error naming its moves,
/// the game that has the word, or the statement meant. Before the deal
/// too: the error comes before "no players".
#[test]
fn an_unknown_move_word_names_the_games_moves() {
    let (e, at) = fails(&format!("{KEMPS}play 1 2\n"));
    assert_eq!((e.code, at.as_str()), ("not-a-move-of-the-game", "5:1"));
    assert_eq!(e.message, "`play` is a move of Königrufen, not of Kemps");
    assert_eq!(
        e.help.as_deref(),
        Some("the moves of Kemps are pick P C, discard P C, newtable, kemps P, pass P; declare the game that has this move with `game NAME` before the deal")
    );
    let (e, at) = fails("players 1 2\nexpct C p\n");
    assert_eq!((e.code, at.as_str()), ("unknown-move", "2:1"));
    assert_eq!(e.message, "unknown statement or move `expct`");
    assert_eq!(
        e.help.as_deref(),
        Some("did you mean `expect`? (the free game has no moves of its own)")
    );
    assert_eq!(e.span.end - e.span.start, 5);
    let (e, _) = fails("K1 p\n");
    assert_eq!(e.code, "unknown-move");
    assert_eq!(
        e.help.as_deref(),
        Some("a formula is not a statement: write `? K1 p` to evaluate it")
    );
    // Too few arguments, and a slot that is not one.
    let (e, _) = fails(&format!("{KEMPS}pick 1\n"));
    assert_eq!(e.code, "move-arguments");
    assert_eq!(e.message, "too few arguments: Kemps's move is `pick P C`");
    let (e, _) = fails(
        "game cabo\nplayers 1 2\ndeck 0..3*3\ndeal 1.1: 0 | 1.2: 0 | 1.3: 1 | 1.4: 1 | 2.1: 2 | 2.2: 2 | 2.3: 3 | 2.4: 3 | open: 1\nplace 1 stock\n",
    );
    assert_eq!(e.code, "not-a-slot");
}
