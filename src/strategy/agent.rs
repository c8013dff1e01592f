//! A strategy as a [`play`](crate::play) agent: the thin adapter that lets
//! `dealer play GAME --agents first-order,random` seat a strategy.

use std::collections::BTreeMap;
use std::path::Path;

use rand_chacha::ChaCha8Rng;

use crate::diag::{Diagnostic, Report};
use crate::play::{Agent, View};

use super::knowledge::{Checks, Notes};
use super::{find_with, Oracle, Seated, Strategy};

/// A seat played by a strategy.
pub struct StrategyAgent {
    strategy: Strategy,
    /// The strategy seated, from the first move it chooses (a game's
    /// table and seat do not change).
    seated: Option<Seated>,
    /// Where the trial games note how each instance was decided.
    notes: Option<Notes>,
    /// The moves chosen so far by a rule whose guard is about knowledge
    /// ([`super::Decision::knowing`]).
    knowing: usize,
    /// How many moves each rule chose so far, by rule name.
    fired: BTreeMap<String, u64>,
}

impl StrategyAgent {
    /// The agent of a strategy.
    pub fn new(strategy: Strategy) -> StrategyAgent {
        StrategyAgent {
            strategy,
            seated: None,
            notes: None,
            knowing: 0,
            fired: BTreeMap::new(),
        }
    }

    /// The agent of a strategy under [`super::knowledge::trial_games`], noting
    /// in `notes` how each instance of its rules was decided.
    pub(crate) fn noting(strategy: Strategy, notes: Notes) -> StrategyAgent {
        StrategyAgent {
            notes: Some(notes),
            ..StrategyAgent::new(strategy)
        }
    }
}

/// The agent of strategy `name` (a `.strat` path, or a name looked up in
/// `dir`, by default `strategies/`, and then among the built-in ones) for
/// `game`.
pub fn named(dir: Option<&Path>, game: &str, name: &str) -> Result<Box<dyn Agent>, Report> {
    named_with(&Checks::new(0), dir, game, name)
}

/// [`named`], its check's answer kept in `checks` (a command's, for a
/// strategy at several seats).
pub fn named_with(
    checks: &Checks,
    dir: Option<&Path>,
    game: &str,
    name: &str,
) -> Result<Box<dyn Agent>, Report> {
    let strategy = find_with(checks, dir, game, name)?;
    Ok(Box::new(StrategyAgent::new(strategy)))
}

/// The agent of built-in strategy `name` for `game` (one of
/// [`super::BUILT_IN`], never a file: for front ends that must not read
/// files a user names, such as the web page).
pub fn built_in(game: &str, name: &str) -> Result<Box<dyn Agent>, Report> {
    built_in_with(&Checks::new(0), game, name)
}

/// [`built_in`], its check's answer kept in `checks` (a server's).
pub fn built_in_with(checks: &Checks, game: &str, name: &str) -> Result<Box<dyn Agent>, Report> {
    let stem = format!("{game}-{name}");
    let Some((_, src)) = super::BUILT_IN.iter().find(|(n, _)| *n == stem) else {
        let prefix = format!("{game}-");
        let known: Vec<&str> = super::BUILT_IN
            .iter()
            .filter_map(|(n, _)| n.strip_prefix(&prefix))
            .collect();
        return Err(Report::from(Diagnostic::unlocated(
            "no-agent",
            format!(
                "no agent `{name}` for {game}; the agents are: random, {}",
                known.join(", ")
            ),
        )));
    };
    let (strategy, _) = super::vetted_with(checks, &format!("(built in) {stem}.strat"), src)?;
    Ok(Box::new(StrategyAgent::new(strategy)))
}

impl Agent for StrategyAgent {
    fn name(&self) -> &str {
        &self.strategy.name
    }

    fn psychic(&self) -> bool {
        self.strategy.psychic()
    }

    fn rules_fired(&self) -> Option<BTreeMap<String, u64>> {
        Some(self.fired.clone())
    }

    fn choose(&mut self, view: &View<'_>, rng: &mut ChaCha8Rng) -> Result<usize, Diagnostic> {
        let mut session = view.session().clone();
        self.choose_asking(view, &mut session, rng)
    }
}

impl StrategyAgent {
    /// The strategy's choice in `view`, its guards and scores asked of
    /// `oracle` (the session, or one that also times its answers).
    pub fn choose_asking(
        &mut self,
        view: &View<'_>,
        oracle: &mut dyn Oracle,
        rng: &mut ChaCha8Rng,
    ) -> Result<usize, Diagnostic> {
        let stale = self.seated.as_ref().is_none_or(|s| s.me() != view.me());
        if stale {
            let seated = Seated::new(&self.strategy, view.game(), view.table(), view.me())?;
            self.seated = Some(seated.noting(self.notes.clone()));
        }
        let seated = self.seated.as_ref().expect("seated above");
        let decision = seated.choose(oracle, view.legal(), rng)?;
        self.knowing += usize::from(decision.knowing);
        if let Some(rule) = decision.rule {
            *self.fired.entry(rule).or_default() += 1;
        }
        Ok(decision.index)
    }

    /// How many of the moves this agent chose were chosen by a rule whose
    /// guard is about knowledge ([`super::Decision::knowing`]).
    pub fn knowing_moves(&self) -> usize {
        self.knowing
    }
}
