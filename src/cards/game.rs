//! One type per game behind one trait, and the registry of the games.
//!
//! A game is a value implementing [`GameRules`]: the locations it adds to
//! the table, what happens right after the deal, how each move is checked
//! against the rules and which event models it becomes, its atoms and its
//! words for completion. [`GAMES`] is the only place that lists every game:
//! adding a game means one new file with a type implementing [`GameRules`]
//! and one line in [`GAMES`] (docs/hacking.md shows a worked example).

use std::fmt;
use std::rc::Rc;

use crate::diag::Diagnostic;
use crate::engine::{Backend, EventModel, Formula, Kind};
use crate::syntax::ast::Name;

use super::deck::Deck;
use super::generic::{self, generic, generic_event_models};
use super::referee::Referee;
use super::rules::{GameState, Move, Outcome, Refusal};
use super::table::Table;
use super::{cabo, gofish, kemps, konigrufen, kwartet};

/// A game's rules: what it adds to the table, how it checks and plays each
/// move, the event models of a move inside `[move]φ`, and its atoms.
///
/// Every method but [`name`](GameRules::name) and
/// [`title`](GameRules::title) has a default: the generic moves of
/// LANGUAGE.md §3 with no further rule, which is `game free`.
pub trait GameRules: Sync + fmt::Debug {
    /// The name `game NAME` takes (`gofish`).
    fn name(&self) -> &'static str;

    /// The name in messages (`Go Fish`).
    fn title(&self) -> &'static str;

    /// Whether the game has turns (`stats` shows whose turn it is).
    fn has_turns(&self) -> bool {
        true
    }

    /// Adds the game's own locations to a table whose players, deck, piles
    /// and slots are declared (books piles, Kemps' table, played piles).
    fn add_locations(&self, table: &mut Table) {
        let _ = table;
    }

    /// What the rules do right after the deal (lay down complete books...).
    fn start(&self, table: &Table, out: Outcome) -> Result<Outcome, Refusal> {
        let _ = table;
        Ok(out)
    }

    /// Plays a move in the actual world. On refusal nothing changes.
    fn play(
        &self,
        table: &Table,
        model: &Rc<dyn Backend>,
        state: &GameState,
        mv: &Move,
        label: &str,
    ) -> Result<Outcome, Refusal> {
        let (model, state) = generic(table, model, state, mv, label)?;
        Ok(Outcome {
            model,
            state,
            notes: Vec::new(),
        })
    }

    /// The event models a move stands for in `[move]φ` (every outcome), in
    /// the current game state (Königrufen's plays depend on the led suit).
    fn event_models(
        &self,
        table: &Table,
        state: &GameState,
        mv: &Move,
        label: &str,
    ) -> Result<Vec<EventModel>, Refusal> {
        let _ = state;
        generic_event_models(table, mv, label).map(|em| vec![em])
    }

    /// The game's own atoms `name(arg)` (Königrufen's `partner(P)`); `None`
    /// when `name` is not one, so that it is read as a location.
    fn atom(
        &self,
        table: &Table,
        state: &GameState,
        name: &Name,
        arg: &Name,
    ) -> Result<Option<Formula>, Diagnostic> {
        let _ = (table, state, name, arg);
        Ok(None)
    }

    /// The cards `ask p q CARD` asks for (Go Fish asks for a whole rank).
    fn asked_kinds(&self, deck: &Deck, card: &Name) -> Result<Vec<Kind>, Diagnostic> {
        deck.pattern(card)
    }

    /// The game's own words for completion in the REPL (atoms and moves).
    fn words(&self) -> &'static [&'static str] {
        &[]
    }

    /// The game's referee for play (whose turn, legal moves, end, score,
    /// a seeded deal); `None` for a game that is only replayed.
    fn referee(&self) -> Option<&dyn Referee> {
        None
    }
}

/// A game: its rules, shared by every session that plays it.
pub type Game = &'static dyn GameRules;

/// Every game, `free` first. The only list of the games: `game NAME`, its
/// error's list of names and the REPL's completion all read it.
pub const GAMES: &[Game] = &[
    &generic::Free,
    &gofish::GoFish,
    &kwartet::Kwartet,
    &kemps::Kemps,
    &konigrufen::Konigrufen,
    &cabo::Cabo,
];

/// The game a name stands for.
pub fn game_named(name: &str) -> Option<Game> {
    GAMES.iter().copied().find(|g| g.name() == name)
}

/// The names `game` accepts, in registry order.
pub fn game_names() -> Vec<&'static str> {
    GAMES.iter().map(|g| g.name()).collect()
}

/// The game of a scenario that declares none: the generic moves only.
pub fn free() -> Game {
    GAMES[0]
}
