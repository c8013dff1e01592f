//! Moves, refusals, the game state and the checks every game shares.
//!
//! A rule set decides which events happen, in what order, and which moves are
//! illegal; it never says what anyone knows. Knowledge changes only when the
//! resulting event models are applied to the model by product update.

use std::rc::Rc;

use crate::engine::{Agent, Backend, EngineError, EventId, EventModel, Formula, Kind, Loc};

use super::cabo;
use super::kemps::KempsTurn;
use super::konigrufen;
use super::table::Table;

/// A move with its names resolved.
#[derive(Clone, Debug)]
pub enum Move {
    /// `announce φ`
    Announce(Formula),
    /// `move C from -> to`
    Transfer {
        /// The card.
        kind: Kind,
        /// From where.
        from: Loc,
        /// To where.
        to: Loc,
    },
    /// `draw p`, `draw p: C`, `draw p from PILE: C`
    Draw {
        /// Who draws.
        player: Agent,
        /// The card, when the scenario says.
        kind: Option<Kind>,
        /// Where from (the stock unless the scenario says).
        from: Loc,
    },
    /// `show p -> q C`
    Show {
        /// Who shows.
        from: Agent,
        /// To whom.
        to: Agent,
        /// The card.
        kind: Kind,
    },
    /// `reveal p C`
    Reveal {
        /// Who.
        player: Agent,
        /// The card.
        kind: Kind,
    },
    /// `peek p s`
    Peek {
        /// Who.
        player: Agent,
        /// The slot.
        slot: Loc,
    },
    /// `ask p q R`
    Ask {
        /// Who asks.
        asker: Agent,
        /// Who is asked.
        asked: Agent,
        /// The kinds asked for (every card of the rank).
        kinds: Vec<Kind>,
    },
    /// `apply E`: a declared event model with its actual event.
    Apply(EventModel, EventId),
    /// A move of a particular game (`pick`, `discard`, `newtable`, `kemps`,
    /// `call`, `play`, `place`), which only that game's rules know.
    Game(GameMove),
}

/// The moves that belong to particular games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameMove {
    /// `pick p C` (Kemps)
    Pick {
        /// Who picks.
        player: Agent,
        /// The card.
        kind: Kind,
    },
    /// `discard p C` (Kemps, the Cabo-like game)
    Discard {
        /// Who discards.
        player: Agent,
        /// The card.
        kind: Kind,
    },
    /// `newtable` (Kemps)
    NewTable,
    /// `kemps p` (Kemps)
    Kemps(Agent),
    /// `pass p` (Kemps: the turn player ends the turn)
    Pass(Agent),
    /// `call p K` (Königrufen)
    Call {
        /// The declarer.
        player: Agent,
        /// The king called.
        kind: Kind,
    },
    /// `play p C` (Königrufen)
    Play {
        /// Who plays.
        player: Agent,
        /// The card.
        kind: Kind,
    },
    /// `place p s` (the Cabo-like game)
    Place {
        /// Who places.
        player: Agent,
        /// The slot.
        slot: Loc,
    },
    /// `glimpse p s` (the Cabo-like game's psychic player)
    Glimpse {
        /// Who looks.
        player: Agent,
        /// The slot.
        slot: Loc,
    },
}

impl GameMove {
    /// The move's keyword and the game it belongs to.
    pub fn describe(&self) -> (&'static str, &'static str) {
        match self {
            GameMove::Pick { .. } => ("pick", "Kemps"),
            GameMove::Discard { .. } => ("discard", "Kemps and the Cabo-like game"),
            GameMove::NewTable => ("newtable", "Kemps"),
            GameMove::Kemps(_) => ("kemps", "Kemps"),
            GameMove::Pass(_) => ("pass", "Kemps"),
            GameMove::Call { .. } => ("call", "Königrufen"),
            GameMove::Play { .. } => ("play", "Königrufen"),
            GameMove::Place { .. } => ("place", "the Cabo-like game"),
            GameMove::Glimpse { .. } => ("glimpse", "the Cabo-like game"),
        }
    }
}

/// Why a move is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// A stable kebab-case code.
    pub code: &'static str,
    /// What is wrong, quoting the rule.
    pub message: String,
    /// How to go on.
    pub help: Option<String>,
}

impl Refusal {
    /// A refusal with a code and message.
    pub fn new(code: &'static str, message: impl Into<String>) -> Refusal {
        Refusal {
            code,
            message: message.into(),
            help: None,
        }
    }

    /// With a hint.
    pub fn help(mut self, help: impl Into<String>) -> Refusal {
        self.help = Some(help.into());
        self
    }
}

impl From<EngineError> for Refusal {
    fn from(e: EngineError) -> Refusal {
        match e {
            EngineError::TooManyWorlds { .. } => Refusal::new("too-many-worlds", e.to_string()),
            EngineError::OutOfMemory => Refusal::new("out-of-memory", e.to_string())
                .help("the model grew too large for the symbolic engine; use a smaller deck"),
            EngineError::Unsupported(_) => Refusal::new("unsupported", e.to_string())
                .help("run with `--engine explicit`, on a deal it can hold (`--size small`)"),
            EngineError::Interrupted => Refusal::new("interrupted", e.to_string())
                .help("the move was cancelled: the model is as it was before it"),
            _ => Refusal::new("impossible-move", e.to_string()),
        }
    }
}

/// The game's state beyond the Kripke model: whose turn it is, which draws
/// the rules require, and the actual order of the stock.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameState {
    /// Whose turn it is.
    pub turn: Agent,
    /// Players who must draw before anything else happens, in order.
    pub pending: Vec<Agent>,
    /// Whether the turn passes once the pending draws are done ("Go Fish!").
    pub pass_after: bool,
    /// The actual order of the stock, top first (known to the scenario, not to the players).
    pub stock_order: Vec<Kind>,
    /// How many cards at the top of that order the scenario fixed with
    /// `stock ...`; the rest is a seeded shuffle.
    pub fixed: usize,
    /// The scenario's seed (`seed N`), for reshuffles during the game.
    pub seed: u64,
    /// What a particular game remembers besides (the trick, the open pile's order).
    pub extra: Extra,
}

/// The part of the game state only one game has.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Extra {
    /// Nothing more.
    #[default]
    None,
    /// Kemps: the current turn's bookkeeping.
    Kemps(KempsTurn),
    /// Königrufen: the call and the current trick.
    Konigrufen(konigrufen::Tricks),
    /// The Cabo-like game: the open pile's order.
    Cabo(cabo::OpenPile),
}

/// A model and game state after a move, with what the rules did on their own.
pub struct Outcome {
    /// The model after the move.
    pub model: Rc<dyn Backend>,
    /// The game state after the move.
    pub state: GameState,
    /// What happened automatically (books laid down, turn passed).
    pub notes: Vec<String>,
}

/// The cards at `loc` in the actual world, per kind.
pub fn actual_cards(model: &dyn Backend, loc: Loc) -> Vec<u32> {
    model.actual_cards().swap_remove(loc)
}

/// The refusal of a move that belongs to another game.
pub fn not_in_game(word: &str, game: &str) -> Refusal {
    Refusal::new(
        "not-a-move-of-the-game",
        format!("`{word}` is a move of {game}, not of this scenario's game"),
    )
    .help("declare the game that has this move with `game NAME` before the deal")
}

/// An error unless `loc` holds a card of `kind` in the actual world.
pub fn holds(table: &Table, model: &dyn Backend, loc: Loc, kind: Kind) -> Result<(), Refusal> {
    if actual_cards(model, loc)[kind] > 0 {
        return Ok(());
    }
    Err(Refusal::new(
        "card-not-there",
        format!(
            "{} does not hold {}",
            describe_location(table, loc),
            table.deck.kinds[kind].name
        ),
    ))
}

/// `player 2`, `Bruno`, `the table`.
pub fn describe_location(table: &Table, loc: Loc) -> String {
    if loc < table.players.len() {
        describe_player(table, loc)
    } else {
        format!("the {}", table.locations[loc].name)
    }
}

/// How many cards player `p` holds in the actual world.
pub fn hand_size(table: &Table, model: &dyn Backend, p: Agent) -> u32 {
    actual_cards(model, table.hand(p)).iter().sum()
}

/// `GAME: it is player 1's turn, not player 2's` unless it is `player`'s turn.
pub fn check_turn(
    game: &str,
    table: &Table,
    state: &GameState,
    player: Agent,
) -> Result<(), Refusal> {
    if player == state.turn {
        return Ok(());
    }
    Err(Refusal::new(
        "out-of-turn",
        format!(
            "{game}: it is {}'s turn, not {}'s",
            describe_player(table, state.turn),
            describe_player(table, player)
        ),
    ))
}

/// `GAME: a player asks another player, not themself`.
pub fn check_asks_another(game: &str, asker: Agent, asked: Agent) -> Result<(), Refusal> {
    if asker != asked {
        return Ok(());
    }
    Err(Refusal::new(
        "ask-self",
        format!("{game}: a player asks another player, not themself"),
    ))
}

/// `player 2` for numbered players, the name otherwise.
pub fn describe_player(table: &Table, p: Agent) -> String {
    let name = &table.players[p];
    if name.chars().all(|c| c.is_ascii_digit()) {
        format!("player {name}")
    } else {
        name.clone()
    }
}
