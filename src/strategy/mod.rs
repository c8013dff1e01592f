//! Strategies as knowledge-based programs.
//!
//! A strategy is a short text (a `.strat` file under `strategies/`): a
//! header `strategy NAME for GAME` and an ordered list of rules
//!
//! ```text
//! rule NAME [chance N/D]: TEMPLATE [when GUARD] [prefer SCORE]
//! ```
//!
//! - the **template** is a move written as the scenario language writes
//!   it (`ask me x r`, `ask me x <t,v>`), where `me` is the strategy's
//!   player, `_` matches anything and every other lower-case word that is
//!   not a player or card name is a variable. The template is matched
//!   against the referee's legal moves, so only legal moves are ever
//!   considered and every variable is bound by the move it matches;
//! - the **guard** is any formula of the language, about the bound
//!   variables, `me` and `others` (the other players, for groups such as
//!   `E{others}`), with `any(y in DOMAIN: φ)` and `all(y in DOMAIN: φ)` for
//!   a disjunction or conjunction over `players`, `others` or a range `1..4`;
//!   the engine decides it on the exact model in the actual world;
//! - the **score** is a sum of terms `known ATOM` (the largest `n` such
//!   that `K_me ATOM >= n`, found by asking the engine), `[φ]` (1 when φ
//!   holds, else 0) and integers, each with `+` or `-`.
//!
//! The first rule with a legal move whose guard holds decides; among its
//! moves those with the highest score are kept and ties are broken by the
//! game's seeded generator. A rule with `chance N/D` is tried only when a
//! draw of that generator succeeds. When no rule applies, the move is a
//! uniformly random legal move. A single legal move (a due draw) is played
//! without asking the rules.
//!
//! This module knows nothing of how a game is run: [`choose`] takes an
//! [`Oracle`] that answers formulas (a [`Session`](crate::interp::Session)
//! is one), the legal moves as statements and the player, and returns a
//! [`Decision`] that says which rule fired, on which binding, and which
//! guards held or failed, so that the REPL can show it and tests can check
//! every guard against the engine.

pub mod agent;
mod choose;
mod expand;
mod parse;

pub use choose::{choose, Decision, Oracle, RuleTrace, Tried};
pub use expand::{calls, expand, functions, substitute, CardFacts};
pub use parse::{parse, CardValue, Rule, Strategy, Template, Term};

use std::path::Path;

use crate::diag::{Diagnostic, Span};

/// The directory of the shipped strategies, relative to the crate.
pub const SHIPPED_DIR: &str = "strategies";

/// Reads and parses a strategy file; errors are rendered with the file's
/// name and line.
pub fn load(path: &Path) -> Result<Strategy, String> {
    let src = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let name = path.display().to_string();
    parse(&src).map_err(|d| d.render(&name, &src, false))
}

/// Finds a strategy by name: a path to a `.strat` file, or `NAME` of
/// `strategies/GAME-NAME.strat` under `dir`.
pub fn find(dir: &Path, game: &str, name: &str) -> Result<Strategy, String> {
    let as_path = Path::new(name);
    if as_path.extension().is_some_and(|e| e == "strat") {
        return load(as_path);
    }
    let file = dir.join(format!("{game}-{name}.strat"));
    if file.exists() {
        return load(&file);
    }
    let known = shipped_names(dir, game);
    Err(format!(
        "no strategy `{name}` for {game} in {}; the strategies are: {}",
        dir.display(),
        if known.is_empty() {
            "(none)".to_string()
        } else {
            known.join(", ")
        }
    ))
}

/// The names of the strategies for `game` under `dir`, sorted.
pub fn shipped_names(dir: &Path, game: &str) -> Vec<String> {
    let prefix = format!("{game}-");
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let file = e.file_name().to_string_lossy().to_string();
            let stem = file.strip_suffix(".strat")?;
            stem.strip_prefix(&prefix).map(str::to_string)
        })
        .collect();
    names.sort();
    names
}

/// An error located nowhere in particular (for errors from the engine
/// while a strategy runs).
pub(crate) fn error(code: &'static str, message: impl Into<String>) -> Diagnostic {
    Diagnostic::error(code, message, Span::new(0, 0))
}
