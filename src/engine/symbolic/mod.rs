//! The symbolic engine: knowledge structures (as in SMCDEL) with BDDs.
//!
//! A structure `(V, θ, O₁…Oₙ)` has boolean variables V, a state law θ (a
//! BDD: the states are its satisfying assignments) and for each agent the
//! variables it observes; two states are a-related iff they agree on
//! `O_a`. The facts are the count of each card kind at each location (a
//! little-endian bit vector; for one location no agent observes, the
//! stock, no variables: its counts are the copies not elsewhere, see
//! `derived.rs`) and the propositions; after updates V also
//! holds history variables (old values), event variables and class
//! variables. Knowledge is quantification (`eval.rs`), updates are
//! knowledge transformers (`transform.rs`) followed by a cleanup that keeps
//! every state's bisimulation class (`cleanup.rs`). Where the law splits
//! into one factor per location and the deck's conservation, it is kept
//! and updated as factors (`factors.rs`). A deal of 52 cards is a
//! law of a few thousand nodes where the explicit model would have 10²²
//! worlds.
//!
//! Answers equal the explicit engine's: truth at the actual state, validity
//! over the reachable states, possible events and refusals; counts are
//! exact when the reachable states have pairwise different values or can
//! be listed (see [`SymbolicModel::count_is_exact`]). World identifiers
//! are those of the listed (materialised, contracted) model.

mod arith;
mod belief;
mod cleanup;
mod counts;
mod derived;
mod eval;
mod explicit;
mod factors;
mod law;
mod local;
pub mod observe;
mod project;
#[cfg(test)]
mod tests;
mod transform;
mod vars;
mod walk;

pub use arith::fits as term_fits;

use std::cell::OnceCell;
use std::rc::Rc;

use num_bigint::BigUint;
use oxidd::{BooleanFunction, Function, VarNo};

pub use self::belief::BeliefModel;
use self::factors::Factors;
use self::vars::{oom, Bdd, Meta, Res, State};
use super::counters::{self, Counter};
use super::deal::{self, DealSpec};
use super::{Agent, Atom, Formula};
use super::{
    Backend, EngineError, EventId, EventModel, ExplicitModel, GroupAccess, Post, Representation,
    WorldId, WorldView,
};

/// Limits of the symbolic engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SymbolicLimits {
    /// The most states that are listed as worlds (for `worlds`, `why`, exact counts).
    pub list: u128,
    /// The capacity of the BDD manager, in nodes.
    pub nodes: usize,
    /// Dead nodes are kept (an operation often finds its result among
    /// them) until the manager holds more than this many nodes; then
    /// they are collected.
    pub collect_from: usize,
    /// The operation cache's entries per BDD variable of the deal (the
    /// BDD library rounds the cache up to a power of two).
    pub cache_per_var: usize,
    /// The operation cache's entries per square of the deal's BDD
    /// variables, where that gives more than `cache_per_var`: a round
    /// of knowledge over many agents reuses results that grow with the
    /// square (0: no such term).
    pub cache_per_square: usize,
    /// The most entries of the operation cache.
    pub cache_max: usize,
    /// A deal whose law has more nodes than this keeps its law as
    /// factors when it splits (`factors.rs`); 0: every deal.
    pub factor_from: usize,
}

impl Default for SymbolicLimits {
    /// The limits of the default [`BddBudget`] (many models at once).
    fn default() -> SymbolicLimits {
        SymbolicLimits::for_budget(BddBudget::default())
    }
}

impl SymbolicLimits {
    /// The limits of `budget`.
    pub fn for_budget(budget: BddBudget) -> SymbolicLimits {
        let (nodes, collect_from, cache_per_var, cache_per_square, cache_max) = match budget {
            BddBudget::Game => (1 << 24, 1 << 19, 1 << 13, 0, 1 << 19),
            BddBudget::Scenario => (1 << 28, 1 << 27, 1 << 12, 5, 1 << 23),
        };
        SymbolicLimits {
            list: 200_000,
            nodes: nodes.min(nodes_within_address_space()),
            collect_from,
            cache_per_var,
            cache_per_square,
            cache_max,
            factor_from: FACTOR_FROM,
        }
    }
}

/// The bytes the BDD library reserves for each node of a manager's store.
const NODE_BYTES: usize = 16;

/// The most nodes whose store takes at most a quarter of the process's
/// address-space limit (`ulimit -v`), so that under a limit a manager is
/// made smaller instead of aborting the process at its first allocation
/// (a scenario that then needs more nodes stops with the engine's
/// out-of-memory error); no bound without a limit.
fn nodes_within_address_space() -> usize {
    #[cfg(unix)]
    {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: `getrlimit` writes the limit into the struct it is given.
        let ok = unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut limit) } == 0;
        if ok && limit.rlim_cur != libc::RLIM_INFINITY {
            let bytes = usize::try_from(limit.rlim_cur).unwrap_or(usize::MAX);
            return (bytes / 4 / NODE_BYTES).max(1 << 16);
        }
    }
    usize::MAX
}

/// How much memory a model's BDD manager may take, chosen by whoever
/// builds the model (a session's options, [`SymbolicLimits::for_budget`]).
/// Answers never depend on it, only speed and memory do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum BddBudget {
    /// Many models at once (a game per core, the server, tests): dead
    /// nodes are collected from about half a million nodes (a collection
    /// is a pass over every node, so a small threshold keeps the worst
    /// move short), the operation cache has 8,192 entries a variable and
    /// at most 2^19, sized for the memory target of 100 MB a full-size
    /// game. A larger cache costs time as well as memory: the library
    /// fills every entry when it is made and empties every entry at each
    /// collection. A cache much smaller than the largest law (Kwartet's
    /// deal, 263,000 nodes) thrashes.
    #[default]
    Game,
    /// One scenario has the machine (`dealer run`, `repl`, `check`):
    /// dead nodes are kept up to 2^27 nodes (about 3 GiB; muddy children
    /// with 500 children reuse them round after round), the cache has
    /// 4,096 entries a variable, or 5 per square of the variables where
    /// that is more (from about 820 variables), and at most 2^23. The
    /// classic benchmarks of a few hundred variables need no more than
    /// half the entries of the game budget; a round of knowledge over
    /// many agents reuses results that grow with the square of the
    /// variables, so muddy children with 500 children (1,018 variables)
    /// need 2^23. The nodes' store is reserved, not touched: a small
    /// scenario stays small.
    Scenario,
}

/// The default [`SymbolicLimits::factor_from`] (docs/engines.md, "The
/// law as factors"): a large law (full-deck Go Fish, Kwartet, Königrufen:
/// 77,000 to 263,000 nodes) is cheaper to update factor by factor, while
/// splitting a small law (Kemps, 2,700 nodes) again after every move
/// costs more than updating it whole.
const FACTOR_FROM: usize = 20_000;

/// The most locations an agent may leave unseen for its considered set
/// to be left unbuilt (`SymbolicModel::unbuilt`): a cost rule, not a
/// correctness one.
const UNBUILT_UNSEEN: usize = 2;

/// The most states [`SymbolicModel::witness`] tries before the
/// considered set is built: a cost rule, not a correctness one.
const WITNESS_TRIES: usize = 256;

/// A listing of worlds computes each agent's relation: at most this many
/// times [`SymbolicLimits::list`] (world, agent) pairs are listed, so the
/// full 200,000 worlds for up to 10 agents, 20,000 for 100.
const LISTED_PER_AGENT: u128 = 10;

/// BDDs kept with a model by a key, made when first needed.
type Memo<K> = std::cell::RefCell<rustc_hash::FxHashMap<K, Bdd>>;

/// The BDD kept in `memo` for `key`, made by `make` and kept there first
/// when there is none (a model's marginals and projections).
fn memoized<K: std::hash::Hash + Eq>(
    memo: &Memo<K>,
    key: K,
    make: impl FnOnce() -> Res<Bdd>,
) -> Res<Bdd> {
    if let Some(b) = memo.borrow().get(&key) {
        return Ok(b.clone());
    }
    let b = make()?;
    memo.borrow_mut().insert(key, b.clone());
    Ok(b)
}

/// A knowledge structure behind the [`Backend`] interface. Cheap to clone,
/// immutable: updates return a new model sharing the BDD manager.
#[derive(Clone)]
pub struct SymbolicModel {
    inner: Rc<Inner>,
}

/// The parts of a model.
struct Inner {
    state: State,
    /// θ as one BDD: given, or conjoined from `factors` when first needed.
    law: OnceCell<Bdd>,
    /// θ as factors, one per location, when it splits (`factors.rs`).
    factors: Option<Factors>,
    /// The actual state's value of every variable (by number).
    actual: Vec<bool>,
    limits: SymbolicLimits,
    reach: OnceCell<Bdd>,
    /// States and distinct values among the reachable states.
    counts: OnceCell<(BigUint, BigUint)>,
    listed: OnceCell<Option<ExplicitModel>>,
    /// Each agent's `C_a`: the states it considers possible at the actual
    /// state (computed when first asked; see `local.rs`).
    considered: Vec<OnceCell<Bdd>>,
    /// On a factored law, the marginals of sets of locations (see
    /// [`Factors::and_exists`]), computed when first needed.
    marginals: Memo<Vec<usize>>,
    /// Sets of states (an agent's `C_a`) projected on the variables of a
    /// few locations, `∃(V∖keep) x`, by `(x, keep, false)`: a query about
    /// one hand meets the projection instead of the whole set
    /// (`local.rs`). By `(r, keep, true)`: `∃(V∖keep)(θ ∧ r)`, the
    /// θ-states of a restriction r projected the same way (a nested
    /// query's inner set).
    projections: Memo<(Bdd, Vec<VarNo>, bool)>,
    /// The values each variable takes in a set of states (an agent's
    /// `C_a`), by the set: a query about one variable reads it
    /// (`walk::values_taken`, `local.rs`).
    values: std::cell::RefCell<rustc_hash::FxHashMap<Bdd, rustc_hash::FxHashMap<VarNo, u8>>>,
    /// The truth sets of the atoms asked of this model (`eval::Atoms`).
    atoms: eval::Atoms,
    /// For each agent asked of, the cube of what it observes at the
    /// actual state, if its considered set is left unbuilt
    /// (`SymbolicModel::unbuilt`).
    heres: std::cell::RefCell<rustc_hash::FxHashMap<Agent, Option<Bdd>>>,
    /// The fact (kind and location) of each variable that holds a
    /// count (`usize::MAX` for the others), made when first needed.
    facts_of: OnceCell<Vec<usize>>,
    /// The actual state's count of every fact, made when first needed.
    actual_counts: OnceCell<Vec<u32>>,
}

impl std::fmt::Debug for SymbolicModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SymbolicModel")
            .field("variables", &self.inner.state.live.len())
            .field("nodes", &self.bdd_nodes())
            .finish()
    }
}

/// A new manager for one lineage of models. Its operation cache (every
/// entry written when the manager is made, about 20 bytes each) is sized
/// by `bits`, the deal's variables: [`SymbolicLimits::cache_per_var`]
/// entries a variable or [`SymbolicLimits::cache_per_square`] per square
/// of the variables, the more of the two, from 2^16 to
/// [`SymbolicLimits::cache_max`]
/// entries, rounded up to a power of two by the BDD library.
fn new_meta(
    limits: &SymbolicLimits,
    copies: Vec<u32>,
    locs: usize,
    props: usize,
    bits: usize,
) -> Rc<Meta> {
    let nodes = limits.nodes.clamp(1 << 10, (1 << 31) - 2);
    Rc::new(Meta {
        mgr: oxidd::bcdd::new_manager(nodes, cache_entries(limits, bits), 1),
        copies,
        locs,
        collect_from: limits.collect_from.min(nodes / 2),
        next_collect: std::cell::Cell::new(limits.collect_from.min(nodes / 2)),
        slots: Default::default(),
        props,
        cubes: Default::default(),
        sums: Default::default(),
        count_atoms: Default::default(),
        last_sums: Default::default(),
    })
}

/// The actual deal's value of every variable of a deal's structure.
fn actual_values(state: &State, spec: &DealSpec) -> Vec<bool> {
    let meta = &*state.meta;
    let mut actual = vec![false; meta.num_vars()];
    for k in 0..spec.copies.len() {
        for l in 0..spec.sizes.len() {
            for (i, &v) in state.facts[meta.fact(k, l)].iter().enumerate() {
                actual[v as usize] = spec.actual[l][k] >> i & 1 == 1;
            }
        }
    }
    actual
}

/// The operation cache's entries for a deal of `bits` variables, as the
/// BDD library will have them (the next power of two).
pub(crate) fn cache_entries(limits: &SymbolicLimits, bits: usize) -> usize {
    let nodes = limits.nodes.clamp(1 << 10, (1 << 31) - 2);
    (bits.saturating_mul(limits.cache_per_var))
        .max(
            bits.saturating_mul(bits)
                .saturating_mul(limits.cache_per_square),
        )
        .min(nodes / 4)
        .clamp(1 << 16, limits.cache_max.max(1 << 16))
        .next_power_of_two()
}

impl SymbolicModel {
    /// The structure of a card deal: every allocation of the deck with the
    /// given sizes, the locations every agent sees fixed as dealt; agent a
    /// observes the contents of `spec.observers[a]`.
    pub fn from_deal(
        spec: &DealSpec,
        limits: &SymbolicLimits,
    ) -> Result<SymbolicModel, EngineError> {
        deal::validate(spec).map_err(EngineError::Malformed)?;
        let bits = deal::law_nodes_at_least(spec) + spec.props;
        let meta = new_meta(
            limits,
            spec.copies.clone(),
            spec.sizes.len(),
            spec.props,
            bits,
        );
        // A plain deal whose law is surely large gets its factors without
        // the law (building a law of 263,000 nodes, Kwartet's, only to
        // split it is most of a random game); any other is built, and
        // split when large.
        let direct = law::plain(spec)
            && (limits.factor_from == 0 || law::surely_larger(spec, limits.factor_from));
        if direct {
            let state = law::plain_vars(meta.clone(), spec);
            let factors = meta.retry(|| factors::of_deal(&state, spec))?;
            let actual = actual_values(&state, spec);
            return Ok(SymbolicModel::factored(state, factors, actual, *limits));
        }
        let (state, law) = law::deal_structure(meta.clone(), spec)?;
        let worth = limits.factor_from == 0 || !cleanup::nodes_at_most(&law, limits.factor_from);
        let factors = if worth {
            meta.retry(|| factors::split(&state, &law))?
        } else {
            None
        };
        let actual = actual_values(&state, spec);
        let model = SymbolicModel::new(state, law, actual, *limits);
        Ok(match factors {
            Some(f) => model.with_factors(f),
            None => model,
        })
    }

    /// The structure of an explicit S5 model (for comparing the engines):
    /// refused with [`EngineError::Unsupported`] when a relation is not an
    /// equivalence.
    pub fn from_explicit(m: &ExplicitModel) -> Result<SymbolicModel, EngineError> {
        explicit::from_explicit(m, &SymbolicLimits::default())
    }

    /// The structure of any explicit model: a knowledge structure when
    /// every relation is an equivalence ([`SymbolicModel::from_explicit`]),
    /// else a belief structure whose belief variables are the world index.
    pub fn structure_of(
        m: &ExplicitModel,
        limits: &SymbolicLimits,
    ) -> Result<Rc<dyn Backend>, EngineError> {
        if m.is_s5() {
            return Ok(Rc::new(explicit::from_explicit(m, limits)?));
        }
        Ok(Rc::new(belief::from_explicit(m, limits)?))
    }

    /// The observational structure of a scenario with variables (see
    /// [`observe`]).
    pub fn from_observations(
        o: &observe::Observations,
        limits: &SymbolicLimits,
    ) -> Result<SymbolicModel, EngineError> {
        observe::from_observations(o, limits)
    }

    fn new(state: State, law: Bdd, actual: Vec<bool>, limits: SymbolicLimits) -> SymbolicModel {
        SymbolicModel::build(state, OnceCell::from(law), None, actual, limits)
    }

    /// A fresh model whose law is kept as `factors` (the whole law is
    /// conjoined when first needed).
    fn factored(
        state: State,
        factors: Factors,
        actual: Vec<bool>,
        limits: SymbolicLimits,
    ) -> SymbolicModel {
        SymbolicModel::build(state, OnceCell::new(), Some(factors), actual, limits)
    }

    /// The model of a move made on the factors (`factors.rs`).
    fn made(made: factors::Made, limits: SymbolicLimits) -> SymbolicModel {
        SymbolicModel::factored(made.state, made.factors, made.actual, limits)
    }

    /// The same model with nothing computed yet: no considered set,
    /// projection or truth set kept.
    #[cfg(test)]
    fn afresh(&self) -> SymbolicModel {
        let i = &*self.inner;
        SymbolicModel::build(
            i.state.clone(),
            i.law.clone(),
            i.factors.clone(),
            i.actual.clone(),
            i.limits,
        )
    }

    /// This model, with its law also kept as `factors`.
    fn with_factors(self, factors: Factors) -> SymbolicModel {
        match Rc::try_unwrap(self.inner) {
            Ok(mut inner) => {
                inner.factors = Some(factors);
                SymbolicModel {
                    inner: Rc::new(inner),
                }
            }
            Err(inner) => SymbolicModel { inner },
        }
    }

    fn build(
        state: State,
        law: OnceCell<Bdd>,
        factors: Option<Factors>,
        actual: Vec<bool>,
        limits: SymbolicLimits,
    ) -> SymbolicModel {
        let considered = (0..state.obs.len()).map(|_| OnceCell::new()).collect();
        SymbolicModel {
            inner: Rc::new(Inner {
                considered,
                state,
                law,
                factors,
                actual,
                limits,
                reach: OnceCell::new(),
                counts: OnceCell::new(),
                listed: OnceCell::new(),
                marginals: Default::default(),
                projections: Default::default(),
                values: Default::default(),
                atoms: Default::default(),
                heres: Default::default(),
                facts_of: OnceCell::new(),
                actual_counts: OnceCell::new(),
            }),
        }
    }

    /// The actual world's cards and propositions, read off the actual state.
    pub fn actual_view(&self) -> WorldView {
        let (cards, props) = self.actual_values();
        WorldView {
            id: self.actual(),
            cards,
            props,
        }
    }

    /// The actual state's cards per location and propositions (no listing).
    fn actual_values(&self) -> (super::Allocation, Vec<bool>) {
        let st = &self.inner.state;
        let meta = &*st.meta;
        let counts = self.actual_counts();
        let cards = (0..meta.locs)
            .map(|l| {
                (0..meta.copies.len())
                    .map(|k| counts[meta.fact(k, l)])
                    .collect()
            })
            .collect();
        let props = st
            .props
            .iter()
            .map(|&v| self.inner.actual[v as usize])
            .collect();
        (cards, props)
    }

    /// The actual state's count of every fact (derived and rest counts
    /// filled in), kept with the model.
    fn actual_counts(&self) -> &[u32] {
        self.inner.actual_counts.get_or_init(|| {
            let st = &self.inner.state;
            let value = |vars: &[VarNo]| -> u32 {
                vars.iter()
                    .enumerate()
                    .map(|(i, &v)| u32::from(self.inner.actual[v as usize]) << i)
                    .sum()
            };
            let mut counts: Vec<u32> = st.facts.iter().map(|f| value(f)).collect();
            derived::fill_all(st, &mut counts);
            counts
        })
    }

    /// Whether a count atom holds at the actual state, from the actual
    /// counts (no BDD of the atom: a count over every kind of a pile is
    /// a sum of dozens of bit vectors). `None` for any other atom, and
    /// for one out of range, which the BDD path refuses.
    fn count_here(&self, a: &Atom) -> Option<bool> {
        let Atom::Count { loc, kinds, cmp, n } = a else {
            return None;
        };
        let meta = self.meta();
        if *loc >= meta.locs || kinds.iter().any(|&k| k >= meta.copies.len()) {
            return None;
        }
        let counts = self.actual_counts();
        let sum = kinds.iter().fold(0u32, |acc, &k| {
            acc.saturating_add(counts[meta.fact(k, *loc)])
        });
        Some(cmp.holds(sum, *n))
    }

    /// Ok when the reachable states can be listed as worlds: at most
    /// `limits.list`, and at most [`LISTED_PER_AGENT`] times that many
    /// (world, agent) pairs, since a listing computes every agent's
    /// relation (166,751 worlds of muddy children with 100 children took
    /// over 20 s to list; they are answered from the BDDs instead).
    pub fn listable(&self) -> Result<(), EngineError> {
        let count = self
            .state_counts(None)
            .map_or(u128::MAX, |(s, _)| walk::saturate(&s));
        let budget = self.list_budget();
        if count <= budget {
            Ok(())
        } else {
            Err(EngineError::TooManyWorlds { count, budget })
        }
    }

    /// The most worlds [`SymbolicModel::listable`] lists for this model's
    /// number of agents.
    fn list_budget(&self) -> u128 {
        let list = self.inner.limits.list;
        let agents = self.inner.state.obs.len().max(1) as u128;
        list.min(list.saturating_mul(LISTED_PER_AGENT) / agents)
    }

    /// Whether [`Backend::world_count`] and [`Backend::considers`] are the
    /// explicit engine's counts: true when the reachable states have
    /// pairwise different values or are few enough to be listed and
    /// contracted; false when the count is the number of states (an upper bound).
    pub fn count_is_exact(&self) -> bool {
        match self.state_counts(None) {
            Ok((s, v)) => s == v || walk::saturate(&s) <= self.list_budget(),
            Err(_) => false,
        }
    }

    /// The nodes of the law: of the whole BDD when it has been built, else
    /// of its factors.
    pub fn bdd_nodes(&self) -> usize {
        match (self.inner.law.get(), &self.inner.factors) {
            (Some(law), _) => law.node_count(),
            (None, Some(f)) => f.node_count(),
            (None, None) => 0,
        }
    }

    /// Whether the law is kept as factors (see `factors.rs`).
    pub fn is_factored(&self) -> bool {
        self.inner.factors.is_some()
    }

    /// θ as one BDD (conjoined from the factors once, when first asked).
    fn law(&self) -> Res<Bdd> {
        if let Some(law) = self.inner.law.get() {
            return Ok(law.clone());
        }
        let f =
            self.inner.factors.as_ref().ok_or_else(|| {
                EngineError::Malformed("a symbolic model without a law".to_string())
            })?;
        let law = self.meta().retry(|| f.whole())?;
        Ok(self.inner.law.get_or_init(|| law).clone())
    }

    /// The number of variables in the structure's vocabulary.
    pub fn variables(&self) -> usize {
        self.inner.state.live.len()
    }

    /// The shared manager and deck shape.
    fn meta(&self) -> &Meta {
        &self.inner.state.meta
    }

    /// The reachable states (computed once).
    fn reach(&self) -> Res<Bdd> {
        if let Some(r) = self.inner.reach.get() {
            return Ok(r.clone());
        }
        let r = self
            .meta()
            .retry(|| counts::reachable(&self.inner.state, &self.law()?, &self.inner.actual))?;
        Ok(self.inner.reach.get_or_init(|| r).clone())
    }

    /// `result`, or, when it is a refusal of beliefs (an event model whose
    /// relation is not an equivalence, in a dynamic modality), the answer
    /// of the listed model, which is bisimilar to this one: the same rule
    /// as for moves (see [`Backend::apply`]).
    fn or_listed<T>(
        &self,
        result: Result<T, EngineError>,
        explicit: impl FnOnce(&ExplicitModel) -> Result<T, EngineError>,
    ) -> Result<T, EngineError> {
        match result {
            Err(EngineError::Unsupported(why)) => match self.listed() {
                Some(listed) => explicit(listed),
                None => Err(EngineError::Unsupported(format!(
                    "{why}, and this model is too large to hand over to the explicit engine"
                ))),
            },
            other => other,
        }
    }

    /// This model as a belief structure (no belief variables yet): where
    /// an event model with beliefs is applied, in a move or in a formula.
    pub fn beliefs(&self) -> Result<BeliefModel, EngineError> {
        let law = self.meta().retry(|| self.law())?;
        Ok(BeliefModel::of_knowledge(
            self.inner.state.clone(),
            law,
            self.inner.actual.clone(),
            self.inner.limits,
        ))
    }

    /// The listed model, when listable.
    fn listed(&self) -> Option<&ExplicitModel> {
        self.inner
            .listed
            .get_or_init(|| {
                if self.surely_too_many() {
                    return None;
                }
                self.listable().ok()?;
                let reach = self.reach().ok()?;
                Some(counts::materialize(
                    &self.inner.state,
                    &reach,
                    &self.inner.actual,
                ))
            })
            .as_ref()
    }

    /// Whether some agent alone considers more states possible than
    /// the list budget: then the reachable states (a superset) cannot be
    /// listed. Cheaper than counting the reachable states (no fixpoint),
    /// so that models far too large to list never compute them unasked.
    fn surely_too_many(&self) -> bool {
        let n = self.list_budget();
        let st = &self.inner.state;
        (0..st.obs.len()).any(|a| {
            self.meta()
                .retry(|| self.considered(a))
                .is_ok_and(|set| walk::count(&set, &st.live) > n)
        })
    }

    /// States and distinct values among the reachable states (those `agent` considers possible).
    fn state_counts(&self, agent: Option<Agent>) -> Res<(BigUint, BigUint)> {
        if agent.is_none() {
            if let Some(c) = self.inner.counts.get() {
                return Ok(c.clone());
            }
        }
        let st = &self.inner.state;
        let mut set = self.reach()?;
        if let Some(a) = agent {
            let seen = st.observed(a)?;
            set = oom(set.and(
                &st.meta
                    .assignment(seen, |v| self.inner.actual[v as usize])?,
            ))?;
        }
        let r = counts::state_and_value_counts(st, &set)?;
        if agent.is_none() {
            let _ = self.inner.counts.set(r.clone());
        }
        Ok(r)
    }

    /// Whether `t` holds at the actual state.
    fn at_actual(&self, t: &Bdd) -> bool {
        walk::value_at(t, &self.inner.actual)
    }

    /// The law to evaluate `f` under: the reachable states when `f` reads
    /// the whole model (D of no agent, updates that may refuse), else θ.
    fn law_for(&self, f: &Formula) -> Res<Bdd> {
        if reads_whole_model(f) {
            self.reach()
        } else {
            self.law()
        }
    }

    /// The law to evaluate the preconditions and postconditions of `em` under.
    fn law_for_events(&self, em: &EventModel) -> Res<Bdd> {
        let whole = em.events.iter().any(|e| {
            reads_whole_model(&e.pre)
                || e.post
                    .iter()
                    .any(|p| matches!(p, Post::Set(_, f) if reads_whole_model(f)))
        });
        if whole {
            self.reach()
        } else {
            self.law()
        }
    }

    /// The states that agree with the actual state on what `group`
    /// observes together.
    fn considered_by(&self, group: &[Agent]) -> Res<Bdd> {
        let st = &self.inner.state;
        let seen = st.union_obs(group)?;
        let here = st
            .meta
            .assignment(&seen, |v| self.inner.actual[v as usize])?;
        match &self.inner.factors {
            Some(f) if self.inner.law.get().is_none() => f.and_all(st, &here, &seen),
            _ => oom(self.law()?.and(&here)),
        }
    }

    /// The cube of what `group` observes at the actual state, when its
    /// considered set is better left unbuilt: on a law kept as factors
    /// and not yet conjoined, for a group of one agent whose `C_a` is not
    /// built yet and who sees all but at most two locations wholly. A
    /// query that reads a few locations then meets the projection of
    /// `θ ∧ here` on them, made from the factors and a marginal of the
    /// other unseen location (`local.rs`, `Set::Considered`), so a
    /// knowledge game of full-deck Go Fish builds no `C_a` after each
    /// move. With three unseen hands (Kwartet), each marginal is a
    /// product of two of them, and one `C_a` and one pass over it for
    /// every variable's values cost less.
    fn unbuilt(&self, group: &[Agent]) -> Res<Option<Bdd>> {
        let inner = &*self.inner;
        if inner.factors.is_none() || inner.law.get().is_some() {
            return Ok(None);
        }
        let [a] = group else { return Ok(None) };
        let Some(cell) = inner.considered.get(*a) else {
            return Ok(None);
        };
        if cell.get().is_some() {
            return Ok(None);
        }
        if let Some(here) = inner.heres.borrow().get(a) {
            return Ok(here.clone());
        }
        let st = &inner.state;
        let seen = st.observed(*a)?;
        let unseen = (0..st.meta.locs)
            .filter(|&l| {
                factors::location_vars(st, l)
                    .iter()
                    .any(|v| seen.binary_search(v).is_err())
            })
            .count();
        let here = if unseen <= UNBUILT_UNSEEN {
            Some(self.meta().assignment(seen, |v| inner.actual[v as usize])?)
        } else {
            None
        };
        inner.heres.borrow_mut().insert(*a, here.clone());
        Ok(here)
    }

    /// Whether the factor of the one location `s` reads implies `s` (so
    /// θ, its conjunction with the rest, does): false without factors,
    /// when `s` reads more than one location or a variable of none, or
    /// when the factor does not.
    fn factors_imply(&self, s: &Bdd) -> Res<bool> {
        let Some(f) = &self.inner.factors else {
            return Ok(false);
        };
        let support = walk::support(s);
        let facts = self.facts_of();
        let locs = self.meta().locs;
        let place = |v: VarNo| match facts.get(v as usize) {
            Some(&f) if f != usize::MAX => f % locs,
            _ => usize::MAX,
        };
        let Some(&first) = support.first() else {
            return Ok(false);
        };
        let l = place(first);
        // A second location's factor would be conjoined with the first
        // as if unrelated (a product of hands).
        if l == usize::MAX || support.iter().any(|&v| place(v) != l) {
            return Ok(false);
        }
        let Some(Some(part)) = f.parts.get(l) else {
            return Ok(false);
        };
        if let [v] = support[..] {
            // One variable: the factor implies s iff it never takes the
            // other value there (the values its variables take, found in
            // one pass and kept with the model).
            let positive = *s == self.meta().var(v)?;
            return Ok(!self.takes(part, v, !positive));
        }
        Ok(!self
            .meta()
            .and_exists(part, &oom(s.not())?, &support)?
            .satisfiable())
    }

    /// The fact of each variable (`usize::MAX` for a variable that holds
    /// no count), kept with the model.
    fn facts_of(&self) -> &[usize] {
        self.inner.facts_of.get_or_init(|| {
            let st = &self.inner.state;
            let mut facts = vec![usize::MAX; st.meta.num_vars()];
            for (fact, vars) in st.facts.iter().enumerate() {
                for &v in vars {
                    facts[v as usize] = fact;
                }
            }
            facts
        })
    }

    /// Whether a state of `C_a` in `s` is found among the states a card
    /// or a swap of two cards away from the actual state: one copy of a
    /// kind that `s` reads moved between two locations `a` sees nothing
    /// of (other hands, the stock), and maybe one copy of another kind
    /// moved back. Such a state
    /// agrees with the actual one on all `a` observes, so it is in `C_a`
    /// iff it is a θ-state, which is read off the law (or the deck and
    /// each factor) along one path each. True is exact: the state is
    /// checked, not assumed. False says only that none was found, and
    /// the caller builds `C_a` to decide; so it is also false at once
    /// when `C_a` is built, or the structure is not one of counts.
    ///
    /// In Königrufen, most of a strategy's knowledge questions are
    /// "does `a` know whose team `y` is on" (`y` holds the called king
    /// or not), and a player who cannot tell is shown so by moving the
    /// king, or a card in exchange for it: no product of the three
    /// unseen hands is built for them.
    fn witness(&self, a: Agent, s: &Bdd) -> Res<bool> {
        let inner = &*self.inner;
        let st = &inner.state;
        let meta = self.meta();
        match inner.considered.get(a) {
            Some(cell) if cell.get().is_none() => {}
            _ => return Ok(false),
        }
        if st.rest.iter().any(Option::is_some) {
            return Ok(false);
        }
        let seen = st.observed(a)?;
        // The derived location (the stock) has no variables: a card moved
        // there or from there changes only the other location's count.
        let unseen: Vec<usize> = (0..meta.locs)
            .filter(|&l| {
                let lv = factors::location_vars(st, l);
                st.derived == Some(l)
                    || !lv.is_empty() && lv.iter().all(|v| seen.binary_search(v).is_err())
            })
            .collect();
        if unseen.len() < 2 {
            return Ok(false);
        }
        let facts = self.facts_of();
        let mut targets: Vec<usize> = walk::support(s)
            .iter()
            .filter_map(|&v| facts.get(v as usize).copied())
            .filter(|&f| f != usize::MAX && unseen.contains(&(f % meta.locs)))
            .collect();
        targets.sort_unstable();
        targets.dedup();
        let law = inner.law.get();
        let counts = self.actual_counts();
        let fits = |f: usize, x: u32| {
            let width = st.facts[f].len();
            st.derived == Some(f % meta.locs) || width >= 32 || x >> width == 0
        };
        let mut values = inner.actual.clone();
        let mut found = |changes: &[(usize, u32)]| -> bool {
            for &(f, x) in changes {
                for (i, &v) in st.facts[f].iter().enumerate() {
                    values[v as usize] = x >> i & 1 == 1;
                }
            }
            let ok = walk::value_at(s, &values)
                && match (law, &inner.factors) {
                    (Some(law), _) => walk::value_at(law, &values),
                    (None, Some(f)) => {
                        walk::value_at(&f.deck, &values)
                            && f.parts.iter().flatten().all(|p| walk::value_at(p, &values))
                    }
                    (None, None) => false,
                };
            for &(f, _) in changes {
                for &v in &st.facts[f] {
                    values[v as usize] = inner.actual[v as usize];
                }
            }
            ok
        };
        // One copy of kind k from `from` to `to`, where it is there and fits.
        let step = |k: usize, from: usize, to: usize| -> Option<[(usize, u32); 2]> {
            let (f, t) = (meta.fact(k, from), meta.fact(k, to));
            (counts[f] > 0 && fits(t, counts[t] + 1))
                .then(|| [(f, counts[f] - 1), (t, counts[t] + 1)])
        };
        let mut tried = 0;
        // Some(answer) once a state is found or the tries are spent.
        let mut attempt = |changes: &[(usize, u32)]| -> Option<bool> {
            if tried >= WITNESS_TRIES {
                return Some(false);
            }
            tried += 1;
            found(changes).then_some(true)
        };
        for &t in &targets {
            let (k, l) = (t / meta.locs, t % meta.locs);
            for &m in unseen.iter().filter(|&&m| m != l) {
                for (from, to) in [(l, m), (m, l)] {
                    let Some(one) = step(k, from, to) else {
                        continue;
                    };
                    if let Some(answer) = attempt(&one) {
                        return Ok(answer);
                    }
                    for j in (0..meta.copies.len()).filter(|&j| j != k) {
                        let Some(back) = step(j, to, from) else {
                            continue;
                        };
                        if let Some(answer) = attempt(&[one[0], one[1], back[0], back[1]]) {
                            return Ok(answer);
                        }
                    }
                }
            }
        }
        Ok(false)
    }

    /// Whether some state of the set `x` takes `value` at `v`
    /// (`walk::values_taken`, kept with the model for each set).
    fn takes(&self, x: &Bdd, v: VarNo, value: bool) -> bool {
        let bit = if value { 2 } else { 1 };
        if let Some(taken) = self.inner.values.borrow().get(x) {
            return taken.get(&v).map_or(x.satisfiable(), |b| b & bit != 0);
        }
        let taken = walk::values_taken(x);
        let answer = taken.get(&v).map_or(x.satisfiable(), |b| b & bit != 0);
        self.inner.values.borrow_mut().insert(x.clone(), taken);
        answer
    }

    /// `C_a`, kept with the model.
    fn considered(&self, a: Agent) -> Res<Bdd> {
        let cell = self.inner.considered.get(a).ok_or_else(|| {
            EngineError::Malformed(format!("agent {a} out of range ({} agents)", self.agents()))
        })?;
        if let Some(c) = cell.get() {
            return Ok(c.clone());
        }
        let c = self.considered_by(&[a])?;
        Ok(cell.get_or_init(|| c).clone())
    }

    /// Whether `f` holds at the actual state, through the agents'
    /// considered sets (`local.rs`).
    fn holds_here(&self, f: &Formula) -> Res<bool> {
        let whole = |g: &Formula| self.truth(g);
        let at_actual = |t: &Bdd| self.at_actual(t);
        let considered = |a: Agent| self.considered(a);
        let considered_by = |g: &[Agent]| self.considered_by(g);
        // On a factored law, the locations r leaves alone are quantified
        // once per model, in a marginal (`Factors::and_exists`); θ is
        // conjoined (once per model) only when r reads every location.
        // Conjoining all the factors to r for every query, or building θ
        // for the second-order queries, would make each query pay for
        // the whole law; a marginal is kept and shared.
        let law_and_exists = |r: &Bdd, vars: &[VarNo]| {
            if let Some(f) = &self.inner.factors {
                let marginal = |out: &[usize]| {
                    memoized(&self.inner.marginals, out.to_vec(), || {
                        f.marginal(&self.inner.state, out)
                    })
                };
                if let Some(x) = f.and_exists(&self.inner.state, r, vars, marginal)? {
                    return Ok(x);
                }
            }
            self.meta().and_exists(&self.law()?, r, vars)
        };
        let project = |x: &Bdd, keep: &[VarNo]| {
            memoized(
                &self.inner.projections,
                (x.clone(), keep.to_vec(), false),
                || self.meta().exists(x, &self.inner.state.live_except(keep)),
            )
        };
        let law_project = |r: &Bdd, keep: &[VarNo]| {
            memoized(
                &self.inner.projections,
                (r.clone(), keep.to_vec(), true),
                || law_and_exists(r, &self.inner.state.live_except(keep)),
            )
        };
        let takes = |x: &Bdd, v: VarNo, value: bool| -> Res<bool> { Ok(self.takes(x, v, value)) };
        let unbuilt = |g: &[Agent]| self.unbuilt(g);
        let law_implies = |s: &Bdd| self.factors_imply(s);
        let count_here = |a: &Atom| self.count_here(a);
        let witness = |a: Agent, s: &Bdd| self.witness(a, s);
        local::Here {
            st: &self.inner.state,
            law_and_exists: &law_and_exists,
            project: &project,
            law_project: &law_project,
            whole: &whole,
            at_actual: &at_actual,
            considered: &considered,
            considered_by: &considered_by,
            takes: &takes,
            unbuilt: &unbuilt,
            law_implies: &law_implies,
            count_here: &count_here,
            witness: &witness,
        }
        .holds(f)
    }

    /// The truth set of `f`.
    fn truth(&self, f: &Formula) -> Res<Bdd> {
        if !local::modal(f) {
            // Present facts only: the law is not read (nor built from factors).
            return eval::eval_in(&self.inner.state, &self.meta().top(), f, &self.inner.atoms);
        }
        eval::eval_in(&self.inner.state, &self.law_for(f)?, f, &self.inner.atoms)
    }

    /// Product update with the transformer of `em`, then cleanup. A
    /// factored law is updated on the factors of the locations the moves
    /// change (`factors.rs`); anything else on the whole law.
    fn update(&self, em: &EventModel, chosen: Option<EventId>) -> Res<SymbolicModel> {
        let inner = &*self.inner;
        let classes = transform::check(&inner.state, em)?;
        if let Some(f) = &inner.factors {
            if let Some(reach) = factors::touched(&inner.state, em, f) {
                // A public move of known cards sets counts on the
                // factors, without the transformer (`factors.rs`).
                let pres = transform::pres_in(&inner.state, &self.meta().top(), em, &inner.atoms)?;
                let possible: Vec<bool> = pres.iter().map(|p| self.at_actual(p)).collect();
                let e = crate::engine::event::choose(em, &possible, chosen)?;
                let step = factors::Step {
                    st: &inner.state,
                    factors: f,
                    em,
                    classes: &classes,
                    pres: &pres,
                    e,
                    actual: &inner.actual,
                };
                if let Some(made) = self.meta().retry(|| factors::public_move(&step))? {
                    counters::count(Counter::PublicMove);
                    if !em.events[e].post.is_empty() {
                        counters::count(Counter::PublicMoveOfCards);
                    }
                    return Ok(SymbolicModel::made(made, inner.limits));
                }
                // So does a private draw from the stock.
                if let Some(made) = self.meta().retry(|| factors::private_draw(&step))? {
                    counters::count(Counter::PrivateDraw);
                    return Ok(SymbolicModel::made(made, inner.limits));
                }
                let law = self.meta().retry(|| f.touched_law(&reach.moved))?;
                match self.update_on(em, chosen, &law, Law::Factored) {
                    Ok((state, result, actual)) => {
                        if let Some(f) = factors::rejoin(&inner.state, &state, &result, f, &reach)?
                        {
                            return Ok(SymbolicModel::factored(state, f, actual, inner.limits));
                        }
                        // The result does not split: the update is made
                        // again on the whole law, as if there were no factors.
                    }
                    // The weaker law may hold states lacking the cards that θ
                    // rules out: the whole law decides.
                    Err(EngineError::MissingCards { .. }) => {}
                    Err(e) => return Err(e),
                }
            }
        }
        let law = self.law_for_events(em)?;
        let (state, law, actual) = self.update_on(em, chosen, &law, Law::Whole)?;
        Ok(SymbolicModel::new(state, law, actual, inner.limits))
    }

    /// The transformer of `em` applied to `law` (θ, or a factored
    /// update's weaker law on which the update is exact, see `factors.rs`),
    /// then the cleanup: the new variables, law and actual state. On θ, an
    /// update refused for missing cards is retried on the reachable states.
    fn update_on(
        &self,
        em: &EventModel,
        chosen: Option<EventId>,
        law: &Bdd,
        which: Law,
    ) -> Res<(State, Bdd, Vec<bool>)> {
        let inner = &*self.inner;
        let whole = which == Law::Whole;
        let pres = transform::pres_in(&inner.state, law, em, &inner.atoms)?;
        // An event can tell its observers an old present variable (a peek
        // at a slot tells the peeker the slot's card): the variables the
        // preconditions of a move without factual change read are
        // candidates for cleanup step 2 as well (a move with factual change
        // gives its news in the fresh variables). A move of one event (a
        // public announcement) tells nobody apart from anything, and its
        // precondition can read every variable (muddy children's "nobody
        // knows"): testing them all would cost a pass per variable of
        // the law for nothing.
        let observation = em.events.len() > 1 && em.events.iter().all(|e| e.post.is_empty());
        let mut read: Vec<VarNo> = if observation {
            pres.iter().flat_map(walk::support).collect()
        } else {
            Vec::new()
        };
        read.sort_unstable();
        read.dedup();
        let possible: Vec<bool> = pres.iter().map(|p| self.at_actual(p)).collect();
        let e = crate::engine::event::choose(em, &possible, chosen)?;
        let t =
            match transform::transform(&inner.state, law, em, Some(pres.clone()), Some(e), whole) {
                Err(EngineError::MissingCards { .. }) if whole => {
                    // θ may hold unreachable states the explicit model does not have.
                    transform::transform(
                        &inner.state,
                        &self.reach()?,
                        em,
                        Some(pres),
                        Some(e),
                        true,
                    )?
                }
                other => other?,
            };
        let mut actual = inner.actual.clone();
        actual.resize(inner.state.meta.num_vars(), false);
        let position = t.kept.iter().position(|&k| k == e).unwrap_or(0);
        for (i, &v) in t.event_bits.iter().enumerate() {
            actual[v as usize] = position >> i & 1 == 1;
        }
        for (v, def) in &t.defs {
            let value = def.eval(actual.iter().enumerate().map(|(x, &b)| (x as VarNo, b)));
            actual[*v as usize] = value;
        }
        let mut state = t.state;
        let current = state.current();
        let mut fresh_current: Vec<VarNo> = t
            .fresh
            .iter()
            .copied()
            .filter(|v| current.binary_search(v).is_ok())
            .collect();
        fresh_current.extend(
            read.into_iter()
                .filter(|v| current.binary_search(v).is_ok() && !t.fresh.contains(v)),
        );
        let derived = &t.derived;
        let support = |x: VarNo| {
            derived
                .iter()
                .find(|(v, _)| *v == x)
                .map(|(_, d)| walk::support(d))
        };
        // The cleanup's optional tests: always on θ; on a factored update's
        // small law only for an observation (a peek tells the peeker a
        // slot, and its event variables go only once the peeker observes
        // the slot), as a move's news are in its fresh variables.
        let tests = whole || observation;
        let law = cleanup::cleanup(&mut state, t.law, &actual, &fresh_current, &support, tests)?;
        Ok((state, law, actual))
    }
}

/// Which law an update runs on.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Law {
    /// θ itself.
    Whole,
    /// The weaker law of the factors a move touches (`factors.rs`).
    Factored,
}

/// Whether `f` reads more than the actual state's neighbourhood: D of the
/// empty group (the universal relation) or an update (whose refusals
/// depend on every state).
fn reads_whole_model(f: &Formula) -> bool {
    match f {
        Formula::Top | Formula::Bottom | Formula::Atom(_) => false,
        Formula::D(g, h) => g.is_empty() || reads_whole_model(h),
        Formula::Update(..) | Formula::UpdateDiamond(..) => true,
        Formula::Not(g) | Formula::K(_, g) | Formula::M(_, g) | Formula::Kw(_, g) => {
            reads_whole_model(g)
        }
        Formula::E(_, g) | Formula::C(_, g) => reads_whole_model(g),
        Formula::And(gs) | Formula::Or(gs) => gs.iter().any(reads_whole_model),
        Formula::Implies(a, b) | Formula::Iff(a, b) => reads_whole_model(a) || reads_whole_model(b),
        Formula::Announce(a, b) | Formula::AnnounceDiamond(a, b) => {
            reads_whole_model(a) || reads_whole_model(b)
        }
    }
}

/// `eval_at` of a symbolic model (knowledge or belief structure): in its
/// listing when it has one, else at the actual state alone (world 0, the
/// actual world of a model too large to list).
fn eval_at_listed(
    listed: Option<&ExplicitModel>,
    f: &Formula,
    w: WorldId,
    at_actual: impl FnOnce() -> Result<bool, EngineError>,
) -> Result<bool, EngineError> {
    match listed {
        Some(m) => m.eval_at(f, w),
        None if w == 0 => at_actual(),
        None => Err(EngineError::Malformed(format!(
            "world {w}: the model is too large to list its worlds"
        ))),
    }
}

/// `satisfying` of a symbolic model: in its listing when it has one,
/// else the actual world where `f` holds there.
fn satisfying_listed(
    listed: Option<&ExplicitModel>,
    f: &Formula,
    at_actual: impl FnOnce() -> Result<bool, EngineError>,
) -> Result<Vec<WorldId>, EngineError> {
    match listed {
        Some(m) => m.satisfying(f),
        None => Ok(if at_actual()? { vec![0] } else { Vec::new() }),
    }
}

impl Backend for SymbolicModel {
    fn eval_actual(&self, f: &Formula) -> Result<bool, EngineError> {
        if belief::needs_beliefs(f) {
            return self.beliefs()?.eval_actual(f);
        }
        let r = self.meta().retry(|| self.holds_here(f));
        self.or_listed(r, |m| m.eval_actual(f))
    }

    fn eval_valid(&self, f: &Formula) -> Result<bool, EngineError> {
        if belief::needs_beliefs(f) {
            return self.beliefs()?.eval_valid(f);
        }
        let r = self.meta().retry(|| {
            let reach = self.reach()?;
            let t = eval::eval_in(&self.inner.state, &reach, f, &self.inner.atoms)?;
            Ok(oom(reach.imp(&t))?.valid())
        });
        self.or_listed(r, |m| m.eval_valid(f))
    }

    fn eval_at(&self, f: &Formula, w: WorldId) -> Result<bool, EngineError> {
        eval_at_listed(self.listed(), f, w, || self.eval_actual(f))
    }

    fn satisfying(&self, f: &Formula) -> Result<Vec<WorldId>, EngineError> {
        satisfying_listed(self.listed(), f, || self.eval_actual(f))
    }

    fn apply(
        &self,
        model: &EventModel,
        actual: Option<EventId>,
    ) -> Result<Rc<dyn Backend>, EngineError> {
        if belief::is_belief(model) {
            // An event relation that is not an equivalence: the model
            // becomes a belief structure (`belief.rs`), at any size.
            return self.beliefs()?.apply(model, actual);
        }
        match self.meta().retry(|| self.update(model, actual)) {
            Ok(next) => Ok(Rc::new(next)),
            Err(e) => self.or_listed(Err(e), |listed| listed.apply(model, actual)),
        }
    }

    fn possible_events(&self, model: &EventModel) -> Result<Vec<EventId>, EngineError> {
        if belief::is_belief(model) {
            return self.beliefs()?.possible_events(model);
        }
        if let Err(e) = transform::check(&self.inner.state, model) {
            return self.or_listed(Err(e), |m| m.possible_events(model));
        }
        let pres = self.meta().retry(|| {
            let law = self.law_for_events(model)?;
            transform::pres_in(&self.inner.state, &law, model, &self.inner.atoms)
        })?;
        Ok((0..pres.len())
            .filter(|&e| self.at_actual(&pres[e]))
            .collect())
    }

    fn world_count(&self) -> u128 {
        walk::saturate(&self.world_count_big())
    }

    fn world_count_big(&self) -> BigUint {
        match self.state_counts(None) {
            Ok((s, v)) if s == v => s,
            Ok((s, _)) => self.listed().map_or(s, |m| BigUint::from(m.len())),
            Err(_) => BigUint::from(u128::MAX),
        }
    }

    fn considers_big(&self, agent: Agent) -> BigUint {
        match self.state_counts(Some(agent)) {
            Ok((s, v)) if s == v => s,
            Ok((s, _)) => self
                .listed()
                .map_or(s, |m| BigUint::from(m.considers(agent))),
            Err(_) => BigUint::from(0u32),
        }
    }

    fn considers(&self, agent: Agent) -> u128 {
        walk::saturate(&self.considers_big(agent))
    }

    fn actual(&self) -> WorldId {
        self.listed().map_or(0, |m| m.actual())
    }

    fn accessible(&self, agent: Agent, w: WorldId) -> Vec<WorldId> {
        match self.listed() {
            Some(m) => m.accessible(agent, w),
            None if w == 0 && agent < self.agents() => vec![0],
            None => Vec::new(),
        }
    }

    fn group_accessible(&self, access: GroupAccess, group: &[Agent], w: WorldId) -> Vec<WorldId> {
        match self.listed() {
            Some(m) => m.group_accessible(access, group, w),
            None if w == 0 => vec![0],
            None => Vec::new(),
        }
    }

    fn is_s5(&self) -> bool {
        true
    }

    fn as_explicit(&self) -> Option<&ExplicitModel> {
        self.listed()
    }

    fn world(&self, w: WorldId) -> WorldView {
        match self.listed() {
            Some(m) if w < m.len() => m.world(w),
            _ => self.actual_view(),
        }
    }

    fn agents(&self) -> usize {
        self.inner.state.obs.len()
    }

    fn actual_world(&self) -> WorldView {
        self.actual_view()
    }

    fn actual_cards(&self) -> super::Allocation {
        self.actual_values().0
    }

    fn listable(&self) -> Result<(), EngineError> {
        SymbolicModel::listable(self)
    }

    fn placements(
        &self,
        kind: crate::engine::Kind,
        only: Option<Agent>,
        limit: usize,
    ) -> Option<Result<crate::engine::Placements, EngineError>> {
        Some(self.meta().retry(|| self.placements_of(kind, only, limit)))
    }

    fn shares(
        &self,
        kind: crate::engine::Kind,
        among: &crate::engine::Among,
        f: &Formula,
        limit: usize,
    ) -> Result<Vec<crate::engine::Share>, EngineError> {
        self.meta().retry(|| self.shares_of(kind, among, f, limit))
    }

    fn counts_exact(&self) -> bool {
        self.count_is_exact()
    }

    fn surely_unlistable(&self) -> bool {
        self.surely_too_many()
    }

    fn representation(&self) -> Representation {
        Representation::Symbolic {
            nodes: match &self.inner.factors {
                Some(f) => f.node_count(),
                None => self.bdd_nodes(),
            },
            variables: self.variables(),
            factored: self.is_factored(),
            collect_from: self.inner.limits.collect_from,
        }
    }
}
