//! Kwartet (`game kwartet`), after the Kwartet report.
//!
//! - The deck is made of sets (`deck sets 6..8 of 4`: cards `<t,v>`); every
//!   card is dealt, there is no stock.
//! - `ask p q <t,v>`: it must be p's turn, q ≠ p, and p must hold a card of
//!   set t. p may ask for a card it holds itself or knows is elsewhere (the
//!   report allows both). The ask is a public event model with two events,
//!   both with the precondition "p holds some `<t,*>`", which therefore
//!   becomes common knowledge: *gives* (q holds `<t,v>`; it moves to p) and
//!   *does not have* (q holds no `<t,v>`). A successful ask keeps the turn;
//!   a failed one passes it clockwise to the next player with cards.
//! - A completed set is laid down in public (to `books1`, `books2`, ...) by
//!   the two-event model of [`events::lay_down`], after the deal and after
//!   every successful ask.

use std::rc::Rc;

use crate::engine::{Agent, Backend, Cmp, Event, EventModel, Formula, Kind, Post};

use super::books;
use super::deal::Deal;
use super::deck::Deck;
use super::events;
use super::game::{GameRules, Referee};
use super::generic::{generic, generic_event_models};
use super::referee::{books_laid, dealt, others_holding, Position, Size};
use super::rules::{
    actual_cards, check_asks_another, check_turn, describe_player, foreign, hand_size, GameState,
    Move, Outcome, Refusal,
};
use super::table::Table;

/// The rules' first step: every card must be dealt; complete sets go down.
pub fn start(table: &Table, out: Outcome) -> Result<Outcome, Refusal> {
    let stock: u32 = actual_cards(out.model.as_ref(), table.stock()).iter().sum();
    if stock > 0 {
        return Err(Refusal::new(
            "kwartet-stock",
            format!("Kwartet: every card is dealt, but the deal leaves {stock} in the stock"),
        )
        .help("deal the whole deck to the players"));
    }
    let everyone: Vec<Agent> = (0..table.players.len()).collect();
    let mut out = lay_down_sets(table, out, &everyone, None)?;
    let turn = out.state.turn;
    skip_empty_hands(table, &mut out, turn);
    Ok(out)
}

/// Plays a move by the rules of Kwartet.
pub fn play(
    table: &Table,
    model: &Rc<dyn Backend>,
    state: &GameState,
    mv: &Move,
    label: &str,
) -> Result<Outcome, Refusal> {
    match mv {
        Move::Ask {
            asker,
            asked,
            kinds,
        } => ask(table, model, state, (*asker, *asked), kinds, label),
        Move::Draw { .. } => Err(Refusal::new(
            "kwartet-no-draw",
            "Kwartet: there is no stock to draw from; every card is dealt",
        )),
        Move::Game(g) => Err(foreign(g.as_ref())),
        _ => {
            let (model, state) = generic(table, model, state, mv, label)?;
            let everyone: Vec<Agent> = (0..table.players.len()).collect();
            let out = Outcome {
                model,
                state,
                notes: Vec::new(),
            };
            lay_down_sets(table, out, &everyone, None)
        }
    }
}

/// The kinds of the set (rank) `kind` belongs to.
pub fn set_of(table: &Table, kind: Kind) -> Vec<Kind> {
    let rank = &table.deck.kinds[kind].rank;
    (0..table.deck.kinds.len())
        .filter(|&k| table.deck.kinds[k].rank == *rank)
        .collect()
}

fn set_name(table: &Table, kind: Kind) -> String {
    let k = &table.deck.kinds[kind];
    match (k.set, &k.rank) {
        (Some((t, _)), _) => format!("<{t},*>"),
        (None, Some(r)) => format!("{r}*"),
        (None, None) => k.name.clone(),
    }
}

/// Checks an ask against the rules and the actual world; returns the card.
fn check_ask(
    table: &Table,
    model: &dyn Backend,
    state: &GameState,
    (asker, asked): (Agent, Agent),
    kinds: &[Kind],
) -> Result<Kind, Refusal> {
    let [kind] = kinds else {
        return Err(Refusal::new(
            "kwartet-one-card",
            "Kwartet: a player asks for one card, not a pattern",
        )
        .help("name the card, such as <8,4>"));
    };
    if (0..table.players.len()).all(|p| hand_size(table, model, p) == 0) {
        return Err(Refusal::new(
            "game-over",
            "Kwartet: the game is over, every set is down",
        ));
    }
    check_turn("Kwartet", table, state, asker)?;
    check_asks_another("Kwartet", asker, asked)?;
    let hand = actual_cards(model, table.hand(asker));
    if set_of(table, *kind).iter().all(|&k| hand[k] == 0) {
        return Err(Refusal::new(
            "set-not-held",
            format!(
                "Kwartet: a player asks only for a card of a set they hold; {} holds no {}",
                describe_player(table, asker),
                set_name(table, *kind)
            ),
        ));
    }
    Ok(*kind)
}

/// `ask p q <t,v>`.
fn ask(
    table: &Table,
    model: &Rc<dyn Backend>,
    state: &GameState,
    players: (Agent, Agent),
    kinds: &[Kind],
    label: &str,
) -> Result<Outcome, Refusal> {
    let kind = check_ask(table, model.as_ref(), state, players, kinds)?;
    let (asker, asked) = players;
    let given = actual_cards(model.as_ref(), table.hand(asked))[kind] > 0;
    let model = model.apply(&ask_events(table, asker, asked, kind, label), None)?;
    let mut out = Outcome {
        model,
        state: state.clone(),
        notes: Vec::new(),
    };
    if !given {
        out.notes.push(format!(
            "{} does not have {}",
            describe_player(table, asked),
            table.deck.kinds[kind].name
        ));
        out.state.turn = table.next_player(asker);
        skip_empty_hands(table, &mut out, asker);
        return Ok(out);
    }
    let mut out = lay_down_sets(table, out, &[asker], Some(kind))?;
    skip_empty_hands(table, &mut out, asker);
    Ok(out)
}

/// The ask's event model: public; event 0 "gives" (q holds the card, which
/// moves to p), event 1 "does not have"; both require p to hold a card of the set.
pub fn ask_events(
    table: &Table,
    asker: Agent,
    asked: Agent,
    kind: Kind,
    label: &str,
) -> EventModel {
    let (from, to) = (table.hand(asked), table.hand(asker));
    let holds_set = Formula::count(to, set_of(table, kind), Cmp::Ge, 1);
    let gives = Event {
        name: "gives".into(),
        pre: Formula::And(vec![holds_set.clone(), Formula::holds(from, kind)]),
        post: vec![Post::Move {
            kind,
            from,
            to,
            n: 1,
        }],
    };
    let not_there = Event {
        name: "does not have".into(),
        pre: Formula::And(vec![
            holds_set,
            Formula::count(from, vec![kind], Cmp::Eq, 0),
        ]),
        post: Vec::new(),
    };
    EventModel::public(label, table.players.len(), vec![gives, not_there])
}

/// The event models of a move in `[move]φ`: the ask, then the set it may complete.
pub fn event_models(table: &Table, mv: &Move, label: &str) -> Result<Vec<EventModel>, Refusal> {
    match mv {
        Move::Ask {
            asker,
            asked,
            kinds,
        } => {
            let [kind] = kinds.as_slice() else {
                return Err(Refusal::new(
                    "kwartet-one-card",
                    "Kwartet: a player asks for one card, not a pattern",
                ));
            };
            let mut models = vec![ask_events(table, *asker, *asked, *kind, label)];
            if let Some(books) = table.books(*asker) {
                let set = set_of(table, *kind);
                models.push(events::lay_down(table, *asker, &set, books, "sets"));
            }
            Ok(models)
        }
        Move::Game(g) => Err(foreign(g.as_ref())),
        _ => Ok(vec![generic_event_models(table, mv, label)?]),
    }
}

/// Lays down the complete sets of `players` (only the set of `card`, when given).
fn lay_down_sets(
    table: &Table,
    mut out: Outcome,
    players: &[Agent],
    card: Option<Kind>,
) -> Result<Outcome, Refusal> {
    let sets: Vec<Vec<Kind>> = match card {
        Some(k) => vec![set_of(table, k)],
        None => table.deck.ranks().into_iter().map(|(_, k)| k).collect(),
    };
    for &p in players {
        let Some(books) = table.books(p) else {
            continue;
        };
        let (model, laid) = books::lay_down_complete(table, &out.model, p, &sets, books, "sets")?;
        out.model = model;
        for s in laid {
            out.notes.push(format!(
                "{} lays down the set {}",
                describe_player(table, p),
                set_name(table, sets[s][0])
            ));
        }
    }
    Ok(out)
}

/// A player without cards cannot ask: the turn moves on to one who has
/// some. Notes the new turn when it is no longer `before`'s.
fn skip_empty_hands(table: &Table, out: &mut Outcome, before: Agent) {
    for _ in 0..table.players.len() {
        if hand_size(table, out.model.as_ref(), out.state.turn) > 0 {
            break;
        }
        out.state.turn = table.next_player(out.state.turn);
    }
    if out.state.turn != before {
        out.notes
            .push(format!("{}'s turn", describe_player(table, out.state.turn)));
    }
}

/// Kwartet (`game kwartet`).
///
/// The referee of Kwartet (report 003): four players and 13 sets of four,
/// the whole deck dealt; for teaching, three players and three sets. The
/// game ends when every set is down; a player's score is the number of sets
/// laid down.
#[derive(Debug)]
pub struct Kwartet;

impl GameRules for Kwartet {
    fn referee(&self) -> Option<&dyn Referee> {
        Some(self)
    }

    fn name(&self) -> &'static str {
        "kwartet"
    }

    fn title(&self) -> &'static str {
        "Kwartet"
    }

    fn add_locations(&self, table: &mut Table) {
        table.add_books();
    }

    fn start(&self, table: &Table, out: Outcome) -> Result<Outcome, Refusal> {
        start(table, out)
    }

    fn play(&self, pos: &Position, mv: &Move, label: &str) -> Result<Outcome, Refusal> {
        play(pos.table, pos.model, pos.state, mv, label)
    }

    fn event_models(
        &self,
        table: &Table,
        _state: &GameState,
        mv: &Move,
        label: &str,
    ) -> Result<Vec<EventModel>, Refusal> {
        event_models(table, mv, label)
    }
}

impl Referee for Kwartet {
    // The referee.
    fn deal(&self, seed: u64, size: Size) -> Deal {
        match size {
            Size::Full => dealt(
                "kwartet",
                &["1", "2", "3", "4"],
                Deck::sets(1..=13, 4),
                13,
                seed,
            ),
            Size::Teaching => dealt("kwartet", &["1", "2", "3"], Deck::sets(1..=3, 4), 4, seed),
        }
    }

    fn is_terminal(&self, pos: &Position) -> bool {
        (0..pos.table.players.len()).all(|p| hand_size(pos.table, &**pos.model, p) == 0)
    }

    /// The turn player asks a player who holds cards for a card of a set it
    /// holds: first the cards it lacks, then the cards of its own hand.
    /// Asking for one's own card is allowed by the report's rules ("it could
    /// even be asking for a card that you have yourself"): it always fails
    /// and ends the turn, and the report's silent strategy does it on
    /// purpose, to hide which cards it is after; the report's random
    /// requests include such asks too.
    fn legal_moves(&self, pos: &Position) -> Vec<Move> {
        let table = pos.table;
        if self.is_terminal(pos) {
            return Vec::new();
        }
        let asker = pos.state.turn;
        let hand = pos.cards(table.hand(asker));
        let asked = others_holding(pos, asker);
        let mut moves = Vec::new();
        for (_, set) in table.deck.ranks() {
            if set.iter().all(|&k| hand[k] == 0) {
                continue;
            }
            let lacking = set.iter().filter(|&&k| hand[k] == 0);
            let own = set.iter().filter(|&&k| hand[k] > 0);
            for &k in lacking.chain(own) {
                for &q in &asked {
                    moves.push(Move::Ask {
                        asker,
                        asked: q,
                        kinds: vec![k],
                    });
                }
            }
        }
        moves
    }

    fn scores(&self, pos: &Position) -> Vec<i64> {
        (0..pos.table.players.len())
            .map(|p| books_laid(pos, p))
            .collect()
    }
}
