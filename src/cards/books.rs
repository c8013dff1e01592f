//! Laying down complete books (Go Fish) and sets (Kwartet) after a move.
//!
//! The rules check each rank in public: "player p holds every card of rank
//! r" lays them down, "no book" tells everyone p lacks one. Thirteen such
//! checks in a row are one public event model whose events are the
//! thirteen answers together. When the actual hand completes at most one
//! rank, only two kinds of answer tuple can be the actual one — no book at
//! all, or exactly rank r — so one event model with an event for each of
//! those (and one for "two or more", which then does not happen) gives the
//! same model as the thirteen checks: after a public event model only the
//! states of the actual event remain, and its precondition and
//! postcondition are the tuple's. When the actual hand completes two or
//! more ranks, the checks run one by one.
//!
//! One model instead of thirteen matters for large symbolic models, where
//! each update costs a pass over the whole state law.

use std::rc::Rc;

use crate::engine::{Agent, Backend, Event, EventModel, Formula, Kind, Loc};

use super::events::{holds_all, lay_down, move_every_copy};
use super::rules::{actual_cards, Refusal};
use super::table::Table;

/// Lays down what `player` completes among `ranks` (each a rank's kinds)
/// into `books`. Returns the new model and the indices (into `ranks`) of
/// the ranks laid down.
pub fn lay_down_complete(
    table: &Table,
    model: &Rc<dyn Backend>,
    player: Agent,
    ranks: &[Vec<Kind>],
    books: Loc,
    name: &str,
) -> Result<(Rc<dyn Backend>, Vec<usize>), Refusal> {
    let before = actual_cards(model.as_ref(), books);
    let fold = ranks.len() > 1
        && !model.eval_actual(&at_least_two(&completes(table, table.hand(player), ranks)))?;
    let model = if fold {
        model.apply(&at_most_one(table, player, ranks, books, name), None)?
    } else {
        let mut model = model.clone();
        for rank in ranks {
            model = model.apply(&lay_down(table, player, rank, books, name), None)?;
        }
        model
    };
    let after = actual_cards(model.as_ref(), books);
    let laid = (0..ranks.len())
        .filter(|&r| ranks[r].iter().any(|&k| after[k] != before[k]))
        .collect();
    Ok((model, laid))
}

/// The checks of every rank in `ranks` as one public event model, for a
/// hand that completes at most one of them: "no book", "lays down r" for
/// each rank r (the hand completes r and no other), and "two or more".
pub fn at_most_one(
    table: &Table,
    player: Agent,
    ranks: &[Vec<Kind>],
    books: Loc,
    name: &str,
) -> EventModel {
    let hand = table.hand(player);
    let complete = completes(table, hand, ranks);
    let only = |r: usize| -> Formula {
        Formula::And(
            (0..ranks.len())
                .map(|s| {
                    if s == r {
                        complete[s].clone()
                    } else {
                        complete[s].clone().not()
                    }
                })
                .collect(),
        )
    };
    let mut events = vec![Event {
        name: "no book".into(),
        pre: Formula::And(complete.iter().map(|c| c.clone().not()).collect()),
        post: Vec::new(),
    }];
    for (r, kinds) in ranks.iter().enumerate() {
        events.push(Event {
            name: format!("lays down {}", table.deck.kinds[kinds[0]].rank_name()),
            pre: only(r),
            post: move_every_copy(table, kinds, hand, books),
        });
    }
    events.push(Event {
        name: "two or more".into(),
        pre: at_least_two(&complete),
        post: Vec::new(),
    });
    EventModel::public(name, table.players.len(), events)
}

/// For each rank, "`hand` holds every card of it".
fn completes(table: &Table, hand: Loc, ranks: &[Vec<Kind>]) -> Vec<Formula> {
    ranks.iter().map(|r| holds_all(table, hand, r)).collect()
}

/// At least two of the `complete` formulas hold.
fn at_least_two(complete: &[Formula]) -> Formula {
    let mut pairs = Vec::new();
    for r in 0..complete.len() {
        for s in r + 1..complete.len() {
            pairs.push(Formula::And(vec![complete[r].clone(), complete[s].clone()]));
        }
    }
    Formula::Or(pairs)
}
