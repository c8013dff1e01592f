//! Observational structures for scenarios with variables (as SMCDEL's):
//! the variables' bits are the structure's propositions, the law says
//! which values are allowed, and an agent observes the bits of the
//! variables it sees. A term that is not a variable (`x + y`, `x - y`) gets
//! bits of its own, tied to the term by the law, and the agent observes
//! those; a term with subtraction is observed shifted by the largest value
//! its subtracted part can take, so that values below zero fit.

use oxidd::{BooleanFunction, VarNo};

use super::arith;
use super::cleanup;
use super::law::atom;
use super::vars::{oom, Bdd, Res, State};
use super::{new_meta, SymbolicLimits, SymbolicModel};
use crate::engine::formula::{Cmp, Comparison, Term};
use crate::engine::{Atom, EngineError, Formula, Prop};

/// What an observational structure is made of (all indices are
/// propositions of the scenario).
pub struct Observations<'a> {
    /// How many propositions (variables' bits).
    pub props: usize,
    /// Each variable's bits with its smallest and largest value.
    pub ranges: &'a [(Vec<Prop>, u64, u64)],
    /// The laws: formulas without knowledge operators.
    pub laws: &'a [Formula],
    /// The terms each agent observes.
    pub observes: &'a [Vec<Term>],
    /// The actual value of each proposition.
    pub actual: &'a [bool],
}

/// A formula without knowledge operators as a BDD.
fn plain(st: &State, f: &Formula) -> Res<Bdd> {
    let meta = &*st.meta;
    Ok(match f {
        Formula::Top => meta.top(),
        Formula::Bottom => meta.bot(),
        Formula::Atom(a) => atom(st, a)?,
        Formula::Not(g) => oom(plain(st, g)?.not())?,
        Formula::And(gs) => {
            let mut acc = meta.top();
            for g in gs {
                acc = oom(acc.and(&plain(st, g)?))?;
            }
            acc
        }
        Formula::Or(gs) => {
            let mut acc = meta.bot();
            for g in gs {
                acc = oom(acc.or(&plain(st, g)?))?;
            }
            acc
        }
        Formula::Implies(a, b) => oom(oom(plain(st, a)?.not())?.or(&plain(st, b)?))?,
        Formula::Iff(a, b) => oom(oom(plain(st, a)?.xor(&plain(st, b)?))?.not())?,
        _ => {
            return Err(EngineError::Unsupported(
                "a law with knowledge operators or updates".into(),
            ))
        }
    })
}

fn range_law(st: &State, bits: &[Prop], lo: u64, hi: u64) -> Res<Bdd> {
    let cmp = |cmp, c| {
        atom(
            st,
            &Atom::Compare(std::rc::Rc::new(Comparison {
                left: Term::Var(bits.to_vec()),
                cmp,
                right: Term::Const(c),
            })),
        )
    };
    oom(cmp(Cmp::Ge, lo)?.and(&cmp(Cmp::Le, hi)?))
}

/// The structure: the allowed assignments, each agent observing the bits
/// of what it sees.
pub(crate) fn from_observations(o: &Observations, limits: &SymbolicLimits) -> Res<SymbolicModel> {
    // The operation cache is sized as for four variables a proposition:
    // a round of knowledge (muddy children as variables) reuses results
    // over more than the propositions themselves, and a cache sized by
    // the propositions alone thrashes on large instances.
    let meta = new_meta(limits, Vec::new(), 0, o.props, o.props * 4);
    let props = meta.fresh(o.props);
    let mut st = State {
        meta: meta.clone(),
        facts: Vec::new(),
        derived: None,
        rest: Vec::new(),
        props,
        obs: Vec::new(),
        live: Vec::new(),
    };
    let mut law = meta.top();
    for (bits, lo, hi) in o.ranges {
        law = oom(law.and(&range_law(&st, bits, *lo, *hi)?))?;
    }
    for f in o.laws {
        law = oom(law.and(&plain(&st, f)?))?;
    }
    let bit = |p: Prop| o.actual.get(p).copied().unwrap_or(false);
    let mut extra: Vec<(VarNo, bool)> = Vec::new();
    let mut obs = Vec::new();
    for terms in o.observes {
        let mut seen: Vec<VarNo> = Vec::new();
        for t in terms {
            if let Term::Var(bits) = t {
                seen.extend(bits.iter().map(|&p| st.props[p]));
                continue;
            }
            let term = arith::observed(&meta, &st.props, t)?;
            let width = (128 - term.max.leading_zeros() as usize).max(1);
            let fresh = meta.fresh(width);
            let fresh_bits = super::vars::vec_of(&meta, &fresh)?;
            law = oom(law.and(&term.law(&meta, &fresh_bits)?))?;
            let v = u128::try_from(t.value(&bit) + term.offset as i128).map_err(|_| {
                EngineError::Malformed("an observed term below its smallest value".into())
            })?;
            for (i, &x) in fresh.iter().enumerate() {
                extra.push((x, v >> i & 1 == 1));
            }
            seen.extend(fresh);
        }
        seen.sort_unstable();
        seen.dedup();
        obs.push(seen);
    }
    st.obs = obs;
    st.live = (0..meta.num_vars() as VarNo).collect();
    let mut actual = vec![false; meta.num_vars()];
    for (p, &v) in st.props.iter().enumerate() {
        actual[v as usize] = bit(p);
    }
    for (v, b) in extra {
        actual[v as usize] = b;
    }
    let current = st.current();
    let none = |_: VarNo| None;
    let law = cleanup::cleanup(&mut st, law, &actual, &current, &none, true)?;
    Ok(SymbolicModel::new(st, law, actual, *limits))
}
