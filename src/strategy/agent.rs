//! A strategy as a [`play`](crate::play) agent: the thin adapter that lets
//! `dealer play GAME --agents first-order,random` seat a strategy.

use std::path::Path;

use rand_chacha::ChaCha8Rng;

use crate::diag::Diagnostic;
use crate::play::{Agent, View};

use super::{choose, find, Strategy, SHIPPED_DIR};

/// A seat played by a strategy.
pub struct StrategyAgent {
    strategy: Strategy,
}

impl StrategyAgent {
    /// The agent of a strategy.
    pub fn new(strategy: Strategy) -> StrategyAgent {
        StrategyAgent { strategy }
    }
}

/// The agent of strategy `name` (a shipped name or a `.strat` path) for `game`.
pub fn named(game: &str, name: &str) -> Result<Box<dyn Agent>, String> {
    let strategy = find(Path::new(SHIPPED_DIR), game, name)?;
    Ok(Box::new(StrategyAgent::new(strategy)))
}

impl Agent for StrategyAgent {
    fn name(&self) -> &str {
        &self.strategy.name
    }

    fn choose(&mut self, view: &View<'_>, rng: &mut ChaCha8Rng) -> Result<usize, Diagnostic> {
        let legal: Vec<String> = view.legal().iter().map(|l| l.text.clone()).collect();
        let mut session = view.session().clone();
        let table = view.table().clone();
        let d = choose(&self.strategy, &mut session, &table, view.me(), &legal, rng)?;
        Ok(d.index)
    }
}
