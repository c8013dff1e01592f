//! Kwartet and Kemps: illegal moves get located errors that quote the rule
//! and leave the session as it was; the rules' own steps (new tables,
//! reshuffles, new hands after a Kemps) happen when the rules say.

use crate::common;
use common::*;

use dealer::cards::kemps;
use dealer::interp::Output;

pub(crate) const KWARTET: &str = "game kwartet\nplayers 1 2 3\ndeck sets 1..3 of 4\n\
deal 1: <1,1> <1,2> <1,3> <2,1> | 2: <1,4> <2,2> <3,1> <3,2> | 3: <2,3> <2,4> <3,3> <3,4>\n";

/// A small Kemps deal: value cards without suits, 19 cards, one in the stock.
pub(crate) const KEMPS: &str = "game kemps\nplayers 1 2 3\ndeck 2*4 3*4 4*4 5*4 6*3\n\
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
    // Its code, place and words are in `errors::bad_input_is_refused_with_a_located_error_and_its_words`;
    // the caret is on the word.
    let (e, _) = fails("players 1 2\nexpct C p\n");
    assert_eq!(e.span.end - e.span.start, 5);
}
