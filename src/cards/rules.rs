//! Moves and the rules that decide which event models they become.
//!
//! A rule set decides which events happen, in what order, and which moves are
//! illegal; it never says what anyone knows. Knowledge changes only when the
//! resulting event models are applied to the model by product update.

use std::rc::Rc;

use crate::engine::{Agent, Backend, EngineError, EventId, EventModel, Formula, Kind, Loc};

use super::cabo;
use super::events;
use super::gofish;
use super::kemps::{self, KempsTurn};
use super::konigrufen;
use super::kwartet;
use super::table::Table;

/// The games with rules (`game NAME`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Game {
    /// No rules beyond the generic moves.
    Free,
    /// Go Fish: asks for ranks, books of four, draws after "Go Fish!".
    GoFish,
    /// Kwartet: asks for single cards of a set the asker holds, sets laid down.
    Kwartet,
    /// Kemps: picks and discards at a face-up table, new tables, Kemps claims.
    Kemps,
    /// Königrufen: a called king, tricks with follow-suit and trump obligations.
    Konigrufen,
    /// The Cabo-like game: four face-down slots each, a closed and an open pile.
    Cabo,
}

impl Game {
    /// The game a name stands for.
    pub fn from_name(name: &str) -> Option<Game> {
        match name {
            "free" => Some(Game::Free),
            "gofish" => Some(Game::GoFish),
            "kwartet" => Some(Game::Kwartet),
            "kemps" => Some(Game::Kemps),
            "konigrufen" => Some(Game::Konigrufen),
            "cabo" => Some(Game::Cabo),
            _ => None,
        }
    }

    /// The names `game` accepts.
    pub const NAMES: &'static [&'static str] =
        &["free", "gofish", "kwartet", "kemps", "konigrufen", "cabo"];
}

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
            EngineError::Unsupported(_) => {
                Refusal::new("unsupported", e.to_string()).help("run with `--engine explicit`")
            }
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

/// The rules as a whole: the table, the game and its state.
pub struct Rules<'a> {
    /// The table.
    pub table: &'a Table,
    /// The game.
    pub game: Game,
}

impl Rules<'_> {
    /// What the rules do right after the deal (lay down complete books...).
    pub fn start(&self, model: Rc<dyn Backend>, state: GameState) -> Result<Outcome, Refusal> {
        let out = Outcome {
            model,
            state,
            notes: Vec::new(),
        };
        match self.game {
            Game::Free => Ok(out),
            Game::GoFish => {
                let all: Vec<Agent> = (0..self.table.players.len()).collect();
                gofish::settle(self.table, out, &all, None)
            }
            Game::Kwartet => kwartet::start(self.table, out),
            Game::Kemps => kemps::start(self.table, out),
            Game::Konigrufen => konigrufen::start(self.table, out),
            Game::Cabo => cabo::start(self.table, out),
        }
    }

    /// Plays a move in the actual world. On refusal nothing changes.
    pub fn play(
        &self,
        model: &Rc<dyn Backend>,
        state: &GameState,
        mv: &Move,
        label: &str,
    ) -> Result<Outcome, Refusal> {
        match self.game {
            Game::GoFish => return gofish::play(self.table, model, state, mv, label),
            Game::Kwartet => return kwartet::play(self.table, model, state, mv, label),
            Game::Kemps => return kemps::play(self.table, model, state, mv, label),
            Game::Konigrufen => return konigrufen::play(self.table, model, state, mv, label),
            Game::Cabo => return cabo::play(self.table, model, state, mv, label),
            Game::Free => {}
        }
        let (model, state) = generic(self.table, model, state, mv, label)?;
        Ok(Outcome {
            model,
            state,
            notes: Vec::new(),
        })
    }

    /// The event models a move stands for in `[move]φ` (every outcome).
    pub fn event_models(&self, mv: &Move, label: &str) -> Result<Vec<EventModel>, Refusal> {
        match self.game {
            Game::GoFish => gofish::event_models(self.table, mv, label),
            Game::Kwartet => kwartet::event_models(self.table, mv, label),
            Game::Kemps => kemps::event_models(self.table, mv, label),
            Game::Konigrufen => konigrufen::event_models(self.table, None, mv, label),
            Game::Cabo => cabo::event_models(self.table, mv, label),
            Game::Free => generic_events(self.table, mv, label).map(|(em, _)| vec![em]),
        }
    }

    /// The event models of a move in `[move]φ` in the current game state
    /// (Königrufen's plays depend on the trick's led suit).
    pub fn event_models_at(
        &self,
        state: &GameState,
        mv: &Move,
        label: &str,
    ) -> Result<Vec<EventModel>, Refusal> {
        match self.game {
            Game::Konigrufen => konigrufen::event_models(self.table, Some(state), mv, label),
            _ => self.event_models(mv, label),
        }
    }
}

/// The cards at `loc` in the actual world, per kind.
pub fn actual_cards(model: &dyn Backend, loc: Loc) -> Vec<u32> {
    model.actual_world().cards[loc].clone()
}

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
        Move::Game(g) => {
            let (word, game) = g.describe();
            return Err(not_in_game(word, game));
        }
    })
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
        // A reveal is one public event (the test that the hand holds the card).
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
    let stock = actual_cards(model, table.stock());
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
