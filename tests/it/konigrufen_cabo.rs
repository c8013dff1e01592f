//! Königrufen and the Cabo-like game: the tarock deck, illegal moves by each
//! game's rules (located errors quoting the rule, the session unchanged), and
//! the event models that make the rules' consequences known.

use crate::common;
use common::*;

use dealer::cards::deck::Deck;
use dealer::diag::{Diagnostic, Span};
use dealer::interp::Output;
use dealer::syntax;
use dealer::syntax::ast::{DeckSpec, Name};

pub(crate) const KONIG: &str = "game konigrufen\nplayers Bruno Jakob Katrin Nadine\n\
deck tarock KH QH 1H 2H KS QS 9S T4\n\
deal Bruno: QH 9S | Jakob: 1H QS | Katrin: T4 KS | Nadine: KH 2H\n";

/// [`KONIG`] with Katrin's cards in another order.
pub(crate) const TRUMPING: &str = "game konigrufen\nplayers Bruno Jakob Katrin Nadine\n\
deck tarock KH QH 1H 2H KS QS 9S T4\n\
deal Bruno: QH 9S | Jakob: 1H QS | Katrin: KS T4 | Nadine: KH 2H\n";

pub(crate) const CABO: &str = "game cabo\nplayers 1 2\ndeck 0..3*3\n\
deal 1.1: 1 | 1.2: 0 | 1.3: 0 | 1.4: 0 | 2.1: 3 | 2.2: 2 | 2.3: 3 | 2.4: 2 | open: 2\n\
stock 1 3 1\n";

/// Runs a scenario and returns the value of its last `?` query.
fn answer(src: &str) -> bool {
    run(src)
        .0
        .into_iter()
        .rev()
        .find_map(|out| match out {
            Output::Answer { value, .. } => Some(value),
            _ => None,
        })
        .expect("a query")
}

fn tarock(reduced: bool, cards: &[&str]) -> Result<Deck, Diagnostic> {
    let cards = cards
        .iter()
        .map(|c| Name {
            text: (*c).into(),
            span: Span::new(0, c.len()),
        })
        .collect();
    Deck::from_spec(&DeckSpec::Tarock {
        reduced,
        cards,
        span: Span::default(),
    })
}

#[test]
fn tarock_decks() {
    assert_eq!(tarock(false, &[]).unwrap().total(), 54);
    let reduced = tarock(true, &[]).unwrap();
    assert_eq!(reduced.total(), 48);
    let names: Vec<&str> = reduced.kinds.iter().map(|k| k.name.as_str()).collect();
    for gone in ["4H", "4D", "7S", "7C", "T2", "T3"] {
        assert!(!names.contains(&gone), "{gone} is not in the reduced deck");
    }
    let small = tarock(false, &["kh", "T21", "Skus"]).unwrap();
    assert_eq!(small.kinds[2].name, "SKUS");
    assert_eq!(small.kinds[2].suit, Some('T'));
    assert_eq!(small.kinds[2].value, Some(22));
    let err = tarock(false, &["T22"]).unwrap_err();
    assert_eq!(err.code, "unknown-card");
    assert_eq!(err.message, "no card `T22` in the tarock deck");
    let parsed = syntax::parse("deck tarock reduced\ndeck tarock\ndeck tarock T1 KH\n").unwrap();
    assert_eq!(parsed.statements.len(), 3);
}

#[test]
fn showing_out_is_learnt_from_the_rule() {
    let moves = "call Bruno KH\nplay Bruno QH\nplay Jakob 1H\n";
    assert!(!answer(&format!("{KONIG}{moves}? C hand_Katrin(*H) = 0\n")));
    assert!(answer(&format!(
        "{KONIG}{moves}? [play Katrin T4] C hand_Katrin(*H) = 0\n"
    )));
    assert!(answer(&format!(
        "{KONIG}{moves}play Katrin T4\n? C !partner(Katrin)\n"
    )));
    // The trick's winner leads: Katrin trumped, so Nadine may not lead.
    let (e, _) = fails(&format!(
        "{KONIG}{moves}play Katrin T4\nplay Nadine 2H\nplay Nadine KH\n"
    ));
    assert_eq!(e.code, "out-of-turn");
}

#[test]
fn cabo_place_shows_the_old_card_only() {
    // Player 1 draws the 1 in private and places it on 1.1 (a 1 too): the
    // old card goes face up; player 2 learns 1.1's old value but not the new.
    let src = format!("{CABO}draw 1\nplace 1 1.2\n? C open(0) & K1 1.2(1) & !Kv2 1.2\n");
    assert!(answer(&src));
    let src = format!("{CABO}draw 1 from open: 2\nplace 1 1.2\n? C 1.2(2)\n");
    assert!(answer(&src));
}
