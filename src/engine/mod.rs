//! The DEL engine: Kripke models whose worlds are card allocations (plus a
//! valuation of declared propositions), model checking by sets of worlds,
//! event models with pre- and postconditions, product update and bisimulation
//! contraction.
//!
//! The engine knows nothing of text, of the scenario language or of any
//! game's rules: agents, locations, card kinds and propositions are indices.
//! The interpreter talks to it only through [`Backend`], so that another
//! representation (a symbolic one) can be put behind the same interface.

pub mod cancel;
pub mod deal;
pub mod event;
pub mod formula;
pub mod model;
pub mod symbolic;

mod bisim;
mod build;
mod counters;
mod counts;
mod eval;
mod groups;
mod hash;
mod par;
mod relation;
mod shares;
#[cfg(test)]
mod testkit;
mod translate;
mod update;

use std::fmt;

use num_bigint::BigUint;
use std::rc::Rc;

pub use event::{Event, EventId, EventModel, Post, Relation};
pub use formula::{Agent, Atom, Cmp, Formula, Kind, Loc, Prop};
pub use model::ExplicitModel;
pub use symbolic::{BddBudget, BeliefModel, SymbolicLimits, SymbolicModel};

/// A world's identifier in one model (worlds are renumbered by every update).
pub type WorldId = usize;

/// Where the cards lie: `counts[loc][kind]` is the number of cards of `kind` at `loc`.
pub type Allocation = Vec<Vec<u32>>;

/// A model's reachable worlds grouped by where the copies of one card kind
/// lie (the per-card view of figures, `for CARD`), computed without
/// listing the worlds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placements {
    /// Each placement: how many copies of the kind lie at every location.
    pub keys: Vec<Vec<u32>>,
    /// The actual world's placement, an index into `keys`.
    pub actual: usize,
    /// For each agent, the pairs `(i, j)`, `i < j`, of placements with a
    /// world of the one and a world of the other that the agent cannot
    /// tell apart.
    pub linked: Vec<Vec<(usize, usize)>>,
    /// For each placement and location, how many of the copies there are
    /// common knowledge in every world of the placement.
    pub common: Vec<Vec<u32>>,
}

/// The worlds a per-card split ([`Backend::shares`]) counts: the
/// reachable ones, or those some agents consider possible in the actual
/// world.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Among {
    /// Every world reachable from the actual world.
    Reachable,
    /// The worlds one agent considers possible.
    Agent(Agent),
    /// The worlds a group considers possible, in the sense of
    /// [`Backend::group_accessible`].
    Group(GroupAccess, Vec<Agent>),
}

/// One placement of a card kind among the worlds a per-card split counts
/// (`worlds for CARD`, `why φ for CARD`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Share {
    /// How many copies of the kind lie at every location.
    pub key: Vec<u32>,
    /// The worlds with this placement (for a symbolic model whose counts
    /// are not exact, its states: see [`Backend::counts_exact`]).
    pub worlds: BigUint,
    /// Of these, the ones where the formula holds.
    pub holding: BigUint,
    /// Whether the actual world has this placement.
    pub actual: bool,
}

/// One world, as the interpreter shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorldView {
    /// The world's identifier in its model.
    pub id: WorldId,
    /// Where the cards lie in this world.
    pub cards: Allocation,
    /// The value of each declared proposition.
    pub props: Vec<bool>,
}

/// How a model is held, for `stats` and `dealer bench` (which word it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Representation {
    /// Every world written out.
    Explicit,
    /// A knowledge structure on BDDs.
    Symbolic {
        /// Nodes of the law's BDD (or of its factors, when `factored`).
        nodes: usize,
        /// Variables of the structure.
        variables: usize,
        /// Whether the law is kept as factors, one per location.
        factored: bool,
        /// The nodes from which the BDD manager collects dead nodes: the
        /// model's BDD budget ([`SymbolicLimits::collect_from`]).
        collect_from: usize,
    },
}

/// Which worlds a group of agents considers possible: the relations that
/// `E`, `C` and `D` quantify over, asked with [`Backend::group_accessible`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GroupAccess {
    /// Some agent of the group considers it possible: the union of the
    /// agents' relations, one step (`E_G`).
    Everybody,
    /// Reachable by one or more steps of that union (`C_G`).
    Common,
    /// Every agent of the group considers it possible, pooling what they
    /// know (`D_G`): the intersection of their relations, as the model holds
    /// it after contraction. For the empty group, every world.
    Distributed,
}

/// What can go wrong inside the engine. The interpreter turns these into
/// located diagnostics.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The model would have more worlds than the budget allows; nothing was built.
    TooManyWorlds {
        /// The exact number of worlds (saturating at `u128::MAX`).
        count: u128,
        /// The budget.
        budget: u128,
    },
    /// The event said to happen cannot happen: its precondition is false in the actual world.
    EventImpossible {
        /// The event model's name.
        model: String,
        /// The event's name.
        event: String,
    },
    /// No event of the model can happen in the actual world.
    NoEventPossible {
        /// The event model's name.
        model: String,
    },
    /// More than one event can happen in the actual world and none was chosen.
    AmbiguousEvent {
        /// The event model's name.
        model: String,
    },
    /// A postcondition moves cards that are not there (the precondition did not guard it).
    MissingCards {
        /// The event model's name.
        model: String,
        /// The event's name.
        event: String,
    },
    /// The input does not describe a model (sizes that do not add up, a world out of range...).
    Malformed(String),
    /// The backend cannot do this (the symbolic engine and belief event models).
    Unsupported(String),
    /// The backend ran out of room (the symbolic engine's BDD nodes).
    OutOfMemory,
    /// The computation was cancelled: its job's [`cancel::Token`] (Ctrl-C,
    /// a time limit, the web page's Cancel).
    Interrupted,
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::TooManyWorlds { count, budget } => write!(
                f,
                "the model would have {} worlds, more than the budget of {}",
                crate::diag::thousands(count),
                crate::diag::thousands(budget)
            ),
            EngineError::EventImpossible { model, event } => write!(
                f,
                "`{model}`: event `{event}` cannot happen in the actual world (its precondition is false)"
            ),
            EngineError::NoEventPossible { model } => {
                write!(f, "`{model}`: no event can happen in the actual world")
            }
            EngineError::AmbiguousEvent { model } => write!(
                f,
                "`{model}`: more than one event can happen in the actual world; say which"
            ),
            EngineError::MissingCards { model, event } => write!(
                f,
                "`{model}`: event `{event}` moves cards that are not there"
            ),
            EngineError::Malformed(why) => write!(f, "malformed model: {why}"),
            EngineError::Unsupported(why) => write!(f, "not supported by this engine: {why}"),
            EngineError::OutOfMemory => write!(
                f,
                "the symbolic engine ran out of BDD nodes (raise its node limit)"
            ),
            EngineError::Interrupted => write!(f, "interrupted (Ctrl-C or a time limit)"),
        }
    }
}

impl std::error::Error for EngineError {}

/// The interface between the interpreter and a model-checking backend.
///
/// A backend value is immutable: [`Backend::apply`] returns a new model and
/// leaves `self` as it was, so that an illegal move or an undo costs nothing.
pub trait Backend {
    /// Whether `f` holds in the actual world.
    fn eval_actual(&self, f: &Formula) -> Result<bool, EngineError>;
    /// Whether `f` holds in every world of the model.
    fn eval_valid(&self, f: &Formula) -> Result<bool, EngineError>;
    /// Whether `f` holds in world `w`.
    fn eval_at(&self, f: &Formula, w: WorldId) -> Result<bool, EngineError>;
    /// The worlds where `f` holds, in increasing order.
    fn satisfying(&self, f: &Formula) -> Result<Vec<WorldId>, EngineError>;
    /// Product update with `model`, followed by restriction to the worlds
    /// reachable from the actual world and bisimulation contraction.
    /// `actual` names the event that happens; `None` means the unique event
    /// whose precondition holds in the actual world.
    fn apply(
        &self,
        model: &EventModel,
        actual: Option<EventId>,
    ) -> Result<Rc<dyn Backend>, EngineError>;
    /// The events of `model` whose preconditions hold in the actual world.
    fn possible_events(&self, model: &EventModel) -> Result<Vec<EventId>, EngineError>;
    /// The number of worlds (saturating at `u128::MAX`).
    fn world_count(&self) -> u128;
    /// The number of worlds, exact.
    fn world_count_big(&self) -> BigUint {
        BigUint::from(self.world_count())
    }
    /// The number of worlds agent `agent` considers possible in the actual world, exact.
    fn considers_big(&self, agent: Agent) -> BigUint {
        BigUint::from(self.considers(agent))
    }
    /// The actual world.
    fn actual(&self) -> WorldId;
    /// The worlds agent `agent` considers possible in world `w`, in increasing order.
    fn accessible(&self, agent: Agent, w: WorldId) -> Vec<WorldId>;
    /// The worlds `group` considers possible in world `w` in the sense of
    /// `access`, in increasing order. This is the one definition of group
    /// accessibility outside evaluation: `why`, narration and figures ask it,
    /// and it agrees with how `E`, `C` and `D` are evaluated. (The default
    /// reads the agents' relations; a model that keeps group relations
    /// through contraction overrides `Distributed`.)
    fn group_accessible(&self, access: GroupAccess, group: &[Agent], w: WorldId) -> Vec<WorldId> {
        groups::from_agents(self, access, group, w)
    }
    /// The number of worlds agent `agent` considers possible in the actual world.
    fn considers(&self, agent: Agent) -> u128 {
        self.accessible(agent, self.actual()).len() as u128
    }
    /// Whether every agent's relation is an equivalence relation (knowledge, not belief).
    fn is_s5(&self) -> bool;
    /// One world's cards and propositions.
    fn world(&self, w: WorldId) -> WorldView;
    /// The number of agents.
    fn agents(&self) -> usize;
    /// The actual world's cards and propositions. Unlike [`Backend::world`],
    /// this never needs the worlds listed, so a symbolic model answers it at any size.
    fn actual_world(&self) -> WorldView {
        self.world(self.actual())
    }
    /// Where the cards lie in the actual world: [`Backend::actual_world`]'s
    /// cards without its identifier, which a symbolic model can only give
    /// after listing its worlds (the rules read the actual cards after every
    /// move, and must not pay for a listing).
    fn actual_cards(&self) -> Allocation {
        self.actual_world().cards
    }
    /// The reachable worlds (with `only`, the worlds that agent considers
    /// possible in the actual world) grouped by where the copies of `kind`
    /// lie, for a model too large to list: `None` when the backend has no
    /// such view (the figure then lists the worlds), an error past `limit`
    /// placements.
    fn placements(
        &self,
        _kind: Kind,
        _only: Option<Agent>,
        _limit: usize,
    ) -> Option<Result<Placements, EngineError>> {
        None
    }
    /// The worlds `among` counts, grouped by where the copies of `kind`
    /// lie, each placement with the number of its worlds and of those
    /// where `f` holds; placements in increasing order of their counts
    /// (location by location). It stops looking after `limit + 1`
    /// placements (the caller refuses that many as too many to show).
    /// The default lists the worlds (and so fails on a model too large
    /// to list); a symbolic model answers from its sets of states at any
    /// size.
    fn shares(
        &self,
        kind: Kind,
        among: &Among,
        f: &Formula,
        limit: usize,
    ) -> Result<Vec<Share>, EngineError> {
        shares::listed(self, kind, among, f, limit)
    }
    /// Whether the worlds can be listed one by one (for `why`, `worlds`,
    /// figures and narration). An explicit model always can; a symbolic
    /// one only up to a limit, and says so with [`EngineError::TooManyWorlds`].
    fn listable(&self) -> Result<(), EngineError> {
        Ok(())
    }
    /// Whether [`Backend::listable`] holds, asking the cheap
    /// [`Backend::surely_unlistable`] first: for figures and narration,
    /// which only need the answer, on models often far too large to list.
    fn can_list(&self) -> bool {
        !self.surely_unlistable() && self.listable().is_ok()
    }
    /// A cheap test that [`Backend::listable`] fails (false when unsure):
    /// a symbolic model counts the states one agent considers possible,
    /// without the fixpoint of its reachable states, so that narration
    /// skips a large model at the cost of one count per player.
    fn surely_unlistable(&self) -> bool {
        false
    }
    /// Whether [`Backend::world_count`] and [`Backend::considers`] count the
    /// worlds of the bisimulation-contracted model (always so for an explicit
    /// model; a symbolic model may only give the states of its structure).
    fn counts_exact(&self) -> bool {
        true
    }
    /// The model as an explicit model, when it is one or its worlds are
    /// listed (a small symbolic model): to match its worlds with others
    /// ([`ExplicitModel::bisimilar_worlds`]).
    fn as_explicit(&self) -> Option<&ExplicitModel> {
        None
    }
    /// Which representation holds the model, with its size.
    fn representation(&self) -> Representation {
        Representation::Explicit
    }
}
