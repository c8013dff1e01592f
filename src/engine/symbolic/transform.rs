//! Event models as knowledge transformers (as in SMCDEL).
//!
//! Applying `E = (Ev, ~, pre, post)` to `(V, θ, O)` adds fresh variables
//! ē (the event's binary index; none for one event), for each agent whose
//! partition of the events is neither the identity nor trivial fresh class
//! variables c̄_a (the class of ē), and for every fact or proposition some
//! event changes fresh variables x'. The new law is
//!
//! ```text
//! θ' = θ ∧ ∨_e (ē = e ∧ pre_e) ∧ ∧_a (c̄_a = class_a(ē)) ∧ ∧_x (x' ↔ ∨_e (ē = e ∧ post_e(x)))
//! ```
//!
//! Agent a observes what it observed (the old values stay as history
//! variables) plus ē when it tells every event apart, or c̄_a. Two new
//! states are then a-related iff their old states were and their events
//! are a-related: exactly the product update. The present value of each
//! changed fact moves to x'.

use oxidd::{BooleanFunction, VarNo};

use super::derived;
use super::eval::{eval, eval_in, Atoms};
use super::vars::{
    add, constant, eq_const, oom, sub_const, vec_of, width_for, Bdd, BitVec, Meta, Res, State,
};
use super::walk;
use crate::engine::event::{EventId, EventModel, Post};
use crate::engine::formula::{Cmp, Formula};
use crate::engine::translate;
use crate::engine::EngineError;

/// A structure after a transformer, before any cleanup.
pub(crate) struct Transformed {
    /// The new variables and observations.
    pub state: State,
    /// θ'.
    pub law: Bdd,
    /// ē ∈ the designated events.
    pub designated: Bdd,
    /// Every fresh variable.
    pub fresh: Vec<VarNo>,
    /// The event variables ē.
    pub event_bits: Vec<VarNo>,
    /// For each fresh variable, a function of the old state and the event
    /// variables that gives its value in the actual state (in order).
    pub defs: Vec<(VarNo, Bdd)>,
    /// For fresh variables that are functions of the old state and ē in every
    /// state, that function (to see cheaply who can compute them).
    pub derived: Vec<(VarNo, Bdd)>,
    /// The events kept (the actual event's component), when an actual event was given.
    pub kept: Vec<EventId>,
}

/// Checks `em` against the structure (as the explicit engine does) and
/// returns each agent's partition of the events. Event models whose
/// relations are not equivalences are refused.
pub(crate) fn check(st: &State, em: &EventModel) -> Res<Vec<Vec<u32>>> {
    let bad = |why: String| EngineError::Malformed(format!("event model `{}`: {why}", em.name));
    if em.relations.len() != st.obs.len() {
        return Err(bad(format!(
            "{} relations for {} agents",
            em.relations.len(),
            st.obs.len()
        )));
    }
    if let Some(e) = em.designated.iter().find(|&&e| e >= em.events.len()) {
        return Err(bad(format!("designated event {e} out of range")));
    }
    translate::event_classes(em)?.ok_or_else(|| {
        EngineError::Unsupported(format!(
            "event model `{}` has a relation that is not an equivalence (beliefs): \
             the symbolic engine handles knowledge only",
            em.name
        ))
    })
}

/// The preconditions of every event.
pub(crate) fn pres(st: &State, law: &Bdd, em: &EventModel) -> Res<Vec<Bdd>> {
    pres_in(st, law, em, &Atoms::default())
}

/// The preconditions' truth sets, reading and keeping atoms in `atoms`
/// (`st`'s): the events of one move often share atoms.
pub(crate) fn pres_in(st: &State, law: &Bdd, em: &EventModel, atoms: &Atoms) -> Res<Vec<Bdd>> {
    em.events
        .iter()
        .map(|e| eval_in(st, law, &e.pre, atoms))
        .collect()
}

/// Applies the transformer of `em` to `(st, law)`. `pre` are the
/// preconditions when already computed; `actual` the event that happens
/// (for an update of the model, not inside a formula): then only the
/// events connected to it by the agents' partitions are kept (the others
/// give states unreachable from the actual one), and the event variables
/// are left out when every agent can tell the events apart by what it sees
/// ([`without_events`]). `whole` says whether `law` is θ itself or the
/// weaker law of a factored update (`factors.rs`), on which implied
/// preconditions are not looked for and one-bit counts are not trimmed.
pub(crate) fn transform(
    st: &State,
    law: &Bdd,
    em: &EventModel,
    pre: Option<Vec<Bdd>>,
    actual: Option<EventId>,
    whole: bool,
) -> Res<Transformed> {
    let classes = check(st, em)?;
    let pre = match pre {
        Some(p) => p,
        None => pres(st, law, em)?,
    };
    // On a factored update's small law the test per event costs more
    // than it saves (52 events of a draw from distinct cards).
    let pre = if whole {
        implied_true(st, law, pre)?
    } else {
        pre
    };
    let posts = compile(st, em, &|phi| eval(st, law, phi))?;
    // Cards that are not there: refused if some possible state and event need them.
    for (e, post) in posts.iter().enumerate() {
        let problem = oom(oom(post.missing.and(&pre[e]))?.and(law))?;
        if problem.satisfiable() {
            return Err(EngineError::MissingCards {
                model: em.name.clone(),
                event: em.events[e].name.clone(),
            });
        }
    }
    let kept = match actual {
        Some(e) => connected(&classes, e),
        None => (0..em.events.len()).collect(),
    };
    let ev = Events {
        classes: classes
            .iter()
            .map(|c| dense(kept.iter().map(|&e| c[e])))
            .collect(),
        pre: kept.iter().map(|&e| pre[e].clone()).collect(),
        posts: kept.iter().map(|&e| &posts[e]).collect(),
        designated: em
            .designated_events()
            .iter()
            .filter_map(|e| kept.iter().position(|k| k == e))
            .collect(),
    };
    if let Some(e) = actual {
        let at = kept.iter().position(|&k| k == e).unwrap_or(0);
        if let Some(t) = without_events(st, law, &ev, at, whole)? {
            return Ok(t);
        }
    }
    let mut t = with_events(st, law, &ev, None)?;
    t.kept = kept;
    Ok(t)
}

/// The transformer of an event model whose relations need not be
/// equivalences (a belief structure's update, `belief.rs`): event
/// variables ē for the events `kept` (in that order; none for one
/// event), the new law and the postconditions' new values, and no agent
/// observes ē: what each agent tells apart is the caller's relation on
/// ē. Checks the missing cards as [`transform`] does.
pub(crate) fn belief_transform(
    st: &State,
    law: &Bdd,
    em: &EventModel,
    pre: Vec<Bdd>,
    kept: &[EventId],
    whole: bool,
    truth: &dyn Fn(&Formula) -> Res<Bdd>,
) -> Res<Transformed> {
    let pre = if whole {
        implied_true(st, law, pre)?
    } else {
        pre
    };
    let posts = compile(st, em, truth)?;
    for (e, post) in posts.iter().enumerate() {
        let problem = oom(oom(post.missing.and(&pre[e]))?.and(law))?;
        if problem.satisfiable() {
            return Err(EngineError::MissingCards {
                model: em.name.clone(),
                event: em.events[e].name.clone(),
            });
        }
    }
    let ev = Events {
        classes: vec![vec![0; kept.len()]; st.obs.len()],
        pre: kept.iter().map(|&e| pre[e].clone()).collect(),
        posts: kept.iter().map(|&e| &posts[e]).collect(),
        designated: em
            .designated_events()
            .iter()
            .filter_map(|e| kept.iter().position(|k| k == e))
            .collect(),
    };
    // The event variables next to the deepest fact the preconditions read
    // (a spare copy of it, as a new value takes): a glimpse at a slot
    // ties its event bit to the slot, and a bit at the bottom of the
    // order would make the law carry "the slot holds v" through every
    // variable below it.
    let width = width_for(kept.len().saturating_sub(1) as u32);
    let deepest = ev.pre.iter().flat_map(walk::support).max();
    let near = deepest.and_then(|v| st.facts.iter().position(|f| f.contains(&v)));
    let bits = near.map(|f| st.meta.slot(&st.live, f, width));
    let mut t = with_events(st, law, &ev, bits)?;
    t.kept = kept.to_vec();
    Ok(t)
}

/// The preconditions with each one the law implies replaced by ⊤. The
/// transformer conjoins θ anyway, so this changes no state; but a
/// precondition that never binds inside θ can still be a large BDD
/// outside it (a draw's "the stock has the card", read as the copies not
/// elsewhere, is a sum over every location), and the disjunction over the
/// events of such preconditions, each tied to its own new values, keeps
/// every kind's running sum at once. Tested on laws of up to
/// [`CHEAP_LAW`] nodes only: a test per event costs a pass over the law,
/// too dear on a large law (a full-deck Go Fish game's last moves have
/// laws of 10,000 to 25,000 nodes and 52 events).
fn implied_true(st: &State, law: &Bdd, pre: Vec<Bdd>) -> Res<Vec<Bdd>> {
    if !super::cleanup::nodes_at_most(law, CHEAP_LAW) {
        return Ok(pre);
    }
    pre.into_iter()
        .map(|p| {
            if p.valid() || oom(law.and(&oom(p.not())?))?.satisfiable() {
                Ok(p)
            } else {
                Ok(st.meta.top())
            }
        })
        .collect()
}

/// The largest law on which [`implied_true`] tests the preconditions and
/// [`needed_width`] the new values' bits.
const CHEAP_LAW: usize = 4_000;

/// The events a transformer keeps, renumbered.
struct Events<'a> {
    /// Each agent's class of each event.
    classes: Vec<Vec<u32>>,
    /// The preconditions.
    pre: Vec<Bdd>,
    /// The postconditions.
    posts: Vec<&'a Compiled>,
    /// The designated events.
    designated: Vec<usize>,
}

/// Class ids renumbered 0, 1, ... in order of first appearance. The kept
/// events may miss some of an agent's classes, and the transformer reads
/// the number of classes off the largest id (an agent with one class among
/// the kept events must not look as if it told them apart).
pub(crate) fn dense(ids: impl Iterator<Item = u32>) -> Vec<u32> {
    let mut seen: Vec<u32> = Vec::new();
    ids.map(|c| match seen.iter().position(|&s| s == c) {
        Some(i) => i as u32,
        None => {
            seen.push(c);
            seen.len() as u32 - 1
        }
    })
    .collect()
}

/// The events connected to `e` by the union of the agents' partitions, in order.
fn connected(classes: &[Vec<u32>], e: usize) -> Vec<usize> {
    let n = classes.first().map_or(e + 1, |c| c.len());
    let mut keep = vec![false; n];
    keep[e] = true;
    loop {
        let mut grew = false;
        for c in classes {
            for f in 0..n {
                if !keep[f] && (0..n).any(|g| keep[g] && c[g] == c[f]) {
                    keep[f] = true;
                    grew = true;
                }
            }
        }
        if !grew {
            return (0..n).filter(|&f| keep[f]).collect();
        }
    }
}

/// The new value of target `t` after event `e` (the old value if `e` leaves it).
fn new_value(st: &State, ev: &Events, e: usize, t: Target) -> Res<BitVec> {
    match ev.posts[e].values.iter().find(|(x, _)| *x == t) {
        Some((_, v)) => Ok(v.clone()),
        None => old_value(st, t),
    }
}

/// A target's present value (a rest's computed from its location's other
/// counts).
fn old_value(st: &State, t: Target) -> Res<BitVec> {
    match t {
        Target::Fact(f) => derived::fact_value(st, f / st.meta.locs, f % st.meta.locs),
        Target::Prop(_) => vec_of(&st.meta, target_vars(st, t)),
    }
}

/// Moves target `t`'s present value to `vars`. A rest that gets
/// variables stops being one (`derived.rs`).
fn place(state: &mut State, t: Target, vars: &[VarNo]) {
    match t {
        Target::Fact(f) => {
            state.facts[f] = vars.to_vec();
            let (k, l) = (f / state.meta.locs, f % state.meta.locs);
            if derived::is_rest(state, k, l) {
                state.rest[l] = None;
            }
        }
        Target::Prop(p) => state.props[p] = vars[0],
    }
}

/// Bit i of a vector (false past its end).
fn bit(meta: &Meta, v: &BitVec, i: usize) -> Bdd {
    v.get(i).cloned().unwrap_or_else(|| meta.bot())
}

/// The width and slot index of a target's new value.
fn target_shape(meta: &Meta, t: Target) -> (usize, usize) {
    match t {
        Target::Fact(f) => (meta.full_width(f / meta.locs), f),
        Target::Prop(p) => (1, meta.copies.len() * meta.locs + p),
    }
}

/// The transformer without event variables, when every agent that tells
/// some kept events apart can tell them apart by its old observations and
/// the new values it can compute from them (its "news" N_a): no two events
/// in different a-classes can give equal news from a-indistinguishable
/// states. Then a state (s, e) is identified by (s, new values) and
/// `θ' = θ ∧ ∨_e (pre_e ∧ x' ↔ post_e(x))`; two such states are
/// a-related iff they agree on `O_a` and N_a, which is the product's
/// relation. States (s, e), (s, f) with equal new values merge, which is
/// sound because no agent tells e and f apart (else the test would fail).
/// Old values that no agent observes are quantified out at once.
fn without_events(
    st: &State,
    law: &Bdd,
    ev: &Events,
    actual: usize,
    whole: bool,
) -> Res<Option<Transformed>> {
    let meta = &*st.meta;
    let n = ev.pre.len();
    let changed = changed_facts(&ev.posts);
    let values: Vec<Vec<BitVec>> = (0..n)
        .map(|e| changed.iter().map(|&t| new_value(st, ev, e, t)).collect())
        .collect::<Res<_>>()?;
    let mut news: Vec<Vec<usize>> = Vec::new();
    for a in 0..ev.classes.len() {
        let mine = news_of(st, ev, a, &values);
        if !tells_apart(st, ev, a, &values, &mine)? {
            return Ok(None);
        }
        news.push(mine);
    }
    let mut state = st.clone();
    let mut fresh = Vec::new();
    let mut new_vars = Vec::new();
    let small = super::cleanup::nodes_at_most(law, CHEAP_LAW);
    for (ti, &t) in changed.iter().enumerate() {
        let (mut width, index) = target_shape(meta, t);
        // A one-bit count can only lose its bit to a count that stays 0:
        // not worth a test per event on a factored update (52 events of a
        // draw from a deck of distinct cards).
        if small && matches!(t, Target::Fact(_)) && (whole || width > 1) {
            width = needed_width(law, ev, &values, ti, width)?;
        }
        let vars = meta.slot(&state.live, index, width);
        state.add_live(&vars);
        fresh.extend(&vars);
        new_vars.push(vars);
    }
    // Each event's new values tied to its old ones. A target the event
    // does not change keeps its old value: that frame condition is the
    // same for every such event, so the frames are conjoined once, as
    // prefix and suffix products (a draw of one of 52 cards changes one
    // target of 52: 52 conjunctions per event instead of 52 × 52).
    let tie = |t: usize, after: &BitVec| -> Res<Bdd> {
        let mut acc = meta.top();
        for (i, &v) in new_vars[t].iter().enumerate().rev() {
            acc = oom(oom(meta.var(v)?.equiv(&bit(meta, after, i)))?.and(&acc))?;
        }
        Ok(acc)
    };
    let frame: Vec<Bdd> = changed
        .iter()
        .enumerate()
        .map(|(ti, &t)| tie(ti, &old_value(st, t)?))
        .collect::<Res<_>>()?;
    let mut suffix = vec![meta.top(); changed.len() + 1];
    for t in (0..changed.len()).rev() {
        suffix[t] = oom(frame[t].and(&suffix[t + 1]))?;
    }
    let mut prefix = vec![meta.top(); changed.len() + 1];
    for t in 0..changed.len() {
        prefix[t + 1] = oom(prefix[t].and(&frame[t]))?;
    }
    let mut any = meta.bot();
    for (e, (pre, after)) in ev.pre.iter().zip(&values).enumerate() {
        let moved: Vec<usize> = changed
            .iter()
            .enumerate()
            .filter(|(_, t)| ev.posts[e].values.iter().any(|(x, _)| x == *t))
            .map(|(ti, _)| ti)
            .collect();
        let mut this = match (moved.first(), moved.last()) {
            (Some(&first), Some(&last)) => oom(prefix[first].and(&suffix[last + 1]))?,
            _ => prefix[changed.len()].clone(),
        };
        if let (Some(&first), Some(&last)) = (moved.first(), moved.last()) {
            for t in first..=last {
                let part = if moved.contains(&t) {
                    tie(t, &after[t])?
                } else {
                    frame[t].clone()
                };
                this = oom(this.and(&part))?;
            }
        }
        this = oom(this.and(pre))?;
        any = oom(any.or(&this))?;
    }
    let mut defs = Vec::new();
    for (t, &target) in changed.iter().enumerate() {
        for (i, &v) in new_vars[t].iter().enumerate() {
            defs.push((v, bit(meta, &values[actual][t], i)));
        }
        place(&mut state, target, &new_vars[t]);
    }
    for (a, mine) in news.iter().enumerate() {
        for &t in mine {
            state.obs[a].extend(&new_vars[t]);
        }
        state.obs[a].sort_unstable();
    }
    // Old values nobody observes are history no cleanup keeps (step 5):
    // quantified out in the same pass as the conjunction (a relational
    // product), which never builds θ ∧ T over old and new values at once.
    let gone: Vec<VarNo> = changed
        .iter()
        .flat_map(|&t| target_vars(st, t).iter().copied())
        .filter(|v| st.obs.iter().all(|o| o.binary_search(v).is_err()))
        .collect();
    let law = meta.and_exists(law, &any, &gone)?;
    state.drop_vars(&gone);
    Ok(Some(Transformed {
        state,
        law,
        designated: meta.top(),
        fresh,
        event_bits: Vec::new(),
        defs,
        derived: Vec::new(),
        kept: Vec::new(),
    }))
}

/// The bits target `t`'s new value needs: its full width less the high
/// bits that are 0 in every state of θ where an event that could set
/// them happens. A count rewritten at its kind's full width (seven bits
/// for a kind of 70 copies) makes every later sum over it, such as the
/// derived location's copies not elsewhere, a modular adder over all
/// those bits, where the law keeps it at one card (a slot). Events with
/// the same new value are tested together.
fn needed_width(
    law: &Bdd,
    ev: &Events,
    values: &[Vec<BitVec>],
    t: usize,
    full: usize,
) -> Res<usize> {
    let mut groups: Vec<(&BitVec, Bdd)> = Vec::new();
    for (e, pre) in ev.pre.iter().enumerate() {
        let v = &values[e][t];
        match groups.iter_mut().find(|(w, _)| *w == v) {
            Some((_, p)) => *p = oom(p.or(pre))?,
            None => groups.push((v, pre.clone())),
        }
    }
    let mut width = full;
    while width > 0 {
        let mut used = false;
        for (v, pre) in &groups {
            if let Some(b) = v.get(width - 1) {
                if oom(oom(law.and(pre))?.and(b))?.satisfiable() {
                    used = true;
                    break;
                }
            }
        }
        if used {
            break;
        }
        width -= 1;
    }
    Ok(width)
}

/// Agent a's news: the changed targets (indices into `values[e]`) whose
/// new value a can compute from what it observes and its class of the event.
fn news_of(st: &State, ev: &Events, a: usize, values: &[Vec<BitVec>]) -> Vec<usize> {
    let (observed, class) = (&st.obs[a], &ev.classes[a]);
    let n = class.len();
    let reads_seen = |b: &Bdd| {
        walk::support(b)
            .iter()
            .all(|v| observed.binary_search(v).is_ok())
    };
    let known = |t: usize| -> bool {
        (0..n).all(|e| values[e][t].iter().all(reads_seen))
            && (0..n).all(|e| (0..n).all(|f| class[e] != class[f] || values[e][t] == values[f][t]))
    };
    let targets = values.first().map_or(0, |v| v.len());
    (0..targets).filter(|&t| known(t)).collect()
}

/// Whether agent `a` tells apart every two events of different a-classes
/// by its observations and its news `mine`: no two such events have
/// preconditions possible for a and equal news.
fn tells_apart(
    st: &State,
    ev: &Events,
    a: usize,
    values: &[Vec<BitVec>],
    mine: &[usize],
) -> Res<bool> {
    let meta = &*st.meta;
    let class = &ev.classes[a];
    let n = class.len();
    if (0..n).all(|e| class[e] == class[0]) {
        return Ok(true);
    }
    let hidden = st.live_except(&st.obs[a]);
    let possible: Vec<Bdd> = ev
        .pre
        .iter()
        .map(|p| meta.exists(p, &hidden))
        .collect::<Res<_>>()?;
    for e in 0..n {
        for f in e + 1..n {
            if class[e] == class[f] {
                continue;
            }
            let mut both = oom(possible[e].and(&possible[f]))?;
            for &t in mine {
                if !both.satisfiable() {
                    break;
                }
                for i in 0..values[e][t].len().max(values[f][t].len()) {
                    let same =
                        oom(bit(meta, &values[e][t], i).equiv(&bit(meta, &values[f][t], i)))?;
                    both = oom(both.and(&same))?;
                }
            }
            if both.satisfiable() {
                return Ok(false);
            }
        }
    }
    Ok(true)
}

/// The transformer with event variables ē (and class variables).
/// `bits`: the event variables to use (of the right width), else fresh
/// ones at the bottom.
fn with_events(st: &State, law: &Bdd, ev: &Events, bits: Option<Vec<VarNo>>) -> Res<Transformed> {
    let meta = &*st.meta;
    let n = ev.pre.len();
    let width = width_for(n.saturating_sub(1) as u32);
    let event_bits = match bits {
        Some(b) if b.len() == width => b,
        _ => meta.fresh(width),
    };
    let evec = vec_of(meta, &event_bits)?;
    let is_event: Vec<Bdd> = (0..n)
        .map(|e| eq_const(meta, &evec, e as u32))
        .collect::<Res<_>>()?;
    let mut state = st.clone();
    state.add_live(&event_bits);
    let mut fresh = event_bits.clone();
    let mut defs = Vec::new();
    let mut new_law = meta.bot();
    for (is, pre) in is_event.iter().zip(&ev.pre) {
        new_law = oom(new_law.or(&oom(is.and(pre))?))?;
    }
    new_law = oom(new_law.and(law))?;
    observe_events(
        meta,
        &mut state,
        &ev.classes,
        &event_bits,
        &is_event,
        &mut fresh,
        &mut defs,
    )?;
    for target in changed_facts(&ev.posts) {
        let (width, index) = target_shape(meta, target);
        let vars = meta.slot(&state.live, index, width);
        state.add_live(&vars);
        for (i, &v) in vars.iter().enumerate() {
            let mut value = meta.bot();
            for (e, is) in is_event.iter().enumerate() {
                let x = new_value(st, ev, e, target)?;
                value = oom(value.or(&oom(is.and(&bit(meta, &x, i)))?))?;
            }
            defs.push((v, value));
        }
        place(&mut state, target, &vars);
        fresh.extend(&vars);
    }
    for (v, value) in &defs {
        new_law = oom(new_law.and(&oom(meta.var(*v)?.equiv(value))?))?;
    }
    state.add_live(&fresh);
    let mut designated = meta.bot();
    for &e in &ev.designated {
        designated = oom(designated.or(&is_event[e]))?;
    }
    Ok(Transformed {
        state,
        law: new_law,
        designated,
        fresh,
        event_bits,
        derived: defs.clone(),
        defs,
        kept: Vec::new(),
    })
}

/// Gives each agent ē (if it tells all events apart) or class variables
/// defined from ē (if it tells some apart).
fn observe_events(
    meta: &Meta,
    state: &mut State,
    classes: &[Vec<u32>],
    event_bits: &[VarNo],
    is_event: &[Bdd],
    fresh: &mut Vec<VarNo>,
    defs: &mut Vec<(VarNo, Bdd)>,
) -> Res<()> {
    let n = is_event.len();
    let mut made: Vec<(Vec<u32>, Vec<VarNo>)> = Vec::new();
    for (a, class) in classes.iter().enumerate() {
        let count = class.iter().max().map_or(0, |&c| c as usize + 1);
        let seen: Vec<VarNo> = if count == n {
            event_bits.to_vec()
        } else if count <= 1 {
            Vec::new()
        } else if let Some((_, vars)) = made.iter().find(|(c, _)| c == class) {
            vars.clone()
        } else {
            let vars = meta.fresh(width_for(count as u32 - 1));
            for (i, &v) in vars.iter().enumerate() {
                let mut value = meta.bot();
                for (e, &c) in class.iter().enumerate() {
                    if c >> i & 1 == 1 {
                        value = oom(value.or(&is_event[e]))?;
                    }
                }
                defs.push((v, value));
            }
            fresh.extend(&vars);
            made.push((class.clone(), vars.clone()));
            vars
        };
        state.obs[a].extend(seen);
        state.obs[a].sort_unstable();
        state.obs[a].dedup();
    }
    Ok(())
}

/// Something an event can change.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Target {
    /// A fact (kind, location), by index.
    Fact(usize),
    /// A proposition.
    Prop(usize),
}

/// The variables holding a target's present value.
fn target_vars(st: &State, t: Target) -> &[VarNo] {
    match t {
        Target::Fact(f) => &st.facts[f],
        Target::Prop(p) => std::slice::from_ref(&st.props[p]),
    }
}

/// One event's postcondition as functions of the old state.
struct Compiled {
    /// The new value of every target the event changes.
    values: Vec<(Target, BitVec)>,
    /// The states where the event moves cards that are not there.
    missing: Bdd,
}

/// The targets some event changes, sorted.
fn changed_facts(posts: &[&Compiled]) -> Vec<Target> {
    let mut all: Vec<Target> = posts
        .iter()
        .flat_map(|p| p.values.iter().map(|(t, _)| *t))
        .collect();
    all.sort_unstable();
    all.dedup();
    all
}

/// Compiles every event's postcondition into bit-vector arithmetic.
/// `truth` gives a `Set`'s formula's truth set in the structure.
fn compile(
    st: &State,
    em: &EventModel,
    truth: &dyn Fn(&Formula) -> Res<Bdd>,
) -> Res<Vec<Compiled>> {
    let meta = &*st.meta;
    let bad = |why: String| EngineError::Malformed(format!("event model `{}`: {why}", em.name));
    let loc = |l: usize| {
        if l < meta.locs {
            Ok(l)
        } else {
            Err(bad(format!("location {l} out of range")))
        }
    };
    let mut out = Vec::with_capacity(em.events.len());
    for event in &em.events {
        let mut c = Compiled {
            values: Vec::new(),
            missing: meta.bot(),
        };
        for (i, post) in event.post.iter().enumerate() {
            match post {
                Post::Move { kind, from, to, n } => {
                    if *kind >= meta.copies.len() {
                        return Err(bad(format!("card kind {kind} out of range")));
                    }
                    let (from, to) = (loc(*from)?, loc(*to)?);
                    let w = meta.full_width(*kind);
                    let source = Target::Fact(meta.fact(*kind, from));
                    // A card drawn from the stock: only "the stock holds
                    // fewer than n" is needed, when no later move of the
                    // event reads the stock's count (its new value is
                    // not kept, see below), and it is an atom built
                    // without the stock's sum (`derived::count_atom`).
                    let drawn = if is_derived(st, source)
                        && c.values.iter().all(|(t, _)| *t != source)
                        && !event.post[i + 1..].iter().any(|p| touches(p, from))
                    {
                        derived::count_atom(st, *kind, from, Cmp::Lt, *n, n.saturating_add(1))?
                    } else {
                        None
                    };
                    if let Some(under) = drawn {
                        debug_assert!(
                            Ok(&under)
                                == value(st, &c, source)
                                    .and_then(|src| sub_const(meta, &src, *n, w))
                                    .map(|(_, under)| under)
                                    .as_ref(),
                            "the stock's shortfall built directly is the summed one"
                        );
                        c.missing = oom(c.missing.or(&under))?;
                    } else {
                        let src = value(st, &c, source)?;
                        let (left, under) = sub_const(meta, &src, *n, w)?;
                        c.missing = oom(c.missing.or(&under))?;
                        set(&mut c, source, left);
                    }
                    let dst = value(st, &c, Target::Fact(meta.fact(*kind, to)))?;
                    let sum = add(meta, &dst, &constant(meta, (*n).into(), w), w)?;
                    set(&mut c, Target::Fact(meta.fact(*kind, to)), sum);
                }
                Post::MoveAll { from, to } => {
                    let (from, to) = (loc(*from)?, loc(*to)?);
                    if from == to {
                        continue;
                    }
                    for k in 0..meta.copies.len() {
                        let w = meta.full_width(k);
                        let src = value(st, &c, Target::Fact(meta.fact(k, from)))?;
                        let dst = value(st, &c, Target::Fact(meta.fact(k, to)))?;
                        set(
                            &mut c,
                            Target::Fact(meta.fact(k, to)),
                            add(meta, &dst, &src, w)?,
                        );
                        set(
                            &mut c,
                            Target::Fact(meta.fact(k, from)),
                            constant(meta, 0, w),
                        );
                    }
                }
                Post::Set(p, phi) => {
                    if *p >= meta.props {
                        return Err(bad(format!("proposition {p} out of range")));
                    }
                    set(&mut c, Target::Prop(*p), vec![truth(phi)?]);
                }
            }
        }
        // The derived location's new value follows from the others' (the
        // event conserves the cards): it was tracked only for later posts
        // of this event and for the missing cards.
        c.values.retain(|(t, _)| !is_derived(st, *t));
        // A rest is the size less the other counts only while nothing at
        // its location changes: an event that changes a count there gives
        // the rest its value (unchanged by moves of other kinds) as a new
        // value too, so that the rest gets variables.
        for (l, rest) in st.rest.iter().enumerate() {
            let Some((r, _)) = *rest else { continue };
            let here = |t: &Target| matches!(t, Target::Fact(f) if f % meta.locs == l);
            let rt = Target::Fact(meta.fact(r, l));
            if c.values.iter().any(|(t, _)| here(t)) && c.values.iter().all(|(t, _)| *t != rt) {
                let v = derived::fact_value(st, r, l)?;
                c.values.push((rt, v));
            }
        }
        out.push(c);
    }
    Ok(out)
}

/// A target's value so far in an event's postcondition (the derived
/// location's computed from the others').
fn value(st: &State, c: &Compiled, t: Target) -> Res<BitVec> {
    let meta = &*st.meta;
    match (c.values.iter().find(|(x, _)| *x == t), t) {
        (Some((_, v)), _) => Ok(v.clone()),
        (None, Target::Fact(f)) => derived::fact_value(st, f / meta.locs, f % meta.locs),
        (None, Target::Prop(_)) => vec_of(meta, target_vars(st, t)),
    }
}

/// Whether a postcondition moves cards into or out of location `l`.
fn touches(p: &Post, l: usize) -> bool {
    match *p {
        Post::Move { from, to, .. } | Post::MoveAll { from, to } => from == l || to == l,
        Post::Set(..) => false,
    }
}

/// Whether `t` is a fact of the derived location.
fn is_derived(st: &State, t: Target) -> bool {
    matches!(t, Target::Fact(f) if st.derived == Some(f % st.meta.locs))
}

/// Records a target's new value in an event's postcondition.
fn set(c: &mut Compiled, t: Target, v: BitVec) {
    match c.values.iter_mut().find(|(x, _)| *x == t) {
        Some(slot) => slot.1 = v,
        None => c.values.push((t, v)),
    }
}
