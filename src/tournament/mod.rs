//! Tournaments: many seeded games between strategies, in every
//! combination a report used, with per-game records (CSV), a summary
//! with 95% confidence intervals (JSON, a table) and a chart.
//!
//! Game `i` of a tournament with seed `S` has its own seed derived from
//! `S` and `i` ([`game_seed`]), so the results do not depend on how many
//! threads play, on sharding (`--shard K/N` plays the games with
//! `i % N == K - 1`) or on an interruption (a resumed run skips the games
//! its CSV already holds). The folder's `manifest.json`
//! ([`manifest::Manifest`]) records the experiment, so that a resume or a
//! merge of another one is refused.

pub mod game;

pub use game::{play_game, Deal, GameOutcome};
pub mod chart;
pub mod manifest;
pub mod record;
pub mod run;
pub mod summary;

pub use manifest::Manifest;
pub use record::{read_csv, CsvFile, Record, Rows};
pub use run::{game_seed, run, Plan, Seatings};
pub use summary::{summarise, Summary};

/// A tournament's refusal with no place in a text (a folder, a file, a
/// row, a plan): its code and message.
pub(crate) fn refused(code: &'static str, message: impl Into<String>) -> crate::diag::Report {
    crate::diag::Report::from(crate::diag::Diagnostic::unlocated(code, message))
}
