//! Königrufen and the Cabo-like game: the tarock deck, illegal moves by each
//! game's rules (located errors quoting the rule, the session unchanged), and
//! the event models that make the rules' consequences known.

use crate::common;
use common::*;

use dealer::cards::deck::Deck;
use dealer::diag::{Diagnostic, Span};
use dealer::interp::{Options, Output, Session};
use dealer::syntax;
use dealer::syntax::ast::{DeckSpec, Name};

const KONIG: &str = "game konigrufen\nplayers Bruno Jakob Katrin Nadine\n\
deck tarock KH QH 1H 2H KS QS 9S T4\n\
deal Bruno: QH 9S | Jakob: 1H QS | Katrin: T4 KS | Nadine: KH 2H\n";

const CABO: &str = "game cabo\nplayers 1 2\ndeck 0..3*3\n\
deal 1.1: 1 | 1.2: 0 | 1.3: 0 | 1.4: 0 | 2.1: 3 | 2.2: 2 | 2.3: 3 | 2.4: 2 | open: 2\n\
stock 1 3 1\n";

/// Runs a scenario and returns the value of its last `?` query.
fn answer(src: &str) -> bool {
    let scenario = syntax::parse(src).unwrap_or_else(|e| panic!("parse error: {e:?}"));
    let mut session = Session::new(Options::default());
    let mut last = None;
    for stmt in &scenario.statements {
        for out in session
            .execute(stmt, src)
            .unwrap_or_else(|d| panic!("{}", d.render("t.deal", src, false)))
        {
            if let Output::Answer { value, .. } = out {
                last = Some(value);
            }
        }
    }
    last.expect("a query")
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
fn following_suit() {
    let src = format!("{KONIG}call Bruno KH\nplay Bruno QH\nplay Jakob QS\n");
    let (e, at) = fails(&src);
    assert_eq!((e.code, at.as_str()), ("must-follow-suit", "7:1"));
    assert_eq!(
        e.message,
        "play Jakob QS: Königrufen: Jakob must follow suit: Jakob holds a heart"
    );
}

#[test]
fn trumping() {
    let deal = "game konigrufen\nplayers Bruno Jakob Katrin Nadine\n\
deck tarock KH QH 1H 2H KS QS 9S T4\n\
deal Bruno: QH 9S | Jakob: 1H QS | Katrin: KS T4 | Nadine: KH 2H\n";
    let src = format!("{deal}call Bruno KH\nplay Bruno QH\nplay Jakob 1H\nplay Katrin KS\n");
    let (e, _) = fails(&src);
    assert_eq!(e.code, "must-trump");
    assert_eq!(
        e.message,
        "play Katrin KS: Königrufen: Katrin must play a trump: Katrin holds no heart but holds a trump"
    );
}

#[test]
fn playing_before_the_call_or_out_of_turn() {
    let (e, _) = fails(&format!("{KONIG}play Bruno QH\n"));
    assert_eq!(e.code, "no-king-called");
    let (e, _) = fails(&format!("{KONIG}call Bruno KH\nplay Jakob 1H\n"));
    assert_eq!(e.code, "out-of-turn");
    assert_eq!(
        e.message,
        "play Jakob 1H: Königrufen: it is Bruno's turn, not Jakob's"
    );
    let (e, _) = fails(&format!("{KONIG}call Bruno KH\nplay Bruno KH\n"));
    assert_eq!(e.code, "card-not-there");
}

#[test]
fn calling() {
    let (e, _) = fails(&format!("{KONIG}call Bruno QH\n"));
    assert_eq!(e.code, "not-a-king");
    let (e, _) = fails(&format!("{KONIG}call Bruno KH\ncall Jakob KS\n"));
    assert_eq!(e.code, "already-called");
    let (e, at) = fails(&format!("{KONIG}? partner(Nadine)\n"));
    assert_eq!((e.code, at.as_str()), ("no-king-called", "5:3"));
    let (e, _) = fails(&format!("{KONIG}call Bruno KH\n? partner(Nadin)\n"));
    assert_eq!(e.code, "unknown-player");
}

#[test]
fn four_players_and_a_tarock_deck() {
    let (e, _) = fails("game konigrufen\nplayers 1 2 3\ndeck tarock KH QH T1\ndeal 1: KH\n");
    assert_eq!(e.code, "bad-table");
    let (e, _) = fails("game konigrufen\nplayers 1 2 3 4\ndeck Q*4\ndeal 1: Q\n");
    assert_eq!(e.code, "bad-deck");
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
fn cabo_peeks_only_at_own_cards() {
    let (e, at) = fails(&format!("{CABO}peek 1 2.1\n"));
    assert_eq!((e.code, at.as_str()), ("not-own-slot", "6:1"));
    assert_eq!(
        e.message,
        "peek 1 2.1: Cabo: a player peeks only at their own face-down cards, and 2.1 is player 2's"
    );
}

#[test]
fn cabo_turns() {
    let (e, _) = fails(&format!("{CABO}place 1 1.1\n"));
    assert_eq!(e.code, "nothing-drawn");
    let (e, _) = fails(&format!("{CABO}draw 2\n"));
    assert_eq!(e.code, "out-of-turn");
    let (e, _) = fails(&format!("{CABO}draw 1\ndraw 1\n"));
    assert_eq!(e.code, "already-drawn");
    let (e, _) = fails(&format!("{CABO}draw 1 from open: 3\n"));
    assert_eq!(e.code, "not-the-top-card");
    let (e, _) = fails(&format!("{CABO}draw 1\nplace 1 2.2\n"));
    assert_eq!(e.code, "not-own-slot");
    let (e, _) = fails(&format!("{CABO}draw 1\ndiscard 1 3\n"));
    assert_eq!(e.code, "card-not-there");
}

#[test]
fn cabo_deals_one_card_per_slot() {
    let (e, _) = fails("game cabo\nplayers 1 2\ndeck 0..3*3\ndeal 1.1: 1 | open: 2\n");
    assert_eq!(e.code, "bad-deal");
    assert!(e.message.contains("slot 1.2 holds 0"), "{}", e.message);
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
