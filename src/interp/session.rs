//! A scenario session: executes statements one at a time, keeping the
//! declarations, the current model and the game state.
//!
//! Every statement either succeeds or leaves the session exactly as it was:
//! a move computes the new model and game state aside and commits them only
//! when the rules and the engine accept it.

use std::collections::HashMap;
use std::rc::Rc;

use crate::cards::game::{free, game_named, game_names};
use crate::cards::rules::describe_player;
use crate::cards::{Game, GameState, Outcome, Table};
use crate::diag::{Diagnostic, Span};
use crate::engine::{Backend, EngineError, Formula, SymbolicModel};
use crate::figure::Figure;
use crate::syntax::ast::{self, CmpOp, Expectation, Name, Statement, StatementKind};

use super::explain::{self, Why};

/// The most operators a `let` name may stand for (names are replaced by
/// their formulas, so each `let` may double the size).
pub const MAX_LET_SIZE: usize = 100_000;
/// The deepest nesting a `let` name may stand for (the parser allows 200
/// levels in one formula; names used inside names add up).
pub const MAX_LET_DEPTH: usize = 1_000;
use super::explicit::{self, EventTable};
use super::resolve::Scope;
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

/// Options of a session.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// The largest model the explicit engine may build.
    pub max_worlds: u128,
    /// Resolve names only; do not build models, play moves or answer queries.
    pub check_only: bool,
    /// Which engine holds the models.
    pub engine: Engine,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            max_worlds: 10_000_000,
            check_only: false,
            engine: Engine::Auto,
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
}

/// A scenario session.
#[derive(Clone, Default)]
pub struct Session {
    options: Options,
    setup: Setup,
    play: Option<Playing>,
    lets: HashMap<String, Formula>,
    events: EventTable,
    checkpoints: Vec<String>,
    figure_limit: Option<usize>,
}

impl Session {
    /// A new session.
    pub fn new(options: Options) -> Session {
        Session {
            options,
            ..Session::default()
        }
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

    /// The checkpoints passed so far.
    pub fn checkpoints(&self) -> &[String] {
        &self.checkpoints
    }

    /// Executes one statement of `src`. On error the session is unchanged.
    pub fn execute(&mut self, stmt: &Statement, src: &str) -> Result<Vec<Output>, Diagnostic> {
        if let Some(result) = self.declare(stmt) {
            return result.map(|_| Vec::new());
        }
        if let (StatementKind::Model(def), None) = (&stmt.kind, &self.play) {
            return self.explicit_model(def).map(|_| Vec::new());
        }
        let fresh = self.play.is_none();
        let result = self.start(stmt.span).and_then(|_| self.run(stmt, src));
        if result.is_err() && fresh {
            self.play = None;
        }
        result
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
        let kind = &stmt.kind;
        let is_setup = matches!(
            kind,
            StatementKind::Game(_)
                | StatementKind::Players(_)
                | StatementKind::Deck(_)
                | StatementKind::Pile { .. }
                | StatementKind::Deal(_)
                | StatementKind::Stock(_)
                | StatementKind::Seed(..)
                | StatementKind::Turn(_)
                | StatementKind::Prop(_)
        );
        if !is_setup {
            return None;
        }
        if self.play.is_some() {
            return Some(Err(Diagnostic::error("setup-after-start", "the table is already set", stmt.span)
                .with_label("a declaration after the first move or query")
                .with_help("declare game, players, deck, piles, deal, stock and props before any move, query or `let`")));
        }
        let mut setup = self.setup.clone();
        let result = declare_into(&mut setup, kind, stmt.span);
        if result.is_ok() {
            self.setup = setup;
        }
        Some(result)
    }

    /// Deals the cards (builds the table, the model and the game state) if not yet done.
    fn start(&mut self, at: Span) -> Result<(), Diagnostic> {
        if self.play.is_some() {
            return Ok(());
        }
        let started = self
            .setup
            .start(at, self.options.max_worlds, self.options.engine)?;
        let dealt = Outcome {
            model: started.model,
            state: started.state,
            notes: Vec::new(),
        };
        let out = started
            .game
            .start(&started.table, dealt)
            .map_err(|r| Diagnostic::error(r.code, r.message, self.setup.deal_at.unwrap_or(at)))?;
        self.play = Some(Playing {
            table: started.table.clone(),
            game: started.game,
            model: out.model,
            state: out.state,
            props: started.props,
        });
        Ok(())
    }

    fn scope_parts(&self) -> &Playing {
        self.play.as_ref().expect("the session has started")
    }

    fn run(&mut self, stmt: &Statement, src: &str) -> Result<Vec<Output>, Diagnostic> {
        let source = src
            .get(stmt.span.start..stmt.span.end)
            .unwrap_or("")
            .trim()
            .to_string();
        let play = self.scope_parts();
        let scope = Scope {
            table: &play.table,
            game: play.game,
            state: &play.state,
            props: &play.props,
            lets: &self.lets,
            events: &self.events,
        };
        let check = self.options.check_only;
        match &stmt.kind {
            StatementKind::Let(name, f) => {
                let resolved = scope.formula(f)?;
                self.define(name, resolved)?;
                Ok(Vec::new())
            }
            StatementKind::Query(f) | StatementKind::Valid(f) => {
                let phi = scope.formula(f)?;
                if check {
                    return Ok(Vec::new());
                }
                let valid = matches!(stmt.kind, StatementKind::Valid(_));
                let value = eval(&*play.model, &phi, valid, f.span)?;
                Ok(vec![if valid {
                    Output::Valid { source, value }
                } else {
                    Output::Answer { source, value }
                }])
            }
            StatementKind::Expect(e) => {
                let out = expect(&scope, &*play.model, e, check, stmt.span)?;
                Ok(out
                    .map(|(held, detail)| Output::Expect {
                        source,
                        span: stmt.span,
                        held,
                        detail,
                    })
                    .into_iter()
                    .collect())
            }
            StatementKind::Why(f) => {
                scope.formula(f)?;
                if check {
                    return Ok(Vec::new());
                }
                listable(&*play.model, "`why`", stmt.span)?;
                let why = Why {
                    scope: &scope,
                    model: &*play.model,
                    src,
                };
                Ok(vec![Output::Lines(why.explain(f)?)])
            }
            StatementKind::Worlds(p) => {
                let player = p.as_ref().map(|p| scope.agent(p)).transpose()?;
                listable(&*play.model, "`worlds`", stmt.span)?;
                Ok(vec![Output::Lines(explain::worlds(
                    &play.table,
                    &play.props,
                    &*play.model,
                    player,
                ))])
            }
            StatementKind::Stats => {
                let mut lines = explain::stats(&play.table, &*play.model);
                if play.game.has_turns() {
                    lines.push(format!(
                        "  turn: {}",
                        describe_player(&play.table, play.state.turn)
                    ));
                }
                Ok(vec![Output::Lines(lines)])
            }
            StatementKind::Checkpoint(name) => {
                self.checkpoints.push(name.text.clone());
                Ok(vec![Output::Checkpoint(name.text.clone())])
            }
            StatementKind::Move(m) => self.play_move(m, source),
            StatementKind::Export(def) => {
                let limit = self.figure_limit;
                if !check {
                    listable(&*play.model, "a figure", stmt.span)?;
                }
                super::figures::export(def, &scope, &*play.model, check, stmt.span, limit)
            }
            StatementKind::Event(def) => {
                let declared = explicit::event(def, &scope)?;
                if self.events.contains_key(&def.name.text) {
                    return Err(Diagnostic::error(
                        "duplicate-declaration",
                        format!("event model `{}` is declared twice", def.name.text),
                        def.name.span,
                    ));
                }
                self.events.insert(def.name.text.clone(), declared);
                Ok(Vec::new())
            }
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

    /// Defines a `let` name, unless its formula (with the names it uses
    /// replaced) exceeds [`MAX_LET_SIZE`] or [`MAX_LET_DEPTH`].
    fn define(&mut self, name: &Name, f: Formula) -> Result<(), Diagnostic> {
        let play = self.scope_parts();
        if play.props.contains(&name.text) || play.table.find_location(&name.text).is_some() {
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
        self.lets.insert(name.text.clone(), f);
        Ok(())
    }

    fn play_move(&mut self, m: &ast::Move, source: String) -> Result<Vec<Output>, Diagnostic> {
        let play = self.scope_parts();
        let scope = Scope {
            table: &play.table,
            game: play.game,
            state: &play.state,
            props: &play.props,
            lets: &self.lets,
            events: &self.events,
        };
        let mv = scope.move_(m)?;
        if self.options.check_only {
            return Ok(Vec::new());
        }
        let out = play
            .game
            .play(&play.table, &play.model, &play.state, &mv, &source)
            .map_err(|r| {
                let d = Diagnostic::error(r.code, format!("{source}: {}", r.message), m.span)
                    .with_label("illegal move");
                match r.help {
                    Some(h) => d.with_help(h),
                    None => d,
                }
            })?;
        let play = self.play.as_mut().expect("started");
        play.model = out.model;
        play.state = out.state;
        Ok(vec![Output::Moved {
            source,
            notes: out.notes,
        }])
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
        let (table, props, model) = explicit::model(def)?;
        let model: Rc<dyn Backend> = match self.options.engine {
            Engine::Symbolic => Rc::new(SymbolicModel::from_explicit(&model).map_err(|e| {
                Diagnostic::error("symbolic-unsupported", e.to_string(), def.span).with_help(
                    "this model needs the explicit engine: run with `--engine explicit` or `auto`",
                )
            })?),
            Engine::Explicit | Engine::Auto => Rc::new(model),
        };
        let state = GameState {
            turn: 0,
            pending: Vec::new(),
            pass_after: false,
            stock_order: Vec::new(),
            fixed: 0,
            seed: 0,
            extra: Default::default(),
        };
        self.play = Some(Playing {
            table,
            game: free(),
            model,
            state,
            props,
        });
        Ok(())
    }
}

fn declare_into(setup: &mut Setup, kind: &StatementKind, span: Span) -> Result<(), Diagnostic> {
    match kind {
        StatementKind::Game(name) => {
            let game = game_named(&name.text).ok_or_else(|| {
                Diagnostic::error(
                    "unknown-game",
                    format!("no game `{}`", name.text),
                    name.span,
                )
                .with_help(format!("the games are: {}", game_names().join(", ")))
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
            for (i, n) in names.iter().enumerate() {
                if names[..i].iter().any(|m| m.text == n.text) {
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
        StatementKind::Pile { name, visibility } => {
            setup.piles.push((name.clone(), visibility.clone()))
        }
        StatementKind::Deal(parts) => {
            setup.deal.extend(parts.iter().cloned());
            setup.deal_at = Some(span);
        }
        StatementKind::Stock(cards) => setup.stock = Some(cards.clone()),
        StatementKind::Seed(seed, _) => setup.seed = *seed,
        StatementKind::Turn(p) => setup.turn = Some(p.clone()),
        StatementKind::Prop(names) => setup.props.extend(names.iter().cloned()),
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
    result.map_err(|e| engine_error(&e, span))
}

/// A located error for an engine failure while answering a query.
fn engine_error(e: &EngineError, span: Span) -> Diagnostic {
    let d = Diagnostic::error("engine", e.to_string(), span);
    match e {
        EngineError::OutOfMemory => d.with_help(
            "the formula's BDDs grew past the symbolic engine's node limit; ask about fewer cards at once",
        ),
        EngineError::Unsupported(_) => d.with_help("run with `--engine explicit`"),
        EngineError::Interrupted => d.with_label("cancelled: nothing changed"),
        _ => d,
    }
}

fn compare(op: CmpOp, left: u128, right: u128) -> bool {
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
    model: &dyn Backend,
    e: &Expectation,
    check: bool,
    span: Span,
) -> Result<Option<(bool, String)>, Diagnostic> {
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
            let found = model.considers(p);
            let who = describe_player(scope.table, p);
            Ok(Some((
                compare(*op, found, *n),
                format!("{who} considers {found} world(s) possible"),
            )))
        }
        Expectation::Worlds { cmp: op, n } => {
            if check {
                return Ok(None);
            }
            exact_counts(model, span)?;
            let found = model.world_count();
            Ok(Some((
                compare(*op, found, *n),
                format!("the model has {found} world(s)"),
            )))
        }
    }
}
