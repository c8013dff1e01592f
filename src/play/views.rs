//! Knowledge views: the facts a player may want to look at, each an engine
//! formula the game's view part builds ([`crate::cards::GameView`], in the
//! game's own file; the facts about each card of each hand for a game
//! without one). [`holding`] keeps those the engine says are true. Nothing
//! is parsed and nothing is remembered between moves: the model is the
//! only memory.
//!
//! - `know`: what you know about the others (first order): what the game
//!   lists about each opponent's hand (Go Fish and Kemps: the ranks you
//!   know an opponent holds, collects or lacks; Kwartet: the cards whose
//!   place you know; Königrufen: the suits you know a player lacks), then
//!   the game's own facts (Königrufen's partner, the Cabo-like game's
//!   slots to depth 2).
//! - `known`: what the others know about you (second order): the same
//!   facts about your hand from each opponent's point of view, then the
//!   game's own facts about you.

use crate::cards::view::{About, CARDS};
pub use crate::cards::Fact;
use crate::cards::{Game, GameView, Position};
use crate::diag::{Diagnostic, Span};
use crate::engine::Agent as Player;

use super::game_loop::Match;

/// The view part of `game` (the card facts when it has none).
fn view_of(game: Game) -> &'static dyn GameView {
    game.view().unwrap_or(&CARDS)
}

/// The facts of the `know` view of player `me` (first order).
pub fn first_order(game: Game, pos: &Position, me: Player) -> Vec<Fact> {
    let view = view_of(game);
    let mut facts: Vec<Fact> = others(pos, me)
        .into_iter()
        .flat_map(|q| hand_of(view, pos, me, q, false))
        .collect();
    facts.extend(view.first_order(pos, me));
    facts
}

/// The facts of the `known` view of player `me` (second order).
pub fn second_order(game: Game, pos: &Position, me: Player) -> Vec<Fact> {
    let view = view_of(game);
    let mut facts = Vec::new();
    for q in others(pos, me) {
        facts.extend(hand_of(view, pos, me, q, true));
        facts.extend(view.second_order(pos, me, q));
    }
    facts
}

/// What `me` knows of player `q`'s hand, or (`second`) what `q` knows
/// of `me`'s.
fn hand_of(view: &dyn GameView, pos: &Position, me: Player, q: Player, second: bool) -> Vec<Fact> {
    let table = pos.table;
    let about = format!("player {}", table.players[q]);
    let (owner, knower, prefix) = if second {
        (me, q, "knows you ")
    } else {
        (q, me, "")
    };
    view.hand(
        table,
        About {
            owner,
            knower,
            about: &about,
            prefix,
        },
    )
}

/// The players other than `me`.
fn others(pos: &Position, me: Player) -> Vec<Player> {
    (0..pos.table.players.len()).filter(|&q| q != me).collect()
}

/// The facts the engine says are true now, each decided in the actual
/// world of the match's model.
pub fn holding(game: &Match, facts: Vec<Fact>) -> Result<Vec<Fact>, Diagnostic> {
    let model = &game.playing().model;
    let mut kept = Vec::new();
    for f in facts {
        let yes = model
            .eval_actual(&f.formula)
            .map_err(|e| crate::interp::errors::engine(&e, Span::new(0, 0)))?;
        if yes {
            kept.push(f);
        }
    }
    Ok(kept)
}

/// The facts as lines: one per heading and label (`player 2  holds: Q 7`),
/// with the formulas under them when `formulas` is set.
pub fn render(facts: &[Fact], formulas: bool) -> Vec<String> {
    let mut lines = Vec::new();
    let mut groups: Vec<(&str, &str, Vec<&Fact>)> = Vec::new();
    for f in facts {
        match groups
            .iter_mut()
            .find(|(a, l, _)| *a == f.about && *l == f.label)
        {
            Some((_, _, items)) => items.push(f),
            None => groups.push((&f.about, &f.label, vec![f])),
        }
    }
    let mut last_about = "";
    for (about, label, items) in groups {
        let head = if about == last_about { "" } else { about };
        last_about = about;
        let names: Vec<&str> = items.iter().map(|f| f.item.as_str()).collect();
        lines.push(format!("{head:<10} {label}: {}", names.join(" ")));
        if formulas {
            for f in items {
                lines.push(format!("{:<12}{}", "", f.text));
            }
        }
    }
    if lines.is_empty() {
        lines.push("nothing yet".into());
    }
    lines
}
