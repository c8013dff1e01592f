//! Explicit S5 models as knowledge structures, to compare the engines on
//! hand-written models.
//!
//! The structure has the facts and propositions, a world index w̄ (a
//! hidden variable nobody observes) and for each agent the index of its
//! class (or w̄ itself when it tells every world apart):
//! `θ = ∨_w (w̄ = w ∧ values(w) ∧ ∧_a c̄_a = class_a(w))`. States are then
//! worlds and "agree on c̄_a" is a's relation; the cleanup of updates
//! removes what is not needed.

use oxidd::{BooleanFunction, VarNo};

use super::cleanup;
use super::vars::{oom, width_for, Meta, Res, State};
use super::{new_meta, SymbolicLimits, SymbolicModel};
use crate::engine::translate::s5_classes;
use crate::engine::{Backend, ExplicitModel};

/// The structure of an S5 explicit model, read through
/// [`crate::engine::translate`] and the [`Backend`] interface.
///
/// A contracted model whose group relations are no longer the intersections
/// of its agents' relations is refused: give the model before contraction
/// ([`ExplicitModel::from_valuations_generated`]).
pub(crate) fn from_explicit(m: &ExplicitModel, limits: &SymbolicLimits) -> Res<SymbolicModel> {
    let classes = s5_classes(m)?;
    let (kinds, locations, n) = (m.copies().len(), m.locations(), m.len());
    let meta = new_meta(
        limits,
        m.copies().to_vec(),
        locations,
        m.props(),
        usize::MAX,
    );
    let facts: Vec<Vec<VarNo>> = (0..kinds * locations)
        .map(|f| meta.fresh(meta.full_width(f / locations.max(1))))
        .collect();
    let props = meta.fresh(m.props());
    let mut obs = Vec::new();
    let mut class_vars = Vec::new();
    let index = meta.fresh(width_for(n.saturating_sub(1) as u32));
    for (class, count) in &classes {
        let vars = if *count == n {
            index.clone()
        } else {
            meta.fresh(width_for(count.saturating_sub(1) as u32))
        };
        class_vars.push((vars.clone(), class.clone()));
        let mut o = vars;
        o.sort_unstable();
        obs.push(o);
    }
    let mut st = State {
        meta: meta.clone(),
        facts,
        derived: None,
        rest: Vec::new(),
        props,
        obs,
        live: (0..meta.num_vars() as VarNo).collect(),
    };
    let mut actual = vec![false; meta.num_vars()];
    let mut law = meta.bot();
    for w in 0..n {
        let values = world_values(&st, m, w, &index, &class_vars);
        if w == m.actual() {
            for &(v, b) in &values {
                actual[v as usize] = b;
            }
        }
        let vars: Vec<VarNo> = values.iter().map(|&(v, _)| v).collect();
        let cube = meta.assignment(&vars, |v| values.iter().any(|&(x, b)| x == v && b))?;
        law = oom(law.or(&cube))?;
    }
    let current = st.current();
    let none = |_: VarNo| None;
    let law = cleanup::cleanup(&mut st, law, &actual, &current, &none, true)?;
    Ok(SymbolicModel::new(st, law, actual, *limits))
}

/// Every variable's value in world `w`.
fn world_values(
    st: &State,
    m: &ExplicitModel,
    w: usize,
    index: &[VarNo],
    class_vars: &[(Vec<VarNo>, Vec<u32>)],
) -> Vec<(VarNo, bool)> {
    let meta: &Meta = &st.meta;
    let view = m.world(w);
    let mut out = Vec::new();
    let mut put = |vars: &[VarNo], value: u32| {
        for (i, &v) in vars.iter().enumerate() {
            out.push((v, value >> i & 1 == 1));
        }
    };
    for k in 0..meta.copies.len() {
        for l in 0..meta.locs {
            put(&st.facts[meta.fact(k, l)], view.cards[l][k]);
        }
    }
    for (p, &v) in st.props.iter().enumerate() {
        put(&[v], u32::from(view.props[p]));
    }
    put(index, w as u32);
    for (vars, class) in class_vars {
        if vars.as_slice() != index {
            put(vars, class[w]);
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}
