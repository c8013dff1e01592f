//! dealer: teach dynamic epistemic logic with card games.
//!
//! A scenario (`.deal` file) deals cards, makes moves and asks what players
//! know. dealer parses it ([`syntax`]), resolves its names and replays its
//! moves ([`interp`]) by the rules of its game ([`cards`]) as event models
//! applied to a Kripke model by product update ([`engine`]), and answers its
//! queries by model checking. [`cli`] is the command-line front end, [`repl`] the interactive one;
//! [`play`] plays games from a seeded deal, by agents or by a person.
//!
//! Dependencies between the modules go one way:
//! `cli → {repl, play} → interp → {figure → cards → engine, syntax} → diag`
//! ([`figure`] draws models as DOT and images).
//!
//! Replaying a scenario through the library:
//!
//! ```
//! use dealer::interp::{Options, Output, Script, Session};
//!
//! // Two cards, one each: player 1 sees its Q, so it knows player 2 holds the A.
//! let src = "players 1 2\ndeck Q A\ndeal 1: Q | 2: A\n? K1 hand2(A)\n? K1 K2 hand1(Q)\n";
//! let script = Script::parse("example.deal", src).expect("the scenario parses");
//! let mut session = Session::new(Options::default());
//! let mut answers = Vec::new();
//! for step in session.replay(&script, 0) {
//!     for out in step.outcome.expect("every statement runs") {
//!         if let Output::Answer { value, .. } = out {
//!             answers.push(value);
//!         }
//!     }
//! }
//! assert_eq!(answers, [true, true]);
//! ```
#![deny(missing_docs)]

pub mod cards;
pub mod cli;
pub mod diag;
pub mod engine;
pub mod figure;
pub mod interp;
pub mod play;
pub mod repl;
pub mod strategy;
pub mod syntax;
pub mod tournament;
pub mod web;
