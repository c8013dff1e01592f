//! Playing a game from a seeded deal to its end, by agents or by a person.
//!
//! This room sits between the interpreter and the front ends. A [`Match`]
//! holds a normal [`Session`](crate::interp::Session): the game's referee
//! ([`GameRules`](crate::cards::GameRules)) writes the seeded deal as scenario
//! text, every legal move is a resolved [`Move`](crate::cards::Move) that
//! the session plays as it plays the move's statement
//! ([`Session::apply`](crate::interp::Session::apply)), its text printed
//! once (the referee's `move_text`) for the history and the game written
//! out as a scenario, and every question about knowledge is a formula the
//! engine answers on the exact model. Nothing here tracks what anyone
//! knows.
//!
//! [`Match`] is the one game loop: `dealer play`, the web play page,
//! tournaments (a match per game, games on every core), `dealer bench
//! --play` and the tests all drive it, and seat their agents by name with
//! [`Match::seat_named`].
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
//!
//! A small Go Fish game between three random agents:
//!
//! ```
//! use dealer::cards::Size;
//! use dealer::interp::Options;
//! use dealer::play::{agent_named, Match};
//!
//! let mut game = Match::new("gofish", 7, Size::Teaching, Options::default()).unwrap();
//! let seats = (0..3)
//!     .map(|p| game.agent_seat(agent_named("random").unwrap(), p))
//!     .collect();
//! game.seat(seats).unwrap();
//! while let Some(played) = game.agent_move() {
//!     played.expect("agents choose legal moves");
//! }
//! assert!(game.is_over());
//! // Three books of three cards: every book is down.
//! assert_eq!(game.scores().iter().sum::<i64>(), 3);
//! // The whole game as a scenario that `dealer run` replays.
//! assert!(game.scenario().contains("checkpoint \"turn 1\""));
//! ```

pub mod agent;
pub mod game_loop;
pub mod person;
pub mod views;

pub use agent::{agent_named, Agent, Legal, RandomAgent, View, AGENTS};
pub use game_loop::{
    deal_session, dealt_session, legal_moves, playable, referee_of, refereed, seat_rng,
    GameOutcome, Lookup, Match, Played, Seat,
};
pub use person::{Desk, Reply};
