//! Moves, refusals, the game state and the checks every game shares.
//!
//! A rule set decides which events happen, in what order, and which moves are
//! illegal; it never says what anyone knows. Knowledge changes only when the
//! resulting event models are applied to the model by product update.

use std::any::Any;
use std::fmt;
use std::rc::Rc;

use crate::engine::{Agent, Atom, Backend, EngineError, EventId, EventModel, Formula, Kind, Loc};

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
    /// A move a particular game defines (Kemps' `pick`, Königrufen's
    /// `play`, ...): the game's own type, which only that game's rules know.
    Game(Box<dyn GameAction>),
}

impl Move {
    /// The card kinds the move names, in the order written: its card, the
    /// kinds it asks for, a game's move's card arguments, or the cards an
    /// announcement's count atoms name (a count of a whole location names
    /// none). Read from the move itself, never from its text.
    pub fn cards(&self, table: &Table) -> Vec<Kind> {
        let mut out: Vec<Kind> = Vec::new();
        let mut add = |k: Kind| {
            if !out.contains(&k) {
                out.push(k);
            }
        };
        match self {
            Move::Transfer { kind, .. }
            | Move::Show { kind, .. }
            | Move::Reveal { kind, .. }
            | Move::Draw {
                kind: Some(kind), ..
            } => add(*kind),
            Move::Ask { kinds, .. } => kinds.iter().for_each(|&k| add(k)),
            Move::Game(action) => {
                for a in action.args() {
                    if let Arg::Card(k) = a {
                        add(k);
                    }
                }
            }
            Move::Announce(phi) => {
                let every = table.deck.kinds.len();
                phi.for_each_atom(&mut |atom| {
                    if let Atom::Count { kinds, .. } = atom {
                        if kinds.len() < every {
                            kinds.iter().for_each(|&k| add(k));
                        }
                    }
                });
            }
            Move::Draw { kind: None, .. } | Move::Peek { .. } | Move::Apply(..) => {}
        }
        out
    }

    /// The game's move of type `T`, if this is one.
    pub fn game<T: 'static>(&self) -> Option<&T> {
        match self {
            Move::Game(a) => (**a).as_any().downcast_ref(),
            _ => None,
        }
    }
}

/// What a game's move takes: a player, a card or a slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgKind {
    /// A player (`2`, `Bruno`).
    Player,
    /// A card of the deck (`6H`, `T21`).
    Card,
    /// A face-down slot (`1.2`).
    Slot,
}

/// An argument of a game's move, resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arg {
    /// A player.
    Player(Agent),
    /// A card kind.
    Card(Kind),
    /// A slot.
    Slot(Loc),
}

/// A move word a game defines, with what it takes: `pick P C`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveForm {
    /// The word (`pick`).
    pub word: &'static str,
    /// Its arguments, in order.
    pub args: &'static [ArgKind],
}

impl MoveForm {
    /// The move `word` taking `args`.
    pub const fn new(word: &'static str, args: &'static [ArgKind]) -> MoveForm {
        MoveForm { word, args }
    }

    /// `pick P C`: the word with a letter per argument (P player, C card, S slot).
    pub fn usage(&self) -> String {
        let mut out = self.word.to_string();
        for a in self.args {
            out.push_str(match a {
                ArgKind::Player => " P",
                ArgKind::Card => " C",
                ArgKind::Slot => " S",
            });
        }
        out
    }
}

/// A statement a game adds to the setting of the table, with what it
/// takes: `psychic P...` (the Cabo-like game's psychic players). It comes
/// before the deal's first move, like every declaration, and the game
/// records it in its table ([`Table::game_setup`](super::Table::game_setup)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeclarationForm {
    /// The word (`psychic`).
    pub word: &'static str,
    /// Its arguments, in order.
    pub args: &'static [ArgKind],
    /// Whether the last argument may be repeated (`psychic 1 3`): one or
    /// more of it.
    pub repeated: bool,
}

impl DeclarationForm {
    /// `psychic P...`: the word with a letter per argument (P player, C
    /// card, S slot), `...` after one that may be repeated.
    pub fn usage(&self) -> String {
        let form = MoveForm::new(self.word, self.args);
        let mut out = form.usage();
        if self.repeated {
            out.push_str("...");
        }
        out
    }

    /// Whether `n` arguments are as many as the form takes.
    pub fn takes(&self, n: usize) -> bool {
        if self.repeated {
            n >= self.args.len()
        } else {
            n == self.args.len()
        }
    }

    /// The kind of the argument at `i` (the last one repeats).
    pub fn arg(&self, i: usize) -> Option<ArgKind> {
        match self.args.get(i) {
            Some(&a) => Some(a),
            None if self.repeated => self.args.last().copied(),
            None => None,
        }
    }
}

/// A move of a particular game, as that game's own type (Kemps'
/// `KempsMove`...). It says its word and arguments; the game's
/// [`make_move`](super::GameRules::make_move) reads them back.
pub trait GameAction: ActionBase {
    /// The move's word (`pick`).
    fn word(&self) -> &'static str;
    /// Its arguments, in the order of the game's [`MoveForm`].
    fn args(&self) -> Vec<Arg>;
}

/// Cloning and downcasting a boxed [`GameAction`]; every `Clone` type
/// implementing `GameAction` has it.
pub trait ActionBase: Any + fmt::Debug {
    /// A boxed copy.
    fn box_clone(&self) -> Box<dyn GameAction>;
    /// The move as `Any`, to downcast to the game's type.
    fn as_any(&self) -> &dyn Any;
}

impl<T: GameAction + Clone> ActionBase for T {
    fn box_clone(&self) -> Box<dyn GameAction> {
        Box::new(self.clone())
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

impl Clone for Box<dyn GameAction> {
    fn clone(&self) -> Self {
        self.box_clone()
    }
}

/// A game's move in scenario syntax: its word and arguments (`pick 2 6H`).
pub fn action_text(table: &Table, action: &dyn GameAction) -> String {
    let mut out = action.word().to_string();
    for a in action.args() {
        out.push(' ');
        out.push_str(&match a {
            Arg::Player(p) => table.players[p].clone(),
            Arg::Card(k) => table.deck.kinds[k].name.clone(),
            Arg::Slot(l) => table.locations[l].name.clone(),
        });
    }
    out
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

/// The game's state beyond the Kripke model: whose turn it is, the actual
/// order of the stock, and what a particular game remembers besides.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameState {
    /// Whose turn it is.
    pub turn: Agent,
    /// The actual order of the stock, top first (known to the scenario, not to the players).
    pub stock_order: Vec<Kind>,
    /// How many cards at the top of that order the scenario fixed with
    /// `stock ...`; the rest is a seeded shuffle.
    pub fixed: usize,
    /// The scenario's seed (`seed N`), for reshuffles during the game.
    pub seed: u64,
    /// What a particular game remembers besides (Go Fish's due draws, the
    /// trick, the open pile's order).
    pub extra: Extra,
}

/// The part of the game state only one game has (Go Fish's due draws,
/// Kemps' turn, Königrufen's tricks, the Cabo-like game's open pile): a value of the game's own type,
/// or nothing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Extra(Option<Box<dyn ExtraState>>);

impl Extra {
    /// The game's state of type `T`, if set.
    pub fn get<T: 'static>(&self) -> Option<&T> {
        self.0.as_deref()?.as_any().downcast_ref()
    }

    /// The game's state of type `T`, to change, if set.
    pub fn get_mut<T: 'static>(&mut self) -> Option<&mut T> {
        self.0.as_deref_mut()?.as_any_mut().downcast_mut()
    }

    /// The game's state of type `T`, set to its default first when it is
    /// not one.
    pub fn get_or_default<T: ExtraState + Default>(&mut self) -> &mut T {
        if self.get::<T>().is_none() {
            self.0 = Some(Box::new(T::default()));
        }
        self.0
            .as_deref_mut()
            .and_then(|b| b.as_any_mut().downcast_mut())
            .expect("set just above")
    }

    /// Sets the game's state.
    pub fn set<T: ExtraState>(&mut self, value: T) {
        self.0 = Some(Box::new(value));
    }
}

/// A game's own state in [`Extra`]: any `Clone + PartialEq + Debug` type.
pub trait ExtraState: Any + fmt::Debug {
    /// A boxed copy.
    fn box_clone(&self) -> Box<dyn ExtraState>;
    /// As `Any`, to downcast.
    fn as_any(&self) -> &dyn Any;
    /// As `Any`, to downcast and change.
    fn as_any_mut(&mut self) -> &mut dyn Any;
    /// Whether `other` is the same state.
    fn same(&self, other: &dyn ExtraState) -> bool;
}

impl<T: Any + fmt::Debug + Clone + PartialEq> ExtraState for T {
    fn box_clone(&self) -> Box<dyn ExtraState> {
        Box::new(self.clone())
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }

    fn same(&self, other: &dyn ExtraState) -> bool {
        other.as_any().downcast_ref::<T>() == Some(self)
    }
}

impl Clone for Box<dyn ExtraState> {
    fn clone(&self) -> Self {
        (**self).box_clone()
    }
}

impl PartialEq for Box<dyn ExtraState> {
    fn eq(&self, other: &Self) -> bool {
        (**self).same(&**other)
    }
}

impl Eq for Box<dyn ExtraState> {}

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

/// The refusal of another game's move (one this game cannot read, made
/// by code that holds the other game's move type).
pub fn foreign(action: &dyn GameAction) -> Refusal {
    Refusal::new(
        "not-a-move-of-the-game",
        format!("`{}` is not a move of this scenario's game", action.word()),
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
