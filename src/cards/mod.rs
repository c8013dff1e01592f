//! Cards and game rules: decks, the table of locations, the event models of
//! the generic moves, and each game's rules.
//!
//! This layer turns moves into event models and decides which moves are
//! legal. It depends on the engine (to build event models and to look at the
//! actual world) and never on the interpreter or any front end. It never
//! writes down what a player knows: that follows from product update.

pub mod books;
pub mod cabo;
pub mod deal;
pub mod deck;
pub mod events;
pub mod game;
pub mod generic;
pub mod gofish;
pub mod kemps;
pub mod konigrufen;
pub mod kwartet;
pub mod referee;
pub mod rules;
pub mod table;
pub mod view;

pub use deal::{Deal, Opening};
pub use deck::{CardKind, Deck};
pub use game::{game_named, game_names, read_move, Game, GameRules, Referee, GAMES};
pub use referee::{stopped, to_move, Position, Size, MOVE_LIMIT};
pub use rules::{Arg, ArgKind, Extra, GameAction, GameState, Move, MoveForm, Outcome, Refusal};
pub use table::{LocKind, Location, Table};
pub use view::{Fact, GameView};
