//! Setting the table (LANGUAGE.md §1): the declarations before the first
//! move or query, checked and turned into the table, the initial Kripke
//! model and the game state.
//!
//! The initial model is every allocation of the deck to the locations that
//! keeps each location's number of cards; a player cannot tell apart two
//! allocations that agree on everything it sees (its hand and the piles it
//! sees). The actual world is the deal.

use std::rc::Rc;

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::cards::game::free;
use crate::cards::{Deck, Game, GameState, LocKind, Table};
use crate::diag::{Diagnostic, Span};
use crate::engine::deal::{self, DealSpec};
use crate::engine::{
    Backend, EngineError, ExplicitModel, Kind, Loc, SymbolicLimits, SymbolicModel,
};

use super::session::{Engine, Options};
use crate::syntax::ast::{DealPart, DeckSpec, Name, Visibility};

/// The declarations collected so far.
#[derive(Clone, Debug, Default)]
pub struct Setup {
    /// `game NAME`
    pub game: Option<(Game, Span)>,
    /// `players ...`
    pub players: Option<(Vec<Name>, Span)>,
    /// `deck ...`
    pub deck: Option<(Deck, Span)>,
    /// `pile NAME VIS`
    pub piles: Vec<(Name, Visibility)>,
    /// `deal ...` (all deal statements, in order)
    pub deal: Vec<DealPart>,
    /// The last `deal` statement (where a deal that cannot be built is reported).
    pub deal_at: Option<Span>,
    /// `stock ...`
    pub stock: Option<Vec<Name>>,
    /// `seed N`
    pub seed: u64,
    /// `turn P`
    pub turn: Option<Name>,
    /// `prop ...`
    pub props: Vec<Name>,
    /// `pile NAME VIS holds CARDS`: the piles that can hold only some cards.
    pub holds: Vec<(Name, Vec<Name>)>,
    /// `order LOCATIONS`: the symbolic engine's variable order.
    pub order: Vec<Name>,
    /// `uncounted`: the players do not count cards.
    pub uncounted: bool,
    /// The game's own declarations (`psychic P...` of the Cabo-like
    /// game): each word and its arguments as written, read by the game
    /// when the table is built.
    pub declarations: Vec<(Name, Vec<Name>)>,
    /// `var x, y in 2..99`
    pub vars: Vec<super::variables::Variable>,
    /// `law φ`
    pub laws: Vec<crate::syntax::ast::Formula>,
    /// `actual x = 4, y = 13`
    pub values: Vec<(Name, u64)>,
    /// `S observes x + y`
    pub observes: Vec<(Name, Vec<crate::syntax::ast::Term>)>,
    /// Where the first variable was declared.
    pub vars_at: Option<Span>,
    /// Games `game NAME` knows besides [`GAMES`](crate::cards::GAMES)
    /// (a game defined outside dealer's list, as a test does).
    pub games: Vec<Game>,
}

/// A checked deal before its model is built ([`Setup::prepare`]).
pub struct Prepared {
    /// The table.
    pub table: Table,
    /// The game.
    pub game: Game,
    /// The deal the model is built from.
    pub spec: DealSpec,
    /// The initial game state.
    pub state: GameState,
    /// Proposition names.
    pub props: Vec<String>,
}

impl Started {
    /// The game's start (a table turned up, books laid) played on the
    /// dealt model: the first model and state, or the refusal at `span`.
    pub fn opening(&self, span: Span) -> Result<crate::cards::Outcome, Diagnostic> {
        let dealt = crate::cards::Outcome {
            model: Rc::clone(&self.model),
            state: self.state.clone(),
            notes: Vec::new(),
        };
        self.game
            .start(&self.table, dealt)
            .map_err(|r| super::errors::refusal(&r, span))
    }
}

impl Prepared {
    /// The table set with `model` as the initial model.
    pub fn started(self, model: Rc<dyn Backend>) -> Started {
        Started {
            table: self.table,
            game: self.game,
            model,
            state: self.state,
            props: self.props,
        }
    }

    /// The symbolic model of the deal restricted by `only` (see
    /// [`deal::implied_only`]), when `start` with `engine` would surely
    /// build a symbolic model of the deal itself (no explicit model is
    /// considered); `None` otherwise or when it cannot be built.
    pub fn restricted_symbolic(
        &self,
        only: Vec<Option<Vec<bool>>>,
        options: &Options,
    ) -> Option<Rc<dyn Backend>> {
        let spec = &self.spec;
        let budget = options.max_worlds;
        let symbolic = match options.engine {
            Engine::Explicit => false,
            Engine::Symbolic => true,
            Engine::Auto => {
                deal::count_reachable(spec) > budget.min(ExplicitModel::world_cap(spec))
                    || deal::fits_explicit(spec).is_err()
            }
        };
        if !symbolic {
            return None;
        }
        let restricted = DealSpec {
            only,
            ..spec.clone()
        };
        let limits = SymbolicLimits::for_budget(options.bdd_budget);
        let model = SymbolicModel::from_deal(&restricted, &limits).ok()?;
        Some(Rc::new(model))
    }
}

/// What setting the table yields.
pub struct Started {
    /// The table.
    pub table: Table,
    /// The game.
    pub game: Game,
    /// The initial model.
    pub model: Rc<dyn Backend>,
    /// The initial game state.
    pub state: GameState,
    /// Proposition names.
    pub props: Vec<String>,
}

impl Setup {
    /// The game `name` stands for: one of [`Setup::games`], or one of
    /// [`GAMES`](crate::cards::GAMES).
    pub fn game_named(&self, name: &str) -> Option<Game> {
        self.games
            .iter()
            .copied()
            .find(|g| g.name() == name)
            .or_else(|| crate::cards::game_named(name))
    }

    /// The game of the scenario so far (`free` until `game NAME`).
    pub fn current_game(&self) -> Game {
        self.game.map_or_else(free, |(g, _)| g)
    }

    /// Declares the deck.
    pub fn deck(&mut self, spec: &DeckSpec, span: Span) -> Result<(), Diagnostic> {
        if self.deck.is_some() {
            return Err(Diagnostic::error(
                "duplicate-declaration",
                "the deck is declared twice",
                span,
            )
            .with_help("declare the whole deck in one `deck` statement"));
        }
        self.deck = Some((Deck::from_spec(spec)?, span));
        Ok(())
    }

    /// Builds the table: hands, stock, piles, slots named in the deal, and
    /// the game's own locations (books piles, played piles...).
    pub fn table(&self, at: Span) -> Result<(Table, Game), Diagnostic> {
        let Some((players, _)) = &self.players else {
            return Err(
                Diagnostic::error("no-players", "no players are declared", at)
                    .with_help("declare them before this line: `players 1 2 3`"),
            );
        };
        let deck = match &self.deck {
            Some((deck, _)) => deck.clone(),
            None => {
                return Err(Diagnostic::error("no-deck", "no deck is declared", at)
                    .with_help("declare it before this line, e.g. `deck Q*4 A*4`"))
            }
        };
        let names = players.iter().map(|p| p.text.to_string()).collect();
        let mut table = Table::new(names, deck);
        for (name, vis) in &self.piles {
            add_pile(&mut table, name, vis)?;
        }
        for part in &self.deal {
            add_slot(&mut table, &part.location);
        }
        let game = self.game.map_or_else(free, |(g, _)| g);
        game.add_locations(&mut table);
        if self.uncounted {
            table.phantom = table.deck.copies().iter().sum();
        }
        for (word, args) in &self.declarations {
            crate::cards::game::read_declaration(game, &mut table, word, args)?;
        }
        Ok((table, game))
    }

    /// Checks the deal and builds the initial model and game state.
    /// The options' engine chooses the representation: explicit (refused
    /// past `max_worlds` worlds), symbolic (within the options' BDD
    /// budget), or auto (explicit within `max_worlds`).
    pub fn start(&self, at: Span, options: &Options) -> Result<Started, Diagnostic> {
        let prepared = self.prepare(at)?;
        let model = build(&prepared.spec, options, self.deal_at.unwrap_or(at))?;
        Ok(prepared.started(model))
    }

    /// Checks the deal: the table, the deal's spec and the game state,
    /// without the model.
    pub fn prepare(&self, at: Span) -> Result<Prepared, Diagnostic> {
        let (table, game) = self.table(at)?;
        let mut actual = self.allocation(&table)?;
        let mut copies = table.deck.copies();
        let stock = actual[table.stock()].clone();
        if table.phantom > 0 {
            // No count of a kind outside the stock can reach its copies.
            for (k, c) in copies.iter_mut().enumerate() {
                *c += table.phantom;
                actual[table.stock()][k] += table.phantom;
            }
        }
        let sizes: Vec<u32> = actual.iter().map(|l| l.iter().sum()).collect();
        let spec = DealSpec {
            only: self.restrictions(&table, &actual)?,
            order: self
                .order
                .iter()
                .map(|l| table.location(l))
                .collect::<Result<_, _>>()?,
            copies,
            sizes,
            observers: table.observers(),
            props: self.props.len(),
            actual,
        };
        let state = self.game_state(&table, &stock)?;
        Ok(Prepared {
            table,
            game,
            spec,
            state,
            props: self.props.iter().map(|p| p.text.to_string()).collect(),
        })
    }

    /// What each pile can hold (`holds`), checked against the actual deal.
    fn restrictions(
        &self,
        table: &Table,
        actual: &[Vec<u32>],
    ) -> Result<Vec<Option<Vec<bool>>>, Diagnostic> {
        if self.holds.is_empty() {
            return Ok(Vec::new());
        }
        let kinds = table.deck.kinds.len();
        let mut only = vec![None; table.locations.len()];
        for (pile, cards) in &self.holds {
            let l = table.location(pile)?;
            let mut allowed = vec![false; kinds];
            for card in cards {
                for k in table.deck.pattern(card)? {
                    allowed[k] = true;
                }
            }
            if let Some(k) = (0..kinds).find(|&k| actual[l][k] > 0 && !allowed[k]) {
                return Err(Diagnostic::error(
                    "bad-deal",
                    format!(
                        "`{}` holds only {}, but the deal puts {} there",
                        pile.text,
                        cards
                            .iter()
                            .map(|c| c.text.as_str())
                            .collect::<Vec<_>>()
                            .join(" "),
                        table.deck.kinds[k].name
                    ),
                    pile.span,
                )
                .with_label("declared here"));
            }
            only[l] = Some(allowed);
        }
        Ok(only)
    }

    /// The actual deal as an allocation; what is not dealt lies in the stock.
    fn allocation(&self, table: &Table) -> Result<Vec<Vec<u32>>, Diagnostic> {
        let kinds = table.deck.kinds.len();
        let mut alloc = vec![vec![0u32; kinds]; table.locations.len()];
        let mut left = table.deck.copies();
        for part in &self.deal {
            let loc = table.location(&part.location)?;
            for card in &part.cards {
                let kind = table.deck.card(card)?;
                if left[kind] == 0 {
                    return Err(over_dealt(table, kind, card));
                }
                left[kind] -= 1;
                alloc[loc][kind] += 1;
            }
        }
        let stock = table.stock();
        for (k, n) in left.into_iter().enumerate() {
            alloc[stock][k] += n;
        }
        Ok(alloc)
    }

    /// Whose turn it is and the stock's actual order.
    fn game_state(&self, table: &Table, stock: &[u32]) -> Result<GameState, Diagnostic> {
        let mut left = stock.to_vec();
        let mut order = Vec::new();
        for card in self.stock.iter().flatten() {
            let kind = table.deck.card(card)?;
            if left[kind] == 0 {
                return Err(Diagnostic::error(
                    "bad-stock",
                    format!(
                        "the stock holds no more {} than this",
                        table.deck.kinds[kind].name
                    ),
                    card.span,
                )
                .with_label("not left in the stock")
                .with_help("`stock` lists the cards the deal leaves in the stock, top first"));
            }
            left[kind] -= 1;
            order.push(kind);
        }
        let fixed = order.len();
        let mut rest: Vec<Kind> = (0..left.len())
            .flat_map(|k| std::iter::repeat_n(k, left[k] as usize))
            .collect();
        rest.shuffle(&mut ChaCha8Rng::seed_from_u64(self.seed));
        order.extend(rest);
        let turn = match &self.turn {
            Some(name) => table.player(name)?,
            None => 0,
        };
        Ok(GameState {
            turn,
            stock_order: order,
            fixed,
            seed: self.seed,
            extra: Default::default(),
        })
    }
}

/// The initial model of a deal, by the chosen engine.
fn build(spec: &DealSpec, options: &Options, at: Span) -> Result<Rc<dyn Backend>, Diagnostic> {
    let (budget, limits) = (
        options.max_worlds,
        SymbolicLimits::for_budget(options.bdd_budget),
    );
    let cap = ExplicitModel::world_cap(spec);
    let symbolic = match options.engine {
        Engine::Explicit => false,
        Engine::Symbolic => true,
        Engine::Auto => {
            let worlds = deal::count_reachable(spec);
            if worlds > budget.min(cap) || deal::fits_explicit(spec).is_err() {
                true
            } else if deal::prefer_symbolic(spec, worlds, deal::law_nodes_at_least(spec)) {
                // Maybe cheaper: build the law and compare with its size.
                if let Ok(model) = SymbolicModel::from_deal(spec, &limits) {
                    if deal::prefer_symbolic(spec, worlds, model.bdd_nodes()) {
                        return Ok(Rc::new(model));
                    }
                }
                false
            } else {
                false
            }
        }
    };
    if !symbolic {
        let count = deal::count_reachable(spec);
        if count > cap && count <= budget {
            return Err(too_large(spec, count, cap, at));
        }
    }
    let bad = |e: EngineError| match e {
        EngineError::TooManyWorlds { count, budget } => too_many(count, budget, at),
        e => super::errors::engine(&e, at),
    };
    if symbolic {
        let model = SymbolicModel::from_deal(spec, &limits).map_err(bad)?;
        Ok(Rc::new(model))
    } else {
        Ok(Rc::new(
            ExplicitModel::from_deal(spec, budget).map_err(bad)?,
        ))
    }
}

fn too_many(count: u128, budget: u128, at: Span) -> Diagnostic {
    Diagnostic::error(
        "too-many-worlds",
        format!(
            "the deal has {} possible worlds, more than the budget of {}",
            crate::diag::thousands(count),
            crate::diag::thousands(budget)
        ),
        at,
    )
    .with_label("the initial model would be built here")
    .with_help("use the symbolic engine (`--engine auto` or `symbolic`), a smaller deck or fewer hidden cards, or raise the budget with --max-worlds")
}

/// A deal within `--max-worlds` but past what memory allows (the flag
/// cannot raise this limit).
fn too_large(spec: &DealSpec, count: u128, cap: u128, at: Span) -> Diagnostic {
    let gib = |b: u128| b as f64 / (1u128 << 30) as f64;
    Diagnostic::error(
        "too-many-worlds",
        format!(
            "the deal has {} possible worlds: an explicit model of them would take about \
             {:.1} GiB, more than the limit of {} worlds ({:.0} GiB) that no --max-worlds can raise",
            crate::diag::thousands(count),
            gib(ExplicitModel::estimated_bytes(spec, count)),
            crate::diag::thousands(cap),
            gib(crate::engine::model::MAX_MODEL_BYTES)
        ),
        at,
    )
    .with_label("the initial model would be built here")
    .with_help("use the symbolic engine (`--engine auto` or `--engine symbolic`), a smaller deck or fewer hidden cards")
}

fn over_dealt(table: &Table, kind: Kind, card: &Name) -> Diagnostic {
    let copies = table.deck.kinds[kind].copies;
    let name = &table.deck.kinds[kind].name;
    let times = if copies == 1 {
        "once".to_string()
    } else {
        format!("{copies} times")
    };
    Diagnostic::error(
        "card-dealt-twice",
        format!("more {name} dealt than the deck has"),
        card.span,
    )
    .with_label(format!("the deck holds {name} {times}"))
    .with_help("each card of the deck can be dealt only once")
}

fn add_pile(table: &mut Table, name: &Name, vis: &Visibility) -> Result<Loc, Diagnostic> {
    if table.find_location(&name.text).is_some() {
        return Err(Diagnostic::error(
            "duplicate-declaration",
            format!("`{}` is already a player or pile", name.text),
            name.span,
        ));
    }
    let seen_by = match vis {
        Visibility::Public => (0..table.players.len()).collect(),
        Visibility::Hidden => Vec::new(),
        Visibility::SeenBy(players) => players
            .iter()
            .map(|p| table.player(p))
            .collect::<Result<_, _>>()?,
    };
    Ok(table.add_location(name.text.to_string(), LocKind::Pile, seen_by))
}

/// A deal to `1.2` creates player 1's face-down slot 2 (seen by no one).
fn add_slot(table: &mut Table, location: &Name) {
    let Some((player, n)) = location.text.split_once('.') else {
        return;
    };
    let (Some(p), Ok(n)) = (table.find_player(player), n.parse::<u32>()) else {
        return;
    };
    if table.find_location(&location.text).is_none() {
        table.add_location(location.text.to_string(), LocKind::Slot(p, n), Vec::new());
    }
}
