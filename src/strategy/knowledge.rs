//! A strategy knows only what its player knows: every guard and every `[φ]`
//! of a score must be decided by its player's knowledge, the same in every
//! world the player considers possible.
//!
//! The check runs on every instance a rule asks (the variables bound, the
//! quantifiers expanded), first by syntax: a formula built with `&`, `|`,
//! `!`, `->`, `<->` from `K_me φ`, `Kw_me φ`, `M_me φ`, `B_me φ`, `Kv_me`,
//! `true`, `false` and the atoms of locations the player sees (its own
//! hand, the public piles) is decided. Where the syntax does not suffice
//! (a game's atom such as Königrufen's `highest(me)`, a count the player
//! can work out), the model decides: the instance must satisfy `Kw_me φ` in
//! the actual world. A rule that reads a fact outside its player's
//! knowledge is refused with the rule's line and the subformula it read.
//!
//! A player declared `psychic` (the Cabo-like game's psychic, whose
//! strategy glimpses) is the exception: its strategy is not checked.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use crate::cards::{game_named, Size, Table};
use crate::diag::Diagnostic;
use crate::interp::Options;
use crate::play::Match;
use crate::syntax::ast::{Formula, FormulaKind};

use super::agent::StrategyAgent;
use super::Strategy;

/// The first subformula of `f` that player `me` does not decide by
/// syntax alone (see the module's comment); `None` when `f` is decided.
pub fn unread<'a>(f: &'a Formula, me: usize, table: &Table) -> Option<&'a Formula> {
    let mine = |name: &str| table.find_player(name) == Some(me);
    match &f.kind {
        FormulaKind::True | FormulaKind::False => None,
        FormulaKind::Named { name, .. } => {
            let seen = table
                .find_location(&name.text)
                .is_some_and(|l| table.locations[l].seen_by.contains(&me));
            (!seen).then_some(f)
        }
        FormulaKind::HoldsSeq { player, .. } => (!mine(&player.text)).then_some(f),
        FormulaKind::Not(a) => unread(a, me, table),
        FormulaKind::And(a, b)
        | FormulaKind::Or(a, b)
        | FormulaKind::Implies(a, b)
        | FormulaKind::Iff(a, b) => unread(a, me, table).or_else(|| unread(b, me, table)),
        FormulaKind::K(who, _)
        | FormulaKind::B(who, _)
        | FormulaKind::M(who, _)
        | FormulaKind::Kw(who, _) => (!mine(&who.text)).then_some(f),
        FormulaKind::Kv(who, _) | FormulaKind::KvTerms(who, _) => (!mine(&who.text)).then_some(f),
        _ => Some(f),
    }
}

/// The games a strategy is tried on before it is seated ([`probe`]).
pub const PROBE_GAMES: u64 = 2;

/// The most moves of a game [`probe`] plays.
const PROBE_MOVES: usize = 300;

/// Tries a strategy on [`PROBE_GAMES`] seeded games of its game at the
/// teaching size, the strategy at every seat, each to its end or
/// [`PROBE_MOVES`] moves (a strategy that glimpses plays a `psychic`
/// player and is not tried): every instance of
/// a guard and a score that its rules ask is checked as the module's
/// comment says. The first refusal is returned, located at its rule. A
/// strategy whose game has no referee is not tried. The answer for a
/// strategy is kept for the process: commands and the web page seat the
/// same strategies again and again.
pub fn probe(strategy: &Strategy) -> Result<(), Diagnostic> {
    static SEEN: OnceLock<Mutex<HashMap<String, Result<(), Diagnostic>>>> = OnceLock::new();
    let key = format!("{strategy:?}");
    let seen = SEEN.get_or_init(Mutex::default);
    if let Some(answer) = seen.lock().expect("probe cache").get(&key) {
        return answer.clone();
    }
    // A psychic player's strategy is not checked: nothing to try.
    let answer = if strategy.psychic() {
        Ok(())
    } else {
        (1..=PROBE_GAMES).try_for_each(|seed| probe_game(strategy, seed))
    };
    seen.lock()
        .expect("probe cache")
        .insert(key, answer.clone());
    answer
}

fn probe_game(strategy: &Strategy, seed: u64) -> Result<(), Diagnostic> {
    if game_named(&strategy.game)
        .and_then(|g| g.referee())
        .is_none()
    {
        return Ok(());
    }
    let refused = |m: String| super::error("strategy-probe", m);
    let mut game =
        Match::new(&strategy.game, seed, Size::Teaching, Options::default()).map_err(refused)?;
    let players = game.playing().table.players.len();
    let agents = (0..players)
        .map(|_| Box::new(StrategyAgent::new(strategy.clone())) as Box<dyn crate::play::Agent>)
        .collect();
    game.seat_agents(agents, None).map_err(refused)?;
    game.set_move_cap(Some(PROBE_MOVES));
    game.play_agents()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Span;
    use crate::syntax::parse_formula;

    fn table() -> Table {
        let mut session = crate::interp::Session::new(crate::interp::Options::default());
        let src = "game gofish\nplayers 1 2 3\ndeck A*4 K*4 Q*4\ndeal 1: A K Q | 2: A K | 3: Q Q\n";
        let scenario = crate::syntax::parse(src).unwrap();
        for s in &scenario.statements {
            session.execute(s, src).unwrap();
        }
        session.finish(Span::new(0, 0)).unwrap();
        session.playing().unwrap().table.clone()
    }

    fn read(f: &str) -> Option<String> {
        let t = table();
        let ast = parse_formula(f).unwrap();
        unread(&ast, 0, &t).map(|s| f[s.span.start..s.span.end].to_string())
    }

    #[test]
    fn own_hand_public_piles_and_own_knowledge_are_decided() {
        assert_eq!(read("hand_1(Q) & K_1 hand_2(K) | Kw_1 stock(A) = 0"), None);
        assert_eq!(read("!M_1 hand_3(Q) -> books_2(A) >= 1"), None);
        assert_eq!(read("K_1 E{2,3} hand_1(Q)"), None);
    }

    #[test]
    fn another_hand_the_stock_and_others_knowledge_are_not() {
        assert_eq!(read("hand_1(Q) & hand_2(K)").as_deref(), Some("hand_2(K)"));
        assert_eq!(read("stock(A) = 0").as_deref(), Some("stock(A) = 0"));
        assert_eq!(read("K_2 hand_1(Q)").as_deref(), Some("K_2 hand_1(Q)"));
        assert_eq!(
            read("E{2,3} hand_1(Q)").as_deref(),
            Some("E{2,3} hand_1(Q)")
        );
    }
}
