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
//!   not a player, card or pile name is a variable. The template is
//!   checked against the game's moves when the strategy is loaded
//!   ([`resolve`]) and matched against the referee's legal moves as values
//!   (each argument a player, card, rank, pile or slot), so only legal
//!   moves are ever considered and every variable is bound by the move it
//!   matches;
//! - the **guard** is any formula of the language, read by its grammar,
//!   about the bound variables, `me` and `others` (the other players, for
//!   groups such as `E{others}`), with `any(y in DOMAIN: φ)` and
//!   `all(y in DOMAIN: φ)` for a disjunction or conjunction over `players`,
//!   `others`, `ranks` (the deck's) or a range `1..4`, and cards written
//!   with the variables (`rank(c)`, `0..t`, `<t,v>`); it is instantiated
//!   for each move on the syntax tree ([`FormulaTemplate`]) and the engine
//!   decides it on the exact model in the actual world;
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
//! This module knows nothing of how a game is run: [`choose`] takes the
//! game, an [`Oracle`] that answers formulas (a
//! [`Session`](crate::interp::Session) is one), the legal moves and the
//! player, and returns a
//! [`Decision`] that says which rule fired, on which binding, and which
//! guards held or failed, so that the REPL can show it and tests can check
//! every guard against the engine.

pub mod agent;
mod choose;
pub mod knowledge;
mod parse;
mod pattern;
mod template;

pub use choose::{choose, Decision, Oracle, RuleTrace, Seated, Tried};
pub use parse::{parse, CardValue, Rule, SetPart, Strategy, Template, Term, Word};
pub use pattern::Value;
pub use template::{CardFacts, Template as FormulaTemplate};

use std::path::Path;

use crate::cards::{Game, GAMES};
use crate::diag::{Diagnostic, Report, Span};

/// The folder of a user's strategies, relative to the working directory;
/// a file there takes precedence over the built-in strategy of its name.
pub const SHIPPED_DIR: &str = "strategies";

/// The shipped strategies, built into the binary so that `dealer play` and
/// `dealer tournament` find them from any directory: `(GAME-NAME, text)`.
pub const BUILT_IN: &[(&str, &str)] = &[
    (
        "cabo-paranoid",
        include_str!("../../strategies/cabo-paranoid.strat"),
    ),
    (
        "cabo-psychic",
        include_str!("../../strategies/cabo-psychic.strat"),
    ),
    (
        "cabo-random",
        include_str!("../../strategies/cabo-random.strat"),
    ),
    (
        "cabo-regular",
        include_str!("../../strategies/cabo-regular.strat"),
    ),
    (
        "gofish-careful",
        include_str!("../../strategies/gofish-careful.strat"),
    ),
    (
        "gofish-conceal-late",
        include_str!("../../strategies/gofish-conceal-late.strat"),
    ),
    (
        "gofish-first-order",
        include_str!("../../strategies/gofish-first-order.strat"),
    ),
    (
        "gofish-most-cards",
        include_str!("../../strategies/gofish-most-cards.strat"),
    ),
    (
        "gofish-random",
        include_str!("../../strategies/gofish-random.strat"),
    ),
    (
        "gofish-second-order",
        include_str!("../../strategies/gofish-second-order.strat"),
    ),
    (
        "gofish-second-order-code",
        include_str!("../../strategies/gofish-second-order-code.strat"),
    ),
    (
        "kemps-adaptive",
        include_str!("../../strategies/kemps-adaptive.strat"),
    ),
    (
        "kemps-greedy",
        include_str!("../../strategies/kemps-greedy.strat"),
    ),
    (
        "kemps-kb-blocking",
        include_str!("../../strategies/kemps-kb-blocking.strat"),
    ),
    (
        "kemps-kb-greedy",
        include_str!("../../strategies/kemps-kb-greedy.strat"),
    ),
    (
        "konigrufen-random",
        include_str!("../../strategies/konigrufen-random.strat"),
    ),
    (
        "konigrufen-report",
        include_str!("../../strategies/konigrufen-report.strat"),
    ),
    (
        "kwartet-greedy",
        include_str!("../../strategies/kwartet-greedy.strat"),
    ),
    (
        "kwartet-mixed",
        include_str!("../../strategies/kwartet-mixed.strat"),
    ),
    (
        "kwartet-random",
        include_str!("../../strategies/kwartet-random.strat"),
    ),
    (
        "kwartet-silent",
        include_str!("../../strategies/kwartet-silent.strat"),
    ),
];

/// Reads and parses a strategy file; a refusal is a [`Report`] against
/// the file's text, under its name.
pub fn load(path: &Path) -> Result<Strategy, Report> {
    let (name, src) = crate::interp::read_source(path)?;
    vetted(&name, &src)
}

/// A strategy's text parsed, its game resolved ([`resolve`]) and the
/// lint [`knowledge::trial_games`] run: a strategy that reads what its
/// player does not know is refused, with the rule and the subformula.
/// A refusal is a [`Report`] against `src`, under `name`.
pub fn vetted(name: &str, src: &str) -> Result<Strategy, Report> {
    vetted_checked(name, src).map(|(s, _)| s)
}

/// A strategy file read, parsed and tried, with what the trial checked
/// rule by rule (for `dealer check`).
pub fn load_checked(path: &Path) -> Result<(Strategy, knowledge::Checked), Report> {
    let (name, src) = crate::interp::read_source(path)?;
    vetted_checked(&name, &src)
}

/// [`vetted`], with what the trial checked ([`knowledge::Checked`]).
pub fn vetted_checked(name: &str, src: &str) -> Result<(Strategy, knowledge::Checked), Report> {
    vetted_with(&knowledge::Checks::new(0), name, src)
}

/// [`vetted_checked`], the trial's answer kept in `checks` (a server's,
/// a REPL's) or taken from there.
pub fn vetted_with(
    checks: &knowledge::Checks,
    name: &str,
    src: &str,
) -> Result<(Strategy, knowledge::Checked), Report> {
    vetted_in(GAMES, checks, name, src)
}

/// [`vetted_with`], the strategy's `for GAME` looked up among `games`
/// (a test's own game beside the registry's).
pub fn vetted_in(
    games: &[Game],
    checks: &knowledge::Checks,
    name: &str,
    src: &str,
) -> Result<(Strategy, knowledge::Checked), Report> {
    let located = |d| Report::one(name, src, d);
    let strategy = parse(src).map_err(located)?;
    let game = resolve(&strategy, games, src).map_err(located)?;
    let checked = checks.trial_games(src, &strategy, game).map_err(located)?;
    Ok((strategy, checked))
}

/// The game of a strategy's `for GAME` among `games`, every rule's move
/// checked against that game's moves (an unknown word or a wrong number
/// of arguments is an error at the rule); `src` is the strategy's text,
/// for the header's place.
pub fn resolve(strategy: &Strategy, games: &[Game], src: &str) -> Result<Game, Diagnostic> {
    let Some(game) = games.iter().copied().find(|g| g.name() == strategy.game) else {
        let at = src.find(&format!("for {}", strategy.game)).unwrap_or(0);
        let names: Vec<&str> = games.iter().map(|g| g.name()).collect();
        return Err(Diagnostic::error(
            "strategy-game",
            format!(
                "no game `{}`; the games are: {}",
                strategy.game,
                names.join(", ")
            ),
            Span::new(at, at + 4 + strategy.game.len()),
        ));
    };
    for rule in &strategy.rules {
        pattern::Pattern::new(&rule.template, game, rule)?;
    }
    Ok(game)
}

/// Finds a strategy by name: a path to a `.strat` file, or `NAME` for
/// `GAME-NAME.strat`, looked up first in `dir` (the `--strategies-dir`
/// option; without it, a `strategies/` folder of the working directory)
/// and then among the [`BUILT_IN`] strategies.
pub fn find(dir: Option<&Path>, game: &str, name: &str) -> Result<Strategy, Report> {
    find_with_source(dir, game, name).map(|(strategy, _)| strategy)
}

/// [`find`], its check's answer kept in `checks` (a REPL's).
pub fn find_with(
    checks: &knowledge::Checks,
    dir: Option<&Path>,
    game: &str,
    name: &str,
) -> Result<Strategy, Report> {
    find_source_with(checks, dir, game, name).map(|(strategy, _)| strategy)
}

/// [`find`], with the text the strategy was read from (what a tournament
/// folder's manifest hashes).
pub fn find_with_source(
    dir: Option<&Path>,
    game: &str,
    name: &str,
) -> Result<(Strategy, String), Report> {
    find_source_with(&knowledge::Checks::new(0), dir, game, name)
}

fn find_source_with(
    checks: &knowledge::Checks,
    dir: Option<&Path>,
    game: &str,
    name: &str,
) -> Result<(Strategy, String), Report> {
    let vetted = |name: &str, src: &str| vetted_with(checks, name, src).map(|(s, _)| s);
    let read = |path: &Path| -> Result<(Strategy, String), Report> {
        let (name, src) = crate::interp::read_source(path)?;
        Ok((vetted(&name, &src)?, src))
    };
    let as_path = Path::new(name);
    if as_path.extension().is_some_and(|e| e == "strat") {
        return read(as_path);
    }
    let dir = dir.unwrap_or(Path::new(SHIPPED_DIR));
    let stem = format!("{game}-{name}");
    let file = dir.join(format!("{stem}.strat"));
    if file.exists() {
        return read(&file);
    }
    if let Some((_, src)) = BUILT_IN.iter().find(|(n, _)| *n == stem) {
        return Ok((
            vetted(&format!("(built in) {stem}.strat"), src)?,
            src.to_string(),
        ));
    }
    let known = strategy_names(Some(dir), game);
    Err(Report::from(Diagnostic::unlocated(
        "no-strategy",
        format!(
            "no strategy `{name}` for {game} in {} nor built in; the strategies are: {}",
            dir.display(),
            if known.is_empty() {
                "(none)".to_string()
            } else {
                known.join(", ")
            }
        ),
    )))
}

/// The names of the strategies for `game`, built in or in `dir` (without
/// it, `strategies/` of the working directory), sorted, each once.
pub fn strategy_names(dir: Option<&Path>, game: &str) -> Vec<String> {
    let dir = dir.unwrap_or(Path::new(SHIPPED_DIR));
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
        .chain(
            BUILT_IN
                .iter()
                .filter_map(|(n, _)| n.strip_prefix(&prefix).map(str::to_string)),
        )
        .collect();
    names.sort();
    names.dedup();
    names
}

/// An error located nowhere in particular (for errors from the engine
/// while a strategy runs).
pub(crate) fn error(code: &'static str, message: impl Into<String>) -> Diagnostic {
    Diagnostic::error(code, message, Span::new(0, 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every file of the project's `strategies/` folder is built in, with
    /// the same text, and every built-in strategy parses.
    #[test]
    fn the_strategies_folder_is_built_in() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(SHIPPED_DIR);
        let mut files: Vec<String> = std::fs::read_dir(&dir)
            .expect("the strategies folder")
            .flatten()
            .filter_map(|e| {
                let f = e.file_name().to_string_lossy().to_string();
                f.strip_suffix(".strat").map(str::to_string)
            })
            .collect();
        files.sort();
        let built: Vec<String> = BUILT_IN.iter().map(|(n, _)| n.to_string()).collect();
        assert_eq!(files, built, "add new strategy files to BUILT_IN");
        for (n, src) in BUILT_IN {
            let on_disk = std::fs::read_to_string(dir.join(format!("{n}.strat"))).unwrap();
            assert_eq!(&on_disk, src);
            assert!(parse(src).is_ok(), "{n} does not parse");
        }
    }

    /// A file in the given folder takes precedence over the built-in
    /// strategy of its name; other names still come from the binary.
    #[test]
    fn a_users_file_takes_precedence() {
        let dir = std::env::temp_dir().join(format!("dealer-strat-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mine = "strategy random for gofish\nrule first: ask me _ _\n";
        std::fs::write(dir.join("gofish-first-order.strat"), mine).unwrap();
        let found = find(Some(&dir), "gofish", "first-order").unwrap();
        assert_eq!(found.rules.len(), 1);
        assert_eq!(found.rules[0].name, "first");
        let built = find(Some(&dir), "gofish", "second-order").unwrap();
        assert!(built.rules.len() > 1);
        let err = find(Some(&dir), "gofish", "nobody").unwrap_err();
        assert!(
            err.message().contains("first-order") && err.message().contains("random"),
            "{err}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
