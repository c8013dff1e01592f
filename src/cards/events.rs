//! The event models of the generic moves (LANGUAGE.md §3). Every move is an
//! event model; who tells its events apart decides what everyone learns.
//!
//! | move | events | told apart by |
//! |---|---|---|
//! | `announce φ` | one, pre φ | everyone |
//! | `move C a -> b` | one, pre a holds C, post C: a → b | everyone |
//! | `draw p` | one per kind k, pre stock holds k, post k: stock → p | p |
//! | `show p -> q C` | one per kind k, pre p holds k | p and q |
//! | `reveal p C` | one, pre p holds C | everyone |
//! | `peek p s` | one per kind k (and one for an empty slot), pre s holds k | p |
//! | books of p, rank r | two: p holds all of r (post: to p's books) / not | everyone |

use crate::engine::{Agent, Cmp, Event, EventModel, Formula, Kind, Loc, Post, Relation};

use super::table::Table;

/// `announce φ`: a truthful public announcement.
pub fn announce(table: &Table, phi: Formula, name: &str) -> EventModel {
    EventModel::announcement(name, table.players.len(), phi)
}

/// `move C from -> to`: a public transfer of a known card.
pub fn transfer(table: &Table, kind: Kind, from: Loc, to: Loc, name: &str) -> EventModel {
    let event = Event {
        name: table.deck.kinds[kind].name.clone(),
        pre: Formula::holds(from, kind),
        post: vec![Post::Move {
            kind,
            from,
            to,
            n: 1,
        }],
    };
    EventModel::public(name, table.players.len(), vec![event])
}

/// One event per kind of the deck, in kind order, so that event `k` is kind `k`.
fn per_kind(
    table: &Table,
    pre: impl Fn(Kind) -> Formula,
    post: impl Fn(Kind) -> Vec<Post>,
) -> Vec<Event> {
    (0..table.deck.kinds.len())
        .map(|k| Event {
            name: table.deck.kinds[k].name.clone(),
            pre: pre(k),
            post: post(k),
        })
        .collect()
}

/// `draw p`: `p` takes one card from `from` (the stock); only `p`, and those
/// who see the pile it is drawn from, see which. Event `k` is drawing a card
/// of kind `k`.
pub fn draw(table: &Table, player: Agent, from: Loc, name: &str) -> EventModel {
    let to = table.hand(player);
    let events = per_kind(
        table,
        |k| Formula::holds(from, k),
        |kind| {
            vec![Post::Move {
                kind,
                from,
                to,
                n: 1,
            }]
        },
    );
    let mut observers = table.locations[from].seen_by.clone();
    observers.push(player);
    EventModel::semi_private(name, table.players.len(), &observers, events)
}

/// `show p -> q C`: `p` shows a card to `q`; the others see that a card was
/// shown. Event `k` is showing a card of kind `k`.
pub fn show(table: &Table, from: Agent, to: Agent, name: &str) -> EventModel {
    let hand = table.hand(from);
    let events = per_kind(table, |k| Formula::holds(hand, k), |_| Vec::new());
    EventModel::semi_private(name, table.players.len(), &[from, to], events)
}

/// `reveal p C`: `p` shows `C` to everyone.
pub fn reveal(table: &Table, player: Agent, kind: Kind, name: &str) -> EventModel {
    let phi = Formula::holds(table.hand(player), kind);
    EventModel::announcement(name, table.players.len(), phi)
}

/// `peek p s`: `p` looks at slot `s`. Event `k` is seeing kind `k`; the last
/// event is seeing an empty slot.
pub fn peek(table: &Table, player: Agent, slot: Loc, name: &str) -> EventModel {
    let mut events = per_kind(table, |k| Formula::holds(slot, k), |_| Vec::new());
    events.push(Event {
        name: "empty".into(),
        pre: Formula::count(slot, all_kinds(table), Cmp::Eq, 0),
        post: Vec::new(),
    });
    EventModel::semi_private(name, table.players.len(), &[player], events)
}

/// `glimpse p s`: psychic `p` secretly looks at slot `s`. Event `k` is
/// seeing kind `k` (p tells them apart); the last event, `skip`, is
/// nothing happening, and every other player relates every event to it:
/// they believe nothing happened, so afterwards they can believe that p
/// does not know the card while p does (the report's psychic agent).
pub fn glimpse(table: &Table, player: Agent, slot: Loc, name: &str) -> EventModel {
    let mut events = per_kind(table, |k| Formula::holds(slot, k), |_| Vec::new());
    events.push(Event {
        name: "skip".into(),
        pre: Formula::Top,
        post: Vec::new(),
    });
    let n = events.len();
    let relations = (0..table.players.len())
        .map(|a| {
            if a == player {
                Relation::Partition((0..n).collect())
            } else {
                Relation::General(vec![vec![n - 1]; n])
            }
        })
        .collect();
    EventModel {
        name: name.into(),
        events,
        relations,
        designated: Vec::new(),
    }
}

/// Every kind of the deck.
pub fn all_kinds(table: &Table) -> Vec<Kind> {
    (0..table.deck.kinds.len()).collect()
}

/// `p` holds every copy of every kind in `kinds`.
pub fn holds_all(table: &Table, loc: Loc, kinds: &[Kind]) -> Formula {
    Formula::And(
        kinds
            .iter()
            .map(|&k| Formula::count(loc, vec![k], Cmp::Eq, table.deck.kinds[k].copies))
            .collect(),
    )
}

/// Every copy of every kind in `kinds` moves from `from` to `to` (a book or
/// set laid down).
pub fn move_every_copy(table: &Table, kinds: &[Kind], from: Loc, to: Loc) -> Vec<Post> {
    kinds
        .iter()
        .map(|&kind| Post::Move {
            kind,
            from,
            to,
            n: table.deck.kinds[kind].copies,
        })
        .collect()
}

/// Laying down a book: public; event 0 moves every card of `kinds` from
/// `player`'s hand to `books` when the hand holds them all, event 1 is "no
/// complete book of this rank".
pub fn lay_down(
    table: &Table,
    player: Agent,
    kinds: &[Kind],
    books: Loc,
    name: &str,
) -> EventModel {
    let hand = table.hand(player);
    let complete = holds_all(table, hand, kinds);
    let post = move_every_copy(table, kinds, hand, books);
    let events = vec![
        Event {
            name: "lays down".into(),
            pre: complete.clone(),
            post,
        },
        Event {
            name: "no book".into(),
            pre: complete.not(),
            post: Vec::new(),
        },
    ];
    EventModel::public(name, table.players.len(), events)
}
