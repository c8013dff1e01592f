//! The interpreter: checks a scenario's names against its declarations and
//! replays its statements — setting the table, playing moves by the game's
//! rules, answering queries — through the engine's [`Backend`](crate::engine::Backend).
//!
//! It never prints: it returns [`Output`]s and [`Diagnostic`](crate::diag::Diagnostic)s for a front end to show.

pub mod decides;
pub mod errors;
pub mod explain;
pub mod explicit;
pub mod figures;
pub mod generate;
pub mod narrate;
pub mod per_card;
pub mod private;
pub mod question;
pub mod quiz;

pub mod replay;
pub mod resolve;
pub mod session;
pub mod setup;
pub mod variables;
pub mod wording;

pub use replay::{is_move, read_source, Mark, OnError, Replay, Script, Step, Stepper};
pub use session::{
    Engine, Options, Output, Playing, Session, WorldNames, DEFAULT_MAX_WORLDS, MAX_PLAYERS,
};
