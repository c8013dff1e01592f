//! Agents: programs that choose a legal move from what their player sees
//! and knows.
//!
//! An agent is given a [`View`]: its player's hand and the locations that
//! player sees, the public record of the moves, the legal moves, and the
//! engine's answers to formulas about the player's own knowledge
//! ([`View::knows`] asks `K_me φ` on the exact model). Strategies written
//! as knowledge-based programs are agents whose guards are such formulas.
//! Every agent draws its random choices from its own generator, seeded by
//! the game's seed and its seat, so the same seed gives the same game.

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use crate::cards::{Game, LocKind, Move, Table};
use crate::diag::{Diagnostic, Span};
use crate::engine::Agent as Player;
use crate::interp::{Playing, Session};

use super::game_loop::{ask, Played};

/// A legal move: the resolved move and its statement.
#[derive(Clone, Debug)]
pub struct Legal {
    /// The move.
    pub mv: Move,
    /// Its statement in scenario syntax (`ask 1 2 Q`).
    pub text: String,
}

/// What an agent's player sees and can ask the engine about. A view reads
/// a session, so it can be made for any session of a game with a referee
/// (a [`Match`](super::Match), or the REPL's session at any point of a file).
pub struct View<'a> {
    session: &'a Session,
    me: Player,
    legal: &'a [Legal],
    history: &'a [Played],
}

impl<'a> View<'a> {
    /// The view of player `me` of a dealt session, given the legal moves
    /// and the moves played so far.
    pub fn new(
        session: &'a Session,
        me: Player,
        legal: &'a [Legal],
        history: &'a [Played],
    ) -> View<'a> {
        View {
            session,
            me,
            legal,
            history,
        }
    }

    fn playing(&self) -> &Playing {
        self.session
            .playing()
            .expect("a view is of a dealt session")
    }

    /// The session the view reads (strategies ask their guards of it).
    pub fn session(&self) -> &'a Session {
        self.session
    }

    /// The player this view belongs to.
    pub fn me(&self) -> Player {
        self.me
    }

    /// Its name as formulas write it (`1`, `Bruno`).
    pub fn me_name(&self) -> &str {
        &self.table().players[self.me]
    }

    /// The game played.
    pub fn game(&self) -> Game {
        self.playing().game
    }

    /// Players, deck and locations.
    pub fn table(&self) -> &Table {
        &self.playing().table
    }

    /// The legal moves, in the referee's order.
    pub fn legal(&self) -> &[Legal] {
        self.legal
    }

    /// The moves played so far (the public record: every move is a public
    /// statement; what a move reveals privately is in the model).
    pub fn history(&self) -> &[Played] {
        self.history
    }

    /// The cards at a location the player sees (its hand, face-up piles),
    /// per kind; `None` for a location it does not see.
    pub fn seen(&self, loc: usize) -> Option<Vec<u32>> {
        let l = &self.table().locations[loc];
        (l.seen_by.contains(&self.me)).then(|| self.playing().position().cards(loc))
    }

    /// The player's hand, per kind.
    pub fn hand(&self) -> Vec<u32> {
        let loc = self.table().hand(self.me);
        self.seen(loc).unwrap_or_default()
    }

    /// How many cards every location holds (public in every game).
    pub fn counts(&self) -> Vec<u32> {
        let pos = self.playing().position();
        (0..self.table().locations.len())
            .map(|l| pos.count(l))
            .collect()
    }

    /// Whether the player knows `formula` (scenario syntax): the engine
    /// evaluates `K_me (formula)` in the actual world of the exact model.
    pub fn knows(&self, formula: &str) -> Result<bool, Diagnostic> {
        Ok(self.knows_all(&[formula.to_string()])?[0])
    }

    /// [`View::knows`] for several formulas at once.
    pub fn knows_all(&self, formulas: &[String]) -> Result<Vec<bool>, Diagnostic> {
        let me = self.me_name();
        let wrapped: Vec<String> = formulas.iter().map(|f| format!("K_{me} ({f})")).collect();
        ask(self.session, &wrapped)
    }

    /// Evaluates formulas as they are written, each of which must be
    /// decided by what the player knows (`interp::decides`, the check
    /// strategies pass): built from the player's own `K_me`, `M_me`,
    /// `Kv_me`, `Kw_me`, `B_me`, its own hand and the public piles, or else
    /// known whether true (`Kw_me φ`) on the model. Any other formula is
    /// refused, naming what it reads that the player does not see.
    pub fn ask_all(&self, formulas: &[String]) -> Result<Vec<bool>, Diagnostic> {
        let me = self.me_name();
        let table = self.table();
        for f in formulas {
            let parsed = crate::syntax::parse_formula(f).map_err(|e| e.to_diagnostic())?;
            let decided = crate::interp::decides::decided(&parsed, self.me, table, |kw| {
                Ok(ask(self.session, &[kw.to_string()])?[0])
            })?;
            if let Err(sub) = decided {
                let read = f.get(sub.span.start..sub.span.end).unwrap_or(f.as_str());
                return Err(Diagnostic::error(
                    "not-own-perspective",
                    format!(
                        "`{f}` reads `{read}`, which player {me} does not know: its answer could differ among the worlds {me} considers possible"
                    ),
                    sub.span,
                )
                .with_help(format!(
                    "ask about what player {me} knows: K_{me} φ, M_{me} φ, Kv_{me} or Kw_{me} φ, its own hand and the public piles"
                )));
            }
        }
        ask(self.session, formulas)
    }

    /// The locations of the table that are other players' hands.
    pub fn opponents(&self) -> Vec<Player> {
        self.table()
            .locations
            .iter()
            .filter_map(|l| match l.kind {
                LocKind::Hand(p) if p != self.me => Some(p),
                _ => None,
            })
            .collect()
    }
}

/// A program that plays a seat.
pub trait Agent {
    /// The agent's name as `--agents` takes it (`random`).
    fn name(&self) -> &str;

    /// Chooses one of `view.legal()` (its index), drawing any random choice
    /// from `rng`. The game is never over when an agent is asked.
    fn choose(&mut self, view: &View<'_>, rng: &mut ChaCha8Rng) -> Result<usize, Diagnostic>;

    /// Whether the agent's player must be declared `psychic` (it glimpses).
    fn psychic(&self) -> bool {
        false
    }

    /// How many of its moves each of its rules chose, by rule name (a
    /// strategy's agent; a move that was the only legal one, or chosen
    /// at random because no rule applied, is no rule's); `None` for an
    /// agent without rules.
    fn rules_fired(&self) -> Option<std::collections::BTreeMap<String, u64>> {
        None
    }
}

/// Chooses uniformly among the legal moves; knows nothing, asks nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomAgent;

impl Agent for RandomAgent {
    fn name(&self) -> &str {
        "random"
    }

    fn choose(&mut self, view: &View<'_>, rng: &mut ChaCha8Rng) -> Result<usize, Diagnostic> {
        match view.legal().len() {
            0 => Err(Diagnostic::error(
                "no-legal-move",
                "there is no legal move to choose from",
                Span::new(0, 0),
            )),
            n => Ok(rng.random_range(0..n)),
        }
    }
}

/// The agents `--agents` accepts, with what each does.
pub const AGENTS: &[(&str, &str)] = &[("random", "a uniformly random legal move")];

/// The agent a name stands for.
pub fn agent_named(name: &str) -> Option<Box<dyn Agent>> {
    match name {
        "random" => Some(Box::new(RandomAgent)),
        _ => None,
    }
}
