//! A scenario session: executes statements one at a time, keeping the
//! declarations, the current model and the game state.
//!
//! Every statement either succeeds or leaves the session exactly as it was:
//! a move computes the new model and game state aside and commits them only
//! when the rules and the engine accept it.

use std::collections::HashMap;
use std::rc::Rc;

use crate::cards::game::{free, game_names};
use crate::cards::rules::describe_player;
use crate::cards::{Game, GameState, Move, Position, Table};
use crate::diag::{Diagnostic, Span};
use crate::engine::{
    Backend, BddBudget, ExplicitModel, Formula, SymbolicLimits, SymbolicModel, WorldId,
};
use crate::figure::Figure;
use crate::syntax::ast::{self, CmpOp, Expectation, Name, Statement, StatementKind};

use super::errors;
use super::explain::{self, Why};
use super::question::{self, Answer, Asked, Verdict};

/// The most operators a `let` name may stand for (names are replaced by
/// their formulas, so each `let` may double the size). A million: the
/// dining cryptographers' "nobody knows who paid" with 200 diners is
/// 160,000.
pub const MAX_LET_SIZE: usize = 1_000_000;
/// The deepest nesting a `let` name may stand for (the parser allows 200
/// levels in one formula; names used inside names add up).
pub const MAX_LET_DEPTH: usize = 1_000;
use super::explicit::{self, EventTable};
use super::per_card::{self, PerCard};
use super::resolve::{Macro, Scope};
use super::setup::Setup;

/// Which engine holds the models of a session.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Engine {
    /// Kripke models with every world written out (`ExplicitModel`).
    Explicit,
    /// Knowledge structures on BDDs (`SymbolicModel`).
    Symbolic,
    /// Explicit when the deal's exact world count is within the budget
    /// (`max_worlds`), symbolic above it.
    #[default]
    Auto,
}

/// The most players a scenario may declare (`dealer gen muddy 500`, the
/// largest shipped benchmark, has 500): more are refused at `players`.
pub const MAX_PLAYERS: usize = 1000;

/// The default world budget of the explicit engine (`--max-worlds`).
pub const DEFAULT_MAX_WORLDS: u128 = 10_000_000;

/// Options of a session.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// The largest model the explicit engine may build.
    pub max_worlds: u128,
    /// Resolve names and build the deal; play no move and answer no query.
    pub check_only: bool,
    /// Which engine holds the models.
    pub engine: Engine,
    /// How much memory each symbolic model's BDD manager may take.
    pub bdd_budget: BddBudget,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            max_worlds: DEFAULT_MAX_WORLDS,
            check_only: false,
            engine: Engine::Auto,
            bdd_budget: BddBudget::Game,
        }
    }
}

impl From<Engine> for Options {
    /// The default options with `engine`.
    fn from(engine: Engine) -> Options {
        Options {
            engine,
            ..Options::default()
        }
    }
}

/// What a statement produced, for a front end to show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Output {
    /// `? φ`: the formula as written and its value in the actual world.
    Answer {
        /// The query as written.
        source: String,
        /// Its value.
        value: bool,
    },
    /// `?? φ`: whether the formula is valid in the current model.
    Valid {
        /// The query as written.
        source: String,
        /// Whether it holds in every world.
        value: bool,
    },
    /// `expect ...`: whether it held, and what was found when it did not.
    Expect {
        /// The expectation as written.
        source: String,
        /// Where it is.
        span: Span,
        /// Whether it held.
        held: bool,
        /// What was found.
        detail: String,
    },
    /// A move was played; what the rules did on their own.
    Moved {
        /// The move as written.
        source: String,
        /// Books laid down, turns passed, answers given.
        notes: Vec<String>,
    },
    /// `question ...`: the question and its answer in the actual world.
    Question {
        /// The statement as written.
        source: String,
        /// Where it is.
        span: Span,
        /// The question, in words, and its answer.
        asked: Asked,
    },
    /// `checkpoint "name"`
    Checkpoint(String),
    /// Lines of an explanation, a world list or statistics.
    Lines(Vec<String>),
    /// `export "FILE"`: a figure for the front end to render and write.
    Figure {
        /// The file, as written.
        path: String,
        /// The statement.
        span: Span,
        /// What to draw.
        figure: Figure,
    },
}

/// The table, model and game once the cards are dealt.
#[derive(Clone)]
pub struct Playing {
    /// Players, deck and locations.
    pub table: Table,
    /// The game's rules.
    pub game: Game,
    /// The current model.
    pub model: Rc<dyn Backend>,
    /// Turn, due draws, stock order.
    pub state: GameState,
    /// Declared propositions.
    pub props: Vec<String>,
    /// The names of the worlds as written in a `model { }` block (`w0=w2`
    /// for a world that stands for two bisimilar written worlds), until the
    /// first move; `None` for deals and after a move (worlds are then `w3`,
    /// by their number in the model).
    pub names: Option<Rc<WorldNames>>,
}

/// The written names of a model's worlds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorldNames {
    /// Each world's name.
    pub names: Vec<String>,
    /// The worlds in the order their first name was written (how `worlds`
    /// lists them, the same on both engines).
    pub order: Vec<WorldId>,
}

impl Playing {
    /// The world names `worlds` and `why` print, if the worlds have written names.
    pub fn world_names(&self) -> Option<&WorldNames> {
        self.names.as_deref()
    }

    /// World `w`'s name, as `worlds`, `why` and the figures give it.
    pub fn world_name(&self, w: WorldId) -> String {
        super::explain::world_name(
            &self.table,
            &self.props,
            self.world_names(),
            &*self.model,
            w,
        )
    }
}

impl Playing {
    /// What a game's referee reads: the table, the model and the game state.
    pub fn position(&self) -> Position<'_> {
        Position {
            table: &self.table,
            model: &self.model,
            state: &self.state,
        }
    }
}

/// The whole model: every world of the first model (as written, for a
/// `model { }` block), with the announcements made since, so that counts
/// and lists can take in the worlds no longer reachable from the actual
/// one (`expect all worlds = 3`, `worlds all where φ`).
#[derive(Clone)]
struct Whole {
    /// The first model.
    model: FirstModel,
    /// Its worlds' written names.
    names: Option<Rc<WorldNames>>,
    /// The announcements made since, in order.
    announced: Vec<Formula>,
    /// The first move that was not a public announcement: after it, the
    /// whole model is not kept.
    broken_by: Option<String>,
    /// Whether the scenario's variables had too many assignments to list:
    /// then the model is a structure whose worlds are those reachable from
    /// the actual one, and no whole model is kept.
    unlisted: bool,
}

/// The first model of a session: built, or a deal built when first
/// needed (a deal whose first statement is an announcement that
/// restricts what piles hold starts from the restricted deal, see
/// [`Session::start_restricted`]; the deal itself is needed only to count
/// or list the whole model).
#[derive(Clone)]
enum FirstModel {
    /// The model.
    Built(Rc<dyn Backend>),
    /// The deal of `setup`, by `engine` within `budget` worlds, built once.
    Deal(Rc<LaterDeal>),
}

/// A deal whose model is built when first needed.
struct LaterDeal {
    setup: Setup,
    options: Options,
    model: std::cell::OnceCell<Rc<dyn Backend>>,
}

impl FirstModel {
    /// The model, built now if not yet (errors located at `span`).
    fn get(&self, span: Span) -> Result<Rc<dyn Backend>, Diagnostic> {
        match self {
            FirstModel::Built(m) => Ok(m.clone()),
            FirstModel::Deal(later) => {
                if let Some(m) = later.model.get() {
                    return Ok(m.clone());
                }
                let out = later.setup.start(span, &later.options)?.opening(span)?;
                Ok(later.model.get_or_init(|| out.model).clone())
            }
        }
    }
}

impl Whole {
    /// φ after the announcements: true at a world of the first model when
    /// the world survives every announcement and φ holds there afterwards.
    fn after_announcements(&self, phi: Formula) -> Formula {
        self.announced.iter().rev().fold(phi, |acc, a| {
            Formula::AnnounceDiamond(Box::new(a.clone()), Box::new(acc))
        })
    }
}

/// A scenario session.
#[derive(Clone, Default)]
pub struct Session {
    options: Options,
    setup: Setup,
    play: Option<Playing>,
    lets: HashMap<String, Formula>,
    macros: HashMap<String, Macro>,
    events: EventTable,
    whole: Option<Whole>,
    checkpoints: Vec<String>,
    figure_limit: Option<usize>,
    /// Whether an `export` of a model too large to draw draws a per-card
    /// projection instead of failing ([`crate::figure::View::fit`]).
    figure_fit: bool,
    /// The card kinds the last move is about: named in it, or moved by it.
    move_cards: Vec<crate::engine::Kind>,
}

impl Session {
    /// A new session.
    pub fn new(options: Options) -> Session {
        Session {
            options,
            ..Session::default()
        }
    }

    /// A new session whose `game NAME` also knows `games` (games defined
    /// outside dealer's list [`GAMES`](crate::cards::GAMES), such as a
    /// test's own game), before the listed ones.
    pub fn with_games(options: Options, games: &[Game]) -> Session {
        let mut session = Session::new(options);
        session.setup.games = games.to_vec();
        session
    }

    /// The limits of the symbolic models this session builds (its
    /// options' BDD budget).
    fn limits(&self) -> SymbolicLimits {
        SymbolicLimits::for_budget(self.options.bdd_budget)
    }

    /// The table, model and game state, once the cards are dealt.
    pub fn playing(&self) -> Option<&Playing> {
        self.play.as_ref()
    }

    /// The names given with `let`, sorted.
    pub fn let_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.lets.keys().cloned().collect();
        names.sort();
        names
    }

    /// Sets the most nodes an `export` draws (default [`crate::figure::DEFAULT_MAX_NODES`]).
    pub fn set_figure_limit(&mut self, limit: usize) {
        self.figure_limit = Some(limit);
    }

    /// Lets an `export` without `for` or `all` of a model too large to
    /// draw draw the per-card projection of a card the last move is about
    /// ([`crate::figure::View::fit`]), as `dealer export` and the lecture
    /// view do; off by default (a scenario's `export` then fails).
    pub fn set_figure_fit(&mut self, on: bool) {
        self.figure_fit = on;
    }

    /// The card kinds the last move is about (named in it, or moved by it).
    pub fn move_cards(&self) -> &[crate::engine::Kind] {
        &self.move_cards
    }

    /// The declared variables: each name, its smallest and largest value,
    /// and the players who observe it directly (`P observes x`).
    pub fn variables(&self) -> Vec<(String, u64, u64, Vec<crate::engine::Agent>)> {
        let players = self.play.as_ref().map_or(&[][..], |p| &p.table.players[..]);
        self.setup
            .vars
            .iter()
            .map(|v| {
                let seen = self
                    .setup
                    .observes
                    .iter()
                    .filter(|(_, terms)| {
                        terms
                            .iter()
                            .any(|t| matches!(t, ast::Term::Name(n) if n.text == v.name.text))
                    })
                    .filter_map(|(p, _)| players.iter().position(|q| *q == p.text))
                    .collect();
                (v.name.text.to_string(), v.lo, v.hi, seen)
            })
            .collect()
    }

    /// The checkpoints passed so far.
    pub fn checkpoints(&self) -> &[String] {
        &self.checkpoints
    }

    /// Whether a formula holds in the actual world of the current model:
    /// the answer of `? φ`, without an output or a change to the session
    /// (strategies ask their guards this way).
    pub fn holds(&self, f: &ast::Formula) -> Result<bool, Diagnostic> {
        let phi = self.formula(f)?;
        let play = self.play.as_ref().expect("a resolved formula has a deal");
        eval(&*play.model, &phi, false, f.span)
    }

    /// A written formula resolved against the current deal (names, `let`s,
    /// events): the engine formula `? φ` would evaluate.
    pub fn formula(&self, f: &ast::Formula) -> Result<Formula, Diagnostic> {
        let play = self
            .play
            .as_ref()
            .ok_or_else(|| Diagnostic::error("not-dealt", "no cards are dealt yet", f.span))?;
        let scope = Scope {
            table: &play.table,
            game: play.game,
            state: &play.state,
            props: &play.props,
            lets: &self.lets,
            events: &self.events,
            macros: &self.macros,
            expanding: Default::default(),
            patterns: Default::default(),
        };
        scope.formula(f)
    }

    /// Executes one statement of `src`. On error the session is unchanged.
    pub fn execute(&mut self, stmt: &Statement, src: &str) -> Result<Vec<Output>, Diagnostic> {
        if let Some(result) = self.declare(stmt) {
            return result.map(|_| Vec::new());
        }
        if let StatementKind::Move(ast::Move {
            kind: ast::MoveKind::Game { word, args },
            ..
        }) = &stmt.kind
        {
            // A word the game does not know is refused before any deal.
            let game = self
                .play
                .as_ref()
                .map_or_else(|| self.setup.current_game(), |p| p.game);
            crate::cards::game::known_move(game, word, args)?;
        }
        if let (StatementKind::Model(def), None) = (&stmt.kind, &self.play) {
            return self.explicit_model(def).map(|_| Vec::new());
        }
        let fresh = self.play.is_none();
        if fresh {
            if let Some(result) = self.start_restricted(stmt, src) {
                return Ok(result);
            }
        }
        let result = self.start(stmt.span).and_then(|_| self.run(stmt, src));
        if result.is_err() && fresh {
            self.play = None;
        }
        result
    }

    /// Sets the table from a typed deal (a referee's seeded deal, or one
    /// of a test's own): the game (one this session knows, [`GAMES`] or
    /// those given to [`Session::with_games`]), the players, the game's
    /// declarations, the deck, `uncounted`, the cards at each place and
    /// the stock, then the opening moves, each played as a resolved move.
    /// Nothing is printed or parsed: the session ends exactly as the
    /// deal's text ([`Deal::to_text`]) executed statement by statement
    /// leaves it. Only a fresh session is dealt; on error the session is
    /// as it was.
    ///
    /// [`GAMES`]: crate::cards::GAMES
    /// [`Deal::to_text`]: crate::cards::Deal::to_text
    pub fn deal(&mut self, deal: &crate::cards::Deal) -> Result<Vec<Output>, Diagnostic> {
        let at = Span::new(0, 0);
        if self.play.is_some() || self.setup.players.is_some() || self.setup.deck.is_some() {
            return Err(Diagnostic::error(
                "already-dealt",
                "this session's table is already set",
                at,
            )
            .with_help("deal a game into a new session"));
        }
        let before = self.clone();
        let result = self.deal_fresh(deal, at);
        if result.is_err() {
            *self = before;
        }
        result
    }

    /// [`Session::deal`] on a fresh session (left half-dealt on error).
    fn deal_fresh(
        &mut self,
        deal: &crate::cards::Deal,
        at: Span,
    ) -> Result<Vec<Output>, Diagnostic> {
        let name = |text: &str| Name {
            text: text.into(),
            span: at,
        };
        let mut kinds = vec![
            StatementKind::Game(name(&deal.game)),
            StatementKind::Players(deal.players.iter().map(|p| name(p)).collect()),
        ];
        if deal.uncounted {
            kinds.push(StatementKind::Uncounted);
        }
        if !deal.parts.is_empty() {
            kinds.push(StatementKind::Deal(
                deal.parts
                    .iter()
                    .map(|(place, cards)| ast::DealPart {
                        location: name(place),
                        cards: cards.iter().map(|c| name(c)).collect(),
                    })
                    .collect(),
            ));
        }
        if !deal.stock.is_empty() {
            kinds.push(StatementKind::Stock(
                deal.stock.iter().map(|c| name(c)).collect(),
            ));
        }
        for kind in &kinds {
            declare_into(&mut self.setup, kind, at)?;
            if matches!(kind, StatementKind::Players(_)) {
                for d in &deal.declarations {
                    let args = d.seats.iter().map(|&s| name(&deal.players[s])).collect();
                    self.declare_for_game(name(&d.word), args, at)?;
                }
                if !deal.deck.kinds.is_empty() {
                    self.setup.deck = Some((deal.deck.clone(), at));
                }
            }
        }
        self.finish(at)?;
        let mut outputs = Vec::new();
        for opening in &deal.opening {
            let play = self.play.as_ref().ok_or_else(|| {
                Diagnostic::error("not-dealt", "the deal has no players or no deck", at)
            })?;
            let mv = match opening {
                crate::cards::Opening::Peek { player, place } => Move::Peek {
                    player: play
                        .table
                        .player(&name(deal.players.get(*player).map_or("", String::as_str)))?,
                    slot: play.table.slot(&name(place))?,
                },
            };
            let text = crate::cards::referee::move_text(&play.table, &mv);
            outputs.extend(self.apply(&mv, &text)?);
        }
        Ok(outputs)
    }

    /// Ends a scenario: deals the cards if no statement did, so that a
    /// scenario of declarations alone still has its deal checked.
    pub fn finish(&mut self, at: Span) -> Result<(), Diagnostic> {
        if self.play.is_some() || (self.setup.players.is_none() && self.setup.deck.is_none()) {
            return Ok(());
        }
        self.start(at)
    }

    /// Handles a setup statement; `None` when `stmt` is not one.
    fn declare(&mut self, stmt: &Statement) -> Option<Result<(), Diagnostic>> {
        if let Some((word, args)) = self.game_declaration(stmt) {
            return Some(self.declare_for_game(word, args, stmt.span));
        }
        let kind = &stmt.kind;
        let is_setup = kind.sets_table();
        if !is_setup {
            return None;
        }
        if self.play.is_some() {
            return Some(Err(after_start(stmt.span)));
        }
        let mut setup = self.setup.clone();
        let result = declare_into(&mut setup, kind, stmt.span);
        if result.is_ok() {
            self.setup = setup;
        }
        Some(result)
    }

    /// A declaration of the game (`psychic P...` of the Cabo-like game):
    /// a game's word in the generic form that the game declares; its word
    /// and arguments.
    fn game_declaration(&self, stmt: &Statement) -> Option<(Name, Vec<Name>)> {
        let StatementKind::Move(ast::Move {
            kind: ast::MoveKind::Game { word, args },
            ..
        }) = &stmt.kind
        else {
            return None;
        };
        let game = self
            .play
            .as_ref()
            .map_or_else(|| self.setup.current_game(), |p| p.game);
        crate::cards::game::declares(game, &word.text).then(|| (word.clone(), args.clone()))
    }

    /// Records a declaration of the game, before the deal's first move:
    /// the game of the scenario so far must have it; the game reads its
    /// arguments when the table is built.
    fn declare_for_game(
        &mut self,
        word: Name,
        args: Vec<Name>,
        span: Span,
    ) -> Result<(), Diagnostic> {
        if self.play.is_some() {
            return Err(after_start(span));
        }
        crate::cards::game::known_declaration(self.setup.current_game(), &word, &args)?;
        self.setup.declarations.push((word, args));
        Ok(())
    }

    /// Deals the cards (builds the table, the model and the game state) if not yet done.
    fn start(&mut self, at: Span) -> Result<(), Diagnostic> {
        if self.play.is_some() {
            return Ok(());
        }
        if let Some(vars_at) = self.setup.vars_at {
            return self.variables_start(vars_at);
        }
        let started = self.setup.start(at, &self.options)?;
        let out = started.opening(self.setup.deal_at.unwrap_or(at))?;
        self.whole = Some(Whole {
            model: FirstModel::Built(out.model.clone()),
            names: None,
            announced: Vec::new(),
            broken_by: None,
            unlisted: false,
        });
        self.play = Some(Playing {
            table: started.table.clone(),
            game: started.game,
            model: out.model,
            state: out.state,
            props: started.props,
            names: None,
        });
        Ok(())
    }

    /// Runs `stmt` as the first statement of a deal, from a smaller
    /// model, when it is a public announcement without knowledge in it
    /// that restricts what some location can hold
    /// (`announce (pay1(P) | pay1(N)) & ...`, the rules
    /// of the dining cryptographers announced instead of written with
    /// `holds`) and the deal would be symbolic: the model is the deal
    /// with those restrictions ([`crate::engine::deal::implied_only`]),
    /// on which the announcement then removes the same worlds it removes
    /// from the deal itself, so the model after it is the same, without
    /// the deal's law over every card a pile could hold. Only in the free
    /// game (whose deal starts no move). The deal itself stays the first
    /// model of `all` counts, built when one asks. `None` (the session
    /// untouched) when this does not apply or the statement fails: it is
    /// then run as usual, with the usual answer. A checking pass
    /// (`check_only`) starts the same way, so that `dealer check` does
    /// not build the deal's law either (it reads no model).
    fn start_restricted(&mut self, stmt: &Statement, src: &str) -> Option<Vec<Output>> {
        let StatementKind::Move(m) = &stmt.kind else {
            return None;
        };
        if self.setup.vars_at.is_some() {
            return None;
        }
        let prepared = self.setup.prepare(stmt.span).ok()?;
        if prepared.game.name() != free().name() {
            return None;
        }
        let mv = Scope {
            table: &prepared.table,
            game: prepared.game,
            state: &prepared.state,
            props: &prepared.props,
            lets: &self.lets,
            events: &self.events,
            macros: &self.macros,
            expanding: Default::default(),
            patterns: Default::default(),
        }
        .move_(m)
        .ok()?;
        let Move::Announce(phi) = &mv else {
            return None;
        };
        let only = crate::engine::deal::implied_only(&prepared.spec, phi)?;
        let model = prepared.restricted_symbolic(only, &self.options)?;
        let started = prepared.started(model);
        self.whole = Some(Whole {
            model: FirstModel::Deal(Rc::new(LaterDeal {
                setup: self.setup.clone(),
                options: self.options,
                model: Default::default(),
            })),
            names: None,
            announced: Vec::new(),
            broken_by: None,
            unlisted: false,
        });
        self.play = Some(Playing {
            table: started.table,
            game: started.game,
            model: started.model,
            state: started.state,
            props: started.props,
            names: None,
        });
        match self.run(stmt, src) {
            Ok(out) => Some(out),
            Err(_) => {
                self.play = None;
                self.whole = None;
                None
            }
        }
    }

    fn scope_parts(&self) -> &Playing {
        self.play.as_ref().expect("the session has started")
    }

    /// The names a statement is resolved against.
    fn scope(&self) -> Scope<'_> {
        let play = self.scope_parts();
        Scope {
            table: &play.table,
            game: play.game,
            state: &play.state,
            props: &play.props,
            lets: &self.lets,
            events: &self.events,
            macros: &self.macros,
            expanding: Default::default(),
            patterns: Default::default(),
        }
    }

    /// Runs a statement once the table is set.
    fn run(&mut self, stmt: &Statement, src: &str) -> Result<Vec<Output>, Diagnostic> {
        let source = src
            .get(stmt.span.start..stmt.span.end)
            .unwrap_or("")
            .trim()
            .to_string();
        match &stmt.kind {
            StatementKind::Let(name, f) => self.let_(name, f),
            StatementKind::Macro { name, params, body } => self.macro_(name, params, body),
            StatementKind::WorldsWhere { whole, filter } => {
                self.worlds_where(*whole, filter, stmt.span)
            }
            StatementKind::Query(f) => self.query(f, false, source),
            StatementKind::Valid(f) => self.query(f, true, source),
            StatementKind::Expect(e) => self.expect(e, stmt.span, source),
            StatementKind::Why(f) => self.why(f, stmt.span, src),
            StatementKind::Question(q) => self.question(q, stmt.span, src, source),
            StatementKind::Worlds(p) => self.worlds(p.as_ref(), stmt.span),
            StatementKind::WhyFor { formula, card } => self.why_for(formula, card, stmt.span, src),
            StatementKind::WorldsFor {
                player,
                filter,
                whole,
                card,
            } => self.worlds_for(
                player.as_ref(),
                filter.as_ref(),
                *whole,
                card,
                stmt.span,
                src,
            ),
            StatementKind::Stats => Ok(vec![Output::Lines(self.stats())]),
            StatementKind::Checkpoint(name) => {
                self.checkpoints.push(name.text.to_string());
                Ok(vec![Output::Checkpoint(name.text.to_string())])
            }
            StatementKind::Move(m) => self.play_move(m, source),
            StatementKind::Export(def) => self.export(def, stmt.span),
            StatementKind::Event(def) => self.event(def),
            StatementKind::Model(def) => {
                Err(
                    Diagnostic::error("model-after-start", "a scenario has one model", def.span)
                        .with_help(
                        "put the `model { ... }` block before any move or query, and deal no cards",
                    ),
                )
            }
            _ => unreachable!("setup statements are handled by declare"),
        }
    }

    /// `let NAME = φ`.
    fn let_(&mut self, name: &Name, f: &ast::Formula) -> Result<Vec<Output>, Diagnostic> {
        let resolved = self.scope().formula(f)?;
        self.define(name, resolved)?;
        Ok(Vec::new())
    }

    /// `let NAME(a, b) = φ`: kept as written, expanded where it is used.
    fn macro_(
        &mut self,
        name: &Name,
        params: &[Name],
        body: &ast::Formula,
    ) -> Result<Vec<Output>, Diagnostic> {
        let play = self.scope_parts();
        if play.props.iter().any(|p| *p == name.text)
            || play.table.find_location(&name.text).is_some()
            || self.lets.contains_key(name.text.as_str())
        {
            return Err(Diagnostic::error(
                "duplicate-declaration",
                format!(
                    "`{}` is already a proposition, location or `let` name",
                    name.text
                ),
                name.span,
            ));
        }
        self.macros.insert(
            name.text.to_string(),
            Macro {
                params: params.to_vec(),
                body: body.clone(),
            },
        );
        Ok(Vec::new())
    }

    /// The worlds of the current model (or, `whole`, of the whole model)
    /// where `filter` holds, with the model they belong to and its names.
    #[allow(clippy::type_complexity)]
    fn where_(
        &self,
        whole: bool,
        filter: &ast::Formula,
        span: Span,
    ) -> Result<Option<(Vec<WorldId>, Rc<dyn Backend>, Option<Rc<WorldNames>>)>, Diagnostic> {
        let phi = self.scope().formula(filter)?;
        if self.options.check_only {
            return Ok(None);
        }
        let play = self.scope_parts();
        let (model, phi, names) = if whole {
            let w = self.whole_model(span)?;
            (
                w.model.get(span)?,
                w.after_announcements(phi),
                w.names.clone(),
            )
        } else {
            (play.model.clone(), phi, play.names.clone())
        };
        listable(&*model, "counting worlds", span)?;
        let ids = model
            .satisfying(&phi)
            .map_err(|e| errors::engine(&e, filter.span))?;
        Ok(Some((ids, model, names)))
    }

    /// The whole model, unless a move other than an announcement was played.
    fn whole_model(&self, span: Span) -> Result<&Whole, Diagnostic> {
        let whole = self.whole.as_ref().expect("the session has started");
        if whole.unlisted {
            return Err(Diagnostic::error(
                "no-whole-model",
                "the variables have more assignments than the budget, so only the worlds reachable from the actual one are kept",
                span,
            )
            .with_label("needs every world, reachable or not")
            .with_help("drop `all` to count the reachable worlds, or raise --max-worlds to list every assignment"));
        }
        match &whole.broken_by {
            None => Ok(whole),
            Some(mv) => Err(Diagnostic::error(
                "no-whole-model",
                format!("the whole model is kept through public announcements only, and `{mv}` was played"),
                span,
            )
            .with_label("needs every world, reachable or not")
            .with_help("drop `all` to count the worlds reachable from the actual world")),
        }
    }

    /// `worlds where φ`, `worlds all where φ`.
    fn worlds_where(
        &self,
        whole: bool,
        filter: &ast::Formula,
        span: Span,
    ) -> Result<Vec<Output>, Diagnostic> {
        let Some((ids, model, names)) = self.where_(whole, filter, span)? else {
            return Ok(Vec::new());
        };
        let play = self.scope_parts();
        let which = if whole {
            "of the whole model"
        } else {
            "reachable"
        };
        let head = format!(
            "{} world(s) {which} where it holds (* is the actual world):",
            ids.len()
        );
        Ok(vec![Output::Lines(explain::listed(
            &play.table,
            &play.props,
            names.as_deref(),
            &*model,
            ids,
            head,
        ))])
    }

    /// `expect worlds = 3 where φ`, `expect all worlds = 3 [where φ]`.
    fn expect_count(
        &self,
        whole: bool,
        op: CmpOp,
        n: &num_bigint::BigUint,
        filter: Option<&ast::Formula>,
        span: Span,
        source: String,
    ) -> Result<Vec<Output>, Diagnostic> {
        let every = ast::Formula {
            kind: ast::FormulaKind::True,
            span,
        };
        let Some((ids, _, _)) = self.where_(whole, filter.unwrap_or(&every), span)? else {
            return Ok(Vec::new());
        };
        let found = num_bigint::BigUint::from(ids.len());
        let which = if whole {
            "the whole model"
        } else {
            "the model"
        };
        let detail = match filter {
            Some(_) => format!(
                "it holds in {} world(s) of {which}",
                explain::count_text(&found)
            ),
            None => format!("{which} has {} world(s)", explain::count_text(&found)),
        };
        Ok(vec![Output::Expect {
            source,
            span,
            held: compare(op, &found, n),
            detail,
        }])
    }

    /// `? φ` and (`valid`) `?? φ`.
    fn query(
        &self,
        f: &ast::Formula,
        valid: bool,
        source: String,
    ) -> Result<Vec<Output>, Diagnostic> {
        let phi = self.scope().formula(f)?;
        if self.options.check_only {
            return Ok(Vec::new());
        }
        let value = eval(&*self.scope_parts().model, &phi, valid, f.span)?;
        Ok(vec![if valid {
            Output::Valid { source, value }
        } else {
            Output::Answer { source, value }
        }])
    }

    /// `expect ...`.
    fn expect(
        &self,
        e: &Expectation,
        span: Span,
        source: String,
    ) -> Result<Vec<Output>, Diagnostic> {
        if let Expectation::Count {
            whole,
            cmp,
            n,
            filter,
        } = e
        {
            return self.expect_count(*whole, *cmp, n, filter.as_ref(), span, source);
        }
        let scope = self.scope();
        let model = &self.scope_parts().model;
        let found = expect(&scope, model, e, self.options.check_only, span)?;
        Ok(found
            .map(|(held, detail)| Output::Expect {
                source,
                span,
                held,
                detail,
            })
            .into_iter()
            .collect())
    }

    /// `question ...`: decided in the actual world, like `?`.
    fn question(
        &self,
        q: &ast::Question,
        span: Span,
        src: &str,
        source: String,
    ) -> Result<Vec<Output>, Diagnostic> {
        if self.options.check_only {
            let scope = self.scope();
            if let Some(f) = q.ask.formula() {
                scope.formula(f)?;
            }
            if let ast::Ask::Considers(p) = &q.ask {
                scope.agent(p)?;
            }
            return Ok(Vec::new());
        }
        let asked = self.with_question_context(src, |cx| question::ask(cx, q, span))?;
        Ok(vec![Output::Question {
            source,
            span,
            asked,
        }])
    }

    /// Decides a question (its spans in `src`) in the current state and
    /// checks the answer `given` (`None`: none was given). The session is
    /// not changed.
    pub fn check_answer(
        &self,
        q: &ast::Question,
        span: Span,
        src: &str,
        given: Option<&Answer>,
    ) -> Result<(Asked, Verdict), Diagnostic> {
        if self.play.is_none() {
            return Err(Diagnostic::error(
                "not-dealt",
                "no cards are dealt yet",
                span,
            ));
        }
        self.with_question_context(src, |cx| {
            let asked = question::ask(cx, q, span)?;
            let verdict = question::check(cx, q, &asked, given)?;
            Ok((asked, verdict))
        })
    }

    /// Decides a question (its spans in `src`) in the current state, as
    /// `question` does, without changing the session.
    pub fn ask_question(
        &self,
        q: &ast::Question,
        span: Span,
        src: &str,
    ) -> Result<Asked, Diagnostic> {
        if self.play.is_none() {
            return Err(Diagnostic::error(
                "not-dealt",
                "no cards are dealt yet",
                span,
            ));
        }
        self.with_question_context(src, |cx| question::ask(cx, q, span))
    }

    /// The hint for a question (its spans in `src`): the first step of
    /// reasoning towards its answer, without the answer
    /// ([`question::hint`]).
    pub fn hint(&self, q: &ast::Question, span: Span, src: &str) -> Result<String, Diagnostic> {
        if self.play.is_none() {
            return Err(Diagnostic::error(
                "not-dealt",
                "no cards are dealt yet",
                span,
            ));
        }
        self.with_question_context(src, |cx| question::hint(cx, q))
    }

    fn with_question_context<T>(
        &self,
        src: &str,
        f: impl FnOnce(&question::Context) -> Result<T, Diagnostic>,
    ) -> Result<T, Diagnostic> {
        let scope = self.scope();
        let play = self.scope_parts();
        let cx = question::Context {
            scope: &scope,
            model: &*play.model,
            names: play.world_names(),
            src,
        };
        f(&cx)
    }

    /// `why φ`.
    fn why(&self, f: &ast::Formula, span: Span, src: &str) -> Result<Vec<Output>, Diagnostic> {
        let scope = self.scope();
        scope.formula(f)?;
        if self.options.check_only {
            return Ok(Vec::new());
        }
        let model = &*self.scope_parts().model;
        listable(model, "`why`", span)?;
        let why = Why {
            scope: &scope,
            model,
            names: self.scope_parts().world_names(),
            src,
        };
        Ok(vec![Output::Lines(why.explain(f)?)])
    }

    /// `worlds` and `worlds P`.
    fn worlds(&self, player: Option<&Name>, span: Span) -> Result<Vec<Output>, Diagnostic> {
        let play = self.scope_parts();
        let player = player.map(|p| self.scope().agent(p)).transpose()?;
        listable(&*play.model, "`worlds`", span)?;
        Ok(vec![Output::Lines(explain::worlds(
            &play.table,
            &play.props,
            play.world_names(),
            &*play.model,
            player,
        ))])
    }

    /// `why φ for CARD`: `why` over the placements of a card, at any size.
    fn why_for(
        &self,
        f: &ast::Formula,
        card: &Name,
        span: Span,
        src: &str,
    ) -> Result<Vec<Output>, Diagnostic> {
        let scope = self.scope();
        scope.formula(f)?;
        let view = self.per_card(&scope, card, span, src)?;
        if self.options.check_only {
            return Ok(Vec::new());
        }
        Ok(vec![Output::Lines(view.why(f)?)])
    }

    /// The per-card view of the current model for `for CARD`.
    fn per_card<'a>(
        &'a self,
        scope: &'a Scope<'a>,
        card: &Name,
        span: Span,
        src: &'a str,
    ) -> Result<PerCard<'a>, Diagnostic> {
        Ok(PerCard {
            kind: per_card::card(scope, card)?,
            scope,
            model: &*self.scope_parts().model,
            src,
            span,
            worded: false,
        })
    }

    /// `worlds for CARD`, `worlds P for CARD`, `worlds where φ for CARD`.
    fn worlds_for(
        &self,
        player: Option<&Name>,
        filter: Option<&ast::Formula>,
        whole: bool,
        card: &Name,
        span: Span,
        src: &str,
    ) -> Result<Vec<Output>, Diagnostic> {
        if whole {
            return Err(Diagnostic::error(
                "per-card-whole",
                "`worlds all where ... for CARD`: the per-card view counts the worlds reachable from the actual world",
                span,
            )
            .with_help("drop `all`, or drop `for CARD` to list the whole model's worlds"));
        }
        let scope = self.scope();
        let player = player.map(|p| scope.agent(p)).transpose()?;
        if let Some(f) = filter {
            scope.formula(f)?;
        }
        let view = self.per_card(&scope, card, span, src)?;
        if self.options.check_only {
            return Ok(Vec::new());
        }
        Ok(vec![Output::Lines(view.worlds(player, filter)?)])
    }

    /// `stats`.
    fn stats(&self) -> Vec<String> {
        let play = self.scope_parts();
        let mut lines = explain::stats(&play.table, &*play.model);
        if play.game.has_turns() {
            lines.push(format!(
                "  turn: {}",
                describe_player(&play.table, play.state.turn)
            ));
        }
        lines
    }

    /// `export "FILE" ...`: the figure, for the front end to write.
    fn export(&self, def: &ast::ExportDef, span: Span) -> Result<Vec<Output>, Diagnostic> {
        let model = &*self.scope_parts().model;
        let check = self.options.check_only;
        // A plain per-card view (`for CARD`) is computed from the engine's
        // sets of states, without listing the worlds.
        let per_card = def.card.is_some() && !def.all;
        let fit =
            (self.figure_fit && !def.all && def.card.is_none()).then(|| self.move_cards.clone());
        if !check && !per_card && fit.is_none() {
            listable(model, "a figure", span)?;
        }
        let play = self.scope_parts();
        super::figures::export(
            def,
            &self.scope(),
            (model, &|w| play.world_name(w)),
            check,
            span,
            self.figure_limit,
            fit,
        )
    }

    /// `event NAME { ... }`.
    fn event(&mut self, def: &ast::EventDef) -> Result<Vec<Output>, Diagnostic> {
        let declared = explicit::event(def, &self.scope())?;
        if self.events.contains_key(def.name.text.as_str()) {
            return Err(Diagnostic::error(
                "duplicate-declaration",
                format!("event model `{}` is declared twice", def.name.text),
                def.name.span,
            ));
        }
        self.events.insert(def.name.text.to_string(), declared);
        Ok(Vec::new())
    }

    /// Defines a `let` name, unless its formula (with the names it uses
    /// replaced) exceeds [`MAX_LET_SIZE`] or [`MAX_LET_DEPTH`].
    fn define(&mut self, name: &Name, f: Formula) -> Result<(), Diagnostic> {
        let play = self.scope_parts();
        if play.props.iter().any(|p| *p == name.text)
            || play.table.find_location(&name.text).is_some()
        {
            return Err(Diagnostic::error(
                "duplicate-declaration",
                format!("`{}` is already a proposition or location", name.text),
                name.span,
            ));
        }
        let (size, depth) = f.size_and_depth();
        if size > MAX_LET_SIZE || depth > MAX_LET_DEPTH {
            return Err(Diagnostic::error(
                "formula-too-large",
                format!(
                    "`{}` stands for a formula of {size} operators nested {depth} deep, \
                     more than {MAX_LET_SIZE} operators or {MAX_LET_DEPTH} levels",
                    name.text
                ),
                name.span,
            )
            .with_help("a `let` name is replaced by its formula wherever it is used; build smaller formulas"));
        }
        self.lets.insert(name.text.to_string(), f);
        Ok(())
    }

    fn play_move(&mut self, m: &ast::Move, source: String) -> Result<Vec<Output>, Diagnostic> {
        let mv = self.scope().move_(m)?;
        if self.options.check_only {
            return Ok(Vec::new());
        }
        self.play_resolved(&mv, source, m.span)
    }

    /// A written move resolved against the current deal (names of cards,
    /// players and locations, formulas, events): the [`Move`] that
    /// [`Session::apply`] plays.
    pub fn resolve_move(&self, m: &ast::Move) -> Result<Move, Diagnostic> {
        if self.play.is_none() {
            return Err(Diagnostic::error(
                "not-dealt",
                "no cards are dealt yet",
                m.span,
            ));
        }
        self.scope().move_(m)
    }

    /// Plays a resolved move of the current game, as the statement `text`
    /// plays it: `text` is the move as the scenario language writes it
    /// (the referee's [`crate::cards::Referee::move_text`], or the line a
    /// person typed), which names its events and is what the move's
    /// [`Output::Moved`] and a refusal quote. On refusal (the rules quoted)
    /// the session is as it was.
    pub fn apply(&mut self, mv: &Move, text: &str) -> Result<Vec<Output>, Diagnostic> {
        let at = Span::new(0, text.len());
        if self.play.is_none() {
            return Err(Diagnostic::error("not-dealt", "no cards are dealt yet", at));
        }
        if self.options.check_only {
            return Ok(Vec::new());
        }
        self.play_resolved(mv, text.trim().to_string(), at)
    }

    /// Plays a resolved move; `source` is its statement, `at` where a
    /// refusal points.
    fn play_resolved(
        &mut self,
        mv: &Move,
        source: String,
        at: Span,
    ) -> Result<Vec<Output>, Diagnostic> {
        let mv = mv.clone();
        let play = self.scope_parts();
        let out = play
            .game
            .play(&play.position(), &mv, &source)
            .map_err(|r| {
                let mut d = errors::refused_move(&r, at);
                d.message = format!("{source}: {}", d.message);
                d
            })?;
        let about = move_cards(
            &play.table,
            &mv,
            &play.model.actual_cards(),
            &out.model.actual_cards(),
        );
        if let Some(whole) = self.whole.as_mut() {
            match mv {
                Move::Announce(phi) => whole.announced.push(phi),
                _ if whole.broken_by.is_none() => whole.broken_by = Some(source.clone()),
                _ => {}
            }
        }
        let play = self.play.as_mut().expect("started");
        play.model = out.model;
        play.state = out.state;
        play.names = None;
        self.move_cards = about;
        Ok(vec![Output::Moved {
            source,
            notes: out.notes,
        }])
    }

    /// Starts the session from variables, laws and observations.
    fn variables_start(&mut self, at: Span) -> Result<(), Diagnostic> {
        use super::variables;
        let setup = &self.setup;
        if let Some((_, deck_at)) = &setup.deck {
            return Err(Diagnostic::error(
                "cards-and-variables",
                "a scenario has either cards or variables",
                *deck_at,
            )
            .with_help("drop the deck, or the `var` declarations"));
        }
        let Some((players, _)) = &setup.players else {
            return Err(
                Diagnostic::error("no-players", "no players are declared", at)
                    .with_help("declare the agents before this line: `players S P`"),
            );
        };
        let table = Table::new(
            players.iter().map(|p| p.text.to_string()).collect(),
            crate::cards::Deck::default(),
        );
        let props = variables::props(&setup.vars);
        let state = empty_state();
        let (lets, events, macros) = (HashMap::new(), HashMap::new(), HashMap::new());
        let scope = Scope {
            table: &table,
            game: free(),
            state: &state,
            props: &props,
            lets: &lets,
            events: &events,
            macros: &macros,
            expanding: Default::default(),
            patterns: Default::default(),
        };
        let laws = setup
            .laws
            .iter()
            .map(|f| Ok((scope.formula(f)?, f.span)))
            .collect::<Result<Vec<_>, Diagnostic>>()?;
        let mut observes = vec![Vec::new(); table.players.len()];
        for (player, terms) in &setup.observes {
            let p = scope.agent(player)?;
            for t in terms {
                observes[p].push(scope.term(t)?);
            }
        }
        let mut actual = Vec::new();
        for v in &setup.vars {
            let Some((_, x)) = setup.values.iter().find(|(n, _)| n.text == v.name.text) else {
                return Err(Diagnostic::error(
                    "no-actual",
                    format!("the actual value of `{}` is not given", v.name.text),
                    v.name.span,
                )
                .with_help(format!("say it: `actual {} = {}`", v.name.text, v.lo)));
            };
            actual.push(*x);
        }
        if let Some((n, _)) = setup
            .values
            .iter()
            .find(|(n, _)| !setup.vars.iter().any(|v| v.name.text == n.text))
        {
            return Err(scope.term(&ast::Term::Name(n.clone())).unwrap_err());
        }
        let ranges = variables::ranges(&setup.vars);
        let valuation = variables::valuation(&setup.vars, &actual);
        let spec = variables::Spec {
            vars: &setup.vars,
            laws,
            observes,
            actual,
            budget: self.options.max_worlds,
        };
        // The symbolic engine holds a term in at most 64 bits: a wider
        // observed term or term of a law is refused here, with the caret
        // on it.
        let fits = |t: &ast::Term| -> Result<(), Diagnostic> {
            let term = scope.term(t)?;
            crate::engine::symbolic::term_fits(&term).map_err(|e| errors::engine(&e, t.span()))
        };
        let structure = || -> Result<Rc<dyn Backend>, Diagnostic> {
            for (_, terms) in &setup.observes {
                terms.iter().try_for_each(fits)?;
            }
            for law in &setup.laws {
                compared_terms(law).into_iter().try_for_each(fits)?;
            }
            let laws: Vec<Formula> = spec.laws.iter().map(|(f, _)| f.clone()).collect();
            let o = crate::engine::symbolic::observe::Observations {
                props: props.len(),
                ranges: &ranges,
                laws: &laws,
                observes: &spec.observes,
                actual: &valuation,
            };
            Ok(Rc::new(
                SymbolicModel::from_observations(&o, &self.limits())
                    .map_err(|e| errors::engine(&e, at))?,
            ))
        };
        // Too many assignments to list within the budget: the symbolic
        // engine builds the structure from the laws alone (as SMCDEL's
        // observational structures), with no written model and no world
        // names. Within the budget it lists them too, for names and `all`.
        let over = variables::assignments(spec.vars) > spec.budget;
        if over && matches!(self.options.engine, Engine::Symbolic | Engine::Auto) {
            variables::check(&spec, at)?;
            let model = structure()?;
            self.start_structure(table, props, model);
            return Ok(());
        }
        let (written, names) = variables::model(&spec, at)?;
        let structure = match self.options.engine {
            Engine::Symbolic => Some(structure()?),
            _ => None,
        };
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        self.start_written(table, props, written, &names, at, structure)
    }

    /// Starts the session from a structure alone (no written model, no
    /// world names); statements that need every assignment (`all`) are
    /// refused.
    fn start_structure(&mut self, table: Table, props: Vec<String>, model: Rc<dyn Backend>) {
        self.whole = Some(Whole {
            model: FirstModel::Built(model.clone()),
            names: None,
            announced: Vec::new(),
            broken_by: None,
            unlisted: true,
        });
        self.play = Some(Playing {
            table,
            game: free(),
            model,
            state: empty_state(),
            props,
            names: None,
        });
    }

    /// Starts the session from an explicit `model { ... }` block.
    pub fn explicit_model(&mut self, def: &ast::ModelDef) -> Result<(), Diagnostic> {
        if self.play.is_some() || self.setup.deck.is_some() || self.setup.players.is_some() {
            return Err(Diagnostic::error(
                "model-after-start",
                "a scenario has either a card deal or one explicit model",
                def.span,
            )
            .with_help("put the `model { ... }` block first, without players, deck or deal"));
        }
        let (table, props, written) = explicit::model(def)?;
        let written_names: Vec<&str> = def.worlds.iter().map(|w| w.name.text.as_str()).collect();
        self.start_written(table, props, written, &written_names, def.span, None)
    }

    /// Starts the session from a model as written, with its worlds' names.
    fn start_written(
        &mut self,
        table: Table,
        props: Vec<String>,
        written: ExplicitModel,
        written_names: &[&str],
        span: Span,
        structure: Option<Rc<dyn Backend>>,
    ) -> Result<(), Diagnostic> {
        let generated = written.clone().generate();
        let model: Rc<dyn Backend> = match (structure, self.options.engine) {
            (Some(s), _) => s,
            (None, engine) => match engine {
                Engine::Symbolic => SymbolicModel::structure_of(&generated, &self.limits())
                    .map_err(|e| errors::engine(&e, span))?,
                Engine::Explicit | Engine::Auto => Rc::new(generated.contract()),
            },
        };
        let names = world_names(&*model, &written, written_names);
        self.whole = Some(Whole {
            names: Some(Rc::new(WorldNames {
                names: written_names.iter().map(|n| n.to_string()).collect(),
                order: (0..written_names.len()).collect(),
            })),
            model: FirstModel::Built(Rc::new(written)),
            announced: Vec::new(),
            broken_by: None,
            unlisted: false,
        });
        let state = empty_state();
        self.play = Some(Playing {
            table,
            game: free(),
            model,
            state,
            props,
            names,
        });
        Ok(())
    }
}

/// The written names of each world of `model`: the written worlds (of
/// `written`, reachable from its actual world) bisimilar to it, joined by
/// `=`. `None` when the worlds cannot be matched (belief relations, a model
/// too large to list).
fn world_names(
    model: &dyn Backend,
    written: &ExplicitModel,
    names: &[&str],
) -> Option<Rc<WorldNames>> {
    let matches = model.as_explicit()?.bisimilar_worlds(written)?;
    let reachable = written.reachable_mask();
    let firsts: Vec<Vec<usize>> = matches
        .into_iter()
        .map(|xs| xs.into_iter().filter(|&x| reachable[x]).collect())
        .collect();
    let shown = firsts
        .iter()
        .enumerate()
        .map(|(w, xs)| match xs.is_empty() {
            true => format!("w{w}"),
            false => xs.iter().map(|&x| names[x]).collect::<Vec<_>>().join("="),
        })
        .collect();
    let mut order: Vec<WorldId> = (0..firsts.len()).collect();
    order.sort_by_key(|&w| firsts[w].first().copied().unwrap_or(usize::MAX));
    Some(Rc::new(WorldNames {
        names: shown,
        order,
    }))
}

/// A declaration after the table is set.
fn after_start(span: Span) -> Diagnostic {
    Diagnostic::error("setup-after-start", "the table is already set", span)
        .with_label("a declaration after the first move or query")
        .with_help("declare game, players, deck, piles, deal, stock and props before any move, query or `let`")
}

/// The game state of a scenario without cards.
fn empty_state() -> GameState {
    GameState {
        turn: 0,
        stock_order: Vec::new(),
        fixed: 0,
        seed: 0,
        extra: Default::default(),
    }
}

fn declare_into(setup: &mut Setup, kind: &StatementKind, span: Span) -> Result<(), Diagnostic> {
    match kind {
        StatementKind::Game(name) => {
            let game = setup.game_named(&name.text).ok_or_else(|| {
                let mut names: Vec<&str> = setup.games.iter().map(|g| g.name()).collect();
                names.extend(game_names());
                Diagnostic::error(
                    "unknown-game",
                    format!("no game `{}`", name.text),
                    name.span,
                )
                .with_help(format!("the games are: {}", names.join(", ")))
            })?;
            setup.game = Some((game, span));
        }
        StatementKind::Players(names) => {
            if setup.players.is_some() {
                return Err(Diagnostic::error(
                    "duplicate-declaration",
                    "the players are declared twice",
                    span,
                ));
            }
            if names.len() > MAX_PLAYERS {
                return Err(Diagnostic::error(
                    "too-many-players",
                    format!(
                        "{} players are declared",
                        crate::diag::thousands(names.len())
                    ),
                    span,
                )
                .with_help(format!("a scenario may have at most {MAX_PLAYERS} players")));
            }
            let mut seen = std::collections::HashSet::new();
            for n in names {
                if !seen.insert(n.text.as_str()) {
                    return Err(Diagnostic::error(
                        "duplicate-declaration",
                        format!("player `{}` is listed twice", n.text),
                        n.span,
                    ));
                }
            }
            setup.players = Some((names.clone(), span));
        }
        StatementKind::Deck(spec) => setup.deck(spec, span)?,
        StatementKind::Pile {
            name,
            visibility,
            holds,
        } => {
            setup.piles.push((name.clone(), visibility.clone()));
            if let Some(cards) = holds {
                setup.holds.push((name.clone(), cards.clone()));
            }
        }
        StatementKind::Order(locations) => setup.order.extend(locations.iter().cloned()),
        StatementKind::Uncounted => setup.uncounted = true,
        StatementKind::Deal(parts) => {
            setup.deal.extend(parts.iter().cloned());
            setup.deal_at = Some(span);
        }
        StatementKind::Stock(cards) => setup.stock = Some(cards.clone()),
        StatementKind::Seed(seed, _) => setup.seed = *seed,
        StatementKind::Turn(p) => setup.turn = Some(p.clone()),
        StatementKind::Prop(names) => setup.props.extend(names.iter().cloned()),
        StatementKind::Var { names, lo, hi } => {
            for name in names {
                if setup.vars.iter().any(|v| v.name.text == name.text) {
                    return Err(Diagnostic::error(
                        "duplicate-declaration",
                        format!("variable `{}` is declared twice", name.text),
                        name.span,
                    ));
                }
                setup.vars.push(super::variables::Variable {
                    name: name.clone(),
                    lo: *lo,
                    hi: *hi,
                });
            }
            setup.vars_at.get_or_insert(span);
        }
        StatementKind::Law(f) => setup.laws.push(f.clone()),
        StatementKind::Values(values) => setup.values.extend(values.iter().cloned()),
        StatementKind::Observes(player, terms) => {
            setup.observes.push((player.clone(), terms.clone()))
        }
        _ => unreachable!("only setup statements"),
    }
    Ok(())
}

fn eval(model: &dyn Backend, phi: &Formula, valid: bool, span: Span) -> Result<bool, Diagnostic> {
    let result = if valid {
        model.eval_valid(phi)
    } else {
        model.eval_actual(phi)
    };
    result.map_err(|e| errors::engine(&e, span))
}

fn compare<T: Ord>(op: CmpOp, left: &T, right: &T) -> bool {
    match op {
        CmpOp::Lt => left < right,
        CmpOp::Le => left <= right,
        CmpOp::Eq => left == right,
        CmpOp::Ne => left != right,
        CmpOp::Ge => left >= right,
        CmpOp::Gt => left > right,
    }
}

/// Refuses a statement that lists worlds (`what`) on a model whose worlds
/// cannot be listed (a large symbolic model).
/// The card kinds a move is about: those it names ([`Move::cards`]),
/// then those whose place in the actual world it changed.
fn move_cards(
    table: &crate::cards::Table,
    mv: &Move,
    before: &crate::engine::Allocation,
    after: &crate::engine::Allocation,
) -> Vec<crate::engine::Kind> {
    let mut out = mv.cards(table);
    let kinds = table.deck.kinds.len();
    for k in 0..kinds {
        let moved = before.iter().zip(after).any(|(b, a)| b.get(k) != a.get(k));
        if moved && !out.contains(&k) {
            out.push(k);
        }
    }
    out
}

fn listable(model: &dyn Backend, what: &str, span: Span) -> Result<(), Diagnostic> {
    model.listable().map_err(|e| {
        Diagnostic::error(
            "too-many-to-list",
            format!("{what} lists worlds, and this model has too many: {e}"),
            span,
        )
        .with_label("needs the worlds one by one")
        .with_help("ask with `?`, `expect` or `stats` instead, or use a smaller deal")
    })
}

/// Refuses a count expectation on a model whose counts are not exact (a
/// large symbolic model counts the states of its knowledge structure,
/// which may be more than the worlds of the contracted model).
fn exact_counts(model: &dyn Backend, span: Span) -> Result<(), Diagnostic> {
    if model.counts_exact() {
        return Ok(());
    }
    Err(Diagnostic::error(
        "count-not-exact",
        format!(
            "the symbolic model has {} states, but they were not contracted to worlds, so world counts are not exact",
            model.world_count()
        ),
        span,
    )
    .with_help("count expectations need a model small enough to contract; state the claim as a formula (K, C, M) instead"))
}

/// Checks an expectation: `Some((held, what was found))`, `None` in check mode.
fn expect(
    scope: &Scope,
    current: &Rc<dyn Backend>,
    e: &Expectation,
    check: bool,
    span: Span,
) -> Result<Option<(bool, String)>, Diagnostic> {
    let model: &dyn Backend = &**current;
    match e {
        Expectation::Holds(f) => {
            let phi = scope.formula(f)?;
            if check {
                return Ok(None);
            }
            let held = eval(model, &phi, false, f.span)?;
            Ok(Some((
                held,
                if held {
                    String::new()
                } else {
                    "false in the actual world".into()
                },
            )))
        }
        Expectation::Considers { player, cmp: op, n } => {
            let p = scope.agent(player)?;
            if check {
                return Ok(None);
            }
            exact_counts(model, span)?;
            let found = model.considers_big(p);
            let who = describe_player(scope.table, p);
            Ok(Some((
                compare(*op, &found, n),
                format!(
                    "{who} considers {} world(s) possible",
                    explain::count_text(&found)
                ),
            )))
        }
        Expectation::Count { .. } => unreachable!("counts are checked by Session::expect_count"),
        Expectation::Worlds { cmp: op, n } => {
            if check {
                return Ok(None);
            }
            exact_counts(model, span)?;
            let found = model.world_count_big();
            Ok(Some((
                compare(*op, &found, n),
                format!("the model has {} world(s)", explain::count_text(&found)),
            )))
        }
        Expectation::Score { player, cmp: op, n } => {
            let p = scope.agent(player)?;
            let referee = scope.game.referee().ok_or_else(|| {
                Diagnostic::error(
                    "no-referee",
                    format!("{} has no referee, so no score", scope.game.name()),
                    span,
                )
                .with_help(format!(
                    "scores are kept by the games that have a referee: {}",
                    crate::cards::GAMES
                        .iter()
                        .filter(|g| g.referee().is_some())
                        .map(|g| g.name())
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            })?;
            if check {
                return Ok(None);
            }
            let pos = Position {
                table: scope.table,
                model: current,
                state: scope.state,
            };
            let found = referee.scores(&pos)[p];
            let who = describe_player(scope.table, p);
            Ok(Some((
                compare(*op, &found, n),
                format!("{who} scores {found}"),
            )))
        }
    }
}

/// The terms compared in a law, through its connectives (a term under a
/// quantifier is left to the engine, which refuses it at the statement).
fn compared_terms(f: &ast::Formula) -> Vec<&ast::Term> {
    use ast::FormulaKind as F;
    match &f.kind {
        F::Compare { left, right, .. } => vec![&**left, &**right],
        F::Not(g) => compared_terms(g),
        F::And(a, b) | F::Or(a, b) | F::Implies(a, b) | F::Iff(a, b) => {
            let mut out = compared_terms(a);
            out.extend(compared_terms(b));
            out
        }
        _ => Vec::new(),
    }
}
