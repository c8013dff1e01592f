//! Moves that not everyone notices, as event models: a card moved while
//! some players look away (`move M basket -> box unseen-by Sally`) and a
//! message that may be lost (`send a -> b φ`, `send a -> b φ lost`).

use crate::cards::Table;
use crate::engine::{Agent, Event, EventModel, Formula, Kind, Loc, Post, Relation};

/// The card moves; the players in `unseen` believe that nothing happened,
/// the others see the move. Event 0 is the move, event 1 "nothing".
pub fn secret_move(table: &Table, kind: Kind, from: Loc, to: Loc, unseen: &[Agent]) -> EventModel {
    let events = vec![
        Event {
            name: format!(
                "move {} {} -> {}",
                table.deck.kinds[kind].name, table.locations[from].name, table.locations[to].name
            ),
            pre: Formula::holds(from, kind),
            post: vec![Post::Move {
                kind,
                from,
                to,
                n: 1,
            }],
        },
        Event {
            name: "nothing".into(),
            pre: Formula::Top,
            post: Vec::new(),
        },
    ];
    let relations = (0..table.players.len())
        .map(|a| {
            if unseen.contains(&a) {
                Relation::General(vec![vec![1], vec![1]])
            } else {
                Relation::Partition(vec![0, 1])
            }
        })
        .collect();
    EventModel {
        name: "secret move".into(),
        events,
        relations,
        designated: Vec::new(),
    }
}

/// A message saying `what` from `from` to `to`: delivered (event 0, only
/// where `what` holds) or lost (event 1, anywhere: the receiver then learns
/// nothing). The receiver tells the two apart; no one else can.
pub fn send(table: &Table, from: Agent, to: Agent, what: Formula) -> EventModel {
    let events = vec![
        Event {
            name: "delivered".into(),
            pre: what,
            post: Vec::new(),
        },
        Event {
            name: "lost".into(),
            pre: Formula::Top,
            post: Vec::new(),
        },
    ];
    let relations = (0..table.players.len())
        .map(|a| {
            Relation::Partition(if a == to && a != from {
                vec![0, 1]
            } else {
                vec![0, 0]
            })
        })
        .collect();
    EventModel {
        name: format!(
            "message from {} to {}",
            table.players[from], table.players[to]
        ),
        events,
        relations,
        designated: Vec::new(),
    }
}
