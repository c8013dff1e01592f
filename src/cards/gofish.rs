//! Go Fish (`game gofish`), after the Go Fish report §1.1.
//!
//! - `ask p q R`: it must be p's turn, p must hold a card of rank R (the ask's
//!   precondition, so it becomes common knowledge), and q ≠ p. The ask is a
//!   public event model with one event per possible answer: q hands over all
//!   its cards of rank R, and everyone sees which ones (or none: "Go Fish!").
//! - After "Go Fish!" the asker must `draw` and the turn passes clockwise; a
//!   successful ask keeps the turn.
//! - A player whose hand is empty while the stock is not must `draw`; with
//!   the stock empty, a player without cards sits out: their turn is
//!   skipped and nobody may ask them (report 002 §1.1: a player asks
//!   another for a rank, and a player with no cards draws at once).
//! - A book (every card of a rank) is laid down in public after any move that
//!   completes one; after a move that could have completed one, "no book" is
//!   public too, so a draw that completes nothing tells everyone something.
//! - While a draw is due, only that draw (and announcements) may happen.

use std::rc::Rc;

use crate::diag::Diagnostic;
use crate::engine::{Agent, Backend, Cmp, Event, EventModel, Formula, Kind, Post};
use crate::syntax::ast::Name;

use super::books;
use super::deal::Deal;
use super::deck::{normalise, Deck};
use super::events;
use super::game::{GameRules, Referee};
use super::generic::{generic, generic_event_models};
use super::referee::{books_laid, dealt, Position, Size};
use super::rules::{
    actual_cards, check_asks_another, check_turn, describe_player, hand_size, GameState, Move,
    Outcome, Refusal,
};
use super::table::Table;
use super::view::{ranks_held, About, Fact, GameView};

/// Plays a move by the rules of Go Fish.
pub fn play(
    table: &Table,
    model: &Rc<dyn Backend>,
    state: &GameState,
    mv: &Move,
    label: &str,
) -> Result<Outcome, Refusal> {
    match mv {
        Move::Announce(_) => {
            let (model, state) = generic(table, model, state, mv, label)?;
            Ok(Outcome {
                model,
                state,
                notes: Vec::new(),
            })
        }
        Move::Draw { player, .. } => {
            check_draw_due(table, model.as_ref(), state, *player)?;
            let mut state = state.clone();
            draws(&mut state).pending.retain(|p| p != player);
            let (model, state) = generic(table, model, &state, mv, label)?;
            settle(
                table,
                Outcome {
                    model,
                    state,
                    notes: Vec::new(),
                },
                &[*player],
                None,
            )
        }
        Move::Ask {
            asker,
            asked,
            kinds,
        } => ask(table, model, state, *asker, *asked, kinds, label),
        _ => {
            no_draw_pending(table, state)?;
            let (model, state) = generic(table, model, state, mv, label)?;
            let everyone: Vec<Agent> = (0..table.players.len()).collect();
            settle(
                table,
                Outcome {
                    model,
                    state,
                    notes: Vec::new(),
                },
                &everyone,
                None,
            )
        }
    }
}

/// Go Fish's own state: the players who must draw before anything else
/// happens, in order, and whether the turn passes once they have ("Go
/// Fish!").
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Draws {
    /// Who must draw, in order.
    pub pending: Vec<Agent>,
    /// Whether the turn passes once the pending draws are done.
    pub pass_after: bool,
}

/// The players who must draw, in order.
pub fn pending(state: &GameState) -> &[Agent] {
    state.extra.get::<Draws>().map_or(&[], |d| &d.pending)
}

/// Go Fish's own state, to change.
fn draws(state: &mut GameState) -> &mut Draws {
    state.extra.get_or_default::<Draws>()
}

fn no_draw_pending(table: &Table, state: &GameState) -> Result<(), Refusal> {
    match pending(state).first() {
        Some(&p) => Err(Refusal::new(
            "draw-pending",
            format!("Go Fish: {} must draw first", describe_player(table, p)),
        )
        .help(format!("write `draw {}`", table.players[p]))),
        None => Ok(()),
    }
}

fn check_draw_due(
    table: &Table,
    model: &dyn Backend,
    state: &GameState,
    player: Agent,
) -> Result<(), Refusal> {
    if pending(state).contains(&player) {
        return Ok(());
    }
    if crate::cards::rules::actual_cards(model, table.stock())
        .iter()
        .all(|&n| n == 0)
    {
        return Err(Refusal::new(
            "empty-stock",
            "Go Fish: the stock is empty, so there is nothing to draw: \
             after \u{201c}Go Fish!\u{201d} the turn passes without a draw",
        )
        .help("go on with the next player's ask"));
    }
    let rule =
        "Go Fish: a player draws only after \u{201c}Go Fish!\u{201d} or when their hand is empty";
    match pending(state).first() {
        Some(&p) => Err(Refusal::new(
            "draw-not-allowed",
            format!("{rule}; now {} must draw", describe_player(table, p)),
        )),
        None => Err(Refusal::new(
            "draw-not-allowed",
            format!("{rule}; no draw is due now"),
        )),
    }
}

/// Checks an ask against the rules and the actual world.
fn check_ask(
    table: &Table,
    model: &dyn Backend,
    state: &GameState,
    asker: Agent,
    asked: Agent,
    kinds: &[Kind],
) -> Result<(), Refusal> {
    no_draw_pending(table, state)?;
    if game_over(table, model) {
        return Err(Refusal::new(
            "game-over",
            "Go Fish: the game is over, every book is down",
        ));
    }
    check_turn("Go Fish", table, state, asker)?;
    check_asks_another("Go Fish", asker, asked)?;
    if hand_size(table, model, asked) == 0 {
        return Err(Refusal::new(
            "asked-empty-hand",
            format!(
                "{} holds no cards, so cannot be asked",
                describe_player(table, asked)
            ),
        )
        .help(
            "Go Fish: a player with no cards draws from the stock at once; \
             when the stock is empty they sit out, and only players who hold cards are asked",
        ));
    }
    let hand = actual_cards(model, table.hand(asker));
    if kinds.iter().all(|&k| hand[k] == 0) {
        let rank = rank_name(table, kinds);
        return Err(Refusal::new(
            "rank-not-held",
            format!(
                "{} holds no {rank}, so may not ask for it",
                describe_player(table, asker)
            ),
        )
        .help("Go Fish: a player asks only for a rank they hold"));
    }
    Ok(())
}

fn rank_name(table: &Table, kinds: &[Kind]) -> String {
    table.deck.kinds[kinds[0]].rank_name()
}

/// `ask p q R`.
fn ask(
    table: &Table,
    model: &Rc<dyn Backend>,
    state: &GameState,
    asker: Agent,
    asked: Agent,
    kinds: &[Kind],
    label: &str,
) -> Result<Outcome, Refusal> {
    check_ask(table, model.as_ref(), state, asker, asked, kinds)?;
    let passed: u32 = kinds
        .iter()
        .map(|&k| actual_cards(model.as_ref(), table.hand(asked))[k])
        .sum();
    let em = ask_events(table, asker, asked, kinds, label);
    let model = model.apply(&em, None)?;
    let mut state = state.clone();
    let mut notes = Vec::new();
    if passed == 0 {
        notes.push(format!(
            "{} says \u{201c}Go Fish!\u{201d}",
            describe_player(table, asked)
        ));
        draws(&mut state).pass_after = true;
        if actual_cards(model.as_ref(), table.stock())
            .iter()
            .any(|&n| n > 0)
        {
            draws(&mut state).pending.push(asker);
        }
    }
    settle(
        table,
        Outcome {
            model,
            state,
            notes,
        },
        &[asker],
        Some(kinds),
    )
}

/// The ask's event model: one public event per answer — the vector of how
/// many cards of each kind of the rank pass from `asked` to `asker`.
pub fn ask_events(
    table: &Table,
    asker: Agent,
    asked: Agent,
    kinds: &[Kind],
    label: &str,
) -> EventModel {
    let (from, to) = (table.hand(asked), table.hand(asker));
    let asker_holds = Formula::count(to, kinds.to_vec(), Cmp::Ge, 1);
    let mut answers: Vec<Vec<u32>> = vec![Vec::new()];
    for &k in kinds {
        let copies = table.deck.kinds[k].copies;
        answers = answers
            .into_iter()
            .flat_map(|a| (0..=copies).map(move |n| [a.clone(), vec![n]].concat()))
            .collect();
    }
    let events = answers
        .into_iter()
        .map(|answer| {
            let mut pre = vec![asker_holds.clone()];
            let mut post = Vec::new();
            for (&kind, &n) in kinds.iter().zip(&answer) {
                pre.push(Formula::count(from, vec![kind], Cmp::Eq, n));
                if n > 0 {
                    post.push(Post::Move { kind, from, to, n });
                }
            }
            let total: u32 = answer.iter().sum();
            Event {
                name: format!("passes {total}"),
                pre: Formula::And(pre),
                post,
            }
        })
        .collect();
    EventModel::public(label, table.players.len(), events)
}

/// The event models of a move in `[move]φ`: the move, then the books it may complete.
pub fn event_models(table: &Table, mv: &Move, label: &str) -> Result<Vec<EventModel>, Refusal> {
    let (first, player, kinds) = match mv {
        Move::Ask {
            asker,
            asked,
            kinds,
        } => (
            ask_events(table, *asker, *asked, kinds, label),
            Some(*asker),
            Some(kinds.as_slice()),
        ),
        Move::Draw { player, .. } => (generic_event_models(table, mv, label)?, Some(*player), None),
        _ => (generic_event_models(table, mv, label)?, None, None),
    };
    let mut models = vec![first];
    let players: Vec<Agent> = match player {
        Some(p) => vec![p],
        None => (0..table.players.len()).collect(),
    };
    for p in players {
        for ranked in book_ranks(table, kinds) {
            if let Some(books) = table.books(p) {
                models.push(events::lay_down(table, p, &ranked, books, "books"));
            }
        }
    }
    Ok(models)
}

/// The ranks whose books a move may complete: the asked rank, or every rank.
fn book_ranks(table: &Table, asked: Option<&[Kind]>) -> Vec<Vec<Kind>> {
    table
        .deck
        .ranks()
        .into_iter()
        .map(|(_, kinds)| kinds)
        .filter(|kinds| asked.is_none_or(|a| a == kinds.as_slice()))
        .collect()
}

/// After a move: lay down the books `players` may have completed, require
/// draws from empty hands, and pass the turn when the rules say so.
pub fn settle(
    table: &Table,
    mut out: Outcome,
    players: &[Agent],
    asked: Option<&[Kind]>,
) -> Result<Outcome, Refusal> {
    for &p in players {
        let Some(books) = table.books(p) else {
            continue;
        };
        let ranks = book_ranks(table, asked);
        let (model, laid) = books::lay_down_complete(table, &out.model, p, &ranks, books, "books")?;
        out.model = model;
        for r in laid {
            out.notes.push(format!(
                "{} lays down the book of {}",
                describe_player(table, p),
                rank_name(table, &ranks[r])
            ));
        }
    }
    require_draws(table, &mut out);
    pass_turn(table, &mut out);
    Ok(out)
}

fn require_draws(table: &Table, out: &mut Outcome) {
    let stock: u32 = actual_cards(out.model.as_ref(), table.stock()).iter().sum();
    for p in 0..table.players.len() {
        let due = pending(&out.state).len() as u32;
        if stock > due
            && hand_size(table, out.model.as_ref(), p) == 0
            && !pending(&out.state).contains(&p)
        {
            draws(&mut out.state).pending.push(p);
        }
    }
}

fn pass_turn(table: &Table, out: &mut Outcome) {
    if !pending(&out.state).is_empty() || game_over(table, out.model.as_ref()) {
        return;
    }
    let start = out.state.turn;
    if out.state.extra.get::<Draws>().is_some_and(|d| d.pass_after) {
        draws(&mut out.state).pass_after = false;
        out.state.turn = table.next_player(out.state.turn);
    }
    while hand_size(table, out.model.as_ref(), out.state.turn) == 0 {
        out.state.turn = table.next_player(out.state.turn);
    }
    if out.state.turn != start {
        out.notes
            .push(format!("{}'s turn", describe_player(table, out.state.turn)));
    }
}

/// The game is over when no hand holds a card (every book is down).
pub fn game_over(table: &Table, model: &dyn Backend) -> bool {
    (0..table.players.len()).all(|p| hand_size(table, model, p) == 0)
}

/// Go Fish (`game gofish`).
///
/// The referee of Go Fish (report 002 §1.1): three players with seven cards
/// each from the 52-card deck; for teaching, nine cards (three ranks of
/// three suits), two each. The game ends when every book is down; a player's
/// score is the number of books laid down.
#[derive(Debug)]
pub struct GoFish;

impl GameRules for GoFish {
    fn name(&self) -> &'static str {
        "gofish"
    }

    fn title(&self) -> &'static str {
        "Go Fish"
    }

    fn add_locations(&self, table: &mut Table) {
        table.add_books();
    }

    fn start(&self, table: &Table, out: Outcome) -> Result<Outcome, Refusal> {
        let all: Vec<Agent> = (0..table.players.len()).collect();
        settle(table, out, &all, None)
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

    fn referee(&self) -> Option<&dyn Referee> {
        Some(self)
    }

    /// Go Fish asks for a rank: every kind of that rank.
    fn asked_kinds(&self, deck: &Deck, card: &Name) -> Result<Vec<Kind>, Diagnostic> {
        let text = normalise(&card.text);
        if let Some((_, kinds)) = deck.ranks().into_iter().find(|(r, _)| *r == text) {
            return Ok(kinds);
        }
        if let Ok(k) = deck.card(card) {
            let rank = deck.kinds[k].rank.clone().unwrap_or_default();
            return Err(Diagnostic::error(
                "not-a-rank",
                format!("Go Fish asks for a rank, not the card {}", card.text),
                card.span,
            )
            .with_help(format!("write `{rank}`")));
        }
        deck.pattern(card)
    }

    // The referee.
    fn view(&self) -> Option<&dyn GameView> {
        Some(self)
    }
}

impl Referee for GoFish {
    fn deal(&self, seed: u64, size: Size) -> Deal {
        let (deck, hand) = match size {
            Size::Full => (
                Deck::ranks_suits(
                    &[
                        "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A",
                    ],
                    &['S', 'H', 'D', 'C'],
                ),
                7,
            ),
            Size::Teaching => (Deck::ranks_suits(&["A", "K", "Q"], &['S', 'H', 'D']), 2),
        };
        dealt("gofish", &["1", "2", "3"], deck, hand, seed)
    }

    fn is_terminal(&self, pos: &Position) -> bool {
        game_over(pos.table, &**pos.model)
    }

    /// A due draw comes first; otherwise the turn player asks.
    fn current_player(&self, pos: &Position) -> Option<Agent> {
        if self.is_terminal(pos) {
            return None;
        }
        Some(
            pending(pos.state)
                .first()
                .copied()
                .unwrap_or(pos.state.turn),
        )
    }

    /// The due draw, or an ask of another player who holds cards for each
    /// rank the turn player holds.
    fn legal_moves(&self, pos: &Position) -> Vec<Move> {
        let table = pos.table;
        if self.is_terminal(pos) {
            return Vec::new();
        }
        if let Some(&p) = pending(pos.state).first() {
            return vec![Move::Draw {
                player: p,
                kind: None,
                from: table.stock(),
            }];
        }
        let asker = pos.state.turn;
        let hand = pos.cards(table.hand(asker));
        let holds_cards = |q: Agent| pos.count(table.hand(q)) > 0;
        let mut moves = Vec::new();
        for (_, kinds) in table.deck.ranks() {
            if kinds.iter().all(|&k| hand[k] == 0) {
                continue;
            }
            for asked in (0..table.players.len()).filter(|&q| q != asker && holds_cards(q)) {
                moves.push(Move::Ask {
                    asker,
                    asked,
                    kinds: kinds.clone(),
                });
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

/// Go Fish's knowledge views: for each rank, whether a hand holds one or
/// none.
impl GameView for GoFish {
    fn hand(&self, table: &Table, who: About) -> Vec<Fact> {
        ranks_held(table, who, 1, "hold")
    }
}
