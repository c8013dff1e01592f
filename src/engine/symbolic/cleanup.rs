//! Keeping a structure small after an update without changing what any
//! formula means at any state.
//!
//! Each step maps the states of the structure onto the states of the new
//! one so that every state stays bisimilar to its image (for every agent
//! and, since relations stay "agree on the observed variables", for every
//! group's distributed knowledge too); formulas only read present values,
//! so truth is preserved:
//!
//! 1. Variables every agent observes take their actual value: no path of
//!    any agent changes them, so the states that differ lose only states
//!    unreachable from the actual one.
//! 2. Agent a starts observing a present variable x when x is determined by
//!    what a observes (no two θ-states agree on `O_a` but differ on x): a's
//!    relation does not change.
//! 3. Agent a stops observing a history or event variable determined by
//!    its other observed variables: a's relation does not change.
//! 4. A group Y of history/event variables observed by the agents A is
//!    forgotten (θ := ∃Y θ, Y removed everywhere) when
//!    `θ = ∃Y θ ∧ ∃(V∖(S∪Y)) θ` with S the other variables all of A
//!    observe. The map s ↦ s∖Y is a bisimulation: forth is trivial; back,
//!    for s and t' ∈ ∃Yθ agreeing on `O_b ∖ Y` (b ∈ A, so on S), t = t' with
//!    Y := s(Y) is in θ because θ factors through S ∪ Y, and t agrees with
//!    s on `O_b`; agents outside A do not see Y at all.
//! 5. History and event variables nobody observes are quantified out: no
//!    relation and no atom reads them (4 with A empty).

use rustc_hash::FxHashSet;

use oxidd::{BooleanFunction, Function, InnerNode, Manager, Node, VarNo};

use super::vars::{oom, Bdd, Res, State};

/// The cleanup after an update. `fresh_current` are the present variables
/// the update made and the old ones its preconditions read (the
/// candidates of step 2: after a peek at a slot, the peeker observes the
/// slot's variables instead of the event's); `actual` the actual state's
/// values. Without `tests`, the optional semantic tests of steps 2 and 3
/// and the per-run forgetting of step 4 are skipped (an update on a
/// factored law: its small law would run them on every variable, where
/// the whole law, too large for them, never did).
pub(crate) fn cleanup(
    st: &mut State,
    law: Bdd,
    actual: &[bool],
    fresh_current: &[VarNo],
    defs_support: &dyn Fn(VarNo) -> Option<Vec<VarNo>>,
    tests: bool,
) -> Res<Bdd> {
    let mut law = law;
    if !st.obs.is_empty() {
        let shared = shared_by(st, &(0..st.obs.len()).collect::<Vec<_>>());
        law = oom(law.and(&st.meta.assignment(&shared, |v| actual[v as usize])?))?;
    }
    let small = tests && small(&law);
    observe_determined(st, &law, small, fresh_current, defs_support)?;
    if small {
        drop_determined(st, &law)?;
    }
    law = forget_unobserved(st, law)?;
    law = forget_independent(st, law, tests)?;
    forget_unobserved(st, law)
}

/// The variables every agent of `group` observes, sorted.
fn shared_by(st: &State, group: &[usize]) -> Vec<VarNo> {
    let mut it = group.iter();
    let Some(&first) = it.next() else {
        return Vec::new();
    };
    let mut out = st.obs[first].clone();
    for &a in it {
        out.retain(|v| st.obs[a].binary_search(v).is_ok());
    }
    out
}

/// Whether the semantic tests of steps 2 and 3 (two quantifications per
/// variable and agent) are cheap enough for `law`.
pub(crate) fn small(law: &Bdd) -> bool {
    nodes_at_most(law, SMALL)
}

/// Whether `f` has at most `limit` inner nodes: a walk that stops at the
/// first node past the limit, where counting every node of a large law
/// (as `node_count` does) would cost a pass over all of it.
pub(crate) fn nodes_at_most(f: &Bdd, limit: usize) -> bool {
    f.with_manager_shared(|m, root| {
        let mut seen: FxHashSet<usize> = FxHashSet::default();
        let mut stack = vec![root];
        while let Some(e) = stack.pop() {
            if let Node::Inner(node) = m.get_node(e) {
                if !seen.insert(e.node_id()) {
                    continue;
                }
                if seen.len() > limit {
                    return false;
                }
                stack.extend(node.children());
            }
        }
        true
    })
}

/// The largest law on which steps 2 and 3 test every variable.
const SMALL: usize = 20_000;

/// `∃(V∖keep) θ`: what θ says of the variables `keep` (sorted). The
/// tests of steps 2 and 3 read it instead of θ: for a variable x of
/// `keep` and `observed ⊆ keep`, with H = V∖observed,
/// `∃H(θ ∧ x) = ∃(keep∖observed)(x ∧ ∃(V∖keep)θ)`, so one quantification
/// of θ per agent serves every variable tested.
fn seen_through(st: &State, law: &Bdd, keep: &[VarNo]) -> Res<Bdd> {
    st.meta.exists(law, &st.live_except(keep))
}

/// Whether `x` takes one value in all states of `p` that agree outside
/// `unseen` (x ∈ `unseen`): `∃unseen(p ∧ x) ∧ ∃unseen(p ∧ ¬x)` is empty.
/// With `p = ∃(V∖keep) θ` and `unseen = keep ∖ observed`, this is whether
/// θ-states that agree on `observed` agree on x.
fn determined_in(st: &State, p: &Bdd, unseen: &[VarNo], x: VarNo) -> Res<bool> {
    let meta = &*st.meta;
    let v = meta.var(x)?;
    let yes = meta.and_exists(p, &v, unseen)?;
    let no = meta.and_exists(p, &oom(v.not())?, unseen)?;
    Ok(!oom(yes.and(&no))?.satisfiable())
}

/// Step 2: agents observe the new present variables they can infer. A
/// variable whose definition reads only variables the agent observes is
/// determined without a test.
fn observe_determined(
    st: &mut State,
    law: &Bdd,
    small: bool,
    fresh: &[VarNo],
    defs_support: &dyn Fn(VarNo) -> Option<Vec<VarNo>>,
) -> Res<()> {
    for a in 0..st.obs.len() {
        let mut add = Vec::new();
        let mut test = Vec::new();
        for &x in fresh {
            if st.obs[a].binary_search(&x).is_ok() {
                continue;
            }
            let by_def = defs_support(x)
                .is_some_and(|sup| sup.iter().all(|v| st.obs[a].binary_search(v).is_ok()));
            if by_def {
                add.push(x);
            } else if small {
                test.push(x);
            }
        }
        test.sort_unstable();
        test.dedup();
        if !test.is_empty() {
            let mut keep = st.obs[a].clone();
            keep.extend(&test);
            keep.sort_unstable();
            let p = seen_through(st, law, &keep)?;
            for &x in &test {
                if determined_in(st, &p, &test, x)? {
                    add.push(x);
                }
            }
        }
        st.obs[a].extend(add);
        st.obs[a].sort_unstable();
        st.obs[a].dedup();
    }
    Ok(())
}

/// Step 3: agents stop observing history variables their other
/// observations determine (called on small laws only: the steps are
/// optional, they only keep the structure small). Each test reads θ
/// through what the agent still observes; a variable dropped is
/// quantified out of that view.
fn drop_determined(st: &mut State, law: &Bdd) -> Res<()> {
    let current = st.current();
    for a in 0..st.obs.len() {
        let history: Vec<VarNo> = st.obs[a]
            .iter()
            .copied()
            .filter(|v| current.binary_search(v).is_err())
            .collect();
        if history.is_empty() {
            continue;
        }
        let mut p = seen_through(st, law, &st.obs[a])?;
        for y in history {
            if determined_in(st, &p, &[y], y)? {
                st.obs[a].retain(|&v| v != y);
                p = st.meta.exists(&p, &[y])?;
            }
        }
    }
    Ok(())
}

/// Step 5: history variables nobody observes are quantified out.
fn forget_unobserved(st: &mut State, law: Bdd) -> Res<Bdd> {
    let current = st.current();
    let gone: Vec<VarNo> = st
        .live
        .iter()
        .copied()
        .filter(|v| current.binary_search(v).is_err())
        .filter(|v| st.obs.iter().all(|o| o.binary_search(v).is_err()))
        .collect();
    let law = st.meta.exists(&law, &gone)?;
    st.drop_vars(&gone);
    Ok(law)
}

/// Step 4: groups of history variables that θ does not tie to the rest
/// beyond what their observers share are forgotten: first all the history
/// variables with the same observers at once, then (on small laws) each
/// run of consecutive ones.
fn forget_independent(st: &mut State, law: Bdd, runs_too: bool) -> Res<Bdd> {
    let mut law = law;
    let runs = history_groups(st);
    let mut by_observers: Vec<(Vec<usize>, Vec<VarNo>)> = Vec::new();
    for run in &runs {
        let who = observers_of(st, run[0]);
        match by_observers.iter_mut().find(|(w, _)| *w == who) {
            Some((_, vars)) => vars.extend(run),
            None => by_observers.push((who, run.clone())),
        }
    }
    for (_, group) in by_observers {
        law = try_forget(st, law, &group)?;
    }
    if runs_too && small(&law) {
        for run in history_groups(st) {
            law = try_forget(st, law, &run)?;
        }
    }
    Ok(law)
}

/// The agents that observe `v`.
fn observers_of(st: &State, v: VarNo) -> Vec<usize> {
    (0..st.obs.len())
        .filter(|&a| st.obs[a].binary_search(&v).is_ok())
        .collect()
}

/// Forgets `group` (history variables with the same observers) if step 4's test holds.
fn try_forget(st: &mut State, law: Bdd, group: &[VarNo]) -> Res<Bdd> {
    let observers = observers_of(st, group[0]);
    let s: Vec<VarNo> = shared_by(st, &observers)
        .into_iter()
        .filter(|v| !group.contains(v))
        .collect();
    let meta = &*st.meta;
    let without = meta.exists(&law, group)?;
    let mut keep = s;
    keep.extend(group);
    keep.sort_unstable();
    let local = meta.exists(&law, &st.live_except(&keep))?;
    if oom(without.and(&local))? == law {
        st.drop_vars(group);
        Ok(without)
    } else {
        Ok(law)
    }
}

/// Runs of consecutive live history variables with the same observers.
fn history_groups(st: &State) -> Vec<Vec<VarNo>> {
    let current = st.current();
    let observers =
        |v: VarNo| -> Vec<bool> { st.obs.iter().map(|o| o.binary_search(&v).is_ok()).collect() };
    let mut groups: Vec<Vec<VarNo>> = Vec::new();
    let mut last: Option<(VarNo, Vec<bool>)> = None;
    for &v in &st.live {
        if current.binary_search(&v).is_ok() {
            last = None;
            continue;
        }
        let who = observers(v);
        match (&last, groups.last_mut()) {
            (Some((prev, w)), Some(g)) if *prev + 1 == v && *w == who => g.push(v),
            _ => groups.push(vec![v]),
        }
        last = Some((v, who));
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::super::{SymbolicLimits, SymbolicModel};
    use super::*;
    use crate::engine::deal::DealSpec;

    #[test]
    fn the_bounded_size_test_agrees_with_the_node_count() {
        // Eight distinct cards in two hands of three and a stock of two.
        let mut actual = vec![vec![0u32; 8]; 3];
        for k in 0..8 {
            actual[k * 3 / 8][k] = 1;
        }
        let spec = DealSpec::dealt(vec![1; 8], actual, vec![vec![0], vec![1]]);
        let m = SymbolicModel::from_deal(&spec, &SymbolicLimits::default()).unwrap();
        let law = &m.law().unwrap();
        // One terminal node: false is the complemented edge to true.
        let inner = Function::node_count(law) - 1;
        assert!(inner > 10, "a law worth testing: {inner} nodes");
        assert!(nodes_at_most(law, inner));
        assert!(nodes_at_most(law, inner + 1));
        assert!(!nodes_at_most(law, inner - 1));
        assert!(!nodes_at_most(law, 1));
    }
}
