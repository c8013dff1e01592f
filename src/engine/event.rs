//! Event models: what can happen, who tells the events apart, and how each
//! event changes the facts.
//!
//! An event model `E = (Ev, R, pre, post)` has events, an accessibility
//! relation per agent, a precondition per event (a formula) and a
//! postcondition per event (a factual change). Product update `M ⊗ E` keeps the
//! pairs `(w, e)` with `M, w ⊨ pre(e)`, relates `(w, e) R_i (v, f)` iff
//! `w R_i v` and `e R_i f`, and applies `post(e)` to `w`.
//!
//! Every move of every game is expressed as a sequence of event models built
//! by the card rules; knowledge changes only through this product update.

use super::formula::{Agent, Formula, Kind, Loc, Prop};
use super::EngineError;

/// An event's identifier: its index in [`EventModel::events`].
pub type EventId = usize;

/// A factual change made by an event, applied to the world the event happens in.
#[derive(Clone, Debug)]
pub enum Post {
    /// Move `n` cards of kind `kind` from `from` to `to`. The precondition must
    /// guarantee that `from` holds at least `n` of them.
    Move {
        /// The kind of card moved.
        kind: Kind,
        /// Where the cards lie before the event.
        from: Loc,
        /// Where they lie after it.
        to: Loc,
        /// How many copies move.
        n: u32,
    },
    /// Move every card at `from` to `to`.
    MoveAll {
        /// Where the cards lie before the event.
        from: Loc,
        /// Where they lie after it.
        to: Loc,
    },
    /// `p := φ`: the proposition takes the value φ has in the world before the event.
    Set(Prop, Formula),
}

/// One event of an event model.
#[derive(Clone, Debug)]
pub struct Event {
    /// A short name for explanations (`"Q"`, `"passes 2"`, `"e1"`).
    pub name: String,
    /// The precondition: the event can happen exactly in the worlds where it holds.
    pub pre: Formula,
    /// The factual changes, applied in order.
    pub post: Vec<Post>,
}

/// An agent's accessibility relation, between events of an event model or
/// between worlds of an explicit model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Relation {
    /// An equivalence relation given by a class number per element (S5: the
    /// agent tells two elements apart exactly when their classes differ).
    Partition(Vec<usize>),
    /// Any relation: `succ[x]` lists the elements the agent considers possible at `x`.
    General(Vec<Vec<usize>>),
}

/// An event model.
#[derive(Clone, Debug)]
pub struct EventModel {
    /// A name for explanations (`"ask 1 2 Q"`).
    pub name: String,
    /// The events.
    pub events: Vec<Event>,
    /// One relation per agent, indexed by agent.
    pub relations: Vec<Relation>,
    /// The designated events that `[E]φ` quantifies over; empty means every event.
    pub designated: Vec<EventId>,
}

impl EventModel {
    /// A public event model: one event per entry, which every one of `agents`
    /// agents tells apart from every other.
    pub fn public(name: impl Into<String>, agents: usize, events: Vec<Event>) -> EventModel {
        let classes: Vec<usize> = (0..events.len()).collect();
        EventModel {
            name: name.into(),
            relations: vec![Relation::Partition(classes); agents],
            events,
            designated: Vec::new(),
        }
    }

    /// A truthful public announcement of `phi`: a single event with precondition `phi`.
    pub fn announcement(name: impl Into<String>, agents: usize, phi: Formula) -> EventModel {
        let event = Event {
            name: "announce".into(),
            pre: phi,
            post: Vec::new(),
        };
        EventModel::public(name, agents, vec![event])
    }

    /// A semi-private event model: the agents in `observers` tell every event
    /// apart, the others tell none apart (they see that one of the events happened).
    pub fn semi_private(
        name: impl Into<String>,
        agents: usize,
        observers: &[Agent],
        events: Vec<Event>,
    ) -> EventModel {
        let told_apart: Vec<usize> = (0..events.len()).collect();
        let relations = (0..agents)
            .map(|a| {
                if observers.contains(&a) {
                    Relation::Partition(told_apart.clone())
                } else {
                    Relation::Partition(vec![0; events.len()])
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

    /// The designated events: [`EventModel::designated`], or every event when it is empty.
    pub fn designated_events(&self) -> Vec<EventId> {
        if self.designated.is_empty() {
            (0..self.events.len()).collect()
        } else {
            self.designated.clone()
        }
    }
}

/// The event that happens, for every backend: `actual` if its precondition
/// holds (`possible[e]`: in the actual world), else the unique possible one.
pub(crate) fn choose(
    em: &EventModel,
    possible: &[bool],
    actual: Option<EventId>,
) -> Result<EventId, EngineError> {
    match actual {
        Some(e) if e >= em.events.len() => Err(EngineError::Malformed(format!(
            "event model `{}` has no event {e}",
            em.name
        ))),
        Some(e) if possible[e] => Ok(e),
        Some(e) => Err(EngineError::EventImpossible {
            model: em.name.clone(),
            event: em.events[e].name.clone(),
        }),
        None => {
            let mut it = (0..possible.len()).filter(|&e| possible[e]);
            match (it.next(), it.next()) {
                (Some(e), None) => Ok(e),
                (None, _) => Err(EngineError::NoEventPossible {
                    model: em.name.clone(),
                }),
                (Some(_), Some(_)) => Err(EngineError::AmbiguousEvent {
                    model: em.name.clone(),
                }),
            }
        }
    }
}
