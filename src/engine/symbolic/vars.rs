//! The variables of a knowledge structure: the BDD manager they live in,
//! which variables hold each fact's present value, who observes what, and
//! small helpers (cubes, quantifiers, bit vectors of BDDs).
//!
//! Variables are never reordered: a variable's number is its level. The
//! deal's variables come first, in an order chosen by [`fact_order`];
//! variables made by later updates are added below them.

use std::rc::Rc;

use oxidd::bcdd::{BCDDFunction, BCDDManagerRef};
use oxidd::{BooleanFunction, BooleanFunctionQuant, Manager, ManagerRef, VarNo};

use super::super::hash::FxMap;
use super::super::EngineError;

/// A BDD.
pub(crate) type Bdd = BCDDFunction;

/// The result of a BDD operation.
pub(crate) type Res<T> = Result<T, EngineError>;

/// Turns an allocation failure of the manager into an engine error.
pub(crate) fn oom<T>(r: oxidd::util::AllocResult<T>) -> Res<T> {
    r.map_err(|_| EngineError::OutOfMemory)
}

/// What every structure of one lineage shares: the manager and the deck's shape.
pub(crate) struct Meta {
    /// The BDD manager.
    pub mgr: BCDDManagerRef,
    /// Copies of each kind.
    pub copies: Vec<u32>,
    /// The number of locations.
    pub locs: usize,
    /// Dead nodes are first collected when the manager holds more nodes
    /// than this, and never at fewer (see [`Meta::next_collect`]).
    pub collect_from: usize,
    /// The node count that triggers the next collection: `collect_from`
    /// at first, then, after each collection, the nodes that survived it
    /// plus the larger of `collect_from` and the survivors. Nodes kept alive
    /// (a REPL's undo history holds every earlier model) raise it, so a
    /// collection that frees little is not repeated before every operation.
    pub next_collect: std::cell::Cell<usize>,
    /// For each target (fact index, then `facts + p` for proposition p),
    /// spare copies of its bits placed next to it in the order: an update
    /// that rewrites the target takes a copy no live variable uses, so new
    /// values stay next to the old ones. Set once when the structure is built.
    pub slots: std::cell::OnceCell<Vec<Vec<Vec<VarNo>>>>,
    /// The number of propositions.
    pub props: usize,
    /// Cubes built before, by their variables (sorted): every K of one
    /// agent quantifies the same variables, and building a cube of a few
    /// hundred variables costs as much as the quantification.
    pub cubes: std::cell::RefCell<FxMap<Vec<VarNo>, Bdd>>,
    /// The counts of rests and of the derived location built before
    /// (`derived::fact_value`), by what they read.
    pub sums: std::cell::RefCell<FxMap<Vec<VarNo>, BitVec>>,
    /// Count atoms of the derived location built before
    /// (`derived::count_atom`), by the atom and what it reads.
    pub count_atoms: std::cell::RefCell<FxMap<Vec<VarNo>, Bdd>>,
    /// For each kind and derived location, the last sum of the kind's
    /// counts elsewhere, with the variables of each count summed
    /// (`derived::fact_value`): the next one starts from it.
    pub last_sums: std::cell::RefCell<FxMap<(usize, usize), LastSum>>,
}

/// A sum of counts kept for the next one: the variables of each count
/// summed, and the sum.
pub(crate) type LastSum = (Vec<Vec<VarNo>>, BitVec);

impl Meta {
    /// Index of fact (kind, location) in [`State::facts`].
    pub fn fact(&self, k: usize, l: usize) -> usize {
        k * self.locs + l
    }

    /// The number of bits that hold any count of kind `k`.
    pub fn full_width(&self, k: usize) -> usize {
        width_for(self.copies[k])
    }

    /// Collects dead nodes when more than [`Meta::collect_from`] nodes are
    /// used. The count is the manager's running one, which lags by a few
    /// nodes per thread: the exact count locks every level's table, and
    /// this runs before every query and update.
    pub fn maybe_gc(&self) {
        self.mgr.with_manager_shared(|m| {
            if m.approx_num_inner_nodes() > self.next_collect.get() {
                m.gc();
                self.collected(m.approx_num_inner_nodes());
            }
        });
    }

    /// Sets the next collection's threshold after a collection that left
    /// `survivors` nodes.
    fn collected(&self, survivors: usize) {
        let allowance = self.collect_from.max(survivors);
        self.next_collect
            .set(survivors.saturating_add(allowance).max(self.collect_from));
    }

    /// Runs `op`; when the manager runs out of nodes, collects the dead
    /// ones and runs it once more.
    pub fn retry<T>(&self, op: impl Fn() -> Res<T>) -> Res<T> {
        self.maybe_gc();
        match op() {
            Err(EngineError::OutOfMemory) => {
                self.mgr.with_manager_shared(|m| {
                    m.gc();
                    self.collected(m.approx_num_inner_nodes());
                });
                op()
            }
            other => other,
        }
    }

    /// `width` variables for a new value of target `t`: a spare copy next
    /// to it that no variable of `live` uses, else fresh ones at the bottom.
    pub fn slot(&self, live: &[VarNo], t: usize, width: usize) -> Vec<VarNo> {
        let spare = self
            .slots
            .get()
            .and_then(|s| s.get(t))
            .into_iter()
            .flatten();
        for vars in spare {
            let free = vars.iter().all(|v| live.binary_search(v).is_err());
            if free && vars.len() >= width {
                return vars[..width].to_vec();
            }
        }
        self.fresh(width)
    }

    /// `n` fresh variables, below every existing one.
    pub fn fresh(&self, n: usize) -> Vec<VarNo> {
        if n == 0 {
            return Vec::new();
        }
        self.mgr
            .with_manager_exclusive(|m| m.add_vars(n as VarNo))
            .collect()
    }

    /// The number of variables in the manager.
    pub fn num_vars(&self) -> usize {
        self.mgr.with_manager_shared(|m| m.num_vars() as usize)
    }

    /// ⊤
    pub fn top(&self) -> Bdd {
        self.mgr.with_manager_shared(|m| Bdd::t(m))
    }

    /// ⊥
    pub fn bot(&self) -> Bdd {
        self.mgr.with_manager_shared(|m| Bdd::f(m))
    }

    /// The variable `v` as a function.
    pub fn var(&self, v: VarNo) -> Res<Bdd> {
        oom(self.mgr.with_manager_shared(|m| Bdd::var(m, v)))
    }

    /// The literal `v` (if `value`) or `¬v`.
    pub fn lit(&self, v: VarNo, value: bool) -> Res<Bdd> {
        oom(self.mgr.with_manager_shared(|m| {
            if value {
                Bdd::var(m, v)
            } else {
                Bdd::not_var(m, v)
            }
        }))
    }

    /// The conjunction of the variables `vars` (a cube for quantifiers),
    /// kept for the next time (at most [`CUBES`] of them).
    pub fn cube(&self, vars: &[VarNo]) -> Res<Bdd> {
        let mut sorted = vars.to_vec();
        sorted.sort_unstable();
        if let Some(c) = self.cubes.borrow().get(&sorted) {
            return Ok(c.clone());
        }
        let mut acc = self.top();
        for &v in sorted.iter().rev() {
            acc = oom(self.var(v)?.and(&acc))?;
        }
        let mut cubes = self.cubes.borrow_mut();
        if cubes.len() >= CUBES {
            cubes.clear();
        }
        cubes.insert(sorted, acc.clone());
        Ok(acc)
    }

    /// The conjunction of the literals `vars[i] = values[i]`.
    pub fn assignment(&self, vars: &[VarNo], value: impl Fn(VarNo) -> bool) -> Res<Bdd> {
        let mut sorted = vars.to_vec();
        sorted.sort_unstable();
        let mut acc = self.top();
        for &v in sorted.iter().rev() {
            acc = oom(self.lit(v, value(v))?.and(&acc))?;
        }
        Ok(acc)
    }

    /// ∃vars f
    pub fn exists(&self, f: &Bdd, vars: &[VarNo]) -> Res<Bdd> {
        if vars.is_empty() {
            return Ok(f.clone());
        }
        oom(f.exists(&self.cube(vars)?))
    }

    /// ∃vars (f ∧ g), in one pass.
    pub fn and_exists(&self, f: &Bdd, g: &Bdd, vars: &[VarNo]) -> Res<Bdd> {
        if vars.is_empty() {
            return oom(f.and(g));
        }
        oom(f.apply_exists(oxidd::BooleanOperator::And, g, &self.cube(vars)?))
    }
}

/// The most cubes [`Meta::cube`] keeps.
const CUBES: usize = 1024;

/// The number of bits of a count up to `max`.
pub(crate) fn width_for(max: u32) -> usize {
    (u32::BITS - max.leading_zeros()) as usize
}

/// A knowledge structure's variables: where each fact's value is, who
/// observes what, which variables the law may depend on.
#[derive(Clone)]
pub(crate) struct State {
    /// The shared manager and deck shape.
    pub meta: Rc<Meta>,
    /// For each fact (kind, location), the bits of its count, little-endian
    /// (none for the derived location).
    pub facts: Vec<Vec<VarNo>>,
    /// The location whose counts have no variables: each kind's copies not
    /// elsewhere (`derived.rs`). No agent observes it.
    pub derived: Option<usize>,
    /// For each location, the kind whose count there has no variables and
    /// the location's size: the count is the size less the other kinds'
    /// (`derived.rs`, "rest"). Empty, or one entry per location.
    pub rest: Vec<Option<(usize, u32)>>,
    /// The variable of each proposition.
    pub props: Vec<VarNo>,
    /// For each agent, the variables it observes (sorted).
    pub obs: Vec<Vec<VarNo>>,
    /// Every variable the law may depend on (sorted): the vocabulary.
    pub live: Vec<VarNo>,
}

impl State {
    /// The variables holding present values (facts and propositions), sorted.
    pub fn current(&self) -> Vec<VarNo> {
        let mut v: Vec<VarNo> = self.facts.iter().flatten().copied().collect();
        v.extend(&self.props);
        v.sort_unstable();
        v
    }

    /// The live variables not in `keep` (sorted input).
    pub fn live_except(&self, keep: &[VarNo]) -> Vec<VarNo> {
        self.live
            .iter()
            .copied()
            .filter(|v| keep.binary_search(v).is_err())
            .collect()
    }

    /// The variables observed by some agent of `group`, sorted.
    pub fn union_obs(&self, group: &[usize]) -> Res<Vec<VarNo>> {
        let mut out = Vec::new();
        for &a in group {
            out.extend(self.observed(a)?);
        }
        out.sort_unstable();
        out.dedup();
        Ok(out)
    }

    /// Agent `a`'s observed variables, or an error if there is no such agent.
    pub fn observed(&self, a: usize) -> Res<&[VarNo]> {
        self.obs.get(a).map(|o| o.as_slice()).ok_or_else(|| {
            EngineError::Malformed(format!(
                "agent {a} out of range ({} agents)",
                self.obs.len()
            ))
        })
    }

    /// Adds fresh variables to the vocabulary.
    pub fn add_live(&mut self, vars: &[VarNo]) {
        self.live.extend(vars);
        self.live.sort_unstable();
        self.live.dedup();
    }

    /// Removes variables from the vocabulary and from every observation.
    pub fn drop_vars(&mut self, vars: &[VarNo]) {
        let mut gone = vars.to_vec();
        gone.sort_unstable();
        let keep = |v: &VarNo| gone.binary_search(v).is_err();
        self.live.retain(keep);
        for o in &mut self.obs {
            o.retain(keep);
        }
    }
}

/// A number as a vector of BDDs, little-endian.
pub(crate) type BitVec = Vec<Bdd>;

/// The bits of a fact as functions.
pub(crate) fn vec_of(meta: &Meta, vars: &[VarNo]) -> Res<BitVec> {
    vars.iter().map(|&v| meta.var(v)).collect()
}

/// `x = c` for a vector of BDDs (false if `c` does not fit).
pub(crate) fn eq_const(meta: &Meta, x: &[Bdd], c: u32) -> Res<Bdd> {
    if x.len() < 32 && c >> x.len() != 0 {
        return Ok(meta.bot());
    }
    let mut acc = meta.top();
    for (i, b) in x.iter().enumerate().rev() {
        let lit = if c >> i & 1 == 1 {
            b.clone()
        } else {
            oom(b.not())?
        };
        acc = oom(lit.and(&acc))?;
    }
    Ok(acc)
}

/// `x < c`, by the bits from the most significant one.
pub(crate) fn lt_const(meta: &Meta, x: &[Bdd], c: u32) -> Res<Bdd> {
    if x.len() < 32 && c >> x.len() != 0 {
        return Ok(meta.top());
    }
    // lt over bits i..0: at bit i, c_i = 1: ¬x_i ∨ (x_i ∧ lt_rest); c_i = 0: ¬x_i ∧ lt_rest.
    let mut lt = meta.bot();
    for (i, b) in x.iter().enumerate() {
        lt = if c >> i & 1 == 1 {
            oom(b.not())?.or(&oom(b.and(&lt))?)
        } else {
            oom(b.not())?.and(&lt)
        }
        .map_err(|_| EngineError::OutOfMemory)?;
    }
    Ok(lt)
}

/// `x + y` on `width` bits (the carry out of the top bit is dropped).
pub(crate) fn add(meta: &Meta, x: &[Bdd], y: &[Bdd], width: usize) -> Res<BitVec> {
    let zero = meta.bot();
    let mut carry = meta.bot();
    let mut out = Vec::with_capacity(width);
    for i in 0..width {
        let a = x.get(i).unwrap_or(&zero);
        let b = y.get(i).unwrap_or(&zero);
        let ab = oom(a.xor(b))?;
        out.push(oom(ab.xor(&carry))?);
        carry = oom(oom(a.and(b))?.or(&oom(ab.and(&carry))?))?;
    }
    Ok(out)
}

/// The constant `c` on `width` bits.
pub(crate) fn constant(meta: &Meta, c: u128, width: usize) -> BitVec {
    (0..width)
        .map(|i| {
            if c >> i & 1 == 1 {
                meta.top()
            } else {
                meta.bot()
            }
        })
        .collect()
}

/// `x - c` on `width` bits, and the condition `x < c` (a borrow).
pub(crate) fn sub_const(meta: &Meta, x: &[Bdd], c: u32, width: usize) -> Res<(BitVec, Bdd)> {
    let under = lt_const(meta, x, c)?;
    let modulus = if width >= 32 { 0 } else { 1u32 << width };
    let neg = modulus.wrapping_sub(c) & modulus.wrapping_sub(1);
    let out = add(meta, x, &constant(meta, neg.into(), width), width)?;
    Ok((out, under))
}

/// "Σ weight·x = target" over weighted variables, built bottom-up by
/// dynamic programming on (variable, sum still to reach): at most
/// `items × (target + 1)` if-then-else steps, never an enumeration.
pub(crate) fn sum_eq(meta: &Meta, items: &[(VarNo, u32)], target: u32) -> Res<Bdd> {
    let exact = (0..=target)
        .map(|r| if r == 0 { meta.top() } else { meta.bot() })
        .collect();
    weighted_sum(meta, items, target, exact)
}

/// "Σ weight·x ≤ target", by the same dynamic program.
pub(crate) fn sum_le(meta: &Meta, items: &[(VarNo, u32)], target: u32) -> Res<Bdd> {
    let any = vec![meta.top(); target as usize + 1];
    weighted_sum(meta, items, target, any)
}

/// The dynamic program of [`sum_eq`] and [`sum_le`]: `last[r]` says what
/// the sum still allowed, r, must satisfy after the last item.
fn weighted_sum(meta: &Meta, items: &[(VarNo, u32)], target: u32, last: Vec<Bdd>) -> Res<Bdd> {
    let mut items = items.to_vec();
    items.sort_unstable();
    // below[r]: "the items after the current one leave r allowed".
    let mut below = last;
    for &(v, w) in items.iter().rev() {
        let x = meta.var(v)?;
        let mut here = Vec::with_capacity(below.len());
        for r in 0..=target {
            let taken = if r >= w {
                below[(r - w) as usize].clone()
            } else {
                meta.bot()
            };
            here.push(oom(x.ite(&taken, &below[r as usize]))?);
        }
        below = here;
    }
    Ok(below.swap_remove(target as usize))
}

/// The weighted bits of facts: bit i of each fact weighs 2^i.
pub(crate) fn weighted(facts: &[&[VarNo]]) -> Vec<(VarNo, u32)> {
    facts
        .iter()
        .flat_map(|f| f.iter().enumerate().map(|(i, &v)| (v, 1u32 << i)))
        .collect()
}

/// For each `v < cap`, the condition "Σ xs = v", and at index `cap` "Σ xs ≥ cap":
/// dynamic programming over the vectors, never enumerating assignments.
pub(crate) fn sum_table(meta: &Meta, xs: &[BitVec], cap: u32) -> Res<Vec<Bdd>> {
    let mut table = vec![meta.bot(); cap as usize + 1];
    table[0] = meta.top();
    for x in xs {
        let max = if x.len() >= 32 {
            u32::MAX
        } else {
            (1u32 << x.len()) - 1
        };
        let mut next = vec![meta.bot(); cap as usize + 1];
        for c in 0..=max.min(cap) {
            let is_c = if c == cap && max > cap {
                oom(lt_const(meta, x, cap)?.not())?
            } else {
                eq_const(meta, x, c)?
            };
            if !is_c.satisfiable() {
                continue;
            }
            for (v, before) in table.iter().enumerate() {
                if !before.satisfiable() {
                    continue;
                }
                let to = (v as u32 + c).min(cap) as usize;
                next[to] = oom(next[to].or(&oom(is_c.and(before))?))?;
            }
        }
        table = next;
    }
    Ok(table)
}

/// A small manager with `vars` variables and no deck, for unit tests.
#[cfg(test)]
pub(crate) fn test_meta(vars: usize) -> Meta {
    let m = Meta {
        mgr: oxidd::bcdd::new_manager(1 << 16, 1 << 12, 1),
        copies: vec![],
        locs: 0,
        collect_from: 1 << 15,
        next_collect: std::cell::Cell::new(1 << 15),
        slots: Default::default(),
        props: 0,
        cubes: Default::default(),
        sums: Default::default(),
        count_atoms: Default::default(),
        last_sums: Default::default(),
    };
    m.fresh(vars);
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weighted_sums_match_integers() {
        let m = test_meta(4);
        let items = [(0, 1), (1, 2), (2, 2), (3, 3)];
        for target in 0..9 {
            let eq = sum_eq(&m, &items, target).unwrap();
            let le = sum_le(&m, &items, target).unwrap();
            for bits in 0..16u32 {
                let env: Vec<bool> = (0..4).map(|i| bits >> i & 1 == 1).collect();
                let sum: u32 = items
                    .iter()
                    .filter(|(v, _)| env[*v as usize])
                    .map(|(_, w)| w)
                    .sum();
                let at = |b: &Bdd| b.eval(env.iter().enumerate().map(|(v, &x)| (v as VarNo, x)));
                assert_eq!(at(&eq), sum == target, "= {target} at {bits:04b}");
                assert_eq!(at(&le), sum <= target, "<= {target} at {bits:04b}");
            }
        }
    }

    fn value(x: &[Bdd], env: &[bool]) -> u32 {
        x.iter()
            .enumerate()
            .map(|(i, b)| {
                u32::from(b.eval(env.iter().enumerate().map(|(v, &x)| (v as VarNo, x)))) << i
            })
            .sum()
    }

    #[test]
    fn arithmetic_matches_integers() {
        let m = test_meta(6);
        let x = vec_of(&m, &[0, 1, 2]).unwrap();
        let y = vec_of(&m, &[3, 4, 5]).unwrap();
        let s = add(&m, &x, &y, 4).unwrap();
        for bits in 0..64u32 {
            let env: Vec<bool> = (0..6).map(|i| bits >> i & 1 == 1).collect();
            let (a, b) = (bits & 7, bits >> 3);
            assert_eq!(value(&s, &env), a + b);
            for c in 0..9 {
                let eq = eq_const(&m, &x, c).unwrap();
                let lt = lt_const(&m, &x, c).unwrap();
                let args = || env.iter().enumerate().map(|(v, &x)| (v as VarNo, x));
                assert_eq!(eq.eval(args()), a == c);
                assert_eq!(lt.eval(args()), a < c);
                let (d, under) = sub_const(&m, &x, c, 3).unwrap();
                assert_eq!(under.eval(args()), a < c);
                if a >= c {
                    assert_eq!(value(&d, &env), a - c);
                }
            }
            let table = sum_table(&m, &[x.clone(), y.clone()], 9).unwrap();
            for (v, t) in table.iter().enumerate() {
                let args = env.iter().enumerate().map(|(v, &x)| (v as VarNo, x));
                assert_eq!(t.eval(args), (a + b).min(9) == v as u32, "{a}+{b} at {v}");
            }
        }
    }

    #[test]
    fn widths() {
        assert_eq!(width_for(0), 0);
        assert_eq!(width_for(1), 1);
        assert_eq!(width_for(3), 2);
        assert_eq!(width_for(4), 3);
    }
}
