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
//! The one exception is a rule whose move is a `glimpse`, played by a
//! player declared `psychic` (the Cabo-like game's psychic, who looks at
//! cards unnoticed): that rule's guard and score are not checked. Every
//! other rule of the same strategy is checked like any other.
//!
//! The check runs on every instance a game asks. Beside it, the lint
//! [`trial_games`] (run by `dealer check` and before a command seats a
//! strategy, never by parsing) plays a strategy in seeded games so that a
//! rule that reads beyond its player's knowledge is found before a
//! tournament starts; it reports what it checked, rule by rule ([`Checked`]): how
//! many instances were decided by their form, how many by the model, how
//! many were exempt, and which rules were never asked or not tried.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::cards::{Game, Size};
use crate::diag::Diagnostic;
use crate::interp::Options;
use crate::play::Match;

use super::agent::StrategyAgent;
use super::{Rule, Strategy};

/// How one instance of a rule was decided (noted while [`trial_games`] plays).
#[derive(Clone, Copy, Debug)]
pub enum Decided {
    /// The rule's move was among the legal moves and the rule was tried.
    Asked,
    /// A guard or `[φ]` decided by its form ([`unread`]), or a `known`
    /// term (`K_me` by construction).
    BySyntax,
    /// A guard or `[φ]` the model showed the player decides (`Kw_me φ`).
    ByModel,
    /// A `glimpse` rule's guard or `[φ]` of a `psychic` player: not checked.
    Exempt,
}

/// What [`trial_games`] checked of one rule, in the games it played.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RuleCheck {
    /// The moves the rule was tried on.
    pub asked: u64,
    /// Instances decided by their form.
    pub by_syntax: u64,
    /// Instances the model showed decided.
    pub by_model: u64,
    /// Instances exempt (a psychic player's `glimpse`).
    pub exempt: u64,
}

/// What [`trial_games`] did with a strategy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Checked {
    /// It played [`TRIAL_GAMES`] games; one entry per rule, in order.
    Played(Vec<RuleCheck>),
    /// The strategy's game has no referee: it offers no legal moves, so
    /// no command seats the strategy and nothing was tried.
    NoReferee,
}

/// The notes of one [`trial_games`], by rule (its span's start): how its
/// instances were decided, noted by the trial games' agents as they choose.
pub(crate) type Notes = Arc<Mutex<HashMap<usize, RuleCheck>>>;

/// Notes in `notes` (an agent's, when the trial games seated it) how an instance
/// of `rule` was decided.
pub(crate) fn note(notes: Option<&Notes>, rule: &Rule, decided: Decided) {
    let Some(notes) = notes else {
        return;
    };
    let mut notes = notes
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let c = notes.entry(rule.span.start).or_default();
    match decided {
        Decided::Asked => c.asked += 1,
        Decided::BySyntax => c.by_syntax += 1,
        Decided::ByModel => c.by_model += 1,
        Decided::Exempt => c.exempt += 1,
    }
}

/// Whether `rule`'s move is a `glimpse` (the one move whose guard a
/// `psychic` player's strategy may read beyond its knowledge with).
pub fn glimpses(rule: &Rule) -> bool {
    rule.template
        .words
        .first()
        .and_then(super::parse::Word::text)
        == Some("glimpse")
}

pub use crate::interp::decides::unread;

/// The games a strategy is tried on before it is seated ([`trial_games`]).
pub const TRIAL_GAMES: u64 = 2;

/// The most moves of a game [`trial_games`] plays.
const TRIAL_MOVES: usize = 300;

/// Tries a strategy on [`TRIAL_GAMES`] seeded games of its game at the
/// teaching size, the strategy at every seat (without its `glimpse`
/// rules, which are exempt), each to its end or [`TRIAL_MOVES`] moves:
/// every instance of a guard and a score that its rules ask is checked as
/// the module's comment says. The first refusal is returned, located at
/// its rule; otherwise what was checked, rule by rule. A strategy whose
/// game has no referee is not tried ([`Checked::NoReferee`]). A user that
/// seats the same strategies again and again keeps the answers
/// ([`Checks`]).
pub fn trial_games(strategy: &Strategy, game: Game) -> Result<Checked, Diagnostic> {
    if game.referee().is_none() {
        return Ok(Checked::NoReferee);
    }
    let notes = Notes::default();
    (1..=TRIAL_GAMES).try_for_each(|seed| trial_game(strategy, game, seed, &notes))?;
    let notes = notes
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    Ok(Checked::Played(
        strategy
            .rules
            .iter()
            .map(|r| notes.get(&r.span.start).cloned().unwrap_or_default())
            .collect(),
    ))
}

/// The answers of [`trial_games`] kept by the text each strategy was read from,
/// for a user that seats the same strategies again and again (the web
/// server, the REPL): at most its capacity; past it the answers kept are
/// forgotten and the memory starts afresh, so a long-running server does
/// not grow it without bound. Shared between threads (a server's jobs).
#[derive(Debug)]
pub struct Checks {
    answers: Mutex<HashMap<String, Result<Checked, Diagnostic>>>,
    capacity: usize,
}

impl Checks {
    /// Keeps at most `capacity` answers (none when 0).
    pub fn new(capacity: usize) -> Checks {
        Checks {
            answers: Mutex::default(),
            capacity,
        }
    }

    /// How many answers are kept.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether no answer is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// [`trial_games`]'s answer for `strategy` of `game`, read from
    /// `src`: the one kept for that text, else played now (and kept).
    pub fn trial_games(
        &self,
        src: &str,
        strategy: &Strategy,
        game: Game,
    ) -> Result<Checked, Diagnostic> {
        if let Some(answer) = self.lock().get(src) {
            return answer.clone();
        }
        let answer = trial_games(strategy, game);
        if self.capacity > 0 {
            let mut answers = self.lock();
            if answers.len() >= self.capacity {
                answers.clear();
            }
            answers.insert(src.to_string(), answer.clone());
        }
        answer
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Result<Checked, Diagnostic>>> {
        self.answers
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl Default for Checks {
    /// Room for every strategy a server or a REPL seats in practice.
    fn default() -> Checks {
        Checks::new(CHECKS_KEPT)
    }
}

/// The answers a default [`Checks`] keeps.
pub const CHECKS_KEPT: usize = 256;

/// One line per rule: what [`trial_games`] checked of it and how.
pub fn describe(strategy: &Strategy, checks: &[RuleCheck]) -> Vec<String> {
    strategy
        .rules
        .iter()
        .zip(checks)
        .map(|(rule, c)| {
            let reads = rule.guard.is_some()
                || rule
                    .score
                    .iter()
                    .any(|t| matches!(t, super::Term::Holds { .. } | super::Term::Known { .. }));
            let what = if glimpses(rule) {
                "a glimpse, exempt: not checked nor tried (the referee offers it only to a player declared psychic, who may look at any card)".to_string()
            } else if !reads {
                "no guard or score: reads nothing".to_string()
            } else if c.asked == 0 {
                "NOT CHECKED: its move was never among the legal moves of these games".to_string()
            } else if c.by_syntax + c.by_model == 0 {
                "NOT CHECKED: no instance of its guard or score was asked (an earlier rule decided)"
                    .to_string()
            } else {
                format!(
                    "{} instance(s) decided by the player's knowledge: {} by their form, {} by the model (Kw_me)",
                    c.by_syntax + c.by_model,
                    c.by_syntax,
                    c.by_model
                )
            };
            format!("rule {}: {what}", rule.name)
        })
        .collect()
}

fn trial_game(strategy: &Strategy, game: Game, seed: u64, notes: &Notes) -> Result<(), Diagnostic> {
    let refused = |r: crate::diag::Report| super::error("strategy-probe", r.plain());
    let mut game = Match::of(game, seed, Size::Teaching, Options::default()).map_err(refused)?;
    let players = game.playing().table.players.len();
    // A strategy's `glimpse` rules are exempt, and they would make its
    // players psychic, whose glimpses are belief events (a game of them
    // takes tens of seconds at this size): its other rules are tried
    // without them, by players who are not psychic. In a played game
    // every instance is checked again, psychic players' included.
    let mut tried = strategy.clone();
    tried.rules.retain(|r| !glimpses(r));
    let agents = (0..players)
        .map(|_| {
            Box::new(StrategyAgent::noting(tried.clone(), notes.clone()))
                as Box<dyn crate::play::Agent>
        })
        .collect();
    game.seat_agents(agents, None).map_err(refused)?;
    game.set_move_cap(Some(TRIAL_MOVES));
    game.play_agents()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Table;
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

    fn game(s: &Strategy) -> Game {
        crate::cards::game_named(&s.game).unwrap()
    }

    fn read(f: &str) -> Option<String> {
        let t = table();
        let ast = parse_formula(f).unwrap();
        unread(&ast, 0, &t).map(|s| f[s.span.start..s.span.end].to_string())
    }

    /// The checks kept are bounded: past the capacity the memory starts
    /// afresh; an answer is kept by the strategy's text.
    #[test]
    fn the_checks_kept_are_bounded_and_found_by_the_text() {
        let checks = Checks::new(3);
        let mut kept = Vec::new();
        for n in 0..10 {
            let src = format!("strategy f{n} for free\nrule a: any\n");
            let strategy = super::super::parse(&src).unwrap();
            assert!(matches!(
                checks.trial_games(&src, &strategy, game(&strategy)),
                Ok(Checked::NoReferee)
            ));
            kept.push(checks.len());
        }
        assert_eq!(kept, [1, 2, 3, 1, 2, 3, 1, 2, 3, 1]);
        // The last text is answered from memory (the strategy given with it
        // is not probed again: this one, for Go Fish, would be played).
        let src = "strategy f9 for free\nrule a: any\n";
        let gofish = super::super::parse("strategy g for gofish\nrule a: any\n").unwrap();
        assert!(matches!(
            checks.trial_games(src, &gofish, game(&gofish)),
            Ok(Checked::NoReferee)
        ));
        assert!(matches!(
            Checks::new(0).trial_games(src, &gofish, game(&gofish)),
            Ok(Checked::Played(_))
        ));
        // Nothing is kept without room.
        let none = Checks::new(0);
        let free = super::super::parse(src).unwrap();
        let _ = none.trial_games(src, &free, game(&free));
        assert!(none.is_empty());
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
