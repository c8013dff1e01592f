//! The per-card view of a model too large to list (`for CARD` in figures):
//! the reachable states grouped by where the copies of one kind lie.
//!
//! For a placement p (a count of the kind at every location), `S_p` is the
//! set of reachable states with that placement. Agent a connects two
//! placements when some state of one and some state of the other agree on
//! what a observes: `∃(V∖O_a) S_p ∧ ∃(V∖O_a) S_q` is satisfiable. A count
//! is common knowledge in a placement when `C (#loc(kind) >= n)` holds in
//! all of `S_p`. These are the explicit figure's definitions read on sets
//! of states; the tests compare the two on models both engines hold.

use oxidd::BooleanFunction;

use super::counts;
use super::derived;
use super::vars::{eq_const, oom, Bdd, BitVec, Meta, Res};
use super::walk;
use super::SymbolicModel;
use crate::engine::formula::{Formula, Kind};
use crate::engine::{Agent, Among, Backend, EngineError, GroupAccess, Placements, Share};

/// At most this many placements are looked for: a figure draws far fewer.
const MOST: usize = 10_000;

impl SymbolicModel {
    /// The reachable states (with `only`, the states that agent considers
    /// possible, `C_a`) grouped by where the copies of `kind` lie (see the
    /// module's comment; an agent connects two placements through states
    /// of the set only). Past `limit` placements it stops looking and
    /// returns the ones found, without relations: the figure refuses them
    /// as too many.
    pub(crate) fn placements_of(
        &self,
        kind: Kind,
        only: Option<Agent>,
        limit: usize,
    ) -> Res<Placements> {
        let reach = match only {
            Some(a) => self.considered(a)?,
            None => self.reach()?,
        };
        let found = self.by_placement(kind, &reach, limit.min(MOST))?;
        let st = &self.inner.state;
        let meta = &*st.meta;
        let (keys, sets): (Vec<Vec<u32>>, Vec<Bdd>) = found.into_iter().unzip();
        if keys.len() > limit {
            return Ok(Placements {
                keys,
                actual: 0,
                linked: Vec::new(),
                common: Vec::new(),
            });
        }
        let actual = sets.iter().position(|s| self.at_actual(s)).unwrap_or(0);
        let mut linked = Vec::with_capacity(self.agents());
        for a in 0..self.agents() {
            let hidden = st.live_except(st.observed(a)?);
            let seen = sets
                .iter()
                .map(|s| meta.exists(s, &hidden))
                .collect::<Res<Vec<Bdd>>>()?;
            let mut pairs = Vec::new();
            for i in 0..seen.len() {
                for j in i + 1..seen.len() {
                    if oom(seen[i].and(&seen[j]))?.satisfiable() {
                        pairs.push((i, j));
                    }
                }
            }
            linked.push(pairs);
        }
        // Common knowledge is read in the whole model, whatever the set.
        let whole = match only {
            Some(_) => self.reach()?,
            None => reach,
        };
        let common = vec![self.least_counts(kind, &whole)?; keys.len()];
        Ok(Placements {
            keys,
            actual,
            linked,
            common,
        })
    }

    /// [`Backend::shares`] from sets of states: the states `among` counts
    /// (the reachable ones, `C_a`, their union for `E`, the states that
    /// agree with the actual one on all the group sees for `D`, and the
    /// fixpoint of the group's steps for `C`), split by where `kind` lies;
    /// in each part, the states where `f` holds. Stops after `limit + 1`
    /// placements.
    pub(crate) fn shares_of(
        &self,
        kind: Kind,
        among: &Among,
        f: &Formula,
        limit: usize,
    ) -> Res<Vec<Share>> {
        let st = &self.inner.state;
        let set = self.among(among)?;
        let truth = self.truth(f)?;
        let found = self.by_placement(kind, &set, limit)?;
        let here: Vec<u32> = self
            .actual_cards()
            .iter()
            .map(|at| at.get(kind).copied().unwrap_or(0))
            .collect();
        found
            .into_iter()
            .map(|(key, part)| {
                let holding = oom(part.and(&truth))?;
                Ok(Share {
                    actual: key == here,
                    worlds: walk::count_big(&part, &st.live),
                    holding: walk::count_big(&holding, &st.live),
                    key,
                })
            })
            .collect()
    }

    /// The states of `set` split by where the copies of `kind` lie, each
    /// placement with its states; stops after `cap + 1` placements.
    fn by_placement(&self, kind: Kind, set: &Bdd, cap: usize) -> Res<Vec<(Vec<u32>, Bdd)>> {
        let st = &self.inner.state;
        let meta = &*st.meta;
        if kind >= meta.copies.len() {
            return Err(EngineError::Malformed(format!(
                "card kind {kind} out of range ({} kinds)",
                meta.copies.len()
            )));
        }
        let values = (0..meta.locs)
            .map(|l| derived::fact_value(st, kind, l))
            .collect::<Res<Vec<BitVec>>>()?;
        let mut found = Vec::new();
        let mut key = Vec::with_capacity(meta.locs);
        split(
            meta,
            &values,
            meta.copies[kind],
            set,
            &mut key,
            &mut found,
            cap,
        )?;
        Ok(found)
    }

    /// The states `among` counts (see [`SymbolicModel::shares_of`]).
    fn among(&self, among: &Among) -> Res<Bdd> {
        let st = &self.inner.state;
        let meta = &*st.meta;
        let union = |group: &[Agent]| -> Res<Bdd> {
            let mut set = meta.bot();
            for &a in group {
                set = oom(set.or(&self.considered(a)?))?;
            }
            Ok(set)
        };
        match among {
            Among::Reachable => self.reach(),
            Among::Agent(a) => self.considered(*a),
            Among::Group(GroupAccess::Everybody, group) => union(group),
            Among::Group(GroupAccess::Distributed, group) if group.is_empty() => self.reach(),
            Among::Group(GroupAccess::Distributed, group) => self.considered_by(group),
            // One or more steps of the group's union, from the actual
            // state: the states one step away, then their closure.
            Among::Group(GroupAccess::Common, group) => {
                counts::closure(st, &self.law()?, union(group)?, group)
            }
        }
    }

    /// For each location, the fewest copies of `kind` it holds in a state
    /// of `set`. With `set` the reachable states, this is how many copies
    /// there are common knowledge in every reachable state: `C (#loc(kind)
    /// >= n)` holds at a reachable state iff `#loc(kind) >= n` holds in
    /// every reachable state, since the relations are equivalences and the
    /// states `C` reaches from any reachable state are all the reachable
    /// ones. (Evaluating those `C` formulas instead took minutes on a full
    /// deck; `tests/figure_placements.rs` checks the two agree.)
    fn least_counts(&self, kind: Kind, set: &Bdd) -> Res<Vec<u32>> {
        let st = &self.inner.state;
        let meta = &*st.meta;
        (0..meta.locs)
            .map(|l| {
                let value = derived::fact_value(st, kind, l)?;
                for n in 0..=meta.copies[kind] {
                    if oom(set.and(&eq_const(meta, &value, n)?))?.satisfiable() {
                        return Ok(n);
                    }
                }
                Ok(0)
            })
            .collect()
    }
}

/// Every placement of `left` copies over the locations from `key.len()`
/// on that some state of `set` has, with those states; it stops looking
/// once more than `cap` are found.
fn split(
    meta: &Meta,
    values: &[BitVec],
    left: u32,
    set: &Bdd,
    key: &mut Vec<u32>,
    found: &mut Vec<(Vec<u32>, Bdd)>,
    cap: usize,
) -> Res<()> {
    if found.len() > cap {
        return Ok(());
    }
    let l = key.len();
    if l == values.len() {
        if left == 0 {
            found.push((key.clone(), set.clone()));
        }
        return Ok(());
    }
    for n in 0..=left {
        let here = oom(set.and(&eq_const(meta, &values[l], n)?))?;
        if !here.satisfiable() {
            continue;
        }
        key.push(n);
        split(meta, values, left - n, &here, key, found, cap)?;
        key.pop();
    }
    Ok(())
}
