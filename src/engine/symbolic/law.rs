//! The deal's state law and the count atoms, both by dynamic programming
//! over bit vectors of BDDs.
//!
//! A fact (kind k, location l) is the count of k at l, stored in
//! `width_for(min(copies[k], sizes[l]))` bits at the deal (a location of
//! one card needs one bit per kind); a fact rewritten by an update gets the
//! full width of its kind. The law says that each kind's copies are spread
//! over the locations, that each location holds its size, that every
//! proposition is false and that the locations every agent sees hold what
//! they hold in the actual deal (the explicit engine's pinned locations).
//! A location no agent observes is held derived (`derived.rs`): it has no
//! variables, the other locations hold at most each kind's copies, and its
//! counts are the copies left over.

use std::rc::Rc;

use oxidd::{BooleanFunction, Function, VarNo};
use rustc_hash::FxHashSet;

use super::derived;
use super::vars::{
    eq_const, oom, sum_eq, sum_le, sum_table, weighted, width_for, Bdd, BitVec, Meta, Res, State,
};
use crate::engine::deal::{pinned, unpinned, DealSpec};
use crate::engine::formula::{Atom, Cmp};
use crate::engine::EngineError;

/// Spare copies of each fact's bits, next to them in the variable order.
const SPARE: usize = 3;

/// The order of the facts' variables: kind-major (every location of kind 0,
/// then kind 1, ...) when the law's running sums per location are the
/// smaller state, location-major otherwise (many one-card locations, as in
/// the muddy children or the dining cryptographers). The locations follow
/// [`location_order`]. Returns the facts in order.
pub(crate) fn fact_order(spec: &DealSpec) -> Vec<(usize, usize)> {
    let kinds = spec.copies.len();
    let order = location_order(spec);
    if kind_major(spec) {
        (0..kinds)
            .flat_map(|k| order.iter().map(move |&l| (k, l)))
            .collect()
    } else {
        order
            .iter()
            .flat_map(|&l| (0..kinds).map(move |k| (k, l)))
            .collect()
    }
}

/// The order of the locations: first those the user listed
/// (`spec.order`), then a chain chosen from the observation structure.
///
/// The chain starts at a location the most agents see; each next location
/// is one whose observers are most like the last one's (Jaccard index of
/// the two sets), ties going to more observers and then to the first
/// declared. Locations the same agents see end up together: a dining
/// cryptographer's pay pile next to the coins it sees, as in SMCDEL's
/// interleaved order, where a K quantifies a contiguous block. Locations
/// more agents see go higher: quantifying variables near the bottom creates
/// few nodes.
pub(crate) fn location_order(spec: &DealSpec) -> Vec<usize> {
    let locs = spec.sizes.len();
    let seers: Vec<Vec<usize>> = (0..locs)
        .map(|l| {
            (0..spec.observers.len())
                .filter(|&a| spec.observers[a].contains(&l))
                .collect()
        })
        .collect();
    let mut placed = vec![false; locs];
    let mut order = Vec::with_capacity(locs);
    for &l in &spec.order {
        if l < locs && !placed[l] {
            placed[l] = true;
            order.push(l);
        }
    }
    while order.len() < locs {
        let last = order.last().map(|&l| seers[l].as_slice());
        let next = (0..locs).filter(|&l| !placed[l]).max_by(|&x, &y| {
            let key = |l: usize| (last.map_or(0.0, |o| jaccard(o, &seers[l])), seers[l].len());
            let (kx, ky) = (key(x), key(y));
            kx.0.total_cmp(&ky.0).then(kx.1.cmp(&ky.1)).then(y.cmp(&x))
        });
        let Some(l) = next else { break };
        placed[l] = true;
        order.push(l);
    }
    order
}

/// |a ∩ b| / |a ∪ b| for sorted sets (0 for two empty ones).
fn jaccard(a: &[usize], b: &[usize]) -> f64 {
    let common = a.iter().filter(|x| b.binary_search(x).is_ok()).count();
    let union = a.len() + b.len() - common;
    if union == 0 {
        0.0
    } else {
        common as f64 / union as f64
    }
}

/// The variables of a deal's structure (nobody observes anything yet but
/// its locations) and its law.
pub(crate) fn deal_structure(meta: Rc<Meta>, spec: &DealSpec) -> Res<(State, Bdd)> {
    let (mut state, rests) = deal_vars(meta.clone(), spec);
    let law = deal_law(&state, spec)?;
    let mut temp = Vec::new();
    let mut bound = Vec::new();
    for (l, rest) in rests.iter().enumerate() {
        if let Some((k, _)) = *rest {
            let f = meta.fact(k, l);
            bound.push(std::mem::take(&mut state.facts[f]));
        }
    }
    state.rest = rests;
    let mut defs = meta.top();
    let mut bound = bound.into_iter();
    for (l, rest) in state.rest.iter().enumerate() {
        if let Some((k, _)) = *rest {
            let vars = bound.next().unwrap_or_default();
            let value = derived::fact_value(&state, k, l)?;
            for (i, &v) in vars.iter().enumerate() {
                let b = value.get(i).cloned().unwrap_or_else(|| meta.bot());
                defs = oom(defs.and(&oom(meta.var(v)?.equiv(&b))?))?;
            }
            temp.extend(vars);
        }
    }
    temp.sort_unstable();
    let law = if temp.is_empty() {
        law
    } else {
        meta.and_exists(&law, &defs, &temp)?
    };
    state.live = state.current();
    Ok((state, law))
}

/// The variables of a plain deal's structure ([`plain`]): no law is built
/// (`factors::of_deal` gives its factors).
pub(crate) fn plain_vars(meta: Rc<Meta>, spec: &DealSpec) -> State {
    let (mut state, rests) = deal_vars(meta, spec);
    state.rest = rests;
    state
}

/// Whether a deal is plain: no propositions, no location restricted to
/// some kinds, no rests. Its law is then `Deck ∧` one factor per location
/// that `factors::of_deal` writes down without building the law.
pub(crate) fn plain(spec: &DealSpec) -> bool {
    spec.props == 0
        && !spec.restricted()
        && derived::rests(spec, derived::choose(spec))
            .iter()
            .all(Option::is_none)
}

/// Whether a deal's law surely has more than `n` nodes, known without
/// building it (false when it cannot tell).
///
/// In the kind-major order ([`fact_order`]), take a fact's first variable
/// and the sizes the open locations (neither pinned nor derived) have
/// reached before it: the earlier kinds' counts, and the fact's own kind
/// at the locations before it. For every size vector that the earlier
/// variables can reach and the later ones complete, the law has a node
/// at that variable: two vectors leave different functions (their
/// completions fill the locations by different amounts), and each depends
/// on the variable (setting it adds a card to a location, or the location
/// is pinned). The vectors are counted fact by fact, by dynamic
/// programming over (vector, copies of the kind placed so far), until
/// their sum passes `n`; nodes at different variables are different
/// nodes. In the location-major order the answer is false.
pub(crate) fn surely_larger(spec: &DealSpec, n: usize) -> bool {
    nodes_at_least(spec, n) > n
}

/// The count of [`surely_larger`], a lower bound of the law's nodes
/// (0 in the location-major order); the counting stops once it passes `n`.
pub(crate) fn nodes_at_least(spec: &DealSpec, n: usize) -> usize {
    if !kind_major(spec) {
        return 0;
    }
    let pins = pinned(spec);
    let derived = derived::choose(spec);
    let at_most = derived.is_some();
    let order = location_order(spec);
    let open: Vec<usize> = order
        .iter()
        .copied()
        .filter(|&l| !pins[l] && derived != Some(l) && spec.sizes[l] > 0)
        .collect();
    let room: Vec<u32> = open.iter().map(|&l| spec.sizes[l]).collect();
    let (left, _) = unpinned(spec);
    let mut later: u32 = left.iter().sum();
    let mut counted = 0usize;
    let mut level: FxHashSet<Vec<u32>> = std::iter::once(vec![0; open.len()]).collect();
    for (k, &copies) in left.iter().enumerate() {
        later -= copies;
        let mut states: FxHashSet<(Vec<u32>, u32)> = level.into_iter().map(|c| (c, 0)).collect();
        // The open locations of the kind's block not passed yet.
        let mut ahead = 0;
        for &l in &order {
            let has_vars = derived != Some(l)
                && spec.allows(l, k)
                && width_for(spec.copies[k].min(spec.sizes[l])) > 0;
            let slot = open.iter().position(|&o| o == l);
            if has_vars {
                states.retain(|(c, t)| {
                    let free: u32 = (ahead..open.len()).map(|i| room[i] - c[i]).sum();
                    let need: u32 = (0..open.len()).map(|i| room[i] - c[i]).sum();
                    let kind = copies - t;
                    if at_most {
                        need - kind.min(free) <= later
                    } else {
                        kind <= free && need == kind + later
                    }
                });
                let vectors: FxHashSet<&Vec<u32>> = states.iter().map(|(c, _)| c).collect();
                counted += vectors.len();
                if counted > n {
                    return counted;
                }
            }
            let Some(i) = slot else { continue };
            ahead = i + 1;
            if !has_vars {
                continue;
            }
            let mut next = FxHashSet::default();
            for (c, t) in &states {
                for d in 0..=(copies - t).min(room[i] - c[i]) {
                    let mut grown = c.clone();
                    grown[i] += d;
                    next.insert((grown, t + d));
                }
            }
            states = next;
        }
        level = states
            .into_iter()
            .filter(|&(_, t)| at_most || t == copies)
            .map(|(c, _)| c)
            .collect();
    }
    counted
}

/// Whether the facts' variables go kind by kind ([`fact_order`]).
fn kind_major(spec: &DealSpec) -> bool {
    let log =
        |xs: &mut dyn Iterator<Item = u32>| -> f64 { xs.map(|x| f64::from(x + 1).log2()).sum() };
    // The derived location has no variables and no size constraint; a
    // kind with at least as many copies as the other locations' room never
    // binds, so its running sum is no state at all.
    let derived = derived::choose(spec);
    let stored = |l: &usize| derived != Some(*l);
    let room: u32 = (0..spec.sizes.len())
        .filter(stored)
        .map(|l| spec.sizes[l])
        .sum();
    let by_location = log(&mut (0..spec.sizes.len()).filter(stored).map(|l| spec.sizes[l]));
    let by_kind = log(&mut spec
        .copies
        .iter()
        .filter(|&&c| derived.is_none() || c < room)
        .map(|&c| c.min(room)));
    by_location <= by_kind
}

/// The structure's variables, every fact with its own (the rests' are
/// replaced once the law is built), and each location's rest.
fn deal_vars(meta: Rc<Meta>, spec: &DealSpec) -> (State, Vec<Option<(usize, u32)>>) {
    let (kinds, locs) = (spec.copies.len(), spec.sizes.len());
    let derived = derived::choose(spec);
    // The derived location has no variables and needs no spare copies.
    let width = |k: usize, l: usize| {
        if derived == Some(l) || !spec.allows(l, k) {
            0
        } else {
            width_for(spec.copies[k].min(spec.sizes[l]))
        }
    };
    let spare = |l: usize| if derived == Some(l) { 0 } else { SPARE };
    let order = fact_order(spec);
    let full = |k: usize| meta.full_width(k);
    let total: usize = order
        .iter()
        .map(|&(k, l)| width(k, l) + spare(l) * full(k))
        .sum();
    let fresh = meta.fresh(total + spec.props * (1 + SPARE));
    let mut facts = vec![Vec::new(); kinds * locs];
    let mut slots = vec![Vec::new(); kinds * locs + spec.props];
    let mut next = fresh.iter().copied();
    for &(k, l) in &order {
        facts[meta.fact(k, l)] = next.by_ref().take(width(k, l)).collect();
        for _ in 0..spare(l) {
            slots[meta.fact(k, l)].push(next.by_ref().take(full(k)).collect());
        }
    }
    let mut props = Vec::new();
    for p in 0..spec.props {
        props.extend(next.next());
        for _ in 0..SPARE {
            slots[kinds * locs + p].push(next.by_ref().take(1).collect());
        }
    }
    let _ = meta.slots.set(slots);
    // The rests get variables for building the law, which are then
    // replaced by what they equal (`derived.rs`, "rests").
    let rests = derived::rests(spec, derived);
    let is_rest = |k: usize, l: usize| rests[l].is_some_and(|(r, _)| r == k);
    let obs = spec
        .observers
        .iter()
        .map(|seen| {
            let mut o: Vec<VarNo> = Vec::new();
            for &l in seen {
                for k in (0..kinds).filter(|&k| !is_rest(k, l)) {
                    o.extend(&facts[k * locs + l]);
                }
            }
            o.sort_unstable();
            o.dedup();
            o
        })
        .collect();
    let mut state = State {
        meta: meta.clone(),
        facts,
        derived,
        rest: Vec::new(),
        props,
        obs,
        live: Vec::new(),
    };
    state.live = state.current();
    (state, rests)
}

/// θ for a deal: spread, sizes, propositions false, pinned locations as
/// dealt. With a derived location D, each kind's copies are spread over
/// the other locations as "at most the copies" (D holds the rest), and D's
/// size is left out (it follows from the others').
fn deal_law(st: &State, spec: &DealSpec) -> Res<Bdd> {
    let meta = &*st.meta;
    let (kinds, locs) = (spec.copies.len(), spec.sizes.len());
    let pins = pinned(spec);
    let mut law = meta.assignment(&st.props, |_| false)?;
    for (l, &fixed) in pins.iter().enumerate() {
        if fixed {
            for k in 0..kinds {
                let x = derived::fact_value(st, k, l)?;
                law = oom(law.and(&eq_const(meta, &x, spec.actual[l][k])?))?;
            }
        }
    }
    let fact = |k: usize, l: usize| st.facts[meta.fact(k, l)].as_slice();
    let mut parts = Vec::new();
    for (k, &c) in spec.copies.iter().enumerate() {
        let bits: Vec<&[VarNo]> = (0..locs).map(|l| fact(k, l)).collect();
        parts.push(match st.derived {
            Some(_) => sum_le(meta, &weighted(&bits), c)?,
            None => sum_eq(meta, &weighted(&bits), c)?,
        });
    }
    for (l, &s) in spec.sizes.iter().enumerate() {
        if st.derived == Some(l) {
            continue;
        }
        let bits: Vec<&[VarNo]> = (0..kinds).map(|k| fact(k, l)).collect();
        parts.push(sum_eq(meta, &weighted(&bits), s)?);
    }
    // Smallest first keeps the intermediate conjunctions small.
    parts.sort_by_key(|p| std::cmp::Reverse(p.node_count()));
    while let Some(p) = parts.pop() {
        law = oom(law.and(&p))?;
    }
    Ok(law)
}

/// The truth set of an atom over the structure's present values.
pub(crate) fn atom(st: &State, a: &Atom) -> Res<Bdd> {
    let meta = &*st.meta;
    match a {
        Atom::Prop(p) => match st.props.get(*p) {
            Some(&v) => meta.var(v),
            None => Err(EngineError::Malformed(format!(
                "proposition {p} out of range ({} propositions)",
                st.props.len()
            ))),
        },
        Atom::Compare(c) => super::arith::compare(meta, &st.props, c),
        Atom::Count { loc, kinds, cmp, n } => {
            if *loc >= meta.locs {
                return Err(EngineError::Malformed(format!(
                    "location {loc} out of range ({} locations)",
                    meta.locs
                )));
            }
            if let Some(k) = kinds.iter().find(|&&k| k >= meta.copies.len()) {
                return Err(EngineError::Malformed(format!(
                    "card kind {k} out of range ({} kinds)",
                    meta.copies.len()
                )));
            }
            let total: u32 = meta.copies.iter().sum();
            let cap = (*n).min(total).saturating_add(1);
            if let [k] = kinds[..] {
                if let Some(b) = derived::count_atom(st, k, *loc, *cmp, *n, cap)? {
                    debug_assert!(
                        Ok(&b) == summed_atom(st, kinds, *loc, *cmp, *n, cap).as_ref(),
                        "a derived count atom built directly is the summed one"
                    );
                    return Ok(b);
                }
            }
            summed_atom(st, kinds, *loc, *cmp, *n, cap)
        }
    }
}

/// "The cards of `kinds` at `loc` number `cmp n`", from their counts
/// summed (each count's bit vector, the derived location's and rests'
/// summed from the others), every sum above `cap` read as `cap`.
fn summed_atom(st: &State, kinds: &[usize], loc: usize, cmp: Cmp, n: u32, cap: u32) -> Res<Bdd> {
    let meta = &*st.meta;
    let xs = kinds
        .iter()
        .map(|&k| derived::fact_value(st, k, loc))
        .collect::<Res<Vec<BitVec>>>()?;
    let table = sum_table(meta, &xs, cap)?;
    let mut out = meta.bot();
    for (v, t) in table.iter().enumerate() {
        // Index `cap` stands for every larger sum: it compares like them.
        if cmp.holds(v as u32, n) {
            out = oom(out.or(t))?;
        }
    }
    Ok(out)
}
