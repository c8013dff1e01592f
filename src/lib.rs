//! dealer: teach dynamic epistemic logic with card games.
//!
//! A scenario (`.deal` file) deals cards, makes moves and asks what players
//! know. dealer parses it ([`syntax`]), resolves its names and replays its
//! moves ([`interp`]) by the rules of its game ([`cards`]) as event models
//! applied to a Kripke model by product update ([`engine`]), and answers its
//! queries by model checking. [`cli`] is the command-line front end, [`repl`] the interactive one.
//!
//! Dependencies between the modules go one way:
//! `cli → repl → interp → {cards → engine, syntax} → diag`.
#![deny(missing_docs)]

pub mod cards;
pub mod cli;
pub mod diag;
pub mod engine;
pub mod interp;
pub mod repl;
pub mod syntax;
