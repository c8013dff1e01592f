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

use super::eval::eval;
use super::vars::{
    add, constant, eq_const, oom, sub_const, vec_of, width_for, Bdd, BitVec, Meta, Res, State,
};
use crate::engine::event::{EventModel, Post};
use crate::engine::model::Rel;
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
    /// For each fresh variable of a changed fact or of a class, how its value follows
    /// from the old state and the event: `(var, function)`.
    pub defs: Vec<(VarNo, Bdd)>,
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
    em.relations
        .iter()
        .map(
            |r| match Rel::from_relation(r, em.events.len()).map_err(bad)? {
                Rel::Partition(p) => Ok(p.class.clone()),
                Rel::General(_) => Err(EngineError::Unsupported(format!(
                    "event model `{}` has a relation that is not an equivalence (beliefs): \
                 the symbolic engine handles knowledge only",
                    em.name
                ))),
            },
        )
        .collect()
}

/// The preconditions of every event.
pub(crate) fn pres(st: &State, law: &Bdd, em: &EventModel) -> Res<Vec<Bdd>> {
    em.events.iter().map(|e| eval(st, law, &e.pre)).collect()
}

/// Applies the transformer of `em` to `(st, law)`. `pre` are the
/// preconditions when already computed.
pub(crate) fn transform(
    st: &State,
    law: &Bdd,
    em: &EventModel,
    pre: Option<Vec<Bdd>>,
) -> Res<Transformed> {
    let classes = check(st, em)?;
    let pre = match pre {
        Some(p) => p,
        None => pres(st, law, em)?,
    };
    let meta = &*st.meta;
    let posts = compile(st, law, em)?;
    let n = em.events.len();
    let event_bits = meta.fresh(width_for(n.saturating_sub(1) as u32));
    let ev = vec_of(meta, &event_bits)?;
    let is_event: Vec<Bdd> = (0..n)
        .map(|e| eq_const(meta, &ev, e as u32))
        .collect::<Res<_>>()?;
    let mut state = st.clone();
    let mut fresh = event_bits.clone();
    let mut defs = Vec::new();
    let mut new_law = meta.bot();
    for e in 0..n {
        new_law = oom(new_law.or(&oom(is_event[e].and(&pre[e]))?))?;
    }
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
    new_law = oom(new_law.and(law))?;
    observe_events(
        meta,
        &mut state,
        &classes,
        &event_bits,
        &is_event,
        &mut fresh,
        &mut defs,
    )?;
    let changed = changed_facts(&posts);
    for target in changed {
        let old = target_vars(&state, target).to_vec();
        let width = match target {
            Target::Fact(f) => meta.full_width(f / meta.locs),
            Target::Prop(_) => 1,
        };
        let vars = meta.fresh(width);
        for (i, &v) in vars.iter().enumerate() {
            let mut value = meta.bot();
            for (e, post) in posts.iter().enumerate() {
                let bit = match post.values.iter().find(|(t, _)| *t == target) {
                    Some((_, x)) => x.get(i).cloned().unwrap_or_else(|| meta.bot()),
                    None => match old.get(i) {
                        Some(&o) => meta.var(o)?,
                        None => meta.bot(),
                    },
                };
                value = oom(value.or(&oom(is_event[e].and(&bit))?))?;
            }
            defs.push((v, value));
        }
        match target {
            Target::Fact(f) => state.facts[f] = vars.clone(),
            Target::Prop(p) => state.props[p] = vars[0],
        }
        fresh.extend(&vars);
    }
    for (v, value) in &defs {
        new_law = oom(new_law.and(&oom(meta.var(*v)?.equiv(value))?))?;
    }
    state.add_live(&fresh);
    let mut designated = meta.bot();
    for e in em.designated_events() {
        designated = oom(designated.or(&is_event[e]))?;
    }
    Ok(Transformed {
        state,
        law: new_law,
        designated,
        fresh,
        event_bits,
        defs,
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
fn changed_facts(posts: &[Compiled]) -> Vec<Target> {
    let mut all: Vec<Target> = posts
        .iter()
        .flat_map(|p| p.values.iter().map(|(t, _)| *t))
        .collect();
    all.sort_unstable();
    all.dedup();
    all
}

/// Compiles every event's postcondition into bit-vector arithmetic.
fn compile(st: &State, law: &Bdd, em: &EventModel) -> Res<Vec<Compiled>> {
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
        for post in &event.post {
            match post {
                Post::Move { kind, from, to, n } => {
                    if *kind >= meta.copies.len() {
                        return Err(bad(format!("card kind {kind} out of range")));
                    }
                    let (from, to) = (loc(*from)?, loc(*to)?);
                    let w = meta.full_width(*kind);
                    let src = value(st, &c, Target::Fact(meta.fact(*kind, from)))?;
                    let (left, under) = sub_const(meta, &src, *n, w)?;
                    c.missing = oom(c.missing.or(&under))?;
                    set(&mut c, Target::Fact(meta.fact(*kind, from)), left);
                    let dst = value(st, &c, Target::Fact(meta.fact(*kind, to)))?;
                    let sum = add(meta, &dst, &constant(meta, *n, w), w)?;
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
                    set(&mut c, Target::Prop(*p), vec![eval(st, law, phi)?]);
                }
            }
        }
        out.push(c);
    }
    Ok(out)
}

/// A target's value so far in an event's postcondition.
fn value(st: &State, c: &Compiled, t: Target) -> Res<BitVec> {
    match c.values.iter().find(|(x, _)| *x == t) {
        Some((_, v)) => Ok(v.clone()),
        None => vec_of(&st.meta, target_vars(st, t)),
    }
}

/// Records a target's new value in an event's postcondition.
fn set(c: &mut Compiled, t: Target, v: BitVec) {
    match c.values.iter_mut().find(|(x, _)| *x == t) {
        Some(slot) => slot.1 = v,
        None => c.values.push((t, v)),
    }
}
