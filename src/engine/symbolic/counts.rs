//! The states reachable from the actual state, world counts, and the
//! explicit model of a structure small enough to list.
//!
//! The explicit engine counts the contracted model of the actual state's
//! component. A structure's reachable states with pairwise different
//! present values (as many states as allocations) are that model already;
//! otherwise the states are listed and contracted when there are few
//! enough, and the state count (an upper bound) is returned when not.

use num_bigint::BigUint;
use oxidd::{BooleanFunction, VarNo};

use super::derived;
use super::vars::{oom, Bdd, Res, State};
use super::walk;
use crate::engine::translate::Lister;
use crate::engine::ExplicitModel;

/// The states reachable from the actual state along the agents' relations
/// (a fixpoint over "agrees with a reached state on `O_a`").
pub(crate) fn reachable(st: &State, law: &Bdd, actual: &[bool]) -> Res<Bdd> {
    let meta = &*st.meta;
    let start = oom(law.and(&meta.assignment(&st.live, |v| actual[v as usize])?))?;
    let everyone: Vec<usize> = (0..st.obs.len()).collect();
    closure(st, law, start, &everyone)
}

/// The states of `start` and those reachable from them along the steps of
/// `agents` (a step of agent a: to a state of θ that agrees on what a
/// sees).
pub(crate) fn closure(st: &State, law: &Bdd, start: Bdd, agents: &[usize]) -> Res<Bdd> {
    let meta = &*st.meta;
    let mut reached = start;
    // One agent at a time (each step's set is θ ∧ a condition on what that
    // agent sees, which stays small), until a whole round adds nothing.
    let mut unchanged = 0;
    let mut i = 0;
    while unchanged < agents.len() {
        let seen = meta.exists(&reached, &st.live_except(st.observed(agents[i])?))?;
        let next = oom(law.and(&seen))?;
        if next == *law {
            // Every state θ allows is reached: no step can add one.
            return Ok(next);
        }
        if next == reached {
            unchanged += 1;
        } else {
            unchanged = 1;
            reached = next;
        }
        i = (i + 1) % agents.len();
    }
    Ok(reached)
}

/// The number of states of `set` and of distinct present values among them.
pub(crate) fn state_and_value_counts(st: &State, set: &Bdd) -> Res<(BigUint, BigUint)> {
    let states = walk::count_big(set, &st.live);
    let current = st.current();
    let values = st.meta.exists(set, &st.live_except(&current))?;
    Ok((states, walk::count_big(&values, &current)))
}

/// Where the variables of each fact, proposition and observation sit in
/// a state's live vocabulary (`st.live`, sorted): the columns of a
/// listed state's values.
pub(crate) struct Positions {
    /// Each location's counts' bits, by fact (`None`: not live).
    pub fact: Vec<Vec<Option<usize>>>,
    /// Each proposition's variable.
    pub prop: Vec<Option<usize>>,
    /// The live variables each agent observes.
    pub obs: Vec<Vec<usize>>,
}

impl Positions {
    /// The positions of `st`'s variables in `st.live`.
    pub(crate) fn of(st: &State) -> Positions {
        let pos = |v: VarNo| st.live.binary_search(&v).ok();
        Positions {
            fact: st
                .facts
                .iter()
                .map(|f| f.iter().map(|&v| pos(v)).collect())
                .collect(),
            prop: st.props.iter().map(|&v| pos(v)).collect(),
            obs: st
                .obs
                .iter()
                .map(|o| o.iter().filter_map(|&v| pos(v)).collect())
                .collect(),
        }
    }
}

/// Lists the states of `set` (the reachable states) as an explicit model:
/// one world per state, agent a's classes by the values of `O_a`, then
/// contracted. `actual` is the actual state's values.
pub(crate) fn materialize(st: &State, set: &Bdd, actual: &[bool]) -> ExplicitModel {
    let meta = &*st.meta;
    let mut lister = Lister::new(meta.copies.clone(), meta.locs, meta.props, st.obs.len());
    let vocab = &st.live;
    let Positions {
        fact: fact_pos,
        prop: prop_pos,
        obs: obs_pos,
    } = Positions::of(st);
    let target: Vec<bool> = vocab.iter().map(|&v| actual[v as usize]).collect();
    let mut actual_world = 0usize;
    let mut counts = vec![0u32; fact_pos.len()];
    walk::models(set, vocab, &mut |values| {
        if values == target.as_slice() {
            actual_world = lister.len();
        }
        let bit = |p: &Option<usize>| p.is_some_and(|i| values[i]);
        for (count, pos) in counts.iter_mut().zip(&fact_pos) {
            *count = pos
                .iter()
                .enumerate()
                .map(|(i, p)| u32::from(bit(p)) << i)
                .sum();
        }
        // The rests and the derived location have no bits: filled in.
        derived::fill_all(st, &mut counts);
        let labels = obs_pos
            .iter()
            .map(|ps| ps.iter().map(|&i| values[i]).collect())
            .collect();
        lister.push(&counts, prop_pos.iter().map(bit), labels);
    });
    lister.finish(actual_world)
}
