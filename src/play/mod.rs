//! Playing a game from a seeded deal to its end, by agents or by a person.
//!
//! This room sits between the interpreter and the front ends. A [`Match`]
//! holds a normal [`Session`](crate::interp::Session): the game's referee
//! ([`Referee`](crate::cards::Referee)) writes the seeded deal as scenario
//! text, every move is written as a statement and executed through the
//! parser and interpreter exactly as `dealer run` would, and every
//! question about knowledge is a formula the engine answers on the exact
//! model. Nothing here tracks what anyone knows.
//!
//! - [`agent`]: the [`Agent`] trait (an agent sees its [`View`]: its hand,
//!   the public record, the legal moves, and asks the engine what its
//!   player knows), the uniformly random agent and the registry of agents.
//! - [`game_loop`]: [`Match`], the game loop, its history and the whole
//!   game written out as a scenario.
//! - [`views`]: the knowledge views of each game (lists of formulas).
//! - [`person`]: a person at the terminal: commands, refusals, completion;
//!   the front end (`cli/play.rs`) reads lines and prints what it returns.
//!
//! The play room never prints.

pub mod agent;
pub mod game_loop;
pub mod person;
pub mod views;

pub use agent::{agent_named, Agent, RandomAgent, View, AGENTS};
pub use game_loop::{Match, Played, Seat};
pub use person::{Desk, Reply};
