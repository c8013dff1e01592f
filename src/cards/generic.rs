//! The generic moves (LANGUAGE.md §3): announcements, transfers, draws,
//! shows, reveals, peeks and declared event models, checked against the
//! actual world and applied by product update. Every game falls back on
//! these for the moves it does not treat itself; `game free` has only these.

use std::rc::Rc;

use crate::engine::{Backend, EngineError, EventId, EventModel, Kind, Loc};

use super::events;
use super::rules::{
    actual_cards, describe_location, foreign, holds, not_in_game, GameState, Move, Refusal,
};
use super::table::Table;

/// A generic move's event model and the event that actually happens
/// (`None`: the one whose precondition holds).
fn generic_events(
    table: &Table,
    mv: &Move,
    label: &str,
) -> Result<(EventModel, Option<EventId>), Refusal> {
    Ok(match mv {
        Move::Announce(phi) => (events::announce(table, phi.clone(), label), None),
        Move::Transfer { kind, from, to } => {
            (events::transfer(table, *kind, *from, *to, label), None)
        }
        Move::Draw { player, kind, from } => (events::draw(table, *player, *from, label), *kind),
        Move::Show { from, to, kind } => (events::show(table, *from, *to, label), Some(*kind)),
        Move::Reveal { player, kind } => (events::reveal(table, *player, *kind, label), None),
        Move::Peek { player, slot } => (events::peek(table, *player, *slot, label), None),
        Move::Apply(em, actual) => (em.clone(), Some(*actual)),
        Move::Ask { .. } => return Err(not_in_game("ask", "Go Fish")),
        Move::Game(g) => return Err(foreign(g.as_ref())),
    })
}

/// Checks a generic move against the actual world and picks the card drawn.
fn precheck(
    table: &Table,
    model: &dyn Backend,
    state: &mut GameState,
    mv: &Move,
) -> Result<Option<EventId>, Refusal> {
    match mv {
        // A false announcement is refused by `generic` when the update
        // finds no event possible: the formula is evaluated once.
        Move::Announce(_) => Ok(None),
        Move::Transfer { kind, from, .. } => holds(table, model, *from, *kind).map(|_| None),
        Move::Show { from, kind, .. } => {
            holds(table, model, table.hand(*from), *kind).map(|_| Some(*kind))
        }
        // A reveal is an announcement: its one event is the actual one.
        Move::Reveal { player, kind } => {
            holds(table, model, table.hand(*player), *kind).map(|_| None)
        }
        Move::Draw { kind, from, .. } if *from == table.stock() => {
            draw_card(table, model, state, *kind).map(Some)
        }
        Move::Draw { kind, from, .. } => match kind {
            Some(k) => holds(table, model, *from, *k).map(|_| Some(*k)),
            None => Err(Refusal::new(
                "card-needed",
                format!(
                    "say which card is drawn from {}",
                    describe_location(table, *from)
                ),
            )
            .help("only the stock's order is known to dealer: write `draw P from PILE: C`")),
        },
        Move::Peek { slot, .. } => {
            let cards = actual_cards(model, *slot);
            Ok(Some(
                cards.iter().position(|&n| n > 0).unwrap_or(cards.len()),
            ))
        }
        Move::Apply(..) | Move::Ask { .. } | Move::Game(_) => Ok(None),
    }
}

/// The card a draw takes from the stock: the named one, or the top of the
/// stock's actual order. Keeps the order in step.
fn draw_card(
    table: &Table,
    model: &dyn Backend,
    state: &mut GameState,
    kind: Option<Kind>,
) -> Result<Kind, Refusal> {
    let stock = table.real_cards(model, table.stock());
    if stock.iter().all(|&n| n == 0) {
        return Err(Refusal::new(
            "empty-stock",
            "the stock is empty: there is nothing to draw",
        ));
    }
    let top = state.stock_order.first().copied();
    let kind = match (kind, top) {
        (Some(k), Some(t)) if state.fixed > 0 && k != t => {
            return Err(Refusal::new(
                "not-the-top-card",
                format!(
                    "the top card of the stock is {}, not {}",
                    table.deck.kinds[t].name, table.deck.kinds[k].name
                ),
            )
            .help("the `stock` statement fixed the order; write `draw` without a card"))
        }
        (Some(k), _) => k,
        (None, Some(t)) => t,
        (None, None) => return Err(Refusal::new("empty-stock", "the stock is empty")),
    };
    if stock[kind] == 0 {
        return Err(Refusal::new(
            "card-not-there",
            format!("the stock holds no {}", table.deck.kinds[kind].name),
        ));
    }
    take_from_order(state, kind);
    Ok(kind)
}

/// Plays a generic move: checks it, applies its event model.
pub fn generic(
    table: &Table,
    model: &Rc<dyn Backend>,
    state: &GameState,
    mv: &Move,
    label: &str,
) -> Result<(Rc<dyn Backend>, GameState), Refusal> {
    let mut state = state.clone();
    let chosen = precheck(table, model.as_ref(), &mut state, mv)?;
    let (em, given) = generic_events(table, mv, label)?;
    let model = match model.apply(&em, given.or(chosen)) {
        Err(EngineError::NoEventPossible { .. } | EngineError::EventImpossible { .. })
            if matches!(mv, Move::Announce(_)) =>
        {
            return Err(Refusal::new(
                "false-announcement",
                "the announced formula is false in the actual world",
            )
            .help("only true formulas can be announced truthfully; check it with `?` first"))
        }
        applied => applied?,
    };
    if let Move::Transfer { kind, from, to } = mv {
        track_stock(table, &mut state, *kind, *from, *to);
    }
    Ok((model, state))
}

/// Keeps the stock's actual order in step with a transfer into or out of it.
fn track_stock(table: &Table, state: &mut GameState, kind: Kind, from: Loc, to: Loc) {
    if from == table.stock() {
        take_from_order(state, kind);
    }
    if to == table.stock() {
        state.stock_order.push(kind);
    }
}

/// Removes one card of `kind` from the stock's actual order.
fn take_from_order(state: &mut GameState, kind: Kind) {
    if let Some(i) = state.stock_order.iter().position(|&k| k == kind) {
        state.stock_order.remove(i);
        if i < state.fixed {
            state.fixed -= 1;
        }
    }
}

/// The event models of a generic move, for `[move]φ`.
pub fn generic_event_models(table: &Table, mv: &Move, label: &str) -> Result<EventModel, Refusal> {
    generic_events(table, mv, label).map(|(em, _)| em)
}

/// `game free`: the generic moves, no turns and no further rule.
#[derive(Debug)]
pub struct Free;

impl super::game::GameRules for Free {
    fn name(&self) -> &'static str {
        "free"
    }

    fn title(&self) -> &'static str {
        "the free game"
    }

    fn has_turns(&self) -> bool {
        false
    }
}
